"""Eigen's SelfAdjointEigenSolver as TF's SelfAdjointEigV2 kernel runs it (linalg/self_adjoint_eig_v2_op_impl.h
builds `Eigen::SelfAdjointEigenSolver<Matrix>` on each matrix), transcribed from the Eigen headers of TF
2.21's wheel (Eigenvalues/SelfAdjointEigenSolver.h, Tridiagonalization.h, Householder/Householder.h and
HouseholderSequence.h, Jacobi/Jacobi.h), step by step in the input's precision:

1. the lower triangle, scaled by its largest |entry| (1 when all are zero);
2. Householder tridiagonalization in place (`tridiagonalization_inplace`: for each column the reflector of
   its part below the diagonal, the Hermitian product with the trailing block's lower triangle, the
   correction `-h/2 (w·v) v` and the rank-2 update of the lower triangle);
3. Q accumulated in place from the reflectors, last first (`HouseholderSequence::evalTo`, in-place branch);
4. implicit symmetric QR steps with Wilkinson's shift on the real tridiagonal (`tridiagonal_qr_step`; a
   subdiagonal entry is zero once `(e/eps)^2 <= |d_i| + |d_i+1|`), Q updated by each Givens rotation, at
   most 30·n steps (else no convergence: TF's InvalidArgumentError);
5. the eigenvalues sorted ascending by selection (the first minimum swapped forward, its vector with it),
   scaled back.

So the eigenvectors' signs (complex: phases) and the eigenvalues' order are TF's, which LAPACK's (NumPy's
eigh) are not: LAPACK chose another sign for some column of 54 of 60 random matrices. Values are TF's within
rounding: the dot products and the Hermitian product run in order, where Eigen's SIMD reductions pair
elements differently. Clause ops.linalg-spectral.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import householder
from simdist.runtime.ops.eigen_visitors import first_min
from simdist.runtime.ops.real_eigen import _givens_real

__all__ = ["selfadjoint_eig"]

_MAX_ITERATIONS = 30   # SelfAdjointEigenSolver::m_maxIterations


def _tridiagonalize(mat: np.ndarray) -> np.ndarray:
    """tridiagonalization_inplace(matA, hCoeffs): mat's lower part becomes the tridiagonal's diagonal and
    subdiagonal with each reflector's essential part below; returns the reflectors' coefficients."""
    ct = mat.dtype.type
    n = mat.shape[0]
    hcoeffs = np.zeros(max(n - 1, 0), mat.dtype)
    for i in range(n - 1):
        ess, h, beta = householder.make(mat[i + 1:, i].copy(), ct)
        mat[i + 2:, i] = ess
        mat[i + 1, i] = ct(1)
        v = mat[i + 1:, i].copy()
        blk = mat[i + 1:, i + 1:]
        x = (ct(np.conj(h)) * v).astype(ct)
        # selfadjointView<Lower>() * x: the lower triangle and its adjoint, the diagonal's real part only
        # (SelfadjointMatrixVector.h: numext::real(A(j, j)); a complex input's imaginary diagonal is unread:
        # fz35a, sig seed 3520261211 #157)
        low = np.tril(blk, -1) + np.diag(np.real(np.diagonal(blk))).astype(ct)
        w = (low @ x + np.conj(np.tril(blk, -1)).T @ x).astype(ct)
        # += (conj(h) * -0.5 * w.dot(v)) * v  (Eigen's dot conjugates its first operand)
        d = ct(np.sum(np.conj(w) * v))
        w = (w + (ct(ct(np.conj(h)) * ct(-0.5)) * d) * v).astype(ct)
        # rankUpdate(v, w, -1) on the lower triangle, column by column:
        # col(j)[j:] += (conj(-1) conj(v_j)) w[j:] + (-1 conj(w_j)) v[j:]
        # (each entry's sum formed, then added: Eigen's `col += a * w + b * v`)
        upd = (w[:, None] * (-np.conj(v))[None, :] + v[:, None] * (-np.conj(w))[None, :]).astype(ct)
        lo = np.tril_indices(n - i - 1)
        blk[lo] = blk[lo] + upd[lo]
        mat[i + 1, i] = ct(beta)
        hcoeffs[i] = h
    return hcoeffs


def _accumulate_q(mat: np.ndarray, hcoeffs: np.ndarray) -> None:
    """HouseholderSequence(mat, hCoeffs.conjugate()).setLength(n - 1).setShift(1).evalTo(mat): Q in place."""
    ct = mat.dtype.type
    n = mat.shape[0]
    ess_of = [mat[k + 2:, k].copy() for k in range(n - 1)]
    np.fill_diagonal(mat, ct(1))
    mat[np.triu_indices(n, 1)] = 0
    for k in range(n - 2, -1, -1):
        householder.apply_left(mat[k + 1:, k + 1:], ess_of[k], ct(np.conj(hcoeffs[k])))
        mat[k + 1:, k] = 0


def _qr_step(diag: np.ndarray, sub: np.ndarray, start: int, end: int, q: np.ndarray | None) -> None:
    """tridiagonal_qr_step: one implicit QR step with Wilkinson's shift on diag[start:end+1]."""
    rt = diag.dtype.type
    td = (diag[end - 1] - diag[end]) * rt(0.5)
    e = sub[end - 1]
    mu = diag[end]
    if td == 0:
        mu = mu - abs(e)
    elif e != 0:
        e2 = e * e
        h = rt(np.hypot(td, e))
        if e2 == 0:
            mu = mu - e / ((td + (h if td > 0 else -h)) / e)
        else:
            mu = mu - e2 / (td + (h if td > 0 else -h))
    x = diag[start] - mu
    z = sub[start]
    k = start
    while k < end and z != 0:
        c, s = _givens_real(x, z)
        c, s = rt(c), rt(s)
        sdk = s * diag[k] + c * sub[k]
        dkp1 = s * sub[k] + c * diag[k + 1]
        diag[k] = c * (c * diag[k] - s * sub[k]) - s * (c * sub[k] - s * diag[k + 1])
        diag[k + 1] = s * sdk + c * dkp1
        sub[k] = c * sdk - s * dkp1
        if k > start:
            sub[k - 1] = c * sub[k - 1] - s * z
        x = sub[k]
        if k < end - 1:
            z = -s * sub[k + 1]
            sub[k + 1] = c * sub[k + 1]
        if q is not None:   # q.applyOnTheRight(k, k+1, rot): columns (c x - s y, s x + c y)
            xk, yk = q[:, k].copy(), q[:, k + 1].copy()
            q[:, k] = c * xk - s * yk
            q[:, k + 1] = s * xk + c * yk
        k += 1


