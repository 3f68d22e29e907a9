"""Shape functions of raw ops that fz31a transcribed (session 31, the twentieth fuzzer's fresh seeds 3120261201-08),
on infer_ctx's InferenceContext (clause function.trace-time-errors): the checks TF 2.21's shape functions make as a
tf.function adds the node, a ValueError at trace where simdist's kernels refused the call only when the graph ran
(or where simdist's kernel lookup, which TF makes only when the graph runs, came first). Each was observed on TF
2.21 with its inputs of a wrong rank or attrs out of range (function seed 3120261205 #28 DecodeCSV, #121 Substr,
#126 DecodeImage, #169 MatrixSetDiagV2, #181 BatchMatMulV3; sig seed 3120261202 #32 BatchMatMulV3, #62
ExtractGlimpseV2, #126 AllToAll)."""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops.infer_ctx import Ctx, dims_text, register

__all__: list[str] = []


@register("Substr")
def _substr(c: Ctx) -> None:
    """pos of len's rank, then pos's and len's dimensions equal ("pos and len shapes must match: [2] vs. [3]", an
    unknown dimension against a known one too, and a len of unknown rank, whose every dimension is unknown: a known
    pos dimension fails, fz35a, sig seed 3520261215 #101), then BroadcastBinaryOpShapeFn of input and pos."""
    pos, ln = c.input("pos"), c.input("len")
    if ln is not None:
        c.with_rank(pos, len(ln))
    if pos is not None and any((a if a is not None else -1) != (b if b is not None else -1)
                               for a, b in zip(pos, ln if ln is not None else [None] * len(pos))):
        c.fail(f"pos and len shapes must match: {dims_text(pos)} vs. {dims_text(ln)}")
    c.broadcast(c.input("input"), pos)


@register("DecodeCSV")
def _decode_csv(c: Ctx) -> None:
    """Each record default, in order, of rank <= 1 and, a vector, of at most one element ("Shape of a default must
    be a length-0 or length-1 vector, or a scalar.")."""
    for s in c.input("record_defaults") or []:
        s = c.with_rank_at_most(s, 1)
        if s is not None and len(s) == 1 and s[0] is not None and s[0] > 1:
            c.fail("Shape of a default must be a length-0 or length-1 vector, or a scalar.")


@register("DecodePng", "DecodeJpeg", "DecodeBmp", "DecodeGif", "DecodeImage", "ExtractJpegShape")
def _decode_image(c: Ctx) -> None:
    """DecodeImageShapeFn / DecodeImageV2ShapeFn: the contents a scalar, then a negative channels attr refused
    ("channels must be non-negative, got -2"), before the kernel's 0, 1, 3 or 4 (shape_fns_raw28's rank check,
    with the attr's)."""
    c.with_rank(c.input("contents"), 0)
    ch = c.attr("channels")
    if isinstance(ch, int) and ch < 0:
        c.fail(f"channels must be non-negative, got {ch}")


@register("MatrixSetDiagV2", "MatrixSetDiagV3")
def _matrix_set_diag(c: Ctx) -> None:
    """MatrixSetDiagV2Shape as TF 2.21 runs it: input of rank >= 2, diagonal of rank >= 1, k of rank <= 1; a known
    k's lower index not above its upper; the diagonal of rank input's - 1 to input's, exactly input's - 1 for a known
    single k and input's for a known band; a known k inside the known
    matrix (-rows < k < cols, 0 always) — all before the kernel lookup, so a string input fails here first."""
    x = c.with_rank_at_least(c.input("input"), 2)
    c.with_rank_at_least(c.input("diagonal"), 1)
    c.with_rank_at_most(c.input("k"), 1)
    k = c.value("k")
    lo = hi = None
    if k is not None:
        flat = [int(v) for v in k.reshape(-1)] if hasattr(k, "reshape") else [int(k)]
        if flat:
            lo, hi = flat[0], flat[1] if len(flat) > 1 else flat[0]
            if lo > hi:
                c.fail("lower_diag_index is greater than upper_diag_index")
    if x is None:
        return
    c.with_rank_at_least(c.input("diagonal"), len(x) - 1)
    c.with_rank_at_most(c.input("diagonal"), len(x))
    if lo is not None:   # (a known k: the diagonal's exact rank; fz31a, function seed 3120261210 #26)
        c.with_rank(c.input("diagonal"), len(x) - 1 if lo == hi else len(x))
    rows, cols = x[-2], x[-1]
    if lo is None or rows is None or cols is None:
        return
    for name, v in (("lower", lo), ("upper", hi)):
        if v != 0 and (-rows >= v or v >= cols):
            c.fail(f"{name}_diag_index is out of bound.")


