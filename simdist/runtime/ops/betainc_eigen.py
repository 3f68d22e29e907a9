"""Eigen's regularized incomplete beta function, as TF 2.21's CPU Betainc kernel runs it for float32
and float64 (SpecialFunctionsImpl.h: betainc_impl<float>, betainc_impl<double>, betainc_helper's
incbsa/incbps and incbeta_cfe; no packets, every element scalar code in its own precision, with the
C library's log, log1p, exp and lgamma(_r)). Cephes' algorithm: the power series where b*x <= 1
(double) or b > 10 and |b*x/a| < 0.3 (float), else one of two continued fractions, times
x^a (1-x)^b Γ(a+b) / (a Γ(a) Γ(b)) taken through logarithms. The logarithms are what SciPy's
betainc (Boost's) does not share: a or b near the top of the range makes lgamma(a + b) - lgamma(a)
infinite minus infinite, so betainc(1e300, 7, 0.75) and float32 betainc(1e30, 7, 0.75) are NaN on
TF, where SciPy gives the limit 0 (fz32a, tape seed 3220261206 #143). Subnormal inputs are read as
they are (the kernel's DAZ is not modelled here; a subnormal result is flushed). Clause ops.special-more.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime.ops import libm

__all__ = ["betainc"]

# cephes_helper<float/double>: machep, big, biginv
_F32 = (np.float32(5.9604644775390625e-8), np.float32(16777216.0), np.float32(5.9604644775390625e-8))
_F64 = (np.float64(1.11022302462515654042e-16), np.float64(4.503599627370496e15), np.float64(2.22044604925031308085e-16))


def _fn(name: str, single: bool) -> Callable[[Any], Any]:
    dt = np.dtype(np.float32 if single else np.float64)
    f = libm._function(name + "f" if single else name, dt, 1)
    if f is None:   # (no C library: NumPy's, another platform's values)
        fb = libm._FALLBACK.get(name, {"log1p": np.log1p, "lgamma": libm._FALLBACK["lgamma"]}.get(name))
        return (lambda v: np.float32(fb(np.float32(v)))) if single else (lambda v: np.float64(fb(v)))
    return (lambda v: np.float32(f(float(v)))) if single else (lambda v: np.float64(f(float(v))))


class _Math:
    """The C library's scalar functions in one precision."""

    def __init__(self, single: bool) -> None:
        self.log, self.log1p, self.exp, self.lgamma = (_fn(n, single) for n in ("log", "log1p", "exp", "lgamma"))
        self.t: Any = np.float32 if single else np.float64   # (NumPy scalars: x / 0 is inf, as in C)
        self.machep, self.big, self.biginv = _F32 if single else _F64
        self.single = single


def _cfe(m: _Math, a: Any, b: Any, x: Any, small: bool) -> Any:
    """incbeta_cfe: continued fraction #1 (small_branch) or #2, 100 (float) or 300 (double) steps."""
    t = m.t
    one, two, zero = t(1), t(2), t(0)
    if small:
        k1, k2, k3, k4, k5, k6, k7, k8, upd = a, a + b, a, a + one, one, b - one, a + one, a + two, one
    else:
        k1, k2, k3, k4, k5, k6, k7, k8, upd = a, b - one, a, a + one, one, a + b, a + one, a + two, -one
        x = x / (one - x)
    pkm2, qkm2, pkm1, qkm1, ans = zero, one, one, one, one
    thresh = m.machep if m.single else t(3) * m.machep
    r = zero if m.single else one
    for _ in range(100 if m.single else 300):
        xk = -(x * k1 * k2) / (k3 * k4)
        pk = pkm1 + pkm2 * xk
        qk = qkm1 + qkm2 * xk
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        xk = (x * k5 * k6) / (k7 * k8)
        pk = pkm1 + pkm2 * xk
        qk = qkm1 + qkm2 * xk
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        if qk != zero:
            r = pk / qk
            if abs(ans - r) < abs(r) * thresh:
                return r
            ans = r
        k1 += one
        k2 += upd
        k3 += two
        k4 += two
        k5 += one
        k6 -= upd
        k7 += two
        k8 += two
        if abs(qk) + abs(pk) > m.big:
            pkm2, pkm1, qkm2, qkm1 = pkm2 * m.biginv, pkm1 * m.biginv, qkm2 * m.biginv, qkm1 * m.biginv
        if abs(qk) < m.biginv or abs(pk) < m.biginv:
            pkm2, pkm1, qkm2, qkm1 = pkm2 * m.big, pkm1 * m.big, qkm2 * m.big, qkm1 * m.big
    return ans


