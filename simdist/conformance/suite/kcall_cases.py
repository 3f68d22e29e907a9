"""Keras layers' call arguments (issue 29, kcall): every layer of kargs' plan, and the attention layers kargs leaves
out, called in its default configuration with each argument of its `call` signature (after the inputs) set, one at a
time, to the values that pick another branch: a bool negated (`return_attention_scores`, `use_causal_mask`,
`reverse`), `training` True and False, a mask (`mask`, `query_mask`, `value_mask`, `key_mask`, `attention_mask`)
with some steps off (each mask argument its own); where a call takes several masks, each pair of them and all of
them together.

A planted bug in a layer often sits in a branch only a call argument reaches: a key mask dropped beside a value
mask, a causal mask built the wrong way round, a `training` flag not passed on, a mask propagated where the layer
consumes it. The arguments come mechanically from the reference's own signatures (`call_variants`), so nothing about
the backend under test chooses what is tried.

Observed (`observe`): the error class of the construction or the call, or the outputs' shapes, dtypes and values,
and for a mask variant the layer's `compute_mask` of the same inputs and mask (its error class, None, or the mask);
for the plain call of every layer, `compute_mask` of no mask and of a mask of steps.
The global seed is set before each construction. The TF 2.21 recording is kcall_reference. Nothing here imports
TensorFlow.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from simdist.conformance.suite import kargs_cases

#: The attention layers kargs leaves out: their required arguments (called as layer(query, value)).
ATTENTION: dict[str, dict[str, Any]] = {
    "MultiHeadAttention": {"num_heads": 2, "key_dim": 2},
    "GroupQueryAttention": {"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 1},
}
#: The attention layers' query and value shapes.
QUERY, VALUE = (2, 4, 6), (2, 5, 6)
#: Call arguments that take a mask (None by default).
MASKS = ("mask", "query_mask", "value_mask", "key_mask", "attention_mask")


def call_variants(cls: Any, inputs: int) -> list[dict[str, Any]]:
    """The call-argument variants of a layer class whose call takes `inputs` leading input arguments: each bool
    negated, `training` True and False (its default left out), each mask argument as "MASK", then each pair of
    mask arguments and all of them."""
    params = [p for p in list(inspect.signature(cls.call).parameters.values())[1 + inputs:]
              if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    out: list[dict[str, Any]] = []
    for p in params:
        if p.name == "training":
            out += [{"training": v} for v in (True, False) if v is not p.default]
        elif isinstance(p.default, bool):
            out.append({p.name: not p.default})
        elif p.name in MASKS and p.default is None:
            out.append({p.name: "MASK"})
    masks = [p.name for p in params if p.name in MASKS and p.default is None]
    # masks together too: a layer may drop one mask beside another (each pair, then all of them)
    out += [{a: "MASK", b: "MASK"} for i, a in enumerate(masks) for b in masks[i + 1:]]
    if len(masks) > 2:
        out.append({m: "MASK" for m in masks})
    return out


def _steps_mask(shape: tuple[int, ...], offset: int = 0) -> np.ndarray:
    """A fixed boolean mask of `shape`: every fourth step off (from step 3 - offset), and the first step of every row
    on; each mask argument has its own offset, so that two masks given together differ."""
    m = ((np.arange(int(np.prod(shape))) + offset) % 4 != 3).reshape(shape)
    m[(slice(None),) * (len(shape) - 1) + (0,)] = True
    return m


def mask_for(name: str, kind: str, shape: tuple[int, ...]) -> Any:
    """The mask a "MASK" argument stands for: the attention layers' per-argument shapes; a pair of step masks for
    two inputs; else a mask of the input's leading two axes."""
    if kind == "attention":
        return _steps_mask({"query_mask": QUERY[:2], "attention_mask": QUERY[:2] + VALUE[1:2]}.get(name, VALUE[:2]),
                           MASKS.index(name))
    steps = _steps_mask(tuple(shape[:2]))
    return [steps, steps[::-1].copy()] if kind == "pair" else steps


def _inputs(tf: Any, kind: str, shape: tuple[int, ...]) -> list[Any]:
    if kind == "attention":
        n = int(np.prod(QUERY)) + int(np.prod(VALUE))
        flat = kargs_cases.input_array((n,), "float32")
        q = int(np.prod(QUERY))
        return [tf.constant(flat[:q].reshape(QUERY)), tf.constant(flat[q:].reshape(VALUE))]
    if kind == "pair":
        first = kargs_cases.input_array(shape, "float32")
        return [[tf.constant(first), tf.constant((first[..., ::-1] * 0.5 + 0.25).copy())]]
    return [tf.constant(kargs_cases.input_array(shape, kind))]


def _flat(tf: Any, x: Any) -> list[Any]:
    if x is None:
        return [None]
    return [None if v is None else kargs_cases._value(v) for v in tf.nest.flatten(x)]


def observe(tf: Any, variant: dict[str, Any]) -> dict[str, Any]:
    """A planned variant ({"layer", "kwargs", "shape", "kind", "call"}) built, called with its call arguments (a
    "MASK" resolved by `mask_for`), and for a mask its compute_mask."""
    keras = tf.keras
    kind, shape = variant["kind"], tuple(variant["shape"])
    call = {k: (tf.nest.map_structure(tf.constant, mask_for(k, kind, shape)) if v == "MASK" else v)
            for k, v in variant["call"].items()}
    keras.utils.set_random_seed(1234)
    try:
        layer = getattr(keras.layers, variant["layer"])(**kargs_cases.as_kwargs(variant["kwargs"]))
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        return {"init": type(e).__name__}
    xs = _inputs(tf, kind, shape)
    try:
        y = layer(*xs, **call)
    except Exception as e:  # noqa: BLE001
        return {"call": type(e).__name__}
    out: dict[str, Any] = {"out": [kargs_cases._value(t) for t in tf.nest.flatten(y)]}
    masks = [k for k, v in variant["call"].items() if v == "MASK"]
    if masks == ["mask"]:
        out["mask"] = _compute_mask(tf, layer, xs[0], call["mask"])
    if not variant["call"] and kind != "attention":
        # the plain call: the mask the layer passes on, of no mask and of a mask of steps
        steps = tf.nest.map_structure(tf.constant, mask_for("mask", kind, shape))
        out["compute_mask"] = [_compute_mask(tf, layer, xs[0], None), _compute_mask(tf, layer, xs[0], steps)]
    return out


def _compute_mask(tf: Any, layer: Any, x: Any, mask: Any) -> Any:
    """`layer.compute_mask(x, mask)`: its error class, or the mask (None, or each mask's values)."""
    try:
        return _flat(tf, layer.compute_mask(x, mask))
    except Exception as e:  # noqa: BLE001
        return type(e).__name__
