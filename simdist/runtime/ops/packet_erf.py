"""Eigen's erfc (float32, float64) and float64 erf, which TF 2.21's CPU Erf and Erfc kernels run
(unsupported/Eigen/src/SpecialFunctions/SpecialFunctionsImpl.h in the wheel's headers:
generic_fast_erfc<float>, generic_fast_erfc<double>, generic_fast_erf<double>). The same function
in SIMD packets (the first (n // P) * P elements, P = 8 float32, 4 float64) and in the scalar tail,
except for its two helpers: exp(-x²) is Eigen's pexp in packets and the C library's expf/exp in
the tail (libm.py), and float32's 1/x² is the AVX `vrcpps` estimate refined by one Newton step in
packets (rcp.py) and a division in the tail. Every multiply-add rounded twice (the wheel has no
FMA); x·x's low part by Veltkamp splitting (Dekker). Clause ops.eigen-kernels.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from simdist.runtime.ops import libm

__all__ = ["erf_double", "erfc", "erfc_double", "erfc_float"]

_F = np.float32
_TINY = {4: np.finfo(_F).tiny, 8: np.finfo(np.float64).tiny}
# generic_fast_erfc<float>: erfc(x) = 1 + x·S(x²) on |x| <= 1 (odd [11/0]); exp(-x²)/x·P(1/x²)/Q(1/x²) above
_ERFC_ALPHA = tuple(_F(c) for c in (5.61802298761904239654541015625e-04, -4.91381669417023658752441406250e-03,
                                   2.67075151205062866210937500000e-02, -1.12800106406211853027343750000e-01,
                                   3.76122951507568359375000000000e-01, -1.12837910652160644531250000000e+00))
_ERFC_GAMMA = tuple(_F(c) for c in (1.0208116471767425537109375e-01, 4.2920666933059692382812500e-01,
                                   3.2379078865051269531250000e-01, 5.3971976041793823242187500e-02))
_ERFC_DELTA = tuple(_F(c) for c in (1.7251677811145782470703125e-02, 3.9137163758277893066406250e-01,
                                   1.0000000000000000000000000e+00, 6.2173241376876831054687500e-01,
                                   9.5662862062454223632812500e-02))
# erf_over_x_double_small: erf(x)/x = S(x²)/T(x²) on x² <= 1
_ERF_ALPHA_D = (1.9493725660006057018823477644531294572516344487667083740234375e-04,
                1.8272566210022942682217328425053892715368419885635375976562500e-03,
                4.5303363351690106863856044583371840417385101318359375000000000e-02,
                1.4215015503619179981775744181504705920815467834472656250000000e-01,
                1.1283791670955125585606992899556644260883331298828125000000000e+00)
_ERF_BETA_D = (2.0294484101083099089526257108317963684385176748037338256835938e-05,
               6.8117805899186819641732970609382391558028757572174072265625000e-04,
               1.0582026056098614921752165685120417037978768348693847656250000e-02,
               9.3252603143757495374188692949246615171432495117187500000000000e-02,
               4.5931062818368939559832142549566924571990966796875000000000000e-01,
               1.0)
# erfc_double_large: erfc(x) = exp(-x²)/x·P(1/x²)/Q(1/x²), 1 < |x| < 28
_ERFC_GAMMA_D = (1.5252844933226974316088642158462107545346952974796295166015625e-04,
                 1.0909912393738931124520519233556115068495273590087890625000000e-02,
                 1.0628604636755033252537572252549580298364162445068359375000000e-01,
                 3.3492472973137982217295416376146022230386734008789062500000000e-01,
                 4.5065776215933289750026347064704168587923049926757812500000000e-01,
                 2.9433039130294824659017649537418037652969360351562500000000000e-01,
                 9.8792676360600226170838311645638896152377128601074218750000000e-02,
                 1.7095935395503719655962981960328761488199234008789062500000000e-02,
                 1.4249109729504577659398023570247460156679153442382812500000000e-03,
                 4.4567378313647954771875570045835956989321857690811157226562500e-05)
_ERFC_DELTA_D = (2.041985103115789845773520028160419315099716186523437500000000e-03,
                 5.316030659946043707142493417450168635696172714233398437500000e-02,
                 3.426242193784684864077405563875799998641014099121093750000000e-01,
                 8.565637124308049799026321124983951449394226074218750000000000e-01,
                 1.000000000000000000000000000000000000000000000000000000000000e+00,
                 5.968805280570776972126623149961233139038085937500000000000000e-01,
                 1.890922854723317836356244470152887515723705291748046875000000e-01,
                 3.152505418656005586885981983868987299501895904541015625000000e-02,
                 2.565085751861882583380047861965067568235099315643310546875000e-03,
                 7.899362131678837697403017248376499992446042597293853759765625e-05)


def _polevl(x: np.ndarray, coeffs: tuple) -> np.ndarray:
    """ppolevl: Horner from the highest coefficient, each step x·p + c rounded twice."""
    p = np.full_like(x, coeffs[0])
    for c in coeffs[1:]:
        p = p * x + c
    return p


def _twoprod_low(x: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """twoprod_low(x, x, fl(x·x)) without FMA: Veltkamp's split x = hi + lo, then the low part of x·x
    as hi·hi - xy + hi·lo + lo·hi + lo·lo, each multiply-add rounded twice."""
    scale = x.dtype.type(2.0 ** 12 + 1 if x.dtype == _F else 2.0 ** 27 + 1)
    gamma = scale * x
    rho = x - gamma
    hi = rho + gamma
    lo = x - hi
    p = hi * hi + (-xy)
    p = hi * lo + p
    p = lo * hi + p
    return lo * lo + p


def _ftz(v: np.ndarray) -> np.ndarray:
    """A kernel's result under TF's flush-to-zero: subnormals become zeros of their sign (ops.subnormals)."""
    return np.where(np.abs(v) < _TINY[v.dtype.itemsize], v * v.dtype.type(0), v)


def _exp_neg_x2(x: np.ndarray, x2: np.ndarray, exp: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """exp(-x²) ~= exp(-x2)·(1 - x2_lo): pnmadd(exp_hi, x2_lo, exp_hi)."""
    exp_hi = _ftz(exp(-x2))
    return exp_hi - _ftz(exp_hi * _twoprod_low(x, x2))


def _erfc_float(x_in: np.ndarray, exp: Callable[[np.ndarray], np.ndarray],
                recip: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """generic_fast_erfc<float> with the packet's or the tail's exp and reciprocal."""
    x = np.minimum(np.maximum(x_in, _F(-11)), _F(11))
    x2 = x * x
    small = x * _polevl(x2, _ERFC_ALPHA) + _F(1)
    large_mask = _F(1) < x2
    if not large_mask.any():   # (Eigen's early return: the same values)
        return small
    z = _exp_neg_x2(x, x2, exp)
    q2 = recip(x2)
    r = _polevl(q2, _ERFC_GAMMA) / (x * _polevl(q2, _ERFC_DELTA))
    large = z * r + np.where(x < _F(0), _F(2), _F(0))
    return np.where(large_mask, large, small)


def _erfc_double_large(x: np.ndarray, x2: np.ndarray, exp: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    z = _exp_neg_x2(x, x2, exp)
    q2 = 1.0 / x2
    r = _polevl(q2, _ERFC_GAMMA_D) / (x * _polevl(q2, _ERFC_DELTA_D))
    return z * r + np.where(x < 0.0, 2.0, 0.0)


def _erfc_double(x_in: np.ndarray, exp: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """generic_fast_erfc<double>: x clamped to [-28, 28]; 1 - x·erf(x)/x on x² <= 1, the large form above."""
    x = np.minimum(np.maximum(x_in, -28.0), 28.0)
    x2 = x * x
    small = 1.0 - x * (_polevl(x2, _ERF_ALPHA_D) / _polevl(x2, _ERF_BETA_D))
    large_mask = 1.0 < x2
    return np.where(large_mask, _erfc_double_large(x, x2, exp), small) if large_mask.any() else small


def _erf_double(x: np.ndarray, exp: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """generic_fast_erf<double>: x·erf(x)/x on x² <= 1, 1 - erfc_large(x) above (no clamp: x·x
    overflows to inf from |x| = 1.34e154 and the result is NaN there, as TF's)."""
    x2 = x * x
    small = x * (_polevl(x2, _ERF_ALPHA_D) / _polevl(x2, _ERF_BETA_D))
    large_mask = 1.0 < x2
    return np.where(large_mask, 1.0 - _erfc_double_large(x, x2, exp), small) if large_mask.any() else small


def _pexp_float(x: np.ndarray) -> np.ndarray:
    from simdist.runtime.ops.packet_pow import pexp_float
    return pexp_float(x)


def _pexp_double(x: np.ndarray) -> np.ndarray:
    from simdist.runtime.ops.packet_exp import pexp_double
    fin = np.isfinite(x)
    out = pexp_double(np.where(fin, x, 0.0))
    return np.where(fin, out, np.where(x == -np.inf, 0.0, x))


def _tail_exp(name: str) -> Callable[[np.ndarray], np.ndarray]:
    return lambda v: libm.scalar_map(name, v)


def _split(a: np.ndarray, packet: Callable[[np.ndarray], np.ndarray],
           tail: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """packet on the first (n // P) * P elements (flat order), tail on the rest."""
    flat = np.ascontiguousarray(a).ravel()
    p = 8 if a.dtype == _F else 4
    k = (flat.size // p) * p
    out = np.empty(flat.size, a.dtype)
    with np.errstate(invalid="ignore", over="ignore", under="ignore", divide="ignore"):
        if k:
            out[:k] = packet(flat[:k])
        if k < flat.size:
            out[k:] = tail(flat[k:])
    return out.reshape(a.shape)


def erfc_float(a: np.ndarray) -> np.ndarray:
    """TF's float32 Erfc: generic_fast_erfc<float>, pexp_float and vrcpps + Newton in packets, expf
    and a division in the tail."""
    from simdist.runtime.ops.rcp import reciprocal_packet
    return _split(a, lambda v: _erfc_float(v, _pexp_float, reciprocal_packet),
                  lambda v: _erfc_float(v, _tail_exp("expf"), lambda q: _F(1) / q))


def erfc_double(a: np.ndarray) -> np.ndarray:
    """TF's float64 Erfc: generic_fast_erfc<double>, pexp_double in packets, exp in the tail."""
    return _split(a, lambda v: _erfc_double(v, _pexp_double), lambda v: _erfc_double(v, _tail_exp("exp")))


def erf_double(a: np.ndarray) -> np.ndarray:
    """TF's float64 Erf: generic_fast_erf<double>, pexp_double in packets, exp in the tail."""
    return _split(a, lambda v: _erf_double(v, _pexp_double), lambda v: _erf_double(v, _tail_exp("exp")))


def erfc(a: np.ndarray) -> np.ndarray | None:
    """TF's Erfc for float32 and float64 (None for other dtypes)."""
    if a.dtype == _F:
        return erfc_float(a)
    if a.dtype == np.float64:
        return erfc_double(a)
    return None
