"""Eigen's ndtri (generic_ndtri, Cephes' ndtri in the kernel's type), which TF 2.21's CPU Ndtri and
Erfinv kernels run (unsupported/Eigen/src/SpecialFunctions/SpecialFunctionsImpl.h in the wheel's
headers; Erfinv is TF's scalar_erfinv_op, ndtri(0.5 * x + 0.5) * M_SQRT1_2, cwise_ops.h).

b = a where a <= 1 - exp(-2), else 1 - a. Above exp(-2): c = b - 0.5, (c + c·c²·P0(c²)/Q0(c²))·√(2π).
Below: x = sqrt(-2·log(b)), x0 = x - log(x)/x, z = 1/x, x1 = z·P1(z)/Q1(z) (x < 8) or z·P2(z)/Q2(z),
x0 - x1, negated where a <= 1 - exp(-2); a == 0 is -inf, a == 1 inf. Every multiply-add rounded
twice (the wheel has no FMA). float32 runs in SIMD packets on the first (n // 8) * 8 elements (flat
order): Eigen's plog_float for the logs and the AVX `vrcpps` estimate refined by one Newton step for
1/x (packet_math.py, rcp.py), with logf and a division on the scalar tail; float64 has no packet
ndtri on AVX (packet_traits<double> lacks HasNdtri), so every element takes the scalar path with
glibc's log. Observed bit for bit against TF 2.21 on this AMD host (fz45: 21,000 float32 and 9,000
float64 probes of erfinv and ndtri in (-1, 1) and (0, 1), tails and packets; SciPy's double-precision
ndtri rounded to float32 had differed in the last bit on ordinary inputs: erfinv(0.5) 0.4769363 in
TF, 0.47693628 before). Subnormal inputs are zeros (ops.subnormals: the kernel's DAZ). Clause
ops.eigen-kernels.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import libm, rcp
from simdist.runtime.ops.packet_math import packets_and_tail, plog_float

__all__ = ["erfinv", "ndtri"]

_P0 = (-5.99633501014107895267e1, 9.80010754185999661536e1, -5.66762857469070293439e1, 1.39312609387279679503e1,
       -1.23916583867381258016e0)
_Q0 = (1.0, 1.95448858338141759834e0, 4.67627912898881538453e0, 8.63602421390890590575e1, -2.25462687854119370527e2,
       2.00260212380060660359e2, -8.20372256168333339912e1, 1.59056225126211695515e1, -1.18331621121330003142e0)
_P1 = (4.05544892305962419923e0, 3.15251094599893866154e1, 5.71628192246421288162e1, 4.40805073893200834700e1,
       1.46849561928858024014e1, 2.18663306850790267539e0, -1.40256079171354495875e-1, -3.50424626827848203418e-2,
       -8.57456785154685413611e-4)
_Q1 = (1.0, 1.57799883256466749731e1, 4.53907635128879210584e1, 4.13172038254672030440e1, 1.50425385692907503408e1,
       2.50464946208309415979e0, -1.42182922854787788574e-1, -3.80806407691578277194e-2, -9.33259480895457427372e-4)
_P2 = (3.23774891776946035970e0, 6.91522889068984211695e0, 3.93881025292474443415e0, 1.33303460815807542389e0,
       2.01485389549179081538e-1, 1.23716634817820021358e-2, 3.01581553508235416007e-4, 2.65806974686737550832e-6,
       6.23974539184983293730e-9)
_Q2 = (1.0, 6.02427039364742014255e0, 3.67983563856160859403e0, 1.37702099489081330271e0, 2.16236993594496635890e-1,
       1.34204006088543189037e-2, 3.28014464682127739104e-4, 2.89247864745380683936e-6, 6.79019408009981274425e-9)
_EXP_NEG_TWO = 0.13533528323661269189
_SQRT_2PI = 2.50662827463100050242e0
_SQRT1_2 = 0.70710678118654752440


def _polevl(x: np.ndarray, coef: tuple) -> np.ndarray:
    """ppolevl: Horner's rule from coef[0], each step x·y + c rounded twice."""
    t = x.dtype.type
    y = np.full_like(x, t(coef[0]))
    for c in coef[1:]:
        y = y * x + t(c)
    return y


def _ndtri(a: np.ndarray, packet: bool) -> np.ndarray:
    """generic_ndtri of a 1-d float32/float64 array, on the packet path or the scalar one."""
    t = a.dtype.type
    f32 = a.dtype == np.float32
    one, e2 = t(1), t(_EXP_NEG_TWO)
    flip = a <= one - e2
    b = np.where(flip, a, one - a)
    out = np.empty_like(a)
    upper = e2 < b
    if upper.any():
        c = b[upper] - t(0.5)
        c2 = c * c
        out[upper] = (c * (c2 * (_polevl(c2, _P0) / _polevl(c2, _Q0))) + c) * t(_SQRT_2PI)
    lower = ~upper
    if lower.any():
        bl = b[lower]

        def log(v: np.ndarray) -> np.ndarray:
            if packet and f32:
                return plog_float(v)
            out = libm.scalar_map("logf" if f32 else "log", v)
            if not f32:   # (TF's double log of a negative operand is the positive default NaN, as packet_math.log's
                # tail: erfinv(+inf) is 0x7ff8..., erfinv(-inf) its negation 0xfff8...; TF 2.21, bsweep65)
                out = np.where(v < 0, np.float64(np.nan), out)
            return out
        x = np.sqrt(t(-2) * log(bl))
        x0 = x - log(x) / x
        z = rcp.reciprocal_packet(x) if packet and f32 else one / x
        ratio = np.where(x < t(8), _polevl(z, _P1) / _polevl(z, _Q1), _polevl(z, _P2) / _polevl(z, _Q2))
        low = x0 - z * ratio
        out[lower] = np.where(flip[lower], -low, low)
    out = np.where(a == one, t(np.inf), out)
    return np.where(a == 0, t(-np.inf), out)


def ndtri(a: np.ndarray) -> np.ndarray:
    """TF's Ndtri of a float32 or float64 array."""
    return packets_and_tail(a, _ndtri)


def erfinv(a: np.ndarray) -> np.ndarray:
    """TF's Erfinv of a float32 or float64 array: ndtri(0.5·x + 0.5)·M_SQRT1_2 in the type."""
    t = a.dtype.type
    return packets_and_tail(a, lambda x, packet: _ndtri(t(0.5) * x + t(0.5), packet) * t(_SQRT1_2))
