"""Raw forms of the random ops whose forward takes the raw arguments otherwise (clause ops.raw-ops).

simdist's ops take the sampled parameter (alpha, rate) as their tensor and the output shape, the
seeds and the dtype as attrs; TF's raw ops take `shape` as an input and the seeds as attrs
(RandomGamma, RandomPoissonV2) or as an input seed pair (StatelessRandomPoisson) or a (key,
counter, alg) triple (StatelessRandomGammaV3, tensorflow/core/ops/stateless_random_ops_v2.cc).
Each raw form checks the arguments as the public function checks them (random_gamma.py: the
shape a vector of no negative dimension, the output dtype) and runs the same op, so the values are
the public function's stream for the same seeds. The same for RandomShuffle (its seeds and
kernel), StatelessShuffle (a key and counter, not a seed pair), StatelessRandomBinomial and
StatelessParameterizedTruncatedNormal (shape an attr of simdist's op) and the candidate samplers
(candidate_samplers._call with the raw op's seed and seed2; AllCandidateSampler's range is
num_sampled) (session 28).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import registry
from simdist.runtime.ops.raw_args import RawArgs

__all__ = ["declare", "random_gamma", "random_poisson_v2", "stateless_random_poisson", "stateless_random_gamma_v3",
           "random_shuffle", "stateless_shuffle", "stateless_random_binomial",
           "stateless_parameterized_truncated_normal", "all_candidate_sampler", "fixed_unigram_candidate_sampler"]


def random_gamma(shape: Any, alpha: Any, seed: int, seed2: int) -> Any:
    """RandomGamma: shape + alpha.shape Gamma(alpha, 1) draws of alpha's dtype (no scaling: the
    rate and the maximum with the smallest normal are tf.random.gamma's Python)."""
    from simdist.runtime.ops import dispatch, random_gamma as rg, random_graphs
    shp = rg._shape(shape, "RandomGamma")
    rg._gamma_v3_dtype(alpha.dtype, "RandomGamma", "T")
    return dispatch.execute(rg.GAMMA, (alpha,), {"shape": shp, "seed": seed, "seed2": seed2, "dtype": alpha.dtype,
                                                 "kernel": random_graphs.instance()})


def random_poisson_v2(shape: Any, rate: Any, seed: int, seed2: int, dtype: dtypes.DType) -> Any:
    """RandomPoissonV2: shape + rate.shape Poisson(rate) counts of `dtype`."""
    from simdist.runtime.ops import dispatch, random_gamma as rg, random_graphs
    shp = rg._shape(shape, "RandomPoissonV2")
    dt = rg._out_dtype(dtype, "RandomPoissonV2")
    return dispatch.execute(rg.POISSON, (rate,), {"shape": shp, "seed": seed, "seed2": seed2, "dtype": dt,
                                                  "kernel": random_graphs.instance()})


def stateless_random_poisson(shape: Any, seed: Any, lam: Any, dtype: dtypes.DType) -> Any:
    """StatelessRandomPoisson: `shape` counts (ending with lam's shape) of the seed pair."""
    from simdist.runtime.ops import dispatch, random as _random, random_gamma as rg
    shp = rg._shape(shape, "StatelessRandomPoisson")
    dt = rg._out_dtype(dtype, "StatelessRandomPoisson")
    s = _random._seed(seed, "StatelessRandomPoisson")
    return dispatch.execute(rg.STATELESS_POISSON, (lam, s), {"shape": shp, "dtype": dt})


def stateless_random_gamma_v3(shape: Any, key: Any, counter: Any, alg: Any, alpha: Any) -> Any:
    """StatelessRandomGammaV3: `shape` Gamma(alpha, 1) draws (shape ending with alpha's shape)
    from the Philox generator at (key, counter), checked as raw_stateless checks the V2 ops'
    (key, counter, alg). The draws are the seed-pair op's (random_gamma.py) from that generator;
    they are a constant to a tape (TF's gradient for alpha is not modelled here)."""
    from simdist.runtime.ops import dispatch, gamma_poisson, philox, random_gamma as rg, raw_stateless
    op = "StatelessRandomGammaV3"
    rg._gamma_v3_dtype(alpha.dtype, op, "dtype")
    key_words, ctr = raw_stateless._generator(key, counter, alg, op)
    shp = rg._shape(shape, op)
    a = np.asarray(dispatch.static_value(alpha))
    if rg._empty(shp):   # (empty before the parameters' shape check, as the seed-pair op)
        return raw_stateless._const(np.zeros(shp, alpha.dtype._np), alpha.dtype)
    n = rg._split(shp, a, op)
    if n == 0 or a.size == 0:
        return raw_stateless._const(np.zeros(shp, alpha.dtype._np), alpha.dtype)
    out = gamma_poisson.gamma_samples(philox.Philox(key_words, ctr), a, n)
    return raw_stateless._const(rg._cast(out, alpha.dtype).reshape(shp), alpha.dtype)


