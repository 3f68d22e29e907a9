"""TF 2.21's Zeta and Polygamma kernels: Eigen's zeta_impl and polygamma_impl
(unsupported/Eigen/src/SpecialFunctions/SpecialFunctionsImpl.h in the wheel's headers), Cephes'
Hurwitz zeta by Euler–Maclaurin summation, run in the kernel's own type.

zeta(x, q): inf at x = 1, NaN below; q <= 0 an integer: inf when x/2 is an integer (rint), else NaN;
q <= 0 otherwise: NaN unless x is an integer; then s = q^-x plus terms (a + 1)^-x, ... until one
is below machep (eps/2) of the sum — at most 9 terms in float32 (`zeta_impl_series<float>`), in
float64 at least 9 and until a > 9 —, and if none was, the tail b·w/(x - 1) - b/2 plus up to 12
Bernoulli terms (none when the last term b is 0). float32's short series is why TF's float32
trigamma of a negative half-integer is far from the function (polygamma(1, -7.5) is 6.7811 in
float32, 9.7448 in float64). polygamma(n, x) = (-1)^(n+1) · exp(lgamma(n + 1)) · zeta(n + 1, x)
for integer n >= 1 (NaN for other n; n = 0 is digamma, which the caller computes).
pow, exp and lgamma are the C library's (std::pow/exp/lgamma of the type: libm.py); every
operation runs under DAZ/FTZ (ops.subnormals). Clause ops.math-special.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.subnormals import flushed as _ftz   # (subnormals as zeros of their sign: DAZ/FTZ)

from simdist.runtime.ops import libm

__all__ = ["zeta", "polygamma_positive"]

_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
      -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
      1.8152105401943546773e17, -7.1661652561756670113e18)
#: A guard on float64's series for a q so negative that a += 1 never passes 9 (TF's loop would not end).
_MAX_TERMS = 1 << 20



def _pow(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    name = "powf" if a.dtype == np.float32 else "pow"
    return _ftz(libm.scalar_map(name, np.ascontiguousarray(a).ravel(), np.ascontiguousarray(b).ravel())
                .reshape(a.shape))


def _series(a: np.ndarray, s: np.ndarray, x: np.ndarray, machep: float, wide: bool) -> tuple:
    """zeta_impl_series: (a, b, s, done) after the terms (a + 1)^-x, (a + 2)^-x, ..."""
    t = a.dtype.type
    b = np.zeros_like(a)
    done = np.zeros(a.shape, bool)
    running = np.ones(a.shape, bool)
    i = 0
    while running.any() and i < _MAX_TERMS:
        idx = np.nonzero(running)[0]
        a[idx] = _ftz(a[idx] + t(1))
        b[idx] = _pow(a[idx], -x[idx])
        s[idx] = _ftz(s[idx] + b[idx])
        hit = np.abs(_ftz(b[idx] / s[idx])) < t(machep)
        done[idx[hit]] = True
        running[idx[hit]] = False
        i += 1
        more = (i < 9) | (wide & (a <= t(9.0)))
        running &= more
    return a, b, s, done


def zeta(x_in: np.ndarray, q_in: np.ndarray) -> np.ndarray:
    """Zeta of two float32 (or two float64) arrays, broadcast, as TF 2.21's CPU kernel computes it."""
    xb, qb = np.broadcast_arrays(np.asarray(x_in), np.asarray(q_in))
    shape, dt = xb.shape, xb.dtype
    t = dt.type
    x, q = _ftz(xb.astype(dt).ravel()), _ftz(qb.astype(dt).ravel())
    machep = float(np.finfo(dt).eps) / 2
    out = np.full(x.shape, np.nan, dt)
    with np.errstate(all="ignore"):
        pending = np.ones(x.shape, bool)
        one = x == t(1)
        out[one] = np.inf
        pending &= ~one
        pending &= ~(x < t(1))                       # (NaN)
        qle = pending & (q <= t(0))
        qint = qle & (q == np.floor(q))
        half = _ftz(t(0.5) * x)
        out[qint] = np.where(np.rint(half[qint]) == half[qint], np.inf, np.nan)
        pending &= ~qint
        pending &= ~(qle & ~qint & (x != np.floor(x)))   # (NaN)
        idx = np.nonzero(pending)[0]
        if idx.size:
            xs, a = x[idx], q[idx].copy()
            s = _pow(a, -xs)
            a, b, s, done = _series(a, s, xs, machep, dt == np.float64)
            res = s.copy()
            tail = ~done & (b != t(0))
            if tail.any():
                res[tail] = _tail(a[tail], b[tail], s[tail], xs[tail], machep)
            out[idx] = res
    return out.reshape(shape)


def _tail(a: np.ndarray, b: np.ndarray, s: np.ndarray, x: np.ndarray, machep: float) -> np.ndarray:
    """The Euler–Maclaurin tail: b·w/(x - 1) - b/2 and up to 12 Bernoulli terms (vectorised over the
    elements, each stopping at its own first term below machep of its sum)."""
    t = a.dtype.type
    w = a
    s = _ftz(s + _ftz(_ftz(b * w) / _ftz(x - t(1))))
    s = _ftz(s - _ftz(t(0.5) * b))
    a = np.ones_like(w)
    k = np.zeros_like(w)
    live = np.ones(w.shape, bool)
    for coeff in _A:
        if not live.any():
            break
        i = np.nonzero(live)[0]
        a[i] = _ftz(a[i] * _ftz(x[i] + k[i]))
        b[i] = _ftz(b[i] / w[i])
        term = _ftz(_ftz(a[i] * b[i]) / t(coeff))
        s[i] = _ftz(s[i] + term)
        stop = np.abs(_ftz(term / s[i])) < t(machep)
        live[i[stop]] = False
        go = i[~stop]
        k[go] = _ftz(k[go] + t(1))
        a[go] = _ftz(a[go] * _ftz(x[go] + k[go]))
        b[go] = _ftz(b[go] / w[go])
        k[go] = _ftz(k[go] + t(1))
    return s


def polygamma_positive(n: np.ndarray, x: np.ndarray) -> np.ndarray:
    """polygamma_impl for n >= 1 (the caller keeps NaN for a non-integer or negative n and digamma
    for n = 0): pow(-1, n + 1) · exp(lgamma(n + 1)) · zeta(n + 1, x), in the type."""
    nb, xb = np.broadcast_arrays(np.asarray(n), np.asarray(x))
    dt = nb.dtype
    t = dt.type
    f = "f" if dt == np.float32 else ""
    with np.errstate(all="ignore"):
        nplus = _ftz(nb.ravel() + t(1))
        lg = _ftz(libm.scalar_map("lgamma" + f, nplus))
        factorial = _ftz(libm.scalar_map("exp" + f, lg))
        sign = _pow(np.full_like(nplus, t(-1)), nplus)
        out = _ftz(_ftz(sign * factorial) * zeta(nplus, xb.ravel().astype(dt)))
    return out.reshape(nb.shape)
