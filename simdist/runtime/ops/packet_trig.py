"""Eigen's float32 sin/cos (psincos_float) and atan (generic_atan, float32 and float64), which TF
2.21's CPU Sin, Cos and Atan kernels run on the elements they compute in SIMD packets (the first
(n // P) * P, P = 8 float32, 4 float64), with the C library's sinf/cosf/atanf/atan on the scalar
tail (libm.py). Transcribed from GenericPacketMathFunctions.h in the wheel's headers, every
multiply-add rounded twice (the wheel is built for AVX without FMA: the non-FMA reduction
constants and thresholds). Packets run under DAZ/FTZ (ops.subnormals): a subnormal input is a
zero there (sin(1e-39) is 0.0 in a packet, 1e-39 in the tail). float64 Sin and Cos are the C
library's on every element (Eigen has packet sin/cos for double only with AVX2). Clause
ops.eigen-kernels.
"""

from __future__ import annotations

import numpy as np

__all__ = ["atan", "cos", "psincos_float", "sin"]

_F = np.float32
_U = np.uint32
_TWO_OVER_PI = np.array([
    0x00000028, 0x000028be, 0x0028be60, 0x28be60db, 0xbe60db93, 0x60db9391, 0xdb939105, 0x9391054a, 0x91054a7f,
    0x054a7f09, 0x4a7f09d5, 0x7f09d5f4, 0x09d5f47d, 0xd5f47d4d, 0xf47d4d37, 0x7d4d3770, 0x4d377036, 0x377036d8,
    0x7036d8a5, 0x36d8a566, 0xd8a5664f, 0xa5664f10, 0x664f10e4, 0x4f10e410, 0x10e41000, 0xe4100000], np.uint64)
_REDUCE = (_F(-1.5703125), _F(-0.000483989715576171875), _F(1.62865035235881805419921875e-07),
           _F(5.5644315544167710640977020375430583953857421875e-11))
_COS_P = (_F(2.4372266125283204019069671630859375e-05), _F(-0.00138865201734006404876708984375),
          _F(0.041666619479656219482421875), _F(-0.5), _F(1.0))
_SIN_P = (_F(-0.0001959234114083702898469196984621021329076029360294342041015625),
          _F(0.0083326873655616851693794799871284340042620897293090820312500000),
          _F(-0.1666666203982298255503735617821803316473960876464843750000000000))
_MAGIC = _F(12582912.0)
_TINY = {4: np.finfo(_F).tiny, 8: np.finfo(np.float64).tiny}


def _ftz(v: np.ndarray) -> np.ndarray:
    """Subnormals as zeros of their sign (DAZ on a packet's input, FTZ on its result)."""
    return np.where(np.abs(v) < _TINY[v.dtype.itemsize], v * v.dtype.type(0), v)


