"""tnp's array creation (TF 2.21's np_array_ops.py and np_math_ops.linspace/logspace/geomspace/
meshgrid): a dtype given is read by `result_type`; none is float64 (zeros, eye, tri...), the
fill value's (full), or NumPy's result type of the bounds (arange). Under NumPy 2 `linspace` and
`logspace` take their dtype from `start * 1.0` and `stop * 1.0` and ignore the one given.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from simdist.runtime import context, dtypes
from simdist.runtime.ops import tnp_arrays as _arr
from simdist.runtime.ops import tnp_dtypes as _dt
from simdist.runtime.ops.math import cast
from simdist.runtime.ops.array import (broadcast_to, ones as _ones, range_, shape,
                                       shape as _shape,
                                       zeros as _zeros, zeros_like as _zeros_like)
from simdist.runtime.tensor import Tensor


def zeros(shape: Any, dtype: Any = float) -> Tensor:  # noqa: A002
    """`tnp.zeros` (dtype float64 unless given)."""
    dtype = _dt.result_type(dtype) if dtype else dtypes.float64
    return _zeros(shape, dtype=dtype)


def empty(shape: Any, dtype: Any = float) -> Tensor:
    """`tnp.empty`: zeros."""
    return zeros(shape, dtype)


def zeros_like(a: Any, dtype: Any = None) -> Tensor:
    """`tnp.zeros_like`: a's (or the given) dtype as tnp reads it (a Python float: float64)."""
    dtype = dtypes.as_dtype(_dt.result_type_unary(a, dtype))
    return _zeros_like(a, dtype)


def empty_like(a: Any, dtype: Any = None) -> Tensor:
    """`tnp.empty_like`: zeros_like."""
    return zeros_like(a, dtype)


def ones(shape: Any, dtype: Any = float) -> Tensor:
    """`tnp.ones` (dtype float64 unless given; a falsy dtype is tf.ones' TypeError)."""
    if dtype:
        return _ones(shape, dtype=_dt.result_type(dtype))
    # (tf.ones(shape, dtype=None): dtypes.as_dtype(None) is TF's TypeError)
    raise TypeError(f"Cannot convert the argument `type_value`: {dtype!r} to a TensorFlow DType.")


def ones_like(a: Any, dtype: Any = None) -> Tensor:
    """`tnp.ones_like`: a's (or the given) dtype as tnp reads it, through v1's ones_like_impl (`ones`)."""
    from simdist.runtime.ops.array import ones_like_impl
    return ones_like_impl(a, _dt.result_type_unary(a, dtype))


def eye(N: Any, M: Any = None, k: Any = 0, dtype: Any = float) -> Tensor:  # noqa: N803
    """`tnp.eye`: ones on diagonal k of an N x M matrix (tf.eye for k=0, else MatrixDiag)."""
    from simdist.runtime.ops.diag import diag
    from simdist.runtime.ops.generators import eye as _eye
    if dtype:
        dtype = _dt.result_type(dtype)
    if not M:
        M = N
    N, M, k = int(N), int(M), int(k)
    if k >= M or -k >= N:
        return zeros([N, M], dtype=dtype)
    if k == 0:
        return _eye(N, M, dtype=dtype)
    diag_len = builtins.min(N, M)
    if k > 0:
        if N >= M:
            diag_len -= k
        elif N + k > M:
            diag_len = M - k
    else:
        if M >= N:
            diag_len += k
        elif M - k > N:
            diag_len = N + k
    return diag(_ones([diag_len], dtype=dtype), num_rows=N, num_cols=M, k=k)


def identity(n: Any, dtype: Any = float) -> Tensor:
    """`tnp.identity`: eye(n, n)."""
    return eye(N=n, M=n, dtype=dtype)


