"""Shape functions of array, scatter and segment raw ops (tensorflow/core/ops/array_ops.cc,
math_ops.cc and common_shape_fns.cc, TF 2.21), on infer_ctx's InferenceContext (clause
function.trace-time-errors)."""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops.infer_ctx import Ctx, ShapeFnError, dims_text, register

__all__: list[str] = []


@register("BatchMatMulV2")
def _batch_matmul_v2(c: Ctx) -> None:
    """BatchMatMulV2Shape: both ranks at least 2, the inner dimensions merged, the batch
    dimensions broadcast."""
    a = c.with_rank_at_least(c.input("x"), 2)
    b = c.with_rank_at_least(c.input("y"), 2)
    ax, ay = bool(c.attr("adj_x")), bool(c.attr("adj_y"))
    c.merge_dim(c.dim(a, -2 if ax else -1), c.dim(b, -1 if ay else -2))
    c.broadcast(c.subshape(a, 0, -2), c.subshape(b, 0, -2))


@register("Add", "AddV2", "Sub", "Mul", "MulNoNan", "Div", "DivNoNan", "RealDiv", "FloorDiv", "FloorMod", "TruncateDiv",
          "TruncateMod", "Mod", "Maximum", "Minimum", "Pow", "Igamma", "Igammac", "IgammaGradA", "Zeta", "Polygamma",
          "Atan2", "SquaredDifference", "Xlogy", "Xlog1py", "Xdivy", "NextAfter", "Complex", "Less", "LessEqual",
          "Greater", "GreaterEqual", "Equal", "NotEqual", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift",
          "RightShift", "LogicalAnd", "LogicalOr")
def _broadcast_binary(c: Ctx) -> None:
    """BroadcastBinaryOpShapeFn (math_ops.cc's binary ops): two known dimensions, neither 1, must
    be equal; Equal/NotEqual with incompatible_shape_error=False accept any shapes."""
    if c.attr("incompatible_shape_error", True) is False:
        return
    c.broadcast(c.nth(0), c.nth(1))


@register("MatMul", "SparseMatMul")
def _matmul(c: Ctx) -> None:
    """MatMulShape: both rank 2, the inner dimensions merged."""
    a = c.with_rank(c.input("a"), 2)
    b = c.with_rank(c.input("b"), 2)
    c.merge_dim(a[0] if c.attr("transpose_a") else a[1], b[1] if c.attr("transpose_b") else b[0])


def _block_helper(c: Ctx, x: object, block: str, pads: str, batch_to_space: bool,
                  block_size: int | None = None) -> None:
    """SpaceToBatchShapeHelper / BatchToSpaceShapeHelper (array_ops.cc): block_shape of rank 1
    and known size M, the input of rank at least M + 1, paddings/crops merged with [M, 2]; with
    known values, each block positive (the batch divided by it evenly), then non-negative
    paddings/crops and the padded sizes divided (cropped sizes subtracted). block_size: the
    non-ND ops' attr, which they pass as the block tensor [block_size, block_size]."""
    if block_size is not None:
        _fixed_block(c, x, pads, batch_to_space, block_size)
        return
    bs = c.input(block)
    if bs is None or len(bs) != 1:
        c.fail("block_shape must have rank 1.")
    if bs[0] is None:
        c.fail("block_shape must have known size.")
    m = int(bs[0])
    x = c.with_rank_at_least(x, m + 1)   # type: ignore[arg-type]
    c.merge(c.input(pads), [m, 2])
    _block_values(c, x, m, c.value(block), pads, batch_to_space)


def _fixed_block(c: Ctx, x: object, pads: str, batch_to_space: bool, block_size: int) -> None:
    x = c.with_rank_at_least(x, 3)   # type: ignore[arg-type]
    c.merge(c.input(pads), [2, 2])
    _block_values(c, x, 2, np.array([block_size, block_size], np.int64), pads, batch_to_space)


