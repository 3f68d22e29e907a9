"""tf.linalg.sqrtm (tf.linalg.matrix_square_root, TF's MatrixSquareRoot op): the principal square
root of each innermost square matrix, as Eigen's MatrixBase::sqrt computes it for real matrices
(unsupported/Eigen/src/MatrixFunctions/MatrixSquareRoot.h): a real Schur decomposition
A = U T Uᵀ, the square root of the quasi-triangular T block by block (1×1 diagonal blocks: the
real sqrt, NaN for a negative one; 2×2 blocks of complex-conjugate eigenvalues through their
eigendecomposition; off-diagonal blocks column by column from the diagonal upwards, a division by
sqrtT(i,i) + sqrtT(j,j) that gives ±inf for a singular T), then U·sqrtT·Uᵀ.

simdist takes the Schur form from LAPACK (SciPy's gees; Eigen's RealSchur computes the same
decomposition up to the order and signs of its vectors, so values agree within float rounding) and
transcribes Eigen's block recurrences. The gradient is linalg_grad.py's _MatrixSquareRootGrad
(a Sylvester equation solved through Kronecker products and MatrixSolve), with the public ops.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.linalg_more import _PER_MATRIX, _linalg_rule, _square
from simdist.runtime.ops.registry import RegisterGradient, register
from simdist.runtime.tensor import Tensor

__all__ = ["sqrtm"]


def _block_2x2(t: np.ndarray) -> np.ndarray:
    """Eigen's matrix_sqrt_quasi_triangular_2x2_diagonal_block: Re(V·diag(√λ)·V⁻¹)."""
    lam, v = np.linalg.eig(t.astype(np.complex128))
    return (v @ np.diag(np.sqrt(lam)) @ np.linalg.inv(v)).real


def _solve_small(a: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """Eigen's fullPivLu().solve on a 2×2 or 4×4 system: NaN from a non-finite system (a NaN
    diagonal block: a negative real eigenvalue), a least-squares solution of a singular one."""
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(rhs))):
        return np.full(rhs.shape, np.nan)
    if np.linalg.matrix_rank(a) < a.shape[0]:
        return np.linalg.lstsq(a, rhs, rcond=None)[0]
    return np.linalg.solve(a, rhs)


def _quasi_triangular_sqrt(t: np.ndarray) -> np.ndarray:
    n = t.shape[0]
    r = np.zeros_like(t)
    i = 0
    while i < n:                                           # diagonal blocks
        if i == n - 1 or t[i + 1, i] == 0:
            r[i, i] = np.sqrt(t[i, i])
            i += 1
        else:
            r[i:i + 2, i:i + 2] = _block_2x2(t[i:i + 2, i:i + 2])
            i += 2
    for j in range(1, n):                                  # off-diagonal blocks
        if t[j, j - 1] != 0:
            continue
        for i in range(j - 1, -1, -1):
            if i > 0 and t[i, i - 1] != 0:
                continue
            i2 = i < n - 1 and t[i + 1, i] != 0
            j2 = j < n - 1 and t[j + 1, j] != 0
            if not i2 and not j2:
                tmp = r[i, i + 1:j] @ r[i + 1:j, j]
                r[i, j] = (t[i, j] - tmp) / (r[i, i] + r[j, j])
            elif i2 and not j2:
                rhs = t[i:i + 2, j].copy()
                if j - i > 2:
                    rhs -= r[i:i + 2, i + 2:j] @ r[i + 2:j, j]
                r[i:i + 2, j] = _solve_small(r[j, j] * np.eye(2) + r[i:i + 2, i:i + 2], rhs)
            elif not i2 and j2:
                rhs = t[i, j:j + 2].copy()
                if j - i > 1:
                    rhs -= r[i, i + 1:j] @ r[i + 1:j, j:j + 2]
                r[i, j:j + 2] = _solve_small(r[i, i] * np.eye(2) + r[j:j + 2, j:j + 2].T, rhs)
            else:
                a, b = r[i:i + 2, i:i + 2], r[j:j + 2, j:j + 2]
                c = t[i:i + 2, j:j + 2].copy()
                if j - i > 2:
                    c -= r[i:i + 2, i + 2:j] @ r[i + 2:j, j:j + 2]
                k = np.zeros((4, 4))
                k[0, 0], k[1, 1], k[2, 2], k[3, 3] = a[0, 0] + b[0, 0], a[0, 0] + b[1, 1], a[1, 1] + b[0, 0], \
                    a[1, 1] + b[1, 1]
                k[0, 1], k[0, 2], k[1, 0], k[1, 3] = b[1, 0], a[0, 1], b[0, 1], a[0, 1]
                k[2, 0], k[2, 3], k[3, 1], k[3, 2] = a[1, 0], b[1, 0], a[1, 0], b[0, 1]
                r[i:i + 2, j:j + 2] = _solve_small(k, c.reshape(4)).reshape(2, 2)
    return r


