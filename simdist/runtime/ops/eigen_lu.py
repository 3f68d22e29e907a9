"""Eigen's PartialPivLU (unblocked, partial_lu_impl::unblocked_lu) as TF 2.21's CPU kernels run it:
MatrixInverse's invertibility check on matrices holding inf/NaN, and MatrixDeterminant/
LogMatrixDeterminant (determinant_op.cc's SLogDet) on every matrix. Vectorized over a batch of
matrices. Clause ops.linalg-more.

Column k's pivot is the first row whose |value| is greater than every one before it (Eigen's
max-coefficient visitor), so a NaN at the top of the column stays the pivot and a NaN below is
never taken; a column whose pivot is 0 is neither swapped nor divided (complex: divided as
pdiv_complex, so an infinite pivot gives NaN); then the rank-1 update of the trailing block.
|z| of a complex entry is std::abs (hypot).
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import complex_div

__all__ = ["partial_piv_lu", "invertible", "slogdet", "lu_solve", "factor"]


def _divide(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The column's division by its pivot: complex as Eigen's pdiv_complex (an infinite pivot gives
    NaN, not Smith's zero), real IEEE."""
    if x.dtype.kind != "c":
        return x / y
    y = np.broadcast_to(y, x.shape)
    out = np.empty(x.shape, x.dtype)
    out.real, out.imag = complex_div.pdiv_parts(x.real, x.imag, y.real, y.imag)
    return out


