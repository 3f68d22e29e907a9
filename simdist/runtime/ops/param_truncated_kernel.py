"""TF 2.21's TruncatedNormalFunctorV2 on CPU (parameterized_truncated_normal_op.cc), bit for bit:
the sampling loop of StatelessParameterizedTruncatedNormal.

The output [sample dims..., batch dims...] is walked as output_idx = batch * samples_per_batch +
sample (the batch dims are the parameters' broadcast shape) and written at sample * num_batches +
batch. Shard(2 threads, num_elements, batchCost) splits output_idx into ranges; each range copies
the seed's Philox generator and skips it by ceil(start * 2 * 1000 / K) outputs (K = 4 values per
Philox output for half and float, 2 for double). Per batch (normMin/normMax from the parameters,
swapped with stddev negated when the lower bound is -inf or maxval < mean) one of three samplers
runs: normal rejection (randn inside [normMin, normMax]) when a bound is beyond 1.3 standard
deviations on one side and the other side holds the mean; uniform rejection (z uniform on the
interval, accepted if u <= exp((plusFactor - z^2) / 2)) when the interval is narrower than the
cutoff; else exponential rejection (z = -log(r) / alpha + normMin). A sampler that rejects 1000
times in a row is InternalError; stddev <= 0, minval >= maxval or two infinite bounds are
InvalidArgumentError "Invalid parameters". Every step is computed in the output dtype (half: each
operation rounded to half, as Eigen::half), exp/log/sqrt by the C library (libm). Clause
ops.parameterized-truncated-normal.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from simdist.runtime import errors
from simdist.runtime.ops import philox, philox_dists
from simdist.runtime.ops.libm import scalar_map

__all__ = ["sample", "BATCH_COST", "MAX_ITERATIONS"]

MAX_ITERATIONS = 1000   # kMaxIterations
# batchCost of TruncatedNormalFunctorV2 (Eigen's AVX cost model without FMA: add/mul 1, sqrt 8 for
# 2- and 4-byte types and 28 for double, exp 34 (float) or 23 + 12 + div (half: 8, double: 16),
# Philox 10 + Uniform 3 per sample): batchInitCost + 2 * uniformRejectionSamplingCost
BATCH_COST = {"float16": 62 + 2 * 76, "float32": 53 + 2 * 67, "float64": 90 + 2 * 84}
_OP = "StatelessParameterizedTruncatedNormal"


def _kernel_error(cls: type, text: str) -> errors.OpError:
    return cls(None, None, f"{text} [Op:{_OP}]")


class _Math:
    """The output dtype's scalar arithmetic: a value rounded to it, and exp/log/sqrt as Eigen's
    numext calls them (glibc's expf/logf/sqrtf for float and half, exp/log/sqrt for double)."""

    def __init__(self, dt: np.dtype) -> None:
        self.t = dt.type
        self.dbl = dt == np.float64
        self.c = np.dtype(np.float64) if self.dbl else np.dtype(np.float32)

    def _libm(self, name: str, x: Any) -> Any:
        fn = name if self.dbl else name + "f"
        return self.t(scalar_map(fn, np.array([x], self.c))[0])

    def exp(self, x: Any) -> Any:
        return self._libm("exp", x)

    def log(self, x: Any) -> Any:
        return self._libm("log", x)

    def sqrt(self, x: Any) -> Any:
        return self.t(np.sqrt(self.c.type(x)))   # IEEE square root: correctly rounded everywhere


def _draws(dt: np.dtype) -> tuple[Callable[[philox.Philox], list], Callable[[philox.Philox], list]]:
    """(Uniform, Normal): one Philox output as UniformDistribution / NormalDistribution give it."""
    def words(gen: philox.Philox) -> np.ndarray:
        return np.array(gen.next(), np.uint32)

    if dt == np.float64:
        def uniform(gen: philox.Philox) -> list:
            w = words(gen)
            return philox_dists._uint64_to_double(w[[0, 2]], w[[1, 3]]).tolist()

        def normal(gen: philox.Philox) -> list:
            w = words(gen)
            f0, f1 = philox_dists.box_muller_double(w[:1], w[1:2], w[2:3], w[3:])
            return [float(f0[0]), float(f1[0])]
        return uniform, normal

    t = dt.type

    def uniform_f(gen: philox.Philox) -> list:
        w = words(gen)
        if dt == np.float16:   # Uint16ToHalf: 10 mantissa bits of each word's low half
            bits = (np.uint16(15) << np.uint16(10)) | (w.astype(np.uint16) & np.uint16(0x3FF))
            return list(bits.view(np.float16) - np.float16(1.0))
        return list(philox_dists.uint32_to_float(w))

    def normal_f(gen: philox.Philox) -> list:
        w = words(gen)
        f0, f1 = philox_dists.box_muller_float(w[[0, 2]], w[[1, 3]])
        return [t(f0[0]), t(f1[0]), t(f0[1]), t(f1[1])]
    return uniform_f, normal_f


def _batch(params: tuple, m: _Math) -> tuple[str, tuple]:
    """The sampler a batch's (mean, stddev, minval, maxval) choose, with its constants."""
    t = m.t
    mean, stddev, minval, maxval = params
    if not (stddev > t(0) and minval < maxval and (math.isfinite(minval) or math.isfinite(maxval))):
        raise _kernel_error(errors.InvalidArgumentError, "Invalid parameters")
    if (math.isinf(minval) and minval < t(0)) or maxval < mean:
        minval, maxval = maxval, minval
        stddev = -stddev
    norm_min = (minval - mean) / stddev
    norm_max = (maxval - mean) / stddev
    sqrt_factor = m.sqrt(norm_min * norm_min + t(4))
    cutoff = t(2) * m.exp(t(0.5) + (norm_min * (norm_min - sqrt_factor)) / t(4)) / (norm_min + sqrt_factor)
    diff = norm_max - norm_min
    inside = t(1.3)   # kStdDevsInsideBoundsToUseRandnSampler
    if (norm_min < -inside and norm_max >= t(0)) or (norm_max > inside and norm_min <= t(0)):
        return "randn", (mean, stddev, norm_min, norm_max)
    if diff < cutoff:
        plus = t(0) if norm_min < t(0) else norm_min * norm_min
        return "uniform", (mean, stddev, norm_min, diff, plus)
    alpha = (norm_min + m.sqrt(norm_min * norm_min + t(4))) / t(2)
    return "exponential", (mean, stddev, norm_min, norm_max, alpha)


def _fill_range(start: int, limit: int, base: philox.Philox, spb: int, nb: int, params: list, out: np.ndarray,
                m: _Math, k: int) -> None:
    """One shard's do_work(start, limit)."""
    t = m.t
    uniform, normal = _draws(np.dtype(t))
    gen = base.copy()
    gen.skip((start * 2 * MAX_ITERATIONS + k - 1) // k)
    idx = start
    while idx < limit:
        b = idx // spb
        kind, c = _batch(params[b], m)
        sample = idx % spb
        fails = 0
        if kind == "randn":
            mean, stddev, lo, hi = c
            while sample < spb and idx < limit:
                for v in normal(gen):
                    if lo <= v <= hi:
                        out[sample * nb + b] = v * stddev + mean
                        sample += 1
                        idx += 1
                        if sample >= spb or idx >= limit:
                            break
                        fails = 0
                    else:
                        fails += 1
                        if fails > MAX_ITERATIONS:
                            raise _kernel_error(errors.InternalError, "TruncatedNormal randn rejection sampler "
                                                "failed to accept a sample.")
        elif kind == "uniform":
            mean, stddev, lo, diff, plus = c
            while sample < spb and idx < limit:
                z = [r * diff + lo for r in uniform(gen)]
                g = [(plus - zi * zi) / t(2.0) for zi in z]
                for i, u in enumerate(uniform(gen)):
                    accept = u <= m.exp(g[i])
                    if accept or fails + 1 >= MAX_ITERATIONS:
                        if not accept:
                            raise _kernel_error(errors.InternalError, "TruncatedNormal uniform rejection sampler "
                                                "failed to  accept a sample.")
                        out[sample * nb + b] = z[i] * stddev + mean
                        sample += 1
                        idx += 1
                        if sample >= spb or idx >= limit:
                            break
                        fails = 0
                    else:
                        fails += 1
        else:
            mean, stddev, lo, hi, alpha = c
            while sample < spb and idx < limit:
                r = uniform(gen)
                for i in range(0, len(r), 2):
                    z = -m.log(r[i]) / alpha + lo
                    x = alpha - z if lo < alpha else lo - alpha
                    g = m.exp(-x * x / t(2.0))
                    accept = r[i + 1] <= g and z < hi
                    if accept or fails + 1 >= MAX_ITERATIONS:
                        if not accept:
                            raise _kernel_error(errors.InternalError, "TruncatedNormal exponential distribution "
                                                "rejection sampler failed to accept a sample.")
                        out[sample * nb + b] = z * stddev + mean
                        sample += 1
                        idx += 1
                        if sample >= spb or idx >= limit:
                            break
                        fails = 0
                    else:
                        fails += 1


def sample(shape: tuple[int, ...], gen: philox.Philox, means: np.ndarray, stddevs: np.ndarray, minvals: np.ndarray,
           maxvals: np.ndarray) -> np.ndarray:
    """The kernel's output of `shape` (already checked to end with the parameters' broadcast shape)."""
    dt = means.dtype
    bshape = np.broadcast_shapes(means.shape, stddevs.shape, minvals.shape, maxvals.shape)
    nsd = len(shape) - len(bshape)
    spb = int(np.prod(shape[:nsd], dtype=np.int64))
    nb = int(np.prod(shape[nsd:], dtype=np.int64))
    flat = [np.broadcast_to(a, bshape).reshape(-1).tolist() for a in (means, stddevs, minvals, maxvals)]
    t = dt.type
    params = [tuple(t(col[b]) for col in flat) for b in range(nb)]
    out = np.zeros(spb * nb, dt)
    m = _Math(dt)
    k = 2 if dt == np.float64 else 4
    with np.errstate(all="ignore"):
        for start, limit in philox_dists.shard_blocks(spb * nb, BATCH_COST[dt.name]):
            _fill_range(start, limit, gen, spb, nb, params, out, m, k)
    return out.reshape(shape)
