"""Eigen's packet pow for float32 (generic_pow, Eigen/src/Core/arch/Default/
GenericPacketMathFunctions.h in TF 2.21's wheel headers), which TF 2.21's CPU Pow kernel runs on
the elements it computes in SIMD packets (the first (n // 8) * 8 of n float32 elements, flat
order: simd.py); the scalar tail is std::pow (the C library's powf: libm.py). pow(x, y) =
exp2(y * log2|x|) in double-word float32 arithmetic: log2 of the mantissa by a degree-10
polynomial whose last two Horner steps are double-word (accurate_log2<float>), y * (e + log2 m)
as Dekker products (the wheel has no FMA: Veltkamp splitting, every multiply-add rounded twice),
split into n + r, exp2(r) = pexp_float(r * ln2) * (1 + the product's low word), scaled by 2**n;
then the C standard's special cases (signs, zeros, infinities, NaN, y = 1, y = 0, x = 1). It is
up to 2 ulps from a correctly rounded pow, x**2 and x**3 included: `tf.pow(x, 3.0)` is not
x*x*x. Clause ops.eigen-kernels.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import subnormals as _sn
from simdist.runtime.ops import libm, pow_subnormals
from simdist.runtime.ops.nan_operands import quieted

__all__ = ["PACKET", "PACKET_D", "generic_pow_double", "generic_pow_float", "pexp_float", "pldexp", "pldexp_double",
           "pow_packets", "pround", "twoprod"]

PACKET, PACKET_D = 8, 4   # float32 and float64 lanes of TF 2.21's x86-64 wheel (AVX)

_F = np.float32
_I = np.int32

# accurate_log2<float>: ppolevl<8> coefficients and the two double-word lowest-order ones
_LOG2_C = tuple(_F(c) for c in (
    9.7010828554630279541015625e-02, -1.6896486282348632812500000e-01, 1.7200836539268493652343750e-01,
    -1.7892272770404815673828125e-01, 2.0505344867706298828125000e-01, -2.4046677350997924804687500e-01,
    2.8857553005218505859375000e-01, -3.6067414283752441406250000e-01, 4.8089790344238281250000000e-01))
_KC0 = 1.442695041742110273474963832995854318141937255859375e+00
_KC1 = -7.2134751588268664068692714863573201000690460205078125e-01
_C0_HI, _C1_HI = _F(_KC0), _F(_KC1)
_C0_LO, _C1_LO = _F(_KC0 - float(_C0_HI)), _F(_KC1 - float(_C1_HI))
_SPLIT = _F(4097.0)        # Veltkamp: 2**12 + 1 for float's 24 digits
_SQRT_HALF = _F(0.70710678118654752440)
_LN2 = _F(0.693147180559945309417232121458176568)
_PREV_HALF = np.array(0x3EFFFFFF, np.uint32).view(_F)   # the float just below 0.5
# pexp_float (Cephes), and generic_exp2's caps: max_exponent + 1, -(max_exponent + digits - 1)
_EXP_HI, _EXP_LO = _F(88.723), _F(-104.0)
_LOG2EF = _F(1.44269504088896341)
_EXP_C1, _EXP_C2 = _F(-0.693359375), _F(2.12194440e-4)
_EXP_P = tuple(_F(c) for c in (0.49999988079071044921875, 0.16666518151760101318359375,
                              4.166965186595916748046875e-2, 8.36894474923610687255859375e-3,
                              1.37449637986719608306884765625e-3))
_EXP2_MAX, _EXP2_MIN = _F(129.0), _F(-151.0)
# generic_pow: (max_exponent * ln2) / epsilon, computed in float as Eigen's constexpr
_HUGE_EXPONENT = (_F(128) * _F(0.693147180559945309417)) / np.finfo(_F).eps


_PREV_HALF_D = np.array(0x3FDFFFFFFFFFFFFF, np.uint64).view(np.float64)
_SPLIT_D = float(2 ** 27 + 1)   # Veltkamp for double's 53 digits


def pround(a: np.ndarray) -> np.ndarray:
    """Eigen's AVX pround: trunc(a + copysign(prev(0.5), a)), the sum rounded (halves away from 0)."""
    return np.trunc(a + np.copysign(_PREV_HALF if a.dtype == _F else _PREV_HALF_D, a))


def _split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """veltkamp_splitting: x = hi + lo exactly, hi holding the upper half of the digits."""
    gamma = (_SPLIT if x.dtype == _F else _SPLIT_D) * x
    hi = (x - gamma) + gamma
    return hi, x - hi


