"""Raw forms of TF's stateless random ops of a (key, counter) pair (clause ops.raw-ops).

`tf.random.stateless_*` runs StatelessRandomGetKeyCounter on the seed pair (GenerateKey: one
Philox block of the seed under a fixed key; philox.key_counter), then StatelessRandomUniformV2,
StatelessRandomNormalV2, StatelessTruncatedNormalV2, StatelessRandomUniformIntV2 or
StatelessRandomUniformFullIntV2 on the key (uint64 [1]: the two key words, low first) and the
counter (uint64, at least 2: its low and high 64 bits) with `alg` 1 (Philox) or 3 (auto: Philox on
CPU). simdist's stateless ops take the seed pair; these raw forms draw the same values from the
key and counter (philox.words_at from that counter, the draws of philox.py and philox_dists.py
the seed-pair ops use), checked as TF's kernels check them (stateless_random_ops_v2.cc: "key must
have shape [1], not [2]...", "Unsupported algorithm id: 2"). The values are computed from the
inputs' values (a traced call needs them known) and are constants to a tape (TF registers no
gradient for these ops).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors

__all__ = ["get_key_counter", "get_key_counter_alg", "normal", "truncated_normal", "uniform", "uniform_int",
           "uniform_full_int"]

_M32 = 0xFFFFFFFF


def _invalid(op: str, text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")


def _dims(t: Any) -> str:
    from simdist.runtime.ops.args import dims
    return dims(t.shape.as_list())


def _const(a: np.ndarray, dtype: dtypes.DType) -> Any:
    from simdist.runtime.ops.array import constant
    return constant(a, dtype=dtype)


def _seed_pair(seed: Any, op: str) -> np.ndarray:
    from simdist.runtime.ops import dispatch
    if seed.shape.as_list() != [2]:
        raise _invalid(op, f"seed must have shape [2], not {_dims(seed)}")
    return np.asarray(dispatch.static_value(seed))


def get_key_counter(seed: Any, op: str = "StatelessRandomGetKeyCounter") -> tuple[Any, Any]:
    """StatelessRandomGetKeyCounter: (key uint64 [1], counter uint64 [2]) of the seed pair (`op`: the op
    its error names)."""
    (k0, k1), (lo, hi) = _key_counter(seed, op)
    return (_const(np.array([k0 | (k1 << 32)], np.uint64), dtypes.uint64),
            _const(np.array([lo, hi], np.uint64), dtypes.uint64))


def get_key_counter_alg(seed: Any) -> tuple[Any, Any, Any]:
    """StatelessRandomGetKeyCounterAlg: the key, the counter and alg 1 (Philox, the CPU's)."""
    key, counter = get_key_counter(seed, "StatelessRandomGetKeyCounterAlg")
    return key, counter, _const(np.array(1, np.int32), dtypes.int32)


def _key_counter(seed: Any, op: str) -> tuple[tuple[int, int], tuple[int, int]]:
    from simdist.runtime.ops import philox
    return philox.key_counter(_seed_pair(seed, op))


def _generator(key: Any, counter: Any, alg: Any, op: str) -> tuple[tuple[int, int], int]:
    """(key words, 128-bit counter) of the inputs, checked as the V2 kernels check them."""
    from simdist.runtime.ops import dispatch
    if alg.ndim != 0:
        raise _invalid(op, f"alg must be a scalar, got shape {_dims(alg)}")
    a = int(dispatch.static_value(alg))
    if a not in (1, 3):   # (1 Philox, 3 auto-select: Philox on CPU; 2 ThreeFry has no CPU kernel)
        raise _invalid(op, f"Unsupported algorithm id: {a}")
    if key.shape.as_list() != [1]:
        raise _invalid(op, f"key must have shape [1], not {_dims(key)}. (Note that batched keys are not supported "
                           "yet.)")
    if counter.ndim != 1 or counter.shape.as_list()[0] < 1:
        raise _invalid(op, f"counter must be a vector with length at least 2; got shape: {_dims(counter)}. (Note "
                           "that batched counters are not supported yet.)")
    if counter.shape.as_list()[0] < 2:   # (TF 2.21's kernel takes it and reads a second word past its end)
        raise errors.UnimplementedError(None, None, f"simdist computes {op} with a counter of 2 or more words only, "
                                        f"not {_dims(counter)} [Op:{op}]")
    k = int(np.asarray(dispatch.static_value(key)).astype(np.uint64)[0])
    c = np.asarray(dispatch.static_value(counter)).astype(np.uint64)
    return (k & _M32, k >> 32), int(c[0]) | (int(c[1]) << 64)


def _shape(shape: Any, op: str) -> tuple[int, ...]:
    from simdist.runtime.ops import random
    from simdist.runtime.ops.args import shape_arg
    if shape.ndim != 1:   # (MakeShape: the shape input is a vector)
        raise _invalid(op, f"shape must be a vector of {{int32,int64}}, got shape {_dims(shape)}")
    return random._check_shape(shape_arg(shape), op)


def _count(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape, dtype=np.int64)) if shape else 1