@register("BatchMatMulV3")
def _batch_matmul_v3(c: Ctx) -> None:
    """BatchMatMulV2Shape, which a graph runs before it looks the kernel up (a Tout no kernel takes): both of rank
    >= 2, the inner dimensions merged, then the batch dimensions broadcast."""
    a = c.with_rank_at_least(c.input("x"), 2)
    b = c.with_rank_at_least(c.input("y"), 2)
    if a is None or b is None:
        return
    c.merge_dim(a[-2] if c.attr("adj_x") else a[-1], b[-1] if c.attr("adj_y") else b[-2])
    c.broadcast(a[:-2], b[:-2])


@register("ExtractGlimpseV2", "ExtractGlimpse")
def _extract_glimpse_v2(c: Ctx) -> None:
    """input of rank 4, offsets of rank 2, their batch merged, offsets of 2 columns; uniform_noise with a noise
    other than "" or "uniform" refused ("The uniform_noise should not be True when noise is not uniform"); then
    SetOutputToSizedImage's size, a vector of 2."""
    x = c.with_rank(c.input("input"), 4)
    off = c.with_rank(c.input("offsets"), 2)
    c.merge_dim(x[0], off[0])
    c.with_value(off[1], 2)
    noise = c.attr("noise", "uniform")
    if c.attr("uniform_noise", True) and noise not in ("", "uniform"):
        c.fail("The uniform_noise should not be True when noise is not uniform")
    size = c.with_rank(c.input("size"), 1)
    c.with_value(size[0], 2)


@register("AllToAll")
def _all_to_all(c: Ctx) -> None:
    """(tpu_cross_replica_ops.cc) of an input of known rank: split_count >= 1, group_assignment of rank 2 whose
    second dimension is split_count, concat_dimension then split_dimension inside the rank, a known split
    dimension divisible by split_count."""
    x = c.input("input")
    if x is None:
        return
    n = c.attr("split_count")
    if n < 1:
        c.fail(f"split_count {n} must at least be one.")
    g = c.input("group_assignment")
    if g is not None and len(g) != 2:
        c.fail("group_assignment must have rank 2.")
    if g is not None and g[1] is not None and g[1] != n:
        c.fail(f"split_count {n} must equal the size of the second dimension of group_assignment {g[1]}")
    for what in ("concat_dimension", "split_dimension"):
        d = c.attr(what)
        if d < 0 or d >= len(x):
            c.fail(f"{what} {d} is out of range of input rank {len(x)}")
    k = x[c.attr("split_dimension")]
    if k is not None and k % n:
        c.fail(f"input dimension {k} not divisible by split_count {n}")


@register("TridiagonalMatMul")
def _tridiagonal_matmul(c: Ctx) -> None:
    """TridiagonalMatMulShapeFn: the four of rank >= 2; the three diagonals' shapes merged (superdiag with maindiag,
    subdiag with that); their batch dimensions merged with rhs's; the matrix size (the diagonals' last dimension)
    merged with rhs's rows; then the diagonals' next-to-last dimension 1 — of the merged shape, so [2, None, None] and [None, 2, None]
    diagonals are "Dimension must be 1 but is 2" at trace (fz31a, seed 3120261208 #182)."""
    sup = c.with_rank_at_least(c.input("superdiag"), 2)
    main = c.with_rank_at_least(c.input("maindiag"), 2)
    sub = c.with_rank_at_least(c.input("subdiag"), 2)
    rhs = c.with_rank_at_least(c.input("rhs"), 2)
    # (linalg_ops.cc's order, an unknown rank merging as the other shape with unknown subshapes: the batch dimensions
    # of maindiag then subdiag merged with rhs's, superdiag's not; a [1, 2, 2] superdiag beside an input_signature
    # subdiag of unknown rank is still "Dimension must be 1 but is 2"; fz32a, sig seed 3220261211 #77)
    sup = c.merge(sup, main)
    rb = c.merge(c.subshape(main, 0, -2), c.subshape(rhs, 0, -2))
    c.merge(c.subshape(sub, 0, -2), rb)
    main = c.merge(sup, main)
    main = c.merge(sub, main)
    c.merge_dim(c.dim(main, -1), c.dim(rhs, -2))
    if main is not None:
        c.with_value(main[-2], 1)


