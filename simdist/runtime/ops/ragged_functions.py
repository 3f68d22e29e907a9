"""tf.ragged's functions beyond constant and map_flat_values, as TF 2.21's Python composes them
(tensorflow/python/ops/ragged/: ragged_math_ops.range over the RaggedRange kernel, segment_id_ops'
row_splits_to_segment_ids / segment_ids_to_row_splits, ragged_concat_ops.stack,
ragged_array_ops.boolean_mask / stack_dynamic_partitions / cross / cross_hashed). Values move
through simdist ops (gather, concat), so a tape sees them; row partitions are computed as the
integer shape arithmetic they are (simdist/runtime/ragged_partition.py). Clause ops.ragged."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime import ragged_partition as rp
from simdist.runtime.ops import array, math
from simdist.runtime.ops.args import tf_name
from simdist.runtime.ops.sparse_cross import DEFAULT_HASH_KEY, _feature_hash, _text, fingerprint_cat64
from simdist.runtime.ragged_tensor import RaggedTensor
from simdist.runtime.sparse_tensor import SparseTensor
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["range_", "row_splits_to_segment_ids", "segment_ids_to_row_splits", "stack", "concat", "boolean_mask",
           "stack_dynamic_partitions", "cross", "cross_hashed", "to_ragged"]

_RANGE_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64)


def _c_name(dt: dtypes.DType) -> str:
    """DataTypeString (the kernels' messages: float, double, half)."""
    return {"float16": "half"}.get(dt.name, tf_name(dt))


def _t(x: Any, dtype: Any = None) -> Tensor:
    return x if isinstance(x, Tensor) and dtype is None else convert_to_tensor(x, dtype=dtype)


def ragged_range_shapes(shapes: list, attrs: Any) -> str | None:
    """RaggedRange's shape function (ragged_math_ops.cc): each input of rank at most 1, the vectors'
    lengths merged, each into the ones before it (Merge(its dim, dim): the later length is named first, "but are 3
    and 2" for starts [2] and limits [3]; TF 2.21 observed, fz45b)."""
    for s in shapes:
        if s is not None and len(s) > 1:
            return f"Shape must be at most rank 1 but is rank {len(s)}"
    dim = None
    for s in shapes:
        if s is not None and len(s) == 1 and s[0] is not None:
            if dim is not None and s[0] != dim:
                return f"Dimensions must be equal, but are {s[0]} and {dim}"
            dim = s[0]
    return None


def range_(starts: Any, limits: Any = None, deltas: Any = 1, dtype: Any = None, name: str | None = None,
           row_splits_dtype: Any = dtypes.int64) -> RaggedTensor:
    """`tf.ragged.range`: row i is range(starts[i], limits[i], deltas[i]) (scalars broadcast; the
    dtype the widest of int32 < int64 < float32 < float64 among the three unless given)."""
    rsd = dtypes.as_dtype(row_splits_dtype)
    if limits is None:
        starts, limits = 0, starts
    s, lim, d = _t(starts, dtype), _t(limits, dtype), _t(deltas, dtype)
    if dtype is None:
        # (ragged_math_ops._infer_matching_dtype asserts every dtype is in its hierarchy: a bool, uint8 or int16
        # argument is AssertionError; TF 2.21 observed, fz44b, fz44_gen seeds 44001-44003)
        assert all(x.dtype in _RANGE_DTYPES for x in (s, lim, d))  # noqa: S101 - TF's own assert
        want = max((x.dtype for x in (s, lim, d)), key=_RANGE_DTYPES.index)
        s, lim, d = (x if x.dtype == want else math.cast(x, want) for x in (s, lim, d))
    from simdist.runtime.ops import shape_checks, static_shapes
    # (traced: the shape function first, its ranks and then the vectors' lengths merged: "Dimensions must be equal,
    # but are 3 and 2" ValueError at trace where the kernel's "must have the same shape" is eager's; fz45b, seed 44006)
    shape_checks.check("RaggedRange", ragged_range_shapes, [static_shapes.known_shape(x) for x in (s, lim, d)])
    for nm, x in (("starts", s), ("limits", lim), ("deltas", d)):
        if x.shape.rank > 1:   # (the shape function's WithRankAtMost(1) in a graph, ValueError at trace)
            from simdist.runtime.ops import trace_errors
            raise trace_errors.mark_shape(
                errors.InvalidArgumentError(None, None, f"{nm} must be a scalar or vector [Op:RaggedRange]"),
                f"Shape must be at most rank 1 but is rank {x.shape.rank}", "RaggedRange",
                [x.shape.as_list() for x in (s, lim, d)])
    sv, lv, dv = s._v, lim._v, d._v
    sizes = [x.shape[0] for x in (sv, lv, dv) if x.ndim == 1]
    if sizes and any(n != sizes[0] for n in sizes):
        raise errors.InvalidArgumentError(None, None, "starts, limits, and deltas must have the same shape "
                                          "[Op:RaggedRange]")
    n = sizes[0] if sizes else 1
    sv, lv, dv = (np.broadcast_to(x, (n,)) for x in (sv, lv, dv))
    if (dv == 0).any():
        raise errors.InvalidArgumentError(None, None, "Requires delta != 0 [Op:RaggedRange]")
    rows = []
    sizes: list[int] = []
    npd = s._v.dtype
    for a, b, c in zip(sv, lv, dv):
        # (ragged_range_op.cc: a float row's size is ceil(|(limit - start) / delta|) in T, an integer row's
        # divup(|limit - start|, |delta|); its values start at `start` and add delta one at a time, in T:
        # float32 range(0, 3, 0.1) ends 2.8999994, not 2.9)
        if (c > 0 and b < a) or (c < 0 and b > a):
            size = 0
        elif npd.kind == "f":
            with np.errstate(all="ignore"):
                size_f = np.ceil(np.abs((b - a) / c))
            if not size_f <= float(2 ** 63 - 1):   # (an infinite or NaN size: the kernel's check)
                raise errors.InvalidArgumentError(None, None, f"Requires ((limit - start) / delta) <= {2 ** 63 - 1} "
                                                  "[Op:RaggedRange]")
            size = int(size_f)
        else:
            size = (abs(int(b) - int(a)) + abs(int(c)) - 1) // abs(int(c))
            if size > 2 ** 63 - 1:   # (TF 2.21: int64 range(-2**63 + 1, 2**63 - 1) is refused so; fz47b)
                raise errors.InvalidArgumentError(None, None, f"Requires ((limit - start) / delta) <= {2 ** 63 - 1} "
                                                  "[Op:RaggedRange]")
        sizes.append(size)
    # (the kernel allocates the values [nvals] before filling them: more than the allocator gives is
    # ResourceExhaustedError, "OOM when allocating tensor with shape[9223372036854775805] and type int64" for
    # ragged.range(2, [2**63 - 1, -1]) in TF 2.21, where NumPy's ValueError had leaked; fz47b, fz44_gen seed 44011)
    from simdist.runtime.ops import alloc
    alloc.check_output("RaggedRange", [sum(sizes)], s.dtype)
    for a, c, size in zip(sv, dv, sizes):
        steps = np.full(size, c, dtype=npd)
        if size:
            steps[0] = a
        with np.errstate(all="ignore"):
            rows.append(np.add.accumulate(steps, dtype=npd))
    values = np.concatenate(rows) if rows else np.zeros(0, s._v.dtype)
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])])
    from simdist.runtime.ops import composite_shapes   # (RaggedRange's values [?] at trace)
    return composite_shapes.value_sized(RaggedTensor(convert_to_tensor(values, dtype=s.dtype),
                                                     rp.as_splits_tensor(splits, rsd), internal=True))


