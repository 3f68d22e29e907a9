"""Eigen's HouseholderQR as TF 2.21's Qr kernel runs it (linalg/qr_op_impl.h: `Eigen::HouseholderQR<Matrix>
qr(input)` on LinearAlgebraOp's row-major Matrix; Q is `qr.householderQ()` (full_matrices) or `householderQ() *
Identity(m, min(m, n))`, R the upper triangle of matrixQR()), transcribed from the Eigen headers (QR/HouseholderQR.h,
Householder/Householder.h, Householder/HouseholderSequence.h) step by step in the input's precision. In a row-major
matrix a column is strided, so the reductions run in order, and Eigen's own code in the wheel has no FMA:

- makeHouseholder: the tail's squared norm summed in order from the first square, beta = -sign(c0)·sqrt(c0² +
  tail²), essential = tail / (c0 - beta), tau = (beta - c0) / beta;
- applyHouseholderOnTheLeft: tmp = essential^T · bottom, each entry summed over the rows in order from zero with
  rounded products (a column-major matrix-vector product over bottom^T; a one-column bottom is a dot product, in
  order from the first product); tmp += row 0; row 0 -= tau·tmp; bottom -= (tau·essential)·tmp;
- the unblocked factorization over the first min(m, n) columns; Q from the identity, the last reflector first.

float16 is Eigen::half: each operation rounded to half. Measured bit for bit on the AMD EPYC host (fz46b): every
one of 172 seeded float32/float64 tall or square matrices up to 8x8 with full_matrices, R of every tall one, and
the thin Q of one column; not matched: the thin Q of two or more columns in part (105 of 159 thin tall products
matched, where LAPACK matched 12: `householderQ() * Identity(m, n)` differs from the full Q's first columns in
TF, an order not found), and a wide matrix's trailing columns (n > m: Eigen's blocked update V T V^T A, here
reflector by reflector; about 40% matched). Clause ops.linalg-spectral.
"""

from __future__ import annotations

import numpy as np

__all__ = ["models", "qr"]

MAX_SIZE = 48   # Eigen's block size: from 48 reflectors HouseholderQR and householderQ() apply them by blocks


def models(a: np.ndarray) -> bool:
    """Whether `qr` computes TF's kernel for `a`: a real float16/float32/float64 array whose matrices have at most
    48 columns and rows (Eigen's unblocked paths; larger ones stay LAPACK's, whose last bits differ)."""
    return a.dtype.name in ("float16", "float32", "float64") and a.ndim >= 2 and max(a.shape[-2:]) <= MAX_SIZE


def _gemv(bottom: np.ndarray, v: np.ndarray, dt: type) -> np.ndarray:
    """v [r] · bottom [r, c] as Eigen computes `essential.adjoint() * bottom` where bottom is a block of TF's
    row-major matrix: a column-major matrix-vector product over bottom^T (general_matrix_vector_product<ColMajor>:
    each output accumulated over r in order from zero, packets across the outputs; Eigen's own code in the wheel
    has no FMA, so rounded products and sums)."""
    acc = np.zeros(bottom.shape[1], dt)
    with np.errstate(all="ignore"):
        for j in range(bottom.shape[0]):
            acc = (acc + (v[j] * bottom[j]).astype(dt)).astype(dt)
    return acc


def _sq_norm(x: np.ndarray, dt: type) -> np.ndarray:
    acc = dt(x[0] * x[0])
    for t in x[1:]:
        acc = dt(acc + dt(t * t))
    return acc


def _make(x: np.ndarray, dt: type) -> tuple[np.ndarray, object, object]:
    """makeHouseholder of a real vector: (essential, tau, beta)."""
    tail = x[1:]
    sq = _sq_norm(tail, dt) if len(tail) else dt(0)
    c0 = x[0]
    if sq <= np.finfo(dt).tiny:
        return np.zeros_like(tail), dt(0), dt(c0)
    with np.errstate(all="ignore"):
        beta = dt(np.sqrt(dt(dt(c0 * c0) + sq)))
        if c0 >= 0:
            beta = dt(-beta)
        ess = (tail / dt(c0 - beta)).astype(dt)
        tau = dt(dt(beta - c0) / beta)
    return ess, tau, beta


def _apply_left(blk: np.ndarray, ess: np.ndarray, tau: object, dt: type) -> None:
    """applyHouseholderOnTheLeft(essential, tau) on blk in place."""
    if blk.shape[0] == 1:
        blk *= dt(dt(1) - tau)
        return
    if tau == 0 or blk.shape[1] == 0:
        return
    bottom = blk[1:, :]
    with np.errstate(all="ignore"):
        if blk.shape[1] == 1:   # (a one-column bottom: Eigen's dot, a redux from the first product)
            acc = dt(0)
            for t in range(len(ess)):
                acc = dt(acc + dt(ess[t] * bottom[t, 0]))
            tmp = np.array([acc], dt)
        else:
            tmp = _gemv(bottom, ess, dt)
        tmp = (tmp + blk[0, :]).astype(dt)
        blk[0, :] = (blk[0, :] - (tau * tmp).astype(dt)).astype(dt)
        bottom -= ((tau * ess).astype(dt)[:, None] * tmp[None, :]).astype(dt)


def _one(a: np.ndarray, full: bool) -> tuple[np.ndarray, np.ndarray]:
    dt = a.dtype.type
    m, n = a.shape
    size = min(m, n)
    qr = a.copy()
    h = np.zeros(size, a.dtype)
    for k in range(size):
        ess, tau, beta = _make(qr[k:, k].copy(), dt)
        qr[k + 1:, k] = ess
        h[k] = tau
        qr[k, k] = beta
        _apply_left(qr[k:, k + 1:size], qr[k + 1:, k].copy(), tau, dt)
    if n > size:   # the trailing columns: apply_block_householder_on_the_left, here reflector by reflector
        for k in range(size):
            _apply_left(qr[k:, size:], qr[k + 1:, k].copy(), h[k], dt)
    r = np.triu(qr)
    if full:
        q = np.eye(m, dtype=a.dtype)
        for k in range(size - 1, -1, -1):
            _apply_left(q[k:, k:], qr[k + 1:, k].copy(), h[k], dt)
        return q, r
    q = np.eye(m, size, dtype=a.dtype)
    for k in range(size - 1, -1, -1):
        _apply_left(q[k:, :], qr[k + 1:, k].copy(), h[k], dt)
    return q, r[:size]


def qr(a: np.ndarray, full_matrices: bool) -> tuple[np.ndarray, np.ndarray]:
    """(q, r) of each innermost matrix of a real float16/float32/float64 array as TF's kernel computes them."""
    m, n = a.shape[-2:]
    size = min(m, n)
    qs = np.empty(a.shape[:-2] + ((m, m) if full_matrices else (m, size)), a.dtype)
    rs = np.empty(a.shape[:-2] + ((m, n) if full_matrices else (size, n)), a.dtype)
    for idx in np.ndindex(*a.shape[:-2]):
        qs[idx], rs[idx] = _one(np.array(a[idx]), full_matrices)
    return qs, rs
