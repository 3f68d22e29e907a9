"""`tf.experimental.numpy`'s dtype rules (TF 2.21's numpy_ops/np_dtypes.py and np_utils.py).

tnp's dtypes are NumPy's scalar types (`tnp.float32 is np.float32`), and its type inference is
NumPy's own `np.result_type` over the operands, with a tensor standing for its dtype and a Python
number for itself (NumPy's weak scalars). Without `experimental_enable_numpy_behavior` (which
simdist does not implement) `prefer_float32` is False and float64 is allowed, so a Python float
is float64 (`default_float_type`) and `_result_type` is exactly NumPy's.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.indexed_slices import IndexedSlices
from simdist.runtime.tensor import Tensor

# np_dtypes.py: tnp's dtype names are NumPy's types (NumPy 2 removed complex_/float_: tnp's are these)
bool_ = np.bool_
complex128 = np.complex128
complex64 = np.complex64
float16 = np.float16
float32 = np.float32
float64 = np.float64
inexact = np.inexact
int_ = np.int_
int16 = np.int16
int32 = np.int32
int64 = np.int64
int8 = np.int8
object_ = np.object_
string_ = np.bytes_
uint16 = np.uint16
uint32 = np.uint32
uint64 = np.uint64
uint8 = np.uint8
unicode_ = np.str_
complex_ = np.complex128
float_ = np.float64
iinfo = np.iinfo
issubdtype = np.issubdtype


def default_float_type() -> type:
    """np_dtypes.default_float_type: float64 (prefer_float32 is off, float64 allowed)."""
    return float64


def _np_result_type(*arrays_and_dtypes: Any) -> dtypes.DType:
    """np_dtypes._result_type: NumPy's result_type, as a DType (NumPy's errors pass through)."""
    return dtypes.as_dtype(np.result_type(*arrays_and_dtypes))


def to_numpy_type(dtype: Any) -> Any:
    """np_utils._to_numpy_type: a DType's NumPy type, else `np.dtype(dtype)`."""
    if isinstance(dtype, dtypes.DType):
        return dtype.as_numpy_dtype
    return np.dtype(dtype)


def _maybe_get_dtype(x: Any) -> Any:
    """np_utils._maybe_get_dtype: a number stands for itself (NumPy's weak scalar), a tensor for
    its dtype's NumPy type, a DType for its NumPy type; a sequence is refused."""
    from simdist.runtime.variables import Variable
    if isinstance(x, numbers.Real):
        return x
    if isinstance(x, (Tensor, IndexedSlices, Variable)):   # (tensor_util.is_tf_type: a variable too)
        return to_numpy_type(x.dtype)
    if isinstance(x, dtypes.DType):
        return x.as_numpy_dtype
    if isinstance(x, (list, tuple)):
        raise ValueError("Cannot find dtype for type inference from argument `x` of a sequence type "
                         f"{type(x)}. For sequences, please call this function on each element individually.")
    return x


def _flatten(values: Any) -> list:
    """nest.flatten over lists, tuples and dicts (sorted keys)."""
    if isinstance(values, (list, tuple)):
        return [leaf for v in values for leaf in _flatten(v)]
    if isinstance(values, dict):
        return [leaf for k in sorted(values) for leaf in _flatten(values[k])]
    return [values]


def result_type(*arrays_and_dtypes: Any) -> dtypes.DType:
    """`tnp.result_type` (np_utils.result_type): NumPy's result type of the flattened operands;
    none at all is NumPy's for an empty float array (float64)."""
    args = [_maybe_get_dtype(x) for x in _flatten(arrays_and_dtypes)]
    if not args:
        args = [np.asarray([])]
    return _np_result_type(*args)


def result_type_unary(a: Any, dtype: Any) -> Any:
    """np_utils.result_type_unary: the dtype given, else the operand's (a str is np.str_)."""
    if dtype:
        return result_type(dtype)
    if isinstance(a, str):
        return np.str_
    if isinstance(a, bytes):
        return np.bytes_
    return result_type(a)


def result_type_binary(t1: Any, t2: Any) -> dtypes.DType:
    """np_utils._result_type_binary: NumPy's result type of two operands (sequences go through
    `result_type`, which flattens them)."""
    try:
        return _np_result_type(_maybe_get_dtype(t1), _maybe_get_dtype(t2))
    except ValueError:
        return result_type(t1, t2)


def promote_types(type1: Any, type2: Any) -> np.dtype:
    """`tnp.promote_types`: NumPy's promote_types of the two NumPy types (a np.dtype)."""
    return np.promote_types(to_numpy_type(type1), to_numpy_type(type2))


def finfo(dtype: Any) -> np.finfo:
    """`tnp.finfo`: NumPy's finfo of the dtype's NumPy type."""
    return np.finfo(to_numpy_type(dtype))


def is_inexact(dtype: dtypes.DType) -> bool:
    """`np.issubdtype(dtype.as_numpy_dtype, np.inexact)`: a float or complex dtype."""
    return bool(np.issubdtype(dtype.as_numpy_dtype, np.inexact))
