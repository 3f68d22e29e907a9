"""Shape functions of sparse, linalg, random, candidate-sampling and image raw ops
(tensorflow/core/ops/{sparse_ops,linalg_ops,random_ops,candidate_sampling_ops,image_ops}.cc, TF
2.21), on infer_ctx's InferenceContext (clause function.trace-time-errors)."""

from __future__ import annotations


import numpy as np

from simdist.runtime.ops.infer_ctx import Ctx, register
from simdist.runtime.ops.shape_fns_sparse import validate_sparse

__all__: list[str] = []


@register("SparseFillEmptyRows")
def _sparse_fill_empty_rows(c: Ctx) -> None:
    """indices a matrix, values and dense_shape vectors, default_value a scalar; as many values as
    indices rows, as many dense_shape entries as index columns."""
    ind = c.with_rank(c.input("indices"), 2)
    val = c.with_rank(c.input("values"), 1)
    shp = c.with_rank(c.input("dense_shape"), 1)
    c.with_rank(c.input("default_value"), 0)
    c.merge_dim(ind[0], val[0])
    c.merge_dim(ind[1], shp[0])


@register("SparseSparseMinimum", "SparseSparseMaximum")
def _sparse_sparse_min_max(c: Ctx) -> None:
    """SparseSparseMinOrMaxShapeFn: each side's indices a matrix, values and shape vectors."""
    for n, r in (("a_indices", 2), ("a_values", 1), ("a_shape", 1), ("b_indices", 2), ("b_values", 1),
                 ("b_shape", 1)):
        c.with_rank(c.input(n), r)


@register("SparseToDense")
def _sparse_to_dense(c: Ctx) -> None:
    """output_shape a shape tensor (MakeShapeFromShapeTensor); the other inputs' ranks are the
    kernel's checks."""
    c.shape_from_tensor("output_shape")


@register("TridiagonalMatMul")
def _tridiagonal_matmul(c: Ctx) -> None:
    """TridiagonalMatMulShapeFn (linalg_ops.cc): four inputs of rank >= 2, superdiag merged with
    maindiag, the batch shapes with rhs', the diagonals of one shape, M of the diagonals and the
    rhs merged, the diagonals' next-to-last dimension 1."""
    sup = c.with_rank_at_least(c.input("superdiag"), 2)
    main = c.with_rank_at_least(c.input("maindiag"), 2)
    sub = c.with_rank_at_least(c.input("subdiag"), 2)
    rhs = c.with_rank_at_least(c.input("rhs"), 2)
    c.merge(sup, main)
    rb = c.merge(c.subshape(main, 0, -2), c.subshape(rhs, 0, -2))
    c.merge(c.subshape(sub, 0, -2), rb)
    main = c.merge(sup, main)
    c.merge(sub, main)
    c.merge_dim(c.dim(main, -1), c.dim(rhs, -2))
    c.with_value(c.dim(main, -2), 1)


@register("TridiagonalSolve")
def _tridiagonal_solve(c: Ctx) -> None:
    """TridiagonalSolveShapeFn (linalg_ops.cc): both ranks >= 2, the batch shapes merged, M
    merged, the diagonals' next-to-last dimension 3."""
    lhs = c.with_rank_at_least(c.input("diagonals"), 2)
    rhs = c.with_rank_at_least(c.input("rhs"), 2)
    c.merge(c.subshape(lhs, 0, -2), c.subshape(rhs, 0, -2))
    c.merge_dim(c.dim(lhs, -1), c.dim(rhs, -2))
    c.with_value(c.dim(lhs, -2), 3)


@register("RandomGammaGrad")
def _random_gamma_grad(c: Ctx) -> None:
    """BroadcastBinaryOpShapeFn."""
    c.broadcast(c.input("alpha"), c.input("sample"))


@register("ComputeAccidentalHits")
def _accidental_hits(c: Ctx) -> None:
    tc = c.with_rank(c.input("true_classes"), 2)
    c.with_value(tc[1], int(c.attr("num_true")))
    c.with_rank(c.input("sampled_candidates"), 1)


@register("LogUniformCandidateSampler", "UniformCandidateSampler", "LearnedUnigramCandidateSampler",
          "FixedUnigramCandidateSampler", "AllCandidateSampler")