def partial_piv_lu(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(LU, number of row transpositions, the row column 0's pivot came from) of a batch [b, n, n]
    in its own dtype."""
    m, swaps, first, _ = _lu(a)
    return m, swaps, first


def factor(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(packed L\\U, the row permutation) of a batch [b, n, n]: TF's Lu op (lu_op.cc) runs the same
    PartialPivLU, its column divided as above (a complex64 0 under an infinite pivot is NaN, not
    NumPy's 0: fz34a, sig seed 3420261207 #91)."""
    m, _, _, perm = _lu(a)
    return m, perm


def lu_solve(a: np.ndarray, rhs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(X with a @ X = rhs, whether every LU pivot is nonzero) for batches a [b, n, n], rhs [b, n, m]
    in a's dtype: PartialPivLU as above, the rows of rhs permuted, then PartialPivLU::solve's
    unit-lower and upper triangular solves as Eigen's trsmKernelR computes them (eigen_trsm.solve:
    x_j = (((b_j - t_j0 x_0) - t_j1 x_1) - ...) * (1 / t_jj), L's unit diagonal unread; the wheel has
    no FMA). TF's MatrixSolve and MatrixInverse (the solve of the identity) run it: bit for bit on TF
    2.21 for float32 to order 12 and float64 to order 8 (beyond, Eigen's GEBP panels and blocked LU
    are not modelled), complex of order 1; complex LU factors of order 2 on are not bit-exact (the
    packet products of their rank-1 updates). fz27a: fz20_seen's tape seed 2620261202 #54, seed
    2620261204 #55 (an infinite rhs: the NaNs of subtracting in turn)."""
    from simdist.runtime.ops import eigen_trsm
    lu, _, _, perm = _lu(a)
    b = lu.shape[0]
    x = np.array(rhs[np.arange(b)[:, None], perm], dtype=lu.dtype)
    y = eigen_trsm.solve(lu, x, lower=True, unit=True)
    out = eigen_trsm.solve(lu, y, lower=False)
    return out, np.all(np.abs(np.diagonal(lu, axis1=1, axis2=2)) > 0, axis=1)


def _lu(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """partial_piv_lu's loop, with the row permutation (perm[i]: the input row now at row i)."""
    m = np.array(a, copy=True)
    b, n = m.shape[0], m.shape[-1]
    rows = np.arange(b)
    swaps = np.zeros(b, np.int64)
    first = np.zeros(b, np.intp)
    perm = np.tile(np.arange(n), (b, 1))
    with np.errstate(all="ignore"):
        for k in range(n):
            col = _abs(m[:, k:, k])
            # the first row greater than every one before it: the first maximum, a NaN never taken
            # below the top and kept at the top (the scan's `>` is false on NaN)
            idx = np.where(np.isnan(col[:, 0]), 0, np.argmax(np.where(np.isnan(col), -np.inf, col), axis=1))
            best = col[rows, idx]
            p = k + idx
            swap = (best != 0) & (p != k)
            if swap.any():
                top = m[rows[swap], k].copy()
                m[rows[swap], k] = m[rows[swap], p[swap]]
                m[rows[swap], p[swap]] = top
                ptop = perm[rows[swap], k].copy()
                perm[rows[swap], k] = perm[rows[swap], p[swap]]
                perm[rows[swap], p[swap]] = ptop
                swaps += swap
                if k == 0:
                    first = np.where(swap, p, 0)
            piv = m[:, k, k][:, None]
            m[:, k + 1:, k] = np.where((best != 0)[:, None], _divide(m[:, k + 1:, k], piv), m[:, k + 1:, k])
            if k < n - 1:
                m[:, k + 1:, k + 1:] -= m[:, k + 1:, k][:, :, None] * m[:, k, k + 1:][:, None, :]
    return m, swaps, first, perm


def invertible(a: np.ndarray) -> bool:
    """TF's MatrixInverse check (matrix_inverse_op.cc): min |diagonal of LU| folded left to right
    as `d < m ? d : m` (a NaN first pivot stays, a later one is skipped) must be > 0, for every
    matrix of the batch [..., n, n]. A complex matrix in complex128, |pivot| its modulus, so inf + NaNj
    counts as infinite (fz40: MatrixSolve in sqrtm's gradient, fourteenth generator tape seed 1420403002 #147)."""
    n = a.shape[-1]
    lu, _, _ = partial_piv_lu(a.reshape(-1, n, n).astype(np.complex128 if a.dtype.kind == "c" else np.float64))
    with np.errstate(all="ignore"):
        d = np.abs(np.diagonal(lu, axis1=1, axis2=2))
        low = d[:, 0]
        for j in range(1, n):
            low = np.where(d[:, j] < low, d[:, j], low)
    return bool(np.all(low > 0))


def _abs(d: np.ndarray) -> np.ndarray:
    """cwiseAbs of LU's diagonal: a complex entry's std::abs is glibc's hypot/hypotf of its parts (NumPy's
    complex absolute differs from it in the last bit: float64 log|det| of 2x2 complex128 matrices took
    TF 2.21's value in 238 of 300 random matrices, with hypot in 300; fz33a)."""
    if d.dtype.kind != "c":
        return np.abs(d)
    from simdist.runtime.ops import libm
    re, im = np.ascontiguousarray(d.real), np.ascontiguousarray(d.imag)
    return libm.elementwise("hypotf" if re.dtype == np.float32 else "hypot", re, im)


def _sign(d: np.ndarray) -> np.ndarray:
    """Eigen's sign of LU's diagonal: real 1, -1, or the value itself for 0 and NaN (psign selects
    |x| where neither x > 0 nor x < 0); complex z · (1 / |z|) part by part (0 for 0; inf parts give NaN)."""
    if d.dtype.kind == "c":
        ad = _abs(d)
        inv = d.real.dtype.type(1) / np.where(ad == 0, 1, ad)
        q = np.empty(d.shape, d.dtype)
        q.real, q.imag = d.real * inv, d.imag * inv
        return np.where(ad == 0, np.zeros((), d.dtype), q)
    return np.where(d > 0, d.dtype.type(1), np.where(d < 0, d.dtype.type(-1), np.abs(d)))


_LANES = {"float32": 8, "float64": 4}


def _log(ad: np.ndarray) -> np.ndarray:
    """abs_diag.log() of each matrix's diagonal [b, n]: TF's Log kernel's packets and tail, under
    DAZ: a subnormal is -inf in a packet, log(2**-150) (float32) or log(2**-1075) in the tail."""
    from simdist.runtime.ops import libm, packet_math
    if ad.dtype not in (np.float32, np.float64) or not ad.size:
        return np.log(ad)
    tiny = np.finfo(ad.dtype).tiny
    sub = (ad < tiny) & (ad > 0)
    clean = np.where(sub, ad.dtype.type(1), ad)
    n, p = ad.shape[1], _LANES[ad.dtype.name]
    k = (n // p) * p   # each diagonal's packets, then its tail (all rows at once)
    out = np.empty_like(clean)
    with np.errstate(all="ignore"):
        if k:
            packet = packet_math.plog_float if ad.dtype == np.float32 else packet_math.plog_double
            out[:, :k] = packet(np.ascontiguousarray(clean[:, :k]).ravel()).reshape(-1, k)
        if k < n:
            tail_vals = np.ascontiguousarray(clean[:, k:])
            out[:, k:] = libm.scalar_map("logf" if ad.dtype == np.float32 else "log", tail_vals.ravel()).reshape(tail_vals.shape)
    tail = np.arange(n) >= k
    daz = ad.dtype.type(-150 * np.log(2.0) if ad.dtype == np.float32 else -1075 * np.log(2.0))
    return np.where(sub, np.where(tail, daz, ad.dtype.type(-np.inf)), out)


def _daz(a: np.ndarray) -> np.ndarray:
    """Subnormals (real parts and imaginary parts) as zeros of their sign."""
    if a.dtype.kind == "c":
        out = np.empty(a.shape, a.dtype)
        out.real, out.imag = _daz(np.ascontiguousarray(a.real)), _daz(np.ascontiguousarray(a.imag))
        return out
    with np.errstate(invalid="ignore"):
        return np.where(np.abs(a) < np.finfo(a.dtype).tiny, a * a.dtype.type(0), a)


def slogdet(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """SLogDet of a batch [b, n, n] (n >= 1): sign = det(P) · prod(sign(d)) and log|det| = the sum of
    log|d| over LU's diagonal d in Eigen's redux order (`redux_sum`; inf for an infinite pivot, NaN for a NaN one).
    Under DAZ/FTZ: the factorization reads subnormals as zeros, but the first pivot is a copy of
    the input's entry (real: its original bits reach log and sign: `slogdet([[1e-40]])` is
    (0, -103.97) in float32). Returns (sign in the input's dtype, log|det| in its real dtype)."""
    flushed = _daz(a)
    lu, swaps, first = partial_piv_lu(flushed)
    with np.errstate(all="ignore"):
        d = np.diagonal(lu, axis1=1, axis2=2).copy()
        if a.dtype.kind != "c":
            d[:, 0] = a[np.arange(a.shape[0]), first, 0]
        logs = _log(_abs(d))
        signs = _sign(_daz(d))
        # (abs_diag.log().sum(): Eigen's redux, in AVX packets from 8 float32 or 4 float64 pivots on; fz46b, fz46b_gen
        # seed 46001 #6: det of a 5x5 float64 matrix in the last bits; 258 of 258 seeded slogdets of n >= P after)
        from simdist.runtime.ops.contraction_order import redux_sum
        lad = redux_sum(logs) if logs.dtype in (np.float32, np.float64) else logs.sum(axis=1)
        sign = np.where(swaps % 2 == 1, -1, 1).astype(a.dtype) * signs[:, 0]
        for j in range(1, d.shape[1]):
            sign = sign * signs[:, j]
    return sign.astype(a.dtype), lad
