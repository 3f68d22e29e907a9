"""Eigen's EigenSolver eigenvalues as TF's Eig kernel computes them for real matrices
(linalg/eig_op_impl.h picks Eigen::EigenSolver for float and double): RealSchur (the matrix scaled
by its largest |entry|, Householder Hessenberg reduction, Francis double-shift QR steps with
exceptional shifts at iterations 16 and 32 (mod 32), 2x2 blocks of real eigenvalues split by a
Givens rotation, at most 40 iterations per row), then the eigenvalues read off the quasi-triangular
T in its order (a 2x2 block gives (T[i+1,i+1] + p) ± z i). Transcribed from the Eigen headers of
TF 2.21's wheel (Eigenvalues/RealSchur.h, EigenSolver.h), step by step in the input's precision:
the order of the eigenvalues is TF's, the values within rounding. The eigenvectors of a real matrix
(EigenSolver's hqr2 back substitution) are not transcribed: `tf.linalg.eig` of a real matrix is not
in simdist (docs/ops-coverage.md).
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops.complex_eigen import _hessenberg, _householder
from simdist.runtime.ops.contraction_order import dot   # (in order, not BLAS: ops.host-cpu)

__all__ = ["real_eigvals"]


def _givens_real(p: float, q: float) -> tuple[float, float]:
    """JacobiRotation::makeGivens (real): (c, s)."""
    if q == 0:
        return (-1.0 if p < 0 else 1.0), 0.0
    if p == 0:
        return 0.0, (1.0 if q < 0 else -1.0)
    if abs(p) > abs(q):
        t = q / p
        u = np.sqrt(1 + t * t)
        if p < 0:
            u = -u
        c = 1 / u
        return c, -t * c
    t = p / q
    u = np.sqrt(1 + t * t)
    if q < 0:
        u = -u
    s = -1 / u
    return -t * s, s


def _house_left(m: np.ndarray, r0: int, c0: int, nr: int, ess: np.ndarray, tau: float) -> None:
    if tau == 0:
        return
    v = np.concatenate([[1.0], ess]).astype(m.dtype)
    blk = m[r0:r0 + nr, c0:]
    tmp = dot(v, blk)
    blk -= tau * np.outer(v, tmp)


def _house_right(m: np.ndarray, r_end: int, c0: int, nc: int, ess: np.ndarray, tau: float) -> None:
    if tau == 0:
        return
    v = np.concatenate([[1.0], ess]).astype(m.dtype)
    blk = m[:r_end, c0:c0 + nc]
    tmp = dot(blk, v)
    blk -= tau * np.outer(tmp, v)


def _schur(a: np.ndarray) -> tuple[np.ndarray, bool]:
    """RealSchur's T (no U) and whether it converged."""
    rt = a.dtype.type
    n = a.shape[0]
    eps = np.finfo(rt).eps
    scale = np.max(np.abs(a)) if a.size else rt(0)
    if scale < np.finfo(rt).tiny:
        return np.zeros_like(a), True
    t, _ = _hessenberg((a / scale).astype(rt))
    t = t.astype(rt)
    max_iters = 40 * n
    iu, it, total = n - 1, 0, 0
    exshift = rt(0)
    norm = rt(sum(np.sum(np.abs(t[:min(n, j + 2), j])) for j in range(n)))
    zero = max(norm * eps * eps, np.finfo(rt).tiny)
    if norm != 0:
        while iu >= 0:
            il = iu
            while il > 0:
                s = max((abs(t[il - 1, il - 1]) + abs(t[il, il])) * eps, zero)
                if abs(t[il, il - 1]) <= s:
                    break
                il -= 1
            if il == iu:
                t[iu, iu] = t[iu, iu] + exshift
                if iu > 0:
                    t[iu, iu - 1] = 0
                iu -= 1
                it = 0
            elif il == iu - 1:
                _split(t, iu, exshift)
                iu -= 2
                it = 0
            else:
                info = [t[iu, iu], t[iu - 1, iu - 1], t[iu, iu - 1] * t[iu - 1, iu]]
                if it > 0 and it % 16 == 0:
                    if it % 32 != 0:
                        exshift += info[0]
                        for i in range(iu + 1):
                            t[i, i] -= info[0]
                        s = abs(t[iu, iu - 1]) + abs(t[iu - 1, iu - 2])
                        info = [rt(0.75) * s, rt(0.75) * s, rt(-0.4375) * s * s]
                    else:
                        s = (info[1] - info[0]) / rt(2.0)
                        s = s * s + info[2]
                        if s > 0:
                            s = np.sqrt(s)
                            if info[1] < info[0]:
                                s = -s
                            s = s + (info[1] - info[0]) / rt(2.0)
                            s = info[0] - info[2] / s
                            exshift += s
                            for i in range(iu + 1):
                                t[i, i] -= s
                            info = [rt(0.964)] * 3
                it += 1
                total += 1
                if total > max_iters:
                    break
                im, v = _init_francis(t, il, iu, info, eps)
                _francis(t, il, im, iu, v)
    return t * scale, total <= max_iters


