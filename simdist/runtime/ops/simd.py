"""Which elements of an elementwise result TF's Eigen CPU kernels compute in SIMD packets.

An Eigen tensor expression over n elements runs the first (n // P) * P of them (flat order) in
packets of P lanes, the remaining n mod P one at a time. The two paths agree on every value but,
for a few functors, on the sign of a zero: relu/relu6 give max(x, 0) = +0.0 for x = -0.0 in
packets and keep -0.0 in the scalar tail; xlogy/xdivy/xlog1py return x (-0.0) in packets and
+0.0 in the tail. P is what TF 2.21's x86-64 wheel uses (AVX2, 32-byte packets: 8 float32,
4 float64; float16 packets of 8 for the x-functions, none for relu, which Eigen runs through
float). Observed on TF 2.21 (tests/ops/test_op_edges_tf.py, clause ops.simd-signed-zeros);
another ISA (AVX-512: 16 float32 lanes) moves the boundary, a hardware dependence recorded in
docs/spec.md.
"""

from __future__ import annotations

import numpy as np

__all__ = ["packet_mask", "narrow_cast", "unsigned_cast", "bfloat16_signed_cast", "RELU_LANES", "XFUNC_LANES", "NARROW_CAST_LANES",
           "UINT32_CAST_LANES"]

RELU_LANES = {"float32": 8, "float64": 4}
XFUNC_LANES = {"float32": 8, "float64": 4, "float16": 8, "complex64": 4, "complex128": 2}
# Cast of a float to int8/uint8/int16/uint16: 32 float32 or 16 float16/float64 elements a packet
NARROW_CAST_LANES = {"float32": 32, "float64": 16, "float16": 16, "bfloat16": 8}
# Cast of any float to uint32: packets of 8 elements (measured on TF 2.21, fuzz2 seed 20261130)
UINT32_CAST_LANES = {"float32": 8, "float64": 8, "float16": 8, "bfloat16": 8}
_NARROW = ("int8", "uint8", "int16", "uint16")


