"""TF's counter-based Philox4x32-10 generator and its stateless uniform draws, bit for bit.

TF 2.21's stateless ops on CPU (`StatelessRandomGetKeyCounter` + `StatelessRandomUniformV2`,
`...UniformIntV2`, `...UniformFullIntV2`; tsl/lib/random/philox_random.h and
random_distributions.h) derive a Philox key and counter from the seed pair (one Philox block of
the seed under a fixed key) and fill the output in groups: group ``g`` is the Philox block of
counter + g, and its 32-bit words become the values (four floats, or two doubles / int64s per
block). This module computes the same words with NumPy (uint64 lanes holding uint32 values), so
`tf.random.stateless_uniform` and `tf.nn.experimental.stateless_dropout` (Keras's Dropout) give
TF's values. The other distributions (normal, truncated normal, categorical, shuffle) are in
philox_dists.py.

`Philox` is one generator as TF's stateful and sampling kernels hold it (key, 128-bit counter; each
`next()` is one block of four words): `tf.random.gamma`/`poisson` (seeded: `PhiloxRandom(seed,
seed2)`; stateless: the key and counter above) and the candidate samplers draw from it, with the
two double distributions of random_distributions.h. Their transcendental steps use Python's
`math` (the C library's log, sin, cos, as TF's kernels call them), not NumPy's SIMD loops.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["key_counter", "words", "words_at", "uniform_float", "uniform_int", "full_int",
           "Philox", "seeded", "stateless", "uint64_to_double", "uniform_pair", "normal_pair", "blocks"]

_M32 = np.uint64(0xFFFFFFFF)
_MUL_A, _MUL_B = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_WEYL_A, _WEYL_B = 0x9E3779B9, 0xBB67AE85
_SEED_KEY = (0x3EC8F720, 0x02461E29)   # GenerateKey's fixed key that scrambles the seed
_U64 = (1 << 64) - 1


def _philox(ctr: np.ndarray, key: tuple[int, int]) -> np.ndarray:
    """Philox4x32 with 10 rounds of each column of ``ctr`` (4 x n uint64 holding uint32s)."""
    c0, c1, c2, c3 = (ctr[i].astype(np.uint64) for i in range(4))
    k0, k1 = key
    for _ in range(10):
        p0, p1 = _MUL_A * c0, _MUL_B * c2
        c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ np.uint64(k0), p1 & _M32,
                          (p0 >> np.uint64(32)) ^ c3 ^ np.uint64(k1), p0 & _M32)
        k0, k1 = (k0 + _WEYL_A) & 0xFFFFFFFF, (k1 + _WEYL_B) & 0xFFFFFFFF
    return np.stack([c0, c1, c2, c3])


def key_counter(seed: Any) -> tuple[tuple[int, int], tuple[int, int]]:
    """(key words, (counter low 64 bits, counter high 64 bits)) of a seed pair, as TF's
    GenerateKey: an int32 seed's elements sign-extend to 64 bits."""
    s0, s1 = (int(v) & _U64 for v in np.asarray(seed).reshape(-1)[:2])
    ctr = np.array([[s0 & 0xFFFFFFFF], [s0 >> 32], [s1 & 0xFFFFFFFF], [s1 >> 32]], dtype=np.uint64)
    mix = [int(v) for v in _philox(ctr, _SEED_KEY)[:, 0]]
    return (mix[0], mix[1]), (0, mix[2] | (mix[3] << 32))


def words(seed: Any, blocks: int) -> np.ndarray:
    """The uint32 words of ``blocks`` consecutive Philox blocks (block-major, 4 words each)."""
    key, (lo, hi) = key_counter(seed)
    return words_at(key, (hi << 64) | lo, blocks)


def words_at(key: tuple[int, int], counter: int, blocks: int, skip: int = 0) -> np.ndarray:
    """The uint32 words of ``blocks`` consecutive Philox blocks from a 128-bit ``counter`` (plus
    ``skip``, with the carry into the high half as PhiloxRandom::Skip), block-major."""
    c = (counter + skip) & ((1 << 128) - 1)
    lo0, hi0 = np.uint64(c & _U64), c >> 64
    g = np.arange(blocks, dtype=np.uint64)
    low = lo0 + g                                   # uint64 wrap-around: the carry below
    carry = (low < g).astype(object) if blocks else np.zeros(0, object)
    hi = np.array([(hi0 + int(k)) & _U64 for k in carry], dtype=np.uint64) if carry.any() else \
        np.full(blocks, hi0, dtype=np.uint64)
    ctr = np.stack([low & _M32, low >> np.uint64(32), hi & _M32, hi >> np.uint64(32)])
    return _philox(ctr, key).T.reshape(-1).astype(np.uint32)


