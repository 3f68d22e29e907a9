"""TF-shaped dtypes backed by NumPy dtypes (`tf.float32`, `tf.int32`, ...)."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np


class DType:
    """A tensor element type: TF's name, the NumPy dtype that stores it, its size in bytes."""

    __slots__ = ("_name", "as_numpy_dtype", "size", "_np", "np", "kind")

    def __init__(self, name: str, np_dtype: Any, size: int, kind: str | None = None) -> None:
        self._name = name
        self._np = np.dtype(np_dtype)
        # NumPy's kind letter ("f", "i", "u", "b", "O"); ml_dtypes' bfloat16 is "V" to NumPy, "f" here
        self.kind = self._np.kind if kind is None else kind
        self.np: np.dtype = self._np     # the NumPy dtype that stores it
        if kind != "r":   # (a handle dtype's as_numpy_dtype is _HandleDType's KeyError)
            self.as_numpy_dtype = self._np.type
        self.size = size

    @property
    def name(self) -> str:
        """TF's name ("float32"): a new str on each read, as TF 2.21's C++ DType gives (so two reads
        are equal but not identical: `strategy.run` returning `x.dtype.name` keeps a PerReplica)."""
        return self._name.encode().decode()

    @property
    def is_floating(self) -> bool:
        return self.kind == "f"

    @property
    def is_integer(self) -> bool:
        return self.kind in "iu"

    @property
    def is_bool(self) -> bool:
        return self.kind == "b"

    @property
    def is_complex(self) -> bool:
        return self.kind == "c"

    @property
    def is_numeric(self) -> bool:
        """TF's `DType.is_numeric`: integers, floats, complex and the quantized dtypes (not bool or string)."""
        return self.kind in "iufcq"

    @property
    def real_dtype(self) -> "DType":
        """The dtype of a complex dtype's parts (complex64: float32); any other dtype itself."""
        return _REAL_PARTS.get(self._name, self)

    @property
    def base_dtype(self) -> "DType":
        return self

    @property
    def is_unsigned(self) -> bool:
        return self.kind == "u"

    @property
    def is_quantized(self) -> bool:
        return self.kind == "q"

    @property
    def is_numpy_compatible(self) -> bool:
        return True    # (TF: every dtype but resource and variant, which simdist has not)

    @property
    def limits(self) -> tuple:
        """TF's DType.limits: (0, max) of the image range of its dtype_range table, clipped at 0
        (its `clip_negative` is a property's default): 1 for float32 and float64, the integer max,
        True for bool; ValueError for the others."""
        if self.kind == "b":
            return (0, True)
        if self.kind in "iu":
            return (0, int(np.iinfo(self._np).max))
        if self._name in ("float32", "float64"):
            return (0, 1)
        raise ValueError(f"{self} does not have defined limits.")

    def is_compatible_with(self, other: Any) -> bool:
        """Whether `other` (a DType or anything as_dtype takes) is this dtype."""
        return as_dtype(other) == self

    def __int__(self) -> int:
        return self.as_datatype_enum

    @property
    def as_datatype_enum(self) -> int:
        """TF's DataType enum value (types.proto: DT_FLOAT = 1, DT_DOUBLE = 2, ...)."""
        return _ENUM[self._name]

    @property
    def min(self) -> Any:
        """The lowest finite value (a NumPy scalar of the type for floats, an int for integers)."""
        return self._limit("minimum", "min")

    @property
    def max(self) -> Any:
        """The highest finite value."""
        return self._limit("maximum", "max")

    def _limit(self, word: str, attr: str) -> Any:
        if self.kind == "f":
            return getattr(finfo(self._np), attr)
        if self.kind in "iu":
            return int(getattr(np.iinfo(self._np), attr))
        raise TypeError(f"Cannot find {word} value of <dtype: '{self._name}'> with type <dtype: '{self._name}'>.")

    def __repr__(self) -> str:
        return f"tf.{self._name}"

    def __str__(self) -> str:   # (TF's DType.__str__; repr is the `tf.float32` spelling)
        return f"<dtype: '{self._name}'>"

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if isinstance(other, DType):
            return other._name == self._name
        try:
            return as_dtype(other)._name == self._name
        except TypeError:
            return False

    def __hash__(self) -> int:
        return hash(self._name)

    def __reduce__(self):
        return (as_dtype, (self._name,))


