"""`tf.repeat` (array_ops.repeat_with_axis) as TF builds it. A scalar count: ExpandDims after the
axis, Tile that new axis `repeats` times, Reshape to the repeated shape. A vector of counts (fz20):
the counts broadcast over the axis (and over the dimensions before it), a sequence mask of
max(0, max count) columns, the input tiled that many times after the axis, BooleanMask, and a
Reshape to the summed count unless the axis is 0 — so values, errors, gradient (Tile's and
BooleanMask's) and cost are those ops'. Keras's UpSampling1D/2D (nearest) are this op."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.ops import array, partial_values, static_shapes
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.slicing import tile
from simdist.runtime.tensor import Tensor

__all__ = ["repeat"]


def _repeat_static(a: dict) -> list[int | None] | None:
    """tf.repeat's static shape with repeats the graph does not know: the axis' dimension unknown (a flattened
    input: one unknown dimension)."""
    x = a["input"]
    known = static_shapes.known_shape(x) if isinstance(x, Tensor) else list(np.shape(x))
    if a["axis"] is None or known is None:
        return [None]
    if not known:   # (_with_nonzero_rank: a scalar is stacked into a vector first; esweep67)
        known = [1]
    known[int(a["axis"]) % max(len(known), 1)] = None
    return known


@partial_values.shaped("repeats", rule=_repeat_static)
def repeat(input: Any, repeats: Any, axis: int | None = None, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.repeat(input, repeats, axis=None)`: each element along `axis` repeated `repeats`
    times (axis None: the flattened input). A per-element repeats vector is not implemented."""
    if axis is not None and not isinstance(axis, int):   # (array_ops.repeat_with_axis, before any conversion:
        # a NumPy integer is refused; fz14 seed 1420261219 #381)
        raise TypeError(f"Argument `axis` must be an int. Received `axis` = {axis} of type {type(axis).__name__}")
    x = _t(input)
    if axis is not None and x.ndim == 0 and not static_shapes.rank_unknown(x):
        # (repeat_with_axis's _with_nonzero_rank: a scalar is stacked into a vector before the axis
        # is checked against its rank: `repeat(-2.5, 5, axis=-1)` is five -2.5; fz27b, fz14 seed
        # 1420272701 #181)
        x = array.stack([x])
    # (repeat_with_axis converts repeats before anything else reads it: convert_to_int_tensor, an integer
    # tensor cast to int32, any other dtype TypeError, a scalar as a vector: `repeat(x, 2.0)`, a bool or a NaN
    # count; TF 2.21 observed, fz44b, fz43_gen seed 43003)
    counts = np.asarray(_int_counts(repeats)._v)
    if counts.size != 1:
        return _repeat_counts(x, repeats, axis)
    k = int(counts.reshape(()))
    if axis is None:
        x, axis = array.reshape(x, [-1]), 0
    nd = x.ndim
    axis = int(axis)
    if not -nd <= axis < nd:
        raise ValueError(f"axis={axis} out of bounds: expected {-nd}<=axis<{nd}")
    axis %= nd
    shape = x.shape.as_list()
    multiples = [1] * (nd + 1)
    multiples[axis + 1] = k
    tiled = tile(array.expand_dims(x, axis + 1), multiples)
    return array.reshape(tiled, shape[:axis] + [shape[axis] * k] + shape[axis + 1:])


def _int_counts(repeats: Any) -> Tensor:
    """array_ops.convert_to_int_tensor(repeats): converted preferring int32; not an integer dtype is
    TypeError "Argument `tensor` (name: repeats) must be of type integer. Received ..."."""
    from simdist.runtime import dtypes
    from simdist.runtime.tensor import convert_to_tensor
    r = repeats if isinstance(repeats, Tensor) else convert_to_tensor(repeats, dtype_hint=dtypes.int32)
    if not r.dtype.is_integer:
        raise TypeError(f"Argument `tensor` (name: repeats) must be of type integer. Received `tensor` = {r._v} "
                        f"of dtype: {r.dtype!r}")
    return r


def _repeat_counts(x: Tensor, repeats: Any, axis: int | None) -> Tensor:
    """repeat_with_axis for repeats of other than one element (array_ops.py, TF 2.21): the
    counts as an int tensor (convert_to_int_tensor: integers cast to int32, others TypeError), of
    rank at most 1 and, as a vector, of the axis's length; then the sequence-mask composition."""
    from simdist.runtime import dtypes
    from simdist.runtime.ops.generators import sequence_mask
    from simdist.runtime.ops.math import cast, maximum, reduce_max, reduce_sum
    if axis is None:   # (repeat: the flattened input along axis 0)
        x, axis = array.reshape(x, [-1]), 0
    r = cast(_int_counts(repeats), dtypes.int32)
    if r.ndim > 1:
        raise ValueError(f"Shape {r.shape} must have rank at most 1")
    if x.ndim == 0:
        x = array.stack([x])
    nd = x.ndim
    if not -nd <= axis < nd:
        raise ValueError(f"axis={axis} out of bounds: expected {-nd}<=axis<{nd}")
    axis %= nd
    shape = x.shape.as_list()
    if r.ndim == 1 and r.shape.as_list()[0] != shape[axis]:
        raise ValueError(f"Dimensions {shape[axis]} and {r.shape.as_list()[0]} are not compatible")
    r = array.broadcast_to(r, [shape[axis]])
    original = r
    if axis != 0:
        r = array.broadcast_to(r, shape[:axis + 1])
    top = maximum(array.constant(0, dtype=dtypes.int32), reduce_max(r))
    mask = sequence_mask(r, top)
    multiples = [1] * (nd + 1)
    multiples[axis + 1] = int(top._v)
    masked = array.boolean_mask(tile(array.expand_dims(x, axis + 1), multiples), mask)
    if axis == 0:
        return masked
    size = int(reduce_sum(original)._v)
    known = static_shapes.known_shape(x)
    if known is not None and known[0] == 0 and size != 0:
        # (repeat_with_axis's closing set_shape: the broadcast counts' first dimension is the input's first, so
        # an input whose static first dimension is 0 declares the repeated axis 0 (`new_axis_size = 0 if
        # repeats.shape[0] == 0`), and counts summing past 0 along a later axis meet it: ValueError, eagerly and
        # traced — repeat(zeros((0, 2)), [2, 1], axis=1); TF 2.21 observed, esweep67)
        raise ValueError(f"Tensor's shape {tuple(shape[:axis] + [size] + shape[axis + 1:])} is not compatible "
                         f"with supplied shape {tuple(known[:axis] + [0] + known[axis + 1:])}")
    return array.reshape(masked, shape[:axis] + [size] + shape[axis + 1:])