def _count(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape, dtype=np.int64)) if shape else 1


def uniform_float(seed: Any, shape: tuple[int, ...], np_dtype: Any) -> np.ndarray:
    """[0, 1) draws: the mantissa bits of one word (two for float64) under exponent 0, minus 1."""
    return _uniform_words(lambda blocks: words(seed, blocks), _count(shape), np.dtype(np_dtype)).reshape(shape)


def _uniform_words(wfn: Any, n: int, dt: np.dtype) -> np.ndarray:
    """`uniform_float` of n values from ``wfn(blocks)``, the words of that many Philox blocks."""
    if dt == np.float64:
        w = wfn(-(-n // 2)).astype(np.uint64)
        man = ((w[0:2 * n:2] & np.uint64(0xFFFFF)) << np.uint64(32)) | w[1:2 * n:2]
        return ((np.uint64(1023) << np.uint64(52)) | man).view(np.float64) - 1.0
    w = wfn(-(-n // 4))[:n]
    if dt == np.float16:
        bits = (np.uint16(15) << np.uint16(10)) | (w.astype(np.uint16) & np.uint16(0x3FF))
        return bits.view(np.float16) - np.float16(1.0)
    if dt == np.float32:
        bits = (np.uint32(127) << np.uint32(23)) | (w & np.uint32(0x7FFFFF))
        return bits.view(np.float32) - np.float32(1.0)
    if dt.name == "bfloat16":   # 7 mantissa bits: exact in float32, then exactly representable
        bits = (np.uint32(127) << np.uint32(23)) | ((w & np.uint32(0x7F)) << np.uint32(16))
        return (bits.view(np.float32) - np.float32(1.0)).astype(dt)
    raise TypeError(f"simdist: no Philox uniform draw of dtype {dt.name} (TF: float16, bfloat16, float32, float64)")


def uniform_int(seed: Any, shape: tuple[int, ...], minval: int, maxval: int, np_dtype: Any) -> np.ndarray:
    """Integers in [minval, maxval): lo + word % range (int64: two words make one 64-bit value)."""
    return _uniform_int_words(lambda blocks: words(seed, blocks), _count(shape), minval, maxval,
                              np.dtype(np_dtype)).reshape(shape)


def _uniform_int_words(wfn: Any, n: int, minval: int, maxval: int, dt: np.dtype) -> np.ndarray:
    span = np.uint64((maxval - minval) & _U64)
    if dt.itemsize == 8:
        w = wfn(-(-n // 2)).astype(np.uint64)
        bits = w[0:2 * n:2] | (w[1:2 * n:2] << np.uint64(32))
        return ((bits % span) + np.uint64(minval & _U64)).view(dt)
    w = wfn(-(-n // 4))[:n].astype(np.uint64)
    return (((w % span) + np.uint64(minval & 0xFFFFFFFF)) & _M32).astype(np.uint32).view(dt)


def full_int(seed: Any, shape: tuple[int, ...], np_dtype: Any) -> np.ndarray:
    """Integers over the dtype's whole range: one word (int32) or two (int64) as the bits."""
    return _full_int_words(lambda blocks: words(seed, blocks), _count(shape), np.dtype(np_dtype)).reshape(shape)


def _full_int_words(wfn: Any, n: int, dt: np.dtype) -> np.ndarray:
    if dt.itemsize == 8:
        w = wfn(-(-n // 2)).astype(np.uint64)
        return (w[0:2 * n:2] | (w[1:2 * n:2] << np.uint64(32))).view(dt)
    return wfn(-(-n // 4))[:n].view(dt)


# --- one generator, block by block (the stateful and sampling kernels) --------------------------------
_M = 0xFFFFFFFF


def _rounds(c0: int, c1: int, c2: int, c3: int, k0: int, k1: int) -> tuple[int, int, int, int]:
    """`_philox` of one block in Python integers (a NumPy call per round would cost more than the
    block: samplers draw one block at a time)."""
    for _ in range(10):
        p0 = 0xD2511F53 * c0
        p1 = 0xCD9E8D57 * c2
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & _M, (p0 >> 32) ^ c3 ^ k1, p0 & _M
        k0 = (k0 + _WEYL_A) & _M
        k1 = (k1 + _WEYL_B) & _M
    return c0, c1, c2, c3


class Philox:
    """One PhiloxRandom: `key` two uint32 words, `counter` one 128-bit integer."""

    __slots__ = ("key", "counter")

    def __init__(self, key: tuple[int, int], counter: int) -> None:
        self.key = key
        self.counter = counter & ((1 << 128) - 1)

    def skip(self, count: int) -> None:
        """PhiloxRandom::Skip: the counter advanced by `count` outputs (`skipped`)."""
        self.counter = skipped(self.counter, count)

    def copy(self) -> "Philox":
        return Philox(self.key, self.counter)

    def next(self) -> tuple[int, int, int, int]:
        """One output (four uint32 words); the counter moves on by one."""
        c = self.counter
        out = _rounds(c & _M, (c >> 32) & _M, (c >> 64) & _M, (c >> 96) & _M, self.key[0], self.key[1])
        self.counter = (c + 1) & _M128   # (skip(1): no count word can wrap)
        return out


_M128 = (1 << 128) - 1


def skipped(counter: int, count: int) -> int:
    """The 128-bit `counter` after PhiloxRandom::Skip(uint64 count), as TF writes it (philox_random.h): the
    count's low word is added to the counter's first word, its high word plus that carry to the second, and
    a carry out of the second goes to the upper 64 bits. When the high word is 2**32 - 1 a carry wraps it to 0
    and is lost: a negative delta (RngReadAndSkip skips uint64(256 · delta)) never borrows from the upper
    half (TF 2.21, run: from_state([1234, 0, 0]).skip(-1) leaves [978, 0, 0])."""
    count &= _U64
    lo, hi = count & _M, count >> 32
    w0 = (counter & _M) + lo
    if w0 > _M:
        hi = (hi + 1) & _M
    w1 = ((counter >> 32) & _M) + hi
    upper = counter >> 64
    if w1 > _M:
        upper = (upper + 1) & _U64
    return (upper << 64) | ((w1 & _M) << 32) | (w0 & _M)


def seeded(seed: int, seed2: int) -> Philox:
    """GuardedPhiloxRandom::Init's generator for the op attrs (seed, seed2)."""
    s, s2 = seed & ((1 << 64) - 1), seed2 & ((1 << 64) - 1)
    return Philox((s & _M, s >> 32), s2 << 64)


def stateless(seed0: int, seed1: int) -> Philox:
    """The generator of a stateless kernel's seed pair (`key_counter`: GenerateKey)."""
    key, (lo, hi) = key_counter([seed0, seed1])
    return Philox(key, (hi << 64) | lo)


def uint64_to_double(x0: int, x1: int) -> float:
    """Uint64ToDouble: 52 mantissa bits (20 of x0, 32 of x1) under exponent 0, minus 1: [0, 1)."""
    bits = (1023 << 52) | ((x0 & 0xFFFFF) << 32) | x1
    return float(np.array(bits, np.uint64).view(np.float64)) - 1.0


def uniform_pair(w: tuple[int, int, int, int]) -> tuple[float, float]:
    """UniformDistribution<PhiloxRandom, double>: two doubles from one output."""
    return uint64_to_double(w[0], w[1]), uint64_to_double(w[2], w[3])


def normal_pair(w: tuple[int, int, int, int]) -> tuple[float, float]:
    """NormalDistribution<PhiloxRandom, double>: BoxMullerDouble of one output (sin, cos)."""
    u1 = uint64_to_double(w[0], w[1])
    if u1 < 1.0e-7:
        u1 = 1.0e-7
    v1 = 2 * math.pi * uint64_to_double(w[2], w[3])
    u2 = math.sqrt(-2.0 * math.log(u1))
    return math.sin(v1) * u2, math.cos(v1) * u2


def blocks(gen: Philox, starts: np.ndarray, count: int) -> np.ndarray:
    """[len(starts), count, 4] uint32 words: `count` outputs of `gen` skipped by each start, computed
    together in NumPy (the same words `Philox.next` gives)."""
    n = len(starts)
    out = np.empty((n, count, 4), np.uint64)
    if n == 0:
        return out
    base = np.array([gen.counter & ((1 << 64) - 1)], np.uint64)
    hi = gen.counter >> 64
    m = np.uint64(_M)
    for j in range(count):
        off = starts.astype(np.uint64) + np.uint64(j)
        lo = base + off   # uint64 wrap, with the carry into the high half below
        carry = (lo < off).astype(np.uint64)
        c = [lo & m, lo >> np.uint64(32), (np.uint64(hi & _M) + carry) & m,   # (the upper 64 bits wrap: philox.wrap)
             (np.full(n, (hi >> 32) & _M, np.uint64) + ((np.uint64(hi & _M) + carry) >> np.uint64(32))) & m]
        out[:, j, :] = _philox(np.stack(c), gen.key).T
    return out