def random_shuffle(value: Any, seed: int, seed2: int) -> Any:
    """RandomShuffle: the rows in the order of the kernel cached for (seed, seed2, dtype)."""
    from simdist.runtime.ops import dispatch, random, random_graphs
    return dispatch.execute(random.SHUFFLE, (value,), {"seed": seed, "seed2": seed2,
                                                       "kernel": random_graphs.instance()})


def stateless_shuffle(value: Any, key: Any, counter: Any, alg: Any) -> Any:
    """StatelessShuffle: the rows in the Fisher-Yates order of the Philox words at (key, counter)
    (stateless_seeds.fisher_yates, the seed-pair op's pass); a constant to a tape (TF registers no
    gradient)."""
    from simdist.runtime.ops import dispatch, philox, raw_stateless, stateless_seeds
    key_words, ctr = raw_stateless._generator(key, counter, alg, "StatelessShuffle")
    v = np.asarray(dispatch.static_value(value))
    out = stateless_seeds.fisher_yates(v, lambda blocks: philox.words_at(key_words, ctr, blocks))
    return raw_stateless._const(out, value.dtype)


def stateless_random_binomial(shape: Any, seed: Any, counts: Any, probs: Any, dtype: dtypes.DType) -> Any:
    """StatelessRandomBinomial: `shape` Binomial(counts, probs) draws of `dtype` from the seed pair."""
    from simdist.runtime.ops import binomial, dispatch
    from simdist.runtime.ops.args import shape_arg
    from simdist.runtime.ops.random import _seed
    shp = shape_arg(shape)
    s = _seed(seed, "StatelessRandomBinomial")
    return dispatch.execute(binomial.STATELESS_BINOMIAL, (s, counts, probs), {"shape": shp, "dtype": dtype})


def stateless_parameterized_truncated_normal(shape: Any, seed: Any, means: Any, stddevs: Any, minvals: Any,
                                             maxvals: Any) -> Any:
    """StatelessParameterizedTruncatedNormal: tf.random.stateless_parameterized_truncated_normal,
    which runs the op on its arguments as they are."""
    from simdist.runtime.ops import param_truncated_normal as ptn
    return ptn.stateless_parameterized_truncated_normal(shape, seed, means, stddevs, minvals, maxvals)


def all_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool, seed: int,
                          seed2: int) -> Any:
    """AllCandidateSampler: every class below num_sampled (its range), with the raw op's seeds."""
    from simdist.runtime.ops import candidate_samplers as cs
    return tuple(cs._call("all", true_classes, num_true, num_sampled, unique, num_sampled, None, seeds=(seed, seed2)))


def fixed_unigram_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
                                    vocab_file: str, distortion: float, num_reserved_ids: int, num_shards: int,
                                    shard: int, unigrams: Any, seed: int, seed2: int) -> Any:
    """FixedUnigramCandidateSampler with `unigrams` (a vocab_file is not modelled: UnimplementedError)."""
    from simdist.runtime import errors
    from simdist.runtime.ops import candidate_samplers as cs
    if vocab_file:
        raise errors.UnimplementedError(None, None, "simdist computes FixedUnigramCandidateSampler with unigrams "
                                        "only, not a vocab_file [Op:FixedUnigramCandidateSampler]")
    return tuple(cs._call("fixed", true_classes, num_true, num_sampled, unique, range_max, None, seeds=(seed, seed2),
                          vocab_file=vocab_file, distortion=distortion, num_reserved_ids=num_reserved_ids,
                          num_shards=num_shards, shard=shard, unigrams=tuple(unigrams)))


def declare() -> None:
    """Set the raw forms above on their ops (idempotent)."""
    registry.set_raw_args("RandomGamma", RawArgs(via=random_gamma))
    registry.set_raw_args("RandomPoissonV2", RawArgs(via=random_poisson_v2))
    registry.set_raw_args("StatelessRandomPoisson", RawArgs(via=stateless_random_poisson))
    registry.set_raw_args("StatelessRandomGammaV3", RawArgs(via=stateless_random_gamma_v3))
    for op, fn in (("RandomShuffle", random_shuffle), ("StatelessShuffle", stateless_shuffle),
                   ("StatelessRandomBinomial", stateless_random_binomial),
                   ("StatelessParameterizedTruncatedNormal", stateless_parameterized_truncated_normal),
                   ("AllCandidateSampler", all_candidate_sampler),
                   ("FixedUnigramCandidateSampler", fixed_unigram_candidate_sampler)):
        registry.set_raw_args(op, RawArgs(via=fn))
