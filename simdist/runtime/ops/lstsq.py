"""tf.linalg.lstsq (tf.linalg.matrix_solve_ls): least squares, as TF 2.21's linalg_ops.py runs it.

With fast=True and a tensor that fits TF's cache guess (size in bytes ≤ 256000, or a batch no
larger than min(M, N)), TF composes the solution of public ops — the normal equations
(AᴴA + λI)⁻¹AᴴB when M ≥ N, else Aᴴ(AAᴴ + λI)⁻¹B, by Cholesky and cholesky_solve — so values,
dtypes, errors and gradients are those ops'. Otherwise it runs the MatrixSolveLs kernel: the same
normal equations (Cholesky failure: InvalidArgumentError), or for fast=False a complete orthogonal
decomposition (the minimum-norm solution; simdist: LAPACK's gelsd, which gives the same solution
within float rounding); its gradient is linalg_grad.py's _MatrixSolveLsGrad (ValueError for
fast=False).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import args, dispatch, infer_ctx
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.linalg_more import _PER_MATRIX, _linalg_rule
from simdist.runtime.ops.registry import RegisterGradient, register
from simdist.runtime.tensor import Tensor

__all__ = ["lstsq"]

_L2_CACHE_SIZE_GUESSTIMATE = 256000


def _solve_ls(a: np.ndarray, b: np.ndarray, l2: np.ndarray, fast: bool = True) -> np.ndarray:
    """MatrixSolveLs's kernel: LinearAlgebraOp's input checks, then ComputeMatrix over the batch.
    (In a graph its shape function runs first, at trace: `MATRIX_SOLVE_LS.trace_shape`.)"""
    sa, sb = a.shape, b.shape
    if len(sa) < 2 or len(sb) < 2:
        i = 0 if len(sa) < 2 else 1
        raise errors.InvalidArgumentError(None, None, f"Input tensor {i} must have rank >= 2, got {len((sa, sb)[i])} "
                                          "[Op:MatrixSolveLs]")
    if sa[:-2] != sb[:-2]:
        raise errors.InvalidArgumentError(None, None, "All input tensors must have the same outer dimensions. "
                                          "[Op:MatrixSolveLs]")
    if sa[-2] != sb[-2]:
        raise errors.InvalidArgumentError(None, None, "Input matrix and right-hand side must have the same number "
                                          "of rows. [Op:MatrixSolveLs]")
    if np.ndim(l2) != 0:
        raise errors.InvalidArgumentError(None, None, f"l2_regularizer must be scalar, got shape {list(np.shape(l2))} "
                                          "[Op:MatrixSolveLs]")
    lam = float(l2)
    if lam < 0:
        raise errors.InvalidArgumentError(None, None, "l2_regularizer must be >= 0. [Op:MatrixSolveLs]")
    m, n = a.shape[-2:]
    k = b.shape[-1]
    batch = a.shape[:-2]
    out = np.zeros(batch + (n, k), a.dtype)
    if 0 in (m, n, b.shape[-2], k):
        return out
    aa, bb, oo = a.reshape((-1, m, n)), b.reshape((-1, m, k)), out.reshape((-1, n, k))
    for i in range(aa.shape[0]):
        x, y = aa[i], bb[i]
        if not fast:
            if not np.all(np.isfinite(x)):
                # (Eigen's CompleteOrthogonalDecomposition: a NaN or infinite entry leaves no pivot above
                # the rank threshold, rank 0, and the solution is zeros whatever the rhs; measured on
                # TF 2.21 for float32/float64, fz31b, fourteenth generator seed 1420313004 #40)
                oo[i] = 0
                continue
            oo[i] = np.linalg.lstsq(x, y, rcond=None)[0].astype(a.dtype)
            continue
        over = m >= n
        gram = x.T @ x if over else x @ x.T
        if lam > 0:
            gram = gram + np.asarray(lam, a.dtype) * np.eye(gram.shape[0], dtype=a.dtype)
        try:
            chol = np.linalg.cholesky(np.tril(gram) + np.tril(gram, -1).T)
        except np.linalg.LinAlgError:
            raise errors.InvalidArgumentError(
                None, None, "Input matrix was rank deficient or ill-conditioned. Try setting fast=False or provide "
                + ("a larger l2_regularizer > 0." if over else "an l2_regularizer > 0.") + " [Op:MatrixSolveLs]") \
                from None
        rhs = x.T @ y if over else y
        z = np.linalg.solve(chol.T, np.linalg.solve(chol, rhs))
        oo[i] = (z if over else x.T @ z).astype(a.dtype)
    return out


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    """TF's GetCostPerUnit per matrix: max(m, n)·min(m, n)·(min(m, n) + rhs columns)."""
    m, n = arrays[0].shape[-2:]
    k = arrays[1].shape[-1]
    return float(int(np.prod(arrays[0].shape[:-2], dtype=np.int64)) * max(m, n) * min(m, n) * (min(m, n) + k))


_RULE = _linalg_rule("MatrixSolveLs")


