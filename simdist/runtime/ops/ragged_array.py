"""TF 2.21's ragged dispatch of reductions and array ops (tensorflow/python/ops/ragged/
ragged_math_ops.py ragged_reduce_aggregate, ragged_dispatch.py, ragged_array_ops.py,
ragged_gather_ops.py, ragged_concat_ops.py): reductions over a ragged axis are unsorted segment
reductions of the values (axis 1: by row; axis 0 of a ragged_rank-1 tensor: by column), so an
empty row gives the reduction's identity (0, 1, the dtype's lowest/highest, NaN for a mean) and a
tape differentiates them as the segment ops; a deeper axis reduces the values. tf.concat/tf.stack,
tf.gather (ragged params by row, or ragged indices), tf.expand_dims, tf.size, tf.rank and tf.where
(three arguments) take RaggedTensors. Each `ragged_*` wraps the facade's function of that name.
Clause ops.ragged."""

from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime import ragged_partition as rp
from simdist.runtime.ops import array, math, scatter, segments
from simdist.runtime.ops.ragged_functions import _gather_rows, concat as _ragged_concat, stack as _ragged_stack
from simdist.runtime.ragged_tensor import RaggedTensor
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["ragged_reduce", "ragged_concat", "ragged_stack", "ragged_gather", "ragged_expand_dims", "ragged_size",
           "ragged_rank", "ragged_where"]

_SEGMENT = {"sum": scatter.unsorted_segment_sum, "max": segments.unsorted_segment_max,
            "min": segments.unsorted_segment_min, "prod": segments.unsorted_segment_prod}


def _ids(a: np.ndarray) -> Tensor:
    return convert_to_tensor(np.asarray(a, np.int64), dtype=dtypes.int64)


def _groups(rt: RaggedTensor, axis: int) -> tuple[np.ndarray, np.ndarray, Any]:
    """Segment ids of rt's values for reducing its axis 0 or 1 (ragged_rank 1 or 2), the result's
    row_splits (None for a dense result) and the values reduced. Ragged_rank 1: axis 1 groups each
    row, axis 0 each column. Ragged_rank 2: the inner rows are grouped (axis 1: by their outer row;
    axis 0: by their position in it) and their values aligned by column, the result a RaggedTensor
    whose row is as long as the longest inner row of its group."""
    s = rt.row_splits._v.astype(np.int64)
    lengths = s[1:] - s[:-1]
    rowids = np.repeat(np.arange(len(s) - 1), lengths)
    if not isinstance(rt.values, RaggedTensor):
        if axis == 1:
            return rowids, None, rt.values
        return np.arange(int(s[-1])) - np.repeat(s[:-1], lengths), None, rt.values
    inner = rt.values
    if isinstance(inner.values, RaggedTensor):
        raise NotImplementedError("simdist reduces axis 0 or 1 of a RaggedTensor of ragged_rank 1 or 2 only")
    s1 = inner.row_splits._v.astype(np.int64)
    len1 = s1[1:] - s1[:-1]
    group = rowids if axis == 1 else np.arange(len(rowids)) - np.repeat(s[:-1], lengths)
    n_out = len(s) - 1 if axis == 1 else (int(lengths.max()) if len(lengths) else 0)
    width = np.zeros(n_out, np.int64)
    if len(group):
        np.maximum.at(width, group, len1)
    out_splits = np.concatenate([[0], np.cumsum(width)]).astype(np.int64)
    value_row = np.repeat(np.arange(len(len1)), len1)
    col = np.arange(int(s1[-1])) - np.repeat(s1[:-1], len1)
    ids = out_splits[group[value_row]] + col if len(value_row) else np.zeros(0, np.int64)
    return ids, out_splits, inner.values


def _segment(kind: str, rt: RaggedTensor, axis: int) -> Any:
    """The kind's aggregate of rt over its axis 0 or 1 (unsorted segment reductions)."""
    ids, out_splits, values = _groups(rt, axis)
    n = int(out_splits[-1]) if out_splits is not None else (
        rt.nrows_int() if axis == 1 else int(ids.max()) + 1 if len(ids) else 0)
    if axis == 0 and out_splits is None:
        s = rt.row_splits._v
        n = int((s[1:] - s[:-1]).max()) if len(s) > 1 else 0
    if kind in ("all", "any"):
        as_int = math.cast(values, dtypes.int32)
        f = _SEGMENT["min" if kind == "all" else "max"](as_int, _ids(ids), n)
        if kind == "all":
            f = math.minimum(f, convert_to_tensor(1, dtype=dtypes.int32))
        else:
            f = math.maximum(f, convert_to_tensor(0, dtype=dtypes.int32))
        out = math.cast(f, dtypes.bool_)
    else:
        out = _SEGMENT[kind](values, _ids(ids), n)
    if out_splits is None:
        return out
    return RaggedTensor(out, rp.as_splits_tensor(out_splits, rt.row_splits_dtype), internal=True)


