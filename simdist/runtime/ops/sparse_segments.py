"""`tf.sparse.segment_sum/mean/sqrt_n` (TF's SparseSegmentSum/Mean/SqrtN[WithNumSegments]: rows
`data[indices[i]]` reduced into segment `segment_ids[i]`), their gradient kernels (dense, and the
IndexedSlices of the V2 kernels when `sparse_gradient=True`), clause ops.sparse-segments.

segment_reduction_ops_impl.h's order, bit for bit: a segment of n rows starts with its first
r = n & 7 rows (8 when r = 0, 9 when r = 1) added left to right, then adds each next 8 rows' own
left-to-right sum; mean/sqrt_n multiply that first block by 1/n (1/sqrt(n)) when n < 10, else
divide the total by n (sqrt(n)); float16/bfloat16 accumulate in float32. Segment ids must be
sorted (InvalidArgumentError "segment ids are not increasing"); rows of absent segments are 0.
The gradient kernels add grad[segment] * (1/count) into out[index] in input order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.indexed_slices import IndexedSlices
from simdist.runtime.ops import array, dispatch, trace_errors
from simdist.runtime.ops.attr_rules import make_bool as _make_bool   # (the wrappers' make_bool: ops.attr-types)
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.ops.sparse_core import invalid
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["segment_sum", "segment_mean", "segment_sqrt_n", "SEGMENT_OPS"]

_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)
_SUM_TYPES = _FLOATS + (dtypes.int32, dtypes.int64, dtypes.int16, dtypes.int8, dtypes.uint8, dtypes.uint16,
                        dtypes.uint32, dtypes.uint64)
_PER_LANE = lanes("its indices come per lane")


def subnormals_ftz(x: np.ndarray) -> np.ndarray:
    """FTZ on a segment's sum (its subnormal results as zeros of their sign)."""
    from simdist.runtime import subnormals
    return subnormals.flushed(x)


def _segment(rows: list[np.ndarray], kind: str, acc: Any) -> np.ndarray:
    """One segment's reduction in the kernel's order (rows already in the accumulation dtype)."""
    n = len(rows)
    if n == 1:
        return rows[0]
    r = n & 7
    first = {0: 8, 1: 9}.get(r, r)
    out = rows[0]
    for x in rows[1:first]:
        out = (out + x).astype(acc)
    if n < 10 and kind != "sum":
        m = acc(n) if kind == "mean" else acc(np.sqrt(float(n)))
        out = (out * (acc(1) / m)).astype(acc)
    for k in range(first, n, 8):
        block = rows[k]
        for x in rows[k + 1:k + 8]:
            block = (block + x).astype(acc)
        out = (out + block).astype(acc)
    if n >= 10 and kind == "mean":
        out = (out / acc(n)).astype(acc)
    if n >= 10 and kind == "sqrtn":
        out = (out / acc(np.sqrt(float(n)))).astype(acc)
    return out


def _check_ids(data: np.ndarray, idx: np.ndarray, seg: np.ndarray, op: str) -> None:
    if idx.ndim != 1:
        raise invalid("indices should be a vector.", op)
    if seg.ndim != 1:
        raise invalid("segment_ids should be a vector.", op)
    if idx.shape[0] != seg.shape[0]:
        raise invalid("segment_ids and indices should have same size.", op)
    if data.ndim < 1:
        raise invalid("Shape must be at least rank 1 but is rank 0", op)