def twoprod(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dekker's product without FMA: x * y = hi + lo exactly, hi = fl(x * y). For float32 the
    same pair from float64's exact product (4 NumPy steps, not 15: pow's cost is its step count);
    they differ only where x * y overflows, which generic_pow's special cases overwrite."""
    if x.dtype == _F:
        p = np.multiply(x, y, dtype=np.float64)
        hi = p.astype(_F)
        p -= hi
        return hi, p.astype(_F)
    xh, xl = _split(x)
    yh, yl = _split(y)
    hi = x * y
    lo = xh * yh + -hi
    lo = xh * yl + lo
    lo = xl * yh + lo
    lo = xl * yl + lo
    return hi, lo


def _fast_twosum(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = x + y
    return s, y - (s - x)


def _twosum_dd(xh: np.ndarray, xl: np.ndarray, yh: np.ndarray, yl: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """fast_twosum of two double words (|x| >= |y|)."""
    rh, rl = _fast_twosum(xh, yh)
    return _fast_twosum(rh, (yl + rl) + xl)


def _twoprod_dw(xh: np.ndarray, xl: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A double word times a float (Muller's Algorithm 7)."""
    ch, cl1 = twoprod(xh, y)
    th, tl1 = _fast_twosum(ch, xl * y)
    return _fast_twosum(th, tl1 + cl1)


def _frexp(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """pfrexp_generic of a finite, non-negative normal-or-zero float32: m in [0.5, 1), a = m * 2**e
    (0 gives m = 0, e = 0; infinities and NaN give m = a, e = 0)."""
    bits = a.view(np.uint32)
    biased = (bits >> np.uint32(23)).astype(_F)
    special = (a == 0) | (biased == 255)
    m = ((bits & np.uint32(0x807FFFFF)) | np.uint32(0x3F000000)).view(_F)
    return np.where(special, a, m), np.where(special, _F(0), biased - _F(126))


def _pow2(e: np.ndarray) -> np.ndarray:
    """2**e for integer-valued float32 e in [-127, 128] as pldexp builds it (bits (e + 127) << 23)."""
    return ((e.astype(_I) + _I(127)).astype(np.uint32) << np.uint32(23)).view(_F)


def pldexp(a: np.ndarray, e: np.ndarray) -> np.ndarray:
    """pldexp_generic: a * 2**e with e clamped to +-278, in four exact-power factors."""
    ei = np.clip(e, _F(-278), _F(278)).astype(_I)
    b = ei >> 2
    c = _pow2(b.astype(_F))
    out = ((a * c) * c) * c
    return out * _pow2((ei - 3 * b).astype(_F))


def pexp_float(x0: np.ndarray) -> np.ndarray:
    """pexp_float (Cephes' polynomial after m = floor(x log2(e) + 1/2)), its pldexp branch:
    0 below -104, results scaled by pldexp (the fast branch agrees where it is taken)."""
    x = np.minimum(x0, _EXP_HI)
    m = np.floor(x * _LOG2EF + _F(0.5))
    r = m * _EXP_C1 + x
    r = m * _EXP_C2 + r
    r2 = r * r
    p_even = r2 * _EXP_P[4] + _EXP_P[2]
    p_odd = r2 * _EXP_P[3] + _EXP_P[1]
    p_even = r2 * p_even + _EXP_P[0]
    p_low = r + _F(1)
    y = r * p_odd + p_even
    y = r2 * y + p_low
    out = np.fmax(pldexp(y, m), x0)   # (pmax keeps the first operand when x0 is NaN: NaN from y)
    out = np.where(np.isnan(x0), quieted(x0), out)   # (an instruction's NaN operand comes back quieted: bsweep65)
    return np.where(x0 < _EXP_LO, _F(0), out)


def _accurate_log2(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = z - _F(1)
    p = np.full_like(x, _LOG2_C[0])
    for c in _LOG2_C[1:]:
        p = p * x + c
    ph, pl = twoprod(x, p)
    ph, pl = _twosum_dd(_C1_HI, _C1_LO, ph, pl)
    ph, pl = _twoprod_dw(ph, pl, x)
    ph, pl = _twosum_dd(_C0_HI, _C0_LO, ph, pl)
    return _twoprod_dw(ph, pl, x)


def _pow_abs(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """generic_pow_impl: |x| ** y for the ordinary cases (the specials are selected afterwards)."""
    m, e = _frexp(x)
    low = m < _SQRT_HALF
    m = np.where(low, _F(2) * m, m)
    e = np.where(low, e - _F(1), e)
    rh, rl = _accurate_log2(m)
    f1h, f1l = twoprod(e, y)
    f2h, f2l = _twoprod_dw(rh, rl, y)
    fh, fl = _twosum_dd(f1h, f1l, f2h, f2l)
    n = pround(fh)
    r = (fh - n) + fl
    nr = pround(r)
    r = r - nr
    n = n + nr
    # generic_exp2
    r = np.maximum(np.minimum(r, _EXP2_MAX), _EXP2_MIN)
    ph, pl = twoprod(np.full_like(r, _LN2), r)
    e_r = pexp_float(ph) * (_F(1) + pl)
    return pldexp(e_r, n)


def generic_pow_float(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Eigen's generic_pow of float32 arrays of one shape (inputs without subnormals)."""
    return _generic_pow(x, y, _pow_abs, _HUGE_EXPONENT)


def generic_pow_double(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Eigen's generic_pow of float64 arrays of one shape (inputs without subnormals)."""
    return _generic_pow(x, y, _pow_abs_d, _HUGE_EXPONENT_D)


def _generic_pow(x: np.ndarray, y: np.ndarray, impl: Any, huge: Any) -> np.ndarray:
    """generic_pow: impl(|x|, y), then the C standard's special cases, selected in Eigen's order."""
    dt = x.dtype.type
    inf, zero, one, nan = dt(np.inf), dt(0), dt(1), dt(np.nan)
    x_abs = np.abs(x)
    with np.errstate(invalid="ignore", over="ignore", under="ignore", divide="ignore"):
        pow_ = impl(x_abs, y)
        y_abs = np.abs(y)
        if bool(np.all((x > zero) & (x < inf) & (x != one) & (y_abs < huge) & (y != zero) & (y != one))):
            return pow_.astype(dt, copy=False)   # no special case applies (the common case: positive bases)
        x_neg = x < zero
        x_zero = x == zero
        x_sign = np.signbit(x)
        x_gt_one = one < x_abs
        x_inf = x_abs == inf
        y_inf = y_abs == inf
        y_neg = y < zero
        y_int = (np.floor(y) == y) & ~y_inf
        y_half = y * dt(0.5)
        y_odd_int = y_int & ~(pround(y_half) == y_half)
        pow_ = np.where(x_neg & ~y_int, nan, pow_)
        pow_ = np.where(x_zero, np.where(y_neg, inf, zero), pow_)
        pow_ = np.where(x_sign & y_odd_int, -pow_, pow_)
        inf_y = np.where((y_neg & x_zero) | (y_neg ^ x_gt_one), inf, zero)
        inf_y = np.where(x == dt(-1), one, inf_y)
        pow_ = np.where(huge <= y_abs, inf_y, pow_)
        pos_inf_val = np.where(y_neg, zero, inf)
        neg_inf_val = np.where(y_odd_int, -pos_inf_val, pos_inf_val)
        pow_ = np.where(x_inf, np.where(x_neg, neg_inf_val, pos_inf_val), pow_)
        pow_ = np.where(np.isnan(x) | np.isnan(y), nan, pow_)
        pow_ = np.where(y == one, x, np.where((x == one) | (y == zero), one, pow_))
    return pow_.astype(dt, copy=False)


# --- float64: accurate_log2<double> (r = c(x - 1)/(x + 1), an odd polynomial in double-word
# arithmetic), pexp_double (packet_exp.py) for exp2, pldexp_generic of double
_Q_D = (2.87074255468000586e-9, 2.38957980901884082e-8, 2.31032094540014656e-7, 2.27279857398537278e-6,
        2.31271023278625638e-5, 2.47556738444535513e-4, 2.88543873228900172e-3)   # q12, q10, ..., q0
_C_HI_D, _C_LO_D = 0.0400377511598501157, -4.77726582251425391e-19
_2LOG2E_HI_D, _2LOG2E_LO_D = 2.88539008177792677, 4.07660016854549667e-17
_SQRT_HALF_D = 0.70710678118654752440
_LN2_D = 0.693147180559945309417232121458176568
_EXP2_MAX_D, _EXP2_MIN_D = 1025.0, -(1024.0 + 53.0 - 1.0)
_HUGE_EXPONENT_D = (1024.0 * 0.693147180559945309417) / np.finfo(np.float64).eps


def _frexp_d(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """pfrexp_generic of a non-negative normal-or-zero float64 (0, inf, NaN: m = a, e = 0)."""
    bits = a.view(np.uint64)
    biased = (bits >> np.uint64(52)).astype(np.float64)
    special = (a == 0) | (biased == 2047)
    m = ((bits & np.uint64(0x800FFFFFFFFFFFFF)) | np.uint64(0x3FE0000000000000)).view(np.float64)
    return np.where(special, a, m), np.where(special, 0.0, biased - 1022.0)


def _pow2_d(e: np.ndarray) -> np.ndarray:
    return ((e + 1023).astype(np.uint64) << np.uint64(52)).view(np.float64)


def pldexp_double(a: np.ndarray, e: np.ndarray) -> np.ndarray:
    """pldexp_generic of double: e clamped to +-2099, four exact-power factors."""
    ei = np.clip(e, -2099.0, 2099.0).astype(np.int64)
    b = ei >> 2
    c = _pow2_d(b)
    out = ((a * c) * c) * c
    return out * _pow2_d(ei - 3 * b)


def _twoprod_dd(xh: np.ndarray, xl: np.ndarray, yh: np.ndarray, yl: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A double word times a double word: two dw-by-float products, added by fast_twosum."""
    hh, hl = _twoprod_dw(xh, xl, yh)
    lh, ll = _twoprod_dw(xh, xl, yl)
    return _twosum_dd(hh, hl, lh, ll)


def _div_dw(xh: np.ndarray, xl: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """doubleword_div_fp (Joldes, Muller, Popescu, Algorithm 15)."""
    th = xh / y
    pih, pil = twoprod(th, y)
    delta = ((xh - pih) - pil) + xl
    return _fast_twosum(th, delta / y)


def _accurate_log2_d(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    one = np.ones_like(x)
    th, tl = _twoprod_dw(np.full_like(x, _2LOG2E_HI_D), np.full_like(x, _2LOG2E_LO_D), x - one)
    rh, rl = _div_dw(th, tl, x + one)
    r2h, r2l = _twoprod_dd(rh, rl, rh, rl)
    r4h, _ = _twoprod_dd(r2h, r2l, r2h, r2l)
    q12, q10, q8, q6, q4, q2, q0 = _Q_D
    q_even = q12 * r4h + q8
    q_odd = q10 * r4h + q6
    q_even = q_even * r4h + q4
    q_odd = q_odd * r4h + q2
    q_even = q_even * r4h + q0
    q = q_odd * r2h + q_even
    ph, pl = _twoprod_dw(r2h, r2l, q)
    p1h, p1l = _twosum_dd(np.full_like(x, _C_HI_D), np.full_like(x, _C_LO_D), ph, pl)
    p2h, p2l = _twoprod_dd(r2h, r2l, p1h, p1l)
    rh1, rl1 = _fast_twosum(one, p2h)
    p3h, p3l = _fast_twosum(rh1, p2l + rl1)
    return _twoprod_dd(p3h, p3l, rh, rl)


def _pow_abs_d(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    from simdist.runtime.ops.packet_exp import pexp_double
    m, e = _frexp_d(x)
    low = m < _SQRT_HALF_D
    m = np.where(low, 2.0 * m, m)
    e = np.where(low, e - 1.0, e)
    rh, rl = _accurate_log2_d(m)
    f1h, f1l = twoprod(e, y)
    f2h, f2l = _twoprod_dw(rh, rl, y)
    fh, fl = _twosum_dd(f1h, f1l, f2h, f2l)
    n = pround(fh)
    r = (fh - n) + fl
    nr = pround(r)
    r = r - nr
    n = n + nr
    r = np.maximum(np.minimum(r, _EXP2_MAX_D), _EXP2_MIN_D)
    ph, pl = twoprod(np.full_like(r, _LN2_D), r)
    fin = np.isfinite(ph)
    e_hi = np.where(fin, pexp_double(np.where(fin, ph, 0.0)), ph)
    e_r = e_hi * (1.0 + pl)
    return pldexp_double(e_r, np.where(np.isfinite(n), n, 0.0))


def pow_packets(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """TF's float32/float64 Pow: generic_pow on the first (n // P) * P elements of the broadcast
    result (flat order; P = 8 float32, 4 float64), the C library's powf/pow on the rest, each with
    its own reading of subnormal operands (pow_subnormals.py), the result flushed (FTZ)."""
    x, y = np.broadcast_arrays(a, b)
    shape = x.shape
    x, y = x.ravel(), y.ravel()
    n = x.size
    single = x.dtype == _F
    p = PACKET if single else PACKET_D
    k = (n // p) * p
    out = np.empty(n, x.dtype)
    # (the kernel runs under DAZ/FTZ itself, subnormals.py "Pow": the packets read subnormal operands
    # as zeros, the C library's tail by their bits; pow_subnormals.py)
    if k:
        fx, fy = _sn.flushed(x[:k]), _sn.flushed(y[:k])
        got = _sn.flushed((generic_pow_float if single else generic_pow_double)(fx, fy))
        # (generic_pow's last select, y == 1, returns the register of x: its bits, subnormal or not)
        out[:k] = got if fx is x[:k] else np.where(fy == 1, x[:k], got)
    if k < n:
        out[k:] = _sn.flushed(pow_subnormals.tail_fix(x[k:], y[k:],
                                                      libm.scalar_map("powf" if single else "pow", x[k:], y[k:])))
    return out.reshape(shape)
