"""An independent reference of Philox4x32-10 (philox_random.h) in Python integers, for the suite's
random-number clauses: the backend under test must draw what these words say, so the suite does not
use any backend's own generator."""

from __future__ import annotations

_M = 0xFFFFFFFF


def philox(c: list[int], k: list[int]) -> list[int]:
    """One Philox4x32-10 block: the four 32-bit output words of counter words `c` under key `k`."""
    c, k = list(c), list(k)
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & _M, (p0 >> 32) ^ c[3] ^ k[1], p0 & _M]
        k = [(k[0] + 0x9E3779B9) & _M, (k[1] + 0xBB67AE85) & _M]
    return c


def block(counter: int, key: list[int]) -> list[int]:
    """The block of a 128-bit integer counter (its four 32-bit words, low first)."""
    return philox([counter & _M, (counter >> 32) & _M, (counter >> 64) & _M, (counter >> 96) & _M], key)