def _reduce_axis(kind: str, x: Any, axis: int, dense_fn: Callable[..., Any]) -> Any:
    if not isinstance(x, RaggedTensor):
        return dense_fn(x, axis=axis)
    if axis in (0, 1):
        return _segment(kind, x, axis)
    return x.with_values(_reduce_axis(kind, x.values, axis - 1, dense_fn))


def _mean(x: RaggedTensor, axis: Any, dense_fns: dict) -> Any:
    total = _reduce(x, axis, "sum", dense_fns["sum"])
    count = _reduce(x.with_flat_values(array.ones_like(x.flat_values)), axis, "sum", dense_fns["sum"])
    return total, count


def _reduce(x: RaggedTensor, axis: Any, kind: str, dense_fn: Callable[..., Any]) -> Any:
    rank = x.shape.rank
    axes = list(range(rank)) if axis is None else [axis] if isinstance(axis, (int, np.integer)) else list(
        axis._v.reshape(-1).tolist() if isinstance(axis, Tensor) else axis)
    norm = []
    for a in axes:
        if not -rank <= int(a) < rank:
            raise ValueError(f"axis={int(a)} out of bounds: expected {-rank}<=axis<{rank}")
        norm.append(int(a) + rank if int(a) < 0 else int(a))
    if axis is None:
        flat = x.flat_values
        return dense_fn(flat) if kind not in ("all", "any") else dense_fn(flat)
    out: Any = x
    for a in sorted(set(norm), reverse=True):
        out = _reduce_axis(kind, out, a, dense_fn)
    return out


def _logsumexp(x: RaggedTensor, axis: Any, fns: dict) -> Any:
    """math_ops.reduce_logsumexp's composition on a ragged input (axis None or its innermost ragged
    axis of a ragged_rank-1 tensor): log(sum(exp(x - max))) + max, the max 0 where not finite."""
    from simdist.runtime import ops as _ops
    rank = x.shape.rank
    axes = None if axis is None else sorted({int(a) + rank if int(a) < 0 else int(a) for a in (
        [axis] if isinstance(axis, (int, np.integer)) else list(axis))})
    if axes is not None and axes == list(range(rank)):
        axes = axis = None
    if axes is not None and (x.ragged_rank != 1 or axes not in ([0], [1])):
        # (TF's composition reshapes the max to the result's shape: a ragged one does not convert)
        raise ValueError("TypeError: object of type 'RaggedTensor' has no len()\n")
    raw = _reduce(x, axis, "max", fns["max"])
    m = _ops.stop_gradient(_ops.where(_ops.is_finite(raw), raw, _ops.zeros_like(raw)))
    if axis is None:
        per_value = m
    elif axes == [0]:
        # (the max kept as [1, columns] and broadcast onto the rows: TF's broadcasting rules apply)
        from simdist.runtime.ops.ragged_dispatch import broadcast_dense
        per_value = broadcast_dense(x, array.expand_dims(m, 0))
    else:
        s = x.row_splits._v.astype(np.int64)
        per_value = array.gather(m, _ids(np.repeat(np.arange(len(s) - 1), s[1:] - s[:-1])))
    shifted = x.with_flat_values(_ops.exp(math.subtract(x.flat_values, per_value)))
    return math.add(_ops.log(_reduce(shifted, axis, "sum", fns["sum"])), m)


def _flat2(f: Callable[[Any, Any], Any], a: Any, b: Any) -> Any:
    """f of two results of one structure (dense, or ragged with the same partitions)."""
    if isinstance(a, RaggedTensor):
        return a.with_flat_values(f(a.flat_values, b.flat_values))
    return f(a, b)


