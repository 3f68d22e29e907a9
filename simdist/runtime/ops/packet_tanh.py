"""Eigen's fast float32 tanh (ptanh_float, Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h
in TF 2.21's wheel headers), which TF 2.21's CPU Tanh kernel runs on every float32 element — in
packets and in the scalar tail alike, as Eigen's numext::tanh(float) is ptanh_float too. A [9/8]
rational minimax approximation on x clamped to ±7.90738964080810547 (the wheel has no FMA: the
clamp of the non-FMA build, each multiply-add rounded twice). It differs from a correctly rounded
tanh (np.tanh) by up to 5 ulps on about 64% of inputs; bit-equal to TF 2.21 on 300,000 float32
inputs in [-10, 10] and the specials (NaN of either sign, ±inf, ±0). Clause ops.packet-paths.
float16/bfloat16 are computed through float32 and rounded (equal to np.tanh's). float64 runs
Eigen's ptanh_double (a [19/18] rational approximation on x clamped to ±17.714196154005176, the
non-FMA clamp) in packets of 4 (the first (n // 4) * 4 elements) and the C library's tanh in the
scalar tail (libm.py). Clause ops.eigen-kernels.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import libm

__all__ = ["ptanh_double", "ptanh_float", "tanh", "tanh_float64"]

_F = np.float32
_ALPHA = (_F(1.394553628e-8), _F(2.102733560e-5), _F(3.520756727e-3), _F(1.340216100e-1))
_BETA = (_F(8.015776984e-7), _F(3.326951409e-4), _F(2.597254514e-2), _F(4.673548340e-1), _F(1.0))
_CLAMP = _F(7.90738964080810547)
# ptanh_double: odd numerator, even denominator (ppolevl<8> and <9> of x², highest power first)
_ALPHA_D = (2.6158007860482230e-23, 7.6534862268749319e-19, 3.1309488231386680e-15, 4.2303918148209176e-12,
            2.4618379131293676e-09, 6.8644367682497074e-07, 9.3839087674268880e-05, 5.9809711724441161e-03,
            1.5184719640284322e-01)
_BETA_D = (6.463747022670968018e-21, 5.782506856739003571e-17, 1.293019623712687916e-13, 1.123643448069621992e-10,
           4.492975677839633985e-08, 8.785185266237658698e-06, 8.295161192716231542e-04, 3.437448108450402717e-02,
           4.851805297361760360e-01, 1.0)
_CLAMP_D = 17.714196154005176
_LANES_D = 4


def ptanh_float(a: np.ndarray) -> np.ndarray:
    """ptanh_float of float32 a: x = clamp(a), p = x³·P(x²) + x, q = Q(x²) (Horner), p / q."""
    if a.ndim == 0:   # (NumPy gives scalars for 0-d operands: no buffers to reuse)
        return _ptanh_small(a)
    # The same roundings as written out in _ptanh_small, each in place in one of four buffers:
    # 1.5x faster on 1M elements than a new array per step (17.5 -> 11.8 ms CPU at load 9)
    x = np.minimum(a, _CLAMP)
    np.maximum(x, -_CLAMP, out=x)
    x2 = x * x
    p = x2 * _ALPHA[0]
    p += _ALPHA[1]
    p *= x2
    p += _ALPHA[2]
    p *= x2
    p += _ALPHA[3]
    q = x2 * _BETA[0]
    q += _BETA[1]
    q *= x2
    q += _BETA[2]
    q *= x2
    q += _BETA[3]
    q *= x2
    q += _BETA[4]
    x2 *= x   # x3
    x2 *= p
    x2 += x
    x2 /= q
    return x2


def _ptanh_small(a: np.ndarray) -> np.ndarray:
    x = np.maximum(np.minimum(a, _CLAMP), -_CLAMP)
    x2 = x * x
    x3 = x2 * x
    p = x2 * _ALPHA[0] + _ALPHA[1]
    p = p * x2 + _ALPHA[2]
    p = p * x2 + _ALPHA[3]
    q = x2 * _BETA[0] + _BETA[1]
    q = q * x2 + _BETA[2]
    q = q * x2 + _BETA[3]
    q = q * x2 + _BETA[4]
    return (x3 * p + x) / q


def ptanh_double(a: np.ndarray) -> np.ndarray:
    """ptanh_double of float64 a: x = clamp(a), p = x³·P(x²) + x, q = Q(x²) (Horner, each
    multiply-add rounded twice), p / q."""
    x = np.maximum(np.minimum(a, _CLAMP_D), -_CLAMP_D)
    x2 = x * x
    x3 = x2 * x
    p = np.full_like(x2, _ALPHA_D[0])
    for c in _ALPHA_D[1:]:
        p = p * x2 + c
    q = np.full_like(x2, _BETA_D[0])
    for c in _BETA_D[1:]:
        q = q * x2 + c
    return (x3 * p + x) / q


def tanh_float64(a: np.ndarray) -> np.ndarray:
    """TF's float64 Tanh: ptanh_double on the first (n // 4) * 4 elements (flat order), the C
    library's tanh on the rest."""
    flat = np.ascontiguousarray(a).ravel()
    k = (flat.size // _LANES_D) * _LANES_D
    out = np.empty(flat.size, np.float64)
    if k:
        out[:k] = ptanh_double(flat[:k])
    if k < flat.size:
        out[k:] = libm.scalar_map("tanh", flat[k:])
    return out.reshape(a.shape)


def tanh(a: np.ndarray) -> np.ndarray:
    """TF's Tanh kernel: ptanh_float for float32, ptanh_double's packets and libm's tail for
    float64, tanhf rounded for float16, np.tanh otherwise."""
    if a.dtype == np.float32:
        with np.errstate(invalid="ignore", over="ignore", under="ignore"):
            return ptanh_float(a)
    if a.dtype == np.float64:
        with np.errstate(invalid="ignore", over="ignore", under="ignore"):
            return tanh_float64(a)
    if a.dtype == np.float16:   # tanhf of each element, rounded (NumPy's float16 tanh is SVML's or
        # AVX512-FP16's on such CPUs: ops.host-cpu)
        return libm.elementwise("tanhf", a.astype(np.float32)).astype(np.float16)
    return np.tanh(a)
