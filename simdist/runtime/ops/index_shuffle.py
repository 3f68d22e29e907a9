"""`tf.random.experimental.index_shuffle` (TF's RandomIndexShuffle op): the position of an index
in a pseudorandom permutation of [0, max_index], bit for bit (clause ops.random-generator).

random_index_shuffle.cc: a Simon block cipher of block size B = max(ceil(log2(max_index)) rounded
up to even, 16) bits (64 above 62), words of W = B/2 bits, a fixed 3-word key (the seed's three
elements cast to uint32) expanded by Simon's key schedule (c = 0xfffffffc, z = 0x7369f885192c0ef5,
both cut to W bits) to `rounds` round keys (4 from the Python wrapper), encryption repeated
(cycle walking) until the value is at most max_index; max_index 0 gives 0. The Python wrapper
pads the [2] (or [n, 2]) seed in front with 498247692. Scalars broadcast against vectors.
FLOPs: ~10 per round and walk step, per output (counted as 10·rounds).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, infer_ctx
from simdist.runtime.ops.args import t as _t, tf_name
from simdist.runtime.ops.registry import NotDifferentiable, register
from simdist.runtime.tensor import Tensor

__all__ = ["index_shuffle", "random_index_shuffle"]

_INTS = ("int32", "int64", "uint32", "uint64")


def _rotl(x: int, r: int, w: int, m: int) -> int:
    return ((x << r) | (x >> (w - r))) & m


def _rotr(x: int, r: int, w: int, m: int) -> int:
    return ((x >> r) | (x << (w - r))) & m


def _round_keys(key: tuple[int, int, int], rounds: int, w: int) -> list[int]:
    """Simon's key schedule with words of w bits (the constants cut to w bits)."""
    m = (1 << w) - 1
    c = 0xFFFFFFFC & m
    z = 0x7369F885192C0EF5 & m
    rk = [key[0] & m, key[1] & m, key[2] & m]
    for i in range(3, rounds):
        rk.append(c ^ (z & 1) ^ rk[i - 3] ^ _rotr(rk[i - 1], 3, w, m) ^ _rotr(rk[i - 1], 4, w, m))
        z >>= 1
    return rk


def _encrypt(value: Any, rk: list[int], w: int) -> Any:
    """simon_encrypt of a Python int or a uint64 array (blocks of 2w bits)."""
    m = (1 << w) - 1
    if isinstance(value, np.ndarray):
        m, w_ = np.uint64(m), np.uint64(w)
        left, right = (value >> w_) & m, value & m

        def rotl(x: np.ndarray, r: int) -> np.ndarray:
            return ((x << np.uint64(r)) | (x >> np.uint64(w - r))) & m
        for i in range(0, len(rk), 2):
            left = left ^ ((rotl(right, 1) & rotl(right, 8)) ^ rotl(right, 2)) ^ np.uint64(rk[i])
            right = right ^ ((rotl(left, 1) & rotl(left, 8)) ^ rotl(left, 2)) ^ np.uint64(rk[i + 1])
        return (left << w_) | right
    left, right = (value >> w) & m, value & m
    for i in range(0, len(rk), 2):
        left ^= (_rotl(right, 1, w, m) & _rotl(right, 8, w, m)) ^ _rotl(right, 2, w, m)
        left ^= rk[i]
        right ^= (_rotl(left, 1, w, m) & _rotl(left, 8, w, m)) ^ _rotl(left, 2, w, m)
        right ^= rk[i + 1]
    return ((left << w) | right) & ((1 << 64) - 1)


@lru_cache(maxsize=8)
def _table16(key: tuple[int, int, int], rounds: int) -> list[int]:
    """The whole 16-bit permutation (small max_index cycles through up to 2^16 values: one table
    lookup per step instead of a cipher call); keyed by value, so results never depend on it."""
    return _encrypt(np.arange(1 << 16, dtype=np.uint64), _round_keys(key, rounds, 8), 8).tolist()


def _shuffle_one(index: int, key: tuple[int, int, int], max_index: int, rounds: int) -> int:
    if max_index == 0:
        return 0
    b = int(math.ceil(math.log2(float(max_index))))
    b = max(b + b % 2, 16)
    if b > 62:
        b = 64
    if b == 16 and index < (1 << 16):
        table = _table16(key, rounds)
        value = table[index]
        while value > max_index:
            value = table[value]
        return value
    w = b // 2
    rk = _round_keys(key, rounds, w)
    value = index
    while True:
        value = _encrypt(value, rk, w)
        if value <= max_index:
            return value


