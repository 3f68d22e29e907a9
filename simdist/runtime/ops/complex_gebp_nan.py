"""Which NaN TF 2.21's complex GEBP kernel returns (clause ops.complex-gebp-nan; `contraction_order.complex_gebp`).

The kernel's values (which entries are NaN) come from `complex_gebp`; this module gives each NaN part the sign the
x86 instructions leave on it. An SSE/AVX add or multiply returns its first NaN operand, the default NaN (negative)
only where no operand is a NaN (inf · 0, inf - inf): `nan_operands.first_nan`. Which operand comes first is the
compiled kernel's choice, measured on TF 2.21 (cplx59_logs/fit.py): each product is Eigen's lhs (TF's y) times its
rhs (TF's x); within the k loop's peeled part (the first 8·(k // 8) terms) a step adds the product to the
accumulator (the product first), in the remainder the accumulator to the product (the accumulator first); the
partial accumulators add as `_gebp_sum` adds them; the real part is Σ yr·xr + (-Σ yi·xi) (pconj flips the sign of a
NaN Σ yi·xi), the imaginary Σ yi·xr + Σ yr·xi; alpha = 1 then applies as addsub(re·1, im·0), re·0 + im·1 (re first)
and the sum lands on +0.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops.nan_operands import first_nan

__all__ = ["nan_signed_sum", "nan_signed_entries"]


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return first_nan(a + b, a, b)


def _mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return first_nan(a * b, a, b)


def nan_signed_sum(p: np.ndarray, order: str) -> np.ndarray:
    """`contraction_order._gebp_sum`'s sum over p's last axis in `order`, each addition taking the x86 NaN of the
    kernel's operand order (module doc): the product first within the peeled 8·(k // 8) terms, else the
    accumulator first."""
    k = p.shape[-1]
    zero = np.zeros(p.shape[:-1], p.dtype)
    peel = (k // 8) * 8

    def step(acc: np.ndarray, j: int) -> np.ndarray:
        return _add(p[..., j], acc) if j < peel else _add(acc, p[..., j])
    if order == "seq":
        acc, full = zero, 0
    elif order == "pair":
        full = (k // 8) * 8
        c, d = zero, zero
        for j in range(0, full, 2):
            c, d = step(c, j), step(d, j + 1)
        acc = _add(c, d)
    else:
        full = (k // 4) * 4
        cs = [zero] * 4
        for j in range(full):
            cs[j % 4] = step(cs[j % 4], j)
        acc = _add(_add(cs[0], cs[1]), _add(cs[2], cs[3]))
    for j in range(full, k):
        acc = step(acc, j)
    return acc


def nan_signed_entries(xr: np.ndarray, xi: np.ndarray, yr: np.ndarray, yi: np.ndarray,
                       order: str) -> tuple[np.ndarray, np.ndarray]:
    """The real and imaginary parts of one GEBP block's entries with the kernel's NaN signs: x parts [..., m, 1, k],
    y parts [..., 1, n, k] (y transposed), summed in `order` (`nan_signed_sum`)."""
    ft = xr.dtype.type
    s_rr, s_ii, s_ri, s_ir = (nan_signed_sum(_mul(b, a), order) for a, b in ((xr, yr), (xi, yi), (xr, yi), (xi, yr)))
    re = _add(s_rr, -s_ii)
    im = _add(s_ri, s_ir)
    re1, im0, re0, im1 = _mul(re, ft(1)), _mul(im, ft(0)), _mul(re, ft(0)), _mul(im, ft(1))
    out_re = first_nan(re1 - im0, re1, im0)
    out_im = _add(re0, im1)
    zero = np.zeros_like(out_re)
    return _add(out_re, zero), _add(out_im, zero)
