"""TF's SdcaFprint (a raw op only; tensorflow/core/kernels/sdca_ops.cc, clause ops.raw-ops): each string's
FarmHash Fingerprint128 (farmhashcc's CityHash128: CityMurmur below 128 bytes after the seed, else the unrolled
64-byte loop and up to four 32-byte tail chunks), as an int64 [n, 2]: the low half, then the high (observed on TF
2.21). The input a vector ("Input must be a vector, got shape []"). TF registers no gradient (string input)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.fingerprint import _K0, _K1, _M, _f64, _h16, _len0to16, _rot, _smix, _weak32
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, want_string

__all__ = ["SDCA_FPRINT", "fingerprint128"]


def _city_murmur(s: bytes, seed: tuple[int, int]) -> tuple[int, int]:
    a, b = seed
    n = len(s)
    if n <= 16:
        a = (_smix((a * _K1) & _M) * _K1) & _M
        c = (b * _K1 + _len0to16(s)) & _M
        d = _smix((a + (_f64(s, 0) if n >= 8 else c)) & _M)
    else:
        c = _h16((_f64(s, n - 8) + _K1) & _M, a)
        d = _h16((b + n) & _M, (c + _f64(s, n - 16)) & _M)
        a = (a + d) & _M
        pos, left = 0, n - 16
        while True:
            a ^= (_smix((_f64(s, pos) * _K1) & _M) * _K1) & _M
            a = (a * _K1) & _M
            b ^= a
            c ^= (_smix((_f64(s, pos + 8) * _K1) & _M) * _K1) & _M
            c = (c * _K1) & _M
            d ^= c
            pos += 16
            left -= 16
            if left <= 0:
                break
    a = _h16(a, c)
    b = _h16(d, b)
    return a ^ b, _h16(b, a)


def _city128_seed(s: bytes, seed: tuple[int, int]) -> tuple[int, int]:
    n = len(s)
    if n < 128:
        return _city_murmur(s, seed)
    x, y = seed
    z = (n * _K1) & _M
    v0 = (_rot(y ^ _K1, 49) * _K1 + _f64(s, 0)) & _M
    v1 = (_rot(v0, 42) * _K1 + _f64(s, 8)) & _M
    w0 = (_rot((y + z) & _M, 35) * _K1 + x) & _M
    w1 = (_rot((x + _f64(s, 88)) & _M, 53) * _K1) & _M
    pos, left = 0, n
    while True:
        for _ in range(2):
            x = (_rot((x + y + v0 + _f64(s, pos + 8)) & _M, 37) * _K1) & _M
            y = (_rot((y + v1 + _f64(s, pos + 48)) & _M, 42) * _K1) & _M
            x ^= w1
            y = (y + v0 + _f64(s, pos + 40)) & _M
            z = (_rot((z + w0) & _M, 33) * _K1) & _M
            v0, v1 = _weak32(s, pos, (v1 * _K1) & _M, (x + w0) & _M)
            w0, w1 = _weak32(s, pos + 32, (z + w1) & _M, (y + _f64(s, pos + 16)) & _M)
            z, x = x, z
            pos += 64
        left -= 128
        if left < 128:
            break
    x = (x + _rot((v0 + z) & _M, 49) * _K0) & _M
    y = (y * _K0 + _rot(w1, 37)) & _M
    z = (z * _K0 + _rot(w0, 27)) & _M
    w0 = (w0 * 9) & _M
    v0 = (v0 * _K0) & _M
    done = 0
    while done < left:
        done += 32
        y = (_rot((x + y) & _M, 42) * _K0 + v1) & _M
        w0 = (w0 + _f64(s, pos + left - done + 16)) & _M
        x = (x * _K0 + w0) & _M
        z = (z + w1 + _f64(s, pos + left - done)) & _M
        w1 = (w1 + v0) & _M
        v0, v1 = _weak32(s, pos + left - done, (v0 + z) & _M, v1)
        v0 = (v0 * _K0) & _M
    x = _h16(x, v0)
    y = _h16((y + z) & _M, w0)
    return (_h16((x + v1) & _M, w1) + y) & _M, _h16((x + w1) & _M, (y + v1) & _M)


def fingerprint128(s: bytes) -> tuple[int, int]:
    """farmhash::Fingerprint128 (CityHash128) of `s`: its (low, high) 64-bit halves, unsigned."""
    if len(s) >= 16:
        return _city128_seed(s[16:], (_f64(s, 0), (_f64(s, 8) + _K0) & _M))
    return _city128_seed(s, (_K0, _K1))


def _signed(v: int) -> int:
    return v - (1 << 64) if v >> 63 else v


def _sdca_fprint(input: np.ndarray) -> np.ndarray:  # noqa: A002
    """SdcaFprint::Compute."""
    if input.ndim != 1:
        raise errors.InvalidArgumentError(
            None, None, "{{function_node __wrapped__SdcaFprint_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
            f"Input must be a vector, got shape [{','.join(str(d) for d in input.shape)}] [Op:SdcaFprint]")
    out = np.zeros((input.shape[0], 2), np.int64)
    for i, v in enumerate(input.tolist()):
        lo, hi = fingerprint128(as_bytes(v))
        out[i] = (_signed(lo), _signed(hi))
    return out


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    want_string("SdcaFprint", dts, 0, "input")
    return dtypes.int64


SDCA_FPRINT = register("SdcaFprint", _sdca_fprint, _rule, kind="io", fusion=lanes("hashes strings in Python: no "
                                                                                   "stacked form written"),
                       **STRING_COST)
no_tf_gradient("SdcaFprint")
