"""TF's random::SimplePhilox (lib/random/simple_philox.h) over a PhiloxRandom: 32-bit words one at
a time (SingleSampleAdapter: each 128-bit output's four words in order), RandFloat
(Uint32ToFloat), RandDouble (Uint64ToDouble of two words), Rand64 and Uniform (ExactUniformInt:
a power of two masked, else draws below (2^bits − 1) mod n + 1 rejected, then mod n; n = 0
consumes a word and gives 0). Shared by the kernels that draw through it (candidate samplers,
fractional pools, sample_distorted_bounding_box).
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import philox

__all__ = ["SimplePhilox"]


class SimplePhilox:
    """SimplePhilox over `gen` (which it advances)."""

    __slots__ = ("gen", "buf")

    def __init__(self, gen: philox.Philox) -> None:
        self.gen = gen
        self.buf: list[int] = []

    def word(self) -> int:
        if not self.buf:
            self.buf = list(reversed(self.gen.next()))
        return self.buf.pop()

    def rand64(self) -> int:
        lo = self.word()
        return lo | self.word() << 32

    def rand_double(self) -> float:
        x0 = self.word()
        return philox.uint64_to_double(x0, self.word())

    def rand_float(self) -> np.float32:
        """Uint32ToFloat: 23 mantissa bits under exponent 0, minus 1."""
        bits = np.array((127 << 23) | (self.word() & 0x7FFFFF), np.uint32)
        return bits.view(np.float32) - np.float32(1.0)

    def uniform(self, n: int, bits: int = 32) -> int:
        """ExactUniformInt over Rand32 (bits 32) or Rand64 (bits 64)."""
        draw = self.word if bits == 32 else self.rand64
        if n == 0:
            draw()
            return 0
        if n & (n - 1) == 0:
            return draw() & (n - 1)
        rem = ((1 << bits) - 1) % n + 1
        while True:
            r = draw()
            if r >= rem:
                return r % n
