"""Eigen's float32 Bessel functions of the first and second kind, generic_j0/j1/y0/y1<T, float>
(unsupported/Eigen/src/SpecialFunctions/BesselFunctionsImpl.h in the wheel's headers, Cephes'
j0f/j1f reshaped for packets), which TF 2.21's CPU BesselJ0/J1/Y0/Y1 kernels run for float32 and,
through float, for half. For y = |x| > 2 both are the Hankel form `p · cos(yn + y)` with
p = rsqrt(y)·MO(1/y) and yn = (1/y)·PH(1/y²) - π/4 (j1: -3π/4) added to y in float32, so for
large y the phase's correction is lost (j0(1e10) is 6.966e-06 in TF, 2.176e-06 in double
precision); y0/y1 take the sine (x <= 0: -inf; y1(0) is NaN, 0 · log 0). For y <= 2 a
polynomial in y² (j0: 1 - y²/4 below 1e-3; y0/y1 add 2/π · log(x) · j0/j1(x)).

The elements a kernel computes in SIMD packets (the first (n // 8) * 8, flat order) use the
packet helpers: prsqrt is the estimate refined by one Newton step (rcp.py, the host's table) and
pcos/psin Eigen's psincos_float (packet_trig.py), plog plog_float (packet_math.py); the scalar
tail uses 1 / sqrt(y) and the C library's cosf/sinf/logf. Every multiply-add is rounded twice (the wheel has no FMA), and the arithmetic runs under
DAZ/FTZ (ops.subnormals). Clause ops.math-special.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from simdist.runtime.ops import libm, rcp
from simdist.runtime.ops.dawson import polevl
from simdist.runtime.ops.packet_math import plog_float
from simdist.runtime.ops.packet_trig import psincos_float

__all__ = ["bessel_j0_float", "bessel_j1_float", "bessel_y0_float", "bessel_y1_float"]

_F = np.float32
_TINY = np.finfo(_F).tiny
_LANES = 8

_J0_JP = tuple(_F(c) for c in (-6.068350350393235E-008, 6.388945720783375E-006, -3.969646342510940E-004,
                               1.332913422519003E-002, -1.729150680240724E-001))
_J0_MO = tuple(_F(c) for c in (-6.838999669318810E-002, 1.864949361379502E-001, -2.145007480346739E-001,
                               1.197549369473540E-001, -3.560281861530129E-003, -4.969382655296620E-002,
                               -3.355424622293709E-006, 7.978845717621440E-001))
_J0_PH = tuple(_F(c) for c in (3.242077816988247E+001, -3.630592630518434E+001, 1.756221482109099E+001,
                               -4.974978466280903E+000, 1.001973420681837E+000, -1.939906941791308E-001,
                               6.490598792654666E-002, -1.249992184872738E-001))
_J0_DR1 = _F(5.78318596294678452118)
_NEG_PIO4F = _F(-0.7853981633974483096)

_J1_JP = tuple(_F(c) for c in (-4.878788132172128E-009, 6.009061827883699E-007, -4.541343896997497E-005,
                               1.937383947804541E-003, -3.405537384615824E-002))
_J1_MO = tuple(_F(c) for c in (6.913942741265801E-002, -2.284801500053359E-001, 3.138238455499697E-001,
                               -2.102302420403875E-001, 5.435364690523026E-003, 1.493389585089498E-001,
                               4.976029650847191E-006, 7.978845453073848E-001))
_J1_PH = tuple(_F(c) for c in (-4.497014141919556E+001, 5.073465654089319E+001, -2.485774108720340E+001,
                               7.222973196770240E+000, -1.544842782180211E+000, 3.503787691653334E-001,
                               -1.637986776941202E-001, 3.749989509080821E-001))
_J1_Z1 = _F(1.46819706421238932572E1)
_NEG_THPIO4F = _F(-2.35619449019234492885)

_Y0_YP = tuple(_F(c) for c in (9.454583683980369E-008, -9.413212653797057E-006, 5.344486707214273E-004,
                               -1.584289289821316E-002, 1.707584643733568E-001))
_Y0_YZ1 = _F(0.43221455686510834878)
_Y1_YP = tuple(_F(c) for c in (8.061978323326852E-009, -9.496460629917016E-007, 6.719543806674249E-005,
                               -2.641785726447862E-003, 4.202369946500099E-002))
_Y1_YO1 = _F(4.66539330185668857532)
_TWOOPI = _F(0.636619772367581343075535)

_Fn = Callable[[np.ndarray], np.ndarray]
Helpers = tuple[_Fn, _Fn, _Fn, _Fn]   # rsqrt, cos, sin, log


def _ftz(v: np.ndarray) -> np.ndarray:
    """Subnormals as zeros of their sign (DAZ on an operand, FTZ on a result)."""
    return np.where(np.abs(v) < _TINY, v * _F(0), v)


def _hankel(y: np.ndarray, mo: tuple, ph: tuple, phase: np.float32, rsqrt: _Fn, cos: _Fn) -> np.ndarray:
    """p · cos(yn + y): the y > 2 branch of generic_j0/j1<float> (y0/y1: with sin for cos)."""
    q = _ftz(_F(1) / y)
    p = _ftz(rsqrt(y) * polevl(q, mo))
    w = _ftz(q * q)
    yn = _ftz(_ftz(q * polevl(w, ph)) + phase)
    return _ftz(p * cos(_ftz(yn + y)))


def _j0(x_in: np.ndarray, helpers: Helpers) -> np.ndarray:
    x = _ftz(x_in)
    y = np.abs(x)
    z = _ftz(y * y)
    small = np.where(y < _F(1.0e-3), _ftz(z * _F(-0.25)) + _F(1), _ftz((z - _J0_DR1) * polevl(z, _J0_JP)))
    return np.where(y <= _F(2), small, _hankel(y, _J0_MO, _J0_PH, _NEG_PIO4F, helpers[0], helpers[1]))


def _j1(x_in: np.ndarray, helpers: Helpers) -> np.ndarray:
    x = _ftz(x_in)
    y = np.abs(x)
    z = _ftz(y * y)
    small = _ftz((z - _J1_Z1) * _ftz(x * polevl(z, _J1_JP)))
    big = _hankel(y, _J1_MO, _J1_PH, _NEG_THPIO4F, helpers[0], helpers[1])
    big = np.where(x < _F(0), -big, big)
    return np.where(y <= _F(2), small, big)


def _y0(x_in: np.ndarray, helpers: Helpers) -> np.ndarray:
    x = _ftz(x_in)
    z = _ftz(x * x)
    small = _ftz(_TWOOPI * _ftz(helpers[3](x_in) * _j0(x, helpers)))
    small = _ftz(_ftz((z - _Y0_YZ1) * polevl(z, _Y0_YP)) + small)
    small = np.where(x <= _F(0), _F(-np.inf), small)
    return np.where(x <= _F(2), small, _hankel(x, _J0_MO, _J0_PH, _NEG_PIO4F, helpers[0], helpers[2]))


def _y1(x_in: np.ndarray, helpers: Helpers) -> np.ndarray:
    x = _ftz(x_in)
    z = _ftz(x * x)
    poly = _ftz((z - _Y1_YO1) * polevl(z, _Y1_YP))
    inner = _ftz(_ftz(_j1(x, helpers) * helpers[3](x_in)) + _ftz(_F(-1) / x))
    small = _ftz(_ftz(poly * x) + _ftz(_TWOOPI * inner))
    small = np.where(x < _F(0), _F(-np.inf), small)
    return np.where(x <= _F(2), small, _hankel(x, _J1_MO, _J1_PH, _NEG_THPIO4F, helpers[0], helpers[2]))


# log receives the unflushed argument: plog reads it under DAZ, glibc's logf from its bits (finite)
_PACKET: Helpers = (rcp.rsqrt_packet, lambda v: psincos_float(v, False), lambda v: psincos_float(v, True),
                    lambda v: plog_float(_ftz(v)))
_SCALAR: Helpers = (lambda v: _F(1) / np.sqrt(v), lambda v: libm.scalar_map("cosf", v),
                    lambda v: libm.scalar_map("sinf", v), lambda v: libm.scalar_map("logf", v))


def _kernel(a: np.ndarray, fn: Callable[[np.ndarray, Helpers], np.ndarray], packets: bool) -> np.ndarray:
    flat = np.ascontiguousarray(a, _F).ravel()
    k = (flat.size // _LANES) * _LANES if packets else 0
    out = np.empty(flat.size, _F)
    with np.errstate(all="ignore"):
        if k:
            out[:k] = fn(flat[:k], _PACKET)
        if k < flat.size:
            out[k:] = fn(flat[k:], _SCALAR)
    return out.reshape(np.shape(a))


def bessel_j0_float(a: np.ndarray, packets: bool = True) -> np.ndarray:
    """TF's float32 BesselJ0 of a float32 array (packets: whether the kernel vectorises)."""
    return _kernel(a, _j0, packets)


def bessel_j1_float(a: np.ndarray, packets: bool = True) -> np.ndarray:
    """TF's float32 BesselJ1 of a float32 array (packets: whether the kernel vectorises)."""
    return _kernel(a, _j1, packets)


def bessel_y0_float(a: np.ndarray, packets: bool = True) -> np.ndarray:
    """TF's float32 BesselY0 of a float32 array (packets: whether the kernel vectorises)."""
    return _kernel(a, _y0, packets)


def bessel_y1_float(a: np.ndarray, packets: bool = True) -> np.ndarray:
    """TF's float32 BesselY1 of a float32 array (packets: whether the kernel vectorises)."""
    return _kernel(a, _y1, packets)