float16 = DType("float16", np.float16, 2)
# TF's brain float (8 exponent bits, 7 mantissa bits), stored as ml_dtypes' NumPy type: its ufuncs
# compute in float32 and round to bfloat16 once, as TF's CPU kernels do.
bfloat16 = DType("bfloat16", ml_dtypes.bfloat16, 2, kind="f")
float32 = DType("float32", np.float32, 4)
float64 = DType("float64", np.float64, 8)
int8 = DType("int8", np.int8, 1)
int16 = DType("int16", np.int16, 2)
int32 = DType("int32", np.int32, 4)
int64 = DType("int64", np.int64, 8)
uint8 = DType("uint8", np.uint8, 1)
uint16 = DType("uint16", np.uint16, 2)
uint32 = DType("uint32", np.uint32, 4)
uint64 = DType("uint64", np.uint64, 8)
bool_ = DType("bool", np.bool_, 1)
# TF's tf.string.size is 0 (variable-length); partitioners use bytes_per_string instead.
string = DType("string", object, 0)
complex64 = DType("complex64", np.complex64, 8)
complex128 = DType("complex128", np.complex128, 16)
_REAL_PARTS = {"complex64": float32, "complex128": float64}



class _HandleDType(DType):
    """TF's resource and variant dtypes: the element of a handle tensor, which no NumPy dtype holds
    (clause ops.resource-handles). TF 2.21: size 0, not NumPy-compatible, not numeric, floating or
    integer; `as_numpy_dtype` and `limits` are the KeyError of the enum's missing NumPy type
    (KeyError 20), `min`/`max` TypeError "Cannot find minimum value of <dtype: 'resource'>."
    (observed). simdist stores a handle tensor's value as a 0-d object array (runtime/resource_handle.py)."""

    __slots__ = ()

    def __init__(self, name: str) -> None:
        super().__init__(name, object, 0, kind="r")

    @property   # type: ignore[override]
    def as_numpy_dtype(self) -> Any:
        raise KeyError(_ENUM[self._name])

    @property
    def is_numpy_compatible(self) -> bool:
        return False

    @property
    def limits(self) -> tuple:
        raise KeyError(_ENUM[self._name])

    def _limit(self, word: str, attr: str) -> Any:
        raise TypeError(f"Cannot find {word} value of <dtype: '{self._name}'>.")


class _QuantizedDType(DType):
    """TF's quantized dtypes (qint8, quint8, qint16, quint16, qint32; clause ops.quantize-dequantize): integers
    stored as their NumPy base type, which TF's EagerTensor.numpy() gives (int8 for qint8), while
    `as_numpy_dtype` is TF's one-field structured NumPy dtype ([('qint8', 'i1')]). TF 2.21: quantized
    and numeric, neither integer nor unsigned (quint8 too), size its base's, `real_dtype` itself,
    `limits` ValueError, `min`/`max` TypeError "Cannot find minimum value of <dtype: 'qint8'> with
    quantized type <dtype: 'qint8'>." (observed)."""

    __slots__ = ()

    def __init__(self, name: str, base: Any) -> None:
        super().__init__(name, base, np.dtype(base).itemsize, kind="q")
        self.as_numpy_dtype = np.dtype([(name, base)])

    def _limit(self, word: str, attr: str) -> Any:
        raise TypeError(f"Cannot find {word} value of <dtype: '{self._name}'> with quantized type <dtype: "
                        f"'{self._name}'>.")


qint8 = _QuantizedDType("qint8", np.int8)
quint8 = _QuantizedDType("quint8", np.uint8)
qint16 = _QuantizedDType("qint16", np.int16)
quint16 = _QuantizedDType("quint16", np.uint16)
qint32 = _QuantizedDType("qint32", np.int32)
QUANTIZED = (qint8, quint8, qint16, quint16, qint32)

