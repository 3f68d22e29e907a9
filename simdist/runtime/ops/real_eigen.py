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

from simdist.runtime.ops import householder
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
    """applyHouseholderOnTheLeft on m[r0:r0+nr, c0:]."""
    householder.apply_left(m[r0:r0 + nr, c0:], ess, tau)


def _house_right(m: np.ndarray, r_end: int, c0: int, nc: int, ess: np.ndarray, tau: float) -> None:
    """applyHouseholderOnTheRight on m[:r_end, c0:c0+nc]."""
    householder.apply_right(m[:r_end, c0:c0 + nc], ess, tau)


def _hessenberg_real(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """HessenbergDecomposition::_compute of a real matrix, in Eigen's order of operations (H A with the
    reflector of each column's tail, then A H'), and matrixQ().evalTo (the identity's bottom-right corners,
    last reflector first): (H, Q) with A = Q H Q^T."""
    rt = a.dtype.type
    m = a.copy()
    n = m.shape[0]
    hs: list[tuple[np.ndarray, float]] = []
    for i in range(n - 1):
        ess, h, beta = householder.make(m[i + 1:, i].copy(), rt)
        m[i + 2:, i] = ess
        m[i + 1, i] = rt(beta)
        hs.append((ess.copy(), h))
        r = n - i - 1
        _house_left(m, i + 1, i + 1, r, ess, h)
        _house_right(m, n, i + 1, r, ess, h)
        m[i + 2:, i] = 0
    q = np.eye(n, dtype=a.dtype)
    for k in range(n - 2, -1, -1):
        ess, h = hs[k]
        _house_left(q, k + 1, k + 1, n - k - 1, ess, h)
    return m, q


def _schur(a: np.ndarray, want_u: bool = False) -> tuple[np.ndarray, np.ndarray | None, bool]:
    """RealSchur's (T, U when `want_u`, converged): U starts as the Hessenberg reduction's Q and takes
    every column transformation T takes (splitOffTwoRows' rotation, the Francis steps' reflectors)."""
    rt = a.dtype.type
    n = a.shape[0]
    eps = np.finfo(rt).eps
    scale = np.max(np.abs(a)) if a.size else rt(0)
    if scale < np.finfo(rt).tiny:
        return np.zeros_like(a), (np.eye(n, dtype=a.dtype) if want_u else None), True
    t, q = _hessenberg_real((a / scale).astype(rt))
    t = t.astype(rt)
    u = q.astype(rt) if want_u else None
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
                _split(t, iu, exshift, u)
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
                _francis(t, il, im, iu, v, u)
    return t * scale, u, total <= max_iters


def _split(t: np.ndarray, iu: int, exshift: float, u: np.ndarray | None = None) -> None:
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
        if u is not None:   # m_matU.applyOnTheRight(iu - 1, iu, rot)
            x, y = u[:, iu - 1].copy(), u[:, iu].copy()
            u[:, iu - 1] = c * x - s * y
            u[:, iu] = s * x + c * y
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


def _francis(t: np.ndarray, il: int, im: int, iu: int, first: np.ndarray, u: np.ndarray | None = None) -> None:
    n = t.shape[0]
    rt = t.dtype.type
    for k in range(im, iu - 1):
        v = first if k == im else t[k:k + 3, k - 1].copy()
        ess, tau, beta = householder.make(v, rt)
        if beta != 0:
            if k == im and k > il:
                t[k, k - 1] = -t[k, k - 1]
            elif k != im:
                t[k, k - 1] = beta
            _house_left(t, k, k, 3, ess, tau)
            _house_right(t, min(iu, k + 3) + 1, k, 3, ess, tau)
            if u is not None:
                _house_right(u, n, k, 3, ess, tau)
    ess, tau, beta = householder.make(t[iu - 1:iu + 1, iu - 2].copy(), rt)
    if beta != 0:
        t[iu - 1, iu - 2] = beta
        _house_left(t, iu - 1, iu - 1, 2, ess, tau)
        _house_right(t, iu + 1, iu - 1, 2, ess, tau)
        if u is not None:
            _house_right(u, n, iu - 1, 2, ess, tau)
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
    t, _, ok = _schur(a)
    if not ok:
        return np.zeros(n, ct), False
    return _eigvals_of(t)


def _eigvals_of(t: np.ndarray) -> tuple[np.ndarray, bool]:
    """EigenSolver::compute's eigenvalues read off the quasi-triangular T in its order (a 2x2 block
    gives (T[i+1,i+1] + p) ± z i, z computed without overflow); False when one is not finite."""
    rt = t.dtype.type
    ct = np.complex64 if rt == np.float32 else np.complex128
    n = t.shape[0]
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


def _backsubstitute(t: np.ndarray, vals: np.ndarray) -> bool:
    """EigenSolver::doComputeEigenvectors' back substitution (hqr2) in T, in place: column n of T becomes
    the n-th eigenvector of T (a complex pair's real and imaginary parts in columns n - 1 and n). False
    when T is zero: Eigen returns before the back transformation, so the vectors stay the Schur U's."""
    rt = t.dtype.type
    ct = np.complex64 if rt == np.float32 else np.complex128
    size = t.shape[0]
    eps = rt(np.finfo(rt).eps)
    norm = rt(0)
    for j in range(size):
        lo = max(j - 1, 0)
        norm = norm + rt(np.sum(np.abs(t[j, lo:])))
    if norm == 0:
        return False
    n = size - 1
    while n >= 0:
        p, q = rt(vals[n].real), rt(vals[n].imag)
        if q == 0:
            lastr = lastw = rt(0)
            l_ = n
            t[n, n] = rt(1)
            for i in range(n - 1, -1, -1):
                w = t[i, i] - p
                r = rt(dot(t[i, l_:n + 1], t[l_:n + 1, n]))
                if vals[i].imag < 0:
                    lastw, lastr = w, r
                else:
                    l_ = i
                    if vals[i].imag == 0:
                        t[i, n] = -r / w if w != 0 else -r / (eps * norm)
                    else:
                        x, y = t[i, i + 1], t[i + 1, i]
                        denom = (rt(vals[i].real) - p) * (rt(vals[i].real) - p) + rt(vals[i].imag) * rt(vals[i].imag)
                        tt = (x * lastr - lastw * r) / denom
                        t[i, n] = tt
                        t[i + 1, n] = (-r - w * tt) / x if abs(x) > abs(lastw) else (-lastr - y * tt) / lastw
                    tt = abs(t[i, n])
                    if (eps * tt) * tt > 1:
                        t[i:, n] /= tt
        elif q < 0 and n > 0:
            lastra = lastsa = lastw = rt(0)
            l_ = n - 1
            if abs(t[n, n - 1]) > abs(t[n - 1, n]):
                t[n - 1, n - 1] = q / t[n, n - 1]
                t[n - 1, n] = -(t[n, n] - p) / t[n, n - 1]
            else:
                cc = ct(complex(0, -t[n - 1, n])) / ct(complex(t[n - 1, n - 1] - p, q))
                t[n - 1, n - 1], t[n - 1, n] = cc.real, cc.imag
            t[n, n - 1] = 0
            t[n, n] = 1
            for i in range(n - 2, -1, -1):
                ra = rt(dot(t[i, l_:n + 1], t[l_:n + 1, n - 1]))
                sa = rt(dot(t[i, l_:n + 1], t[l_:n + 1, n]))
                w = t[i, i] - p
                if vals[i].imag < 0:
                    lastw, lastra, lastsa = w, ra, sa
                else:
                    l_ = i
                    if vals[i].imag == 0:
                        cc = ct(complex(-ra, -sa)) / ct(complex(w, q))
                        t[i, n - 1], t[i, n] = cc.real, cc.imag
                    else:
                        x, y = t[i, i + 1], t[i + 1, i]
                        er, ei = rt(vals[i].real), rt(vals[i].imag)
                        vr = (er - p) * (er - p) + ei * ei - q * q
                        vi = (er - p) * rt(2) * q
                        if vr == 0 and vi == 0:
                            vr = eps * norm * (abs(w) + abs(q) + abs(x) + abs(y) + abs(lastw))
                        cc = ct(complex(x * lastra - lastw * ra + q * sa, x * lastsa - lastw * sa - q * ra)) / \
                            ct(complex(vr, vi))
                        t[i, n - 1], t[i, n] = cc.real, cc.imag
                        if abs(x) > abs(lastw) + abs(q):
                            t[i + 1, n - 1] = (-ra - w * t[i, n - 1] + q * t[i, n]) / x
                            t[i + 1, n] = (-sa - w * t[i, n] - q * t[i, n - 1]) / x
                        else:
                            cc = ct(complex(-lastra - y * t[i, n - 1], -lastsa - y * t[i, n])) / ct(complex(lastw, q))
                            t[i + 1, n - 1], t[i + 1, n] = cc.real, cc.imag
                    tt = max(abs(t[i, n - 1]), abs(t[i, n]))
                    if (eps * tt) * tt > 1:
                        t[i:, n - 1:n + 1] /= tt
            n -= 1
        n -= 1
    return True


def real_eig(a: np.ndarray, compute_v: bool) -> tuple[np.ndarray, np.ndarray | None, bool]:
    """(eigenvalues as complex in Eigen's order, unit eigenvectors as complex columns or None, success) of
    one real square matrix: EigenSolver::compute, doComputeEigenvectors and eigenvectors() (a real
    eigenvalue's column normalized; a complex pair's columns re ± i·im, each normalized)."""
    rt = a.dtype.type
    ct = np.complex64 if rt == np.float32 else np.complex128
    n = a.shape[0]
    t, u, ok = _schur(a, compute_v)
    if not ok:
        return np.zeros(n, ct), None, False
    vals, ok = _eigvals_of(t)
    if not ok or not compute_v:
        return vals, None, ok
    t = t.astype(rt)
    if _backsubstitute(t, vals):
        for j in range(n - 1, -1, -1):   # back transformation: eivec.col(j) = eivec.leftCols(j+1) * T.col(j)[:j+1]
            u[:, j] = dot(u[:, :j + 1], t[:j + 1, j]).astype(rt)
    precision = rt(2) * rt(np.finfo(rt).eps)
    out = np.zeros((n, n), ct)
    j = 0
    while j < n:
        if abs(vals[j].imag) <= abs(vals[j].real) * precision or j + 1 == n:
            out[:, j] = _normalized(u[:, j].astype(ct), rt)
            j += 1
        else:
            out[:, j] = _normalized((u[:, j] + 1j * u[:, j + 1]).astype(ct), rt)
            out[:, j + 1] = _normalized((u[:, j] - 1j * u[:, j + 1]).astype(ct), rt)
            j += 2
    return vals, out, True


def _normalized(v: np.ndarray, rt: type) -> np.ndarray:
    """MatrixBase::normalize: divided by the square root of its squared norm when that is positive."""
    z = rt(np.sum((v.real * v.real + v.imag * v.imag).astype(rt)))
    return (v / rt(np.sqrt(z))).astype(v.dtype) if z > 0 else v
