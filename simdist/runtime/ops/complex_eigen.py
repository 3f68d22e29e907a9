"""Eigen's ComplexEigenSolver as TF's Eig kernel runs it (linalg/eig_op_impl.h): the input cast to
complex (complex64 for float32/complex64, complex128 otherwise), reduced to Hessenberg form by
Householder reflections (HessenbergDecomposition), to upper triangular T by shifted QR steps of
complex Givens rotations (ComplexSchur::reduceToTriangularForm: Wilkinson-like shifts, exceptional
shifts at iterations 10 and 20, at most 30 iterations per row), eigenvectors by back substitution
in T, mapped by U and normalised (stableNormalize), then the pairs sorted by ascending modulus
(a selection sort keeping the first of equal moduli).

Transcribed from the Eigen headers of TF 2.21's wheel (Eigenvalues/ComplexSchur.h,
ComplexEigenSolver.h, HessenbergDecomposition.h, Householder/Householder.h, Jacobi/Jacobi.h), step
by step in the kernel's complex type, so eigenvalues, their order and the eigenvectors' phases are
TF's; the last bits can differ where Eigen's vectorised products sum in another order.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import householder
from simdist.runtime.ops.contraction_order import dot   # (in order, not BLAS: ops.host-cpu)

__all__ = ["eig"]


def _norm1(z: complex) -> float:
    return abs(z.real) + abs(z.imag)


def _hessenberg(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """HessenbergDecomposition: (H, Q) with A = Q H Q^*."""
    ct = a.dtype.type
    m = a.copy()
    n = m.shape[0]
    hs: list[tuple[int, np.ndarray, complex]] = []
    for i in range(n - 1):
        ess, h, beta = householder.make(m[i + 1:, i], ct)
        m[i + 1:, i] = 0
        m[i + 1, i] = ct(beta)
        hs.append((i, ess, h))
        if h != 0:
            v = np.concatenate([np.ones(1, ct), ess])
            blk = m[i + 1:, i + 1:]
            tmp = dot(v.conj(), blk).astype(ct)        # applyHouseholderOnTheLeft
            blk -= (h * np.outer(v, tmp)).astype(ct)
            right = m[:, i + 1:]
            tmp = dot(right, v).astype(ct)              # applyHouseholderOnTheRight with conj(h)
            right -= (np.conj(h) * np.outer(tmp, v.conj())).astype(ct)
    q = np.eye(n, dtype=ct)
    for i, ess, h in reversed(hs):   # Q = H_0 H_1 ... with H_i = I - conj(h_i) v_i v_i^*
        if h != 0:
            v = np.concatenate([np.ones(1, ct), ess])
            blk = q[i + 1:, :]
            blk -= (np.conj(h) * np.outer(v, dot(v.conj(), blk))).astype(ct)
    return m, q


def _givens(p: complex, q: complex, ct: type) -> tuple[complex, complex, complex]:
    """JacobiRotation::makeGivens (complex): (c, s, r)."""
    rt = np.float32 if ct == np.complex64 else np.float64
    p, q = ct(p), ct(q)
    if q == 0:
        c = ct(-1) if p.real < 0 else ct(1)
        return c, ct(0), ct(c * p)
    if p == 0:
        return ct(0), ct(-q / ct(abs(q))), ct(abs(q))
    p1, q1 = rt(_norm1(p)), rt(_norm1(q))
    if p1 >= q1:
        ps = ct(p / ct(p1))
        p2 = rt(ps.real * ps.real + ps.imag * ps.imag)
        qs = ct(q / ct(p1))
        q2 = rt(qs.real * qs.real + qs.imag * qs.imag)
        u = rt(np.sqrt(rt(1) + q2 / p2))
        if p.real < 0:
            u = -u
        c = ct(rt(1) / u)
        s = ct(-qs * np.conj(ps) * ct(c.real / p2))
        return c, s, ct(p * ct(u))
    ps = ct(p / ct(q1))
    p2 = rt(ps.real * ps.real + ps.imag * ps.imag)
    qs = ct(q / ct(q1))
    q2 = rt(qs.real * qs.real + qs.imag * qs.imag)
    u = rt(q1 * np.sqrt(p2 + q2))
    if p.real < 0:
        u = -u
    p1 = rt(abs(p))
    ps = ct(p / ct(p1))
    c = ct(p1 / u)
    s = ct(-np.conj(ps) * ct(q / ct(u)))
    return c, s, ct(ps * ct(u))


def _rot_rows(m: np.ndarray, i: int, j: int, c: complex, s: complex, cols: slice) -> None:
    """applyOnTheLeft(i, j, rot.adjoint()): rotation (conj(c), -s) on rows i, j."""
    ca, sa = np.conj(c), -s
    x, y = m[i, cols].copy(), m[j, cols].copy()
    m[i, cols] = ca * x + np.conj(sa) * y
    m[j, cols] = -sa * x + np.conj(ca) * y


def _rot_cols(m: np.ndarray, i: int, j: int, c: complex, s: complex, rows: slice) -> None:
    """applyOnTheRight(i, j, rot): rotation rot.transpose() = (c, -conj(s)) on columns i, j."""
    ct_, st = c, -np.conj(s)
    x, y = m[rows, i].copy(), m[rows, j].copy()
    m[rows, i] = ct_ * x + np.conj(st) * y
    m[rows, j] = -st * x + np.conj(ct_) * y


def _shift(t: np.ndarray, iu: int, it: int, ct: type) -> complex:
    rt = np.float32 if ct == np.complex64 else np.float64
    if (it == 10 or it == 20) and iu > 1:
        return ct(rt(abs(t[iu, iu - 1].real)) + rt(abs(t[iu - 1, iu - 2].real)))
    b2 = t[iu - 1:iu + 1, iu - 1:iu + 1].copy()
    normt = rt(np.sum(np.abs(b2).astype(rt)))
    b2 = (b2 / ct(normt)).astype(ct)
    b = ct(b2[0, 1] * b2[1, 0])
    c = ct(b2[0, 0] - b2[1, 1])
    disc = ct(np.sqrt(ct(c * c + ct(4) * b)))
    det = ct(b2[0, 0] * b2[1, 1] - b)
    trace = ct(b2[0, 0] + b2[1, 1])
    e1 = ct((trace + disc) / ct(2))
    e2 = ct((trace - disc) / ct(2))
    n1, n2 = _norm1(e1), _norm1(e2)
    if n1 > n2:
        e2 = ct(det / e1)
    elif n2 != 0:
        e1 = ct(det / e2)
    if _norm1(e1 - b2[1, 1]) < _norm1(e2 - b2[1, 1]):
        return ct(ct(normt) * e1)
    return ct(ct(normt) * e2)


def _schur(a: np.ndarray, want_u: bool) -> tuple[np.ndarray, np.ndarray, bool]:
    """ComplexSchur: (T, U, converged)."""
    ct = a.dtype.type
    n = a.shape[0]
    if n == 1:
        return a.copy(), np.eye(1, dtype=ct), True
    t, u = _hessenberg(a)
    eps = np.finfo(np.float32 if ct == np.complex64 else np.float64).eps

    def negligible(i: int) -> bool:
        d = _norm1(t[i, i]) + _norm1(t[i + 1, i + 1])
        if _norm1(t[i + 1, i]) <= d * eps:
            t[i + 1, i] = 0
            return True
        return False

    max_iters = 30 * n
    iu, it, total = n - 1, 0, 0
    while True:
        while iu > 0:
            if not negligible(iu - 1):
                break
            it = 0
            iu -= 1
        if iu == 0:
            break
        it += 1
        total += 1
        if total > max_iters:
            break
        il = iu - 1
        while il > 0 and not negligible(il - 1):
            il -= 1
        sh = _shift(t, iu, it, ct)
        c, s, _ = _givens(t[il, il] - sh, t[il + 1, il], ct)
        _rot_rows(t, il, il + 1, c, s, slice(il, n))
        _rot_cols(t, il, il + 1, c, s, slice(0, min(il + 2, iu) + 1))
        if want_u:
            _rot_cols(u, il, il + 1, c, s, slice(0, n))
        for i in range(il + 1, iu):
            c, s, r = _givens(t[i, i - 1], t[i + 1, i - 1], ct)
            t[i, i - 1] = r
            t[i + 1, i - 1] = 0
            _rot_rows(t, i, i + 1, c, s, slice(i, n))
            _rot_cols(t, i, i + 1, c, s, slice(0, min(i + 2, iu) + 1))
            if want_u:
                _rot_cols(u, i, i + 1, c, s, slice(0, n))
    return t, u, total <= max_iters


def _vectors(t: np.ndarray, u: np.ndarray) -> np.ndarray:
    ct = t.dtype.type
    rt = np.float32 if ct == np.complex64 else np.float64
    n = t.shape[0]
    norm = rt(np.sqrt(np.sum((np.abs(t) ** 2).astype(rt))))
    norm = max(norm, np.finfo(rt).tiny)
    x = np.zeros((n, n), ct)
    for k in range(n - 1, -1, -1):
        x[k, k] = 1
        for i in range(k - 1, -1, -1):
            v = -t[i, k]
            if k - i - 1 > 0:
                v -= ct(dot(t[i, i + 1:k], x[i + 1:k, k]))
            z = ct(t[i, i] - t[k, k])
            if z == 0:
                z = ct(np.finfo(rt).eps * norm)
            x[i, k] = ct(v / z)
    vec = dot(u, x).astype(ct)
    for k in range(n):
        col = vec[:, k]
        w = rt(np.max(np.abs(col)))
        zz = rt(np.sum((np.abs(col / w) ** 2).astype(rt))) if w > 0 else rt(0)
        if zz > 0:
            vec[:, k] = col / ct(rt(np.sqrt(zz)) * w)
    return vec


def eig(a: np.ndarray, compute_v: bool) -> tuple[np.ndarray, np.ndarray | None, bool]:
    """(eigenvalues, eigenvectors or None, converged) of one square complex matrix."""
    n = a.shape[0]
    ct = a.dtype.type
    if n == 0:
        return np.zeros(0, ct), np.zeros((0, 0), ct), True
    t, u, ok = _schur(a, compute_v)
    if not ok:
        return np.zeros(n, ct), None, False
    vals = np.diag(t).copy()
    vecs = _vectors(t, u) if compute_v else None
    for i in range(n):   # sortEigenvalues: the first smallest modulus of the tail to position i
        k = i + int(np.argmin(np.abs(vals[i:])))
        if k != i:
            vals[[i, k]] = vals[[k, i]]
            if vecs is not None:
                vecs[:, [i, k]] = vecs[:, [k, i]]
    return vals, vecs, True