class _NarrowDType(DType):
    """TF 2.21's narrow dtypes (tf.dtypes.experimental / tf.experimental: float8_e4m3fn, float8_e5m2,
    float8_e4m3fnuz, float8_e5m2fnuz, float8_e4m3b11fnuz, float4_e2m1fn, int4, uint4, int2, uint2; names44, clause
    api.namespaces), stored as ml_dtypes' NumPy types as TF stores them. Observed on TF 2.21: size 1; floating (the
    float ones) or integer (unsigned for uint4/uint2), never numeric nor quantized; `limits` ValueError; `min`/`max`
    ml_dtypes.finfo's scalars for the floats, Python ints for the integers; their own real_dtype. Kind "n": no op of
    simdist computes on them but those TF 2.21 registers a CPU kernel of (runtime/ops/narrow.py)."""

    __slots__ = ("_floating",)

    def __init__(self, name: str, enum: int) -> None:
        np_type = getattr(ml_dtypes, name)
        super().__init__(name, np_type, 1, kind="n")
        self._floating = name.startswith("float")
        _ENUM[name] = enum

    @property
    def is_floating(self) -> bool:
        return self._floating

    @property
    def is_integer(self) -> bool:
        return not self._floating

    @property
    def is_unsigned(self) -> bool:
        return self._name.startswith("uint")

    @property
    def is_numeric(self) -> bool:
        return False

    def _limit(self, word: str, attr: str) -> Any:
        if self._floating:
            return getattr(ml_dtypes.finfo(self._np), attr)
        return int(getattr(ml_dtypes.iinfo(self._np), attr))


ALL = (bfloat16, float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool_, string,
       complex64, complex128)
_BY_NAME = {d.name: d for d in ALL}
_BY_NP = {d.np: d for d in ALL if d is not string}
half, double = float16, float64
# TF's DataType enum (tensorflow/core/framework/types.proto)
_ENUM = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "string": 7, "complex64": 8,
         "int64": 9, "bool": 10, "bfloat16": 14, "uint16": 17, "complex128": 18, "float16": 19, "uint32": 22,
         "uint64": 23}
# the handle dtypes: named and numbered as TF's, outside ALL (no NumPy dtype maps to them, and no op of
# simdist's computes on them)
resource = _HandleDType("resource")
variant = _HandleDType("variant")
_BY_NAME.update(resource=resource, variant=variant)
_ENUM.update(resource=20, variant=21)
# the quantized dtypes: outside ALL too (only the quantize ops make them); NumPy's structured dtypes
# TF gives as their as_numpy_dtype convert back to them (tf.as_dtype(tf.qint8.as_numpy_dtype))
_BY_NAME.update((d.name, d) for d in QUANTIZED)
_ENUM.update(qint8=11, quint8=12, qint32=13, qint16=15, quint16=16)
_BY_NP.update((d.as_numpy_dtype, d) for d in QUANTIZED)
# the narrow dtypes (TF's DataType enum values; outside ALL: only conversion, Cast and TF's few kernels take them)
float8_e5m2 = _NarrowDType("float8_e5m2", 24)
float8_e4m3fn = _NarrowDType("float8_e4m3fn", 25)
float8_e4m3fnuz = _NarrowDType("float8_e4m3fnuz", 26)
float8_e4m3b11fnuz = _NarrowDType("float8_e4m3b11fnuz", 27)
float8_e5m2fnuz = _NarrowDType("float8_e5m2fnuz", 28)
int4 = _NarrowDType("int4", 29)
uint4 = _NarrowDType("uint4", 30)
int2 = _NarrowDType("int2", 31)
uint2 = _NarrowDType("uint2", 32)
float4_e2m1fn = _NarrowDType("float4_e2m1fn", 33)
NARROW = (float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz, float8_e4m3b11fnuz, float4_e2m1fn, int4, uint4,
          int2, uint2)
_BY_NAME.update((d.name, d) for d in NARROW)
_BY_NP.update((d.np, d) for d in NARROW)
_BY_ENUM = {v: _BY_NAME[k] for k, v in _ENUM.items()}