def _candidate_sampler(c: Ctx) -> None:
    """CandidateSamplerShapeFn: true_classes a matrix (its num_true columns are the kernel's check)."""
    c.with_rank(c.input("true_classes"), 2)


@register("SobolSample")
def _sobol_sample(c: Ctx) -> None:
    """dim, num_results and skip scalars; the output Matrix(num_results, dim) of known values,
    -1 an unknown dimension."""
    for n in ("dim", "num_results", "skip"):
        c.with_rank(c.input(n), 0)
    for n in ("num_results", "dim"):
        v = c.value(n)
        if v is not None and int(v) < -1:
            c.fail(f"Dimension {int(v)} must be >= 0")


def _dims_nonnegative(c: Ctx, v: object) -> None:
    """Dimensions made from a known size vector: each -1 (unknown) or >= 0."""
    if v is None:
        return
    for d in np.asarray(v).reshape(-1).tolist():
        if d < -1:
            c.fail(f"Dimension {d} must be >= 0")


def _sized_image(c: Ctx, size: str) -> None:
    """SetOutputToSizedImage: the size input a vector of 2."""
    s = c.with_rank(c.input(size), 1)
    c.with_value(s[0], 2)
    _dims_nonnegative(c, c.value(size))


@register("ResizeNearestNeighborGrad")
def _resize_grad(c: Ctx) -> None:
    """grads of rank 4, size a vector of 2 whose known values are -1 or non-negative."""
    c.with_rank(c.input("grads"), 4)
    s = c.with_rank(c.input("size"), 1)
    c.with_value(s[0], 2)
    _dims_nonnegative(c, c.value("size"))


@register("ImageProjectiveTransformV3")
def _projective(c: Ctx) -> None:
    """images of rank 4, output_shape a vector of 2 (SetOutputToSizedImage)."""
    c.with_rank(c.input("images"), 4)
    _sized_image(c, "output_shape")




@register("EditDistance")
def _edit_distance(c: Ctx) -> None:
    """Both sparse tensors validated; known shapes of as many elements."""
    validate_sparse(c, "hypothesis_indices", "hypothesis_values", "hypothesis_shape")
    validate_sparse(c, "truth_indices", "truth_values", "truth_shape")
    h, t = c.value("hypothesis_shape"), c.value("truth_shape")
    if h is not None and t is not None and np.size(h) != np.size(t):
        c.fail(f"Num elements of hypothesis_shape does not match truth_shape: {np.size(h)} vs. {np.size(t)}")


@register("SparseReorder")
def _sparse_reorder(c: Ctx) -> None:
    """input_indices a matrix, input_values and input_shape vectors (ranks only)."""
    c.with_rank(c.input("input_indices"), 2)
    c.with_rank(c.input("input_values"), 1)
    c.with_rank(c.input("input_shape"), 1)


@register("MatrixSolve")
def _matrix_solve(c: Ctx) -> None:
    """MatrixSolveShapeFn(square): matrix a batch of square matrices (MakeBatchSquareMatrix), rhs of
    rank >= 2, the batch shapes merged, then the rows."""
    a = c.with_rank_at_least(c.input("matrix"), 2)
    n = c.merge_dim(c.dim(a, -2), c.dim(a, -1))
    b = c.with_rank_at_least(c.input("rhs"), 2)
    c.merge(c.subshape(a, 0, -2), c.subshape(b, 0, -2))
    # (the rows of the merged square matrix: [?, 3] has 3 rows; fuzz20 sig seed 2520261203 #188)
    c.merge_dim(n, c.dim(b, -2))


@register("LowerBound", "UpperBound")
def _bounds(c: Ctx) -> None:
    """sorted_inputs and values matrices (their leading dimensions are the kernel's check)."""
    c.with_rank(c.input("sorted_inputs"), 2)
    c.with_rank(c.input("values"), 2)


@register("SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN")
def _sparse_segment(c: Ctx) -> None:
    """SparseSegmentReductionShapeFn: data of rank >= 1, indices and segment_ids vectors merged."""
    c.with_rank_at_least(c.input("data"), 1)
    i = c.with_rank(c.input("indices"), 1)
    s = c.with_rank(c.input("segment_ids"), 1)
    c.merge(i, s)