def _block_values(c: Ctx, x: list | None, m: int, bv: np.ndarray | None, pads: str, batch_to_space: bool) -> None:
    pv = c.value(pads)
    if bv is not None and (batch_to_space or bv.size > 0):
        bv = np.asarray(bv).reshape(-1)
        batch = None if x is None else x[0]
        for i in range(m):
            if int(bv[i]) < 1:
                c.fail("block_shape must be positive")
            if batch is not None and batch_to_space:
                if batch % int(bv[i]) != 0:
                    c.fail(f"Dimension size must be evenly divisible by {int(bv[i])} but is {batch}")
                batch //= int(bv[i])
    else:
        bv = None
    what = "crops" if batch_to_space else "paddings"
    if pv is None or (not batch_to_space and pv.size == 0):
        return
    pv = np.asarray(pv).reshape(-1)
    for i in range(m):
        lo, hi = int(pv[2 * i]), int(pv[2 * i + 1])
        if lo < 0 or hi < 0:
            c.fail(f"{what} cannot be negative")
        if bv is None or x is None or x[1 + i] is None:
            continue
        d = x[1 + i]
        if batch_to_space:
            full = d * int(bv[i])
            if full < lo:
                c.fail(f"Negative dimension size caused by subtracting {lo} from {full}")
            if full - lo < hi:
                c.fail(f"Negative dimension size caused by subtracting {hi} from {full - lo}")
        elif (d + lo + hi) % int(bv[i]) != 0:
            c.fail(f"Dimension size must be evenly divisible by {int(bv[i])} but is {d + lo + hi}")


@register("BatchToSpaceND")
def _batch_to_space_nd(c: Ctx) -> None:
    _block_helper(c, c.input("input"), "block_shape", "crops", True)


@register("SpaceToBatchND")
def _space_to_batch_nd(c: Ctx) -> None:
    _block_helper(c, c.input("input"), "block_shape", "paddings", False)


@register("SpaceToBatch", "BatchToSpace")
def _space_batch(c: Ctx) -> None:
    """The input of rank 4, then the ND helper of block [block_size, block_size] (array_ops.cc), as TF
    adds the op: before the kernel lookup of a string input (fz32a, function seed 3220261205 #30)."""
    x = c.with_rank(c.input("input"), 4)
    s2b = c.op == "SpaceToBatch"
    _block_helper(c, x, "", "paddings" if s2b else "crops", not s2b, int(c.attr("block_size")))


@register("Slice")
def _slice(c: Ctx) -> None:
    """SliceShape (common_shape_fns.cc): begin and size vectors of one length, the input of that
    rank, begin a shape tensor; with size known, values below -1 refused (TF 2.21's text) and a
    -1 size's begin subtracted from its dimension."""
    x = c.input("input")
    b = c.with_rank(c.input("begin"), 1)
    s = c.with_rank(c.input("size"), 1)
    n = c.merge(b, s)
    if n is not None and n[0] is not None:
        x = c.with_rank(x, n[0])
    bv = c.shape_from_tensor("begin")
    sv = c.value("size")
    if sv is None:
        sz = c.shape_from_tensor("size")
        if sz is not None:
            c.with_rank(bv, len(sz))
        return
    sv = np.asarray(sv).reshape(-1)
    bv = c.with_rank(bv, sv.size)
    for i, v in enumerate(sv.tolist()):
        if v < -1:
            c.fail(f"Invalid value in tensor used for shape: {v}")
        if v == -1:
            d, lo = c.dim(x, i), bv[i]
            if d is not None and lo is not None and d < lo:
                c.fail(f"Negative dimension size caused by subtracting {lo} from {d}")


@register("DynamicPartition")
def _dynamic_partition(c: Ctx) -> None:
    """data's shape starts with partitions' (MergePrefix)."""
    p = c.input("partitions")
    if p is None:
        return
    c.merge_prefix(c.input("data"), p)


@register("DynamicStitch", "ParallelDynamicStitch")
def _dynamic_stitch(c: Ctx) -> None:
    """DynamicStitchShapeFunction: each data's shape starts with its indices' (MergePrefix), and
    the rest of every data shape merges with the others'."""
    extra = None
    for ind, data in zip(c.input("indices"), c.input("data")):
        if ind is None:
            continue
        c.merge_prefix(data, ind)
        extra = c.merge(extra, c.subshape(data, len(ind)))