def row_splits_to_segment_ids(splits: Any, name: str | None = None, out_type: Any = None) -> Tensor:
    """`tf.ragged.row_splits_to_segment_ids`: the row of each value (splits' dtype unless out_type)."""
    sp = rp.convert(splits, "splits") if not isinstance(splits, Tensor) else splits
    if sp.dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("splits must have dtype int32 or int64")
    if sp.shape.rank != 1:
        raise ValueError(f"Shape {sp.shape} must have rank 1")
    dt = dtypes.as_dtype(out_type) if out_type is not None else sp.dtype
    s = sp._v
    out = convert_to_tensor(np.repeat(np.arange(len(s) - 1), s[1:] - s[:-1]).astype(dt.as_numpy_dtype), dtype=dt)
    from simdist.runtime.ops import composite_shapes, static_shapes
    if composite_shapes.in_trace():   # (ragged_util.repeat's result: [?] in a trace, of a constant too; TF 2.21)
        static_shapes.mark(composite_shapes.computed(out, sp), (True,))
    return out


def segment_ids_to_row_splits(segment_ids: Any, num_segments: Any = None, out_type: Any = None,
                              name: str | None = None) -> Tensor:
    """`tf.ragged.segment_ids_to_row_splits`: the splits of sorted segment ids (num_segments rows,
    by default the last id + 1; segment_ids' dtype unless out_type)."""
    ids = rp.convert(segment_ids, "segment_ids") if not isinstance(segment_ids, Tensor) else segment_ids
    if ids.dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("segment_ids must have dtype int32 or int64")
    if ids.shape.rank != 1:
        raise ValueError(f"Shape {ids.shape} must have rank 1")
    dt = dtypes.as_dtype(out_type) if out_type is not None else ids.dtype
    v = ids._v.astype(np.int64)
    n = int(num_segments._v if isinstance(num_segments, Tensor) else num_segments) if num_segments is not None \
        else (int(v.max()) + 1 if v.size else 0)
    counts = np.bincount(v, minlength=n)[:n] if v.size else np.zeros(n, np.int64)
    out = rp.as_splits_tensor(np.concatenate([[0], np.cumsum(counts)]), dt)
    from simdist.runtime.ops import composite_shapes, graph_constants, static_shapes
    if composite_shapes.in_trace():
        # (segment_id_ops: bincount of minlength = maxlength = num_segments (max(ids) + 1 without it), whose shape
        # function knows the size only where the graph does: [?] for ids or a num_segments it takes as an input)
        size_from = ids if num_segments is None else num_segments
        composite_shapes.computed(out, ids, *([num_segments] if isinstance(num_segments, Tensor) else []))
        if isinstance(size_from, Tensor) and graph_constants.level(size_from) == graph_constants.VARYING:
            static_shapes.mark(out, (True,))
    return out