@register("SparseSegmentSumWithNumSegments", "SparseSegmentMeanWithNumSegments", "SparseSegmentSqrtNWithNumSegments")
def _sparse_segment_num(c: Ctx) -> None:
    """SparseSegmentReductionWithNumSegmentsShapeFn: data of rank >= 1, indices and segment_ids
    vectors, num_segments a scalar, then indices and segment_ids merged."""
    c.with_rank_at_least(c.input("data"), 1)
    i = c.with_rank(c.input("indices"), 1)
    s = c.with_rank(c.input("segment_ids"), 1)
    c.with_rank(c.input("num_segments"), 0)
    c.merge(i, s)
    n = c.value("num_segments")   # (a known negative count; fuzz20 sig seed 3020261205 #129)
    if n is not None and int(n) < 0:
        c.fail("Cannot specify a negative value for num_segments")


@register("SparseSegmentMeanGrad", "SparseSegmentSqrtNGrad", "SparseSegmentSumGrad")
def _sparse_segment_grad(c: Ctx) -> None:
    """SparseSegmentReductionGradShapeFn: grad of rank >= 1, indices a vector merged with
    segment_ids, output_dim0 a scalar."""
    c.with_rank_at_least(c.input("grad"), 1)
    i = c.with_rank(c.input("indices"), 1)
    c.merge(c.input("segment_ids"), i)
    c.with_rank(c.input("output_dim0"), 0)


@register("HistogramFixedWidth")
def _histogram(c: Ctx) -> None:
    """math_ops.cc: value_range a vector of 2, nbins a scalar, and a known nbins positive
    ("Requires nbins > 0: 0"; fz29b, fourteenth generator seed 1420292901 #144)."""
    r = c.with_rank(c.input("value_range"), 1)
    c.with_value(r[0], 2)
    c.with_rank(c.input("nbins"), 0)
    n = c.value("nbins")
    if n is not None and int(np.asarray(n).reshape(-1)[0]) <= 0:
        c.fail(f"Requires nbins > 0: {int(np.asarray(n).reshape(-1)[0])}")


@register("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic", "ResizeArea")
def _resize(c: Ctx) -> None:
    """ResizeShapeFn: images of rank 4, size a vector of 2 (SetOutputToSizedImage)."""
    c.with_rank(c.input("images"), 4)
    _sized_image(c, "size")


@register("SparseDenseCwiseDiv", "SparseDenseCwiseMul", "SparseDenseCwiseAdd")
def _sparse_dense_cwise(c: Ctx) -> None:
    """sp_indices a matrix (the other ranks are the kernel's check)."""
    c.with_rank(c.input("sp_indices"), 2)


@register("ResizeBilinearGrad", "ResizeBicubicGrad")
def _resize_image_grad(c: Ctx) -> None:
    """image_ops.cc: the output is original_image's shape, nothing checked (so a kernel's refusal of
    the ranks is InvalidArgumentError when the graph runs; fz22: fuzz20 SEEN seed 2020261201 #42,
    #46)."""


@register("CropAndResizeGradImage")
def _crop_and_resize_grad_image(c: Ctx) -> None:
    """image_ops.cc: the output shape made from image_size (MakeShapeFromShapeTensor: a vector, each
    known value -1 or non-negative), of rank 4; the other inputs are the kernel's checks."""
    out = c.shape_from_tensor("image_size")
    c.with_rank(out, 4)


@register("BandedTriangularSolve")
def _banded_triangular_solve(c: Ctx) -> None:
    """BandedTriangularSolveShapeFn (linalg_ops.cc): both of rank >= 2; a known band count K
    positive and at most a known M; the batch shapes broadcast (BroadcastBinaryOpOutputShapeFnHelper);
    M merged with rhs's rows."""
    lhs = c.with_rank_at_least(c.input("matrix"), 2)
    rhs = c.with_rank_at_least(c.input("rhs"), 2)
    k, m = c.dim(lhs, -2), c.dim(lhs, -1)
    if k is not None and k <= 0:
        c.fail(f"Number of bands must be positive, but is {k}")
    if k is not None and m is not None and k > m:
        c.fail(f"Number of bands {k} cannot exceed the size of the matrix {m}")
    c.broadcast(c.subshape(lhs, 0, -2), c.subshape(rhs, 0, -2))
    c.merge_dim(m, c.dim(rhs, -2))