def packet_mask(shape: tuple[int, ...], dtype: np.dtype, lanes: dict[str, int]) -> np.ndarray | None:
    """A bool array of `shape`: True where the element is computed in a packet (None: no
    element is, for a dtype without packets in `lanes`)."""
    p = lanes.get(np.dtype(dtype).name)
    n = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if not p or n < p:
        return None
    return (np.arange(n) < (n // p) * p).reshape(shape)


def narrow_cast(a: np.ndarray, out: np.ndarray, packets: bool = True) -> np.ndarray:
    """A float-to-int8/uint8/int16/uint16 cast as TF 2.21's Eigen kernel computes it: the scalar
    tail wraps (C++'s conversion through int32: x86's truncation, which gives INT32_MIN for NaN,
    infinities and values outside int32, then the low bits), the packets convert to int32 the same
    way and then pack with saturation: int8/int16/uint16 clip the int32; uint8 clips it from
    float32, and from float16/float64 packs to uint16 first and then saturates that as a signed
    int16 (65504 gives 0). bfloat16 converts through float32 (packets of 8). Observed on TF 2.21,
    clause ops.packet-paths. `packets` False: the scalar tail throughout (a complex source). (`out`, NumPy's astype, is not used for these dtypes: its out-of-range
    results follow NumPy's SIMD path for the CPU, e.g. 0 where C++ gives 253 on an AVX-512 host.)"""
    if out.dtype.name not in _NARROW or not _is_float(a):
        return out
    x = a.astype(np.float64)
    ok = np.isfinite(x) & (x > -2.0 ** 31 - 1) & (x < 2.0 ** 31)
    i32 = np.where(ok, np.trunc(np.where(ok, x, 0.0)), -2.0 ** 31).astype(np.int64)
    wrapped = i32.astype(out.dtype)   # (integer narrowing: the low bits, on every CPU)
    mask = packet_mask(a.shape, a.dtype, NARROW_CAST_LANES) if packets else None
    if mask is None:
        return wrapped
    packed = i32[mask]
    name = out.dtype.name
    if name == "uint8" and a.dtype.name not in ("float32", "bfloat16"):
        u16 = np.clip(packed, 0, 65535)
        packed = np.where(u16 > 32767, u16 - 65536, u16)
    info = np.iinfo(out.dtype)
    wrapped[mask] = np.clip(packed, info.min, info.max).astype(out.dtype)
    return wrapped


def _is_float(a: np.ndarray) -> bool:
    return a.dtype.kind == "f" or a.dtype.name == "bfloat16"


def bfloat16_signed_cast(a: np.ndarray, out: np.ndarray) -> np.ndarray:
    """A bfloat16-to-int32/int64 cast as TF 2.21's kernel computes it: through float32, then x86's
    truncation (cvttss2si), so NaN, the infinities and values outside the integer's range give its
    minimum (INT_MIN, INT64_MIN) at every position, where ml_dtypes' astype gives 0. Observed on
    TF 2.21 (fz28a: fuzz20 seed 2720261205 #185's -3.4e38, which rounds to -inf in bfloat16)."""
    if a.dtype.name != "bfloat16" or out.dtype.name not in ("int32", "int64"):
        return out
    x = a.astype(np.float64)
    bits = 8 * out.dtype.itemsize - 1
    with np.errstate(invalid="ignore"):
        ok = np.isfinite(x) & (x >= -(2.0 ** bits)) & (x < 2.0 ** bits)
        return np.where(ok, np.trunc(np.where(ok, x, 0.0)), -(2.0 ** bits)).astype(out.dtype).reshape(a.shape)


def unsigned_cast(a: np.ndarray, out: np.ndarray, packets: bool = True) -> np.ndarray:
    """A float-to-uint32/uint64 cast as TF 2.21's kernel computes it, element by element
    (NumPy's astype is no reference here: its result for NaN and out-of-range values depends
    on the array's size and its SIMD loop). uint64: values in [2**63, 2**64) exactly, others
    through int64 with x86's truncation (NaN, infinities and values outside give 2**63;
    negative ones wrap). uint32: through int64 keeping the low 32 bits (NaN and infinities
    give 0, 5e9 gives 705032704, -1 gives 2**32 - 1), except in the packets of 8 elements
    (float16/32/64, bfloat16), where values >= 2**32 or below -2**31, NaN and the infinities
    give 2**31 (3e9 stays 3000000000, -5e9 is 2**31). Clause
    ops.packet-paths (fuzz2 seed 7 #185, seed 11 #0, seed 20261130 #477). `packets` False: every
    element as the scalar tail (a complex source's real part: Eigen has no packet cast from complex)."""
    if not _is_float(a) or out.dtype.name not in ("uint32", "uint64"):
        return out
    x = a.astype(np.float64)
    with np.errstate(invalid="ignore"):
        in64 = np.isfinite(x) & (x > -2.0 ** 63) & (x < 2.0 ** 63)
        t64 = np.trunc(np.where(in64, x, 0.0))
    if out.dtype.name == "uint64":
        high = np.isfinite(x) & (x >= 2.0 ** 63) & (x < 2.0 ** 64)
        res = np.where(in64, t64.astype(np.int64).view(np.uint64), np.uint64(2 ** 63))
        res = np.where(high, (np.where(high, x, 0.0) - 2.0 ** 63).astype(np.uint64) + np.uint64(2 ** 63), res)
        return res.astype(np.uint64).reshape(a.shape)
    res = np.where(in64, t64.astype(np.int64) % 2 ** 32, 0).astype(np.uint32)
    mask = packet_mask(a.shape, a.dtype, UINT32_CAST_LANES) if packets else None
    if mask is not None:
        big = mask & ((x >= 2.0 ** 32) | (x < -2.0 ** 31) | ~np.isfinite(x))
        res[big] = 2 ** 31
    return res.reshape(a.shape)