@register("Select")
def _select(c: Ctx) -> None:
    """Select's shape function: t and e merged; then a scalar cond takes any shape, a cond of rank other than 1
    (or of data of rank 0) is merged with the data, a vector cond with the data's first dimension (function seed
    3120261210 #86)."""
    cond, data = c.input("condition"), c.merge(c.input("t"), c.input("e"))
    if cond is None or data is None or len(cond) == 0:
        return
    if len(cond) != 1 or len(data) == 0:
        c.merge(data, cond)
        return
    c.merge(cond, [data[0]])


@register("MirrorPadGrad")
def _mirror_pad_grad(c: Ctx) -> None:
    """MirrorPadGradShape: paddings a matrix whose known first dimension is the input's rank, merged with
    [rank, 2]; then, of known paddings, each non-negative ("Paddings must be non-negative") and subtracted from the
    input's dimension ("Negative dimension size caused by subtracting 3 from 2"; function seed 3120261210 #95)."""
    pads = c.with_rank(c.input("paddings"), 2)
    if pads[0] is None:
        return
    x = c.with_rank(c.input("input"), pads[0])
    c.merge(pads, [pads[0], 2])
    v = c.value("paddings")
    if v is None:
        return
    for d, (a, b) in zip(x, [(int(p[0]), int(p[1])) for p in v.reshape(-1, 2)]):
        if a < 0 or b < 0:
            c.fail("Paddings must be non-negative")
        if d is not None and d - (a + b) < 0:
            c.fail(f"Negative dimension size caused by subtracting {a + b} from {d}")


@register("NthElement")
def _nth_element(c: Ctx) -> None:
    """input of rank >= 1; a known n non-negative (MakeDimForScalarInput: "Dimension size, given by scalar input 1,
    must be non-negative but is -1") and below a known last dimension ("Input must have last dimension > n = 3 but
    is 3"); sig seed 3120261211 #173, a scalar input."""
    x = c.with_rank_at_least(c.input("input"), 1)
    n = c.value("n")
    if n is None or np.ndim(n) != 0:
        return
    k = int(n)
    if k < 0:
        c.fail(f"Dimension size, given by scalar input 1, must be non-negative but is {k}")
    if x is not None and x[-1] is not None and x[-1] <= k:
        c.fail(f"Input must have last dimension > n = {k} but is {x[-1]}")


@register("ReduceJoin")
def _reduce_join(c: Ctx) -> None:
    """ReduceJoinShape: each known reduction index inside the input's known rank ("Invalid reduction dimension -1
    for input with 0 dimensions."; sig seed 3120261211 #83); a repeated one is the kernel's."""
    x = c.input("inputs")
    v = c.value("reduction_indices")
    if x is None or v is None:
        return
    for d in np.asarray(v).reshape(-1).tolist():
        if not -len(x) <= int(d) < len(x):
            c.fail(f"Invalid reduction dimension {int(d)} for input with {len(x)} dimensions.")


@register("StridedSliceGrad")
def _strided_slice_grad(c: Ctx) -> None:
    """The output's shape from the shape tensor (MakeShapeFromShapeTensor: "Invalid value in tensor used for shape:
    -2"; sig seed 3120261211 #24); the masks are the kernel's (raw_compositions `strided_slice_grad`)."""
    c.shape_from_tensor("shape")


@register("DenseCountSparseOutput")
def _dense_count_sparse_output(c: Ctx) -> None:
    """weights merged with values unless the graph knows weights hold no element (function seed 3120261212
    #210: a scalar weight for [2] values is "Shapes must be equal rank, but are 0 and 1" at trace)."""
    w = c.input("weights")
    if w is not None and None not in w and int(np.prod(w, dtype=np.int64)) == 0:
        return
    c.merge(w, c.input("values"))


@register("Empty")
def _empty(c: Ctx) -> None:
    """EmptyShape (inplace_ops.cc): MakeShapeFromShapeTensor of `shape` (a constant -2: "Invalid value in tensor
    used for shape: -2" at trace, observed on TF 2.21; -1 an unknown dimension, the kernel's refusal at run)."""
    c.shape_from_tensor("shape")