@register("RandomIndexShuffle")
def _random_index_shuffle(c: Ctx) -> None:
    """StatelessRandomPermuteShape (random_index_shuffle_ops.cc): index and max_index of rank <= 1,
    seed of rank 1 or 2 whose last dimension is 3 (InferenceContext::Value of an unknown one is -1,
    so refused); then, where the output must be a vector, the known batch sizes of index, seed rows
    and max_index agreeing where more than 1."""
    ish = c.with_rank_at_most(c.input("index"), 1)
    ssh = c.with_rank_at_most(c.with_rank_at_least(c.input("seed"), 1), 2)
    msh = c.with_rank_at_most(c.input("max_index"), 1)

    def value(s: list, i: int) -> int:
        return -1 if s[i] is None else int(s[i])

    ir, sr, mr = (-1 if s is None else len(s) for s in (ish, ssh, msh))
    if sr == 1 and value(ssh, 0) != 3:
        c.fail(f"Seed must have shape [3] or [n, 3] but got [{value(ssh, 0)}].")
    if sr == 2 and value(ssh, 1) != 3:
        c.fail(f"Seed must have shape [3] or [n, 3] but got [{value(ssh, 0)}, {value(ssh, 1)}].")
    if (ir == 0 and sr == 1 and mr == 0) or not (ir == 1 or sr == 2 or mr == 1):
        return
    n = value(ish, 0) if ir == 1 else -1
    if sr == 2:
        seeds = value(ssh, 0)
        if n == -1:
            n = seeds
        elif n > 1 and seeds != -1 and seeds > 1 and seeds != n:
            c.fail(f"Seed has shape [{seeds}, 3] but must have shape [{n}, 3]. since index had shape [{n}].")
    if mr == 1:
        m = value(msh, 0)
        if n == -1:
            n = m
        elif n > 1 and m != -1 and m > 1 and m != n:
            c.fail(f"Max index has shape [{m}] but must have shape [{n}].")


@register("MatrixTriangularSolve")
def _matrix_triangular_solve(c: Ctx) -> None:
    """MatrixTriangularSolveShapeFn (linalg_ops.cc): matrix a batch of square matrices
    (MakeBatchSquareMatrix), rhs of rank >= 2, the batch shapes broadcast, M merged with rhs' rows
    (fuzz20 seed 2320261202 #21)."""
    a = c.batch_square(c.input("matrix"))
    b = c.with_rank_at_least(c.input("rhs"), 2)
    c.broadcast(c.subshape(a, 0, -2), c.subshape(b, 0, -2))
    c.merge_dim(c.dim(a, -1), c.dim(b, -2))


@register("SparseCountSparseOutput")
def _sparse_count(c: Ctx) -> None:
    """SparseCountSparseOutputShapeFn (count_ops.cc): indices a matrix (the rest: the kernel, #35)."""
    c.with_rank(c.input("indices"), 2)


@register("DenseBincount")
def _dense_bincount(c: Ctx) -> None:
    """math_ops.cc: input of rank <= 2, size a scalar, a known size non-negative (fuzz20 sig seed
    2520261203 #102)."""
    c.with_rank_at_most(c.input("input"), 2)
    c.with_rank(c.input("size"), 0)
    v = c.value("size")
    if v is not None and int(np.asarray(v).reshape(())) < 0:
        c.fail(f"size ({int(np.asarray(v).reshape(()))}) must be non-negative")


@register("ShardedFilename", "ShardedFilespec")
def _sharded_names(c: Ctx) -> None:
    """io_ops.cc: every input a scalar (observed on TF 2.21: "Shape must be rank 0 but is rank 1" at trace)."""
    for name in ("basename", "shard", "num_shards"):
        try:
            s = c.input(name)
        except KeyError:   # (ShardedFilespec has no shard)
            continue
        c.with_rank(s, 0)


@register("SparseBincount")
def _sparse_bincount(c: Ctx) -> None:
    """math_ops.cc: size a scalar (observed on TF 2.21: a vector size is ValueError at trace; the sparse tensor's
    own ranks are the kernel's when the graph runs)."""
    c.with_rank(c.input("size"), 0)