def to_ragged(x: Any, ragged_rank: int = 1, row_splits_dtype: Any = dtypes.int64) -> RaggedTensor:
    """A dense tensor as a RaggedTensor of uniform rows (ragged_tensor.convert_to_tensor_or_ragged
    then from_tensor, as ragged ops take their dense arguments)."""
    if isinstance(x, RaggedTensor):
        return x
    return RaggedTensor.from_tensor(_t(x), ragged_rank=ragged_rank, row_splits_dtype=row_splits_dtype)


def match_row_splits_dtypes(tensors: list) -> tuple[Any, list]:
    """ragged_tensor.match_row_splits_dtypes: the row_splits dtype the ragged ones share (int64 when
    none is ragged); mixing int32 and int64 is TF's ValueError."""
    kinds = {t.row_splits_dtype for t in tensors if isinstance(t, RaggedTensor)}
    if len(kinds) > 1:
        raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")
    return (kinds.pop() if kinds else dtypes.int64), tensors


def _interleave(pieces: list[Any], axis: int) -> Any:
    """concat of ragged pieces (same ragged rank, same nrows) along `axis` (0, or 1 row by row)."""
    if axis == 0:
        values = [p.values for p in pieces]
        if isinstance(values[0], RaggedTensor):
            inner = _interleave(values, 0)
        else:
            inner = array.concat(values, 0)
        splits, off = [np.zeros(1, np.int64)], 0
        for p in pieces:
            s = p.row_splits._v.astype(np.int64)
            splits.append(s[1:] + off)
            off += int(s[-1])
        return RaggedTensor(inner, rp.as_splits_tensor(np.concatenate(splits), pieces[0].row_splits_dtype),
                            internal=True)
    # axis 1: row i of the result is row i of each piece in turn: gather the values in that order
    n = pieces[0].nrows_int()
    nvals = [int(p.row_splits._v[-1]) for p in pieces]
    offsets = np.concatenate([[0], np.cumsum(nvals)])
    order, lengths = [], []
    for i in range(n):
        total = 0
        for k, p in enumerate(pieces):
            a, b = int(p.row_splits._v[i]), int(p.row_splits._v[i + 1])
            order.extend(range(offsets[k] + a, offsets[k] + b))
            total += b - a
        lengths.append(total)
    stacked = _interleave([RaggedTensor(p.values, rp.as_splits_tensor(np.array([0, nv]), p.row_splits_dtype),
                                        internal=True) for p, nv in zip(pieces, nvals)], 0).values
    idx = convert_to_tensor(np.asarray(order, np.int64), dtype=dtypes.int64)
    values = _gather_rows(stacked, idx)
    return RaggedTensor(values, rp.as_splits_tensor(np.concatenate([[0], np.cumsum(lengths)]),
                                                    pieces[0].row_splits_dtype), internal=True)


