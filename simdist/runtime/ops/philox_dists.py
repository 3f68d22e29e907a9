"""TF's Philox distributions on CPU, bit for bit: uniform, normal, truncated normal (any float
dtype), uniform integers, categorical rows and shuffles, drawn from one `philox.Philox` generator
as TF 2.21's kernels draw them (random_op_cpu.h FillPhiloxRandom, multinomial_op.cc,
random_shuffle_op.cc; random_distributions.h).

FillPhiloxRandom fills the output in groups of the distribution's kResultElementCount values
(4 for half/bfloat16/float, 2 for double and int64): group g of a fixed-size distribution is the
generator's output g (so the kernel's thread sharding cannot change the bits); truncated normal
(variable samples per output) starts group g at the generator skipped by g * 256 * group / 4 and
takes words one at a time (SingleSampleAdapter) until the group is full. BoxMullerFloat computes
in float with the C library's logf and sincosf, element by element (libm.scalar_map; NumPy's
float64 results rounded to float differ from glibc's logf/sinf/cosf on ~1% of inputs).
Clause ops.random-bits.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simdist.runtime.ops import philox
from simdist.runtime.ops.libm import scalar_map

__all__ = ["group_words", "uniform", "uniform_int", "normal", "truncated_normal", "categorical", "shuffle_order",
           "uint32_to_float", "full_int"]

RESERVED = 256   # kReservedSamplesPerOutput
_TWO_PI = 2.0 * math.pi   # 2.0f * M_PI: a double


def group_words(gen: philox.Philox, groups: int) -> np.ndarray:
    """[groups, 4] uint32: output g of `gen` (skipped by g), as FillPhiloxRandom's fixed-size groups."""
    return philox.blocks(gen, np.arange(groups, dtype=np.int64), 1)[:, 0, :].astype(np.uint32)


def _count(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape, dtype=np.int64)) if shape else 1


def uint32_to_float(w: np.ndarray) -> np.ndarray:
    """Uint32ToFloat: 23 mantissa bits under exponent 0, minus 1: [0, 1) float32."""
    bits = (np.uint32(127) << np.uint32(23)) | (w.astype(np.uint32) & np.uint32(0x7FFFFF))
    return bits.view(np.float32) - np.float32(1.0)


def _uint64_to_double(hi_words: np.ndarray, lo_words: np.ndarray) -> np.ndarray:
    """Uint64ToDouble(x0, x1): 20 mantissa bits of x0, 32 of x1."""
    man = ((hi_words.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)) | lo_words.astype(np.uint64)
    return ((np.uint64(1023) << np.uint64(52)) | man).view(np.float64) - 1.0


def _logf(x: np.ndarray) -> np.ndarray:
    return scalar_map("logf", x)