def _forward(kind: str, with_num: bool) -> Any:
    base = {"sum": "SparseSegmentSum", "mean": "SparseSegmentMean", "sqrtn": "SparseSegmentSqrtN"}[kind]
    op = base + ("WithNumSegments" if with_num else "")

    def forward(data: np.ndarray, idx: np.ndarray, seg: np.ndarray, *num: np.ndarray,
                sparse_gradient: bool = False) -> np.ndarray:
        _check_ids(data, idx, seg, op)
        n = idx.shape[0]
        if with_num:
            if num[0].ndim != 0:
                raise invalid(f"num_segments should be a scalar, not shape {list(num[0].shape)}", op)
            rows_out = int(num[0])
            if n and int(seg[-1]) >= rows_out:
                raise invalid(f"segment ids must be < num_segments", op)
        else:
            rows_out = int(seg[-1]) + 1 if n else 0
        if n and rows_out <= 0 and not with_num:
            raise invalid("segment ids must be >= 0", op)
        # (the kernel allocates its output before it reads an id: num_segments 2**31 - 1 of [4, 2, 3] float16 rows is
        # ResourceExhaustedError, not NumPy's MemoryError; fz36a, eager seed 3620261219 #55)
        from simdist.runtime.ops import alloc
        alloc.check_output(op, (max(rows_out, 0),) + data.shape[1:], dtypes.as_dtype(data.dtype))
        out = np.zeros((max(rows_out, 0),) + data.shape[1:], data.dtype)
        acc = np.float32 if data.dtype.name in ("float16", "bfloat16") else data.dtype.type
        start = 0
        prev = -1
        while start < n:
            s = int(seg[start])
            if s < 0:
                raise invalid("segment ids must be >= 0", op)
            if s < prev:
                raise invalid("segment ids are not increasing", op)
            end = start
            while end < n and int(seg[end]) == s:
                end += 1
            if end < n and int(seg[end]) < s:
                raise invalid("segment ids are not increasing", op)
            if s >= rows_out:
                raise invalid(f"Segment id {s} out of range [0, {rows_out}), possibly because 'segment_ids' input "
                              "is not sorted.", op)
            rows = []
            for i in range(start, end):
                j = int(idx[i])
                if not 0 <= j < data.shape[0]:
                    raise invalid(f"Bad: indices[{i}] == {j} out of range [0, {data.shape[0]})", op)
                rows.append(data[j].astype(acc))
            if len(rows) > 1:   # (a sum reads and writes under DAZ/FTZ; one row is copied, subnormals kept: fz46b)
                from simdist.runtime import subnormals
                rows = [subnormals.flushed(r) for r in rows]
            with np.errstate(all="ignore"):
                res = _segment(rows, kind, acc).astype(data.dtype)
                out[s] = subnormals_ftz(res) if len(rows) > 1 else res
            prev = s
            start = end
        return out
    return forward


