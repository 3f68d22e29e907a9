"""Eigen's regularized incomplete gamma functions, igamma (P) and igammac (Q), as TF 2.21's CPU
Igamma/Igammac kernels run them for float32 and float64 (SpecialFunctionsImpl.h in the wheel's
headers: igamma_generic_impl<VALUE>, igammac_impl, igamma_series_impl, igammac_cf_impl; no
packets, every element scalar code). Cephes' algorithm in the element's own precision:
x^a e^-x / Γ(a) from the C library's log, lgamma(_r) and exp (0 when its log is below
-log(max) or NaN), then Cephes' power series (P, for x <= 1 or x <= a) or continued fraction
(Q, for x > 1 and x > a), each stopped when its term is below machep = eps/2 relative or after
2000 terms, so where neither converges the truncated value stands: igamma(1e6, 1e6) is 1.312 in
float32 and igamma(1e10, 1e10) 0.00798 in float64. Under DAZ/FTZ: the arithmetic reads subnormal
operands as zeros, but log(x) of a subnormal x is the C library's under DAZ (log(2**-150) in
float32, -inf in float64: `_log_daz`), so the kernel takes its inputs unflushed (the op's Fixed rule). Clause ops.special-more.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from simdist.runtime.ops import libm

__all__ = ["igamma", "igammac", "igamma_grad_a"]

_ITERATIONS = 2000   # igamma_num_iterations<Scalar, VALUE>
_Fn = Callable[[np.ndarray], np.ndarray]


def _c(name: str, dt: np.dtype) -> str:
    return name + "f" if dt == np.float32 else name


def _tiny(v: np.ndarray) -> np.ndarray:
    return (np.abs(v) < np.finfo(v.dtype).tiny) & (v != 0)


def _ftz(v: np.ndarray) -> np.ndarray:
    return np.where(_tiny(v), v * v.dtype.type(0), v)


def _log_daz(x: np.ndarray) -> np.ndarray:
    """The C library's log under DAZ, as TF 2.21's wheel binds it: logf@GLIBC_2.27 (glibc's own
    code, no wrapper) gives a positive subnormal log(2**-150) (it scales the subnormal, which DAZ
    reads as zero, then takes the exponent from the bits); log@GLIBC_2.2.5, the compat wrapper
    (w_log_compat.c: `islessequal(x, 0.0)`, then `x == 0.0` gives __kernel_standard's -HUGE_VAL),
    gives -inf for a subnormal of either sign, as DAZ compares it as zero (objdump -T of
    libtensorflow_cc.so.2; a C program under DAZ/FTZ: log@GLIBC_2.2.5(1e-310) is -inf,
    log@GLIBC_2.29 -745.13; fz28a, fuzz20 seed 2820261204 #2: Igammac(0.001, 1e-310) is 1)."""
    if x.dtype == np.float64:
        sub = _tiny(x)
        out = libm.scalar_map("log", np.where(sub, 1.0, x).ravel()).reshape(x.shape)
        return np.where(sub, -np.inf, out)
    sub = _tiny(x) & (x > 0)
    out = libm.scalar_map(_c("log", x.dtype), np.where(sub, x.dtype.type(1), x).ravel()).reshape(x.shape)
    return np.where(sub, x.dtype.type(-150 * np.log(2.0)), out)


def _main_term(a: np.ndarray, x: np.ndarray, log_x: np.ndarray) -> np.ndarray:
    """main_igamma_term: exp(a·log(x) - x - lgamma(a)), 0 below -log(highest) or for NaN."""
    dt = a.dtype
    if not a.size:
        return a.copy()
    logax = a * log_x - x - libm.scalar_map(_c("lgamma", dt), a)
    low = -libm.scalar_map(_c("log", dt), np.array([np.finfo(dt).max], dt))[0]   # -numext::log(highest())
    out = libm.scalar_map(_c("exp", dt), np.where(np.isnan(logax), dt.type(0), logax))
    return _ftz(np.where((logax < low) | np.isnan(logax), dt.type(0), out))   # (exp's subnormal result: FTZ)


def _series(a: np.ndarray, x: np.ndarray, log_x: np.ndarray) -> np.ndarray:
    """igamma_series_impl<VALUE>: P(a, x) by the power series."""
    dt = a.dtype
    one, machep = dt.type(1), dt.type(np.finfo(dt).eps / 2)
    ax = _main_term(a, x, log_x)
    zero = ax == 0
    ax = np.where(zero, ax, _ftz(ax / a))
    r, c, ans = a.copy(), np.ones_like(a), np.ones_like(a)
    going = ~zero
    for _ in range(_ITERATIONS):
        if not going.any():
            break
        r = np.where(going, r + one, r)
        c = np.where(going, c * (x / r), c)
        ans = np.where(going, ans + c, ans)
        going &= ~(c <= machep * ans)
    return np.where(zero, dt.type(0), ans * ax)


def _cf(a: np.ndarray, x: np.ndarray, log_x: np.ndarray) -> np.ndarray:
    """igammac_cf_impl<VALUE>: Q(a, x) by the continued fraction (0 for x = inf)."""
    dt = a.dtype
    one, two = dt.type(1), dt.type(2)
    eps = dt.type(np.finfo(dt).eps)
    machep = dt.type(eps / 2)
    big, biginv = (dt.type(1) / machep, machep) if dt == np.float32 else (dt.type(1) / eps, eps)
    ax = _main_term(a, x, log_x)
    zero = (ax == 0) | np.isinf(x)
    y = one - a
    z = x + y + one
    c = np.zeros_like(a)
    pkm2, qkm2 = np.ones_like(a), x.copy()
    pkm1, qkm1 = x + one, z * x
    ans = pkm1 / qkm1
    going = ~zero
    for _ in range(_ITERATIONS):
        if not going.any():
            break
        c, y, z = c + one, y + one, z + two
        yc = y * c
        pk = pkm1 * z - pkm2 * yc
        qk = qkm1 * z - qkm2 * yc
        nz = going & (qk != 0)
        prev = ans
        ans = np.where(nz, pk / np.where(nz, qk, one), ans)
        going &= ~(nz & (np.abs(prev - ans) <= machep * np.abs(ans)))
        pkm2, pkm1 = np.where(going, pkm1, pkm2), np.where(going, pk, pkm1)
        qkm2, qkm1 = np.where(going, qkm1, qkm2), np.where(going, qk, qkm1)
        scale = going & (np.abs(pk) > big)
        if scale.any():
            pkm2, pkm1 = np.where(scale, pkm2 * biginv, pkm2), np.where(scale, pkm1 * biginv, pkm1)
            qkm2, qkm1 = np.where(scale, qkm2 * biginv, qkm2), np.where(scale, qkm1 * biginv, qkm1)
    return np.where(zero, dt.type(0), ans * ax)


def _split(a: np.ndarray, x: np.ndarray, log_x: np.ndarray, use_cf: np.ndarray, complement: str) -> np.ndarray:
    """The series on ~use_cf, the continued fraction on use_cf; `complement`: P for the cf's Q
    (igamma) or Q for the series' P (igammac)."""
    out = np.empty(a.shape, a.dtype)
    one = a.dtype.type(1)
    s = ~use_cf
    if s.any():
        v = _series(a[s], x[s], log_x[s])
        out[s] = one - v if complement == "series" else v
    if use_cf.any():
        v = _cf(a[use_cf], x[use_cf], log_x[use_cf])
        out[use_cf] = one - v if complement == "cf" else v
    return out


def igamma(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """igamma_generic_impl<VALUE>: 0 at x = 0 (before any other case), NaN for x < 0, a <= 0 or a
    NaN operand, 1 - Q by the continued fraction for x > 1 and x > a, else P by the series."""
    a, x = np.broadcast_arrays(a, x)
    dt = a.dtype
    with np.errstate(all="ignore"):
        log_x, a, x = _log_daz(x), _ftz(a), _ftz(x)
        nan = (x < 0) | (a <= 0) | np.isnan(a) | np.isnan(x)
        ok = ~nan & (x != 0)
        nan &= x != 0
        out = np.where(nan, dt.type(np.nan), dt.type(0)).astype(dt)
        if ok.any():
            aa, xx = a[ok], x[ok]
            out[ok] = _split(aa, xx, log_x[ok], (xx > 1) & (xx > aa), "cf")
    return _ftz(out)


def igammac(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """igammac_impl: NaN for x < 0, a <= 0 or a NaN operand, 1 - P by the series for x < 1 or
    x < a, else Q by the continued fraction."""
    a, x = np.broadcast_arrays(a, x)
    dt = a.dtype
    with np.errstate(all="ignore"):
        log_x, a, x = _log_daz(x), _ftz(a), _ftz(x)
        nan = (x < 0) | (a <= 0) | np.isnan(a) | np.isnan(x)
        out = np.full(a.shape, np.nan, dt)
        ok = ~nan
        if ok.any():
            aa, xx = a[ok], x[ok]
            out[ok] = _split(aa, xx, log_x[ok], ~((xx < 1) | (xx < aa)), "series")
    return _ftz(out)


_DERIVATIVE_ITERATIONS = {np.dtype(np.float32): 200, np.dtype(np.float64): 500}   # igamma_num_iterations


def _series_da(a: np.ndarray, x: np.ndarray, log_x: np.ndarray, digamma: _Fn) -> np.ndarray:
    """igamma_series_impl<DERIVATIVE>: d P(a, x) / da from the series and its term-by-term derivative."""
    dt = a.dtype
    one, machep = dt.type(1), dt.type(np.finfo(dt).eps / 2)
    ax = _main_term(a, x, log_x)
    zero = ax == 0
    ax = np.where(zero, ax, _ftz(ax / a))
    r, c, ans = a.copy(), np.ones_like(a), np.ones_like(a)
    dc, dans = np.zeros_like(a), np.zeros_like(a)
    going = ~zero
    for _ in range(_DERIVATIVE_ITERATIONS[dt]):
        if not going.any():
            break
        r = np.where(going, r + one, r)
        term = x / r
        dterm = -x / (r * r)
        dc = np.where(going, term * dc + dterm * c, dc)
        dans = np.where(going, dans + dc, dans)
        c = np.where(going, c * term, c)
        ans = np.where(going, ans + c, ans)
        going &= ~(np.abs(dc) <= machep * np.abs(dans))
    dlogax = log_x - digamma(a + one)
    return np.where(zero, dt.type(0), _ftz(_ftz(ans * _ftz(ax * dlogax)) + _ftz(dans * ax)))


def _cf_da(a: np.ndarray, x: np.ndarray, log_x: np.ndarray, digamma: _Fn) -> np.ndarray:
    """igammac_cf_impl<DERIVATIVE>: d Q(a, x) / da from the continued fraction and its derivative."""
    dt = a.dtype
    one, two = dt.type(1), dt.type(2)
    eps = dt.type(np.finfo(dt).eps)
    machep = dt.type(eps / 2)
    big, biginv = (dt.type(1) / machep, machep) if dt == np.float32 else (dt.type(1) / eps, eps)
    ax = _main_term(a, x, log_x)
    zero = (ax == 0) | np.isinf(x)
    y = one - a
    z = x + y + one
    c = np.zeros_like(a)
    pkm2, qkm2, pkm1, qkm1 = np.ones_like(a), x.copy(), x + one, z * x
    ans = pkm1 / qkm1
    dpkm2, dqkm2, dpkm1, dqkm1 = np.zeros_like(a), np.zeros_like(a), np.zeros_like(a), -x
    dans = (dpkm1 - ans * dqkm1) / qkm1
    going = ~zero
    for _ in range(_DERIVATIVE_ITERATIONS[dt]):
        if not going.any():
            break
        c, y, z = c + one, y + one, z + two
        yc = y * c
        pk, qk = pkm1 * z - pkm2 * yc, qkm1 * z - qkm2 * yc
        dpk = dpkm1 * z - pkm1 - dpkm2 * yc + pkm2 * c
        dqk = dqkm1 * z - qkm1 - dqkm2 * yc + qkm2 * c
        nz = going & (qk != 0)
        safe = np.where(nz, qk, one)
        ans = np.where(nz, pk / safe, ans)
        prev = dans
        dans = np.where(nz, (dpk - ans * dqk) / safe, dans)
        going &= ~(nz & (np.abs(dans - prev) <= machep))
        pkm2, pkm1 = np.where(going, pkm1, pkm2), np.where(going, pk, pkm1)
        qkm2, qkm1 = np.where(going, qkm1, qkm2), np.where(going, qk, qkm1)
        dpkm2, dpkm1 = np.where(going, dpkm1, dpkm2), np.where(going, dpk, dpkm1)
        dqkm2, dqkm1 = np.where(going, dqkm1, dqkm2), np.where(going, dqk, dqkm1)
        scale = going & (np.abs(pk) > big)
        if scale.any():
            pkm2, pkm1, qkm2, qkm1, dpkm2, dpkm1, dqkm2, dqkm1 = (
                np.where(scale, v * biginv, v) for v in (pkm2, pkm1, qkm2, qkm1, dpkm2, dpkm1, dqkm2, dqkm1))
    dlogax = log_x - digamma(a)
    return np.where(zero, dt.type(0), _ftz(_ftz(ans * _ftz(ax * dlogax)) + _ftz(dans * ax)))


def igamma_grad_a(a: np.ndarray, x: np.ndarray, digamma: _Fn) -> np.ndarray:
    """igamma_generic_impl<DERIVATIVE> (IgammaGradA): 0 at x = 0, NaN for x < 0, a <= 0 or a NaN
    operand, -dQ/da by the continued fraction for x > 1 and x > a, else dP/da by the series;
    `digamma` is the kernel for the element's dtype."""
    a, x = np.broadcast_arrays(a, x)
    dt = a.dtype
    with np.errstate(all="ignore"):
        log_x, a, x = _log_daz(x), _ftz(a), _ftz(x)
        nan = (x < 0) | (a <= 0) | np.isnan(a) | np.isnan(x)
        ok = ~nan & (x != 0)
        nan &= x != 0
        out = np.where(nan, dt.type(np.nan), dt.type(0)).astype(dt)
        if ok.any():
            aa, xx, lx = a[ok], x[ok], log_x[ok]
            cf = (xx > 1) & (xx > aa)
            part = np.empty(aa.shape, dt)
            if (~cf).any():
                part[~cf] = _series_da(aa[~cf], xx[~cf], lx[~cf], digamma)
            if cf.any():
                part[cf] = -_cf_da(aa[cf], xx[cf], lx[cf], digamma)
            out[ok] = part
    return _ftz(out)
