"""Clipping (TF's clip_ops): clip_by_value, clip_by_norm, global_norm, clip_by_global_norm.

Composites of registered ops, built as TF 2.21's clip_ops.py builds them, so their values,
gradients (those of the parts) and NaN/inf behaviour are TF's: clip_by_value is minimum then
maximum; clip_by_norm divides by max(l2norm, clip_norm) with a safe sqrt at zero; the global norm
is sqrt(2 * sum of half squared norms) and clip_by_global_norm scales by
clip_norm * min(1/global_norm, 1/clip_norm), plus (norm - norm) so an infinite norm makes every
value NaN. IndexedSlices keep their indices; None entries stay None.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from simdist.runtime import graph_names
from simdist.runtime.indexed_slices import IndexedSlices
from simdist.runtime.ops import array, math, unary
from simdist.runtime.ops.args import raw_attribute, t as _t
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["clip_by_value", "clip_by_norm", "global_norm", "clip_by_global_norm"]


def _values(t: Any) -> Tensor:
    return _t(t.values if isinstance(t, IndexedSlices) else t)


def _like(t: Any, values: Tensor) -> Any:
    return IndexedSlices(values, t.indices, t.dense_shape) if isinstance(t, IndexedSlices) else values


def _same_shape(a: Tensor, b: Tensor) -> None:
    """TF's `values.shape.assert_is_compatible_with(...)`: a clip bound must not broadcast the values up."""
    sa, sb = a.shape.as_list(), b.shape.as_list()
    if sa != sb:
        raise ValueError(f"Shapes {a.shape} and {b.shape} are incompatible")


@graph_names.scoped("clip_by_value", "Maximum")   # (clip_ops: Minimum below the scope, the Maximum named by it)
def clip_by_value(t: Any, clip_value_min: Any, clip_value_max: Any, name: str | None = None) -> Any:
    """`tf.clip_by_value`: minimum(t, max) then maximum(., min); the bounds take t's dtype (a
    float bound on an int tensor is a TypeError, as in TF)."""
    values = _values(t)
    t_min = math.minimum(values, clip_value_max)
    _same_shape(values, t_min)
    t_max = math.maximum(t_min, clip_value_min)
    _same_shape(values, t_max)
    return _like(t, t_max)


def clip_by_norm(t: Any, clip_norm: Any, axes: Any = None, name: str | None = None) -> Any:
    """`tf.clip_by_norm`: t * clip_norm / max(l2norm(t, axes), clip_norm); a negative clip_norm is 0."""
    values = _values(t)
    if np.isscalar(clip_norm):
        if clip_norm < 0:
            clip_norm = 0
    else:
        clip_norm = math.cast(math.maximum(clip_norm, 0), values.dtype)
    l2sum = math.reduce_sum(math.multiply(values, values), axes, keepdims=True)
    pred = math.greater(l2sum, 0)
    l2sum_safe = math.where(pred, l2sum, array.ones_like(l2sum))
    l2norm = math.where(pred, unary.sqrt(l2sum_safe), l2sum)
    intermediate = math.multiply(values, clip_norm)
    _same_shape(values, intermediate)
    values_clip = array.identity(math.truediv(intermediate, math.maximum(l2norm, clip_norm)))
    return _like(t, values_clip)


def _check_list(t_list: Any) -> list:
    if not isinstance(t_list, Sequence) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    return list(t_list)


def _scope_name(name: Any, default: str) -> str:
    return name if isinstance(name, str) and name else default


def global_norm(t_list: Any, name: str | None = None) -> Tensor:
    """`tf.linalg.global_norm`: sqrt(sum of squares of every entry of every tensor); None is
    skipped, IndexedSlices count their values. As TF: an L2Loss op per tensor (sum(x**2)/2),
    their sum doubled, then sqrt; L2Loss's gradient x * g is what a float16 65504 needs (Square's
    g * (2 * x) overflows to inf * 0 = NaN; third fuzzer, seed 53 #165). Inside a tf.function its nodes are
    TF's: below the scope `global_norm` (or `name`), the 2.0 a `Const`, the product `mul`, the Sqrt named
    `global_norm` (fz57)."""
    from simdist.runtime.ops.losses import l2_loss
    t_list = _check_list(t_list)
    with graph_names.op_scope(_scope_name(name, "global_norm")):
        values = [None if v is None else _values(v) for v in t_list]
        halves = [l2_loss(v) for v in values if v is not None]
        half_squared_norm = math.reduce_sum(array.stack(halves))
        graph_names.reserve("Const")   # (constant_op.constant(2.0, dtype=...))
        doubled = half_squared_norm * convert_to_tensor(2.0, dtype=half_squared_norm.dtype)
        with graph_names.given_name("global_norm", "Sqrt"):
            return unary.sqrt(doubled)


def clip_by_global_norm(t_list: Any, clip_norm: Any, use_norm: Any = None,
                        name: str | None = None) -> tuple[list, Tensor]:
    """`tf.clip_by_global_norm`: (the tensors scaled by clip_norm / max(global_norm, clip_norm),
    the global norm). None entries stay None; IndexedSlices stay IndexedSlices. Inside a tf.function the
    global norm is computed first (its own scope, given `name`), the rest below the scope `clip_by_global_norm`
    (or `name`, made unique), each clipped value the Identity `<scope>/_<i>` below it (TF's
    `identity(..., name="%s_%d" % (name, i))`; fz57)."""
    t_list = _check_list(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list, name)
    elif not isinstance(use_norm, Tensor) and getattr(use_norm, "_as_tensor", None) is None:
        # TF computes `1.0 / use_norm` and reads `use_norm.dtype` on the value as given: a Python 0 or
        # False is ZeroDivisionError, another number AttributeError (clause ops.argument-errors; fz15c)
        1.0 / use_norm
        raw_attribute(use_norm, "dtype")
    use_norm = _t(use_norm)
    with graph_names.op_scope(_scope_name(name, "clip_by_global_norm")):
        scope = graph_names.inner_name()
        # TF: clip_norm * minimum(1.0 / use_norm, constant(1.0, use_norm.dtype) / clip_norm)
        inverse = 1.0 / use_norm
        graph_names.reserve("Const")   # (constant_op.constant(1.0, dtype=use_norm.dtype))
        scale_for_finite = clip_norm * math.minimum(inverse, convert_to_tensor(1.0, dtype=use_norm.dtype) / clip_norm)
        scale = scale_for_finite + (use_norm - use_norm)
        out = []
        for i, t in enumerate(t_list):
            if t is None:
                out.append(None)
                continue
            v = _values(t)
            clipped = v * math.cast(scale, v.dtype)
            with graph_names.given_name(None if scope is None else f"{scope}_{i}", "Identity"):
                out.append(_like(t, array.identity(clipped)))
    return out, use_norm
