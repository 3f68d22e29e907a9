"""Shape functions of sparse, linalg, random, candidate-sampling and image raw ops
(tensorflow/core/ops/{sparse_ops,linalg_ops,random_ops,candidate_sampling_ops,image_ops}.cc, TF
2.21), on infer_ctx's InferenceContext (clause function.trace-time-errors)."""

from __future__ import annotations


import numpy as np

from simdist.runtime.ops.infer_ctx import Ctx, register

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