def _incbps_f(m: _Math, a: Any, b: Any, x: Any) -> Any:
    t = m.t
    y = a * m.log(x) + (b - t(1)) * m.log1p(-x) - m.log(a)
    y -= m.lgamma(a) + m.lgamma(b)
    y += m.lgamma(a + b)
    tt = x / (t(1) - x)
    s, u = t(0), t(1)
    while True:
        b -= t(1)
        if b == t(0):
            break
        a += t(1)
        u *= tt * b / a
        s += u
        if not abs(u) > m.machep:
            break
    return m.exp(y) * (t(1) + s)


def _incbsa_f(m: _Math, aa: Any, bb: Any, xx: Any) -> Any:
    t = m.t
    onemx = t(1) - xx
    rev = bool(xx > aa / (aa + bb))
    a, b, tt, x = (bb, aa, xx, onemx) if rev else (aa, bb, onemx, xx)
    if b > t(10) and abs(b * x / a) < t(0.3):
        r = _incbps_f(m, a, b, x)
        return t(1) - r if rev else r
    ans = x * (a + b - t(2)) / (a - t(1))
    if ans < t(1):
        ans = _cfe(m, a, b, x, True)
        tt = b * m.log(tt)
    else:
        ans = _cfe(m, a, b, x, False)
        tt = (b - t(1)) * m.log(tt)
    tt += a * m.log(x) + m.lgamma(a + b) - m.lgamma(a) - m.lgamma(b)
    tt += m.log(ans / a)
    tt = m.exp(tt)
    return t(1) - tt if rev else tt


def _betainc_f(m: _Math, a: Any, b: Any, x: Any) -> Any:
    t = m.t
    if a <= t(0) or b <= t(0):
        return t(np.nan)
    if x <= t(0) or x >= t(1):
        return t(0) if x == t(0) else t(1) if x == t(1) else t(np.nan)
    if a <= t(1):
        ans = _incbsa_f(m, a + t(1), b, x)
        tt = a * m.log(x) + b * m.log1p(-x) + m.lgamma(a + b) - m.lgamma(a + t(1)) - m.lgamma(b)
        return ans + m.exp(tt)
    return _incbsa_f(m, a, b, x)


def _incbps_d(m: _Math, a: Any, b: Any, x: Any) -> Any:
    ai = 1.0 / a
    u = (1.0 - b) * x
    v = u / (a + 1.0)
    t1, tt, n, s = v, u, 2.0, 0.0
    z = m.machep * ai
    while abs(v) > z:
        u = (n - b) * x / n
        tt *= u
        v = tt / (a + n)
        s += v
        n += 1.0
    s += t1
    s += ai
    u = a * m.log(x)
    tt = m.lgamma(a + b) - m.lgamma(a) - m.lgamma(b) + u + m.log(s)
    return m.exp(tt)


def _betainc_d(m: _Math, aa: Any, bb: Any, xx: Any) -> Any:
    if aa <= 0.0 or bb <= 0.0:
        return np.float64(np.nan)
    if xx <= 0.0 or xx >= 1.0:
        return np.float64(0.0 if xx == 0.0 else 1.0 if xx == 1.0 else np.nan)
    if bb * xx <= 1.0 and xx <= 0.95:
        return _incbps_d(m, aa, bb, xx)
    w = 1.0 - xx
    rev = xx > aa / (aa + bb)
    a, b, xc, x = (bb, aa, xx, w) if rev else (aa, bb, w, xx)
    if rev and b * x <= 1.0 and x <= 0.95:
        tt = _incbps_d(m, a, b, x)
        return 1.0 - m.machep if tt <= m.machep else 1.0 - tt
    y = x * (a + b - 2.0) - (a - 1.0)
    w = _cfe(m, a, b, x, True) if y < 0.0 else _cfe(m, a, b, x, False) / xc
    y = a * m.log(x)
    tt = b * m.log(xc)
    y += tt + m.lgamma(a + b) - m.lgamma(a) - m.lgamma(b)
    y += m.log(w / a)
    tt = m.exp(y)
    if rev:
        tt = 1.0 - m.machep if tt <= m.machep else 1.0 - tt
    return tt


def betainc(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Eigen's betainc of float32 or float64 arrays (broadcast), element by element."""
    ab, bb, xb = np.broadcast_arrays(a, b, x)
    dt = ab.dtype
    single = dt == np.float32
    m = _Math(single)
    fn = _betainc_f if single else _betainc_d
    out = np.empty(ab.shape, dt)
    flat = out.reshape(-1)
    cols = [np.asarray(v, dt).reshape(-1) for v in (ab, bb, xb)]
    with np.errstate(all="ignore"):
        for i in range(flat.size):
            flat[i] = fn(m, cols[0][i], cols[1][i], cols[2][i])
        # (the kernel's FTZ: a subnormal result is written as a zero, float32 betainc(25.8, 3.5, 0.016) is 0)
        return np.where(np.abs(out) < np.finfo(dt).tiny, out * dt.type(0), out)
