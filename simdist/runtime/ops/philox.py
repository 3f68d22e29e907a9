"""TF's Philox4x32-10 counter generator (tensorflow/core/lib/random/philox_random.h) and the two
double distributions its gamma and Poisson kernels draw from (random_distributions.h), so that
`tf.random.gamma`/`poisson` (and their stateless forms) give TF's values bit for bit.

A generator is (key, 128-bit counter); each call returns four uint32 words and advances the
counter by one. Seeding: the stateful kernels' `PhiloxRandom(seed, seed2)` (key = seed's two
halves, counter words 2-3 = seed2's); the stateless ones scramble their seed pair through one
Philox call (GenerateKey). The transcendental steps use Python's `math` (the C library's log,
sin, cos, as TF's kernels call them), not NumPy's SIMD loops, which round differently.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["Philox", "seeded", "stateless", "uint64_to_double", "uniform_pair", "normal_pair", "blocks"]

_M = 0xFFFFFFFF
_MA, _MB, _WA, _WB = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85


def _rounds(c0: int, c1: int, c2: int, c3: int, k0: int, k1: int) -> tuple[int, int, int, int]:
    for _ in range(10):
        p0 = _MA * c0
        p1 = _MB * c2
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & _M, (p0 >> 32) ^ c3 ^ k1, p0 & _M
        k0 = (k0 + _WA) & _M
        k1 = (k1 + _WB) & _M
    return c0, c1, c2, c3


class Philox:
    """One PhiloxRandom: `key` two uint32 words, `counter` one 128-bit integer."""

    __slots__ = ("key", "counter")

    def __init__(self, key: tuple[int, int], counter: int) -> None:
        self.key = key
        self.counter = counter & ((1 << 128) - 1)

    def skip(self, count: int) -> None:
        """PhiloxRandom::Skip: the counter advanced by `count` outputs (128-bit carry)."""
        self.counter = (self.counter + count) & ((1 << 128) - 1)

    def copy(self) -> "Philox":
        return Philox(self.key, self.counter)

    def next(self) -> tuple[int, int, int, int]:
        """One output (four uint32 words); the counter moves on by one."""
        c = self.counter
        out = _rounds(c & _M, (c >> 32) & _M, (c >> 64) & _M, (c >> 96) & _M, self.key[0], self.key[1])
        self.skip(1)
        return out


def seeded(seed: int, seed2: int) -> Philox:
    """GuardedPhiloxRandom::Init's generator for the op attrs (seed, seed2)."""
    s, s2 = seed & ((1 << 64) - 1), seed2 & ((1 << 64) - 1)
    return Philox((s & _M, s >> 32), s2 << 64)


def stateless(seed0: int, seed1: int) -> Philox:
    """GenerateKey: the seed pair (sign-extended to 64 bits) scrambled by one Philox call under
    a fixed key; that output's words 0-1 are the key, 2-3 the counter's high half."""
    s0, s1 = seed0 & ((1 << 64) - 1), seed1 & ((1 << 64) - 1)
    mix = _rounds(s0 & _M, s0 >> 32, s1 & _M, s1 >> 32, 0x3EC8F720, 0x02461E29)
    return Philox((mix[0], mix[1]), (mix[2] << 64) | (mix[3] << 96))


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
        c = [lo & m, lo >> np.uint64(32), (np.uint64(hi & _M) + carry) & m,
             np.full(n, (hi >> 32) & _M, np.uint64) + ((np.uint64(hi & _M) + carry) >> np.uint64(32))]
        k0, k1 = np.uint64(gen.key[0]), np.uint64(gen.key[1])
        for _ in range(10):
            p0 = np.uint64(_MA) * c[0]
            p1 = np.uint64(_MB) * c[2]
            c = [(p1 >> np.uint64(32)) ^ c[1] ^ k0, p1 & m, (p0 >> np.uint64(32)) ^ c[3] ^ k1, p0 & m]
            k0 = (k0 + np.uint64(_WA)) & m
            k1 = (k1 + np.uint64(_WB)) & m
        out[:, j, :] = np.stack(c, axis=1)
    return out