@register("GatherNd")
def _gather_nd(c: Ctx) -> None:
    """GatherNdShape: indices of rank at least 1, their last dimension at most params' rank."""
    p = c.input("params")
    i = c.with_rank_at_least(c.input("indices"), 1)
    r = c.dim(i, -1)
    if p is None or r is None:
        return
    if r > len(p):
        c.fail(f"indices.shape[-1] must be <= params.rank, but saw indices shape: {dims_text(i)} and params shape: "
               f"{dims_text(p)}")


def _scalar_dim(c: Ctx, name: str, idx: int) -> int | None:
    """MakeDimForScalarInput: a known input must be a non-negative scalar."""
    v = c.value(name)
    if v is None:
        return None
    v = np.asarray(v)
    if v.ndim != 0:
        c.fail(f"Input must be scalar but has rank {v.ndim}")
    if int(v) < 0:
        c.fail(f"Dimension size, given by scalar input {idx}, must be non-negative but is {int(v)}")
    return int(v)


@register("OneHot")
def _one_hot(c: Ctx) -> None:
    """OneHot: axis >= -1, depth a known non-negative scalar (MakeDimForScalarInput)."""
    axis = int(c.attr("axis", -1))
    if axis < -1:
        c.fail("axis must be >= -1")
    _scalar_dim(c, "depth", 1)


@register("ReverseSequence")
def _reverse_sequence(c: Ctx) -> None:
    """ReverseSequence: seq_lengths a vector; batch_dim and seq_dim below the input's rank,
    batch_dim >= 0, its dimension merged with seq_lengths'."""
    sl = c.with_rank(c.input("seq_lengths"), 1)
    x = c.input("input")
    if x is None:
        return
    bd, sd = int(c.attr("batch_dim", 0)), int(c.attr("seq_dim"))
    if bd >= len(x):
        c.fail(f"batch_dim must be < input rank: {bd} vs. {len(x)}")
    if sd >= len(x):
        c.fail(f"seq_dim must be < input rank: {sd} vs. {len(x)}")
    if bd < 0:
        c.fail(f"batch_dim must be >=0, got {bd}")
    c.merge_dim(x[bd], sl[0])


def _num_elements(s: object) -> int | None:
    """InferenceContext::NumElements: 0 for a known dimension of 0 beside unknown ones, else None where one is
    unknown (fz32a)."""
    if s is None:
        return None
    if any(d == 0 for d in s if d is not None):   # type: ignore[union-attr]
        return 0
    if any(d is None for d in s):   # type: ignore[union-attr]
        return None
    return int(np.prod(s))


def _scatter_nd_helper(c: Ctx, ind: object, upd: object, out: object) -> None:
    """ScatterNdShapeHelper: indices and updates for an empty output refused; the indices' outer
    dimensions merged with the updates', the output's inner ones with the updates' rest."""
    n_out = _num_elements(out)
    if n_out == 0 and ((_num_elements(ind) or 0) > 0 or (_num_elements(upd) or 0) > 0):
        c.fail("Indices and updates specified for empty input")
    if ind is None or upd is None or len(upd) == 0:   # type: ignore[arg-type]
        return
    outer = len(ind) - 1   # type: ignore[arg-type]
    ix = c.dim(ind, -1)   # type: ignore[arg-type]
    if ix is None:
        return
    pi, pu = c.subshape(ind, 0, outer), c.subshape(upd, 0, outer)   # type: ignore[arg-type]
    try:
        c.merge(pi, pu)
    except ShapeFnError as e:
        c.fail(f"Dimensions [0,{outer}) of indices[shape={dims_text(ind)}] = {dims_text(pi)} must match dimensions "
               f"[0,{outer}) of updates[shape={dims_text(upd)}] = {dims_text(pu)}: {e.text}")
    so, su = c.subshape(out, ix), c.subshape(upd, outer)   # type: ignore[arg-type]
    try:
        c.merge(so, su)
    except ShapeFnError as e:
        rank_out = "?" if out is None else len(out)   # type: ignore[arg-type]
        c.fail(f"Dimensions [{ix},{rank_out}) of input[shape={dims_text(out)}] = {dims_text(so)} must match dimensions "
               f"[{outer},{len(upd)}) of updates[shape={dims_text(upd)}] = {dims_text(su)}: {e.text}")   # type: ignore


