"""Eigen's JacobiSVD as TF's Svd kernel runs it on matrices of fewer than 16 columns
(linalg/svd_op_impl.h builds `Eigen::BDCSVD<Matrix>`, whose compute hands a matrix with fewer columns
than its algoswap, 16, to a JacobiSVD with the default ColPivHouseholderQR preconditioner), transcribed
from the Eigen headers of TF 2.21's wheel (SVD/JacobiSVD.h, SVD/BDCSVD.h, QR/ColPivHouseholderQR.h,
Householder/HouseholderSequence.h, Jacobi/Jacobi.h), step by step in the input's precision:

1. the matrix scaled by its largest |entry| (a non-finite one: InvalidInput, so TF's NaN outputs);
2. a non-square matrix reduced to a square one by column-pivoting Householder QR (of its adjoint when it
   is wide): the work matrix is R (R^*), U (V) the QR's Q, full or thin, V (U) the column permutation;
3. sweeps of two-sided Jacobi rotations over the pairs (p, q), q < p, until every off-diagonal pair is
   within 2·eps of the largest diagonal entry (a complex pair made real first), the rotations accumulated
   into U and V;
4. the diagonal made non-negative (U's column negated, or turned by the entry's phase), scaled back, and
   sorted descending by selection (the first maximum swapped forward, its columns with it), stopping at
   the first zero.

So the singular vectors' signs (complex: phases) are TF's, which LAPACK's (NumPy's svd) are not: LAPACK
chose another sign for some pair of about half of random matrices. Values are TF's within rounding (the
dot products run in order, where Eigen's SIMD reductions pair elements differently). Clause
ops.linalg-spectral.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import householder
from simdist.runtime.ops.eigen_visitors import first_max

__all__ = ["jacobi_svd", "MAX_COLS"]


def _ftz(x: np.ndarray, rt: type) -> np.ndarray:
    """The scaled matrix as TF's kernel has it under FTZ: a quotient below the smallest normal is a
    signed zero (an entry 2e38 below the largest: `svd([[7, 0.5], [-3.4e38, -1.5]])` of float32 has
    singular values [3.4e38, 0]; fz36b, fz14 seed 1420363005 #60), complex numbers part by part."""
    tiny = rt(np.finfo(rt).tiny)
    if x.dtype.kind == "c":
        re, im = _ftz(np.ascontiguousarray(x.real), rt), _ftz(np.ascontiguousarray(x.imag), rt)
        return (re + 1j * im).astype(x.dtype) if (re != x.real).any() or (im != x.imag).any() else x
    small = (np.abs(x) < tiny) & (x != 0)
    if not small.any():
        return x
    return np.where(small, np.copysign(rt(0), x), x).astype(x.dtype)

MAX_COLS = 16   # BDCSVD's m_algoswap: a matrix with fewer columns runs JacobiSVD


def _rotate_rows(m: np.ndarray, p: int, q: int, c: complex, s: complex) -> None:
    """applyOnTheLeft(p, q, (c, s)): rows (c x + conj(s) y, -s x + conj(c) y)."""
    x, y = m[p].copy(), m[q].copy()
    m[p] = c * x + np.conj(s) * y
    m[q] = -s * x + np.conj(c) * y


def _rotate_cols(m: np.ndarray, p: int, q: int, c: complex, s: complex) -> None:
    """applyOnTheRight(p, q, (c, s)): the rotation's transpose (c, -conj(s)) on columns p, q."""
    x, y = m[:, p].copy(), m[:, q].copy()
    m[:, p] = c * x - s * y
    m[:, q] = np.conj(s) * x + np.conj(c) * y


def _norm(v: np.ndarray, rt: type) -> float:
    """VectorBase::norm: the square root of the squared norm."""
    return rt(np.sqrt(rt(np.sum((v.real * v.real + v.imag * v.imag).astype(rt)))))


def _colpiv_qr(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ColPivHouseholderQR::computeInPlace: (the packed QR, the reflectors' coefficients, the column
    permutation as indices: column i of A·P is column perm[i] of A)."""
    qr = a.copy()
    ct = qr.dtype.type
    rt = np.float32 if qr.dtype in (np.float32, np.complex64) else np.float64
    rows, cols = qr.shape
    size = min(rows, cols)
    hcoeffs = np.zeros(size, qr.dtype)
    direct = np.array([_norm(qr[:, k], rt) for k in range(cols)], rt)
    updated = direct.copy()
    threshold = rt(np.sqrt(np.finfo(rt).eps))
    perm = np.arange(cols)
    for k in range(size):
        big = k + first_max(updated[k:])
        if big != k:
            qr[:, [k, big]] = qr[:, [big, k]]
            updated[[k, big]] = updated[[big, k]]
            direct[[k, big]] = direct[[big, k]]
            perm[[k, big]] = perm[[big, k]]
        ess, h, beta = householder.make(qr[k:, k].copy(), ct)
        qr[k + 1:, k] = ess
        hcoeffs[k] = h
        qr[k, k] = ct(beta)
        householder.apply_left(qr[k:, k + 1:], qr[k + 1:, k].copy(), h)
        for j in range(k + 1, cols):
            if updated[j] != 0:
                temp = rt(abs(qr[k, j])) / updated[j]
                temp = (rt(1) + temp) * (rt(1) - temp)
                temp = max(temp, rt(0))
                ratio = updated[j] / direct[j]
                temp2 = temp * (ratio * ratio)
                if temp2 <= threshold:
                    direct[j] = _norm(qr[k + 1:, j], rt)
                    updated[j] = direct[j]
                else:
                    updated[j] = updated[j] * rt(np.sqrt(temp))
    return qr, hcoeffs, perm


def _q_of(qr: np.ndarray, hcoeffs: np.ndarray, ncols: int) -> np.ndarray:
    """householderQ() with the reflectors' coefficients conjugated, evaluated to its first `ncols`
    columns: evalTo for all of them (the identity's bottom-right corners, last reflector first), else
    applyThisOnTheLeft to the thin identity (its bottom rows, last reflector first)."""
    ct = qr.dtype.type
    rows = qr.shape[0]
    out = np.eye(rows, ncols, dtype=qr.dtype)
    for k in range(len(hcoeffs) - 1, -1, -1):
        tau = ct(np.conj(hcoeffs[k]))
        blk = out[k:, k:] if ncols == rows else out[k:, :]
        householder.apply_left(blk, qr[k + 1:, k].copy(), tau)
    return out


def _makejacobi(x: float, y: float, z: float, rt: type) -> tuple[float, float]:
    """JacobiRotation::makeJacobi(x, y, z) for real y: (c, s)."""
    deno = rt(2) * abs(y)
    if deno < np.finfo(rt).tiny:
        return rt(1), rt(0)
    tau = (x - z) / deno
    w = rt(np.sqrt(tau * tau + rt(1)))
    t = rt(1) / (tau + w) if tau > 0 else rt(1) / (tau - w)
    sign_t = rt(1) if t > 0 else rt(-1)
    n = rt(1) / rt(np.sqrt(t * t + rt(1)))
    return n, -sign_t * (y / abs(y)) * abs(t) * n


def _real_2x2(w: np.ndarray, p: int, q: int, rt: type) -> tuple[tuple, tuple]:
    """real_2x2_jacobi_svd: (j_left, j_right) as (c, s) pairs."""
    m = np.array([[w[p, p].real, w[p, q].real], [w[q, p].real, w[q, q].real]], rt)
    t = m[0, 0] + m[1, 1]
    d = m[1, 0] - m[0, 1]
    if abs(d) < np.finfo(rt).tiny:
        c1, s1 = rt(1), rt(0)
    else:
        u = t / d
        tmp = rt(np.sqrt(rt(1) + u * u))
        c1, s1 = u / tmp, rt(1) / tmp
    _rotate_rows(m, 0, 1, c1, s1)
    cr, sr = _makejacobi(m[0, 0], m[0, 1], m[1, 1], rt)
    # rot1 * j_right.transpose(): (c1 c2 - s1 s2, c1 s2 + s1 c2) with (c2, s2) = (cr, -sr)
    c2, s2 = cr, -sr
    return (c1 * c2 - s1 * s2, c1 * s2 + s1 * c2), (cr, sr)


def _precondition_complex(w: np.ndarray, u: np.ndarray | None, v: np.ndarray | None, p: int, q: int,
                          maxdiag: float, rt: type) -> tuple[bool, float]:
    """svd_precondition_2x2_block_to_be_real (complex): makes the pair's block real; (whether it is still
    not diagonal, the largest diagonal entry)."""
    ct = w.dtype.type
    tiny = np.finfo(rt).tiny
    a, b = w[p, p], w[q, p]
    n = rt(np.sqrt(rt(a.real * a.real + a.imag * a.imag) + rt(b.real * b.real + b.imag * b.imag)))   # (abs2)
    if n == 0:
        w[p, p] = w[q, p] = 0
        if abs(w[p, q].imag) > tiny:
            z = ct(abs(w[p, q]) / w[p, q])
            w[p] *= z
            if u is not None:
                u[:, p] *= np.conj(z)
        if abs(w[q, q].imag) > tiny:
            z = ct(abs(w[q, q]) / w[q, q])
            w[q] *= z
            if u is not None:
                u[:, q] *= np.conj(z)
    else:
        c, s = ct(np.conj(w[p, p]) / n), ct(w[q, p] / n)
        _rotate_rows(w, p, q, c, s)
        if u is not None:
            _rotate_cols(u, p, q, ct(np.conj(c)), ct(-s))
        if abs(w[p, q].imag) > tiny:
            z = ct(abs(w[p, q]) / w[p, q])
            w[:, q] *= z
            if v is not None:
                v[:, q] *= z
        if abs(w[q, q].imag) > tiny:
            z = ct(abs(w[q, q]) / w[q, q])
            w[q] *= z
            if u is not None:
                u[:, q] *= np.conj(z)
    maxdiag = max(maxdiag, rt(abs(w[p, p])), rt(abs(w[q, q])))
    threshold = max(tiny, rt(np.finfo(rt).eps) * maxdiag)
    return bool(abs(w[p, q]) > threshold or abs(w[q, p]) > threshold), maxdiag


def jacobi_svd(a: np.ndarray, compute_uv: bool, full_matrices: bool
               ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None, bool]:
    """(singular values descending, U or None, V or None, valid) of one finite-sized matrix with fewer
    than MAX_COLS columns; `valid` is False for a non-finite input (TF fills its outputs with NaN)."""
    ct = a.dtype.type
    cplx = a.dtype.kind == "c"
    rt = np.float32 if a.dtype in (np.float32, np.complex64) else np.float64
    rows, cols = a.shape
    diag = min(rows, cols)
    scale = rt(np.max(np.abs(a))) if a.size else rt(0)
    if not np.isfinite(scale):
        return np.zeros(diag, rt), None, None, False
    if scale == 0:
        scale = rt(1)
    x = _ftz((a / ct(scale)).astype(a.dtype), rt)
    u = v = None
    if rows > cols:
        qr, h, perm = _colpiv_qr(x)
        w = np.triu(qr[:cols, :cols]).astype(a.dtype)
        if compute_uv:
            u = _q_of(qr, h, rows if full_matrices else cols)
            v = np.zeros((cols, cols), a.dtype)
            v[perm, np.arange(cols)] = 1
    elif cols > rows:
        qr, h, perm = _colpiv_qr(np.conj(x.T).copy())
        w = np.conj(np.triu(qr[:rows, :rows]).T).astype(a.dtype)
        if compute_uv:
            v = _q_of(qr, h, cols if full_matrices else rows)
            u = np.zeros((rows, rows), a.dtype)
            u[perm, np.arange(rows)] = 1
    else:
        w = x.copy()
        if compute_uv:
            u, v = np.eye(rows, dtype=a.dtype), np.eye(cols, dtype=a.dtype)
    tiny = rt(np.finfo(rt).tiny)
    precision = rt(2) * rt(np.finfo(rt).eps)
    maxdiag = rt(np.max(np.abs(np.diagonal(w)))) if diag else rt(0)
    finished = False
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        while not finished:
            finished = True
            for p in range(1, diag):
                for q in range(p):
                    threshold = max(tiny, precision * maxdiag)
                    if abs(w[p, q]) > threshold or abs(w[q, p]) > threshold:
                        finished = False
                        if cplx:
                            go, maxdiag = _precondition_complex(w, u, v, p, q, maxdiag, rt)
                            if not go:
                                continue
                        (cl, sl), (cr, sr) = _real_2x2(w, p, q, rt)
                        _rotate_rows(w, p, q, ct(cl), ct(sl))
                        if u is not None:
                            _rotate_cols(u, p, q, ct(cl), ct(-sl))   # j_left.transpose()
                        _rotate_cols(w, p, q, ct(cr), ct(sr))
                        if v is not None:
                            _rotate_cols(v, p, q, ct(cr), ct(sr))
                        maxdiag = max(maxdiag, rt(abs(w[p, p])), rt(abs(w[q, q])))
    s = np.zeros(diag, rt)
    for i in range(diag):
        if cplx and abs(w[i, i].imag) > tiny:
            av = rt(abs(w[i, i]))
            s[i] = abs(av)
            if u is not None:
                u[:, i] *= ct(w[i, i] / av)
        else:
            av = rt(w[i, i].real)
            s[i] = abs(av)
            if u is not None and av < 0:
                u[:, i] = -u[:, i]
    s = (s * scale).astype(rt)
    for i in range(diag):
        pos = first_max(s[i:])
        if s[i + pos] == 0:
            break
        if pos:
            pos += i
            s[i], s[pos] = s[pos], s[i]
            if u is not None:
                u[:, [i, pos]] = u[:, [pos, i]]
            if v is not None:
                v[:, [i, pos]] = v[:, [pos, i]]
    return s, u, v, True
