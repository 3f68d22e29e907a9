"""Tensor functions of the facade (`tf.constant`, `tf.reduce_sum`, ...), computed with NumPy."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime import tensor as _tm
from simdist.runtime.context import current_device
from simdist.runtime.cost import tally
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor, truediv

__all__ = [
    "constant", "convert_to_tensor", "range_", "reshape", "identity", "expand_dims", "squeeze", "ones",
    "zeros", "ones_like", "zeros_like", "fill", "cast", "concat", "stack", "reduce_sum", "reduce_mean",
    "reduce_max", "reduce_min", "add", "subtract", "multiply", "divide", "truediv", "square", "sqrt",
    "matmul", "shape", "size", "rank", "equal", "gather", "embedding_lookup", "add_n", "abs_", "exp",
    "maximum", "minimum", "transpose", "split",
]


def _placed(arr: np.ndarray, dtype: dtypes.DType) -> Tensor:
    return Tensor(arr, dtype, current_device())


def _t(x: Any) -> Tensor:
    if isinstance(x, Tensor):   # what convert_to_tensor returns for a tensor and no dtype
        return x
    return convert_to_tensor(x)


def constant(value: Any, dtype: Any = None, shape: Sequence[int] | None = None, name: str | None = None) -> Tensor:
    """`tf.constant`: TF's dtype inference; `shape` broadcasts a scalar or reshapes a same-size value."""
    t = convert_to_tensor(value, dtype=dtype) if not isinstance(value, Tensor) else value
    if dtype is not None and isinstance(value, Tensor) and t.dtype != dtypes.as_dtype(dtype):
        t = cast(t, dtype)
    arr = t._v
    if shape is not None:
        shape = tuple(int(d) for d in shape)
        if arr.size == 1:
            arr = np.full(shape, arr.reshape(()), dtype=arr.dtype)
        elif arr.size == int(np.prod(shape)):
            arr = arr.reshape(shape)
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {value!r} "
                            f"(converted from {value!r}) has {arr.size} elements, but got `shape` "
                            f"{shape} with {int(np.prod(shape))} elements).")
    return _placed(arr, t.dtype)


def range_(start: Any, limit: Any = None, delta: Any = 1, dtype: Any = None, name: str = "range") -> Tensor:
    """`tf.range`: int32 for Python ints, float32 if any argument is a float."""
    if limit is None:
        start, limit = 0, start
    vals = [start, limit, delta]
    if dtype is None:
        kinds = [v.dtype if isinstance(v, Tensor) else dtypes.infer_dtype(v) for v in vals]
        order = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]
        dt = max(kinds, key=lambda k: order.index(k) if k in order else 0)
    else:
        dt = dtypes.as_dtype(dtype)
    s, l, d = (float(v) if dt.is_floating else int(v) for v in vals)
    if d == 0:
        raise errors.InvalidArgumentError(None, None, "Requires delta != 0: 0 [Op:Range]")
    if (d > 0 and s > l) or (d < 0 and s < l):
        raise errors.InvalidArgumentError(
            None, None, f"Requires start <= limit when delta > 0: {s}/{l} [Op:Range]" if d > 0 else
            f"Requires start >= limit when delta < 0: {s}/{l} [Op:Range]")
    return _placed(np.arange(s, l, d, dtype=dt.np), dt)


def reshape(tensor: Any, shape: Any, name: str | None = None) -> Tensor:
    t = _t(tensor)
    shp = [int(d) for d in (shape._v if isinstance(shape, Tensor) else shape)]
    try:
        out = t._v.reshape(shp)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f"Input to reshape is a tensor with {t._v.size} values, but the requested shape "
            f"has {int(np.prod(shp))} [Op:Reshape]") from None
    return Tensor(out, t.dtype, current_device())


def identity(x: Any, name: str | None = None) -> Tensor:
    t = _t(x)
    return Tensor(t._v, t.dtype, current_device())


def expand_dims(x: Any, axis: int, name: str | None = None) -> Tensor:
    t = _t(x)
    nd = t._v.ndim
    if not -nd - 1 <= int(axis) <= nd:
        raise errors.InvalidArgumentError(
            None, None, f"Tried to expand dim index {int(axis)} for tensor with {nd} dimensions. [Op:ExpandDims]")
    return Tensor(np.expand_dims(t._v, int(axis)), t.dtype, current_device())


def squeeze(x: Any, axis: Any = None, name: str | None = None) -> Tensor:
    t = _t(x)
    return Tensor(np.squeeze(t._v, axis=axis), t.dtype, current_device())