def ragged_reduce(fn: Callable[..., Any], kind: str, dense_fns: dict | None = None) -> Callable[..., Any]:
    """The facade's reduce_<kind> taking a RaggedTensor `input_tensor` (ragged_reduce_aggregate):
    kind sum, prod, max, min, all, any, mean (sum / count; integers as float64), variance
    (E[x^2] - E[x]^2), std (its square root) or logsumexp (math_ops' composition)."""
    fns = dense_fns or {}

    @functools.wraps(fn)
    def wrapped(input_tensor: Any = None, axis: Any = None, keepdims: Any = False, name: Any = None,
                *args: Any, **kwargs: Any) -> Any:
        x = input_tensor
        if not isinstance(x, RaggedTensor):
            return fn(input_tensor, axis, keepdims, name, *args, **kwargs)
        if kind == "logsumexp":
            out = _logsumexp(x, axis, fns)
        elif kind in ("mean", "variance", "std"):
            # (TF sums first: ragged_math_ops.reduce_mean's reduce_sum refuses a string or bool ragged tensor,
            # UnsortedSegmentSum's attr T, before any division; integers divide as float64; fz45b, seed 44010)
            v = x.with_flat_values(math.cast(x.flat_values, dtypes.float64)) if x.dtype.is_integer else x
            total, count = _mean(v, axis, fns)
            mean = math.divide(total, count) if not isinstance(total, RaggedTensor) else total.with_flat_values(
                math.divide(total.flat_values, count.flat_values))
            if kind != "mean":
                sq_total, _ = _mean(v.with_flat_values(math.multiply(v.flat_values, v.flat_values)), axis, fns)
                mean = _flat2(lambda a, b: math.subtract(a, math.multiply(b, b)), _flat2(math.divide, sq_total, count),
                              mean)
                if kind == "std":
                    from simdist.runtime.ops import sqrt
                    mean = mean.with_flat_values(sqrt(mean.flat_values)) if isinstance(mean, RaggedTensor) \
                        else sqrt(mean)
            out = mean
        else:
            out = _reduce(x, axis, kind, fns.get(kind, fn))
        if keepdims and axis is None:
            # (ragged_reduce_aggregate reduces the flat values with keepdims, then expands the result once for each
            # of the input's dimensions past the first: rank flat_values.rank + rank - 1; fz55b)
            # (logsumexp: math_ops' composition subtracts the kept max, of that rank R1, from the input, whose
            # broadcast has rank R1 and the flat values' rank F, so its kept sum has rank F + R1 - 1)
            f_rank, rank = x.flat_values.shape.rank, x.shape.rank
            kept = f_rank + rank - 1
            out = array.reshape(out, [1] * (f_rank + kept - 1 if kind == "logsumexp" else kept))
        if keepdims and axis is not None and not isinstance(out, RaggedTensor):
            for a in sorted([axis] if isinstance(axis, int) else list(axis)):
                out = array.expand_dims(out, a if a >= 0 else a + x.shape.rank)
        ax0 = axis if isinstance(axis, int) and not isinstance(axis, bool) else None
        if ax0 is not None and ax0 in (0, -x.shape.rank):
            # (over the outer ragged dimension: unsorted segment reductions of num_segments = the longest row's
            # length, which the graph knows only for row splits it knows; TF 2.21 observed: [None] of an argument,
            # [3] of a constant, [1, None] with keepdims; fz55b_gen seed 55202 #36, 56201 #24)
            from simdist.runtime.ops import composite_shapes, graph_constants, static_shapes
            if composite_shapes.in_trace() and graph_constants.level(x.row_splits) == graph_constants.VARYING:
                if isinstance(out, RaggedTensor):
                    composite_shapes.value_sized(out, outer=True)
                elif isinstance(out, Tensor) and out.ndim:
                    static_shapes.also_unknown(out, 1 if keepdims else 0)
        elif ax0 is not None and isinstance(out, Tensor) and out.ndim:
            # (over an inner dimension: the result's rows are the input's, unknown where its outer splits' length is
            # (after RaggedGather); fz55b_gen seed 56205 #125)
            from simdist.runtime.ops import composite_shapes, static_shapes
            if composite_shapes.in_trace() and static_shapes.known_dim(x.row_splits, 0) is None:
                static_shapes.also_unknown(out, 0)
        return out
    return wrapped


