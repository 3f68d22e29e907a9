"""Eigen's modified Bessel functions of the first kind, generic_i0e/i1e<T, float|double> and
generic_i0/i1 = exp(|x|)·i0e/i1e (unsupported/Eigen/src/SpecialFunctions/BesselFunctionsImpl.h in
the wheel's headers, Cephes' i0e/i1e Chebyshev series), which TF 2.21's CPU BesselI0, BesselI0e,
BesselI1 and BesselI1e kernels run. y = |x|: y <= 8 is chbevl(0.5·y - 2, A) (i1e: times y), above
chbevl(32/y - 2, B)·rsqrt(y); i1e takes x's sign; chbevl is pchebevl (b0 = x·b1 + c - b2, then
0.5·(b0 - b2)), every multiply-add rounded twice (the wheel has no FMA). float32 runs in SIMD packets
on the first (n // 8) * 8 elements (flat order): rsqrt is the AVX estimate refined by one Newton
step (rcp.py, the host's table) and exp Eigen's pexp_float (packet_pow.py); the scalar tail takes
1 / sqrt(y) and expf. half is the float function, packets and tail, rounded (a half bessel_i1
near its overflow shows pexp_float's last bit). float64 has no packet Bessel functions on AVX (packet_traits<double> lacks HasBessel):
every element takes the scalar path with the double coefficients (30/25 terms for i0e, 29/25 for
i1e), 1 / sqrt(y) and glibc's exp. Observed bit for bit against TF 2.21 on this AMD host (fz45:
7,000 float32 inputs in packets and tails, 4,000 half, 4,000 float64 of each function), where
SciPy's double-precision values (rounded to float32) had differed in the last bit on ordinary
inputs (float32 bessel_i0e(1.0) 0.46575963 in TF, 0.46575961 before: fz44's sweep) and SciPy's
float64 ones on about half the inputs. Clause ops.eigen-kernels.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import libm, rcp
from simdist.runtime.ops.packet_math import packets_and_tail
from simdist.runtime.ops.packet_pow import pexp_float

__all__ = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e"]

_I0E_A_F = (-1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7, 1.11738753912010371815E-6,
            -4.41673835845875056359E-6, 1.64484480707288970893E-5, -5.75419501008210370398E-5, 1.88502885095841655729E-4,
            -5.76375574538582365885E-4, 1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
            -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2, 1.71620901522208775349E-1,
            -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_I0E_B_F = (3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7, 2.89137052083475648297E-6,
            6.88975834691682398426E-5, 3.36911647825569408990E-3, 8.04490411014108831608E-1)
_I0E_A_D = (-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
            1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
            -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
            9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9, -1.30002500998624804212E-8,
            6.04699502254191894932E-8, -2.67079385394061173391E-7, 1.11738753912010371815E-6, -4.41673835845875056359E-6,
            1.64484480707288970893E-5, -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
            1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2, -2.37374148058994688156E-2,
            4.93052842396707084878E-2, -9.49010970480476444210E-2, 1.71620901522208775349E-1, -3.04682672343198398683E-1,
            6.76795274409476084995E-1)
_I0E_B_D = (-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
            3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
            1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
            -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13, 7.18012445138366623367E-13,
            -1.79417853150680611778E-12, -1.32158118404477131188E-11, -3.14991652796324136454E-11,
            1.18891471078464383424E-11, 4.94060238822496958910E-10, 3.39623202570838634515E-9, 2.26666899049817806459E-8,
            2.04891858946906374183E-7, 2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
            8.04490411014108831608E-1)
_I1E_A_F = (9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7, -8.56872026469545474066E-7,
            3.47025130813767847674E-6, -1.32731636560394358279E-5, 4.78156510755005422638E-5, -1.61760815825896745588E-4,
            5.12285956168575772895E-4, -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
            2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1, -1.76416518357834055153E-1,
            2.52587186443633654823E-1)
_I1E_B_F = (-3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7, -3.88256480887769039346E-6,
            -1.10588938762623716291E-4, -9.76109749136146840777E-3, 7.78576235018280120474E-1)
_I1E_A_D = (2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
            -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
            3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
            -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9, 9.38153738649577178388E-9,
            -4.44505912879632808065E-8, 2.00329475355213526229E-7, -8.56872026469545474066E-7, 3.47025130813767847674E-6,
            -1.32731636560394358279E-5, 4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
            -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2, 2.47264490306265168283E-2,
            -5.29459812080949914269E-2, 1.02643658689847095384E-1, -1.76416518357834055153E-1, 2.52587186443633654823E-1)
_I1E_B_D = (7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
            -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
            -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
            4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
            -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11, 3.25260358301548823856E-11,
            -1.89749581235054123450E-11, -5.58974346219658380687E-10, -3.83538038596423702205E-9,
            -2.63146884688951950684E-8, -2.51223623787020892529E-7, -3.88256480887769039346E-6, -1.10588938762623716291E-4,
            -9.76109749136146840777E-3, 7.78576235018280120474E-1)


def _chebevl(x: np.ndarray, coef: tuple) -> np.ndarray:
    """pchebevl: Clenshaw's recurrence from coef[0], then 0.5·(b0 - b2), in x's dtype."""
    t = x.dtype.type
    b0 = np.full_like(x, t(coef[0]))
    b1 = np.zeros_like(x)
    b2 = b1
    for c in coef[1:]:
        b2, b1 = b1, b0
        b0 = (x * b1 + t(c)) - b2
    return t(0.5) * (b0 - b2)


def _rsqrt(y: np.ndarray, packet: bool) -> np.ndarray:
    return rcp.rsqrt_packet(y) if packet else y.dtype.type(1) / np.sqrt(y)


def _exp(y: np.ndarray, packet: bool) -> np.ndarray:
    if packet:
        return pexp_float(y)
    return libm.scalar_map("expf" if y.dtype == np.float32 else "exp", y)


def _i0e(x: np.ndarray, packet: bool) -> np.ndarray:
    t = x.dtype.type
    a, b = (_I0E_A_F, _I0E_B_F) if x.dtype == np.float32 else (_I0E_A_D, _I0E_B_D)
    y = np.abs(x)
    low = _chebevl(t(0.5) * y + t(-2.0), a)
    high = _chebevl(t(32.0) / y - t(2.0), b) * _rsqrt(y, packet)
    return np.where(y <= t(8), low, high)


def _i1e(x: np.ndarray, packet: bool) -> np.ndarray:
    t = x.dtype.type
    a, b = (_I1E_A_F, _I1E_B_F) if x.dtype == np.float32 else (_I1E_A_D, _I1E_B_D)
    y = np.abs(x)
    low = y * _chebevl(t(0.5) * y + t(-2.0), a)
    high = _chebevl(t(32.0) / y - t(2.0), b) * _rsqrt(y, packet)
    r = np.where(y <= t(8), low, high)
    return np.where(x < 0, -r, r)


def _i0(x: np.ndarray, packet: bool) -> np.ndarray:
    return _exp(np.abs(x), packet) * _i0e(x, packet)


def _i1(x: np.ndarray, packet: bool) -> np.ndarray:
    return _exp(np.abs(x), packet) * _i1e(x, packet)


def _run(a: np.ndarray, fn) -> np.ndarray:   # noqa: ANN001
    """fn(x, packet) over a float32/float64/half array: float32 and half (through float, rounded) in
    packets and a tail, float64 on the scalar path."""
    half = a.dtype == np.float16
    out = packets_and_tail(np.asarray(a, np.float32 if half else a.dtype), fn).ravel()
    # FTZ on the results (ops.subnormals): exp(-x)·... below the normal range is a zero of its sign in TF (the
    # errstate above hides the underflow flag from dispatch's check)
    out = np.where(np.abs(out) < np.finfo(out.dtype).tiny, out * out.dtype.type(0), out)
    return out.reshape(np.shape(a)).astype(a.dtype, copy=False)


def bessel_i0e(a: np.ndarray) -> np.ndarray:
    return _run(a, _i0e)


def bessel_i1e(a: np.ndarray) -> np.ndarray:
    return _run(a, _i1e)


def bessel_i0(a: np.ndarray) -> np.ndarray:
    return _run(a, _i0)


def bessel_i1(a: np.ndarray) -> np.ndarray:
    return _run(a, _i1)