def selfadjoint_eig(a: np.ndarray, compute_v: bool) -> tuple[np.ndarray, np.ndarray | None, bool]:
    """(eigenvalues ascending in the real dtype, eigenvectors as columns or None, converged) of one
    square real or complex matrix, of which only the lower triangle is read."""
    ct = a.dtype.type
    rt = np.float32 if a.dtype in (np.float32, np.complex64) else np.float64
    n = a.shape[0]
    if n == 1:
        return np.array([np.real(a[0, 0])], rt), (np.ones((1, 1), a.dtype) if compute_v else None), True
    mat = np.tril(a).astype(a.dtype)
    scale = rt(np.max(np.abs(mat))) if n else rt(1)
    if scale == 0:
        scale = rt(1)
    mat = (np.tril(mat) / ct(scale)).astype(a.dtype)
    hcoeffs = _tridiagonalize(mat)
    diag = np.real(np.diagonal(mat)).astype(rt).copy()
    sub = np.real(np.diagonal(mat, -1)).astype(rt).copy()
    q = None
    if compute_v:
        _accumulate_q(mat, hcoeffs)
        q = mat
    tiny = rt(np.finfo(rt).tiny)
    precision_inv = rt(1) / rt(np.finfo(rt).eps)
    end, start, it = n - 1, 0, 0
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        while end > 0:
            for i in range(start, end):
                if abs(sub[i]) < tiny:
                    sub[i] = 0
                else:
                    scaled = precision_inv * sub[i]
                    if scaled * scaled <= abs(diag[i]) + abs(diag[i + 1]):
                        sub[i] = 0
            while end > 0 and sub[end - 1] == 0:
                end -= 1
            if end <= 0:
                break
            it += 1
            if it > _MAX_ITERATIONS * n:
                break
            start = end - 1
            while start > 0 and sub[start - 1] != 0:
                start -= 1
            _qr_step(diag, sub, start, end, q)
    ok = it <= _MAX_ITERATIONS * n
    if ok:
        for i in range(n - 1):
            k = first_min(diag[i:])
            if k > 0:
                diag[i], diag[k + i] = diag[k + i], diag[i]
                if q is not None:
                    q[:, [i, k + i]] = q[:, [k + i, i]]
    return (diag * scale).astype(rt), q, ok