@register("ScatterNd")
def _scatter_nd(c: Ctx) -> None:
    ind = c.with_rank_at_least(c.input("indices"), 1)
    upd = c.with_rank_at_least(c.input("updates"), 1)
    out = c.shape_from_tensor("shape")
    _scatter_nd_helper(c, ind, upd, out)


@register("TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMin", "TensorScatterMax")
def _tensor_scatter(c: Ctx) -> None:
    """ScatterNdTensorShape: tensor and indices of rank at least 1, updates of any rank (a scalar
    skips ScatterNdShapeHelper's merges; fz20_seen's seed 2520261205 #127, observed)."""
    out = c.with_rank_at_least(c.input("tensor"), 1)
    ind = c.with_rank_at_least(c.input("indices"), 1)
    upd = c.input("updates")
    _scatter_nd_helper(c, ind, upd, out)


@register("SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd")
def _segment(c: Ctx) -> None:
    """SegmentReductionShapeFn: data of rank at least 1, segment_ids a vector."""
    c.with_rank_at_least(c.input("data"), 1)
    c.with_rank(c.input("segment_ids"), 1)


@register("UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd")
def _unsorted_segment(c: Ctx) -> None:
    """UnsortedSegmentReductionShapeFn: num_segments a scalar, data's shape starting with
    segment_ids', num_segments non-negative where known."""
    c.with_rank(c.input("num_segments"), 0)
    ids = c.input("segment_ids")
    if ids is not None:
        c.merge_prefix(c.input("data"), ids)
        _scalar_dim(c, "num_segments", 2)


@register("Unpack")
def _unpack(c: Ctx) -> None:
    """Unpack: the axis within [-rank, rank), its dimension the number of outputs."""
    s = c.input("value")
    if s is None:
        return
    r = len(s)
    axis = int(c.attr("axis", 0))
    if axis < -r or axis >= r:
        c.fail(f"Invalid axis: {axis}; must be in [{-r},{r})")
    c.with_value(s[axis], int(c.attr("num")))


@register("GatherV2")
def _gather_v2(c: Ctx) -> None:
    """GatherV2: axis a scalar; with batch_dims 0 and a known axis, params of rank at least
    axis + 1 (-axis for a negative one)."""
    c.with_rank(c.input("axis"), 0)
    p, a = c.input("params"), c.value("axis")
    if int(c.attr("batch_dims", 0)) != 0 or p is None or a is None:
        return
    a = int(a)
    c.with_rank_at_least(p, -a if a < 0 else a + 1)


def _scalar_axis(c: Ctx, name: str, rank: int | None) -> int | None:
    """MakeDimForScalarInputWithNegativeIndexing: a known value a scalar ("Input must be scalar but has
    rank 1") inside [-rank, rank), counted from the front; None where the graph does not know it."""
    v = c.value(name)
    if v is None:
        return None
    if np.ndim(v) != 0:
        c.fail(f"Input must be scalar but has rank {np.ndim(v)}")
    d = int(v)
    if rank is None:
        return d if d >= 0 else None
    if not -rank <= d < rank:
        c.fail(f"Dimension size, given by scalar input {d} must be in range [-{rank}, {rank})")
    return d + rank if d < 0 else d


@register("Split")
def _split(c: Ctx) -> None:
    """Split's shape function (array_ops.cc): split_dim by MakeDimForScalarInputWithNegativeIndexing (a
    constant [-2] refused at trace, an unknown one not; fz32a, sig seed 3220261206 #233), then the known
    dimension divided evenly by num_split."""
    x = c.input("value")
    d = _scalar_axis(c, "split_dim", None if x is None else len(x))
    if d is None:
        return
    x = c.with_rank_at_least(x, d + 1)
    n = int(c.attr("num_split"))
    if x is not None and x[d] is not None and n and x[d] % n != 0:
        c.fail(f"Dimension size must be evenly divisible by {n} but is {x[d]}\n\tNumber of ways to split should "
               "evenly divide the split dimension")


