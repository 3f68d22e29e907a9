"""The Keras layer protocol at its edges (issue 29, kproto): every layer kargs sweeps, in its default configuration,
asked what a model-building program asks of a layer besides its output values.

A planted bug in a layer often leaves the values of an ordinary call alone and breaks the protocol around it: a
`compute_output_shape` that accepts an axis it should refuse or drops an unknown dimension, a symbolic build that
infers another shape than the call computes, a bias created without its trailing unit axes, a weight that is
trainable where Keras keeps it frozen, a float64 input not cast to the layer's compute dtype, a policy whose
variables take the compute dtype, a built layer that accepts an input of another feature size. This family asks
each of these of every layer, on shapes derived mechanically from the input shape kargs recorded for the layer
(kargs_reference's plan: the first input of its INPUT_SHAPES the layer accepts on TF 2.21):

- ``shape``: `compute_output_shape` of a fresh layer, and ``symbolic``: the output of a fresh layer called on
  `keras.Input` (shapes and dtypes), for each of SHAPE_EDITS of the input shape with an unknown batch;
- ``weights``: after a call on the fixed input, every weight's name, shape, dtype and trainability, in order;
- ``dtypes``: the outputs' shapes and dtypes of a fresh layer called on the fixed input cast to float64, float16
  and bfloat16 (float inputs), and of layers made with ``dtype="float64"`` and ``dtype="mixed_float16"``
  (their weights' dtypes too);
- ``again``: a built layer called a second time on an input of another batch size, then of another last
  dimension.

Each is the class of the error raised, or what is listed. The TF 2.21 recording is kproto_reference. Nothing here
imports TensorFlow.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.conformance.suite import kargs_cases

#: Edits of the recorded input shape (batch first, made unknown): the shape itself, every non-batch dimension
#: unknown, one dimension fewer (the last dropped), one more (a 5 inserted before the last), the last one
#: changed (to 5, or 4 if it was 5).
SHAPE_EDITS = ("same", "unknown", "rank-1", "rank+1", "last")
#: The dtypes the fixed float input is cast to for `dtypes`.
INPUT_DTYPES = ("float64", "float16", "bfloat16")
#: The dtype policies layers are made with for `dtypes`.
POLICIES = ("float64", "mixed_float16")


def edit(shape: tuple[int, ...], how: str) -> tuple[int | None, ...]:
    """The input shape `how` edits it (SHAPE_EDITS), with an unknown batch."""
    rest = list(shape[1:])
    if how == "unknown":
        rest = [None] * len(rest)
    elif how == "rank-1":
        rest = rest[:-1]
    elif how == "rank+1":
        rest = rest[:-1] + [5] + rest[-1:]
    elif how == "last":
        rest = rest[:-1] + [4 if rest[-1] == 5 else 5]
    return tuple([None] + rest)


def _err(e: BaseException) -> dict[str, str]:
    return {"error": type(e).__name__}


def _shapes(out: Any) -> Any:
    """A (nested) output shape as lists of ints and None."""
    if isinstance(out, (tuple, list)) and out and all(d is None or isinstance(d, (int, np.integer)) for d in out):
        return [None if d is None else int(d) for d in out]
    if isinstance(out, dict):
        return {k: _shapes(v) for k, v in sorted(out.items())}
    if isinstance(out, (tuple, list)):
        return [_shapes(v) for v in out]
    return repr(out)


def _dtype(t: Any) -> str:
    d = t.dtype
    return d if isinstance(d, str) else getattr(d, "name", str(d))


def _specs(tf: Any, y: Any) -> list[list[Any]]:
    return [[list(t.shape), _dtype(t)] for t in tf.nest.flatten(y)]


def _input(tf: Any, shape: tuple[int, ...], kind: str, dtype: str | None = None) -> Any:
    if kind == "pair":
        first = kargs_cases.input_array(shape, "float32")
        xs = [first, (first[..., ::-1] * 0.5 + 0.25).copy()]
        return [tf.cast(tf.constant(a), dtype) if dtype else tf.constant(a) for a in xs]
    x = tf.constant(kargs_cases.input_array(shape, kind))
    return tf.cast(x, dtype) if dtype else x


def _symbolic_input(keras: Any, shape: tuple[int | None, ...], kind: str) -> Any:
    if kind == "pair":
        return [keras.Input(batch_shape=shape), keras.Input(batch_shape=shape)]
    return keras.Input(batch_shape=shape, dtype="int32" if kind == "int32" else "float32")


def _make(keras: Any, name: str, kwargs: dict[str, Any], **extra: Any) -> Any:
    keras.utils.set_random_seed(1234)
    return getattr(keras.layers, name)(**kwargs, **extra)


def observe(tf: Any, name: str, kwargs: dict[str, Any], shape: tuple[int, ...], kind: str) -> dict[str, Any]:
    """Layer `name` (made with `kwargs`) asked the protocol's questions on inputs derived from `shape`."""
    keras = tf.keras
    out: dict[str, Any] = {}
    for how in SHAPE_EDITS:
        s = edit(shape, how)
        arg = [s, s] if kind == "pair" else s
        try:
            out[f"shape {how}"] = _shapes(_make(keras, name, kwargs).compute_output_shape(arg))
        except Exception as e:  # noqa: BLE001 - a refusal is what is observed
            out[f"shape {how}"] = _err(e)
        try:
            out[f"symbolic {how}"] = _specs(tf, _make(keras, name, kwargs)(_symbolic_input(keras, s, kind)))
        except Exception as e:  # noqa: BLE001
            out[f"symbolic {how}"] = _err(e)
    try:
        layer = _make(keras, name, kwargs)
        layer(_input(tf, shape, kind))
        out["weights"] = [[w.name, list(w.shape), _dtype(w), bool(w.trainable)] for w in layer.weights]
    except Exception as e:  # noqa: BLE001
        out["weights"] = _err(e)
        layer = None
    if kind != "int32":
        for dt in INPUT_DTYPES:
            try:
                out[f"input {dt}"] = _specs(tf, _make(keras, name, kwargs)(_input(tf, shape, kind, dt)))
            except Exception as e:  # noqa: BLE001
                out[f"input {dt}"] = _err(e)
    for policy in POLICIES:
        try:
            fresh = _make(keras, name, kwargs, dtype=policy)
            y = fresh(_input(tf, shape, kind))
            out[f"policy {policy}"] = {"out": _specs(tf, y), "weights": [_dtype(w) for w in fresh.weights]}
        except Exception as e:  # noqa: BLE001
            out[f"policy {policy}"] = _err(e)
    if layer is not None:
        other_batch = (3,) + tuple(shape[1:])
        other_last = tuple(shape[:-1]) + (4 if shape[-1] == 5 else 5,)
        for label, s in (("again batch", other_batch), ("again last", other_last)):
            try:
                out[label] = _specs(tf, layer(_input(tf, s, kind)))
            except Exception as e:  # noqa: BLE001
                out[label] = _err(e)
    return out
