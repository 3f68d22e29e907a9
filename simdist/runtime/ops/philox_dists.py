"""TF's Philox distributions from a (key, counter) pair, bit for bit: the CPU kernels of the
stateless V2 ops (`StatelessRandomNormalV2`, `...UniformV2`, `...UniformIntV2`,
`...UniformFullIntV2`, `StatelessTruncatedNormalV2` with key/counter inputs), which
`tf.random.Generator` calls after `RngReadAndSkip` (clause ops.random-generator).

FillPhiloxRandom (tsl/lib/random/random_distributions.h, core/kernels/random_op_cpu.h): output
group ``g`` (4 floats/halves, or 2 doubles/int64s) is computed from Philox block ``counter + g``.
Normal draws are BoxMullerFloat on each word pair: u1 = Uint32ToFloat(x0) (at least 1e-7),
v1 = 2π·Uint32ToFloat(x1) (double product, rounded to float), u2 = sqrtf(-2·logf(u1)),
(sin v1, cos v1)·u2 through glibc's logf/sincosf (called through ctypes, as the kernel calls
them: NumPy's SIMD log/sin differ in the last bit); float64 uses BoxMullerDouble on four words.
Truncated normal groups restart at ``counter + g * 256`` (256 reserved samples per output,
`kReservedSamplesPerOutput`; 128 blocks per double group) and read words one at a time
(SingleSampleAdapter), keeping the Box-Muller values with |x| < 2 in order.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from functools import lru_cache
from typing import Any

import numpy as np

from simdist.runtime.ops import philox

__all__ = ["uniform", "uniform_int", "full_int", "normal", "truncated_normal"]


@lru_cache(maxsize=None)
def _libm() -> Any:
    lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    lib.logf.restype, lib.logf.argtypes = ctypes.c_float, [ctypes.c_float]
    lib.sincosf.restype = None
    lib.sincosf.argtypes = [ctypes.c_float, ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_float)]
    return lib


def _count(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape, dtype=np.int64)) if shape else 1


def _u32_to_float(w: np.ndarray) -> np.ndarray:
    return ((np.uint32(127) << np.uint32(23)) | (w.astype(np.uint32) & np.uint32(0x7FFFFF))).view(np.float32) \
        - np.float32(1.0)


def _box_muller_float(x0: np.ndarray, x1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """BoxMullerFloat of word pairs: (sin, cos) halves as float32 arrays."""
    lib = _libm()
    u1 = np.maximum(_u32_to_float(x0), np.float32(1.0e-7))
    v1 = (2.0 * math.pi * _u32_to_float(x1).astype(np.float64)).astype(np.float32)
    logs = np.array([lib.logf(v) for v in u1.tolist()], np.float32)
    u2 = np.sqrt(np.float32(-2.0) * logs)
    s, c = ctypes.c_float(), ctypes.c_float()
    ps, pc = ctypes.byref(s), ctypes.byref(c)
    sin = np.empty(len(v1), np.float32)
    cos = np.empty(len(v1), np.float32)
    for i, v in enumerate(v1.tolist()):
        lib.sincosf(v, ps, pc)
        sin[i], cos[i] = s.value, c.value
    return sin * u2, cos * u2


def _box_muller_double(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """BoxMullerDouble of word quadruples (rows of w: x0..x3): glibc's log, sin, cos."""
    out0 = np.empty(len(w), np.float64)
    out1 = np.empty(len(w), np.float64)
    for i, row in enumerate(w.tolist()):
        out0[i], out1[i] = philox.normal_pair(tuple(row))
    return out0, out1


def uniform(key: tuple[int, int], counter: int, shape: tuple[int, ...], dt: np.dtype) -> np.ndarray:
    """UniformDistribution in [0, 1) of the dtype (as philox.uniform_float, from key/counter)."""
    return philox._uniform_words(words_fn(key, counter), _count(shape), np.dtype(dt)).reshape(shape)


def words_fn(key: tuple[int, int], counter: int) -> Any:
    return lambda blocks: philox.words_at(key, counter, blocks)


def uniform_int(key: tuple[int, int], counter: int, shape: tuple[int, ...], lo: int, hi: int,
                dt: np.dtype) -> np.ndarray:
    return philox._uniform_int_words(words_fn(key, counter), _count(shape), lo, hi, np.dtype(dt)).reshape(shape)


def full_int(key: tuple[int, int], counter: int, shape: tuple[int, ...], dt: np.dtype) -> np.ndarray:
    return philox._full_int_words(words_fn(key, counter), _count(shape), np.dtype(dt)).reshape(shape)


def normal(key: tuple[int, int], counter: int, shape: tuple[int, ...], dt: np.dtype) -> np.ndarray:
    """NormalDistribution: float types from BoxMullerFloat pairs (half/bfloat16 rounded from
    float32), float64 from BoxMullerDouble quadruples."""
    dt = np.dtype(dt)
    n = _count(shape)
    if dt == np.float64:
        w = philox.words_at(key, counter, -(-n // 2)).reshape(-1, 4)
        a, b = _box_muller_double(w)
        return np.stack([a, b], axis=1).reshape(-1)[:n].reshape(shape)
    w = philox.words_at(key, counter, -(-n // 4))
    a, b = _box_muller_float(w[0::2], w[1::2])
    return np.stack([a, b], axis=1).reshape(-1)[:n].astype(dt).reshape(shape)


def _candidates(w: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Box-Muller values of word rows [groups, 4k] in the order the kernel makes them."""
    g = w.shape[0]
    if dt == np.float64:
        a, b = _box_muller_double(w.reshape(-1, 4))
    else:
        flat = w.reshape(-1)
        a, b = _box_muller_float(flat[0::2], flat[1::2])
    return np.stack([a, b], axis=1).reshape(g, -1)


def truncated_normal(key: tuple[int, int], counter: int, shape: tuple[int, ...], dt: np.dtype) -> np.ndarray:
    """TruncatedNormalDistribution under FillPhiloxRandom's variable-samples path: every group's
    first two blocks at once; a group short of accepted values redrawn with more blocks."""
    dt = np.dtype(dt)
    n = _count(shape)
    per = 2 if dt == np.float64 else 4
    stride = per * 256 // 4
    groups = -(-n // per)
    out = np.empty((groups, per), np.float64 if dt == np.float64 else np.float32)
    if groups:
        gen = philox.Philox(key, counter)
        starts = np.arange(groups, dtype=np.uint64) * np.uint64(stride)
        w = philox.blocks(gen, starts, 2).reshape(groups, 8).astype(np.uint32)
        cand = _candidates(w, dt)
        ok = np.abs(cand) < 2.0
        enough = ok.sum(axis=1) >= per
        for g in np.nonzero(enough)[0].tolist():
            out[g] = cand[g][ok[g]][:per]
        for g in np.nonzero(~enough)[0].tolist():
            blocks = 4
            while True:
                c = _candidates(philox.words_at(key, counter, blocks, skip=g * stride).reshape(1, -1), dt)[0]
                got = c[np.abs(c) < 2.0][:per]
                if len(got) == per:
                    out[g] = got
                    break
                blocks *= 2
    return out.reshape(-1)[:n].astype(dt).reshape(shape)