def _gather_rows(values: Any, idx: Tensor) -> Any:
    """values' rows at idx (a RaggedTensor's rows keep their own rows)."""
    if not isinstance(values, RaggedTensor):
        return array.gather(values, idx)
    s = values.row_splits._v
    ix = idx._v
    lengths = s[1:][ix] - s[:-1][ix]
    inner = np.concatenate([np.arange(s[i], s[i + 1]) for i in ix]) if len(ix) else np.zeros(0, np.int64)
    return RaggedTensor(_gather_rows(values.values, convert_to_tensor(inner.astype(np.int64), dtype=dtypes.int64)),
                        rp.as_splits_tensor(np.concatenate([[0], np.cumsum(lengths)]), values.row_splits_dtype),
                        internal=True)


def _prepare(values: Any, axis: int, stack_values: bool) -> tuple[list, int, Any]:
    if not isinstance(values, (list, tuple)):
        values = [values]
    if not values:
        raise ValueError("rt_inputs may not be empty.")
    items = [v if isinstance(v, (RaggedTensor, Tensor)) else _t(v) for v in values]
    rsd, _ = match_row_splits_dtypes(items)
    ranks = [v.shape.rank for v in items]
    rank = ranks[0]
    if any(r != rank for r in ranks):
        raise ValueError("rt_inputs must all have the same rank")
    out_rank = rank + 1 if stack_values else rank
    if not isinstance(axis, int):
        raise TypeError(f"axis must be an int, got {axis!r}")
    if not -out_rank <= axis < out_rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-out_rank}<=axis<{out_rank}")
    ax = axis + out_rank if axis < 0 else axis
    dts = [v.dtype for v in items]
    for k, dt in enumerate(dts[1:], 1):
        if dt != dts[0]:
            raise errors.InvalidArgumentError(None, None, f"cannot compute ConcatV2 as input #{k}(zero-based) was "
                                              f"expected to be a {_c_name(dts[0])} tensor but is a {_c_name(dt)} "
                                              "tensor "
                                              "[Op:ConcatV2] name: concat")
    return items, ax, rsd


def _concat(items: list, ax: int, stack_values: bool, rsd: Any) -> Any:
    """ragged_concat_ops._ragged_stack_concat_helper: the inputs (one rank) joined along ax."""
    ndims = items[0].shape.rank
    out_ndims = ndims + 1 if stack_values else ndims
    if stack_values and ndims == 1 and ax == 0:
        lengths = array.concat([array.shape(r) for r in items], 0)
        return RaggedTensor.from_row_lengths(array.concat(items, 0), lengths)
    if all(not isinstance(v, RaggedTensor) for v in items) and ax in (out_ndims - 1, ndims - 1):
        return array.stack(items, ax) if stack_values else array.concat(items, ax)
    rts = [to_ragged(v, row_splits_dtype=rsd) for v in items]
    if ax == 0:
        if stack_values:
            rts = [RaggedTensor(r, rp.as_splits_tensor(np.array([0, r.nrows_int()]), rsd), internal=True)
                   for r in rts]
            return _interleave(rts, 0)
        return _interleave(rts, 0)
    if ax == 1:
        n = rts[0].nrows_int()
        if any(r.nrows_int() != n for r in rts):
            raise errors.InvalidArgumentError(None, None, "Input tensors have incompatible shapes.")
        if stack_values:
            # each row becomes a row of k rows: the pieces' rows as values, interleaved
            order = np.arange(n * len(rts)).reshape(len(rts), n).T.reshape(-1)
            inner = _gather_rows(_interleave(rts, 0), convert_to_tensor(order.astype(np.int64), dtype=dtypes.int64))
            return RaggedTensor(inner, rp.as_splits_tensor(np.arange(n + 1) * len(rts), rsd), internal=True)
        return _interleave(rts, 1)
    splits = [r.row_splits._v for r in rts]
    for s in splits[1:]:
        if s.shape != splits[0].shape or not np.array_equal(s, splits[0]):
            raise rp.splits_mismatch(splits[0], s, "Inputs must have identical ragged splits\n")
    inner = _concat([r.values for r in rts], ax - 1, stack_values, rsd)
    return RaggedTensor(inner, rts[0].row_splits, internal=True)