def _sincosf(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sincosf: glibc's sinf and cosf (the same polynomial code: equal bits)."""
    return scalar_map("sinf", v), scalar_map("cosf", v)


def box_muller_float(x0: np.ndarray, x1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """BoxMullerFloat of word arrays: (f0, f1) float32."""
    u1 = np.maximum(uint32_to_float(x0), np.float32(1.0e-7))
    v1 = (_TWO_PI * uint32_to_float(x1).astype(np.float64)).astype(np.float32)
    u2 = np.sqrt(np.float32(-2.0) * _logf(u1))
    s, c = _sincosf(v1)
    return s * u2, c * u2


def box_muller_double(x0: np.ndarray, x1: np.ndarray, x2: np.ndarray, x3: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """BoxMullerDouble of word arrays (glibc's log/sin/cos per element, as philox.normal_pair)."""
    u1 = np.maximum(_uint64_to_double(x0, x1), 1.0e-7)
    v1 = _TWO_PI * _uint64_to_double(x2, x3)
    f0 = np.empty(len(u1))
    f1 = np.empty(len(u1))
    for i, (a, b) in enumerate(zip(u1.tolist(), v1.tolist())):
        u2 = math.sqrt(-2.0 * math.log(a))
        f0[i], f1[i] = math.sin(b) * u2, math.cos(b) * u2
    return f0, f1


def _to(values: np.ndarray, np_dtype: Any) -> np.ndarray:
    """float32 → the output dtype as Eigen converts (half and bfloat16 round to nearest even)."""
    return values.astype(np_dtype)


def uniform(gen: philox.Philox, shape: tuple[int, ...], np_dtype: Any) -> np.ndarray:
    """UniformDistribution<float dtype>: [0, 1) values."""
    dt = np.dtype(np_dtype)
    n = _count(shape)
    if dt == np.float64:
        w = group_words(gen, -(-n // 2)).reshape(-1)
        return _uint64_to_double(w[0:2 * n:2], w[1:2 * n:2]).reshape(shape)
    w = group_words(gen, -(-n // 4)).reshape(-1)[:n]
    if dt == np.float16:   # Uint16ToHalf: 10 mantissa bits
        bits = (np.uint16(15) << np.uint16(10)) | (w.astype(np.uint16) & np.uint16(0x3FF))
        return (bits.view(np.float16) - np.float16(1.0)).reshape(shape)
    if dt == np.float32:
        return uint32_to_float(w).reshape(shape)
    if dt.name == "bfloat16":   # Uint16ToGfloat16: 7 mantissa bits
        bits = (np.uint32(127) << np.uint32(23)) | ((w & np.uint32(0x7F)) << np.uint32(16))
        return (bits.view(np.float32) - np.float32(1.0)).astype(dt).reshape(shape)
    raise TypeError(f"simdist: no Philox uniform draw of dtype {dt.name} (TF: float16, bfloat16, float32, float64)")


def uniform_int(gen: philox.Philox, shape: tuple[int, ...], lo: int, hi: int, np_dtype: Any) -> np.ndarray:
    """UniformDistribution<int32/int64>: lo + word(s) % (hi - lo), in unsigned arithmetic."""
    dt = np.dtype(np_dtype)
    n = _count(shape)
    if dt == np.int64:
        span = np.uint64((hi - lo) & ((1 << 64) - 1))
        w = group_words(gen, -(-n // 2)).reshape(-1).astype(np.uint64)
        bits = w[0:2 * n:2] | (w[1:2 * n:2] << np.uint64(32))
        return ((bits % span) + np.uint64(lo & ((1 << 64) - 1))).view(np.int64).reshape(shape)
    span = np.uint64((hi - lo) & 0xFFFFFFFF)
    w = group_words(gen, -(-n // 4)).reshape(-1)[:n].astype(np.uint64)
    out = ((w % span) + np.uint64(lo & 0xFFFFFFFF)) & np.uint64(0xFFFFFFFF)
    return out.astype(np.uint32).view(np.int32).reshape(shape)


def normal(gen: philox.Philox, shape: tuple[int, ...], np_dtype: Any) -> np.ndarray:
    """NormalDistribution: BoxMullerFloat of word pairs (half/bfloat16 from its floats), or
    BoxMullerDouble of each output's four words (double)."""
    dt = np.dtype(np_dtype)
    n = _count(shape)
    if dt == np.float64:
        w = group_words(gen, -(-n // 2))
        f0, f1 = box_muller_double(w[:, 0], w[:, 1], w[:, 2], w[:, 3])
        return np.stack([f0, f1], axis=1).reshape(-1)[:n].reshape(shape)
    if dt.name not in ("float16", "bfloat16", "float32"):
        raise TypeError(f"simdist: no Philox normal draw of dtype {dt.name} (TF: float16, bfloat16, float32, float64)")
    w = group_words(gen, -(-n // 4)).reshape(-1, 2)
    f0, f1 = box_muller_float(w[:, 0], w[:, 1])
    return _to(np.stack([f0, f1], axis=1).reshape(-1)[:n], dt).reshape(shape)


def truncated_normal(gen: philox.Philox, shape: tuple[int, ...], np_dtype: Any) -> np.ndarray:
    """TruncatedNormalDistribution: group g from the generator skipped by g * 256 * group / 4,
    Box-Muller pairs in order, each kept if |value| < 2, until the group holds its values."""
    dt = np.dtype(np_dtype)
    n = _count(shape)
    dbl = dt == np.float64
    if not dbl and dt.name not in ("float16", "bfloat16", "float32"):
        raise TypeError(f"simdist: no Philox truncated normal of dtype {dt.name}")
    group = 2 if dbl else 4
    groups = -(-n // group)
    out = np.zeros((groups, group), np.float64 if dbl else np.float32)
    filled = np.zeros(groups, np.int64)
    starts = np.arange(groups, dtype=np.int64) * (group * RESERVED // 4)
    active = np.arange(groups)
    j = 0
    while len(active):
        w = philox.blocks(gen, starts[active] + j, 1)[:, 0, :].astype(np.uint32)
        if dbl:
            pairs = [box_muller_double(w[:, 0], w[:, 1], w[:, 2], w[:, 3])]
        else:
            pairs = [box_muller_float(w[:, 0], w[:, 1]), box_muller_float(w[:, 2], w[:, 3])]
        for f0, f1 in pairs:
            for f in (f0, f1):
                ok = (np.abs(f) < 2.0) & (filled[active] < group)
                rows = active[ok]
                out[rows, filled[rows]] = f[ok]
                filled[rows] += 1
        active = active[filled[active] < group]
        j += 1
    return _to(out.reshape(-1)[:n], dt).reshape(shape)


class _Words:
    """SingleSampleAdapter: the generator's words one at a time (blocks computed ahead)."""

    def __init__(self, gen: philox.Philox, words: int) -> None:
        self.w = group_words(gen, -(-words // 4)).reshape(-1) if words > 0 else np.zeros(0, np.uint32)
        self.i = 0

    def take(self, k: int) -> np.ndarray:
        out = self.w[self.i:self.i + k]
        self.i += k
        return out


# TF's CPU device has one intra-op thread per schedulable core; the sharding of Multinomial's rows
# (and so its draws) depends on it. simdist models the reference machine's 2 (where the goldens were
# recorded), a constant: the values must not depend on the machine simdist runs on.
INTRA_OP_THREADS = 2


def _divup(a: int, b: int) -> int:
    return -(-a // b)


def shard_blocks(total: int, cost_per_unit: int, threads: int = INTRA_OP_THREADS) -> list[tuple[int, int]]:
    """The [start, limit) ranges Shard(threads, pool, total, cost_per_unit) hands its work
    (work_sharder.cc → Eigen ThreadPoolDevice::parallelFor: one range when the cost model
    wants one thread, else blocks of CalculateParallelForBlock's size)."""
    if total <= 0:
        return []
    cost = float(cost_per_unit)   # TensorOpCost(0, 0, cost): compute cycles only
    want = (total * cost - 100000.0) / 100000.0 + 0.9
    if threads <= 1 or total == 1 or min(threads, max(1, int(want))) == 1:
        return [(0, total)]
    block_f = 1.0 / (cost / 40000.0) if cost > 0 else float(total)
    block = min(total, max(_divup(total, 4 * threads), int(block_f)))
    max_block = min(total, 2 * block)
    count = _divup(total, block)
    best = count / (_divup(count, threads) * threads)
    prev = count
    while best < 1.0 and prev > 1:
        coarser = _divup(total, prev - 1)
        if coarser > max_block:
            break
        ccount = _divup(total, coarser)
        prev = ccount
        eff = ccount / (_divup(ccount, threads) * threads)
        if eff + 0.01 >= best:
            block, count = coarser, ccount
            best = max(best, eff)
    return [(s, min(s + block, total)) for s in range(0, total, block)]


def categorical(gen: philox.Philox, logits: np.ndarray, num_samples: int) -> np.ndarray:
    """MultinomialFunctor<CPU>: the rows sharded as TF's Shard splits them (cost per row
    50 · (num_samples · log2(classes) + classes)); each shard copies the generator, skips it by
    start_row · (num_samples + 3) / 4 outputs, then per row: cdf = running sum (in double, finite
    logits only) of exp(logit - max finite logit), and each sample upper_bound(cdf, RandDouble() *
    total), RandDouble = Uint64ToDouble of the next two words."""
    rows, classes = logits.shape
    out = np.zeros((rows, num_samples), np.int64)
    with np.errstate(divide="ignore"):
        cost = int(50 * (num_samples * math.log(classes) / math.log(2) + classes)) if classes > 0 else 50 * num_samples
    for start, limit in shard_blocks(rows, cost):
        local = gen.copy()
        local.skip(start * (num_samples + 3) // 4)
        words = _Words(local, 2 * (limit - start) * num_samples)
        for b in range(start, limit):
            _categorical_row(logits[b], classes, words.take(2 * num_samples), out[b])
    return out


def _categorical_row(row: np.ndarray, classes: int, w: np.ndarray, out: np.ndarray) -> None:
    """One row's samples into `out` from its words `w` (two per sample)."""
    fin = np.isfinite(row)
    if fin.any():
        mx = row[fin].max()
    else:
        mx = np.finfo(row.dtype).min if row.dtype.kind == "f" else np.iinfo(row.dtype).min
    vals = row.astype(np.float64).tolist()
    cdf = np.empty(classes)
    total = 0.0
    for j in range(classes):
        if fin[j]:   # std::exp(double): the C library's exp (math.exp; NumPy's is dispatched per CPU)
            total += math.exp(vals[j] - float(mx))
        cdf[j] = total
    u = _uint64_to_double(w[0::2], w[1::2]) * total
    out[:] = np.searchsorted(cdf, u, side="right")


def shuffle_order(gen: philox.Philox, size: int) -> np.ndarray:
    """RandomShuffle's permutation of range(size): for i in 0..size-2 swap i with
    i + word % (size - i), one word per step (SingleSampleAdapter)."""
    perm = np.arange(size)
    w = _Words(gen, size - 1).take(size - 1).tolist()
    for i in range(size - 1):
        k = i + w[i] % (size - i)
        perm[i], perm[k] = perm[k], perm[i]
    return perm


def full_int(gen: philox.Philox, shape: tuple[int, ...], np_dtype: Any) -> np.ndarray:
    """UniformFullIntDistribution: every bit pattern of the integer dtype (one word, or two for 64 bits)."""
    return philox._full_int_words(lambda blocks: philox.words_at(gen.key, gen.counter, blocks), _count(shape),
                                  np.dtype(np_dtype)).reshape(shape)