def full(shape: Any, fill_value: Any, dtype: Any = None) -> Tensor:  # noqa: A002
    """`tnp.full`: fill_value (asarray with the dtype) broadcast to the shape."""
    from simdist.runtime.ops.tnp_shape import atleast_1d
    if not isinstance(shape, Tensor):
        shape = _arr.asarray(_arr.convert_to_tensor(shape, dtype_hint=np.int32))
    shape = atleast_1d(shape)
    fill_value = _arr.asarray(fill_value, dtype=dtype)
    return broadcast_to(fill_value, shape)


def full_like(a: Any, fill_value: Any, dtype: Any = None, order: str = "K", subok: bool = True,
              shape: Any = None) -> Tensor:  # noqa: A002
    """`tnp.full_like`: fill_value at a's (or the given) dtype, broadcast to a's shape."""
    if order != "K":
        raise ValueError("Non-standard orders are not supported.")
    if not subok:
        raise ValueError("subok being False is not supported.")
    if shape:
        raise ValueError("Overriding the shape is not supported.")
    a = _arr.asarray(a)
    dtype = dtype or _dt.result_type(a)
    fill_value = _arr.asarray(fill_value, dtype=dtype)
    return broadcast_to(fill_value, _shape(a))   # (the parameter `shape` hides the op's name here)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None) -> Tensor:
    """`tnp.arange`: tf.range cast to the dtype (given, else NumPy's result type of start, step,
    stop); an empty range is array([]) of the dtype; step 0 is refused."""
    from simdist.runtime.symbolic import truth_taken   # (TF's `if` over tensor arguments: refused in a graph)
    if not truth_taken(step):
        raise ValueError("step must be non-zero.")
    if dtype:
        dtype = _dt.result_type(dtype)
    elif stop is None:
        dtype = _dt.result_type(start, step)
    else:
        dtype = _dt.result_type(start, step, stop)
    if truth_taken(step > 0 and ((stop is not None and start > stop) or (stop is None and start < 0))):
        return _arr.array([], dtype=dtype)
    if truth_taken(step < 0 and ((stop is not None and start < stop) or (stop is None and start > 0))):
        return _arr.array([], dtype=dtype)
    return cast(range_(start, limit=stop, delta=step), dtype=dtype)


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: Any = float, axis: int = 0) -> Any:
    """`tnp.linspace`: tf.linspace at result_type([start * 1.0, stop * 1.0]) (NumPy 2: the dtype
    argument only decides whether that happens); endpoint=False stops a step early; an integer
    dtype floors."""
    from simdist.runtime.ops.generators import linspace as _linspace
    from simdist.runtime.ops.unary import floor
    from simdist.runtime.tensor import convert_to_tensor
    if dtype:
        dtype = _dt.result_type([start * 1.0, stop * 1.0])
    start = _arr.array(start, dtype=dtype)
    stop = _arr.array(stop, dtype=dtype)
    if num < 0:
        raise ValueError("Argument `num` (number of samples) must be a non-negative integer. "
                         f"Received: num={num}")
    step = convert_to_tensor(np.nan)
    if endpoint:
        result = _linspace(start, stop, num, axis=axis)
        if num > 1:
            step = (stop - start) / (num - 1)
    else:
        if num > 0:
            step = (stop - start) / num
        if num > 1:
            new_stop = cast(stop, step.dtype) - step
            start = cast(start, new_stop.dtype)
            result = _linspace(start, new_stop, num, axis=axis)
        else:
            result = _linspace(start, stop, num, axis=axis)
    if dtype:
        if dtype.is_integer:
            result = floor(result)
        result = cast(result, dtype)
    return (result, step) if retstep else result


