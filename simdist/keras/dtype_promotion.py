"""Keras 3's dtype promotion (keras/src/backend/common/dtypes.py `result_type`), the one rule
every simdist Keras op that combines operands uses: the least upper bound on Keras's (JAX's)
promotion lattice, Python `int`/`float` as weak types resolved with `floatx`'s precision, and
the TensorFlow backend's 64-bit map (uint64 narrows to uint32, complex128 to complex64).

Why one module: Keras's `ops.add`/`multiply`/`matmul`/`concatenate`/`einsum` promote through
this function, so a float16 input meets a float32 kernel as float32 (a `Dense(autocast=False)`
under mixed_float16) and uint8 + int8 is int16 — not "the wider operand"."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import config

__all__ = ["result_type", "dtype_name", "dtype_of", "promote", "convert_to"]

_BOOL, _WEAK_INT, _WEAK_FLOAT = "bool", "int", "float"
# Each type's immediately higher types (keras/src/backend/common/dtypes.py _type_promotion_lattice)
_LATTICE: dict[str, tuple[str, ...]] = {
    "bool": ("int",),
    "uint8": ("int16", "uint16"),
    "uint16": ("int32", "uint32"),
    "uint32": ("int64", "uint64"),
    "uint64": ("float",),
    "int": ("uint8", "int8", "complex64"),
    "int8": ("int16",),
    "int16": ("int32",),
    "int32": ("int64",),
    "int64": ("float",),
    "float": ("bfloat16", "float16"),
    "bfloat16": ("float32",),
    "float16": ("float32",),
    "float32": ("float64", "complex64"),
    "float64": ("complex128",),
    "complex64": ("complex128",),
    "complex128": (),
}
_ORDER = tuple(_LATTICE)   # a fixed order, so nothing below iterates a set


def _upper_bounds(node: str) -> tuple[str, ...]:
    """`node` and every type above it on the lattice, in `_ORDER`."""
    seen = {node}
    frontier = [node]
    while frontier:
        nxt = []
        for n in frontier:
            for up in _LATTICE[n]:
                if up not in seen:
                    seen.add(up)
                    nxt.append(up)
        frontier = nxt
    return tuple(n for n in _ORDER if n in seen)


_UPPER: dict[str, tuple[str, ...]] = {n: _upper_bounds(n) for n in _ORDER}


def _on_lattice(nodes: list[str]) -> list[str]:
    """The distinct nodes in `_ORDER`; a node off the lattice (a string tensor's dtype beside another dtype) is Keras's
    _least_upper_bound ValueError (keras.ops.dtype-promotion; Masking(mask_value="0.0"), asweep65)."""
    unknown = next((n for n in nodes if n not in _UPPER), None)
    if unknown is not None:
        raise ValueError(f"dtype={unknown!r} is not a valid dtype for Keras type promotion.")
    return sorted(set(nodes), key=_ORDER.index)


def _least_upper_bound(nodes: list[str]) -> str:
    for n in nodes:
        if n not in _UPPER:
            raise ValueError(f"dtype='{n}' is not a valid dtype for Keras type promotion.")
    common = [c for c in _ORDER if all(c in _UPPER[n] for n in nodes)]
    lub = [c for c in common if c in nodes] or [c for c in common if all(d in _UPPER[c] for d in common)]
    if len(lub) != 1:
        raise ValueError(f"Input dtypes {tuple(nodes)} have no available implicit dtype promotion path. Try "
                         "explicitly casting inputs to the desired output type.")
    return lub[0]


def dtype_name(value: Any) -> str:
    """Keras's standardize_dtype for a dtype, a tensor/variable's dtype, or the Python types
    `int`/`float`/`bool` (Keras maps int to int64 and float to float32 on TF)."""
    if value is bool:
        return "bool"
    if value is int:
        return "int64"
    if value is float:
        return "float32"
    # (Keras's PYTHON_DTYPES_MAP first, as standardize_dtype: the name "int" is int64 (ops.where(c)'s spec asks
    # result_type("int", "int"), TF 2.21 answering int64), str is string, complex complex128; cov48)
    if isinstance(value, str) and value == "int":
        return "int64"
    if value is str:
        return "string"
    if value is complex:
        return "complex128"
    return tf.as_dtype(value).name


def _weak_kind(name: str) -> str:
    if name == "bool":
        return name
    return _WEAK_FLOAT if "float" in name else _WEAK_INT


def result_type(*dtypes: Any) -> str:
    """Keras's `backend.result_type(*dtypes)` on the TensorFlow backend: dtypes, tensors' dtypes,
    or the Python types `int`/`float` (weak); None stands for floatx; no argument gives floatx."""
    if not dtypes:
        return config.floatx()
    names: list[str] = []
    weak: list[bool] = []
    for d in dtypes:
        d = config.floatx() if d is None else d
        is_weak = d is int or d is float
        names.append(dtype_name(d))
        weak.append(is_weak)
    if len(names) == 1:
        out, out_weak = names[0], weak[0]
    elif len(set(names)) == 1 and not all(weak):
        out, out_weak = names[0], False
    elif all(weak):
        out, out_weak = _least_upper_bound(_on_lattice(names)), True
    else:
        nodes = [_weak_kind(n) if w else n for n, w in zip(names, weak)]
        out = _least_upper_bound(_on_lattice(nodes))
        out_weak = out in (_WEAK_INT, _WEAK_FLOAT)
    out_weak = out != "bool" and out_weak
    if out_weak:
        precision = config.floatx()[-2:]
        out = "bool" if out == "bool" else (f"int{precision}" if out.startswith("i")
                                            else f"uint{precision}" if out.startswith("u") else f"float{precision}")
    # (Keras's BIT64_TO_BIT32_DTYPE on TF: uint64 is uint32 and complex128 complex64 — a Python complex or a
    # complex128 operand gives complex64; ysweep62)
    return {"uint64": "uint32", "complex128": "complex64"}.get(out, out)


def dtype_of(x: Any) -> Any:
    """A tensor's dtype, or the Python type of a number (Keras's `getattr(x, "dtype", type(x))`)."""
    if isinstance(x, bool):
        return bool
    if isinstance(x, int):
        return int
    if isinstance(x, float):
        return float
    return x.dtype


def convert_to(x: Any, dtype: str) -> Any:
    """Keras's `convert_to_tensor(x, dtype)` on TF: a tensor of another dtype is cast, a Python
    number is converted straight to `dtype`; a tensor already in `dtype` is returned as is."""
    if isinstance(x, (bool, int, float)):
        return tf.convert_to_tensor(x, dtype=dtype)
    x = tf.convert_to_tensor(x)
    return x if x.dtype.name == dtype else tf.cast(x, dtype)


def promote(*xs: Any, weak_float: bool = False) -> tuple[list[Any], str]:
    """The operands of a Keras binary/n-ary op converted to their result type (tensors or Python
    numbers); `weak_float=True` adds Keras's `float` argument (`result_type(a, b, float)`, the
    compute dtype of matmul and divide). Returns the operands and that dtype."""
    kinds = [x if isinstance(x, (bool, int, float)) else tf.convert_to_tensor(x) for x in xs]
    args = [dtype_of(x) for x in kinds] + ([float] if weak_float else [])
    dtype = result_type(*args)
    return [convert_to(x, dtype) for x in kinds], dtype
