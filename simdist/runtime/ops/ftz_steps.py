"""Flush-to-zero at each step of a float32 kernel's chain, as TF 2.21's CPU threads run their kernels (MXCSR's FTZ
and DAZ set: subnormals.py), and when a product's steps can flush at all (clause ops.subnormals, its paragraph
"Each step flushes", fix63m).

Every vfmadd/vaddps/vmulps of oneDNN's float32 kernels writes a zero of the exact result's sign where that result,
rounded to float32's 24 bits with an unbounded exponent, is below 2^-126 (x86 detects tininess after rounding:
measured on the Xeon with glibc's fmaf under FTZ, /work/wt/fix63m_logs/hw_ftz.py: 2^-126 - 2^-150 flushes, though
the subnormal grid rounds it to 2^-126, and a product within 2^-151 of 2^-126 rounds to 2^-126 and stays), so a chain of subnormal
terms runs on zeros and ends on its last term's sign. The pure kernels (onednn_softmax.fma32,
contraction_order.ordered_fma_pure, onednn_matmul's adds) flush each step by `fused`/`added`; the compiled ones
(_fma.c, run without FTZ) take only products `flush_free` says no step of can flush, and decline the others
(fma_native), which the pure kernels then compute."""

from __future__ import annotations

import numpy as np

__all__ = ["SAFE_PRODUCT", "added", "flush_free", "fused"]

_F = np.float32
#: float32 results whose exact value lies below this (2^-126 - 2^-151: the midpoint below 2^-126 on the 24-bit grid
#: of the binade below it, which rounds to even, 2^-126) are tiny after rounding: flushed
_TINY_AFTER = 2.0 ** -126 - 2.0 ** -151


def fused(s: np.ndarray) -> np.ndarray:
    """float64 `s`, a float32 operation's result as onednn_softmax.round_fused leaves it (rounds to float32 as the
    exact result does; where 0 < |exact| < 2^-126 it lies on the exact result's side of every float32 midpoint),
    as float32 under FTZ: a zero of its sign where |exact| < _TINY_AFTER. A NaN or infinity passes as it is."""
    s = np.asarray(s, np.float64)
    out = s.astype(_F)
    tiny = np.abs(s) < _TINY_AFTER
    if tiny.any():
        out = np.where(tiny, np.copysign(_F(0), s).astype(_F), out)
    return out


def added(r: np.ndarray) -> np.ndarray:
    """A float32 sum or product `r` (rounded on float32's subnormal grid) under FTZ: a sum of two float32 values is
    a multiple of 2^-149, so it is tiny after rounding exactly when it is subnormal; a zero of its sign for those."""
    r = np.asarray(r, _F)
    m = np.abs(r)
    sub = (m < _F(2.0 ** -126)) & (m > 0)
    if sub.any():
        r = np.where(sub, np.copysign(_F(0), r), r).astype(_F)
    return r


#: the smallest product of the least nonzero finite magnitudes of the two operands for which no step of their
#: product can be tiny: then every float32 operand's ulp product is at least 2^-126 (a nonzero a lies below
#: 2^(E_a + 1), so |a||b| >= 2^-78 gives E_a + E_b >= -79, and a·b a multiple of 2^(E_a + E_b - 46) >= 2^-125), so
#: every product, partial sum and float32 rounding of one is a multiple of 2^-126: zero or normal
SAFE_PRODUCT = 2.0 ** -78


def _least(a: np.ndarray) -> float:
    """The least magnitude of `a`'s nonzero finite elements (inf where there is none)."""
    m = np.abs(np.asarray(a))
    return float(np.min(m, where=(m != 0) & (m < np.inf), initial=np.inf))   # (NaN fails both tests)


def flush_free(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether no step of a float32 product of x's and y's elements (fused multiply-adds, sums of them) can be tiny:
    the least nonzero finite magnitudes multiply to SAFE_PRODUCT or more (and neither holds a subnormal)."""
    return _least(x) * _least(y) >= SAFE_PRODUCT
