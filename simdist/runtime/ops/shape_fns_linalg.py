"""Shape functions of the linear-algebra raw ops (tensorflow/core/ops/linalg_ops.cc, TF 2.21) on
infer_ctx's InferenceContext (clause function.trace-time-errors): in a tf.function TF runs them
when the op is created, so a rank or a square check that the graph can decide is a ValueError at
trace (fuzz20 sig seed 2420261204 #19, #54, #99: Qr of a scalar or a vector). MatrixSolve,
MatrixTriangularSolve, BandedTriangularSolve and the tridiagonal ops are in shape_fns_misc.py."""

from __future__ import annotations

from simdist.runtime.ops.infer_ctx import Ctx, register

__all__: list[str] = []


def _batch_square(c: Ctx, s: object) -> object:
    """MakeBatchSquareMatrix: rank >= 2, then Merge(Dim(-2), Dim(-1)) (Ctx.batch_square)."""
    return c.batch_square(s)


@register("MatrixInverse", "MatrixExponential", "MatrixLogarithm", "Cholesky", "MatrixSquareRoot",
          "SelfAdjointEigV2", "Eig", "SelfAdjointEig")
def _batch_unchanged_square(c: Ctx) -> None:
    """BatchUnchangedSquareShapeFn / SelfAdjointEigV2ShapeFn: the input a batch of square matrices."""
    _batch_square(c, c.nth(0))


@register("CholeskyGrad")
def _cholesky_grad(c: Ctx) -> None:
    """BatchUnchangedSquareShapeFn of `l` (grad is the kernel's check)."""
    _batch_square(c, c.input("l"))


@register("MatrixDeterminant", "LogMatrixDeterminant")
def _determinant(c: Ctx) -> None:
    """rank >= 2, then Merge(Dim(-1), Dim(-2)) (the last dimension named first in the message)."""
    s = c.with_rank_at_least(c.input("input"), 2)
    c.merge_dim(c.dim(s, -1), c.dim(s, -2))


@register("Lu")
def _lu(c: Ctx) -> None:
    """LuShapeFn: rank >= 2, Merge(Dim(-2), Dim(-1))."""
    _batch_square(c, c.input("input"))


@register("Qr", "Svd")
def _qr_svd(c: Ctx) -> None:
    """QrShapeFn / SvdShapeFn: rank >= 2 (any matrix)."""
    c.with_rank_at_least(c.input("input"), 2)


@register("MatrixSolveLs")
def _matrix_solve_ls(c: Ctx) -> None:
    """l2_regularizer a scalar, then MatrixSolveShapeFn(square=false): both ranks >= 2, the batch
    shapes merged, the rows merged."""
    c.with_rank(c.input("l2_regularizer"), 0)
    a = c.with_rank_at_least(c.input("matrix"), 2)
    b = c.with_rank_at_least(c.input("rhs"), 2)
    c.merge(c.subshape(a, 0, -2), c.subshape(b, 0, -2))
    c.merge_dim(c.dim(a, -2), c.dim(b, -2))