def _dtype_rule(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[2] != dtypes.float64:
        raise errors.InvalidArgumentError(None, None, f"cannot compute MatrixSolveLs as input #2(zero-based) was "
                                          f"expected to be a double tensor but is a {dts[2].name} tensor "
                                          "[Op:MatrixSolveLs]")
    return _RULE(dts[:2], attrs)


MATRIX_SOLVE_LS = register("MatrixSolveLs", _solve_ls, _dtype_rule, _flops, kind="contraction", fusion=_PER_MATRIX)
# (its shape function at trace: an rhs of rank 0 is ValueError "Shape must be at least rank 2 but is
# rank 0" in a tf.function, whatever the matrix's rank; fz27b, fz14 seed 1420272701 #91)
MATRIX_SOLVE_LS.trace_shape = infer_ctx.trace_shape("MatrixSolveLs")


def _regularized_gramian_cholesky(matrix: Tensor, l2_regularizer: Any, first_kind: bool) -> Tensor:
    """linalg_ops._RegularizedGramianCholesky: cholesky(AᴴA + λI) (first kind) or cholesky(AAᴴ + λI)."""
    from simdist.runtime.ops.generators import eye
    from simdist.runtime.ops.linalg import matmul
    from simdist.runtime.ops.linalg_more import cholesky
    gramian = matmul(matrix, matrix, adjoint_a=first_kind, adjoint_b=not first_kind)
    if isinstance(l2_regularizer, Tensor) or l2_regularizer != 0:
        shp = matrix.shape.as_list()
        small = shp[-1] if first_kind else shp[-2]
        gramian = gramian + l2_regularizer * eye(small, batch_shape=shp[:-2], dtype=matrix.dtype)
    return cholesky(gramian)


@RegisterGradient("MatrixSolveLs")
def _matrix_solve_ls_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import math
    from simdist.runtime.ops.linalg import matmul, matrix_transpose
    from simdist.runtime.ops.linalg_more import cholesky_solve
    if op.get_attr("fast") is False:
        raise ValueError("Gradient not defined for fast=False")
    a, b = op.inputs[0], op.inputs[1]
    lam = math.cast(op.inputs[2], a.dtype)
    m, n = a.shape.as_list()[-2:]
    if m >= n:
        x = op.outputs[0]
        chol = _regularized_gramian_cholesky(a, lam, True)
        z = cholesky_solve(chol, grad)
        xzt = matmul(x, z, adjoint_b=True)
        zx_sym = xzt + matrix_transpose(xzt)
        return [-matmul(a, zx_sym) + matmul(b, z, adjoint_b=True), matmul(a, z), None]
    chol = _regularized_gramian_cholesky(a, lam, False)
    grad_b = cholesky_solve(chol, matmul(a, grad))
    tmp = cholesky_solve(chol, b)
    a1 = -matmul(grad_b, matmul(tmp, a, adjoint_a=True))
    a2 = matmul(tmp, grad - matmul(a, grad_b, adjoint_a=True), adjoint_b=True)
    return [a1 + a2, grad_b, None]


def _use_composite(fast: bool, matrix: Tensor) -> bool:
    if fast is False:
        return False
    shp = matrix.shape.as_list()
    size = int(np.prod(shp, dtype=np.int64)) * matrix.dtype.size
    io_bound = int(np.prod(shp[:-2], dtype=np.int64)) > min(shp[-2:])
    return not (size > _L2_CACHE_SIZE_GUESSTIMATE and io_bound)


def lstsq(matrix: Any, rhs: Any, l2_regularizer: Any = 0.0, fast: bool = True, name: str | None = None) -> Tensor:
    """`tf.linalg.lstsq`: X minimizing ||matrix·X − rhs||² + λ||X||² for each matrix of the batch
    ([..., M, N] and [..., M, K] → [..., N, K])."""
    from simdist.runtime.ops.array import constant
    from simdist.runtime.ops.linalg import matmul
    from simdist.runtime.ops.linalg_more import cholesky_solve
    a = _t(matrix)
    if _use_composite(fast, a):
        # (rhs is not converted on its own: matmul converts it with the matrix's dtype as its hint, and
        # cholesky_solve's MatrixTriangularSolve beside the factor's tensor, so an int list rhs of a
        # float matrix solves in float32; fz31b, fourteenth generator seed 1420313004 #40)
        b = rhs
        shp = a.shape.as_list()
        if shp[-2] >= shp[-1]:
            chol = _regularized_gramian_cholesky(a, l2_regularizer, True)
            return cholesky_solve(chol, matmul(a, b, adjoint_a=True))
        chol = _regularized_gramian_cholesky(a, l2_regularizer, False)
        return matmul(a, cholesky_solve(chol, b), adjoint_a=True)
    a, b = args.matching([a, rhs], op="MatrixSolveLs", names=("matrix", "rhs"))   # (T shared: gen_linalg_ops)
    lam = l2_regularizer if isinstance(l2_regularizer, Tensor) else constant(l2_regularizer, dtype=dtypes.float64)
    MATRIX_SOLVE_LS.dtype((a.dtype, b.dtype, lam.dtype), None)
    return dispatch.execute(MATRIX_SOLVE_LS, (a, b, lam), {"fast": bool(fast)})
