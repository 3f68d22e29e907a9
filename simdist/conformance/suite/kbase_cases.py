"""Keras layers from a given base configuration (issue 29, kbase): the layers kargs leaves out because no input
of its INPUT_SHAPES fits their default configuration (the audio layers, the recurrent cells, the attention layers,
the lookup and hashing layers, SpectralNormalization ...), each from a hand-given base (BASES: constructor
arguments and the call's inputs), with every constructor argument varied as kargs and kenum vary them; and, for
every layer of kargs' plan and of BASES, each None-defaulted argument whose docstring entry gives it a number type
(a pooling layer's `strides`, ReLU's `max_value`, Dense's `lora_rank`, MelSpectrogram's `max_freq`) set to
numbers (`typed_none_values`).

A planted bug in such a layer sits in a branch an argument reaches (MelSpectrogram's `mag_exp`, a cell's
`recurrent_dropout`, GroupNormalization's `center`), which no mechanical family tried: kargs and kenum derive their
variants from kargs' plan, and it holds none of these layers. The variants come from the reference's own
signatures and docstrings (kargs_cases.variants, kenum_cases.documented_values and reordered_values), so nothing
about the backend under test chooses what is tried; the bases only make the default configuration callable.

Observed (`observe`): the error class of the construction or the call, or each output's shape, dtype and values
(the global seed set before each construction), compared as kargs compares. The TF 2.21 recording is
kbase_reference. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from simdist.conformance.suite import kargs_cases, kenum_cases

#: An input: {"shape": [...], "kind": "float32" | "int32"}; a call argument is an input or a list of inputs.
Spec = dict[str, Any]


def _x(*shape: int, kind: str = "float32") -> Spec:
    return {"shape": list(shape), "kind": kind}


#: The layers kargs leaves out: (constructor arguments, the call's positional arguments, its keyword arguments).
#: A constructor argument {"layer": NAME, "config": {...}} is built as keras.layers.NAME(**config).
BASES: dict[str, tuple[dict[str, Any], list[Any], dict[str, Any]]] = {
    "CategoryEncoding": ({"num_tokens": 4}, [_x(2, 6, kind="int32")], {}),
    "ConvLSTM3D": ({"filters": 2, "kernel_size": 2}, [_x(2, 3, 4, 4, 4, 2)], {}),
    "Discretization": ({"bin_boundaries": [-1.0, 0.0, 1.0]}, [_x(2, 6)], {}),
    "GRUCell": ({"units": 3}, [_x(2, 4), [_x(2, 3)]], {"training": True}),
    "GroupNormalization": ({"groups": 3}, [_x(2, 6, 6, 3)], {}),
    "GroupQueryAttention": ({"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 1},
                            [_x(2, 4, 3), _x(2, 5, 3)], {"training": True}),
    "HashedCrossing": ({"num_bins": 3}, [[_x(2, kind="int32"), _x(2, kind="int32")]], {}),
    "IntegerLookup": ({"vocabulary": [1, 2, 3]}, [_x(2, 6, kind="int32")], {}),
    "LSTMCell": ({"units": 3}, [_x(2, 4), [_x(2, 3), _x(2, 3)]], {"training": True}),
    "MelSpectrogram": ({"fft_length": 16, "sequence_length": 16, "sequence_stride": 4, "sampling_rate": 8000,
                        "num_mel_bins": 8}, [_x(2, 64)], {}),
    "MultiHeadAttention": ({"num_heads": 2, "key_dim": 2}, [_x(2, 4, 3), _x(2, 5, 3)], {"training": True}),
    "RandomPosterization": ({"factor": 4, "seed": 3}, [_x(2, 4, 4, 3)], {"training": True}),
    "STFTSpectrogram": ({"frame_length": 16, "frame_step": 4, "fft_length": 16}, [_x(2, 64, 1)], {}),
    "SimpleRNNCell": ({"units": 3}, [_x(2, 4), [_x(2, 3)]], {"training": True}),
    "SpectralNormalization": ({"layer": {"layer": "Dense", "config": {"units": 3}}}, [_x(2, 6)], {"training": True}),
}
#: Arguments never varied: labels, seeds, objects (kenum's SKIP_ARGS and the wrapped layer).
SKIP_ARGS = kenum_cases.SKIP_ARGS + ("layer",)
#: The start of a docstring entry that gives a None-defaulted argument a number type ("Integer, ...", "Optional
#: integer.", "int or tuple of 2 integers, or None.", "Float >= 0.").
_TYPED = re.compile(r"^\s*(?:optional\s+)?(float|integer|int)\b", re.I)
#: The numbers a typed None-defaulted argument is set to.
TYPED_VALUES = {"int": [1, 2], "float": [0.5, 2.0, 1000.0]}
#: Values a float argument is also set to, besides kargs' edges (0, -0.5, 1, 1.5): a rate inside (0, 1) and an
#: exponent or scale above 2 (a dropout of 0.25, a `mag_exp` of 3).
MORE_FLOATS = (0.25, 3.0)


def typed_none_values(cls: Any) -> list[tuple[str, list[Any]]]:
    """(argument, numbers) for each None-defaulted constructor argument of `cls` (not in SKIP_ARGS) whose docstring
    entry starts with a number type: ints TYPED_VALUES["int"], floats TYPED_VALUES["float"]."""
    import inspect  # noqa: PLC0415

    doc = inspect.getdoc(cls) or ""
    out = []
    for p in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        if p.default is not None or p.name in SKIP_ARGS:
            continue
        m = _TYPED.match(kenum_cases.arg_entry(doc, p.name))
        if m:
            out.append((p.name, TYPED_VALUES["float" if m.group(1).lower() == "float" else "int"]))
    return out


def constructor_values(cls: Any, base: dict[str, Any]) -> list[tuple[str, list[Any]]]:
    """(argument, values) for every constructor argument of `cls` a base leaves at its default: kargs' edge values
    of a simple default (a float's also MORE_FLOATS), the values kenum takes from the docstring and from a
    reversed sequence, and typed_none_values."""
    import inspect  # noqa: PLC0415

    out = []
    for p in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL) or p.name in base or p.name in SKIP_ARGS:
            continue
        if p.default is not inspect.Parameter.empty and kargs_cases.variants(p.default):
            more = [v for v in MORE_FLOATS if v != p.default] if type(p.default) is float else []
            out.append((p.name, kargs_cases.variants(p.default) + more))
    more = kenum_cases.documented_values(cls) + kenum_cases.reordered_values(cls) + typed_none_values(cls)
    return out + [(n, v) for n, v in more if n not in base]


def input_array(spec: Spec, index: int) -> np.ndarray:
    """Input `index` of a call: kargs' fixed input of its shape and kind, rolled by `index` (inputs differ)."""
    a = kargs_cases.input_array(tuple(spec["shape"]), spec["kind"])
    return np.roll(a.reshape(-1), index).reshape(a.shape)


def _args(tf: Any, args: list[Any]) -> list[Any]:
    out, i = [], 0
    for a in args:
        specs = a if isinstance(a, list) else [a]
        ts = [tf.constant(input_array(s, i + j)) for j, s in enumerate(specs)]
        i += len(specs)
        out.append(ts if isinstance(a, list) else ts[0])
    return out


def _kwargs(tf: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
    return {k: getattr(tf.keras.layers, v["layer"])(**v["config"]) if isinstance(v, dict) and "layer" in v
            else tuple(v) if isinstance(v, list) and k not in ("vocabulary", "bin_boundaries") else v
            for k, v in kwargs.items()}


def observe(tf: Any, variant: dict[str, Any]) -> dict[str, Any]:
    """Layer variant["layer"] built with variant["kwargs"] (the global seed set first) and called: a layer of kargs'
    plan (the variant has its "shape" and "kind") as kargs_cases.observe calls it, a layer of BASES on its base's
    inputs and keyword arguments."""
    if "shape" in variant:
        return kargs_cases.observe(tf, variant["layer"], kargs_cases.as_kwargs(variant["kwargs"]),
                                   tuple(variant["shape"]), variant["kind"])
    _, args, call_kwargs = BASES[variant["layer"]]
    tf.keras.utils.set_random_seed(1234)
    try:
        layer = getattr(tf.keras.layers, variant["layer"])(**_kwargs(tf, variant["kwargs"]))
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        return {"init": type(e).__name__}
    try:
        y = layer(*_args(tf, args), **call_kwargs)
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        return {"call": type(e).__name__}
    return {"out": [v for t in tf.nest.flatten(y) for v in _values(t)]}


def _values(t: Any) -> list[Any]:
    """An output's observed values: a SparseTensor's indices, values and dense shape, else the tensor's."""
    if hasattr(t, "indices") and hasattr(t, "dense_shape"):
        return [kargs_cases._value(t.indices), kargs_cases._value(t.values), kargs_cases._value(t.dense_shape)]
    return [kargs_cases._value(t)]