def _triangular_sqrt(t: np.ndarray) -> np.ndarray:
    """The square root R of an upper triangular complex T (R @ R = T): sqrt of the diagonal, then
    each column upward, R[i, j] = (T[i, j] - R[i, i+1:j] @ R[i+1:j, j]) / (R[i, i] + R[j, j])."""
    n = t.shape[0]
    r = np.zeros_like(t)
    for j in range(n):
        r[j, j] = np.sqrt(t[j, j])
        for i in range(j - 1, -1, -1):
            r[i, j] = (t[i, j] - r[i, i + 1:j] @ r[i + 1:j, j]) / (r[i, i] + r[j, j])
    return r


def _sqrtm_one(a: np.ndarray) -> np.ndarray:
    from scipy.linalg import schur
    if not np.all(np.isfinite(a)):   # (complex: NaN + NaN·j, as TF 2.21; fz29b, fz14 seed 1420292903 #37)
        return np.full(a.shape, complex(np.nan, np.nan) if a.dtype.kind == "c" else np.nan, a.dtype)
    if a.dtype.kind == "c":   # complex Schur form: upper triangular, Eigen's matrix_sqrt_triangular
        t, u = schur(a, output="complex")
        with np.errstate(all="ignore"):
            r = _triangular_sqrt(t.astype(a.dtype))
            return (u @ r @ np.conjugate(u.T)).astype(a.dtype)
    t, u = schur(a, output="real")
    with np.errstate(all="ignore"):
        r = _quasi_triangular_sqrt(t)
        return u @ r @ u.T


def _sqrtm(a: np.ndarray) -> np.ndarray:
    n = a.shape[-1]
    out = np.zeros(a.shape, a.dtype)
    if n == 0:
        return out
    flat, oflat = a.reshape((-1, n, n)), out.reshape((-1, n, n))
    for i in range(flat.shape[0]):
        oflat[i] = _sqrtm_one(flat[i])
    return out


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    n = arrays[0].shape[-1]
    return float(int(np.prod(arrays[0].shape[:-2], dtype=np.int64)) * 28 * n ** 3)


MATRIX_SQUARE_ROOT = register("MatrixSquareRoot", _sqrtm, _linalg_rule("MatrixSquareRoot"), _flops,
                              kind="contraction", fusion=_PER_MATRIX)


def _kronecker(b1: Any, b2: Any) -> Any:
    """_MatrixSquareRootGrad's _KroneckerProduct of two batches of square matrices."""
    from simdist.runtime.ops.array import reshape
    s = b1.shape.as_list()
    o1, o2 = s[-1], b2.shape.as_list()[-1]
    r1 = reshape(b1, s[:-2] + [o1, 1, o1, 1])
    r2 = reshape(b2, s[:-2] + [1, o2, 1, o2])
    return reshape(r1 * r2, s[:-2] + [o1 * o2, o1 * o2])


@RegisterGradient("MatrixSquareRoot")
def _matrix_square_root_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.array import reshape
    from simdist.runtime.ops.generators import eye
    from simdist.runtime.ops.linalg import matrix_transpose
    from simdist.runtime.ops.linalg_more import solve
    r = op.outputs[0]
    shape = r.shape.as_list()
    order = shape[-1]
    eye_batch = eye(order, batch_shape=shape[:-2], dtype=r.dtype)
    ksum = _kronecker(eye_batch, matrix_transpose(r)) + _kronecker(r, eye_batch)
    vec_da = reshape(matrix_transpose(grad), shape[:-2] + [order * order, 1])
    vec_dsqrtm = solve(ksum, vec_da)
    return [matrix_transpose(reshape(vec_dsqrtm, shape))]


def sqrtm(input: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.linalg.sqrtm`: the principal square root of each innermost square matrix (NaN where a
    real one does not exist)."""
    x = _t(input)
    try:
        MATRIX_SQUARE_ROOT.dtype((x.dtype,), None)
    except errors.NotFoundError:   # (no kernel for the op def's half: a graph's shape function runs
        if context.in_function():  # first, before the kernel is sought; fz14 seed 1420261202 #522)
            _square(x, "MatrixSquareRoot")
        raise
    _square(x, "MatrixSquareRoot")
    return dispatch.execute(MATRIX_SQUARE_ROOT, (x,))