@register("SplitV")
def _split_v(c: Ctx) -> None:
    """SplitV: known sizes without -1 must add up to the known split dimension."""
    v, sizes, axis = c.input("value"), c.value("size_splits"), c.value("split_dim")
    if axis is not None and np.ndim(axis) != 0:
        c.fail(f"Input must be scalar but has rank {np.ndim(axis)}")
    if v is None or sizes is None or axis is None:
        return
    a = int(axis)
    if not -len(v) <= a < len(v) or v[a] is None:
        return
    sizes = np.asarray(sizes).reshape(-1).tolist()
    if -1 not in sizes and sum(sizes) != v[a]:
        c.fail(f"can't split axis of size {v[a]} into pieces of size [{','.join(str(s) for s in sizes)}]")


@register("Range")
def _range(c: Ctx) -> None:
    """start, limit and delta scalars (TF_RETURN_WITH_CONTEXT_IF_ERROR names the input)."""
    for n in ("start", "limit", "delta"):
        s = c.input(n)
        if s is not None and len(s) != 0:
            c.fail(f"Shape must be rank 0 but is rank {len(s)}\n\t for '{n}'")


@register("Fill")
def _fill(c: Ctx) -> None:
    """dims a vector, value a scalar, known dims non-negative."""
    c.with_rank(c.input("dims"), 1)
    c.with_rank(c.input("value"), 0)
    v = c.value("dims")
    if v is not None and (np.asarray(v) < 0).any():
        c.fail("Fill dimensions must be >= 0")


@register("SelectV2")
def _select_v2(c: Ctx) -> None:
    """t and e broadcast, then the condition with the result."""
    c.broadcast(c.input("condition"), c.broadcast(c.input("t"), c.input("e")))


@register("Pad", "PadV2", "MirrorPad")
def _pad(c: Ctx) -> None:
    """PadShapeFn (array_ops.cc; MirrorPad's checks the same, observed): paddings a matrix of 2 columns, the input of its row count (or
    the rows of the input's rank), then with known paddings each one non-negative ("Paddings must
    be non-negative"; fuzz20 sig seed 2520261203 #162)."""
    p = c.with_rank(c.input("paddings"), 2)
    c.with_value(p[1], 2)
    x = c.input("input")
    if p[0] is not None:
        x = c.with_rank(x, p[0])
    elif x is not None:
        c.with_value(p[0], len(x))
    v = c.value("paddings")
    if v is None:
        return
    v = np.asarray(v)
    c.with_rank(x, v.shape[0])
    if (v < 0).any():
        c.fail("Paddings must be non-negative")


@register("MirrorPadGrad")
def _mirror_pad_grad(c: Ctx) -> None:
    """MirrorPadGrad: paddings a matrix whose known rows give the input's rank (WithRank), then
    merged with [rank, 2]; known paddings subtracted from known dimensions."""
    x = c.input("input")
    p = c.with_rank(c.input("paddings"), 2)
    if p[0] is None:
        return
    x = c.with_rank(x, p[0])
    c.merge(p, [p[0], 2])
    pv = c.value("paddings")
    if pv is None or x is None:
        return
    pv = np.asarray(pv).reshape(-1, 2)
    for d, (lo, hi) in zip(x, pv.tolist()):
        if d is not None and d < lo + hi:
            c.fail(f"Negative dimension size caused by subtracting {lo + hi} from {d}")


def _read_diag_index(c: Ctx, k: object) -> tuple[int, int]:
    """ReadDiagIndex (array_ops.cc): k's one or two elements as (lower, upper)."""
    ks = np.asarray(k).reshape(-1).tolist()
    if len(ks) not in (1, 2):
        c.fail(f"diag_index must be a vector with one or two elements. It has {len(ks)} elements.")
    return int(ks[0]), int(ks[-1])