def stack(values: Any, axis: int = 0, name: str | None = None) -> Any:
    """`tf.ragged.stack`: the inputs (ragged or dense, same rank) stacked along a new axis."""
    items, ax, rsd = _prepare(values, axis, True)
    if len(items) == 1 and not isinstance(items[0], RaggedTensor) and items[0].shape.rank == 0:
        return array.expand_dims(items[0], 0)
    return _concat(items, ax, True, rsd)


def concat(values: Any, axis: int, name: str | None = None) -> Any:
    """`tf.concat` of ragged inputs (ragged_concat_ops.concat): along axis, rows joined row by row
    for axis 1, identical row partitions needed beyond."""
    items, ax, rsd = _prepare(values, axis, False)
    if len(items) == 1:
        return items[0]
    return _concat(items, ax, False, rsd)


def boolean_mask(data: Any, mask: Any, name: str | None = None) -> Any:
    """`tf.ragged.boolean_mask`: the items of data where mask is True, keeping the dimensions mask
    covers (a ragged result when mask has rank > 1)."""
    if not isinstance(mask, (Tensor, RaggedTensor)):
        try:
            mask = convert_to_tensor(mask, dtype=dtypes.bool_)
        except (TypeError, ValueError):
            raise TypeError(f"Cannot convert {mask!r} to EagerTensor of dtype bool") from None
    if mask.dtype != dtypes.bool_:
        raise ValueError("mask.dtype must be bool")
    if not isinstance(data, (Tensor, RaggedTensor)):
        data = _t(data)
    if mask.shape.rank == 0:
        raise ValueError("mask cannot be scalar.")
    if isinstance(mask, RaggedTensor) and isinstance(data, RaggedTensor):
        if data.ragged_rank < mask.ragged_rank:
            raise ValueError("The ragged_rank of mask must not exceed that of data")
        if [s._v.tolist() for s in data.nested_row_splits[:mask.ragged_rank]] != \
                [s._v.tolist() for s in mask.nested_row_splits]:
            raise errors.InvalidArgumentError(None, None, "Condition x == y did not hold.")
    if mask.shape.rank == 1:
        if not isinstance(data, RaggedTensor) and data.shape.rank == 0:
            # (mask.shape's compatibility with data.shape[:1], () for a scalar: ValueError; TF 2.21 observed, fz44b,
            # fz44_gen seeds 44002, 44003)
            raise ValueError(f"Shapes {data.shape[:1]} and {mask.shape} are incompatible")
        n = data.nrows_int() if isinstance(data, RaggedTensor) else data.shape[0]
        if n is not None and mask.shape[0] != n:
            raise ValueError(f"Shapes {data.shape[:1]} and {mask.shape} are incompatible")
        keep = np.nonzero(mask._v)[0].astype(np.int64)
        from simdist.runtime.ops import composite_shapes   # (a value-sized selection: [?] at trace)
        if isinstance(data, RaggedTensor):
            return composite_shapes.value_sized(_gather_rows(data, convert_to_tensor(keep, dtype=dtypes.int64)),
                                                outer=True)
        return composite_shapes.value_sized(array.gather(data, convert_to_tensor(keep, dtype=dtypes.int64)))
    # rank >= 2: per row, recursively
    rsd = mask.row_splits_dtype if isinstance(mask, RaggedTensor) else \
        (data.row_splits_dtype if isinstance(data, RaggedTensor) else dtypes.int64)
    rdata = data if isinstance(data, RaggedTensor) else to_ragged(data, row_splits_dtype=rsd)
    rmask = mask if isinstance(mask, RaggedTensor) else to_ragged(mask, row_splits_dtype=rsd)
    if not isinstance(data, RaggedTensor) and not isinstance(mask, RaggedTensor):
        if data.shape.as_list()[:mask.shape.rank] != mask.shape.as_list():
            raise ValueError(f"Shapes {data.shape[:mask.shape.rank]} and {mask.shape} are incompatible")
    inner = boolean_mask(rdata.values, rmask.values)
    m = rmask.values
    mv = m.flat_values._v if isinstance(m, RaggedTensor) else m._v
    s = rmask.row_splits._v
    if isinstance(m, RaggedTensor):
        counts = s[1:] - s[:-1]
    else:
        kept = mv.reshape(len(mv), -1).all(axis=1) if mv.ndim > 1 else mv
        counts = np.array([int(kept[a:b].sum()) for a, b in zip(s[:-1], s[1:])], np.int64)
    return RaggedTensor(inner, rp.as_splits_tensor(np.concatenate([[0], np.cumsum(counts)]), rsd), internal=True)