def _shape_arg(shape: Any) -> tuple[int, ...]:
    t = type(shape)
    if t is list or t is tuple:   # the usual [d0, d1, ...]: skip the tests below
        return tuple(map(int, shape))
    if isinstance(shape, Tensor):
        shape = shape._v.tolist()
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(map(int, shape))


def ones(shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    dt = dtypes.as_dtype(dtype)
    if _tm._REC is not None:
        return _tm._REC.constant(_placed(np.ones(_shape_arg(shape), dtype=dt.np), dt))
    return _placed(np.ones(_shape_arg(shape), dtype=dt.np), dt)


def zeros(shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    dt = dtypes.as_dtype(dtype)
    if _tm._REC is not None:
        return _tm._REC.constant(_placed(np.zeros(_shape_arg(shape), dtype=dt.np), dt))
    return _placed(np.zeros(_shape_arg(shape), dtype=dt.np), dt)


def fill(dims: Any, value: Any, name: str | None = None) -> Tensor:
    v = _t(value)
    return _placed(np.full(_shape_arg(dims), v._v, dtype=v.dtype.np), v.dtype)


def ones_like(x: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    t = _t(x)
    dt = t.dtype if dtype is None else dtypes.as_dtype(dtype)
    return Tensor(np.ones(t._v.shape, dtype=dt.np), dt, current_device())


def zeros_like(x: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    t = _t(x)
    dt = t.dtype if dtype is None else dtypes.as_dtype(dtype)
    return Tensor(np.zeros(t._v.shape, dtype=dt.np), dt, current_device())


def cast(x: Any, dtype: Any, name: str | None = None) -> Tensor:
    """`tf.cast`: float to int truncates toward zero, like TF."""
    t = _t(x)
    dt = dtypes.as_dtype(dtype)
    if dt is dtypes.string or t.dtype is dtypes.string:
        if dt is t.dtype:
            return t
        raise errors.UnimplementedError(None, None, f"Cast {t.dtype.name} to {dt.name} is not supported [Op:Cast]")
    tally.flops += t._v.size
    with np.errstate(invalid="ignore"):
        return Tensor(t._v.astype(dt.np), dt, current_device())


def _axis_check(axis: int, rank: int, op: str) -> int:
    if not -rank <= axis < rank:
        raise errors.InvalidArgumentError(
            None, None, f"ConcatOp : Expected concatenating dimensions in the range [{-rank}, {rank}), "
            f"but got {axis} [Op:{op}]")
    return axis % rank


def concat(values: Sequence[Any], axis: int, name: str = "concat") -> Tensor:
    """`tf.concat` with TF's ConcatOp error messages."""
    ts = [_t(v) for v in values]
    if not ts:
        raise ValueError("List argument 'values' to 'ConcatV2' Op with length 0 shorter than minimum length 2.")
    if len(ts) == 1:
        return ts[0]
    dt = ts[0].dtype
    for t in ts[1:]:
        if t.dtype != dt:
            raise errors.InvalidArgumentError(None, None, f"cannot compute ConcatV2 as input #1(zero-based) was "
                                              f"expected to be a {dt.name} tensor but is a {t.dtype.name} tensor "
                                              "[Op:ConcatV2]")
    return Tensor(concat_arrays([t._v for t in ts], int(axis)), dt, current_device())


def concat_arrays(arrays: Sequence[np.ndarray], axis: int, op: str = "ConcatV2") -> np.ndarray:
    """np.concatenate with TF's ConcatOp checks and messages."""
    r0 = arrays[0].ndim
    if r0 == 0:
        raise errors.InvalidArgumentError(None, None, f"ConcatOp : Can't concatenate scalars (use tf.stack instead) "
                                          f"[Op:{op}]")
    ax = _axis_check(axis, r0, op)
    s0 = arrays[0].shape
    for i, a in enumerate(arrays[1:], 1):
        if a.ndim != r0:
            raise errors.InvalidArgumentError(
                None, None, f"ConcatOp : Ranks of all input tensors should match: shape[0] = {list(s0)} vs. "
                f"shape[{i}] = {list(a.shape)} [Op:{op}]")
        for d in range(r0):
            if d != ax and a.shape[d] != s0[d]:
                raise errors.InvalidArgumentError(
                    None, None, f"ConcatOp : Dimension {d} in both shapes must be equal: shape[0] = {list(s0)} "
                    f"vs. shape[{i}] = {list(a.shape)} [Op:{op}]")
    return np.concatenate(arrays, axis=ax)


def stack(values: Sequence[Any], axis: int = 0, name: str = "stack") -> Tensor:
    ts = [_t(v) for v in values]
    try:
        out = np.stack([t._v for t in ts], axis=int(axis))
    except ValueError as e:
        raise errors.InvalidArgumentError(None, None, f"{e} [Op:Pack]") from None
    return Tensor(out, ts[0].dtype, current_device())


def _axes(axis: Any, rank: int, opname: str) -> Any:
    if axis is None:
        return None
    if isinstance(axis, Tensor):
        if not axis.dtype.is_integer:
            raise TypeError(f"Value passed to parameter 'reduction_indices' has DataType {axis.dtype.name} not in "
                            "list of allowed values: int32, int64")
        axis = axis._v.tolist()
    if isinstance(axis, float):
        raise TypeError("Value passed to parameter 'reduction_indices' has DataType float32 not in list of "
                        "allowed values: int32, int64")
    axs = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = []
    for a in axs:
        a = int(a)
        if not -rank <= a < rank:
            raise errors.InvalidArgumentError(
                None, None, f"Invalid reduction dimension ({a} for input with {rank} dimension(s) [Op:{opname}]")
        out.append(a % rank)
    return tuple(out)


def reduce_sum(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Tensor:
    t = _t(input_tensor)
    v, dt = t._v, t.dtype
    ax = _axes(axis, v.ndim, "Sum")
    tally.flops += v.size
    out = np.add.reduce(v, axis=ax, dtype=dt._np if dt is not dtypes.bool_ else None,
                        keepdims=keepdims)   # = ndarray.sum, without its Python wrapper
    if _tm._REC is not None:
        return _tm._REC.reduce_sum(Tensor(np.asarray(out, dtype=dt._np), dt, current_device()), t, ax, keepdims)
    return Tensor(np.asarray(out, dtype=dt._np), dt, current_device())


def reduce_mean(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Tensor:
    """`tf.reduce_mean`: integer inputs give the truncated integer mean, like TF."""
    t = _t(input_tensor)
    ax = _axes(axis, t._v.ndim, "Mean")
    tally.flops += t._v.size
    if t.dtype.is_integer:
        s = np.sum(t._v, axis=ax, keepdims=keepdims, dtype=np.int64)
        n = t._v.size if ax is None else int(np.prod([t._v.shape[a] for a in ax]))
        out = np.trunc(s / max(n, 1)).astype(t.dtype.np) if n else np.zeros_like(s, dtype=t.dtype.np)
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.mean(t._v, axis=ax, keepdims=keepdims, dtype=t.dtype.np)
    return Tensor(np.asarray(out, dtype=t.dtype.np), t.dtype, current_device())


def reduce_max(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Tensor:
    t = _t(input_tensor)
    ax = _axes(axis, t._v.ndim, "Max")
    return Tensor(np.asarray(np.max(t._v, axis=ax, keepdims=keepdims)), t.dtype, current_device())


def reduce_min(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Tensor:
    t = _t(input_tensor)
    ax = _axes(axis, t._v.ndim, "Min")
    return Tensor(np.asarray(np.min(t._v, axis=ax, keepdims=keepdims)), t.dtype, current_device())


def add(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _t(x) + y


def subtract(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _t(x) - y


def multiply(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _t(x) * y


def divide(x: Any, y: Any, name: str | None = None) -> Tensor:
    return truediv(x, y)


def square(x: Any, name: str | None = None) -> Tensor:
    t = _t(x)
    return t * t


def sqrt(x: Any, name: str | None = None) -> Tensor:
    t = _t(x)
    tally.flops += t._v.size
    return Tensor(np.sqrt(t._v), t.dtype, current_device())


def exp(x: Any, name: str | None = None) -> Tensor:
    t = _t(x)
    tally.flops += t._v.size
    return Tensor(np.exp(t._v), t.dtype, current_device())


def abs_(x: Any, name: str | None = None) -> Tensor:
    return abs(_t(x))


def maximum(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _t(x)._bin(y, np.maximum, "Maximum")


def minimum(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _t(x)._bin(y, np.minimum, "Minimum")


def matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False, name: str | None = None) -> Tensor:
    """`tf.matmul`; counts 2*m*n*k FLOPs."""
    ta, tb = _t(a), _t(b)
    if tb.dtype is not ta.dtype and tb.dtype != ta.dtype:
        raise errors.InvalidArgumentError(
            None, None, f"cannot compute MatMul as input #1(zero-based) was expected to be a {ta.dtype.name} "
            f"tensor but is a {tb.dtype.name} tensor [Op:MatMul]")
    x = np.swapaxes(ta._v, -1, -2) if transpose_a else ta._v
    y = np.swapaxes(tb._v, -1, -2) if transpose_b else tb._v
    if x.ndim < 2 or y.ndim < 2:
        raise errors.InvalidArgumentError(None, None, f"In[0] and In[1] has different ndims: {list(x.shape)} vs. "
                                          f"{list(y.shape)} [Op:MatMul]")
    if x.shape[-1] != y.shape[-2]:
        raise errors.InvalidArgumentError(
            None, None, f"Matrix size-incompatible: In[0]: {list(x.shape)}, In[1]: {list(y.shape)} [Op:MatMul]")
    out = np.matmul(x, y)
    tally.flops += 2.0 * out.size * x.shape[-1]
    if _tm._REC is not None:
        return _tm._REC.matmul(Tensor(out, ta.dtype, current_device()), ta, tb, transpose_a, transpose_b)
    return Tensor(out, ta.dtype, current_device())


def transpose(a: Any, perm: Any = None, name: str | None = None) -> Tensor:
    t = _t(a)
    return Tensor(np.transpose(t._v, perm), t.dtype, current_device())


def shape(x: Any, out_type: Any = dtypes.int32, name: str | None = None) -> Tensor:
    t = _t(x)
    dt = dtypes.as_dtype(out_type)
    return _placed(np.asarray(t._v.shape, dtype=dt.np), dt)


def size(x: Any, out_type: Any = dtypes.int32, name: str | None = None) -> Tensor:
    dt = dtypes.as_dtype(out_type)
    return _placed(np.asarray(_t(x)._v.size, dtype=dt.np), dt)


def rank(x: Any, name: str | None = None) -> Tensor:
    return _placed(np.asarray(_t(x)._v.ndim, dtype=np.int32), dtypes.int32)


def equal(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _t(x)._cmp(y, np.equal, "Equal")


def gather(params: Any, indices: Any, axis: int = 0, name: str | None = None) -> Tensor:
    """`tf.gather` (row lookup); out-of-range indices raise InvalidArgumentError like TF on CPU."""
    if hasattr(params, "_gather_rows") and int(axis) == 0:
        return params._gather_rows(indices)
    p = _t(params)
    idx = np.asarray(_t(indices)._v)
    n = p._v.shape[int(axis)]
    bad = idx[(idx < 0) | (idx >= n)]
    if bad.size:
        raise errors.InvalidArgumentError(
            None, None, f"indices[{int(np.argmax((idx < 0) | (idx >= n)))}] = {int(bad.flat[0])} is not in "
            f"[0, {n}) [Op:GatherV2]")
    tally.flops += idx.size
    return Tensor(np.take(p._v, idx, axis=int(axis)), p.dtype, current_device())


def embedding_lookup(params: Any, ids: Any, max_norm: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.embedding_lookup`; a ShardedVariable reads only the shards holding the ids."""
    return gather(params, ids, axis=0)


def add_n(inputs: Sequence[Any], name: str | None = None) -> Tensor:
    ts = [_t(v) for v in inputs]
    shp = ts[0]._v.shape
    for i, t in enumerate(ts[1:], 1):
        if t._v.shape != shp:
            raise errors.InvalidArgumentError(
                None, None, "Inputs to operation AddN of type AddN must have the same size and shape.  "
                f"Input 0: {list(shp)} != input {i}: {list(t._v.shape)} [Op:AddN]")
    out = ts[0]._v.copy()
    for t in ts[1:]:
        np.add(out, t._v, out=out)
    tally.flops += out.size * (len(ts) - 1)
    return Tensor(out, ts[0].dtype, current_device())


def split(value: Any, num_or_size_splits: Any, axis: int = 0, name: str = "split") -> list[Tensor]:
    t = _t(value)
    if isinstance(num_or_size_splits, int):
        parts = np.split(t._v, num_or_size_splits, axis=axis)
    else:
        idx = np.cumsum(list(num_or_size_splits))[:-1]
        parts = np.split(t._v, idx, axis=axis)
    return [Tensor(p, t.dtype, current_device()) for p in parts]


__all__ += ["TensorShape"]