@register("MatrixDiagV2", "MatrixDiagV3")
def _matrix_diag_v3(c: Ctx) -> None:
    """MatrixDiagV2Shape (array_ops.cc): diagonal of rank >= 1, k of rank <= 1, num_rows, num_cols and
    padding_value scalars; with diagonal's rank and k's value known, lower <= upper, as many diagonal
    rows as diagonals, then num_rows/num_cols (their known values, -1 otherwise) against the least
    the diagonals need, at least one of them equal to it. An unknown dimension enters the
    arithmetic as InferenceContext::Value's -1 (so a diagonal band of unknown size is refused)."""
    x = c.with_rank_at_least(c.input("diagonal"), 1)
    kshape = c.with_rank_at_most(c.input("k"), 1)
    for n in ("num_rows", "num_cols", "padding_value"):
        c.with_rank(c.input(n), 0)
    k = c.value("k")
    if x is None or kshape is None or any(d is None for d in kshape) or k is None:
        return
    lo, hi = _read_diag_index(c, k)
    if lo > hi:
        c.fail("lower_diag_index is greater than upper_diag_index")

    def value(d: int | None) -> int:
        return -1 if d is None else int(d)

    r = len(x)
    if lo < hi:
        num_diags, other = value(x[r - 2]), value(x[r - 1])
        if num_diags != hi - lo + 1:
            c.fail("The number of rows of `diagonal` doesn't match the number of diagonals implied from "
                   f"`d_lower` and `d_upper`.\nnum_diags = {num_diags}, d_lower = {lo}, d_upper = {hi} {r} {other}")
    rv, cv = c.value("num_rows"), c.value("num_cols")
    rows = -1 if rv is None else int(np.asarray(rv).reshape(-1)[0])
    cols = -1 if cv is None else int(np.asarray(cv).reshape(-1)[0])
    length = value(x[r - 1])
    min_rows, min_cols = length - min(hi, 0), length + max(lo, 0)
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    if rows == -1:
        rows = min_rows
    elif rows < min_rows:
        c.fail("num_rows is too small")
    if cols == -1:
        cols = min_cols
    elif cols < min_cols:
        c.fail("num_cols is too small.")
    if rows != min_rows and cols != min_cols:
        c.fail("num_rows and num_cols are not consistent with lower_diag_index, upper_diag_index, and the length "
               f"of the given diagonals.\nnum_rows = {rows} != min_num_rows = {min_rows}, num_cols = {cols} != "
               f"min_num_cols = {min_cols}")


@register("MatrixDiagPartV3")
def _matrix_diag_part_v3(c: Ctx) -> None:
    """MatrixDiagPartV3Shape: input of rank >= 2, k of rank <= 1, padding_value a scalar; a known
    k of one or two elements, lower <= upper, each within the known matrix."""
    x = c.with_rank_at_least(c.input("input"), 2)
    c.with_rank_at_most(c.input("k"), 1)
    c.with_rank(c.input("padding_value"), 0)
    k = c.value("k")
    if k is None:
        return
    lo, hi = _read_diag_index(c, k)
    if lo > hi:
        c.fail("lower_diag_index is greater than upper_diag_index")
    if x is None or x[-2] is None or x[-1] is None:
        return
    rows, cols = x[-2], x[-1]
    if lo != 0 and (-rows >= lo or lo >= cols):
        c.fail("lower_diag_index is out of bound.")
    if hi != 0 and (-rows >= hi or hi >= cols):
        c.fail("upper_diag_index is out of bound.")


@register("ConcatV2")
def _concat_v2(c: Ctx) -> None:
    """ConcatShapeHelper's first check: the axis a scalar (the rest: OpDef.shape_fn and concat's own checks)."""
    c.with_rank(c.input("axis"), 0)


@register("Einsum")
def _einsum(c: Ctx) -> None:
    """EinsumShape (common_shape_fns.cc): the equation parsed (one '->', one or two input
    subscripts), one or two inputs, as many as subscripts; each input of known rank with as many
    dimensions as named labels (at least, with an ellipsis), the dimensions of a repeated label
    merged; without ellipses, every output label among the inputs'."""
    eq = str(c.attr("equation"))
    if eq.count("->") != 1:
        c.fail(f"Expecting exactly one '->' in einsum equation: {eq}")
    lhs, out = eq.split("->")
    subs = lhs.split(",")
    if len(subs) > 2:
        c.fail(f"Expecting 1 or 2 input subscripts in equation '{eq}' but got: {len(subs)}")
    shapes = c.input("inputs")
    if len(shapes) == 0 or len(shapes) > 2:
        c.fail(f"Expected either 1 or 2 inputs but got: {len(shapes)}")
    if len(shapes) != len(subs):
        c.fail(f"Expected {len(subs)} inputs for equation {eq} but got: {len(shapes)}")
    if any(ch not in ".abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" for ch in lhs.replace(",", "") + out):
        return   # (other characters: the kernel's parse, not modelled here)
    dims: dict[str, int | None] = {}
    for i, (labels, s) in enumerate(zip(subs, shapes)):
        periods = labels.count(".")
        if periods not in (0, 3) or (periods == 3 and "..." not in labels):
            return
        ell = periods == 3
        if s is not None:
            named = len(labels) - 3 if ell else len(labels)
            try:
                (c.with_rank_at_least if ell else c.with_rank)(s, named)
            except ShapeFnError as e:
                c.fail(f"{e.text}\n\t for {i}th input and equation: {eq}")
        seen_ell = False
        k = 0
        while k < len(labels):
            ch = labels[k]
            if ch == ".":
                seen_ell = True
                k += 3
                continue
            if s is None:
                d = None
            else:
                axis = k + len(s) - len(labels) if seen_ell else k
                d = s[axis]
            dims[ch] = c.merge_dim(dims[ch], d) if ch in dims else d
            k += 1
    if "." in lhs:
        return
    for ch in out:
        if ch != "." and ch not in dims:
            c.fail(f"Einsum output subscripts for equation '{eq}' has label '{ch}' which is not present in the "
                   f"input subscripts")