def stack_dynamic_partitions(data: Any, partitions: Any, num_partitions: int, name: str | None = None) -> Any:
    """`tf.ragged.stack_dynamic_partitions`: row p holds data's slices whose partition is p, in row-major order, as TF
    2.21's ragged_array_ops builds it (fz62, fourth generator seeds 62401 #2, 62403): partitions converted preferring
    a ragged data's row-splits dtype, its shape compatible with data's leading dimensions (ValueError "Shapes ... are
    incompatible"), a scalar partition the whole data in its row, a vector sorted stably, and a higher rank taken
    apart into ragged rows first (data and partitions `from_tensor` with the partitions' dtype as their row-splits
    dtype: a float one is Shape's out_type error) and stacked by its values."""
    if not isinstance(data, RaggedTensor):
        data = _t(data)
    splits_dtype = data.row_splits.dtype if isinstance(data, RaggedTensor) else None
    if not isinstance(partitions, RaggedTensor):
        partitions = _t(partitions) if isinstance(partitions, Tensor) or splits_dtype is None else \
            _preferred(partitions, splits_dtype)
    n = num_partitions if isinstance(num_partitions, Tensor) else _preferred(num_partitions, partitions.dtype)
    if splits_dtype is not None and partitions.dtype != splits_dtype:
        partitions = partitions.with_flat_values(math.cast(partitions.flat_values, splits_dtype)) \
            if isinstance(partitions, RaggedTensor) else math.cast(partitions, splits_dtype)
    n = math.cast(n, partitions.dtype)
    rank = partitions.shape.rank
    if rank is None:
        raise ValueError("partitions must have known rank.")
    n.shape.assert_has_rank(0)
    partitions.shape.assert_is_compatible_with(data.shape[:rank])
    if rank == 0:
        return RaggedTensor.from_value_rowids(array.stack([data]), array.stack([partitions]), nrows=n, validate=False)
    if rank == 1:
        if isinstance(partitions, RaggedTensor):
            partitions = partitions.flat_values
        pv = partitions._v
        from simdist.runtime.ops import sorting
        order = sorting.argsort(partitions, stable=True)
        rowids = array.gather(partitions, order)
        values = _gather_rows(data, order) if isinstance(data, RaggedTensor) else array.gather(data, order)
        if pv.size and bool(np.max(pv) >= n._v):
            rp.fail_binary("partitions must be less than num_partitions", "<", False, pv[pv >= n._v][:1],
                           np.asarray([n._v]))
        if pv.size and (pv < 0).any():
            raise errors.InvalidArgumentError(None, None, "partitions must be non-negative.\nCondition x >= 0 did "
                                              "not hold element-wise:")
        return RaggedTensor.from_value_rowids(values, rowids, nrows=n, validate=False)
    if partitions.dtype not in (dtypes.int32, dtypes.int64):
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'out_type' of {tf_name(partitions.dtype)} is not in the list of allowed "
                        f"values: int32, int64\n\t; NodeDef: {{{{node Shape}}}}; Op<name=Shape; signature=input:T -> "
                        f"output:out_type; attr=T:type; attr=out_type:type,default=DT_INT32,allowed=[DT_INT32, "
                        f"DT_INT64]> [Op:Shape] name: ")
    if not isinstance(data, RaggedTensor):
        data = RaggedTensor.from_tensor(data, row_splits_dtype=partitions.dtype, ragged_rank=1)
    if not isinstance(partitions, RaggedTensor):
        partitions = RaggedTensor.from_tensor(partitions, row_splits_dtype=partitions.dtype,
                                              ragged_rank=max(data.ragged_rank, rank - 1))
    if not np.array_equal(data.row_splits._v, partitions.row_splits._v):
        raise errors.InvalidArgumentError(None, None, "data and partitions have incompatible ragged shapes")
    return stack_dynamic_partitions(data.values, partitions.values, n)