def as_dtype(type_value: Any) -> DType:
    """Convert a DType, a TF name ("float32"), a DataType enum value, a NumPy dtype or a Python type to a DType."""
    value = type_value
    if isinstance(value, DType):
        return value
    if isinstance(value, str) and value in _BY_NAME:
        return _BY_NAME[value]
    if value is str or value is bytes:
        return string
    if value is float:
        return float32
    if value is int:
        return int32
    if value is bool:
        return bool_
    if not isinstance(value, (np.dtype, type)):
        # (a DataType enum value: TF's as_dtype looks the value up in a dict keyed by the enum ints
        # among others, so anything equal to one with its hash is found too, True, 1.0 and np.True_
        # being DT_FLOAT; fz14 seed 1420261218 #301)
        try:
            found_enum = _BY_ENUM.get(value)
        except TypeError:   # (unhashable: an array, a list)
            found_enum = None
        if found_enum is not None:
            return found_enum
    refused = TypeError(f"Cannot convert the argument `type_value`: {value!r} to a TensorFlow DType.")
    if value is complex or value is None:
        # (TF maps no Python type to a complex dtype; None is no key of its table, where NumPy's np.dtype(None) is
        # float64: so `tf.float32 == None` is False, as DType.__eq__ says first; fz66, fz62gen seed 66406 #4)
        raise refused
    if isinstance(value, str):
        # (TF reads a string by its own names only, C's among them: "float" is float32, not NumPy's
        # float64; "complex", "int", "f4", which NumPy reads, are refused)
        alias = {"float": "float32", "double": "float64", "half": "float16"}.get(value)
        if alias is None:
            raise refused
        return _BY_NAME[alias]
    if isinstance(value, (np.dtype, type)):
        try:
            npd = np.dtype(value)
        except TypeError:
            raise refused from None
    elif hasattr(value, "dtype"):
        # (TF's last resort: the NumPy dtype of `.dtype`; an array gives its dtype, a tensor,
        # whose .dtype is a DType, is refused: TypeError, seed 1420261202 #131)
        try:
            npd = np.dtype(value.dtype)
        except (TypeError, ValueError):
            raise refused from None
    else:
        try:
            npd = np.dtype(value)
        except (TypeError, ValueError):
            raise refused from None
    if npd.kind in "SUO":
        return string
    found = _BY_NP.get(npd)
    if found is None:
        raise refused
    return found


def infer_dtype(value: Any) -> DType:
    """TF's dtype inference for Python and NumPy values: float -> float32, int -> int32."""
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        return as_dtype(value.dtype)
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int32 if -(2**31) <= value < 2**31 else int64
    if isinstance(value, float):
        return float32
    if isinstance(value, complex):
        return complex128
    if isinstance(value, (str, bytes)):
        return string
    if isinstance(value, (list, tuple)):
        return _sequence_dtype(value)
    raise TypeError(f"Cannot infer a dtype for {type(value).__name__} value {value!r}")


def _leaves(value: Any) -> list[Any]:
    """The leaves of a nested sequence in order (NumPy arrays inside it give their elements)."""
    out: list[Any] = []
    stack = [value]
    while stack:   # (iterative, depth first, in order)
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(reversed(v))
        elif isinstance(v, np.ndarray):
            stack.extend(reversed(list(v.reshape(-1)))) if v.ndim else stack.append(v[()])
        else:
            out.append(v)
    return out


def _sequence_dtype(value: Any) -> DType:
    """TF's inference for a Python sequence (py_seq_tensor.cc, clause ops.conversion): the first
    leaf decides. A float leaf gives its width (NumPy float64: float64, float16: float16, a Python
    float or NumPy float32: float32) whatever follows; an integer leaf gives int32 when every
    integer fits it (NumPy int64 scalars too), else int64, and float32 when a float follows;
    bools give bool, text string; an empty sequence is float32. A complex leaf (Python or NumPy)
    first gives complex128 whatever numbers follow; after a number first it mixes types
    (clause ops.complex)."""
    leaves = _leaves(value)
    if not leaves:
        return float32
    kinds = [infer_dtype(v) if isinstance(v, (bool, int, float, complex, str, bytes, np.generic)) else None
             for v in leaves]
    if any(k is string for k in kinds):
        return string
    first = kinds[0]
    if first is not None and first.is_complex:
        return complex128
    if first is not None and first.is_floating:
        return first if first in (float64, float16) else float32
    if first is bool_:
        return bool_ if all(k is bool_ for k in kinds) else int32
    if any(k is not None and k.is_floating for k in kinds):
        return float32
    ints = [int(v) for v, k in zip(leaves, kinds) if k is not None and k.is_integer]
    return int32 if all(-(2**31) <= v < 2**31 for v in ints) else int64


def finfo(dt: Any) -> Any:
    """np.finfo of a NumPy float dtype, ml_dtypes' for bfloat16 (np.finfo refuses it: ValueError)."""
    d = np.dtype(dt)
    return ml_dtypes.finfo(d) if d == ml_dtypes.bfloat16 else np.finfo(d)


def is_float_np(dt: Any) -> bool:
    """Whether a NumPy dtype is a float one (NumPy's kind "f", or ml_dtypes' bfloat16, kind "V")."""
    d = np.dtype(dt)
    return d.kind == "f" or d == ml_dtypes.bfloat16