def _forward(index: np.ndarray, seed: np.ndarray, max_index: np.ndarray, rounds: int) -> np.ndarray:
    n = max(index.size, max_index.size, seed.size // 3)
    if index.ndim not in (0, 1) or (index.ndim == 1 and index.shape[0] != n):
        raise errors.InvalidArgumentError(None, None, "Index bust be a scalar or vector. [Op:RandomIndexShuffle]")
    if not ((seed.ndim == 1 and seed.shape[0] == 3) or (seed.ndim == 2 and seed.shape == (n, 3))):
        raise errors.InvalidArgumentError(None, None, f"Seed must be a vector of size [3] or a matrix of size [{n}, 3] "
                                          f"but got [{','.join(str(d) for d in seed.shape)}]. [Op:RandomIndexShuffle]")
    if max_index.ndim not in (0, 1) or (max_index.ndim == 1 and max_index.shape[0] != n):
        raise errors.InvalidArgumentError(None, None, "Maxval must be a scalar or a vector of the same size as index but "
                                          f"got [{','.join(str(d) for d in max_index.shape)}] [Op:RandomIndexShuffle]")
    idx, mx = index.reshape(-1), max_index.reshape(-1)
    for i in range(n):   # (the kernel's checks per output, before its cipher: a max_index below the index
        # would cycle for ever; fuzz20 seed 2220261202 #126)
        a, b = int(idx[0 if index.ndim == 0 else i]), int(mx[0 if max_index.ndim == 0 else i])
        if a < 0:
            raise errors.InvalidArgumentError(None, None, f"index must be >= 0 but was {a} [Op:RandomIndexShuffle]")
        if b < 0:
            raise errors.InvalidArgumentError(None, None, f"max_index must be >= 0 but was {b} [Op:RandomIndexShuffle]")
        if b < a:
            raise errors.InvalidArgumentError(None, None, f"max_index must be >= index, but {b} < {a} "
                                              "[Op:RandomIndexShuffle]")
    if rounds < 4 or rounds % 2:   # (after the shapes: a [2] seed with rounds=0 is the seed's error, and
        # traced the shape function's ValueError; fz14 seed 1420261219 #197)
        raise errors.InvalidArgumentError(None, None, f"rounds must be an even integer >= 4, got {rounds} "
                                          "[Op:RandomIndexShuffle]")
    seeds = seed.reshape(-1, 3)
    u64 = (1 << 64) - 1
    out = []
    for i in range(n):
        s = seeds[0 if seed.ndim == 1 else i]
        key = tuple(int(v) & 0xFFFFFFFF for v in s.tolist())
        a = int(idx[0 if index.ndim == 0 else i]) & u64
        b = int(mx[0 if max_index.ndim == 0 else i]) & u64
        out.append(_shuffle_one(a, key, b, rounds))
    arr = np.array(out, dtype=np.uint64).astype(index.dtype) if out else np.zeros(0, index.dtype)
    all_scalar = index.ndim == 0 and seed.ndim == 1 and max_index.ndim == 0
    return arr.reshape(()) if all_scalar else arr


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    for d, attr in ((dts[0], "dtype"), (dts[1], "Tseed")):
        if d.name not in _INTS:
            raise errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of {tf_name(d)} is not in the list of "
                                              "allowed values: int32, int64, uint32, uint64 [Op:RandomIndexShuffle]")
    if dts[2] != dts[0]:
        raise errors.InvalidArgumentError(None, None, "cannot compute RandomIndexShuffle as input #2(zero-based) was "
                                          f"expected to be a {dts[0].name} tensor but is a {dts[2].name} tensor "
                                          "[Op:RandomIndexShuffle]")
    return dts[0]


RANDOM_INDEX_SHUFFLE = register("RandomIndexShuffle", _forward, _rule,
                                lambda arrays, out, a: 10.0 * a["rounds"] * max(np.asarray(out).size, 1),
                                kind="random")
NotDifferentiable("RandomIndexShuffle")
# (StatelessRandomPermuteShape, which a graph build runs: shape_fns_misc; the raw call and the public
# functions alike, fuzz20 seed 2220261202 #126)
RANDOM_INDEX_SHUFFLE.trace_shape = infer_ctx.trace_shape("RandomIndexShuffle")


def _execute(i: Tensor, s: Tensor, mx: Tensor, rounds: int) -> Tensor:
    """RandomIndexShuffle: its dtypes, then (traced) its shape function (trace_shape), then the kernel."""
    return dispatch.execute(RANDOM_INDEX_SHUFFLE, (i, s, mx), {"rounds": rounds})


def index_shuffle(index: Any, seed: Any, max_index: Any) -> Tensor:
    """`tf.random.experimental.index_shuffle`: the seed padded in front with 498247692, 4 rounds."""
    from simdist.runtime.ops import convert_to_tensor, pad
    s = seed if isinstance(seed, Tensor) else convert_to_tensor(seed)
    s = pad(s, [[1, 0]] + [[0, 0]] * (s.shape.ndims - 1), constant_values=498247692)
    i = _t(index)
    mx = max_index if isinstance(max_index, Tensor) else convert_to_tensor(max_index, dtype=i.dtype)
    return _execute(i, s, mx, 4)


def random_index_shuffle(index: Any, seed: Any, max_index: Any, rounds: int = 4, name: str | None = None) -> Tensor:
    """`tf.random_index_shuffle`: the raw op (seed of shape [3] or [n, 3]; rounds even, at least 4)."""
    from simdist.runtime.ops import convert_to_tensor
    from simdist.runtime.ops.attr_rules import make_int
    i = _t(index)
    s = seed if isinstance(seed, Tensor) else convert_to_tensor(seed)
    mx = max_index if isinstance(max_index, Tensor) else convert_to_tensor(max_index, dtype=i.dtype)
    # (the attr after the inputs, before the shape function, as op_def_library converts them: a tensor `rounds` is
    # TypeError "Expected int for argument 'rounds'" in a tf.function, read as its value eagerly; fz53, fz14 seed
    # 1420503010 #112. Its minimum is the kernel's check after the inputs': `_forward`)
    r = make_int(rounds, "rounds")
    return _execute(i, s, mx, r)
