"""Two byte-string hashes TF's string ops use besides FarmHash (fingerprint.py):

- `hash64`: tsl::Hash64 (tsl/platform/hash.cc), a MurmurHash64A variant with TF's seed
  0xDECAFCAFFE (hash.h), of StringToHashBucket (tf.strings.to_hash_bucket);
- `siphash24`: SipHash-2-4 (Aumasson and Bernstein) keyed by two 64-bit words, as highwayhash's
  SipHash that TF's StrongKeyedHash (strong_hash.h) calls for StringToHashBucketStrong: the key's
  int64 words read as unsigned little-endian words k0, k1.
Both on Python ints masked to 64 bits."""

from __future__ import annotations

__all__ = ["hash64", "siphash24"]

_M = (1 << 64) - 1
_TF_SEED = 0xDECAFCAFFE


def hash64(data: bytes, seed: int = _TF_SEED) -> int:
    """tsl::Hash64(data, n, seed) as an unsigned 64-bit int."""
    m, r = 0xC6A4A7935BD1E995, 47
    n = len(data)
    h = (seed ^ (n * m)) & _M
    full = n - n % 8
    for p in range(0, full, 8):
        k = int.from_bytes(data[p:p + 8], "little")
        k = (k * m) & _M
        k ^= k >> r
        k = (k * m) & _M
        h ^= k
        h = (h * m) & _M
    rest = data[full:]
    if rest:
        for i in range(len(rest) - 1, -1, -1):
            h ^= rest[i] << (8 * i)
        h = (h * m) & _M
    h ^= h >> r
    h = (h * m) & _M
    h ^= h >> r
    return h


def _rotl(x: int, b: int) -> int:
    return ((x << b) | (x >> (64 - b))) & _M


def _rounds(v: list[int], n: int) -> None:
    v0, v1, v2, v3 = v
    for _ in range(n):
        v0 = (v0 + v1) & _M
        v1 = _rotl(v1, 13) ^ v0
        v0 = _rotl(v0, 32)
        v2 = (v2 + v3) & _M
        v3 = _rotl(v3, 16) ^ v2
        v0 = (v0 + v3) & _M
        v3 = _rotl(v3, 21) ^ v0
        v2 = (v2 + v1) & _M
        v1 = _rotl(v1, 17) ^ v2
        v2 = _rotl(v2, 32)
    v[:] = [v0, v1, v2, v3]


def siphash24(k0: int, k1: int, data: bytes) -> int:
    """SipHash-2-4 of `data` under the key (k0, k1) (unsigned 64-bit words), unsigned 64-bit."""
    k0, k1 = k0 & _M, k1 & _M
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D, k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]
    n = len(data)
    full = n - n % 8
    for p in range(0, full, 8):
        m = int.from_bytes(data[p:p + 8], "little")
        v[3] ^= m
        _rounds(v, 2)
        v[0] ^= m
    last = ((n & 0xFF) << 56) | int.from_bytes(data[full:], "little")
    v[3] ^= last
    _rounds(v, 2)
    v[0] ^= last
    v[2] ^= 0xFF
    _rounds(v, 4)
    return v[0] ^ v[1] ^ v[2] ^ v[3]