def _words(gen: tuple[tuple[int, int], int]) -> Any:
    from simdist.runtime.ops import philox
    key, counter = gen
    return lambda blocks: philox.words_at(key, counter, blocks)


def uniform(shape: Any, key: Any, counter: Any, alg: Any, dtype: dtypes.DType) -> Any:
    """StatelessRandomUniformV2: [0, 1) draws (philox.uniform_float's, from this counter)."""
    from simdist.runtime.ops import philox
    op = "StatelessRandomUniformV2"
    gen = _generator(key, counter, alg, op)
    shp = _shape(shape, op)
    return _const(philox._uniform_words(_words(gen), _count(shp), np.dtype(dtype._np)).reshape(shp), dtype)


def uniform_int(shape: Any, key: Any, counter: Any, alg: Any, minval: Any, maxval: Any) -> Any:
    """StatelessRandomUniformIntV2: integers in [minval, maxval) (scalars; "Need minval < maxval"). The bounds are
    Fill's checks, after StatelessRandomOpBase returns an empty output: bounds of shape [0] for shape [0] are an
    empty result (fz31a, as fz30a's StatelessRandomGammaV2)."""
    from simdist.runtime.ops import dispatch, philox
    op = "StatelessRandomUniformIntV2"
    gen = _generator(key, counter, alg, op)
    shp = _shape(shape, op)
    dt = minval.dtype
    if not _count(shp):
        return _const(np.zeros(shp, np.dtype(dt._np)), dt)
    for name, v in (("minval", minval), ("maxval", maxval)):
        if v.ndim != 0:
            raise _invalid(op, f"{name} must be 0-D, got shape {_dims(v)}")
    lo, hi = int(dispatch.static_value(minval)), int(dispatch.static_value(maxval))
    if lo >= hi:
        raise _invalid(op, f"Need minval < maxval, got {lo} >= {hi}")
    return _const(philox._uniform_int_words(_words(gen), _count(shp), lo, hi, np.dtype(dt._np)).reshape(shp), dt)


def uniform_full_int(shape: Any, key: Any, counter: Any, alg: Any, dtype: dtypes.DType) -> Any:
    """StatelessRandomUniformFullIntV2: the dtype's whole range (one or two words per value)."""
    from simdist.runtime.ops import philox
    op = "StatelessRandomUniformFullIntV2"
    gen = _generator(key, counter, alg, op)
    shp = _shape(shape, op)
    return _const(philox._full_int_words(_words(gen), _count(shp), np.dtype(dtype._np)).reshape(shp), dtype)


def _dist(op: str, draw: str) -> Any:
    def run(shape: Any, key: Any, counter: Any, alg: Any, dtype: dtypes.DType) -> Any:
        from simdist.runtime.ops import philox, philox_dists, random
        k, c = _generator(key, counter, alg, op)
        shp = _shape(shape, op)
        values = getattr(philox_dists, draw)(philox.Philox(k, c), shp, dtype._np)
        return _const(random._scaled(values, 1.0, 0.0, dtype), dtype)
    return run


normal = _dist("StatelessRandomNormalV2", "normal")
truncated_normal = _dist("StatelessTruncatedNormalV2", "truncated_normal")
