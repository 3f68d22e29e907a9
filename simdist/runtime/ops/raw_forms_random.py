"""Raw forms of the gamma and Poisson sampling ops (clause ops.raw-ops).

simdist's ops take the sampled parameter (alpha, rate) as their tensor and the output shape, the
seeds and the dtype as attrs; TF's raw ops take `shape` as an input and the seeds as attrs
(RandomGamma, RandomPoissonV2) or as an input seed pair (StatelessRandomPoisson) or a (key,
counter, alg) triple (StatelessRandomGammaV3, tensorflow/core/ops/stateless_random_ops_v2.cc).
Each raw form checks the arguments as the public function checks them (random_gamma.py: the
shape a vector of no negative dimension, the output dtype) and runs the same op, so the values are
the public function's stream for the same seeds (session 28).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import registry
from simdist.runtime.ops.raw_args import RawArgs

__all__ = ["declare", "random_gamma", "random_poisson_v2", "stateless_random_poisson", "stateless_random_gamma_v3"]


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
    from simdist.runtime.ops import gamma_poisson, philox, random_gamma as rg, raw_stateless
    op = "StatelessRandomGammaV3"
    rg._gamma_v3_dtype(alpha.dtype, op, "dtype")
    key_words, ctr = raw_stateless._generator(key, counter, alg, op)
    shp = rg._shape(shape, op)
    a = np.asarray(alpha.numpy())
    n = rg._split(shp, a, op)
    if n == 0 or a.size == 0:
        return raw_stateless._const(np.zeros(shp, alpha.dtype._np), alpha.dtype)
    out = gamma_poisson.gamma_samples(philox.Philox(key_words, ctr), a, n)
    return raw_stateless._const(rg._cast(out, alpha.dtype).reshape(shp), alpha.dtype)


def declare() -> None:
    """Set the raw forms above on their ops (idempotent)."""
    registry.set_raw_args("RandomGamma", RawArgs(via=random_gamma))
    registry.set_raw_args("RandomPoissonV2", RawArgs(via=random_poisson_v2))
    registry.set_raw_args("StatelessRandomPoisson", RawArgs(via=stateless_random_poisson))
    registry.set_raw_args("StatelessRandomGammaV3", RawArgs(via=stateless_random_gamma_v3))
