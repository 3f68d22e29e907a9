"""Eigen's elementary reflectors (Householder/Householder.h), shared by the transcribed solvers
(complex_eigen.py, real_eigen.py, selfadjoint_eigen.py, jacobi_svd.py): `make` is makeHouseholder, and
`apply_left` / `apply_right` are applyHouseholderOnTheLeft / OnTheRight in Eigen's order of operations
(the product with the essential part first, then the first row or column added; the rank-one update with
tau folded into the essential part or into tmp as Eigen's expressions fold it), which decides the last
bits and, through them, the iterations that follow.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops.contraction_order import dot   # (in order, not BLAS: ops.host-cpu)

__all__ = ["make", "apply_left", "apply_right"]


def make(x: np.ndarray, ct: type) -> tuple[np.ndarray, complex, float]:
    """makeHouseholder: (essential part, tau, beta) of the vector x (complex or real), so that
    (I - tau v v^*) x = [beta, 0, ...] with v = [1, essential]."""
    rt = np.float32 if ct in (np.complex64, np.float32) else np.float64
    tail = x[1:]
    tail_sq = rt(np.sum((tail.real * tail.real + tail.imag * tail.imag).astype(rt))) if len(tail) else rt(0)
    c0 = x[0]
    tol = np.finfo(rt).tiny
    if tail_sq <= tol and c0.imag * c0.imag <= tol:
        return np.zeros_like(tail), ct(0), rt(c0.real)
    beta = rt(np.sqrt(rt(c0.real * c0.real + c0.imag * c0.imag) + tail_sq))
    if c0.real >= 0:
        beta = -beta
    ess = (tail / (c0 - ct(beta))).astype(ct)
    tau = ct(np.conj((ct(beta) - c0) / ct(beta)))
    return ess, tau, beta


def apply_left(blk: np.ndarray, ess: np.ndarray, tau: complex) -> None:
    """applyHouseholderOnTheLeft(essential, tau) on blk in place: tmp = essential^* bottom + row 0;
    row 0 -= tau tmp; bottom -= (tau essential) tmp."""
    dt = blk.dtype
    if blk.shape[0] == 1:
        blk *= dt.type(1) - tau
    elif tau != 0:
        bottom = blk[1:, :]
        tmp = (dot(np.conj(ess), bottom) + blk[0, :]).astype(dt)
        blk[0, :] = blk[0, :] - tau * tmp
        bottom -= ((tau * ess).astype(dt)[:, None] * tmp[None, :]).astype(dt)


def apply_right(blk: np.ndarray, ess: np.ndarray, tau: complex) -> None:
    """applyHouseholderOnTheRight(essential, tau) on blk in place: tmp = right essential + column 0;
    column 0 -= tau tmp; right -= (tau tmp) essential^*."""
    dt = blk.dtype
    if blk.shape[1] == 1:
        blk *= dt.type(1) - tau
    elif tau != 0:
        right = blk[:, 1:]
        tmp = (dot(right, ess) + blk[:, 0]).astype(dt)
        blk[:, 0] = blk[:, 0] - tau * tmp
        right -= ((tau * tmp).astype(dt)[:, None] * np.conj(ess)[None, :]).astype(dt)
