"""`tf.random.uniform_candidate_sampler`, `tf.random.log_uniform_candidate_sampler` and
`tf.nn.all_candidate_sampler`: TF's candidate sampler kernels (candidate_sampler_ops.cc,
range_sampler.cc) on TF's Philox streams, so the sampled classes are TF 2.21's (clause
`ops.candidate-samplers`).

Each call reserves 2048 * num_sampled 32-bit words (512 * num_sampled Philox outputs) of the
kernel's generator (one per (op, attrs, seeds), continuing across eager calls until
`tf.random.set_seed`, as random_gamma.py's kernels; each sampler op of a traced function its own,
random_graphs) and reads them one word at a time
(SimplePhilox over SingleSampleAdapter). UniformSampler: Rand64() % range (Rand64 = lo | hi << 32);
LogUniformSampler: int64(exp(RandDouble() * log1p(range))) - 1, mod range. unique=True draws until
num_sampled distinct values (num_tries counted). Expected counts in float: p * num_sampled when no
draw was rejected, else -expm1f(num_tries * log1pf(-p)); p = float(1 / range) (uniform),
log((v + 2) / (v + 1)) / log1p(range) (log-uniform), 1 (all). Not differentiable.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors, execution
from simdist.runtime.ops import attr_rules, dispatch, random_graphs, static_shapes, trace_errors
from simdist.runtime.ops.args import t as _t, tf_name
from simdist.runtime.ops.op_outputs import named_outputs
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.simple_philox import SimplePhilox
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["uniform_candidate_sampler", "log_uniform_candidate_sampler", "all_candidate_sampler",
           "fixed_unigram_candidate_sampler", "learned_unigram_candidate_sampler"]

_cur = execution._current
_libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
for _f in ("log1pf", "expm1f"):
    getattr(_libm, _f).restype = ctypes.c_float
    getattr(_libm, _f).argtypes = [ctypes.c_float]
_libm.powf.restype = ctypes.c_float
_libm.powf.argtypes = [ctypes.c_float, ctypes.c_float]


_Words = SimplePhilox     # (TF's SimplePhilox: simple_philox.py)


class _AliasTable:
    """random::DistributionSampler (Walker's alias method, built as TF builds it)."""

    def __init__(self, weights: list[np.float32]) -> None:
        n = len(weights)
        total = 0.0
        for w in weights:
            total += float(w)
        pr = [float(np.float32(w * np.float32(n))) / total for w in weights]
        alt = [-1] * n
        high = [i for i in range(n) if pr[i] >= 1.0]
        low = [i for i in range(n) if pr[i] < 1.0]
        while high and low:
            lo_i, hi_i = low.pop(), high.pop()
            alt[lo_i] = hi_i
            pr[hi_i] = pr[hi_i] - (1.0 - pr[lo_i])
            (low if pr[hi_i] < 1.0 else high).append(hi_i)
        prob = [np.float32(p) for p in pr]
        for i in high + low:
            prob[i], alt[i] = np.float32(1.0), i
        self.prob, self.alt, self.n = prob, alt, n

    def sample(self, words: "_Words") -> int:
        r = words.rand_float()
        idx = words.uniform(self.n, 32)
        return idx if r < self.prob[idx] else self.alt[idx]


def _expected(p: float, batch: int, tries: int) -> float:
    """ExpectedCountHelper in float."""
    pf = np.float32(p)
    if tries == batch:
        return float(pf * np.float32(batch))
    return float(-np.float32(_libm.expm1f(float(np.float32(tries) * np.float32(_libm.log1pf(float(-pf)))))))


def _unigram_weights(unigrams: tuple, distortion: float, num_reserved_ids: int, num_shards: int,
                     shard: int) -> tuple[list[np.float32], np.float32]:
    """FixedUnigramSampler's weights (reserved ids of this shard weigh 0; then the unigrams of this
    shard, each powf(w, distortion)) and their float total."""
    weights = [np.float32(0.0) for word_id in range(num_reserved_ids) if word_id % num_shards == shard]
    total = np.float32(0.0)
    word_id = len(weights)   # TF counts the unigrams' ids from the kept reserved ids, as its loop does
    for w in unigrams:
        if word_id % num_shards == shard:
            wf = np.float32(_libm.powf(float(np.float32(w)), float(np.float32(distortion))))
            total = np.float32(total + wf)
            weights.append(wf)
        word_id += 1
    return weights, total


def _sample(kind: str, true_classes: np.ndarray, num_true: int, num_sampled: int, unique: bool, range_max: int,
            seed: int, seed2: int, unigrams: tuple = (), distortion: float = 1.0, num_reserved_ids: int = 0,
            num_shards: int = 1, shard: int = 0, kernel: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    op = _OPNAME[kind]
    table = None
    if kind == "fixed":
        weights, total = _unigram_weights(unigrams, distortion, num_reserved_ids, num_shards, shard)
        if range_max != len(weights):
            raise errors.InvalidArgumentError(None, None, f"range is {range_max} must be equal to weights size  "
                                              f"{len(weights)} [Op:{op}]")
        table = _AliasTable(weights)
    if true_classes.ndim != 2:
        raise errors.InvalidArgumentError(None, None, f"true_classes must be a matrix [Op:{op}]")
    if true_classes.shape[1] != num_true:
        raise errors.InvalidArgumentError(None, None, f"true_classes must have num_true columns, expected: "
                                          f"{true_classes.shape[1]} was: {num_true} [Op:{op}]")
    rng = num_sampled if kind == "all" else range_max
    if unique and num_sampled > rng:
        raise errors.InvalidArgumentError(None, None, f"Sampler's range is too small. [Op:{op}]")
    for c in true_classes.reshape(-1).tolist():
        if not 0 <= c < rng:
            raise errors.InvalidArgumentError(None, None, f"`true_candidate` out of range [0, {rng}), received {c} "
                                              f"[Op:{op}]")
    from simdist.runtime.ops import random as _random
    key = (op, num_true, num_sampled, unique, range_max, seed, seed2, unigrams, distortion, num_reserved_ids,
           num_shards, shard)
    # the kernel's generator: cached per attrs eagerly, each op of a traced function its own (`kernel`)
    local = _random._kernel(key, seed, seed2, (2048 * num_sampled + 3) // 4, kernel)
    learned = None
    if kind == "learned":   # the kernel's UnigramSampler: every class weighs 1 until the true classes it sees
        own = ((random_graphs.aliased_kernel(kernel),) if kernel is not None else ()) + key
        learned = _cur.ctx.rng.setdefault("philox", {}).setdefault(own + ("weights",), np.ones(range_max, np.int64))
        cum = np.cumsum(learned)
        total_w = int(cum[-1])
    if kind == "all":
        sampled = np.arange(num_sampled, dtype=np.int64)
        return (sampled, np.ones(true_classes.shape, np.float32), np.ones(num_sampled, np.float32))
    words = _Words(local)
    log_range = math.log1p(range_max)
    inv_range = float(np.float32(1.0 / range_max))

    def draw() -> int:
        if kind == "uniform":
            return words.uniform(range_max, 64)
        if table is not None:
            return table.sample(words)
        if learned is not None:   # WeightedPicker::Pick: the leaf whose prefix sums cover Uniform(total)
            return int(np.searchsorted(cum, words.uniform(total_w, 32), side="right"))
        return (int(math.exp(words.rand_double() * log_range)) - 1) % range_max

    def prob(v: int) -> float:
        if table is not None:
            return float(np.float32(weights[v] / total)) if 0 <= v < len(weights) else 0.0
        if learned is not None:
            return float(np.float32(np.float32(learned[v]) / np.float32(total_w)))
        return inv_range if kind == "uniform" else math.log((v + 2.0) / (v + 1.0)) / log_range

    out: list[int] = []
    if unique:
        used: set[int] = set()   # membership only: the order of `out` is the draws'
        tries = 0
        while len(out) < num_sampled:
            tries += 1
            v = draw()
            if v not in used:
                used.add(v)
                out.append(v)
    else:
        out = [draw() for _ in range(num_sampled)]
        tries = num_sampled
    sampled_exp = np.array([_expected(prob(v), num_sampled, tries) for v in out], np.float32)
    true_exp = np.array([_expected(prob(int(v)), num_sampled, tries) for v in true_classes.reshape(-1).tolist()],
                        np.float32).reshape(true_classes.shape)
    if learned is not None:   # Update: each true class (in order, up to int32 max in total) weighs one more
        room = 2**31 - 1 - total_w
        for v in true_classes.reshape(-1).tolist()[:max(room, 0)]:
            learned[v] += 1
    return np.asarray(out, np.int64), true_exp, sampled_exp


_OPNAME = {"uniform": "UniformCandidateSampler", "log_uniform": "LogUniformCandidateSampler",
           "all": "AllCandidateSampler", "fixed": "FixedUnigramCandidateSampler",
           "learned": "LearnedUnigramCandidateSampler"}


def _rule(name: str) -> Any:
    def rule(dts: Any, attrs: Any) -> tuple:
        if dts[0] != dtypes.int64:
            raise errors.InvalidArgumentError(None, None, f"cannot compute {name} as input #0(zero-based) was expected "
                                              f"to be a int64 tensor but is a {tf_name(dts[0])} tensor [Op:{name}]")
        return dtypes.int64, dtypes.float32, dtypes.float32
    return rule


_OPS = {kind: register(name, (lambda kind: lambda tc, **a: _sample(kind, tc, **a))(kind), _rule(name),
                       lambda a, out, at: float(2048 * at["num_sampled"] // 4), num_outputs=3, stateful=True,
                       kind="random", fusion=lanes("one Philox stream per kernel: lanes draw in program order"))
        for kind, name in _OPNAME.items()}
for _n in _OPNAME.values():
    NotDifferentiable(_n)
for _op in _OPS.values():
    # (the shapes TF's shape function gives: a dry run of a tf.function goes on past the kernel's run-time refusal,
    # so a later op's graph-build error is the trace's; in_top_k's TypeError after a sampler refusing num_true,
    # fz43, fz14 seed 1420433002 #193)
    _op.standin = lambda arrays, attrs: ((attrs["num_sampled"],), np.shape(arrays[0]), (attrs["num_sampled"],))


def _range_max_bound(range_max: Any) -> None:
    """learned_unigram_candidate_sampler's own `if range_max > 2147483647: raise ValueError` before
    the op: the truth of a tensor comparison, OperatorNotAllowedInGraphError inside a tf.function
    (fz14 seed 1420262201 #160, #216)."""
    if isinstance(range_max, Tensor) or hasattr(range_max, "_as_tensor"):
        from simdist.runtime import symbolic
        from simdist.runtime.ops import math
        if context.in_function():
            symbolic.check_truth_taken(range_max)
        big = bool(np.asarray(math.greater(range_max, 2147483647)._v).all())
    else:
        big = range_max > 2147483647
    if big:
        raise ValueError(f"Value of range_max:{range_max} is too large to handle")


def _call(kind: str, true_classes: Any, num_true: Any, num_sampled: Any, unique: Any, range_max: Any,
          seed: Any, seeds: tuple[int, int] | None = None, **extra: Any) -> tuple[Tensor, Tensor, Tensor]:
    """The generated wrapper, then the op (clause ops.candidate-samplers): the attributes' kinds
    (make_int/make_bool, TypeError), true_classes converted with dtype int64 (a Python float is
    TypeError; a tensor of another dtype is the eager fallback's ValueError when the call leaves
    the fast path, attr_rules.fast_path_takes), the op def's minimums (num_true, num_sampled,
    range_max >= 1: eagerly InvalidArgumentError, op_def_library's ValueError in a tf.function),
    the input's dtype (the kernel's "cannot compute", op_def_library's TypeError), the shape
    function (true_classes of rank 2: ValueError in a tf.function), then the kernel's checks.
    `seeds`: the op's (seed, seed2) attrs as a raw call gives them (raw_forms_random.py), else the
    wrapper's random_seed.get_seed of `seed`."""
    from simdist.runtime.ops.random_gamma import tf_seeds
    op = _OPNAME[kind]
    s1, s2 = tf_seeds(seed) if seeds is None else seeds   # (get_seed: before the op's conversions)
    if kind == "learned":
        _range_max_bound(range_max)
    if kind != "fixed":   # (fixed checks its own attributes first)
        _check_attrs(kind, num_true, num_sampled, unique, range_max)
    ranged = {"range_max": range_max} if kind != "all" else {}
    if not isinstance(true_classes, Tensor) and hasattr(true_classes, "_as_tensor"):
        # (a Variable is read as a tensor of its own dtype, as the eager fast path and op_def_library
        # take it: a bool one meets range_max's minimum, then the dtype check; fz28b, fz14 seed
        # 1420282802 #276)
        true_classes = _t(true_classes)
    # (the wrapper converts true_classes with dtype int64: a Python float is TypeError, ops.attr-types)
    tc = true_classes if isinstance(true_classes, Tensor) else convert_to_tensor(true_classes, dtype=dtypes.int64)
    if isinstance(true_classes, Tensor) and not attr_rules.fast_path_takes(
            op, (), num_true=num_true, num_sampled=num_sampled, unique=unique, **ranged, **extra):
        if not context.in_function():
            attr_rules.fallback_conversion(tc, dtypes.int64)
    if context.in_function() and tc.dtype != dtypes.int64:   # (op_def_library converts inputs before attrs)
        _OPS[kind].dtype((tc.dtype,), None)
    for attr, v in (("num_true", num_true), ("num_sampled", num_sampled), *ranged.items()):
        if int(v) < 1:
            raise trace_errors.attr_minimum(op, attr, int(v), 1)
    _OPS[kind].dtype((tc.dtype,), None)
    if context.in_function() and not static_shapes.rank_unknown(tc) and tc.ndim != 2:
        raise trace_errors.shape_error(f"true_classes must be a matrix [Op:{op}]",
                                       f"Shape must be rank 2 but is rank {tc.ndim}", op,
                                       [static_shapes.known_shape(tc)])
    rmax = int(range_max)
    if kind == "learned" and rmax >= 2**31 - 1:   # TF's kernel builds a WeightedPicker of that size (not run in tests)
        raise errors.InvalidArgumentError(None, None, f"range_max must be less than {2**31 - 1} for unigram samplers, "
                                          f"got {rmax} [Op:{op}]")
    if kind == "fixed" and not extra["unigrams"]:   # (the kernel's constructor, after the attrs' checks)
        raise errors.InvalidArgumentError(None, None, f"Must provide either vocab_file or unigrams. [Op:{op}]")
    if kind == "fixed":
        extra = {"unigrams": tuple(float(np.float32(w)) for w in extra["unigrams"]),
                 "distortion": float(np.float32(extra["distortion"])),
                 "num_reserved_ids": int(extra["num_reserved_ids"]), "num_shards": int(extra["num_shards"]),
                 "shard": int(extra["shard"])}
    out = dispatch.execute(_OPS[kind], (tc,), {"num_true": int(num_true), "num_sampled": int(num_sampled),
                                               "unique": bool(unique), "range_max": rmax, "seed": s1, "seed2": s2,
                                               "kernel": random_graphs.instance(), **extra})
    return named_outputs(op, out[:3])


def _check_attrs(kind: str, num_true: Any, num_sampled: Any, unique: Any, range_max: Any, **extra: Any) -> None:
    """The generated wrapper's make_int/make_bool of the sampler's attributes, before true_classes
    is converted (clause ops.attr-types); AllCandidateSampler has no range_max."""
    ranged = {"range_max": range_max} if kind != "all" else {}
    attr_rules.check(_OPNAME[kind], num_true=num_true, num_sampled=num_sampled, unique=unique, **ranged, **extra)


def uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
                              seed: Any = None, name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """`tf.random.uniform_candidate_sampler`: (sampled_candidates, true_expected_count,
    sampled_expected_count) drawn uniformly from [0, range_max)."""
    return _call("uniform", true_classes, num_true, num_sampled, unique, range_max, seed)


def log_uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
                                  seed: Any = None, name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """`tf.random.log_uniform_candidate_sampler` (Zipfian): class k drawn with probability
    log((k + 2) / (k + 1)) / log(range_max + 1)."""
    return _call("log_uniform", true_classes, num_true, num_sampled, unique, range_max, seed)


def fixed_unigram_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
                                    vocab_file: str = "", distortion: float = 1.0, num_reserved_ids: int = 0,
                                    num_shards: int = 1, shard: int = 0, unigrams: Any = (), seed: Any = None,
                                    name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """`tf.random.fixed_unigram_candidate_sampler` with `unigrams` (class k drawn with probability
    proportional to unigrams[k] ** distortion; reserved ids never), by TF's alias table."""
    _check_attrs("fixed", num_true, num_sampled, unique, range_max, vocab_file=vocab_file, distortion=distortion,
                 num_reserved_ids=num_reserved_ids, num_shards=num_shards, shard=shard, unigrams=unigrams)
    if vocab_file:
        raise NotImplementedError("fixed_unigram_candidate_sampler(vocab_file=...): simdist takes the weights as "
                                  "`unigrams` (reading a vocabulary file is not modelled)")
    return _call("fixed", true_classes, num_true, num_sampled, unique, range_max, seed, vocab_file=vocab_file,
                 distortion=distortion, num_reserved_ids=num_reserved_ids, num_shards=num_shards, shard=shard,
                 unigrams=unigrams)


def learned_unigram_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                                      range_max: int, seed: Any = None,
                                      name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """`tf.random.learned_unigram_candidate_sampler`: classes drawn with probability proportional to
    1 + how often the kernel has seen them as true classes (its counts persist across calls)."""
    return _call("learned", true_classes, num_true, num_sampled, unique, range_max, seed)


def all_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                          seed: Any = None, name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """`tf.nn.all_candidate_sampler`: every class 0..num_sampled-1, expected counts 1."""
    return _call("all", true_classes, num_true, num_sampled, unique, num_sampled, seed)
