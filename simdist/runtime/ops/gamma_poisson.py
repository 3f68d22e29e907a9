"""The sampling loops of TF's RandomGamma and RandomPoisson(V2) CPU kernels (random_gamma_op.cc,
random_poisson_op.cc; the stateless kernels run the same loops), transcribed step by step over
`philox.Philox` so that the values are TF's bit for bit.

Both kernels reserve 256 Philox outputs per sample: sample `i` (counted alpha/rate-major:
i = param_index * num_samples + sample_index) starts from the kernel's generator skipped by
256 * i, and draws double normals (Box-Muller) and double uniforms from it in the loop's order,
each distribution call taking one Philox output and handing its two values out last first.
Gamma: Marsaglia and Tsang's transformation-rejection (alpha < 1 boosted by U^(1/alpha)), an
exponential for alpha == 1. Poisson: Knuth's product of uniforms below rate 10, Hormann's
transformed rejection from 10 up, +inf for rate = +inf. Arithmetic in double, as TF's.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math

import numpy as np

from simdist.runtime.ops import philox

__all__ = ["gamma_samples", "poisson_samples", "RESERVED"]

RESERVED = 256   # kReservedSamplesPerOutput: Philox outputs each sample may use

_libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
_libm.lgamma.restype = ctypes.c_double
_libm.lgamma.argtypes = [ctypes.c_double]
_PREFETCH = 2   # Philox outputs computed together per sample (most samples use one or two)


class _Lane:
    """One sample's generator and its two distribution buffers (normal, uniform)."""

    __slots__ = ("words", "gen", "used", "norm", "unif", "start")

    def __init__(self, words: np.ndarray, gen: philox.Philox, start: int) -> None:
        self.words = words
        self.gen = gen
        self.used = 0
        self.norm: list[float] = []
        self.unif: list[float] = []
        self.start = start   # the lane's first Philox output: the kernel's generator skipped by 256 * sample

    def block(self) -> tuple[int, int, int, int]:
        k = self.used
        self.used += 1
        if k < len(self.words):
            w = self.words[k]
            return int(w[0]), int(w[1]), int(w[2]), int(w[3])
        g = self.gen.copy()
        g.skip(self.start + k)
        return g.next()

    def normal(self) -> float:
        if not self.norm:
            self.norm = list(philox.normal_pair(self.block()))
        return self.norm.pop()

    def uniform(self) -> float:
        if not self.unif:
            self.unif = list(philox.uniform_pair(self.block()))
        return self.unif.pop()


def _log(x: float) -> float:
    """C's log: -inf at 0, NaN below (Python's math.log raises there)."""
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def _sqrt(x: float) -> float:
    return math.sqrt(x) if x >= 0 else math.nan


def _pow(x: float, y: float) -> float:
    """C's pow (Python's math.pow raises where C gives inf or NaN)."""
    try:
        return math.pow(x, y)
    except (ValueError, OverflowError):
        with np.errstate(all="ignore"):
            return float(np.power(np.float64(x), np.float64(y)))


def _recip(x: float) -> float:
    """C's 1 / x: a signed infinity at a signed zero."""
    return 1 / x if x != 0 else math.copysign(math.inf, x)


def _lanes(gen: philox.Philox, n: int) -> list[_Lane]:
    starts = np.arange(n, dtype=np.int64) * RESERVED
    words = philox.blocks(gen, starts, _PREFETCH)
    return [_Lane(words[i], gen, int(starts[i])) for i in range(n)]


def _gamma_one(lane: _Lane, alpha: float) -> float:
    if alpha == 1.0:
        return -math.log1p(-lane.uniform())
    small = alpha < 1
    d = alpha + (2.0 / 3 if small else -1.0 / 3)
    c = 1.0 / 3 / _sqrt(d) if d != 0 else math.inf
    while True:
        x = lane.normal()
        v = 1 + c * x
        if v <= 0:
            continue
        v = v * v * v
        u = lane.uniform()
        if (u < 1 - 0.0331 * (x * x) * (x * x)) or (_log(u) < 0.5 * x * x + d * (1 - v + _log(v))):
            res = d * v
            if small:
                b = lane.uniform()
                res *= _pow(b, _recip(alpha))
            return res


def gamma_samples(gen: philox.Philox, alpha: np.ndarray, num_samples: int) -> np.ndarray:
    """[num_samples, alpha.size] float64 draws (before the cast to the output dtype)."""
    a = [float(v) for v in np.asarray(alpha, np.float64).reshape(-1)]
    out = np.empty((num_samples, len(a)), np.float64)
    lanes = _lanes(gen, num_samples * len(a))
    for j, alpha_j in enumerate(a):
        for s in range(num_samples):
            out[s, j] = _gamma_one(lanes[j * num_samples + s], alpha_j)
    return out


def _poisson_small(lane: _Lane, rate: float, highest: float) -> float:
    """Knuth's loop. A rate below -709 makes C's exp(-rate) inf (Python's math.exp raised OverflowError, simdist's
    "math range error"): the first product is below it and the count is 0, as for every negative rate (fz31a,
    function seed 3120261205 #23: StatelessRandomPoisson of a -3.4e38 rate)."""
    exp_neg = math.exp(-rate) if rate > -709.0 else math.inf
    prod, x = 1.0, 0.0
    while True:
        prod = prod * lane.uniform()
        if prod <= exp_neg and x <= highest:
            return x
        x += 1


def _poisson_large(lane: _Lane, rate: float, highest: float) -> float:
    log_rate = math.log(rate)
    b = 0.931 + 2.53 * math.sqrt(rate)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    while True:
        u = lane.uniform()
        u -= 0.5
        v = lane.uniform()
        u_shifted = 0.5 - abs(u)
        k = math.floor((2 * a / u_shifted + b) * u + rate + 0.43)
        if k > highest:
            continue
        if u_shifted >= 0.07 and v <= 0.9277 - 3.6224 / (b - 2):
            return float(k)
        if k < 0 or (u_shifted < 0.013 and v > u_shifted):
            continue
        s = _log(v * inv_alpha / (a / (u_shifted * u_shifted) + b))
        t = -rate + k * log_rate - _libm.lgamma(k + 1)
        if s <= t:
            return float(k)


def poisson_samples(gen: philox.Philox, rate: np.ndarray, num_samples: int, highest: float) -> np.ndarray:
    """[num_samples, rate.size] float64 counts (`highest`: the output type's largest value)."""
    r = [float(v) for v in np.asarray(rate, np.float64).reshape(-1)]
    out = np.empty((num_samples, len(r)), np.float64)
    lanes = _lanes(gen, num_samples * len(r))
    for j, rate_j in enumerate(r):
        for s in range(num_samples):
            lane = lanes[j * num_samples + s]
            if rate_j < 10:
                out[s, j] = _poisson_small(lane, rate_j, highest)
            elif math.isinf(rate_j):
                out[s, j] = math.inf
            elif math.isnan(rate_j):
                out[s, j] = _poisson_nan(rate_j)
            else:
                out[s, j] = _poisson_large(lane, rate_j, highest)
    return out


def _poisson_nan(rate: float) -> float:
    """rate NaN: the large-rate loop's tests are all false and it never returns in TF; simdist
    gives NaN (documented in docs/spec.md `ops.random-gamma-poisson`)."""
    return math.nan