def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: float = 10.0,
             dtype: Any = None, axis: int = 0) -> Tensor:
    """`tnp.logspace`: base ** linspace(start, stop) (dtype from start * 1.0, stop * 1.0)."""
    from simdist.runtime.ops.math import pow_
    dtype = _dt.result_type([start * 1.0, stop * 1.0])
    result = linspace(start, stop, num=num, endpoint=endpoint, dtype=dtype, axis=axis)
    result = pow_(cast(base, result.dtype), result)
    return cast(result, dtype) if dtype else result


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
              axis: int = 0) -> Tensor:
    """`tnp.geomspace`: signflip * logspace(log10(signflip * start), log10(signflip * stop))."""
    from simdist.runtime.ops import tnp_math as _m
    from simdist.runtime.ops.tnp_complex import real
    from simdist.runtime.ops.tnp_shape import moveaxis
    dtype = (dtypes.as_dtype(dtype) if dtype
             else _dt.result_type(start, stop, float(num), zeros((), dtype)))
    computation_dtype = np.promote_types(dtype.as_numpy_dtype, np.float32)
    start = _arr.asarray(start, dtype=computation_dtype)
    stop = _arr.asarray(stop, dtype=computation_dtype)
    start_sign = 1 - _m.sign(real(start))
    stop_sign = 1 - _m.sign(real(stop))
    signflip = 1 - start_sign * stop_sign // 2
    res = signflip * logspace(_m.log10(signflip * start), _m.log10(signflip * stop), num, endpoint=endpoint,
                              base=10.0, dtype=computation_dtype, axis=0)
    if axis != 0:
        res = moveaxis(res, 0, axis)
    return cast(res, dtype)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None) -> Tensor:  # noqa: N803
    """`tnp.tri`: ones at and below diagonal k (band_part), float64 unless a dtype is given."""
    from simdist.runtime.ops.linalg_more import band_part
    from simdist.runtime.ops.math import logical_not
    M = M if M is not None else N
    dtype = _dt.result_type(dtype) if dtype is not None else _dt.result_type(float)
    if k < 0:
        lower = -k - 1
        if lower > N:
            return _zeros([N, M], dtype)
        o = _ones([N, M], dtype=dtypes.bool_)
        return cast(logical_not(band_part(o, lower, -1)), dtype)
    o = _ones([N, M], dtype)
    return o if k > M else band_part(o, -1, k)


def _tri_mask(m: Any, k: int, name: str) -> tuple:
    m = _arr.asarray(m)
    if _arr.graph_shape(m).rank is None:
        raise ValueError(f"Argument to {name} should have known rank")
    m_shape = _arr.graph_shape(m).as_list()
    if len(m_shape) < 2:
        raise ValueError(f"Argument to {name} must have rank at least 2")
    if m_shape[-1] is None or m_shape[-2] is None:
        raise ValueError("Currently, the last two dimensions of the input array need to be known.")
    return m, broadcast_to(tri(*m_shape[-2:], k=k, dtype=bool), shape(m))  # (m_shape: known here)


def tril(m: Any, k: int = 0) -> Tensor:
    """`tnp.tril`: m at and below diagonal k, 0 above (rank >= 2 with known last dims)."""
    from simdist.runtime.ops.array import constant
    from simdist.runtime.ops.math import where
    m, mask = _tri_mask(m, k, "tril")
    return where(mask, m, constant(0, m.dtype))


def triu(m: Any, k: int = 0) -> Tensor:
    """`tnp.triu`: m at and above diagonal k, 0 below."""
    from simdist.runtime.ops.array import constant
    from simdist.runtime.ops.math import where
    m, mask = _tri_mask(m, k - 1, "triu")
    return where(mask, constant(0, m.dtype), m)


def diag(v: Any, k: int = 0) -> Tensor:
    """`tnp.diag`: a 1-D v on diagonal k of a square matrix (empty v: zeros [|k|, |k|]); of a
    2-D v its diagonal k (empty when k is outside). Other ranks: ValueError."""
    from simdist.runtime.ops.diag import diag as _mdiag, diag_part
    v = _arr.asarray(v)
    from simdist.runtime.ops.control_flow import Assert
    _arr.graph_shape(v).with_rank_at_most(2)
    r = v.shape.rank
    if r == 0 and not context.executing_eagerly():
        # (a graph runs the Assert later: TF's Python goes on to _diag_part, whose
        # np_utils.getitem(shape, 0) of the static shape [] is NumPy's IndexError)
        np.asarray(_arr.graph_shape(v).as_list(), np.int32)[0]
    Assert(r == 1 or r == 2, [r])
    if r == 1:
        if v.shape[0] == 0:
            return _zeros([builtins.abs(k), builtins.abs(k)], dtype=v.dtype)
        return _mdiag(v, k=k)
    rows, cols = v.shape[0], v.shape[1]
    if k <= -1 * rows or k >= cols:
        v, k = _zeros([0, 0], dtype=v.dtype), 0
    return diag_part(v, k=k)