def _trig_reduce_huge(xf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """trig_reduce_huge: Payne-Hanek reduction of finite |x| >= the threshold with 192 bits of 2/pi,
    in 2.62-bit fixed point (uint64 arithmetic wrapping as C's); returns (r, quadrant)."""
    xi = xf.view(_U).astype(np.uint64)
    e = (xi >> np.uint64(23)) - np.uint64(118)
    m = ((xi & np.uint64(0x007FFFFF)) | np.uint64(0x00800000)) << (e & np.uint64(7))
    i = (e >> np.uint64(3)).astype(np.int64)
    t1, t2, t3 = _TWO_OVER_PI[i - 1], _TWO_OVER_PI[i + 3], _TWO_OVER_PI[i + 7]
    lo32 = np.uint64(0xFFFFFFFF)
    p = m * t3
    p = m * t2 + (p >> np.uint64(32))
    p = (((m * t1) & lo32) << np.uint64(32)) + p
    q = (p + (np.uint64(1) << np.uint64(61))) >> np.uint64(62)
    p = p - (q << np.uint64(62))
    r = (p.view(np.int64).astype(np.float64) * 3.4061215800865545e-19).astype(_F)
    return r, q.astype(np.int32)


def psincos_float(x_in: np.ndarray, sine: bool) -> np.ndarray:
    """psincos_float<sine> of float32 packets (subnormal inputs read as zeros)."""
    a = _ftz(x_in)
    x = np.abs(a)
    y_round = x * _F(0.636619746685028076171875) + _MAGIC
    y_int = y_round.view(np.int32).copy()
    y = y_round - _MAGIC
    for c in _REDUCE:
        x = y * c + x
    huge = (np.abs(a) >= _F(25966.0 if sine else 18838.0)) & np.isfinite(a)
    if huge.any():
        r, q = _trig_reduce_huge(np.abs(a[huge]))
        x[huge] = r
        y_int[huge] = q
    u = y_int.view(_U)
    if sine:
        sign = (a.view(_U) ^ (u << _U(30))) & _U(0x80000000)
    else:
        sign = ((u + _U(1)) << _U(30)) & _U(0x80000000)
    poly_sin_first = (u & _U(1)) == 0
    x2 = x * x
    y1 = np.full_like(x2, _COS_P[0])
    for c in _COS_P[1:]:
        y1 = y1 * x2 + c
    y2 = np.full_like(x2, _SIN_P[0])
    for c in _SIN_P[1:]:
        y2 = y2 * x2 + c
    y2 = y2 * x2
    y2 = y2 * x + x
    out = np.where(poly_sin_first, y2, y1) if sine else np.where(poly_sin_first, y1, y2)
    return _ftz((out.view(_U) ^ sign).view(_F))


# generic_atan: patan_reduced<float> ([5/6] in x), patan_reduced<double> ([13/12])
_ATAN_ALPHA = (_F(1.12026982009410858154296875e-01), _F(7.296695709228515625e-01), _F(8.109951019287109375e-01))
_ATAN_BETA = (_F(1.00917108356952667236328125e-02), _F(2.8318560123443603515625e-01), _F(1.0),
              _F(8.109951019287109375e-01))
_ATAN_ALPHA_D = (2.6667153866462208e-05, 3.0917513112462781e-03, 5.2574296781008604e-02, 3.0409318473444424e-01,
                 7.5365702534987022e-01, 8.2704055405494614e-01, 3.3004361289279920e-01)
_ATAN_BETA_D = (2.7311202462436667e-04, 1.0899150928962708e-02, 1.1548932646420353e-01, 4.9716458728465573e-01,
                1.0, 9.3705509168587852e-01, 3.3004361289279920e-01)


def generic_atan(x_in: np.ndarray) -> np.ndarray:
    """generic_atan of float32/float64 packets: |x| > 1 through pi/2 - atan(1/|x|) (float32's 1/|x|
    is preciprocal: vrcpps + a Newton step, rcp.py), the sign restored by its bit."""
    from simdist.runtime.ops.rcp import reciprocal_packet
    a = _ftz(x_in)
    single = a.dtype == _F
    u = _U if single else np.uint64
    abs_x = np.abs(a)
    large = abs_x > 1
    x = np.where(large, reciprocal_packet(abs_x) if single else 1.0 / abs_x, abs_x)
    x2 = _ftz(x * x)
    alpha, beta = (_ATAN_ALPHA, _ATAN_BETA) if single else (_ATAN_ALPHA_D, _ATAN_BETA_D)
    p = np.full_like(x2, alpha[0])
    for c in alpha[1:]:
        p = p * x2 + c
    q = np.full_like(x2, beta[0])
    for c in beta[1:]:
        q = q * x2 + c
    p = _ftz(x * (p / q))
    half_pi = a.dtype.type(np.pi / 2)
    out = np.where(large, half_pi - p, p)
    sign = a.view(u) & (u(0x80000000) if single else u(0x8000000000000000))
    return (out.view(u) ^ sign).view(a.dtype)


def _split(a: np.ndarray, packet, c_name: str) -> np.ndarray:
    from simdist.runtime.ops.packet_math import packets_then_tail
    return packets_then_tail(a, packet, c_name)


def sin(a: np.ndarray) -> np.ndarray | None:
    """TF's float32 Sin (psin_float in packets, sinf in the tail); None for other
    dtypes (float64: the C library's sin on every element, which NumPy's equals)."""
    if a.dtype == _F:
        return _split(a, lambda v: psincos_float(v, True), "sinf")
    return None


def cos(a: np.ndarray) -> np.ndarray | None:
    """TF's float32 Cos (pcos_float in packets, cosf in the tail); None for other
    dtypes (float64: the C library's cos on every element, which NumPy's equals)."""
    if a.dtype == _F:
        return _split(a, lambda v: psincos_float(v, False), "cosf")
    return None


def atan(a: np.ndarray) -> np.ndarray | None:
    """TF's float32/float64 Atan: generic_atan in packets, atanf/atan in the tail (else None)."""
    if a.dtype == _F:
        return _split(a, generic_atan, "atanf")
    if a.dtype == np.float64:
        return _split(a, generic_atan, "atan")
    return None
