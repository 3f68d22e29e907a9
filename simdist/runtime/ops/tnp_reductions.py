"""tnp's reductions and scans (TF 2.21's np_array_ops._reduce and friends, np_math_ops' nan
reductions, average, ptp, count_nonzero, argmax/argmin, trace, diff).

Without a dtype, sum/prod/cumsum/cumprod widen integers narrower than int64 to int64 (unsigned
to uint64; bools count as signed 8-bit), as NumPy's default int; mean/var/std compute integers
in float64; amax/amin keep the dtype. A bool reduction asked for bool (or a bool amax/amin) is
reduce_any/reduce_all.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import tnp_arrays as _arr
from simdist.runtime.ops import tnp_dtypes as _dt
from simdist.runtime.ops.array import gather, rank, reshape, shape, size
from simdist.runtime.ops.math import cast, divide, reduce_max, reduce_mean, reduce_min, reduce_sum
from simdist.runtime.ops.reductions import reduce_all, reduce_any, reduce_prod, reduce_std, reduce_variance
from simdist.runtime.tensor import Tensor

_TO_INT = 0
_TO_FLOAT = 1


def _is_bool(dtype: Any) -> bool:
    return dtype is not None and dtypes.as_dtype(dtype) == dtypes.bool_


def _reduce(tf_fn: Callable, a: Any, axis: Any = None, dtype: Any = None, keepdims: Any = None,
            promote_int: Any = _TO_INT, tf_bool_fn: Callable | None = None, preserve_bool: bool = False) -> Tensor:
    """np_array_ops._reduce: the reduction at the dtype given, else with integers widened."""
    if dtype:
        dtype = _dt.result_type(dtype)
    if keepdims is None:
        keepdims = False
    a = _arr.asarray(a, dtype=dtype)
    if (_is_bool(dtype) or (preserve_bool and a.dtype == dtypes.bool_)) and tf_bool_fn is not None:
        return tf_bool_fn(input_tensor=a, axis=axis, keepdims=keepdims)
    if dtype is None:
        npd = a.dtype.as_numpy_dtype
        if np.issubdtype(npd, np.integer) or npd == np.bool_:
            if promote_int == _TO_INT:
                if npd == np.bool_:
                    signed, width = True, 8
                else:
                    signed, width = bool(np.issubdtype(npd, np.signedinteger)), np.iinfo(npd).bits
                if width < np.iinfo(np.int_).bits:
                    npd = np.int_ if signed else np.uint
                a = cast(a, npd)
            elif promote_int == _TO_FLOAT:
                a = cast(a, dtypes.float64)
    if isinstance(axis, Tensor) and axis.dtype not in (dtypes.int32, dtypes.int64):
        axis = cast(axis, dtypes.int64)
    return tf_fn(input_tensor=a, axis=axis, keepdims=keepdims)


def all(a: Any, axis: Any = None, keepdims: Any = None) -> Tensor:  # noqa: A001
    """`tnp.all`: reduce_all of a cast to bool."""
    return reduce_all(input_tensor=_arr.asarray(a, dtype=bool), axis=axis, keepdims=keepdims)


def any(a: Any, axis: Any = None, keepdims: Any = None) -> Tensor:  # noqa: A001
    """`tnp.any`: reduce_any of a cast to bool."""
    return reduce_any(input_tensor=_arr.asarray(a, dtype=bool), axis=axis, keepdims=keepdims)


def sum(a: Any, axis: Any = None, dtype: Any = None, keepdims: Any = None) -> Tensor:  # noqa: A001
    """`tnp.sum` (integers widened to int64; bool dtype: reduce_any)."""
    return _reduce(reduce_sum, a, axis=axis, dtype=dtype, keepdims=keepdims, tf_bool_fn=reduce_any)


def prod(a: Any, axis: Any = None, dtype: Any = None, keepdims: Any = None) -> Tensor:
    """`tnp.prod` (integers widened to int64; bool dtype: reduce_all)."""
    return _reduce(reduce_prod, a, axis=axis, dtype=dtype, keepdims=keepdims, tf_bool_fn=reduce_all)


def mean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = None) -> Tensor:
    """`tnp.mean` (integers in float64; `out` refused)."""
    if out is not None:
        raise ValueError("Setting out is not supported.")
    return _reduce(reduce_mean, a, axis=axis, dtype=dtype, keepdims=keepdims, promote_int=_TO_FLOAT)


def amax(a: Any, axis: Any = None, out: Any = None, keepdims: Any = None) -> Tensor:
    """`tnp.amax` (the dtype kept; bools: reduce_any)."""
    if out is not None:
        raise ValueError("Setting out is not supported.")
    return _reduce(reduce_max, a, axis=axis, dtype=None, keepdims=keepdims, promote_int=None,
                   tf_bool_fn=reduce_any, preserve_bool=True)


def amin(a: Any, axis: Any = None, out: Any = None, keepdims: Any = None) -> Tensor:
    """`tnp.amin` (the dtype kept; bools: reduce_all)."""
    if out is not None:
        raise ValueError("Setting out is not supported.")
    return _reduce(reduce_min, a, axis=axis, dtype=None, keepdims=keepdims, promote_int=None,
                   tf_bool_fn=reduce_all, preserve_bool=True)


def max(a: Any, axis: Any = None, keepdims: Any = None) -> Tensor:  # noqa: A001
    """`tnp.max`: amax."""
    return amax(a, axis=axis, keepdims=keepdims)


def min(a: Any, axis: Any = None, keepdims: Any = None) -> Tensor:  # noqa: A001
    """`tnp.min`: amin."""
    return amin(a, axis=axis, keepdims=keepdims)


def var(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: int = 0, keepdims: Any = None) -> Tensor:
    """`tnp.var`: reduce_variance (ddof 0), else sum of squared deviations / (n - ddof) cast to
    `dtype` (TF 2.21 casts to the dtype argument: none given is TF's TypeError)."""
    working_dtype = _dt.result_type(a, dtype) if dtype else None
    if out is not None:
        raise ValueError("Setting out is not supported.")
    if ddof != 0:
        def reduce_fn(input_tensor: Tensor, axis: Any, keepdims: bool) -> Tensor:
            from simdist.runtime.ops.math import multiply
            from simdist.runtime.ops.misc_more import conj, real as _real
            from simdist.runtime.ops.unary import square
            centered = input_tensor - reduce_mean(input_tensor, axis=axis, keepdims=True)
            if input_tensor.dtype in (dtypes.complex64, dtypes.complex128):
                centered = cast(_real(multiply(centered, conj(centered))), input_tensor.dtype)
            else:
                centered = square(centered)
            squared_deviations = reduce_sum(centered, axis=axis, keepdims=keepdims)
            if axis is None:
                n = size(input_tensor)
            else:
                if axis < 0:
                    axis += rank(input_tensor)
                n = reduce_prod(gather(shape(input_tensor), axis))
            n = cast(n - ddof, input_tensor.dtype)
            quotient = divide(squared_deviations, n)
            if dtype is None:
                raise TypeError("Cannot convert the argument `type_value`: None to a TensorFlow DType.")
            return cast(quotient, dtype)
    else:
        reduce_fn = reduce_variance
    result = _reduce(reduce_fn, a, axis=axis, dtype=working_dtype, keepdims=keepdims, promote_int=_TO_FLOAT)
    return cast(result, dtype) if dtype else result


def std(a: Any, axis: Any = None, keepdims: Any = None) -> Tensor:
    """`tnp.std`: reduce_std (integers in float64)."""
    return _reduce(reduce_std, a, axis=axis, dtype=None, keepdims=keepdims, promote_int=_TO_FLOAT)


def ptp(a: Any, axis: Any = None, keepdims: Any = None) -> Tensor:
    """`tnp.ptp`: amax - amin."""
    return amax(a, axis=axis, keepdims=keepdims) - amin(a, axis=axis, keepdims=keepdims)


def count_nonzero(a: Any, axis: Any = None) -> Tensor:
    """`tnp.count_nonzero`: tf.math.count_nonzero (int64)."""
    from simdist.runtime.ops.counting import count_nonzero as _count
    return _count(_arr.array(a), axis)


def _maybe_promote_to_int(a: Tensor) -> Tensor:
    if a.dtype.is_integer:
        npd = a.dtype.as_numpy_dtype
        out = np.promote_types(npd, int)
        if out != npd:
            a = _arr.asarray(a, dtype=out)
    return a


def _scan(tf_fn: Callable, a: Any, axis: Any, dtype: Any) -> Tensor:
    a = _arr.asarray(a, dtype=dtype)
    if dtype is None:
        a = _maybe_promote_to_int(a)
    if axis is None:
        a = reshape(a, [-1])
        axis = 0
    elif axis < 0:
        axis += rank(a)
    return tf_fn(a, axis)


def cumsum(a: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    """`tnp.cumsum`: over a flattened unless `axis` (integers promoted with Python int: int64)."""
    from simdist.runtime.ops.reductions import cumsum as _cumsum
    return _scan(_cumsum, a, axis, dtype)


def cumprod(a: Any, axis: Any = None, dtype: Any = None) -> Tensor:
    """`tnp.cumprod`: over a flattened unless `axis` (integers promoted with Python int: int64)."""
    from simdist.runtime.ops.reductions import cumprod as _cumprod
    return _scan(_cumprod, a, axis, dtype)


def _nan_reduction(reduction: Callable, init_val: int, name: str) -> Callable:
    def nan_reduction(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
        from simdist.runtime.ops.tnp_indexing import where
        from simdist.runtime.ops.tnp_math import isnan
        a = _arr.array(a)
        v = _arr.array(init_val, dtype=a.dtype)
        return reduction(where(isnan(a), v, a), axis=axis, dtype=dtype, keepdims=keepdims)
    nan_reduction.__name__ = nan_reduction.__qualname__ = name
    nan_reduction.__doc__ = f"`tnp.{name}`: NaNs replaced by {init_val} (isnan: float operands only)."
    return nan_reduction


nansum = _nan_reduction(sum, 0, "nansum")
nanprod = _nan_reduction(prod, 1, "nanprod")


def nanmean(a: Any, axis: Any = None, dtype: Any = None, keepdims: Any = None) -> Tensor:
    """`tnp.nanmean`: mean of bools and integers, else nansum / the count of non-NaNs."""
    from simdist.runtime.ops.tnp_math import isnan, logical_not
    a = _arr.array(a)
    npd = a.dtype.as_numpy_dtype
    if np.issubdtype(npd, np.bool_) or np.issubdtype(npd, np.integer):
        return mean(a, axis=axis, dtype=dtype, keepdims=keepdims)
    nan_mask = logical_not(isnan(a))
    if dtype is None:
        dtype = npd
    normalizer = sum(nan_mask, axis=axis, dtype=dtype, keepdims=keepdims)
    return nansum(a, axis=axis, dtype=dtype, keepdims=keepdims) / normalizer


def average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False) -> Any:
    """`tnp.average`: the mean, or sum(a * w) / sum(w) (1-D weights along `axis`); an integer
    operand without weights asks for `astype` (TF's AttributeError while NumPy behavior is off)."""
    from simdist.runtime.ops.array import broadcast_to
    from simdist.runtime.ops.control_flow import Assert
    from simdist.runtime.ops.linalg import tensordot
    from simdist.runtime.tensor import convert_to_tensor
    if axis is not None and not isinstance(axis, int):
        raise ValueError(f"Argument `axis` must be an integer. Received axis={axis} (of type {type(axis)})")
    a = _arr.array(a)
    if weights is None:
        if not _arr.is_inexact_tensor(a):
            raise _arr.astype_missing(a)
        avg = reduce_mean(a, axis=axis)
        if returned:
            weights_sum = size(a) if axis is None else shape(a)[axis]
            weights_sum = cast(weights_sum, a.dtype)
    else:
        if _arr.is_inexact_tensor(a):
            out_dtype = _dt.result_type(a.dtype, weights)
        else:
            out_dtype = _dt.result_type(a.dtype, weights, np.float64)
        a = _arr.array(a, out_dtype)
        weights = _arr.array(weights, out_dtype)

        def rank_equal_case() -> tuple:
            Assert(reduce_all(shape(a) == shape(weights)), [shape(a), shape(weights)])
            ws = reduce_sum(weights, axis=axis)
            return reduce_sum(a * weights, axis=axis) / ws, ws

        if axis is None or a.shape.rank == weights.shape.rank:
            avg, weights_sum = rank_equal_case()
        else:
            Assert(weights.shape.rank == 1, [rank(weights)])
            weights_sum = reduce_sum(weights)
            avg = tensordot(a, weights, convert_to_tensor([[axis], [0]])) / weights_sum
    avg = _arr.array(avg)
    if returned:
        return avg, broadcast_to(weights_sum, shape(avg))
    return avg


def argmax(a: Any, axis: Any = None) -> Tensor:
    """`tnp.argmax`: over a flattened unless `axis` (int64)."""
    from simdist.runtime.ops.reductions import argmax as _argmax
    return _argminmax(_argmax, a, axis)


def argmin(a: Any, axis: Any = None) -> Tensor:
    """`tnp.argmin`: over a flattened unless `axis` (int64)."""
    from simdist.runtime.ops.reductions import argmin as _argmin
    return _argminmax(_argmin, a, axis)


def _argminmax(fn: Callable, a: Any, axis: Any) -> Tensor:
    from simdist.runtime.ops.tnp_shape import atleast_1d
    a = _arr.array(a)
    a_t = reshape(a, [-1]) if axis is None else atleast_1d(a)
    return fn(input=a_t, axis=axis)


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Tensor:
    """`tnp.trace`: tf.linalg.trace over the last two axes, else sum of `diagonal` (a dtype given
    is the operand's)."""
    from simdist.runtime.ops.linalg import trace as _trace
    from simdist.runtime.ops.tnp_indexing import diagonal
    if dtype:
        dtype = _dt.result_type(dtype)
    a = _arr.asarray(a, dtype)
    if offset == 0 and a.shape.rank is not None:
        r = a.shape.rank
        if (axis1 == -2 or axis1 == r - 2) and (axis2 == -1 or axis2 == r - 1):
            return _trace(a)
    return sum(diagonal(a, offset, axis1, axis2), -1, dtype)


def diff(a: Any, n: int = 1, axis: int = -1) -> Tensor:
    """`tnp.diff`: n-th differences along `axis` (bools: not_equal)."""
    from simdist.runtime.ops.math import not_equal, subtract
    from simdist.runtime.ops.tnp_math import scalar

    def f(t: Tensor) -> Tensor:
        nd = _arr.graph_shape(t).rank
        if nd is None:
            raise ValueError(f"Function `diff` currently requires a known rank for input `a`. Received: a={t} "
                             "(unknown rank)")
        if (axis + nd if axis < 0 else axis) >= nd:
            raise ValueError(f"Argument `axis` (received axis={axis}) is out of bounds for input {t} of rank {nd}.")
        if n < 0:
            raise ValueError(f"Argument `order` must be a non-negative integer. Received: axis={n}")
        slice1, slice2 = [slice(None)] * nd, [slice(None)] * nd
        slice1[axis], slice2[axis] = slice(1, None), slice(None, -1)
        op = not_equal if t.dtype == dtypes.bool_ else subtract
        for _ in range(n):
            t = op(t[tuple(slice1)], t[tuple(slice2)])
        return t
    return scalar(f, a)