# --- fz22: the fresh sig campaign's ops (fuzz20 seed 2220261202; array_ops.cc, math_ops.cc) -------------------
@register("Tile")
def _tile(c: Ctx) -> None:
    """Tile: multiples as a shape (MakeShapeFromShapeTensor: a negative known value is "Invalid
    value in tensor used for shape"), of the input's rank where it is known; the input then of
    the multiples' rank."""
    mult = c.shape_from_tensor("multiples")
    x = c.input("input")
    if x is not None:
        mult = c.with_rank(mult, len(x))
        c.merge(c.input("multiples"), [len(x)])
    if mult is not None:
        c.with_rank(x, len(mult))


@register("Unique", "InvertPermutation")
def _vector_input(c: Ctx) -> None:
    """Unique / InvertPermutation: WithRank(x, 1). (UniqueWithCounts' shape function checks nothing:
    its kernel refuses another rank when the graph runs; fuzz20 seed 2320261202 #162.)"""
    c.with_rank(c.nth(0), 1)


@register("Cross")
def _cross(c: Ctx) -> None:
    """Cross: both of rank at least 1, their shapes merged, the last dimension 3."""
    a = c.with_rank_at_least(c.input("a"), 1)
    b = c.with_rank_at_least(c.input("b"), 1)
    m = c.merge(a, b)
    if m is not None:
        c.with_value(m[-1], 3)


@register("Diag")
def _diag(c: Ctx) -> None:
    """Diag (array_ops.cc): WithRankAtLeast(diagonal, 1), the output its shape twice."""
    c.with_rank_at_least(c.input("diagonal"), 1)


@register("DiagPart")
def _diag_part(c: Ctx) -> None:
    """DiagPart: a known rank even and non-zero, dimension i merged with i + rank/2."""
    x = c.input("input")
    if x is None:
        return
    if len(x) % 2 or not x:
        c.fail(f"Input must have even and non-zero rank, input rank is {len(x)}")
    mid = len(x) // 2
    for i in range(mid):
        c.merge_dim(x[i], x[i + mid])


@register("Betainc")
def _betainc(c: Ctx) -> None:
    """math_ops.cc Betainc: the inputs of known non-zero rank merged (a scalar or an unknown rank
    broadcasts); fz22: fuzz20 SEEN seed 2020261201 #184."""
    out = None
    for name in ("a", "b", "x"):
        s = c.input(name)
        if s is not None and len(s) > 0:
            out = s if out is None else c.merge(out, s)



@register("QuantizeAndDequantizeV2", "QuantizeAndDequantizeV3", "QuantizeAndDequantizeV4",
          "QuantizeAndDequantizeV4Grad")
