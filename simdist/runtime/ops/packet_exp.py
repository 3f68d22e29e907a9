"""Eigen's packet exp for float64 (pexp_double), which TF 2.21's CPU Exp kernel runs on the
elements it computes in SIMD packets (simd.py: the first (n // 4) * 4 of n float64 elements);
the scalar tail is std::exp, correctly rounded as np.exp. pexp_double is a Cephes rational
interpolant (Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h, the wheel's headers),
without FMA in TF's x86-64 wheel: it differs from np.exp by an ulp on ~15% of inputs, e.g.
exp(-1.0) is 0.3678794411714423 in a packet and 0.36787944117144233 in the tail (so erfc's
float64 gradient at 1.0 is an ulp off in packet lanes: fuzz2 seed 20261130 #473). Bit-equal to
TF 2.21 on 120,000 inputs in [-700, 700]; clause ops.packet-paths.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops.simd import packet_mask

__all__ = ["EXP_LANES", "pexp_double", "exp"]

EXP_LANES = {"float64": 4}


def pexp_double(x: np.ndarray) -> np.ndarray:
    """Eigen's pexp_double of finite x, each step rounded as the kernel's mul/add (no FMA); the
    scaling by 2**n as ldexp (exact for a normal result), 0 below -745.519."""
    xc = np.minimum(x, 709.784)
    fx = np.floor(1.4426950408889634073599 * xc + 0.5)
    t = xc - fx * 0.693145751953125
    t = t - fx * 1.42860682030941723212e-6
    x2 = t * t
    px = ((1.26177193074810590878e-4 * x2 + 3.02994407707441961300e-2) * x2 + 9.99999999999999999910e-1) * t
    qx = ((3.00198505138664455042e-6 * x2 + 2.52448340349684104192e-3) * x2 + 2.27265548208155028766e-1) * x2 \
        + 2.00000000000000000009e0
    r = 2.0 * (px / (qx - px)) + 1.0
    out = np.maximum(np.ldexp(r, fx.astype(np.int64)), x)
    return np.where(x < -745.519, 0.0, out)


def exp(a: np.ndarray) -> np.ndarray:
    """TF's Exp: np.exp, and pexp_double on the finite inputs of float64 packet lanes."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        out = np.exp(a)
        if a.dtype != np.float64:
            return out
        mask = packet_mask(a.shape, a.dtype, EXP_LANES)
        if mask is None:
            return out
        sel = mask & np.isfinite(a)
        if not sel.any():
            return out
        out = np.array(out, copy=True)
        out[sel] = pexp_double(a[sel])
        return out
