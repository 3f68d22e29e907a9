"""Eigen's modified Bessel functions of the second kind, generic_k0/k0e/k1/k1e<T, float|double>
(unsupported/Eigen/src/SpecialFunctions/BesselFunctionsImpl.h in the wheel's headers, Cephes'
k0/k1 Chebyshev series), which TF 2.21's CPU BesselK0, BesselK0e, BesselK1 and BesselK1e kernels
run. x <= 2: k0 = chbevl(x·x - 2, A) + i0(x)·(-log(0.5·x)) (k1: chbevl(x·x - 2, A)/x + i1(x)·log(0.5·x)),
the e-forms times exp(x), x <= 0 inf; x > 2: chbevl(8/x - 2, B)·rsqrt(x) (k0: exp(-x) times it
first, k1: exp(-x) times the product), NaN passing through. chbevl, i0 and i1, the packets (float32
and half, the first (n // 8) * 8 elements: plog_float, pexp_float, vrsqrtps and a Newton step) and
the scalar paths (logf/expf/1 / sqrt; float64 only scalar, glibc's log and exp) as bessel_i_eigen.py.
Observed bit for bit against TF 2.21 on this AMD host (fz45), where SciPy's values had differed in
the last bit on about 70% of float32 and 50% of float64 inputs. Clause ops.eigen-kernels.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import libm
from simdist.runtime.ops.bessel_i_eigen import _chebevl, _exp, _i0, _i1, _rsqrt, _run
from simdist.runtime.ops.packet_math import plog_float

__all__ = ["bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e"]

_K0_A_F = (1.90451637722020886025E-9, 2.53479107902614945675E-7, 2.28621210311945178607E-5, 1.26461541144692592338E-3,
            3.59799365153615016266E-2, 3.44289899924628486886E-1, -5.35327393233902768720E-1)
_K0_B_F = (-1.69753450938905987466E-9, 8.57403401741422608519E-9, -4.66048989768794782956E-8, 2.76681363944501510342E-7,
            -1.83175552271911948767E-6, 1.39498137188764993662E-5, -1.28495495816278026384E-4, 1.56988388573005337491E-3,
            -3.14481013119645005427E-2, 2.44030308206595545468E0)
_K0_A_D = (1.37446543561352307156E-16, 4.25981614279661018399E-14, 1.03496952576338420167E-11, 1.90451637722020886025E-9,
            2.53479107902614945675E-7, 2.28621210311945178607E-5, 1.26461541144692592338E-3, 3.59799365153615016266E-2,
            3.44289899924628486886E-1, -5.35327393233902768720E-1)
_K0_B_D = (5.30043377268626276149E-18, -1.64758043015242134646E-17, 5.21039150503902756861E-17,
            -1.67823109680541210385E-16, 5.51205597852431940784E-16, -1.84859337734377901440E-15,
            6.34007647740507060557E-15, -2.22751332699166985548E-14, 8.03289077536357521100E-14,
            -2.98009692317273043925E-13, 1.14034058820847496303E-12, -4.51459788337394416547E-12,
            1.85594911495471785253E-11, -7.95748924447710747776E-11, 3.57739728140030116597E-10, -1.69753450938905987466E-9,
            8.57403401741422608519E-9, -4.66048989768794782956E-8, 2.76681363944501510342E-7, -1.83175552271911948767E-6,
            1.39498137188764993662E-5, -1.28495495816278026384E-4, 1.56988388573005337491E-3, -3.14481013119645005427E-2,
            2.44030308206595545468E0)
_K1_A_F = (-2.21338763073472585583E-8, -2.43340614156596823496E-6, -1.73028895751305206302E-4, -6.97572385963986435018E-3,
            -1.22611180822657148235E-1, -3.53155960776544875667E-1, 1.52530022733894777053E0)
_K1_B_F = (2.01504975519703286596E-9, -1.03457624656780970260E-8, 5.74108412545004946722E-8, -3.50196060308781257119E-7,
            2.40648494783721712015E-6, -1.93619797416608296024E-5, 1.95215518471351631108E-4, -2.85781685962277938680E-3,
            1.03923736576817238437E-1, 2.72062619048444266945E0)
_K1_A_D = (-7.02386347938628759343E-18, -2.42744985051936593393E-15, -6.66690169419932900609E-13,
            -1.41148839263352776110E-10, -2.21338763073472585583E-8, -2.43340614156596823496E-6, -1.73028895751305206302E-4,
            -6.97572385963986435018E-3, -1.22611180822657148235E-1, -3.53155960776544875667E-1, 1.52530022733894777053E0)
_K1_B_D = (-5.75674448366501715755E-18, 1.79405087314755922667E-17, -5.68946255844285935196E-17,
            1.83809354436663880070E-16, -6.05704724837331885336E-16, 2.03870316562433424052E-15,
            -7.01983709041831346144E-15, 2.47715442448130437068E-14, -8.97670518232499435011E-14,
            3.34841966607842919884E-13, -1.28917396095102890680E-12, 5.13963967348173025100E-12,
            -2.12996783842756842877E-11, 9.21831518760500529508E-11, -4.19035475934189648750E-10, 2.01504975519703286596E-9,
            -1.03457624656780970260E-8, 5.74108412545004946722E-8, -3.50196060308781257119E-7, 2.40648494783721712015E-6,
            -1.93619797416608296024E-5, 1.95215518471351631108E-4, -2.85781685962277938680E-3, 1.03923736576817238437E-1,
            2.72062619048444266945E0)


def _log(v: np.ndarray, packet: bool) -> np.ndarray:
    if packet:
        return plog_float(v)
    return libm.scalar_map("logf" if v.dtype == np.float32 else "log", v)


def _coef(x: np.ndarray, f: tuple, d: tuple) -> tuple:
    return f if x.dtype == np.float32 else d


def _k0_low(x: np.ndarray, packet: bool) -> np.ndarray:
    t = x.dtype.type
    low = _chebevl(x * x + t(-2.0), _coef(x, _K0_A_F, _K0_A_D))
    return _i0(x, packet) * -_log(t(0.5) * x, packet) + low


def _k1_low(x: np.ndarray, packet: bool) -> np.ndarray:
    t = x.dtype.type
    low = _chebevl(x * x + t(-2.0), _coef(x, _K1_A_F, _K1_A_D)) / x
    return _i1(x, packet) * _log(t(0.5) * x, packet) + low


def _high(x: np.ndarray, b: tuple) -> np.ndarray:
    t = x.dtype.type
    return _chebevl(t(8.0) / x - t(2.0), b)


def _select(x: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    t = x.dtype.type
    low = np.where(x <= t(0), t(np.inf), low)
    return np.where(x <= t(2), low, high)


def _k0(x: np.ndarray, packet: bool) -> np.ndarray:
    high = (_exp(-x, packet) * _high(x, _coef(x, _K0_B_F, _K0_B_D))) * _rsqrt(x, packet)
    return _select(x, _k0_low(x, packet), high)


def _k0e(x: np.ndarray, packet: bool) -> np.ndarray:
    low = _exp(x, packet) * _k0_low(x, packet)
    return _select(x, low, _high(x, _coef(x, _K0_B_F, _K0_B_D)) * _rsqrt(x, packet))


def _k1(x: np.ndarray, packet: bool) -> np.ndarray:
    high = _exp(-x, packet) * (_high(x, _coef(x, _K1_B_F, _K1_B_D)) * _rsqrt(x, packet))
    return _select(x, _k1_low(x, packet), high)


def _k1e(x: np.ndarray, packet: bool) -> np.ndarray:
    low = _k1_low(x, packet) * _exp(x, packet)
    return _select(x, low, _high(x, _coef(x, _K1_B_F, _K1_B_D)) * _rsqrt(x, packet))


def bessel_k0(a: np.ndarray) -> np.ndarray:
    return _run(a, _k0)


def bessel_k0e(a: np.ndarray) -> np.ndarray:
    return _run(a, _k0e)


def bessel_k1(a: np.ndarray) -> np.ndarray:
    return _run(a, _k1)


def bessel_k1e(a: np.ndarray) -> np.ndarray:
    return _run(a, _k1e)