def _quantize_and_dequantize(c: Ctx) -> None:
    """array_ops.cc: min and max of rank 0 (axis -1) or 1, merged; an axis below -1 refused; with an axis the input of rank
    >= axis + 1 and its axis dimension merged with theirs; V3's num_bits a scalar; the gradient's
    gradients and input merged."""
    grad = c.op == "QuantizeAndDequantizeV4Grad"
    axis = c.attr("axis", -1)
    minmax = c.with_rank(c.input("input_min"), 0 if axis == -1 else 1)
    minmax = c.merge(c.input("input_max"), minmax)
    if axis < -1:   # (after min and max, before the input's rank: fz34a, function seed 3420261210 #126)
        c.fail(f"axis should be at least -1, got {axis}")
    if axis != -1:
        x = c.with_rank_at_least(c.input("gradients" if grad else "input"), axis + 1)
        c.merge_dim(c.dim(minmax, 0), c.dim(x, axis))
    if c.op == "QuantizeAndDequantizeV3":
        c.with_rank(c.input("num_bits"), 0)
    if grad:
        c.merge(c.input("gradients"), c.input("input"))


@register("BroadcastTo")
def _broadcast_to(c: Ctx) -> None:
    """array_ops.cc: shape a vector, MakeShapeFromShapeTensor (a known value below -1 is "Invalid value
    in tensor used for shape"; fuzz20 sig seed 2420261204 #89), then where both ranks are known the
    input's rank at most the output's and each known input dimension above 1 merged with the output's
    (fz24a)."""
    out = c.shape_from_tensor("shape")
    x = c.input("input")
    if out is None or x is None:
        return
    x = c.with_rank_at_most(x, len(out))
    for i in range(1, len(x) + 1):
        d = x[-i]
        if d is not None and d > 1:
            c.merge_dim(d, out[-i])


@register("MatrixDiag")
def _matrix_diag_v1(c: Ctx) -> None:
    """MatrixDiag (array_ops.cc): the diagonal of rank at least 1 (at trace, before a missing kernel:
    a string scalar is ValueError; fz34a, sig seed 3420261212 #173)."""
    c.with_rank_at_least(c.input("diagonal"), 1)


@register("MatrixDiagPart")
def _matrix_diag_part_v1(c: Ctx) -> None:
    """MatrixDiagPart: the input of rank at least 2."""
    c.with_rank_at_least(c.input("input"), 2)


@register("MatrixSetDiag")
def _matrix_set_diag_v1(c: Ctx) -> None:
    """MatrixSetDiag: the input of rank at least 2, the diagonal of rank at least 1 and, where the
    input's rank is known, of that rank less one; its last dimension merged with the input's smaller
    matrix dimension where both are known."""
    x = c.with_rank_at_least(c.input("input"), 2)
    d = c.with_rank_at_least(c.input("diagonal"), 1)
    if x is not None:
        d = c.with_rank(c.input("diagonal"), len(x) - 1)
        if x[-2] is not None and x[-1] is not None:
            c.merge_dim(min(x[-2], x[-1]), d[-1])


@register("Bitcast")
def _bitcast(c: Ctx) -> None:
    """array_ops.cc Bitcast's shape function: an unknown rank passes; to a wider type the input's last
    dimension, where known, must be the ratio of the sizes ("Cannot bitcast from 3 to 18 due to shape. 2 does not
    match 4", the DataType enums: a [1, 3, ?, 2] int32 spec as complex128 at trace; fz42, twentieth generator sig
    seed 4120261210 #123); a zero-size type (string, resource) is refused."""
    x = c.input("input")
    if x is None:
        return
    src, dst = c.attr("T"), c.attr("type")
    if src is None or dst is None:
        return
    a, b = int(getattr(src, "size", 0) or 0), int(getattr(dst, "size", 0) or 0)
    if a == 0 or b == 0:
        c.fail(f"Cannot bitcast types {src.name} to {dst.name} because one of the type sizes is zero.")
    if a < b:
        c.with_rank_at_least(x, 1)
        last = c.dim(x, -1)
        if last is not None and last != b // a:
            c.fail(f"Cannot bitcast from {src.as_datatype_enum} to {dst.as_datatype_enum} due to shape. {last} does "
                   f"not match {b // a}")


@register("UnravelIndex")
def _unravel_index(c: Ctx) -> None:
    """array_ops.cc UnravelIndex's shape function: dims of rank 1 (the indices' rank is the kernel's check, when the
    graph runs): `unravel_index([], [[2]])` in a tf.function is "Shape must be rank 1 but is rank 2" at trace (fz42)."""
    c.with_rank(c.input("dims"), 1)
