"""TF 2.21's float32/float64 Pow of subnormal operands (clause ops.subnormals, "pow"): the kernel
runs under the MXCSR's DAZ/FTZ bits like every CPU kernel, but its two paths read subnormals
differently (fz13: the third fuzzer's open class, pow(0, 1e-40) is 0 in TF, not 1).

- Eigen's packets (the first (n // P) * P elements: packet_pow.py) compute with SSE arithmetic, so a
  subnormal operand is read as a zero of its sign: pow(0, 1e-40) is 1, pow(-1e-40, 0.5) is 0.
- The scalar tail is glibc's powf/pow, which classifies its operands by their bits (a subnormal y is
  not zero, not an integer), so it gives pow's C-standard answers there: pow(0, 1e-40) is 0,
  pow(-0.0, -1e-40) inf, pow(-1e-40, 0.5) NaN, pow(2, 1e-40) 1. A subnormal x > 0 (or < 0 with an
  integer y) it normalises by multiplying by 2**23 (2**52), which DAZ reads as zero, so its
  logarithm comes from the bits of that zero: log2|x| is -150 (float32) or -1075 (float64), and
  pow(1e-40, 0.5) is 2**-75, pow(-1e-40, -1) is -inf (observed on TF 2.21, as Log's tail:
  subnormals.py `_LOG_TAIL`).
Results are flushed (FTZ) on both paths.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import libm

__all__ = ["tail_fix", "subnormal", "bf16_pow_fix", "pow_rule"]

_TINY = {np.dtype(np.float32): np.finfo(np.float32).tiny, np.dtype(np.float64): np.finfo(np.float64).tiny}
# log2 of a subnormal as glibc's powf/pow read it under DAZ (x * 2**23 or x * 2**52 read as zero)
_LOG2_SUB = {np.dtype(np.float32): -150.0, np.dtype(np.float64): -1075.0}


def subnormal(a: np.ndarray) -> np.ndarray:
    """Where `a` (float32/float64) holds a nonzero subnormal."""
    m = np.abs(a)
    return (m < _TINY[a.dtype]) & (m > 0)


def tail_fix(x: np.ndarray, y: np.ndarray, out: np.ndarray) -> np.ndarray:
    """`out` (the C library's pow of the original, unflushed x and y, element by element) with the
    elements whose x is a nonzero subnormal replaced by glibc's answer under DAZ: for a finite
    nonzero y (a negative x with a non-integer y is NaN already, y = 0 is 1, an infinite or NaN y
    is classified by its bits and left as it is) 2**(y * log2|x|) with log2|x| fixed at -150 or
    -1075, negative for a negative x and an odd integer y. A subnormal y needs no fix: the bit
    tests and the arithmetic (which reads it as zero) give the C library's answers."""
    sx = subnormal(x) & np.isfinite(y) & (y != 0)
    if not sx.any():
        return out
    # (glibc's pow rounds 2**(y * log2|x|), computed in double-double, once: x87's extended
    # precision gives that rounding for float64, double for float32)
    wide = np.longdouble if x.dtype == np.float64 else np.float64
    xs, ys = x[sx], y[sx].astype(wide)
    integer = np.floor(ys) == ys
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        t = ys * wide(_LOG2_SUB[x.dtype])
        # (float64: the C library's exp2, not NumPy's, which is SVML's on a CPU with AVX-512;
        # long double: NumPy's generic loop)
        mag = np.exp2(t) if wide is np.longdouble else libm.elementwise("exp2", t)
        odd = integer & (np.fmod(ys, 2.0) != 0)
        val = np.where(np.signbit(xs) & odd, -mag, mag)
        # (a negative x to a non-integer power: the C library's invalid result, x86's default NaN, whose sign bit is
        # set: 0xffc00000 / 0xfff8000000000000, observed on TF 2.21, blind63b)
        val = np.where(np.signbit(xs) & ~integer, -np.nan, val).astype(x.dtype)
    out = np.array(out, copy=True)
    out[sx] = val
    return out


def bf16_pow_fix(arrays: list, flushed_in: list, out: np.ndarray, attrs: dict | None) -> np.ndarray:
    """bfloat16 Pow is Eigen's scalar `bfloat16(powf(float(a), float(b)))` at every position (no
    packet path): glibc's powf reads a subnormal operand by its bits, as in float32's tail above
    (pow(-inf, 9.2e-41) is inf, pow(9.2e-41, 0.5) is 2**-75), and the result is flushed (FTZ:
    pow(9.2e-41, 1) is 0). Where an operand is subnormal the element is so recomputed from the
    original operands (fz30b, fz14 seed 1420303004 #18; observed on TF 2.21)."""
    from simdist.runtime import subnormals as _sn
    a, b = (np.asarray(v).astype(np.float32) for v in arrays)
    x, y = np.broadcast_arrays(a, b)
    sub = (subnormal(x) | subnormal(y)).reshape(out.shape)
    if not sub.any():
        return out
    xs, ys = x.ravel(), y.ravel()
    got = _sn.flushed(tail_fix(xs, ys, libm.scalar_map("powf", xs, ys))).reshape(out.shape)
    return _sn.flushed(np.where(sub, got.astype(out.dtype), out).astype(out.dtype))


def pow_rule(arrays: list, attrs: dict | None) -> object:
    """Pow's subnormal rule: `bf16_pow_fix` for bfloat16 operands holding a subnormal, else
    subnormals.py's (float32/float64 keep theirs for packet_pow.py)."""
    from simdist.runtime import subnormals as _sn
    a, b = arrays
    if a.dtype == _sn.BF16 and b.dtype == _sn.BF16 and (_sn.holds(a) or _sn.holds(b)):
        return BF16_POW
    return _sn.RULES["Pow"](arrays, attrs)


def _bf16_pow() -> object:
    from simdist.runtime import subnormals as _sn
    return _sn.Fixed("bfloat16 pow", bf16_pow_fix)


BF16_POW = _bf16_pow()
