"""tnp's conversion of operands to tensors (TF 2.21's np_array_ops._array_internal, asarray,
_promote_dtype, np_arrays.convert_to_tensor) and np_utils' static helpers.

`tnp.ndarray` is the Tensor class. A value that is not a tensor is converted with the dtype
tnp infers for it (`result_type_unary`: a Python float is float64, an int int64) and then cast;
a tensor is cast only when a dtype is asked. TF's tnp code calls the NumPy method `astype` on
tensors in places; without `experimental_enable_numpy_behavior` a tensor has none, so those paths
raise TF's AttributeError (`astype_missing`).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import context, dtypes
from simdist.runtime.ops import tnp_dtypes
from simdist.runtime.ops.array import concat, identity, ones, rank, reshape, shape
from simdist.runtime.ops.array_more import get_static_value as _tf_static
from simdist.runtime.ops.control_flow import cond as _tf_cond
from simdist.runtime.ops.math import cast
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor as _convert

ndarray = Tensor


def astype_missing(x: Any, attr: str = "astype") -> AttributeError:
    """TF's error for a NumPy method (`tensor.astype`, `.ravel`) while NumPy behavior is off
    (EagerTensor's or, in a tf.function, SymbolicTensor's text)."""
    kind = "EagerTensor" if context.executing_eagerly() else "SymbolicTensor"
    return AttributeError(f"{kind} object has no attribute '{attr}'. \n        If you are looking for numpy-related "
                          "methods, please run the following:\n        "
                          "tf.experimental.numpy.experimental_enable_numpy_behavior()\n      ")


def convert_to_tensor(value: Any, dtype: Any = None, dtype_hint: Any = None) -> Tensor:
    """np_arrays.convert_to_tensor: an int >= 2**63 is uint64, a bare Python float float64."""
    if dtype is None and isinstance(value, int) and not isinstance(value, bool) and value >= 2 ** 63:
        dtype = dtypes.uint64
    elif dtype is None and dtype_hint is None and isinstance(value, float):
        dtype = dtypes.float64
    return _convert(value, dtype=dtype, dtype_hint=dtype_hint)


def static_value(x: Any) -> Any:
    """np_utils.get_static_value: tf.get_static_value, but None for a float or complex tensor."""
    if isinstance(x, Tensor) and (x.dtype.is_floating or x.dtype.is_complex):
        return None
    return _tf_static(x)


def tnp_cond(pred: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any]) -> Any:
    """np_utils.cond: a branch chosen in Python when the predicate's value is known, else tf.cond."""
    v = static_value(pred)
    if v is None:
        return _tf_cond(pred, true_fn, false_fn)
    return true_fn() if v else false_fn()


def array_internal(val: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> Tensor:
    """np_array_ops._array_internal: convert (with tnp's inferred dtype) and cast, copy with
    tf.identity, and prepend ones to the shape up to `ndmin` dimensions (at most 32)."""
    result = val
    if not isinstance(result, Tensor):
        dtype = tnp_dtypes.result_type_unary(result, dtype)
        result = convert_to_tensor(result, dtype_hint=dtype)
        result = cast(result, dtype)
    elif dtype:
        result = cast(result, dtype)
    if copy:
        result = identity(result)
    if ndmin > 32:
        raise ValueError(f"ndmin bigger than allowable number of dimensions: {32}.")
    if ndmin == 0:
        return result
    nd = result.shape.rank
    if ndmin > nd:
        return reshape(result, concat([ones([ndmin - nd], dtypes.int32), shape(result)], axis=0))
    return result


def array(val: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> Tensor:
    """`tnp.array`: `array_internal` with the dtype read by `result_type`."""
    if dtype:
        dtype = tnp_dtypes.result_type(dtype)
    return array_internal(val, dtype, copy, ndmin)


def asarray(a: Any, dtype: Any = None) -> Tensor:
    """`tnp.asarray`: a tensor of the asked dtype (or any dtype) is returned as it is."""
    if dtype:
        dtype = tnp_dtypes.result_type(dtype)
    if isinstance(a, Tensor) and (not dtype or dtype == a.dtype):
        return a
    return array(a, dtype, copy=False)


def asanyarray(a: Any, dtype: Any = None) -> Tensor:
    """`tnp.asanyarray`: asarray."""
    return asarray(a, dtype)


def ascontiguousarray(a: Any, dtype: Any = None) -> Tensor:
    """`tnp.ascontiguousarray`: array with ndmin=1."""
    return array(a, dtype, ndmin=1)


def copy(a: Any) -> Tensor:
    """`tnp.copy`: array(a, copy=True)."""
    return array(a, copy=True)


def promote_dtype(*arrays: Any) -> list:
    """np_array_ops._promote_dtype: every operand converted to their common `result_type`."""
    dtype = tnp_dtypes.result_type(*arrays)
    return [a if isinstance(a, Tensor) and dtype == a.dtype else array_internal(a, dtype=dtype, copy=False)
            for a in arrays]


def promote_dtype_binary(t1: Any, t2: Any) -> tuple:
    """np_array_ops._promote_dtype_binary: both operands at their NumPy result type."""
    dtype = tnp_dtypes.result_type_binary(t1, t2)
    if not (isinstance(t1, Tensor) and dtype == t1.dtype):
        t1 = array_internal(t1, dtype=dtype, copy=False)
    if not (isinstance(t2, Tensor) and dtype == t2.dtype):
        t2 = array_internal(t2, dtype=dtype, copy=False)
    return t1, t2


def graph_shape(x: Tensor) -> TensorShape:
    """x's shape as TF's Python code sees it: inside a traced tf.function the graph's static shape
    (None where an input_signature leaves a dimension or the rank unknown), else the shape."""
    from simdist.runtime.ops.static_shapes import static_shape
    return static_shape(x)


def tf_rank(t: Tensor) -> Any:
    """np_utils.tf_rank: the static rank, else tf.rank."""
    r = graph_shape(t).rank
    return r if r is not None else rank(t)


def is_inexact_tensor(x: Tensor) -> bool:
    """Whether a tensor's dtype is float or complex (NumPy's np.inexact)."""
    return bool(np.issubdtype(x.dtype.as_numpy_dtype, np.inexact))