def diagflat(v: Any, k: int = 0) -> Tensor:
    """`tnp.diagflat`: diag of v flattened."""
    from simdist.runtime.ops.array import reshape
    return diag(reshape(_arr.asarray(v), [-1]), k)


def meshgrid(*xi: Any, **kwargs: Any) -> list:
    """`tnp.meshgrid`: tf.meshgrid of asarray'd inputs (sparse=True and copy=False refused)."""
    from simdist.runtime.ops.generators import meshgrid as _meshgrid
    sparse = kwargs.get("sparse", False)
    if sparse:
        raise ValueError(f"Function `meshgrid` does not support returning sparse arrays yet. Received: sparse={sparse}")
    copy = kwargs.get("copy", True)
    if not copy:
        raise ValueError(f"Function `meshgrid` only supports copy=True. Received: copy={copy}")
    indexing = kwargs.get("indexing", "xy")
    return _meshgrid(*[_arr.asarray(x) for x in xi], indexing=indexing)


def diag_indices(n: int, ndim: int = 2) -> tuple:
    """`tnp.diag_indices`: ndim copies of range(n) (int32)."""
    if n < 0:
        raise ValueError(f"n argument to diag_indices must be nonnegative, got {n}")
    if ndim < 0:
        raise ValueError(f"ndim argument to diag_indices must be nonnegative, got {ndim}")
    return (range_(n),) * ndim


def vander(x: Any, N: Any = None, increasing: bool = False) -> Tensor:  # noqa: N803
    """`tnp.vander`: x ** range (decreasing powers unless `increasing`), x 1-D."""
    from simdist.runtime.ops.array import expand_dims
    from simdist.runtime.ops.math import pow_
    x = _arr.asarray(x)
    if N is None:
        N = shape(x)[0]
    n_static = _arr.static_value(N)
    if n_static is not None:
        N = n_static
        if N < 0:
            raise ValueError("N must be nonnegative")
    _rank_one(x, "x must be a one-dimensional array")
    start, limit, delta = (0, N, 1) if increasing else (N - 1, -1, -1)
    x = expand_dims(x, -1)
    return pow_(x, cast(range_(start, limit, delta), dtype=x.dtype))


def _rank_one(x: Tensor, message: str) -> None:
    """vander's and ix_'s rank check: ValueError where the rank is known (get_static_value of
    tf.rank), else an Assert (InvalidArgumentError when the graph runs)."""
    from simdist.runtime.ops.control_flow import Assert
    if _arr.graph_shape(x).rank is not None:
        if x.shape.rank != 1:
            raise ValueError(message)
    else:
        Assert(x.shape.rank == 1, [x.shape.rank])


def ix_(*args: Any) -> list:
    """`tnp.ix_`: each 1-D argument reshaped to its own axis (bools by their nonzero indices)."""
    from simdist.runtime.ops.array import reshape
    from simdist.runtime.ops.tnp_indexing import nonzero
    n = len(args)
    output = []
    for i, a in enumerate(args):
        a = _arr.asarray(a)
        _rank_one(a, f"Arguments must be 1-d, got arg {i} of rank {a.shape.rank}")
        new_shape = [1] * n
        new_shape[i] = -1
        if a.dtype == dtypes.bool_:
            output.append(reshape(nonzero(a)[0], new_shape))
        elif a.dtype.is_integer:
            output.append(reshape(a, new_shape))
        else:
            raise ValueError(f"Only integer and bool dtypes are supported, got {a.dtype}")
    return output
