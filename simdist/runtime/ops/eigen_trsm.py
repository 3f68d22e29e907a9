"""Eigen's unblocked triangular solve (trsmKernelR in Eigen/src/Core/products/TriangularSolverMatrix.h),
the order in which TF 2.21's CPU MatrixTriangularSolve computes each unknown.

matrix_triangular_solve_op_impl.h maps each batch matrix and rhs as row-major Eigen matrices and
calls `triangle.solve(rhs)` (`triangle.adjoint().solve(rhs)` with adjoint); Eigen solves a row-major
right-hand side as the transposed problem on the right (triangular_solve_matrix<..., RowMajor>),
whose kernel, for the unknowns in substitution order (row j of the effective triangle t):

    r = rhs[j];  for each solved k in increasing index order: r -= x[k] * t[j, k];  x[j] = r * (1 / t[j, j])

each product and difference rounded in the dtype (the wheel is compiled without FMA), the
reciprocal `RealScalar(1) / t[j, j]` std::complex's operator/ for complex (libgcc's Smith with Annex
G: complex_div.quotient) and the products std::complex's operator* (complex_mul.multiply's scalar
path), under DAZ/FTZ as TF's threads run. Observed bit for bit on TF 2.21 against random float32,
float64, complex64 and complex128 matrices up to Eigen's SmallPanelWidth (`PANEL`; fz27a: a 1×1
complex128 solve is rhs · (1 / a), not rhs / a: fuzz20 seed 2620261205 #112). Limit: above it the
earlier panels are subtracted by Eigen's GEBP kernel, modelled as one sum accumulated from 0 and
subtracted at once (its packet order is not: float64 of order 12, complex of order 9 on differ).
"""

from __future__ import annotations

import numpy as np

__all__ = ["solve", "PANEL"]

# Eigen's SmallPanelWidth (max(Traits::mr, Traits::nr) of gebp_traits<T, T>) for the wheel's AVX build,
# measured on TF 2.21 (fz27a: the last order bit for bit under trsmKernelR alone): up to it no GEBP panel.
PANEL = {"float32": 16, "float64": 8, "complex64": 8, "complex128": 4}


def _ftz(v: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return np.where(np.abs(v) < np.finfo(v.dtype).tiny, v * v.dtype.type(0), v)


def _flush(v: np.ndarray) -> np.ndarray:
    """Subnormal parts to zero (of the same sign), complex part by part."""
    if v.dtype.kind != "c":
        return _ftz(v)
    out = np.empty_like(v)
    out.real, out.imag = _ftz(v.real), _ftz(v.imag)
    return out


def _mul(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c":
        from simdist.runtime.ops import complex_mul
        return complex_mul.multiply(x, y, packets=False)
    return _ftz(x * y)


def _reciprocal(d: np.ndarray) -> np.ndarray:
    if d.dtype.kind == "c":
        from simdist.runtime.ops import complex_div
        return complex_div.quotient(np.ones_like(d), d, packet=False)
    return _ftz(d.dtype.type(1) / _ftz(d))


def solve(tri: np.ndarray, rhs: np.ndarray, lower: bool, unit: bool = False) -> np.ndarray:
    """x with tri x = rhs for batches tri [B, m, m] (the effective triangle, already conjugate-
    transposed for adjoint; only its `lower` or upper part is read) and rhs [B, m, n] of one dtype;
    `unit`: the diagonal taken as ones, unread (Eigen's UnitDiag: PartialPivLU's L)."""
    m = tri.shape[-1]
    with np.errstate(all="ignore"):
        t, r = _flush(tri), _flush(rhs)
        inv = None if unit else _reciprocal(np.diagonal(t, axis1=-2, axis2=-1))      # [B, m]
        x = np.empty_like(r)
        order = range(m) if lower else range(m - 1, -1, -1)
        p = PANEL[t.dtype.name]
        for j in order:
            start = j // p * p                                       # (j's panel: [start, start + p))
            outer = range(0, start) if lower else range(start + p, m)
            acc = r[:, j, :]
            if len(outer):   # (GEBP: the earlier panels' sum, accumulated from 0, subtracted at once)
                total = _mul(x[:, outer[0], :], t[:, j, outer[0]][:, None])
                for k in outer[1:]:
                    total = _flush(total + _mul(x[:, k, :], t[:, j, k][:, None]))
                acc = _flush(acc - total)
            inner = range(start, j) if lower else range(j + 1, min(start + p, m))
            for k in inner:   # (trsmKernelR: k3 increasing)
                acc = _flush(acc - _mul(x[:, k, :], t[:, j, k][:, None]))
            x[:, j, :] = acc if inv is None else _mul(acc, inv[:, j][:, None])
    return x