def _rule(kind: str, op: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        allowed = _SUM_TYPES if kind == "sum" else _FLOATS
        if dts[0] not in allowed:
            # (T as the index attrs below: op_def_library's TypeError in a graph; TF 2.21, lsweep63)
            raise trace_errors.attr_not_allowed(op, "T", dts[0], ", ".join(
                {"float16": "half", "float32": "float", "float64": "double"}.get(d.name, d.name) for d in allowed))
        for k, name in ((1, "Tidx"), (2, "Tsegmentids"), (3, "Tnumsegments"))[:len(dts) - 1]:
            # (Tnumsegments of the WithNumSegments ops too: an int8/int16/uint8/float num_segments is refused;
            # TF 2.21, lsweep63)
            if dts[k] not in (dtypes.int32, dtypes.int64):
                # (eagerly the attr's InvalidArgumentError, op_def_library's TypeError in a graph; TF 2.21, fz62:
                # the fourth generator's seeds 62404-62408)
                raise trace_errors.attr_not_allowed(op, name, dts[k], "int32, int64")
        return dts[0]
    return rule


def _register(kind: str, with_num: bool) -> Any:
    base = {"sum": "SparseSegmentSum", "mean": "SparseSegmentMean", "sqrtn": "SparseSegmentSqrtN"}[kind]
    name = base + ("WithNumSegments" if with_num else "")
    return register(name, _forward(kind, with_num), _rule(kind, name), lambda a, out, at: float(a[1].size * (
        out.size // max(out.shape[0], 1))), kind="gather/scatter", fusion=_PER_LANE)


SEGMENT_OPS = {(k, w): _register(k, w) for k in ("sum", "mean", "sqrtn") for w in (False, True)}


# --- gradient kernels ----------------------------------------------------------------------------------------------

def _scales(seg: np.ndarray, segments: int, kind: str) -> np.ndarray:
    counts = np.zeros(segments, np.float64)
    for s in seg:
        counts[int(s)] += 1
    counts = np.maximum(counts, 1.0)
    return 1.0 / counts if kind == "mean" else 1.0 / np.sqrt(counts)


_GRAD_NAMES = {"sum": "SparseSegmentSumGrad", "mean": "SparseSegmentMeanGrad", "sqrtn": "SparseSegmentSqrtNGrad"}


def _grad_sizes(grad: np.ndarray, idx: np.ndarray, seg: np.ndarray, dim0: np.ndarray, op: str) -> int:
    """SparseSegmentGradOpBase::Compute's checks before its output (observed on TF 2.21): indices and
    segment_ids vectors of one length, grad of rank at least 1 and the output's rows M not negative
    (TensorShape::SetDimWithStatus(0, M) of grad's shape); M."""
    if idx.ndim != 1:
        raise invalid("indices should be a vector.", op)
    if seg.ndim != 1:
        raise invalid("segment_ids should be a vector.", op)
    if np.ndim(dim0) != 0:
        raise invalid(f"{'dense_' if op.endswith('V2') else ''}output_dim0 should be a scalar.", op)
    if idx.size != seg.size:
        raise invalid("segment_ids and indices should have same size.", op)
    m = int(dim0)
    if grad.ndim == 0:   # (the output shape is grad's with dimension 0 set by SetDimWithStatus, which checks the
        # index before the size: a scalar grad is refused whatever the rows; fz37a, eager seed 3720261204 #1)
        raise invalid("Index must be less than 0, got 0", op)
    if m < 0:
        raise invalid(f"Expected a non-negative size, got {m}", op)
    return m


def _segment_checked(s: int, segments: int, op: str) -> int:
    if not 0 <= s < segments:
        raise invalid(f"Segment id {s} out of range [0, {segments}).", op)
    return s


def _grad_kernel(kind: str, v2: bool = False) -> Any:
    """The CPU SparseSegmentGradFunctor (V1) and SparseSegmentGradV2Functor (v2), in their orders
    (observed on TF 2.21; fz34a, sig seed 3420261202 #114): nothing computed for an output of no
    rows or no indices; the last segment id below grad's rows ("Invalid number of segments"); then
    V1 checks every segment id in range while counting them (mean, sqrtn), and each index, then
    its segment id, as it adds; V2 checks every index first, then every segment id. (V1 with
    no indices and rows to give returns its output unwritten, uninitialised memory: zeros here.)"""
    op = _GRAD_NAMES[kind] + ("V2" if v2 else "")

    def forward(grad: np.ndarray, idx: np.ndarray, seg: np.ndarray, dim0: np.ndarray) -> np.ndarray:
        m = _grad_sizes(grad, idx, seg, dim0, op)
        out = np.zeros((m,) + grad.shape[1:], grad.dtype)
        if m == 0 or idx.size == 0:
            return out
        segments = grad.shape[0] if grad.ndim else 0
        if int(seg[-1]) + 1 > segments:
            raise invalid("Invalid number of segments", op)
        if v2:
            for o in idx.tolist():
                if not 0 <= int(o) < m:
                    raise invalid(f"Index {int(o)} out of range [0, {m}).", op)
            for s in seg.tolist():
                _segment_checked(int(s), segments, op)
        elif kind != "sum":
            for s in seg.tolist():
                _segment_checked(int(s), segments, op)
        scale = None if kind == "sum" else _scales(seg, segments, kind)
        seen = np.zeros(m, bool)
        for i in range(idx.shape[0]):
            o = int(idx[i])
            if not 0 <= o < m:
                raise invalid(f"Index {o} out of range [0, {m}).", op)
            s = _segment_checked(int(seg[i]), segments, op)
            row = grad[s] if scale is None or grad.dtype.type(scale[s]) == 1 else \
                (grad[s] * grad.dtype.type(scale[s])).astype(grad.dtype)
            out[o] = (out[o] + row).astype(grad.dtype) if seen[o] else row
            seen[o] = True
        return out
    return forward


def _grad_v2_kernel(kind: str) -> Any:
    dense = _grad_kernel(kind, v2=True)

    def forward(grad: np.ndarray, idx: np.ndarray, seg: np.ndarray, dim0: np.ndarray) -> tuple:
        full = dense(grad, idx, seg, dim0)
        if full.shape[0] == 0 or idx.size == 0:   # (the early return: no rows, no indices)
            return full[:0], np.zeros((0,), idx.dtype)
        uniq = np.unique(idx)
        return full[uniq], uniq.astype(idx.dtype)
    return forward


GRAD_OPS = {k: register({"sum": "SparseSegmentSumGrad", "mean": "SparseSegmentMeanGrad",
                         "sqrtn": "SparseSegmentSqrtNGrad"}[k], _grad_kernel(k), lambda dts, at: dts[0],
                        lambda a, out, at: float(a[0].size), kind="gather/scatter", fusion=_PER_LANE)
            for k in ("sum", "mean", "sqrtn")}
GRAD_V2_OPS = {k: register({"sum": "SparseSegmentSumGradV2", "mean": "SparseSegmentMeanGradV2",
                            "sqrtn": "SparseSegmentSqrtNGradV2"}[k], _grad_v2_kernel(k),
                           lambda dts, at: (dts[0], dts[1]), lambda a, out, at: float(a[0].size), num_outputs=2,
                           kind="gather/scatter", fusion=_PER_LANE)
               for k in ("sum", "mean", "sqrtn")}
for _op in list(GRAD_OPS.values()) + list(GRAD_V2_OPS.values()):
    no_tf_gradient(_op.name)   # (TF 2.21 registers none: a tape reaching one raises LookupError; observed, fz27a)


def _grad_fn(kind: str, with_num: bool) -> Any:
    def grad_fn(op: Any, grad: Tensor) -> list:
        data, idx, seg = op.inputs[0], op.inputs[1], op.inputs[2]
        dim0 = array.shape(data)[0]
        extra = [None] if with_num else []
        if op.get_attr("sparse_gradient"):
            values, uniq = dispatch.execute(GRAD_V2_OPS[kind], (grad, idx, seg, dim0))
            return [IndexedSlices(values, uniq, array.shape(data)), None, None] + extra
        return [dispatch.execute(GRAD_OPS[kind], (grad, idx, seg, dim0)), None, None] + extra
    return grad_fn


for (_k, _w), _op in SEGMENT_OPS.items():
    RegisterGradient(_op.name)(_grad_fn(_k, _w))


def _reduce(kind: str, data: Any, indices: Any, segment_ids: Any, num_segments: Any, sparse_gradient: bool) -> Tensor:
    d = _t(data)
    ins = [d, _t(indices), _t(segment_ids)]
    if num_segments is not None:
        ins.append(num_segments if isinstance(num_segments, Tensor) else convert_to_tensor(num_segments))
    return dispatch.execute(SEGMENT_OPS[(kind, num_segments is not None)], tuple(ins),
                            {"sparse_gradient": _make_bool(sparse_gradient, "sparse_gradient", "SparseSegmentSum")})


def segment_sum(data: Any, indices: Any, segment_ids: Any, num_segments: Any = None, name: str | None = None,
                sparse_gradient: bool = False) -> Tensor:
    """`tf.sparse.segment_sum`: sum of data[indices[i]] per sorted segment id."""
    return _reduce("sum", data, indices, segment_ids, num_segments, sparse_gradient)


def segment_mean(data: Any, indices: Any, segment_ids: Any, num_segments: Any = None, name: str | None = None,
                 sparse_gradient: bool = False) -> Tensor:
    """`tf.sparse.segment_mean`: the mean of data[indices[i]] per sorted segment id."""
    return _reduce("mean", data, indices, segment_ids, num_segments, sparse_gradient)


def segment_sqrt_n(data: Any, indices: Any, segment_ids: Any, num_segments: Any = None, name: str | None = None,
                   sparse_gradient: bool = False) -> Tensor:
    """`tf.sparse.segment_sqrt_n`: the sum of data[indices[i]] per segment divided by sqrt(count)."""
    return _reduce("sqrtn", data, indices, segment_ids, num_segments, sparse_gradient)
