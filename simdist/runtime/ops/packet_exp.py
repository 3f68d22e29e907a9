"""Eigen's packet exp for float64 (pexp_double), which TF 2.21's CPU Exp kernel runs on the
elements it computes in SIMD packets (simd.py: the first (n // 4) * 4 of n float64 elements);
the scalar tail is the C library's exp (libm.py; NumPy's SVML exp is not glibc's). pexp_double
is a Cephes rational interpolant (Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h, the wheel's headers),
without FMA in TF's x86-64 wheel: it differs from np.exp by an ulp on ~15% of inputs, e.g.
exp(-1.0) is 0.3678794411714423 in a packet and 0.36787944117144233 in the tail (so erfc's
float64 gradient at 1.0 is an ulp off in packet lanes: fuzz2 seed 20261130 #473). Bit-equal to
TF 2.21 on 120,000 inputs in [-700, 700]; clause ops.packet-paths.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import libm

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
    """TF's Exp: np.exp for other dtypes; float64: pexp_double on the finite inputs of packet lanes
    and the C library's exp on the scalar tail (libm.py: NumPy's SVML exp differs from glibc's in
    the last bit on about 4.5% of inputs in [-700, 700])."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        out = np.exp(a)
        if a.dtype != np.float64 or not a.size:
            return out
        flat = np.array(out, copy=True).ravel()
        src = np.ascontiguousarray(a).ravel()
        k = (src.size // 4) * 4
        if k < src.size:
            flat[k:] = libm.scalar_map("exp", src[k:])
        if k:
            head = src[:k]
            sel = np.isfinite(head)
            if sel.any():
                flat[:k][sel] = pexp_double(head[sel])
        return flat.reshape(a.shape)