def ragged_concat(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.concat with a RaggedTensor among `values`: ragged_concat_ops.concat."""
    @functools.wraps(fn)
    def wrapped(values: Any, axis: Any, name: str = "concat") -> Any:
        if isinstance(values, (list, tuple)) and any(isinstance(v, RaggedTensor) for v in values):
            return _ragged_concat(list(values), int(axis))
        return fn(values, axis, name)
    return wrapped


def ragged_stack(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.stack with a RaggedTensor among `values`: tf.ragged.stack."""
    @functools.wraps(fn)
    def wrapped(values: Any, axis: int = 0, name: str = "stack") -> Any:
        if isinstance(values, (list, tuple)) and any(isinstance(v, RaggedTensor) for v in values):
            return _ragged_stack(list(values), int(axis))
        return fn(values, axis, name)
    return wrapped


def ragged_gather(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.gather of ragged params (rows, axis 0; InvalidArgumentError for an index out of range) or
    of dense params at ragged indices (the indices' partitions kept)."""
    @functools.wraps(fn)
    def wrapped(params: Any, indices: Any, validate_indices: Any = None, axis: Any = None, batch_dims: int = 0,
                name: Any = None) -> Any:
        if isinstance(indices, RaggedTensor) and not isinstance(params, RaggedTensor):
            return indices.with_flat_values(fn(params, indices.flat_values, validate_indices, axis, batch_dims, name))
        if not isinstance(params, RaggedTensor):
            return fn(params, indices, validate_indices, axis, batch_dims, name)
        if batch_dims:
            out = _batch_gather(fn, params, indices, axis, int(batch_dims))
            if out is not None:
                return out
        if axis not in (None, 0) or batch_dims:
            raise NotImplementedError("simdist gathers the rows (axis 0) of a RaggedTensor only, and with "
                                      "batch_dims=1 a ragged_rank-1 RaggedTensor's values at 2-D indices")
        idx = indices if isinstance(indices, Tensor) else convert_to_tensor(indices)
        if idx.dtype not in (dtypes.int32, dtypes.int64):
            # (ragged_gather_ops converts the indices without a dtype, so `[]` is float32, and RaggedGather's attr
            # Tindices refuses it: InvalidArgumentError eagerly, op_def_library's TypeError traced; fz55b)
            from simdist.runtime.ops import trace_errors
            raise trace_errors.attr_not_allowed("RaggedGather", "Tindices", idx.dtype, "int32, int64")
        n = params.nrows_int()
        bad = [int(i) for i in idx._v.reshape(-1) if not 0 <= int(i) < n]
        if bad:
            from simdist.runtime import errors
            k = int(np.nonzero(~((idx._v.reshape(-1) >= 0) & (idx._v.reshape(-1) < n)))[0][0])
            raise errors.InvalidArgumentError(None, None, f"indices[{k}] = {bad[0]} is not in [0, {n}) "
                                              "[Op:RaggedGather]")
        if idx.shape.rank == 0:
            raise NotImplementedError("simdist gathers a RaggedTensor's rows with 1-D or higher indices only")
        flat = array.reshape(idx, [-1]) if idx.shape.rank > 1 else idx
        out = _gather_rows(params, math.cast(flat, dtypes.int64) if flat.dtype != dtypes.int64 else flat)
        # (indices of rank k > 1: RaggedGather's OUTPUT_RAGGED_RANK is k + ragged_rank - 1, the rows grouped by the
        # indices' dimensions, uniform partitions; ragged_gather_ops._gather; fz55b)
        from simdist.runtime.ops import composite_shapes   # (RaggedGather: every output [?] at trace)
        composite_shapes.value_sized(out, outer=True)
        for d in reversed(idx.shape.as_list()[1:]):
            out = RaggedTensor.from_uniform_row_length(out, int(d))
        return out
    return wrapped


def _batch_gather(fn: Callable[..., Any], params: RaggedTensor, indices: Any, axis: Any, batch_dims: int) -> Any:
    """ragged_gather_ops' batch gather of a ragged_rank-1 params at 2-D indices (batch_dims 1, or -1 of them, axis
    the batch dimension): each index offset by its row's start in params.values (row_starts gathered at the
    indices' value_rowids), then one GatherV2 of params.values, so an index past its own row reads the next row's
    values and only the total is checked (GatherV2's InvalidArgumentError); ragged indices keep their row
    partition, dense [B, k] indices give a dense [B, k] result. Observed on TF 2.21 (fz49b, fz49b_gen 49002 #32).
    None for the other forms (not modelled)."""
    idx = indices if isinstance(indices, RaggedTensor) else convert_to_tensor(indices)
    irank = idx.shape.rank
    bd = batch_dims + irank if batch_dims < 0 else batch_dims
    ax = bd if axis is None else int(axis) + (params.shape.rank if int(axis) < 0 else 0)
    if bd != 1 or ax != 1 or params.ragged_rank != 1 or irank != 2:
        return None
    dense = not isinstance(idx, RaggedTensor)
    rt = RaggedTensor.from_tensor(idx) if dense else idx
    if rt.ragged_rank != 1:
        return None
    flat = rt.values if rt.values.dtype == dtypes.int64 else math.cast(rt.values, dtypes.int64)
    starts = fn(params.row_starts(), rt.value_rowids(), None, 0, 0, None)
    got = fn(params.values, math.add(flat, math.cast(starts, dtypes.int64)), None, 0, 0, None)
    if dense:
        return array.reshape(got, idx.shape.as_list() + got.shape.as_list()[1:])
    return rt.with_values(got)


def ragged_expand_dims(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.expand_dims of a RaggedTensor (ragged_array_ops.expand_dims): axis 0 one row of all,
    axis 1 each row its own row, deeper the values' own axis."""
    @functools.wraps(fn)
    def wrapped(input: Any, axis: Any, name: Any = None) -> Any:  # noqa: A002
        if not isinstance(input, RaggedTensor):
            return fn(input, axis, name)
        rank = input.shape.rank
        ax = int(axis)
        if not -(rank + 1) <= ax <= rank:
            raise ValueError(f"axis={ax} out of bounds: expected {-(rank + 1)}<=axis<{rank + 1}")
        ax = ax + rank + 1 if ax < 0 else ax
        rsd = input.row_splits_dtype
        n = input.nrows_int()
        if ax == 0:
            return RaggedTensor(input, rp.as_splits_tensor(np.array([0, n]), rsd), internal=True, uniform=n)
        if ax == 1:
            return RaggedTensor(input, rp.as_splits_tensor(np.arange(n + 1), rsd), internal=True, uniform=1)
        return input.with_values(wrapped(input.values, ax - 1))
    return wrapped


def ragged_size(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.size of a RaggedTensor: the number of its flat values' items."""
    @functools.wraps(fn)
    def wrapped(input: Any, out_type: Any = dtypes.int32, name: Any = None) -> Any:  # noqa: A002
        if isinstance(input, RaggedTensor):
            return fn(input.flat_values, out_type=out_type)
        return fn(input, out_type=out_type, name=name)
    return wrapped


def ragged_rank(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.rank of a RaggedTensor: its static rank, int32."""
    @functools.wraps(fn)
    def wrapped(input: Any, name: Any = None) -> Any:  # noqa: A002
        if isinstance(input, RaggedTensor):
            return convert_to_tensor(input.shape.rank, dtype=dtypes.int32)
        return fn(input, name)
    return wrapped


def ragged_where(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.where(condition, x, y) with RaggedTensors of one partition: elementwise on flat values."""
    @functools.wraps(fn)
    def wrapped(condition: Any, x: Any = None, y: Any = None, name: Any = None) -> Any:
        if not any(isinstance(v, RaggedTensor) for v in (condition, x, y)) or x is None or y is None:
            return fn(condition, x, y, name)
        from simdist.runtime.ops.ragged_dispatch import _match
        rt = next(v for v in (condition, x, y) if isinstance(v, RaggedTensor))
        parts = [_match(rt, v)[1] if isinstance(v, RaggedTensor) else v for v in (condition, x, y)]
        return rt.with_flat_values(fn(*parts))
    return wrapped


_REDUCE = {"reduce_sum": "sum", "reduce_prod": "prod", "reduce_max": "max", "reduce_min": "min",
           "reduce_all": "all", "reduce_any": "any", "reduce_mean": "mean", "reduce_variance": "variance",
           "reduce_std": "std", "reduce_logsumexp": "logsumexp"}
_ARRAY = {"concat": ragged_concat, "stack": ragged_stack, "gather": ragged_gather, "expand_dims": ragged_expand_dims,
          "size": ragged_size, "rank": ragged_rank, "where": ragged_where}


def install(namespace: dict) -> None:
    """Wrap a facade namespace's reductions and array ops for RaggedTensor arguments."""
    dense = {kind: namespace[name] for name, kind in _REDUCE.items() if name in namespace}
    if "sum" not in dense:
        from simdist.runtime.ops import reductions
        dense["sum"] = reductions.reduce_sum
    for name, kind in _REDUCE.items():
        if name in namespace:
            namespace[name] = ragged_reduce(namespace[name], kind, dense)
    for name, wrap in _ARRAY.items():
        if name in namespace:
            namespace[name] = wrap(namespace[name])