def _split(t: np.ndarray, iu: int, exshift: float) -> None:
    n = t.shape[0]
    p = t.dtype.type(0.5) * (t[iu - 1, iu - 1] - t[iu, iu])
    q = p * p + t[iu, iu - 1] * t[iu - 1, iu]
    t[iu, iu] += exshift
    t[iu - 1, iu - 1] += exshift
    if q >= 0:
        z = np.sqrt(abs(q))
        c, s = _givens_real(p + z if p >= 0 else p - z, t[iu, iu - 1])
        x, y = t[iu - 1, iu - 1:].copy(), t[iu, iu - 1:].copy()   # rows, rotation adjoint (c, -s)
        t[iu - 1, iu - 1:] = c * x - s * y
        t[iu, iu - 1:] = s * x + c * y
        x, y = t[:iu + 1, iu - 1].copy(), t[:iu + 1, iu].copy()   # columns, rotation transpose (c, -s)
        t[:iu + 1, iu - 1] = c * x - s * y
        t[:iu + 1, iu] = s * x + c * y
        t[iu, iu - 1] = 0
    if iu > 1:
        t[iu - 1, iu - 2] = 0
    _ = n


def _init_francis(t: np.ndarray, il: int, iu: int, info: list, eps: float) -> tuple[int, np.ndarray]:
    v = np.zeros(3, t.dtype)
    im = iu - 2
    while im >= il:
        tmm = t[im, im]
        r = info[0] - tmm
        s = info[1] - tmm
        v[0] = (r * s - info[2]) / t[im + 1, im] + t[im, im + 1]
        v[1] = t[im + 1, im + 1] - tmm - r - s
        v[2] = t[im + 2, im + 1]
        if im == il:
            break
        lhs = t[im, im - 1] * (abs(v[1]) + abs(v[2]))
        rhs = v[0] * (abs(t[im - 1, im - 1]) + abs(tmm) + abs(t[im + 1, im + 1]))
        if abs(lhs) < eps * rhs:
            break
        im -= 1
    return im, v


def _francis(t: np.ndarray, il: int, im: int, iu: int, first: np.ndarray) -> None:
    n = t.shape[0]
    rt = t.dtype.type
    for k in range(im, iu - 1):
        v = first if k == im else t[k:k + 3, k - 1].copy()
        ess, tau, beta = _householder(v, rt)
        if beta != 0:
            if k == im and k > il:
                t[k, k - 1] = -t[k, k - 1]
            elif k != im:
                t[k, k - 1] = beta
            _house_left(t, k, k, 3, ess, tau)
            _house_right(t, min(iu, k + 3) + 1, k, 3, ess, tau)
    ess, tau, beta = _householder(t[iu - 1:iu + 1, iu - 2].copy(), rt)
    if beta != 0:
        t[iu - 1, iu - 2] = beta
        _house_left(t, iu - 1, iu - 1, 2, ess, tau)
        _house_right(t, iu + 1, iu - 1, 2, ess, tau)
    for i in range(im + 2, iu + 1):
        t[i, i - 2] = 0
        if i > im + 2:
            t[i, i - 3] = 0
    _ = n


def real_eigvals(a: np.ndarray) -> tuple[np.ndarray, bool]:
    """(eigenvalues as complex, success) of one real square matrix, in Eigen's order."""
    rt = a.dtype.type
    ct = np.complex64 if rt == np.float32 else np.complex128
    n = a.shape[0]
    t, ok = _schur(a)
    if not ok:
        return np.zeros(n, ct), False
    out = np.zeros(n, ct)
    i = 0
    while i < n:
        if i == n - 1 or t[i + 1, i] == 0:
            out[i] = t[i, i]
            if not np.isfinite(t[i, i]):
                return out, False
            i += 1
        else:
            p = rt(0.5) * (t[i, i] - t[i + 1, i + 1])
            t0, t1 = t[i + 1, i], t[i, i + 1]
            mx = max(abs(p), max(abs(t0), abs(t1)))
            t0, t1, p0 = t0 / mx, t1 / mx, p / mx
            z = mx * np.sqrt(abs(p0 * p0 + t0 * t1))
            out[i] = complex(t[i + 1, i + 1] + p, z)
            out[i + 1] = complex(t[i + 1, i + 1] + p, -z)
            if not (np.isfinite(out[i]) and np.isfinite(out[i + 1])):
                return out, False
            i += 2
    return out, True