def _preferred(x: Any, dtype: Any) -> Tensor:
    """convert_to_tensor with a preferred dtype: `dtype` where the value converts to it, else its own."""
    try:
        return convert_to_tensor(x, dtype=dtype)
    except (TypeError, ValueError):
        return convert_to_tensor(x)


def _cross_rows(inputs: Any, feature: Any) -> tuple[list[list[Any]], Any]:
    """Each input's features per row (ragged: the row; sparse: its stored values; dense: the row)."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError("Inputs must be a list")
    per_input, kinds = [], []
    for i, t in enumerate(inputs):
        if not isinstance(t, (RaggedTensor, SparseTensor, Tensor)):
            t = _t(t)
        if not (t.dtype.is_integer or t.dtype == dtypes.string):
            raise ValueError("Unexpected dtype for inputs[%d]: %s" % (i, t.dtype))
        if isinstance(t, RaggedTensor):
            if t.ragged_rank != 1:
                raise ValueError("tf.ragged.cross only supports inputs with rank=2")
            vals = t.values._v.tolist()
            s = t.row_splits._v
            rows = [vals[a:b] for a, b in zip(s[:-1], s[1:])]
            kinds.append(t.row_splits_dtype)
        elif isinstance(t, SparseTensor):
            ind, vals = t.indices._v, t.values._v.tolist()
            rows = [[] for _ in range(int(t.dense_shape._v[0]))]
            for k in range(len(vals)):
                rows[int(ind[k, 0])].append(vals[k])
        else:
            rows = [list(r) for r in t._v.tolist()]
        per_input.append([[feature(v) for v in r] for r in rows])
    return per_input, kinds


def _cross(inputs: Any, combine: Any, out_dtype: Any, feature: Any) -> RaggedTensor:
    per_input, kinds = _cross_rows(inputs, feature)
    rsd = dtypes.int32 if kinds and all(k == dtypes.int32 for k in kinds) else dtypes.int64
    nrows = len(per_input[0]) if per_input else 0
    values, lengths = [], []
    for i in range(nrows):
        combos = list(itertools.product(*[inp[i] for inp in per_input]))
        values.extend(combine(c) for c in combos)
        lengths.append(len(combos))
    arr = np.asarray(values, dtype=object if out_dtype == dtypes.string else np.int64)
    return RaggedTensor(convert_to_tensor(arr, dtype=out_dtype),
                        rp.as_splits_tensor(np.concatenate([[0], np.cumsum(lengths)]), rsd), internal=True)


def cross(inputs: Any, name: str | None = None) -> RaggedTensor:
    """`tf.ragged.cross` (RaggedCross): per row, every combination of one feature from each input,
    in the inputs' order, joined by "_X_" (integers as decimal strings)."""
    return _cross(inputs, b"_X_".join, dtypes.string, _text)


def cross_hashed(inputs: Any, num_buckets: int = 0, hash_key: int | None = None,
                 name: str | None = None) -> RaggedTensor:
    """`tf.ragged.cross_hashed`: the crosses hashed as tf.sparse.cross_hashed hashes them
    (FingerprintCat64 from hash_key, modulo num_buckets), int64."""
    key = DEFAULT_HASH_KEY if hash_key is None else int(hash_key)

    def combine(combo: tuple) -> int:
        h = key & ((1 << 64) - 1)
        for f in combo:
            h = fingerprint_cat64(h, f)
        return h % int(num_buckets) if num_buckets > 0 else h % ((1 << 63) - 1)
    return _cross(inputs, combine, dtypes.int64, _feature_hash)
