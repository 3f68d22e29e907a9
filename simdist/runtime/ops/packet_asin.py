"""Eigen's packet asin, acos and atanh (GenericPacketMathFunctions.h: pasin_float, pacos_float,
patanh_float, patanh_double), which TF 2.21's CPU Asin, Acos (float32) and Atanh (float32,
float64) kernels run on the elements they compute in SIMD packets (the first (n // P)·P, P = 8
float32, 4 float64: simd.py), with the C library's asinf/acosf/atanhf/atanh on the scalar tail
(libm.py). Every multiply-add rounded twice (the x86-64 wheel has no FMA). Clause ops.host-cpu
("Dispatch independence": before, every element was NumPy's arcsin/arccos/arctanh, SVML's on
a CPU with AVX-512).
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops.packet_math import packets_then_tail, plog_double, plog_float

__all__ = ["asin", "acos", "atanh"]

_F = np.float32
_ASIN = (_F(5.08838854730129241943359375e-2), _F(3.95139865577220916748046875e-2), _F(7.550220191478729248046875e-2),
         _F(0.16664917767047882080078125), _F(1.00000011920928955078125))
_ACOS = (_F(1.57079637050628662109375), _F(-0.214591205120086669921875), _F(8.8804088532924652099609375e-2),
         _F(-4.8969544470310211181640625e-2), _F(2.717843465507030487060546875e-2),
         _F(-1.1368644423782825469970703125e-2), _F(2.36423197202384471893310546875e-3))   # p0 .. p6
_ATANH_F = (_F(0.1819281280040740966796875), _F(8.2311116158962249755859375e-2), _F(0.14672131836414337158203125),
            _F(0.1997792422771453857421875), _F(0.3333373963832855224609375))
_ATANH_P = (3.3071338469301391e-03, -4.7129526768798737e-02, 1.8185306179826699e-01, -2.5949536095445679e-01,
            1.2306328729812676e-01)
_ATANH_Q = (-3.8679974580640881e-03, 7.6391885763341910e-02, -4.2828141436397615e-01, 9.8733495886883648e-01,
            -1.0000000000000000e+00, 3.6918986189438030e-01)


#: the NaN with every bit set, which a packet's `por` with a comparison's mask makes
_ALL_ONES = {_F: np.array(-1, np.int32).view(_F), np.float64: np.array(-1, np.int64).view(np.float64)}


def _polevl(x: np.ndarray, coeffs: tuple) -> np.ndarray:
    """ppolevl: Horner from coeffs[0], each step a rounded product and a rounded sum."""
    p = np.full(x.shape, coeffs[0], x.dtype)
    for c in coeffs[1:]:
        p = p * x + x.dtype.type(c)
    return p


def pasin_float(x_in: np.ndarray) -> np.ndarray:
    """|x| > 0.5 mapped to sqrt(0.5 - 0.5·|x|) (asin = pi/2 - 2·asin of it), asin(x)/x a degree-8
    even polynomial, the sign of x restored by its bit; for |x| > 1 `por(invalid_mask, p)`'s all-ones NaN
    (0xffffffff: TF 2.21, bsweep65)."""
    abs_x = np.abs(x_in)
    x_large = np.sqrt(_F(0.5) - _F(0.5) * abs_x)
    large = _F(0.5) < abs_x
    x = np.where(large, x_large, abs_x)
    p = _polevl(x * x, _ASIN) * x
    p = np.where(large, _F(np.pi / 2) - _F(2) * p, p)
    p = np.where(np.signbit(x_in), -p, p)
    return np.where(_F(1) < abs_x, _ALL_ONES[_F], p)


def pacos_float(x_in: np.ndarray) -> np.ndarray:
    """acos(|x|)/sqrt(1 - |x|) a degree-6 polynomial (even and odd terms apart), times sqrt(1 - |x|),
    pi minus it where x's sign bit is set (-0.0 too)."""
    abs_x = np.abs(x_in)
    x2 = x_in * x_in
    p0, p1, p2, p3, p4, p5, p6 = _ACOS
    p_even = p6 * x2 + p4
    p_odd = p5 * x2 + p3
    p_even = p_even * x2 + p2
    p_odd = p_odd * x2 + p1
    p_even = p_even * x2 + p0
    p = p_odd * abs_x + p_even
    result = np.sqrt(_F(1) - abs_x) * p
    return np.where(np.signbit(x_in), _F(np.pi) - result, result)


def _atanh_select(x: np.ndarray, small: np.ndarray, large: np.ndarray) -> np.ndarray:
    """|x| >= 0.5: the large form; |x| == 1: ±inf by x's sign bit; |x| > 1: the all-ones NaN of Eigen's
    `por(pcmp_lt(1, |x|), result)` (0xffffffff, 0xffffffffffffffff: TF 2.21, bsweep65)."""
    t = x.dtype.type
    ax = np.abs(x)
    out = np.where(t(0.5) <= ax, large, small)
    out = np.where(ax == t(1), np.where(np.signbit(x), t(-np.inf), t(np.inf)), out)
    return np.where(t(1) < ax, _ALL_ONES[x.dtype.type], out)


def patanh_float(x: np.ndarray) -> np.ndarray:
    """|x| < 0.5: x + x³·P(x²) (P of degree 4); else 0.5·plog((1 + x)/(1 - x))."""
    x2 = x * x
    x3 = x * x2
    p = x3 * _polevl(x2, _ATANH_F) + x
    r = _F(0.5) * plog_float((_F(1) + x) / (_F(1) - x))
    return _atanh_select(x, p, r)


def patanh_double(x: np.ndarray) -> np.ndarray:
    """|x| < 0.5: x + x³·P(x²)/Q(x²) (degrees 4 and 5); else 0.5·plog((1 + x)/(1 - x))."""
    x2 = x * x
    x3 = x * x2
    y_small = x3 * (_polevl(x2, _ATANH_P) / _polevl(x2, _ATANH_Q)) + x
    y_large = 0.5 * plog_double((1.0 + x) / (1.0 - x))
    return _atanh_select(x, y_small, y_large)


def asin(a: np.ndarray) -> np.ndarray | None:
    """TF's float32 Asin: pasin_float in packets, asinf in the tail (else None)."""
    return packets_then_tail(a, pasin_float, "asinf") if a.dtype == _F else None


def acos(a: np.ndarray) -> np.ndarray | None:
    """TF's float32 Acos: pacos_float in packets, acosf in the tail (else None)."""
    return packets_then_tail(a, pacos_float, "acosf") if a.dtype == _F else None


def atanh(a: np.ndarray) -> np.ndarray | None:
    """TF's Atanh: patanh_float/patanh_double in packets, atanhf/atanh in the tail (else None)."""
    if a.dtype == _F:
        return packets_then_tail(a, patanh_float, "atanhf")
    if a.dtype == np.float64:
        return packets_then_tail(a, patanh_double, "atanh")
    return None
