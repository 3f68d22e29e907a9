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

- the thin Q (not full_matrices): `householderQ() * Identity(m, min(m, n))` evaluates into
  matrix_type_times_scalar_type's Matrix, which is column-major, reflector by reflector on its bottom rows (all
  columns, also when square): there essential^T · bottom is a row-major matrix-vector product
  (general_matrix_vector_product<RowMajor>, TF's wheel built with AVX and no FMA: packets of 8 floats or 4 doubles),
  each output a packet dot product — lane-wise sums of rounded products over the full packets, Eigen's predux
  (halves added until two lanes, then lane 0 + lane 1), in the one-by-one tail of outputs a half packet the same
  way, then the rest in order — outputs in groups of 8, 4 and 2, the last one alone (fix65r).

float16 is Eigen::half: each operation rounded to half. Measured bit for bit on the AMD EPYC host (fz46b): every
one of 172 seeded float32/float64 tall or square matrices up to 8x8 with full_matrices, R of every tall one, and
the thin Q of one column; on this session's Intel Xeon (fix65r, /work/wt/fix65r_logs/probe_qr*.py): the thin Q of
every float32/float64 tall matrix of 60 (12x3 … 30x4) and of tall and square ones up to 47 columns. Not matched: a
float16 thin Q of two or more columns (Eigen's half packets, not transcribed: the row-by-row order stays), a thin
Q of 48 or more reflectors (Eigen's blocked path), and a wide matrix's trailing columns (n > m: Eigen's blocked
update V T V^T A, here reflector by reflector; about 40% matched). Clause ops.linalg-spectral.
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


# Eigen's packet sizes in TF's wheel (built with -mavx: 256-bit packets, halves of 128 bits, no FMA)
_PACKET = {"float32": 8, "float64": 4}


def _predux(c: np.ndarray, dt: type) -> object:
    """Eigen's predux of one packet: the upper half added to the lower until two lanes, then lane 0 + lane 1."""
    while len(c) > 2:
        h = len(c) // 2
        c = (c[:h] + c[h:]).astype(dt)
    return dt(c[0] + c[1]) if len(c) == 2 else dt(c[0])


def _dot_rows(col: np.ndarray, v: np.ndarray, dt: type, half: bool) -> object:
    """One output of general_matrix_vector_product<RowMajor>: full packets accumulated lane-wise (rounded products,
    no FMA), reduced by `_predux`; in the one-row tail (`half`) then half packets, reduced and added; then the
    remaining products in order; added to the zeroed destination."""
    p = _PACKET[np.dtype(dt).name]
    r = len(col)
    full = p * (r // p)
    acc = np.zeros(p, dt)
    for j in range(0, full, p):
        acc = (acc + (col[j:j + p] * v[j:j + p]).astype(dt)).astype(dt)
    cc = _predux(acc, dt)
    j = full
    if half:
        hp = p // 2
        acch = np.zeros(hp, dt)
        while j + hp <= r:
            acch = (acch + (col[j:j + hp] * v[j:j + hp]).astype(dt)).astype(dt)
            j += hp
        cc = dt(cc + _predux(acch, dt))
    while j < r:
        cc = dt(cc + dt(col[j] * v[j]))
        j += 1
    return dt(dt(0) + cc)


def _gemv_colmajor_dst(bottom: np.ndarray, v: np.ndarray, dt: type) -> np.ndarray:
    """v [r] · bottom [r, c] where bottom is a block of a column-major matrix (the thin Q: `householderQ() *
    Identity(m, n)` evaluates into matrix_type_times_scalar_type's Matrix, column-major): bottom^T is row-major, so
    general_matrix_vector_product<RowMajor> — each output a packet dot product over r; outputs in groups of 8, 4
    and 2 (full packets, then the rest in order) and then one by one (full packets, a half packet, the rest)."""
    c = bottom.shape[1]
    out = np.zeros(c, dt)
    i = 0
    with np.errstate(all="ignore"):
        for g in (8, 4, 2):
            while i + g <= c:
                for k in range(i, i + g):
                    out[k] = _dot_rows(bottom[:, k], v, dt, False)
                i += g
        while i < c:
            out[i] = _dot_rows(bottom[:, i], v, dt, True)
            i += 1
    return out


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


def _apply_left(blk: np.ndarray, ess: np.ndarray, tau: object, dt: type, colmajor: bool = False) -> None:
    """applyHouseholderOnTheLeft(essential, tau) on blk in place (`colmajor`: blk is a block of a column-major
    matrix, whose essential^T · bottom is a row-major matrix-vector product)."""
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
        elif colmajor and dt in (np.float32, np.float64):
            tmp = _gemv_colmajor_dst(bottom, ess, dt)
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
    for k in range(size - 1, -1, -1):   # (a square Q: applyThisOnTheLeft's inputIsIdentity, the corner only)
        _apply_left(q[k:, :], qr[k + 1:, k].copy(), h[k], dt, colmajor=True)
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
