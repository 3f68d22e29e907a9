"""Keras layer arguments at their edges (issue 29): every public layer class, each simple constructor argument
set to values at and beyond its valid range, built and called on a fixed input.

A planted bug in a layer often sits in a branch only an unusual argument reaches: a cropping that consumes a
whole dimension, a count mode that needs weights, an axis out of range, a rate of 0 or 1, a negative size.
This family enumerates them mechanically from the reference's own signatures (TF 2.21's tf.keras = Keras 3.15:
`kargs_record` reads each layer class's `__init__` and derives the variants), so nothing about the backend
under test chooses what is tried:

- an int argument of default d: 0, -1, 1, 2 and d + 1; a float: 0.0, -0.5, 1.0 and 1.5; a bool: its negation;
  a string: "bogus" and the default upper-cased; a tuple of ints: all 0, all -1, all 1, all 2 (same length);
- required arguments take the values of REQUIRED (a layer needing one not listed is left out);
- the layer is built in the default configuration on the first of INPUT_SHAPES (float32, then int32) its call
  accepts on the reference; that shape is recorded and every variant is called on it.

Observed (`observe`): the class of the error the constructor raises, or of the one the call raises, or the
output's structure: each tensor's shape, dtype and values (Keras's seeded initializers: the global seed is set
before each construction). The TF 2.21 recording is kargs_reference. Nothing here imports TensorFlow.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: Values of required constructor arguments (by name).
REQUIRED: dict[str, Any] = {
    "units": 3, "filters": 2, "kernel_size": 2, "pool_size": 2, "rate": 0.5, "num_heads": 2, "key_dim": 2,
    "output_dim": 3, "input_dim": 7, "cropping": 1, "padding": 1, "size": 2, "target_shape": (3, 2), "dims": (2, 1),
    "n": 2, "height": 2, "width": 2, "factor": 0.2, "stddev": 0.1, "num_bins": 3, "num_tokens": 4,
    "depth_multiplier": 1, "axis": -1, "l1": 0.01, "l2": 0.01, "max_value": 2.0, "threshold": 0.5,
    "num_query_heads": 2, "num_key_value_heads": 1, "head_dim": 2, "scale": 0.5, "offset": 0.1, "value": 0.0,
    "mask_value": 0.0, "alpha": 0.3, "theta": 1.0, "negative_slope": 0.1, "function": None, "activation": "relu",
    "output_size": 2, "axes": 1, "height_factor": 0.2, "width_factor": 0.2, "max_number": 2,
    "equation": "ab,bc->ac", "output_shape": 4,
}
#: Input shapes tried in order (batch 2), float32 values in [-2, 2], then int32 values in [0, 3], then a pair of
#: float32 inputs (KINDS).
INPUT_SHAPES: tuple[tuple[int, ...], ...] = ((2, 6), (2, 6, 3), (2, 6, 6, 3), (2, 4, 4, 4, 3))
KINDS = ("float32", "int32", "pair")
#: Layer classes not swept: wrappers and bases that need another layer or cell, layers of strings, layers whose
#: output is random without a seed argument, the InputLayer.
SKIP = ("Layer", "InputLayer", "Input", "InputSpec", "Bidirectional", "TimeDistributed", "RNN", "Wrapper", "Lambda",
        "TFSMLayer", "TextVectorization", "StringLookup", "Pipeline", "StackedRNNCells", "TorchModuleWrapper",
        "JaxLayer", "FlaxLayer", "Rescaling")


def int_variants(d: int) -> list[int]:
    return sorted({0, -1, 1, 2, d + 1} - {d})


def variants(default: Any) -> list[Any]:
    """The edge values tried for an argument of this default (none for other kinds)."""
    if isinstance(default, bool):
        return [not default]
    if isinstance(default, int):
        return int_variants(default)
    if isinstance(default, float):
        return [v for v in (0.0, -0.5, 1.0, 1.5) if v != default]
    if isinstance(default, str):
        return ["bogus"] + ([default.upper()] if default.upper() != default else [])
    if isinstance(default, tuple) and default and all(isinstance(v, int) and not isinstance(v, bool) for v in default):
        n = len(default)
        return [t for t in ((0,) * n, (-1,) * n, (1,) * n, (2,) * n) if t != default]
    return []


def as_kwargs(recorded: dict[str, Any]) -> dict[str, Any]:
    """A variant's arguments as recorded (JSON lists) back to the tuples the constructor was given."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in recorded.items()}


def input_array(shape: tuple[int, ...], kind: str) -> np.ndarray:
    """The fixed input of a shape: float32 in [-2, 2] or int32 in [0, 3]."""
    n = int(np.prod(shape))
    if kind == "int32":
        return (np.arange(n) % 4).astype(np.int32).reshape(shape)
    return (np.linspace(-2.0, 2.0, n) * np.cos(np.arange(n))).astype(np.float32).reshape(shape)


def _value(t: Any) -> Any:
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    if a.dtype.kind == "b":
        return {"shape": list(a.shape), "dtype": "bool", "values": a.reshape(-1).astype(int).tolist()}
    if a.dtype.kind in "iu":
        return {"shape": list(a.shape), "dtype": a.dtype.name, "values": a.reshape(-1).tolist()}
    f = a.astype(np.float64).reshape(-1)
    vals = ["nan" if np.isnan(v) else "inf" if v == np.inf else "-inf" if v == -np.inf else float(v) for v in f]
    return {"shape": list(a.shape), "dtype": a.dtype.name, "values": vals}


def observe(tf: Any, name: str, kwargs: dict[str, Any], shape: tuple[int, ...], kind: str) -> dict[str, Any]:
    """Layer `name` built with `kwargs` (the global seed set first) and called on the fixed input (kind "pair":
    a list of the float32 input and another of its shape, for the merging and attention layers)."""
    keras = tf.keras
    keras.utils.set_random_seed(1234)
    try:
        layer = getattr(keras.layers, name)(**kwargs)
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        return {"init": type(e).__name__}
    if kind == "pair":
        first = input_array(shape, "float32")
        x = [tf.constant(first), tf.constant((first[..., ::-1] * 0.5 + 0.25).copy())]
    else:
        x = tf.constant(input_array(shape, kind))
    try:
        y = layer(x)
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        return {"call": type(e).__name__}
    return {"out": [_value(t) for t in tf.nest.flatten(y)]}
