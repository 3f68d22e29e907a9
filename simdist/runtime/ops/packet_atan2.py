"""TF 2.21's CPU Atan2 for float32/float64 (Eigen's scalar_atan2_op): patan2 on the elements of
full SIMD packets (P = 8 float32, 4 float64), the C library's atan2f/atan2 on the scalar tail,
both under DAZ/FTZ (ops.subnormals). Clause ops.eigen-kernels.

patan2 (GenericPacketMath.h in the wheel's headers): arg = y / x, replaced by ±1 where |x| == |y|
and by the result's signed zero where x and y are both zero; then patan(arg) (generic_atan) plus
a shift of pi (x's sign bit) carrying y's sign. Measured on TF 2.21: the |x| == |y| compare reads
subnormals as zero (DAZ) but the both-zero test sees the subnormal's bits, so atan2(0, 1e-40) is
pi/4 in a packet. The tail is glibc's atan2f (fdlibm: bit tests first, then arithmetic under
DAZ: atan2f(1e-40, 1e-40) is 0/0, NaN) and atan2 (IBM: `x == 0` under DAZ, so atan2(5e-324,
5e-324) is pi/2).
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import libm
from simdist.runtime.ops.packet_trig import _ftz, generic_atan

__all__ = ["atan2", "tail"]

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def atan2(y: np.ndarray, x: np.ndarray) -> np.ndarray | None:
    """Atan2 of same-dtype float32/float64 arrays (broadcast), as TF's kernel; None otherwise."""
    if y.dtype != x.dtype or y.dtype not in _LANES:
        return None
    yb, xb = np.broadcast_arrays(y, x)
    shape = yb.shape
    yf, xf = np.ascontiguousarray(yb).ravel(), np.ascontiguousarray(xb).ravel()
    k = (yf.size // _LANES[y.dtype]) * _LANES[y.dtype]
    out = np.empty(yf.size, y.dtype)
    with np.errstate(all="ignore"):
        if k:
            out[:k] = _patan2(yf[:k], xf[:k])
        if k < yf.size:
            out[k:] = tail(yf[k:], xf[k:])
    return out.reshape(shape)


def _uint(dt: np.dtype) -> tuple[type, int]:
    return (np.uint32, 0x80000000) if dt == np.float32 else (np.uint64, 0x8000000000000000)


def _patan2(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    dt = y.dtype
    u, s = _uint(dt)
    sign = u(s)
    yb, xb = y.view(u), x.view(u)
    y_sm, x_sm = yb & sign, xb & sign
    res_sm = y_sm ^ x_sm
    shift = (np.where(x_sm != 0, dt.type(np.pi), dt.type(0)).view(u) | y_sm).view(dt)
    same = _ftz(np.abs(x)) == _ftz(np.abs(y))
    zero = ((xb | yb) & ~sign) == 0
    arg = _ftz(_ftz(y) / _ftz(x))
    arg = np.where(same, (dt.type(1).view(u) | res_sm).view(dt), arg)
    arg = np.where(zero, res_sm.view(dt), arg)
    return _ftz(generic_atan(arg) + shift)


def tail(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """glibc's atan2f/atan2 under DAZ/FTZ, element by element (1-d arrays of one dtype; also Angle's kernel)."""
    dt = y.dtype
    single = dt == np.float32
    out = libm.scalar_map("atan2f" if single else "atan2", y, x)
    tiny = np.finfo(dt).tiny
    sub = ((np.abs(y) < tiny) & (y != 0)) | ((np.abs(x) < tiny) & (x != 0))
    sub &= ~(np.isnan(y) | np.isnan(x))   # (both C functions return x + y for a NaN first: fz5 ext seed 61 #164)
    out = np.where(sub, out, _ftz(out))
    for i in np.flatnonzero(sub):
        out[i] = _sub_atan2f(y[i], x[i]) if single else _sub_atan2(y[i], x[i])
    return out


def _sub_atan2f(y: np.float32, x: np.float32) -> np.float32:
    """fdlibm's e_atan2f.c for an operand pair holding a subnormal, arithmetic under DAZ/FTZ."""
    f = np.float32
    pi, pi_o_2, pi_lo = f(3.1415927410e+00), f(1.5707963705e+00), f(-8.7422776573e-08)
    hx, hy = int(np.array(x).view(np.int32)), int(np.array(y).view(np.int32))
    ix, iy = hx & 0x7FFFFFFF, hy & 0x7FFFFFFF
    if hx == 0x3F800000:   # x = 1.0: atanf(y), which returns a tiny y's bits (atan2f(1e-40, 1) is 1e-40)
        return y
    m = ((hy >> 31) & 1) | ((hx >> 30) & 2)
    if iy == 0:
        return (y, y, pi, -pi)[m]
    if ix == 0 or iy == 0x7F800000:
        return -pi_o_2 if hy < 0 else pi_o_2
    if ix == 0x7F800000:
        return (f(0.0), f(-0.0), pi, -pi)[m]
    k = (iy - ix) >> 23
    if k > 60:
        z = f(pi_o_2 + f(0.5) * pi_lo)
    elif hx < 0 and k < -60:
        z = f(0.0)
    else:
        q = _ftz(np.array([abs(_ftz(np.array([y]))[0] / _ftz(np.array([x]))[0])], f))
        z = libm.scalar_map("atanf", q)[0]
    return (z, -z, f(pi - f(z - pi_lo)), f(f(z - pi_lo) - pi))[m]


def _sub_atan2(y: np.float64, x: np.float64) -> np.float64:
    """glibc's IBM e_atan2.c for an operand pair holding a subnormal: a y of zero bits first, then
    `x == 0` under DAZ (a subnormal x is zero: ±pi/2 by y's sign); a subnormal y beside a negative
    normal x is -pi whatever its sign (the far-below branch's `y > 0`, false under DAZ; measured:
    atan2(±1e-310, -2) is -pi), beside a positive one it reads as a zero of its sign; an infinite x
    is tested before that branch (±pi for -inf, ±0 for +inf, by y's sign bit)."""
    d = np.float64
    ys, xs = bool(np.signbit(y)), bool(np.signbit(x))
    if y == 0 and not (abs(y) > 0):   # (zero bits: y is ±0.0)
        return d(np.copysign(np.pi, y)) if xs else y
    if abs(x) < np.finfo(d).tiny:
        return d(-np.pi / 2) if ys else d(np.pi / 2)
    if np.isinf(y):
        return d(-np.pi / 2) if ys else d(np.pi / 2)
    if np.isinf(x):   # (before the far-below branch: ±pi or ±0 by y's sign bit; atan2(5e-324, -inf) is pi)
        return d(np.copysign(np.pi, y)) if xs else (d(-0.0) if ys else d(0.0))
    if x < 0 and abs(x) >= 2.0 ** -966:   # |y| far below |x| and x < 0: `(y > 0) ? pi : -pi`, and a
        return d(-np.pi)                 # subnormal y > 0 is false under DAZ (atan2(1e-310, -2) is -pi)
    yz = d(-0.0) if ys else d(0.0)
    return d(np.arctan2(yz, x))
