"""Segment reductions beyond the sums (scatter.py): tf.math.segment_max/min/prod/mean over sorted
ids, unsorted_segment_max/min/prod, and the composites unsorted_segment_mean/sqrt_n as TF 2.21's
math_ops builds them. Each op is one declaration (kind gather/scatter: its ids address one
lane's rows, so a fused replay runs it lane by lane) with its gradient as math_grad.py registers it.

Empty segments, as TF's CPU kernels fill them: 0 for the sorted max, min and mean, 1 for the
products; the dtype's lowest (max) or highest (min) finite value for the unsorted max and min.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes
from simdist.runtime.ops import args, dispatch, static_shapes, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.array import segment_ids_below
from simdist.runtime.ops.math import NUMERIC, REAL
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.ops.scatter import (_SEGMENT_RULE, _indices, check_segment_rank, copy_one_row_segments,
                                         one_row_subnormals, sorted_segment_shape_fn, sorted_segments,
                                         segments_unknown, unsorted_segment_run, unsorted_segment_sum)
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["segment_max", "segment_min", "segment_prod", "segment_mean", "unsorted_segment_max",
           "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_mean", "unsorted_segment_sqrt_n"]

_PER_LANE = lanes("its ids address one lane's rows: no stacked form written")
_UFUNC = {"max": np.maximum, "min": np.minimum, "prod": np.multiply, "mean": np.add}


def _extreme(dt: np.dtype, kind: str, finite: bool) -> Any:
    """The start of a max (lowest) or min (highest) reduction: ±inf, or the finite limit."""
    if dtypes.is_float_np(dt):
        info = dtypes.finfo(dt)
        return (info.min if kind == "max" else info.max) if finite else (-np.inf if kind == "max" else np.inf)
    info = np.iinfo(dt)
    return info.min if kind == "max" else info.max


def _start(shape: tuple, dt: np.dtype, kind: str, finite: bool) -> np.ndarray:
    if kind in ("max", "min"):
        return np.full(shape, _extreme(dt, kind, finite), dtype=dt)
    return np.ones(shape, dtype=dt) if kind == "prod" else np.zeros(shape, dtype=dt)


def _mean_of(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """sums / counts in the sums' dtype; integers truncate toward zero (C++ division), 0 when empty."""
    c = np.maximum(counts, 1).reshape((-1,) + (1,) * (sums.ndim - 1))
    if sums.dtype.kind == "u":   # (unsigned: the wrapped sum divided as it is; uint64 read as int64 was negative,
        # fz34a, tape seed 3420261216 #283)
        return (sums // c.astype(sums.dtype)).astype(sums.dtype)
    if sums.dtype.kind == "i":   # truncated C++ division of the (wrapped) sum; no abs(), which wraps at the minimum
        s64, c64 = sums.astype(np.int64), c.astype(np.int64)
        q = s64 // c64
        q = np.where((s64 % c64 != 0) & (s64 < 0), q + 1, q)
        return q.astype(sums.dtype)
    if sums.dtype.kind == "c" and sums.size:
        return _complex_mean_of(sums, c)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        return (sums / c.astype(sums.dtype)).astype(sums.dtype)


def _complex_mean_of(sums: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Complex sums / counts as Eigen's MeanReducer finalizes a segment's reduction over its rows: the
    first (columns // lanes) * lanes columns of the [segments, columns] slice in packets (pdiv_complex by
    the count), the rest by the scalar finalize (std::complex's operator/, libgcc's Smith with Annex G):
    (nan - inf j) / 2 is nan + nan j in a packet and nan - inf j in the tail (fz38a, tape seed 3820261203
    #175; clause ops.complex-division)."""
    from simdist.runtime.ops import complex_div
    flat = sums.reshape(sums.shape[0], -1)
    count = np.broadcast_to(c.reshape(-1, 1), flat.shape).astype(sums.dtype)
    lanes = complex_div.DIV_LANES[sums.dtype.name]
    packet = np.arange(flat.shape[1]) < (flat.shape[1] // lanes) * lanes
    out = np.where(packet, complex_div.quotient(flat, count, True), complex_div.quotient(flat, count, False))
    return out.astype(sums.dtype).reshape(sums.shape)


def _fold_at(kind: str, out: np.ndarray, ids: np.ndarray, data: np.ndarray) -> None:
    """`out[ids] op= data` row by row in order. Float max and min fold as TF's kernels do, as
    `acc = x unless x < acc` (max) or `unless acc < x` (min): a NaN replaces the running value and
    the next element replaces the NaN, so a segment is NaN only when its last NaN is its last
    element, and otherwise the extreme of what follows its last NaN."""
    if kind in ("max", "min") and data.dtype == np.float16:
        _fold_half(kind, out, ids, data)
        return
    if kind in ("max", "min") and data.dtype == _BF16:   # (TF 2.21 folds bfloat16 as half: fuzz2 seed 51 #154)
        wide = out.astype(np.float32)
        _fold_half(kind, wide, ids, data.astype(np.float32))
        out[...] = wide.astype(_BF16)
        nan = np.isnan(wide)
        if nan.any():   # (a NaN kept as its bits, payload included: the upper half of its float32; nansweep67)
            out.view(np.uint16)[nan] = (wide.view(np.uint32)[nan] >> 16).astype(np.uint16)
        return
    if kind not in ("max", "min") or data.dtype.kind != "f" or not np.isnan(data).any():
        _UFUNC[kind].at(out, ids, data)
        return
    pos = np.arange(data.shape[0]).reshape((-1,) + (1,) * (data.ndim - 1)) * np.ones_like(data, dtype=np.int64)
    last_nan = np.full(out.shape, -1, dtype=np.int64)
    np.maximum.at(last_nan, ids, np.where(np.isnan(data), pos, -1))
    after = pos > last_nan[ids]
    # after a NaN the running value is the next element itself, not the start: an unsorted
    # segment's finite start (the lowest/highest finite value) no longer takes part
    out[last_nan >= 0] = _extreme(data.dtype, kind, finite=False)
    _UFUNC[kind].at(out, ids, np.where(after, data, _extreme(data.dtype, kind, finite=False)))
    n_after = np.zeros(out.shape, dtype=np.int64)
    np.add.at(n_after, ids, after.astype(np.int64))
    # (such a segment's value is its last NaN itself, payload and sign: TF 2.21's `data.cwiseMax(output)` returns
    # its first operand where either is a NaN; nansweep67)
    kept = (last_nan >= 0) & (n_after == 0)
    out[kept] = np.take_along_axis(data, np.maximum(last_nan, 0), axis=0)[kept]


def _fold_half(kind: str, out: np.ndarray, ids: np.ndarray, data: np.ndarray) -> None:
    """float16 max/min: as the other floats, except that of equal values the later one is kept
    (TF's half comparison), so a segment whose extreme is a zero takes the sign of its last zero
    (after its last NaN); float32/64 keep the first."""
    _fold_at(kind, out, ids, data.astype(np.float32))   # the same extremes, exactly; then the zeros' signs
    cols = int(np.prod(out.shape[1:], dtype=np.int64))
    flat = out.reshape(out.shape[0], cols)
    nan = np.isnan(flat) & (np.arange(cols) < cols - cols % 8)
    if nan.any():   # (a NaN kept by a packet of 8 went through float: quieted, 0x7c7d comes back 0x7e7d; a scalar
        # column's std::max returns the half as it is; nansweep67)
        from simdist.runtime.ops.nan_operands import quieted
        flat[nan] = quieted(flat[nan])
    pos = np.arange(data.shape[0]).reshape((-1,) + (1,) * (data.ndim - 1)) * np.ones_like(data, dtype=np.int64)
    last_nan = np.full(out.shape, -1, dtype=np.int64)
    np.maximum.at(last_nan, ids, np.where(np.isnan(data), pos, -1))
    zero = (data == 0) & (pos > last_nan[ids])
    code = np.full(out.shape, -1, dtype=np.int64)
    np.maximum.at(code, ids, np.where(zero, 2 * pos + np.signbit(data), -1))
    fix = (out == 0) & (code >= 0)
    out[fix] = np.where(code[fix] % 2 == 1, np.float16(-0.0), np.float16(0.0))


# Eigen's packet lanes for a reduction over rows that keeps the columns (TF 2.21's AVX wheel)
_ROW_REDUCE_LANES = {"float32": 8, "float64": 4, "float16": 8, "bfloat16": 8}
_BF16 = dtypes.bfloat16.np


def _sorted_extreme(kind: str, out: np.ndarray, ids: np.ndarray, data: np.ndarray) -> None:
    """Float SegmentMax/Min as TF 2.21's CPU kernel computes a segment of two or more rows: an
    Eigen reduction over the rows of a [rows, columns] slice. The first (columns // P) * P columns
    fold in SIMD packets, `acc = x if x > acc else acc` (min: `x < acc`) from -inf (+inf): a NaN
    is skipped and of tied values (zeros) the first is kept, a column of NaN only gives -inf
    (+inf); the other columns fold one at a time, `acc = x unless x < acc` (min: `unless acc <
    x`): a NaN replaces the running value and the next element replaces the NaN, of tied values
    the last is kept. A one-row segment is copied (its NaN kept)."""
    rows = data.shape[0]
    cols = int(np.prod(data.shape[1:], dtype=np.int64))   # (not -1: no rows, `segment_max(zeros([0, 3]), [])`, is
    flat = data.reshape(rows, cols)                        # the empty result, not NumPy's reshape error; fz44)
    acc = out.reshape(out.shape[0], cols)
    lanes = _ROW_REDUCE_LANES.get(data.dtype.name, 0)
    cut = (flat.shape[1] // lanes) * lanes if lanes else 0
    for r in range(rows):
        x, a = flat[r], acc[ids[r]]
        if kind == "max":
            take = np.concatenate([x[:cut] > a[:cut], ~(x[cut:] < a[cut:])])
        else:
            take = np.concatenate([x[:cut] < a[:cut], ~(a[cut:] < x[cut:])])
        acc[ids[r]] = np.where(take, x, a)
    counts = np.bincount(ids.astype(np.int64), minlength=out.shape[0])
    one = np.flatnonzero(counts[ids] == 1)
    acc[ids[one]] = flat[one]


def _sorted(kind: str, name: str) -> Any:
    def forward(data: np.ndarray, ids: np.ndarray) -> np.ndarray:
        n = sorted_segments(data, ids, name)
        out = _start((n,) + data.shape[1:], data.dtype, kind, finite=False)
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            if kind in ("max", "min") and (data.dtype.kind == "f" or data.dtype == _BF16):
                _sorted_extreme(kind, out, ids, data)
            elif kind == "prod" and data.dtype.kind == "c":
                _complex_prod_rows(out, ids, data)
            else:
                _fold_at(kind, out, ids, data)
                if kind in ("prod", "mean") and data.dtype.kind == "f":
                    # (the rows' products and sums keep the first NaN row's; nansweep67)
                    from simdist.runtime.ops.nan_operands import first_nan_rows
                    out = first_nan_rows(out, ids, data)
        counts = np.bincount(ids.astype(np.int64), minlength=n)
        if data.dtype == _BF16 and kind in ("prod", "mean") and out.size:
            # (the reduction's float32 results converted in packets of 8 columns: a NaN there 0x7fc0; nansweep67)
            from simdist.runtime.ops.packet_math import bf16_row_packet_nans
            res = bf16_row_packet_nans(np.array(_mean_of(out, counts) if kind == "mean" else out, copy=True))
            return copy_one_row_segments(res, ids, data)
        if kind == "mean":
            return copy_one_row_segments(_mean_of(out, counts), ids, data)
        if kind in ("max", "min"):
            out[counts == 0] = 0
        return copy_one_row_segments(out, ids, data)
    return forward


def _unsorted(kind: str, name: str) -> Any:
    def forward(data: np.ndarray, ids: np.ndarray, shape: tuple) -> np.ndarray:
        flat = segment_ids_below(ids, shape[0], name, data.size)
        out = _start(shape, data.dtype, kind, finite=True)
        keep = flat >= 0
        if kind == "prod" and data.dtype.kind == "c":
            _complex_prod_rows(out, flat[keep], data[keep])
            return out
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            _fold_at(kind, out, flat[keep], data[keep])
        if kind == "prod" and data.dtype.kind == "f":   # (which NaN row: as UnsortedSegmentSum's; nansweep67)
            from simdist.runtime.ops.nan_operands import first_nan_rows, unsorted_segment_last_columns
            out = first_nan_rows(out, flat[keep], data[keep], unsorted_segment_last_columns(data.dtype, data.shape[1:]))
        return out
    return forward


def _complex_prod_rows(out: np.ndarray, ids: np.ndarray, data: np.ndarray) -> None:
    """(Unsorted)SegmentProd of complex data: UnsortedSegmentFunctor multiplies each row into its segment's output
    row as one Eigen expression (`output.chip(j) * data.chip(i)`), so a row's packet columns take the textbook product
    and its tail std::complex's operator*, Annex G's recovery of infinities included (complex_mul.multiply over
    the row's flat order): a [7, 3, 9] complex128 segment whose column 26 meets inf - 1j is -inf - inf·j in TF 2.21,
    NaN by NumPy's product (fz64, the rare-shape fz54b seed 64503 #4). The sorted SegmentProd reduces a segment's
    [rows, columns] slice over its rows (an Eigen reduction keeping the inner dimension: ProdReducer's packets over
    the output's packet columns, its scalar reduce, std::complex's operator*, over the tail), from 1 in row order:
    the same products (fz65, the rare-shape fz54b seed 65501 #5: a [33] complex64 segment of -inf - 2.989j is
    -inf - inf·j in TF, NaN + NaN·j by NumPy's); its one-row segments are copied (copy_one_row_segments)."""
    from simdist.runtime.ops import complex_mul
    for i, j in enumerate(ids.tolist()):
        out[j] = complex_mul.multiply(out[j], data[i])


def _rows_read(arrays: Any, out: Any, attrs: Any) -> float:
    return float(arrays[0].size)


SEGMENT_MAX = register("SegmentMax", _sorted("max", "SegmentMax"),
                       lambda dts, attrs: args.allowed("SegmentMax", *REAL)(dts[:1], attrs), _rows_read,
                       kind="gather/scatter", fusion=_PER_LANE)
SEGMENT_MIN = register("SegmentMin", _sorted("min", "SegmentMin"),
                       lambda dts, attrs: args.allowed("SegmentMin", *REAL)(dts[:1], attrs), _rows_read,
                       kind="gather/scatter", fusion=_PER_LANE)
SEGMENT_PROD = register("SegmentProd", _sorted("prod", "SegmentProd"),
                        lambda dts, attrs: args.allowed("SegmentProd", *NUMERIC)(dts[:1], attrs), _rows_read,
                        kind="gather/scatter", fusion=_PER_LANE)
SEGMENT_MEAN = register("SegmentMean", _sorted("mean", "SegmentMean"),
                        lambda dts, attrs: args.allowed("SegmentMean", *NUMERIC)(dts[:1], attrs), _rows_read,
                        kind="gather/scatter", fusion=_PER_LANE)
for _op in (SEGMENT_MAX, SEGMENT_MIN, SEGMENT_PROD, SEGMENT_MEAN):   # (the segment ids' rank, at trace)
    _op.shape_fn = sorted_segment_shape_fn
    _op.subnormals = one_row_subnormals   # (a one-row segment is copied with its subnormals)


def _extreme_rule(name: str) -> Any:
    """SegmentMax/Min's subnormal rule: for bfloat16 data holding subnormals the unsorted ops' (subnormals.RULES: the
    running extreme compares under DAZ, a tie takes the later element with its bits: `segment_max` of bfloat16
    [-9.2e-41, 1e-39] is 1e-39, TF 2.21 observed; fz61, /work/wt/fz61_logs/q_usm.py), of which a one-row segment's
    copy is a case; else `one_row_subnormals` (simdist flushed such a segment's result to zeros)."""
    def rule(arrays: Any, attrs: Any) -> Any:
        from simdist.runtime import subnormals
        if arrays[0].dtype == _BF16 and subnormals.holds(arrays[0]):
            return subnormals.RULES[name](arrays, attrs)
        return one_row_subnormals(arrays, attrs)
    return rule


SEGMENT_MAX.subnormals = _extreme_rule("SegmentMax")
SEGMENT_MIN.subnormals = _extreme_rule("SegmentMin")
UNSORTED_SEGMENT_MAX = register("UnsortedSegmentMax", _unsorted("max", "UnsortedSegmentMax"),
                                lambda dts, attrs: args.allowed("UnsortedSegmentMax", *REAL)(dts[:1], attrs),
                                _rows_read, kind="gather/scatter", fusion=_PER_LANE)
UNSORTED_SEGMENT_MIN = register("UnsortedSegmentMin", _unsorted("min", "UnsortedSegmentMin"),
                                lambda dts, attrs: args.allowed("UnsortedSegmentMin", *REAL)(dts[:1], attrs),
                                _rows_read, kind="gather/scatter", fusion=_PER_LANE)
UNSORTED_SEGMENT_PROD = register("UnsortedSegmentProd", _unsorted("prod", "UnsortedSegmentProd"),
                                 lambda dts, attrs: args.allowed("UnsortedSegmentProd", *NUMERIC)(dts[:1], attrs),
                                 _rows_read, kind="gather/scatter", fusion=_PER_LANE)


def sorted_segment_standin(arrays: Any, attrs: dict) -> tuple:
    """The output shape a dry run goes on with past a sorted segment kernel's run-time refusal
    (segment_ids of another length than data's rows, unsorted or negative ids: TF's shape function
    passes them and adds the node): the last id + 1 rows of data's row shape. A later op's
    graph-build error is then the trace's (`segment_min(float16 [4, 3], [0])` then
    `rgb_to_yuv(int list)` in a tf.function: the TypeError; fz31b, fourteenth generator seed
    1420313003 #121)."""
    data, ids = arrays[0], arrays[1]
    n = max(int(ids.reshape(-1)[-1]) + 1, 0) if ids.size else 0
    return ((n,) + tuple(data.shape[1:]),)


SEGMENT_MAX.standin = SEGMENT_MIN.standin = SEGMENT_PROD.standin = SEGMENT_MEAN.standin = sorted_segment_standin


def _sorted_call(op: Any, data: Any, segment_ids: Any) -> Tensor:
    d = _t(data)
    # (attr T before the rank check: eagerly, and by op_def_library before the shape function in a
    # graph: `segment_mean(True, ids)` traced is TypeError; fz14 seed 1420261203 #55)
    op.dtype((d.dtype,), None)
    from simdist.runtime.ops import index_dtypes
    index_dtypes.check(op.name, "segment_ids", segment_ids)   # (Tindices before the shapes too: ops.index-dtypes)
    check_segment_rank(d, op.name)
    out = dispatch.execute(op, (d, _indices(segment_ids, op.name, "int32, int64")))
    return static_shapes.segment_rows(out, d)   # as many rows as the last id + 1: unknown to a traced graph


def _unsorted_call(op: Any, data: Any, segment_ids: Any, num_segments: Any) -> Tensor:
    # (attr T before the shapes: eagerly, and by op_def_library before the shape function in a
    # graph, as UnsortedSegmentSum's; fz14 seed 1420261202 #266)
    d = _t(data)
    op.dtype((d.dtype,), None)
    from simdist.runtime.ops import index_dtypes
    # (Tindices by the OpDef: UnsortedSegmentMax/Min/Prod take int32/int64 ids, UnsortedSegmentSum also int16 —
    # an int16 id tensor is refused here: ops.index-dtypes; TF 2.21, lsweep63)
    index_dtypes.check(op.name, "segment_ids", segment_ids)
    return unsorted_segment_run(op, d, segment_ids, num_segments, op.name)


def segment_max(data: Any, segment_ids: Any, name: str | None = None) -> Tensor:
    return _sorted_call(SEGMENT_MAX, data, segment_ids)


def segment_min(data: Any, segment_ids: Any, name: str | None = None) -> Tensor:
    return _sorted_call(SEGMENT_MIN, data, segment_ids)


def segment_prod(data: Any, segment_ids: Any, name: str | None = None) -> Tensor:
    return _sorted_call(SEGMENT_PROD, data, segment_ids)


def segment_mean(data: Any, segment_ids: Any, name: str | None = None) -> Tensor:
    """`tf.math.segment_mean`: integer data give the truncated mean; empty segments 0."""
    return _sorted_call(SEGMENT_MEAN, data, segment_ids)


def unsorted_segment_max(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    return _unsorted_call(UNSORTED_SEGMENT_MAX, data, segment_ids, num_segments)


def unsorted_segment_min(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    return _unsorted_call(UNSORTED_SEGMENT_MIN, data, segment_ids, num_segments)


def unsorted_segment_prod(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    return _unsorted_call(UNSORTED_SEGMENT_PROD, data, segment_ids, num_segments)


def _segment_n(data: Tensor, ids: Tensor, num_segments: Any) -> Tensor:
    """TF's _unsorted_segment_N: each segment's entry count (at least 1), shaped to broadcast
    (bool data: the count's UnsortedSegmentSum refuses bools, InvalidArgumentError as in TF)."""
    from simdist.runtime.ops import array, math
    if isinstance(num_segments, (np.ndarray, np.generic)):
        # (math_ops._unsorted_segment_N converts num_segments alone first: a NumPy uint8 or int16 count keeps its
        # dtype, which the count's Tnumsegments refuses, where unsorted_segment_sum casts it; ops.index-dtypes)
        from simdist.runtime.tensor import convert_to_tensor
        num_segments = convert_to_tensor(num_segments)
    n = unsorted_segment_sum(array.ones(ids.shape.as_list(), dtype=data.dtype), ids, num_segments)
    k = int(dispatch.static_value(num_segments) if isinstance(num_segments, Tensor) else num_segments)
    # (TF reshapes to concat([num_segments[newaxis], ones]): its first dimension unknown for a num_segments the
    # graph does not know, as the sums' are: `unsorted_segment_mean(x [4, 3], ids, n)` of a placeholder n is
    # [None, 3]; fix64s)
    n = segments_unknown(array.reshape(n, [k] + [1] * (data.ndim - ids.ndim)), num_segments)
    # (its shape is computed by ops: a rank Grappler's first pass does not know; grappler.py `_swish_fusion`)
    return math.maximum(static_shapes.mark_first_pass_rank_unknown(n), 1)


def _segment_n_types(data: Tensor) -> None:
    """A traced graph is built before it runs: _unsorted_segment_N's Maximum refuses a complex
    dtype there (TypeError at trace) before any segment id is checked; eagerly the count's
    UnsortedSegmentSum runs first (clause ops.attr-types)."""
    from simdist.runtime import context
    from simdist.runtime.ops import math
    if context.in_function():
        math.MAXIMUM.dtype((data.dtype, data.dtype), None)


def _count_ranks(d: Tensor, ids: Tensor) -> None:
    """In a graph being built: _unsorted_segment_N builds ones([rank(data) - rank(segment_ids)]), whose
    Fill shape function refuses a negative constant dimension (ValueError at trace) before any kernel
    runs (fz14 seed 1420261202 #330 for sqrt_n; seed 1420282804 #76 for mean)."""
    ds, ss = static_shapes.known_shape(d), static_shapes.known_shape(ids)
    if context.in_function() and ds is not None and ss is not None and len(ds) < len(ss):
        raise trace_errors.shape_error(f"Dimension {len(ds) - len(ss)} must be >= 0 [Op:Fill]",
                                       "Fill dimensions must be >= 0", "Fill", [[1], []])


def unsorted_segment_mean(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    """`tf.math.unsorted_segment_mean`: the segment sums over the counts (a truediv: integer data
    give float64, as TF's composite)."""
    from simdist.runtime.ops import math
    d, ids = _t(data), _t(segment_ids)
    if not d.dtype.is_bool:   # (bool data: the count's UnsortedSegmentSum refuses it first, in _segment_n)
        _count_ranks(d, ids)
    _segment_n_types(d)
    # (a traced graph checks the sum's shapes at trace before N's ids are checked when it runs, as
    # unsorted_segment_sqrt_n's: `unsorted_segment_mean([4 values], [4], 2)` is "Dimensions must be equal"
    # ValueError in a tf.function, not N's out-of-range id; fz37b, fz14 seed 1420373003 #230)
    _sum_shapes(d, ids, num_segments)
    n = _segment_n(d, ids, num_segments)   # (N's kernels before the sum's, as math_ops builds them)
    return math.truediv(unsorted_segment_sum(d, ids, num_segments), n)


def unsorted_segment_sqrt_n(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    """`tf.math.unsorted_segment_sqrt_n`: the segment sums over sqrt(count) (floats only: Sqrt's)."""
    from simdist.runtime.ops import math, unary
    d, ids = _t(data), _t(segment_ids)
    if d.dtype.is_bool:   # (_unsorted_segment_N's UnsortedSegmentSum of ones of data's dtype comes first:
        # its T refuses bool, op_def_library's TypeError in a graph; fz27b, fz14 seed 1420272702 #115)
        _SEGMENT_RULE((d.dtype,), None)
    _count_ranks(d, ids)
    # (math_ops builds N, then the sum, then Sqrt(N): a traced graph checks the sum's shapes and then
    # Sqrt's op def (TypeError for an integer) before any id is checked at run time; eagerly N's
    # kernels, the sum's ("data.shape = [2,1] does not start with segment_ids.shape = [1]"), then
    # Sqrt's; fz26b, fz14 seed 1420262602 #245)
    _segment_n_types(d)
    _sum_shapes(d, ids, num_segments)
    if context.in_function():
        unary.SQRT.dtype((d.dtype,), None)
    n = _segment_n(d, ids, num_segments)
    return math.truediv(unsorted_segment_sum(d, ids, num_segments), unary.sqrt(n))


def _sum_shapes(d: Tensor, ids: Tensor, num_segments: Any) -> None:
    """In a graph being built, UnsortedSegmentSum's shape function on the shapes the graph knows
    (the sum math_ops builds after N: "Dimensions must be equal, but are 2 and 1")."""
    from simdist.runtime.ops import infer_ctx, shape_checks
    ns = num_segments if isinstance(num_segments, Tensor) else convert_to_tensor(num_segments)
    shape_checks.check("UnsortedSegmentSum", infer_ctx.trace_shape("UnsortedSegmentSum"),
                       [static_shapes.known_shape(d), static_shapes.known_shape(ids), static_shapes.known_shape(ns)])


# --- gradients, as TF 2.21's math_grad.py --------------------------------------------------------------------
def _gather_drop_negatives(params: Any, ids: Any) -> tuple[Any, Any]:
    """TF's _GatherDropNegatives: params' rows at the ids (zeros for negative ids), and the mask."""
    from simdist.runtime.ops import array, math
    gathered = array.gather(params, math.maximum(ids, array.zeros_like(ids)))
    positive = array.reshape(math.greater_equal(ids, 0), ids.shape.as_list() + [1] * (gathered.ndim - ids.ndim))
    positive = math.logical_and(positive, array.ones_like(gathered, dtype=dtypes.bool_))
    return math.where(positive, gathered, array.zeros_like(gathered)), positive


@RegisterGradient("SegmentMax")
@RegisterGradient("SegmentMin")
def _segment_min_or_max_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import array, math, scatter
    x, ids = op.inputs
    selected = math.equal(x, array.gather(op.outputs[0], ids))
    count = scatter.segment_sum(math.cast(selected, grad.dtype), ids)
    return [math.where(selected, array.gather(math.divide(grad, count), ids), array.zeros_like(x)), None]


@RegisterGradient("UnsortedSegmentMax")
@RegisterGradient("UnsortedSegmentMin")
def _unsorted_segment_min_or_max_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import array, math
    x, ids = op.inputs
    gathered, positive = _gather_drop_negatives(op.outputs[0], ids)
    selected = math.logical_and(math.equal(x, gathered), positive)
    count = unsorted_segment_sum(math.cast(selected, grad.dtype), ids, op.get_attr("shape")[0])
    spread, _ = _gather_drop_negatives(math.divide(grad, count), ids)
    return [math.where(selected, spread, array.zeros_like(spread)), None]


@RegisterGradient("SegmentMean")
def _segment_mean_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import array, math, scatter
    x, ids = op.inputs
    ones = array.ones(ids.shape.as_list() + [1] * (x.ndim - 1), dtype=grad.dtype)
    return [array.gather(math.divide(grad, scatter.segment_sum(ones, ids)), ids), None]


@RegisterGradient("SegmentProd")
def _segment_prod_grad(op: Any, grad: Any) -> list:
    """TF's _SegmentProdGrad: prod / x where x is not 0; the product of the others for a segment's
    one zero; 0 for segments with two zeros or more."""
    from simdist.runtime.ops import array, math, scatter
    x, ids = op.inputs
    zero = math.equal(x, 0)
    zeros = scatter.segment_sum(math.cast(zero, dtypes.int32), ids)
    grad = math.where(math.greater(zeros, 1), array.zeros_like(grad), grad)
    nonzero = math.where(zero, array.ones_like(x), x)
    nonzero_prod = segment_prod(nonzero, ids)
    partial = math.where(zero, array.gather(nonzero_prod, ids), array.gather(op.outputs[0], ids) / nonzero)
    return [array.gather(grad, ids) * partial, None]


@RegisterGradient("UnsortedSegmentProd")
def _unsorted_segment_prod_grad(op: Any, grad: Any) -> list:
    """TF's _UnsortedSegmentProdGrad (the unsorted form of _SegmentProdGrad; negative ids get 0)."""
    from simdist.runtime.ops import array, math
    x, ids = op.inputs
    n = op.get_attr("shape")[0]
    zero = math.equal(x, 0)
    zeros = unsorted_segment_sum(math.cast(zero, dtypes.int32), ids, n)
    grad = math.where(math.greater(zeros, 1), array.zeros_like(grad), grad)
    nonzero = math.where(zero, array.ones_like(x), x)
    nonzero_prod = unsorted_segment_prod(nonzero, ids, n)
    clipped = math.maximum(ids, array.zeros_like(ids))
    partial = math.where(zero, array.gather(nonzero_prod, clipped), array.gather(op.outputs[0], clipped) / x)
    spread, _ = _gather_drop_negatives(grad, ids)
    return [spread * partial, None]
