"""tf.nn.fractional_max_pool and tf.nn.fractional_avg_pool (and tf.compat.v1's, with seed2 and
deterministic) against real TensorFlow 2.21: TF's pooling sequences from its Philox seeds (random
and pseudo-random, under an op seed and a global seed), pooled values (overlapping or not, every
dtype TF registers, NaN, integer means), both gradients, errors. Needs the `tf` extra (or its
golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _x(seed: int, shape: tuple[int, ...], dtype: str = "float32") -> np.ndarray:
    a = np.random.default_rng(seed).normal(size=shape) * 4
    return np.round(a).astype(dtype) if dtype.startswith("int") else a.astype(dtype)


def _pool(kind: str, shape: tuple[int, ...], ratio: Any, dtype: str = "float32", data: int = 0,
          **kw: Any) -> Callable[[Any], Any]:
    x = _x(data, shape, dtype)
    return lambda tf: list(getattr(tf.nn, f"fractional_{kind}_pool")(tf.constant(x), ratio, **kw))


def _grad(kind: str, shape: tuple[int, ...], ratio: Any, dtype: str = "float32", data: int = 0,
          **kw: Any) -> Callable[[Any], Any]:
    x = _x(data, shape, dtype)
    w = np.random.default_rng(data + 99).normal(size=(64,))

    def run(tf: Any) -> Any:
        v = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(v)
            out, rows, cols = getattr(tf.nn, f"fractional_{kind}_pool")(v, ratio, **kw)
            n = int(np.prod(out.shape))
            y = tf.reduce_sum(tf.reshape(out, [-1]) * tf.constant(w[:n], out.dtype))
        return [out, rows, cols, tape.gradient(y, v)]
    return run


_R = [1.0, 1.44, 1.73, 1.0]

_CASES: list[tuple[str, Callable[[Any], Any]]] = [
    ("max-seeded", _pool("max", (2, 10, 9, 3), _R, seed=7)),
    ("max-seeded-again", _pool("max", (2, 10, 9, 3), _R, seed=7, data=1)),
    ("max-other-seed", _pool("max", (2, 10, 9, 3), _R, seed=12345)),
    ("max-pseudo-random", _pool("max", (1, 17, 13, 2), [1.0, 1.6, 1.3, 1.0], seed=3, pseudo_random=True)),
    ("max-overlapping", _pool("max", (1, 11, 11, 2), _R, seed=5, overlapping=True)),
    ("max-pseudo-overlapping", _pool("max", (2, 9, 12, 1), [1.0, 2.5, 1.5, 1.0], seed=9, pseudo_random=True,
                                     overlapping=True)),
    ("max-ratio-scalar", _pool("max", (1, 8, 8, 1), 1.5, seed=4)),
    ("max-ratio-pair", _pool("max", (1, 8, 8, 1), [1.0, 2.2], seed=4)),
    ("max-ratio-above-2", _pool("max", (1, 23, 20, 1), [1.0, 2.3, 3.4, 1.0], seed=8)),
    ("max-ratio-above-2-pseudo", _pool("max", (1, 23, 20, 1), [1.0, 2.3, 3.4, 1.0], seed=8, pseudo_random=True)),
    ("max-divisible", _pool("max", (1, 8, 6, 1), [1.0, 2.0, 3.0, 1.0], seed=2)),
    ("max-float64", _pool("max", (1, 7, 7, 2), _R, "float64", seed=6)),
    ("max-int32", _pool("max", (1, 7, 7, 2), _R, "int32", seed=6)),
    ("max-int64", _pool("max", (1, 7, 7, 2), _R, "int64", seed=6)),
    ("max-nan", lambda tf: list(tf.nn.fractional_max_pool(
        tf.constant(np.where(_x(1, (1, 6, 6, 1)) > 2, np.nan, _x(1, (1, 6, 6, 1))).astype(np.float32)), _R,
        seed=11))),
    ("max-global-seed", lambda tf: _global(tf, "max")),
    ("max-v1", lambda tf: list(tf.compat.v1.nn.fractional_max_pool(tf.constant(_x(3, (1, 9, 9, 1))), _R,
                                                                   deterministic=True, seed=1, seed2=2))),
    ("max-v1-pseudo", lambda tf: list(tf.compat.v1.nn.fractional_max_pool(
        tf.constant(_x(3, (1, 9, 9, 1))), _R, pseudo_random=True, deterministic=True, seed=5, seed2=0))),
    ("avg-seeded", _pool("avg", (2, 10, 9, 3), _R, seed=7)),
    ("avg-pseudo-overlapping", _pool("avg", (1, 17, 13, 2), [1.0, 1.6, 1.3, 1.0], seed=3, pseudo_random=True,
                                     overlapping=True)),
    ("avg-float64", _pool("avg", (1, 7, 7, 2), _R, "float64", seed=6)),
    ("avg-int32-truncates", _pool("avg", (1, 7, 7, 2), _R, "int32", seed=6)),
    ("avg-int64", _pool("avg", (1, 9, 7, 1), [1.0, 1.3, 2.2, 1.0], "int64", seed=6, overlapping=True)),
    ("avg-v1", lambda tf: list(tf.compat.v1.nn.fractional_avg_pool(tf.constant(_x(3, (1, 9, 9, 1))), _R,
                                                                   deterministic=True, seed=1, seed2=2))),
    ("avg-in-function", lambda tf: list(tf.function(lambda v: tf.nn.fractional_avg_pool(v, _R, seed=21))(
        tf.constant(_x(5, (1, 8, 8, 2)))))),
    ("max-in-function", lambda tf: list(tf.function(lambda v: tf.nn.fractional_max_pool(v, _R, seed=21))(
        tf.constant(_x(5, (1, 8, 8, 2)))))),
    ("grad-max", _grad("max", (2, 9, 8, 2), _R, seed=13)),
    ("grad-max-overlapping", _grad("max", (1, 9, 8, 2), _R, seed=13, overlapping=True)),
    ("grad-max-ties", lambda tf: _ties(tf)),
    ("grad-avg", _grad("avg", (2, 9, 8, 2), _R, seed=13)),
    ("grad-avg-overlapping", _grad("avg", (1, 9, 8, 2), _R, "float64", seed=13, overlapping=True)),
    ("grad-avg-pseudo", _grad("avg", (1, 12, 7, 1), [1.0, 1.7, 1.2, 1.0], seed=15, pseudo_random=True)),
    ("err-half", lambda tf: tf.nn.fractional_max_pool(tf.zeros([1, 4, 4, 1], tf.float16), _R, seed=1)),
    ("err-rank-3", lambda tf: tf.nn.fractional_max_pool(tf.zeros([4, 4, 1]), _R, seed=1)),
    ("err-ratio-above-size", lambda tf: tf.nn.fractional_max_pool(tf.zeros([1, 4, 4, 1]), [1.0, 5.0, 1.5, 1.0],
                                                                  seed=1)),
    ("err-empty-batch", lambda tf: tf.nn.fractional_max_pool(tf.zeros([0, 4, 4, 1]), _R, seed=1)),
    ("err-batch-ratio", lambda tf: tf.nn.fractional_max_pool(tf.zeros([1, 4, 4, 1]), [2.0, 1.5, 1.5, 1.0], seed=1)),
    ("err-ratio-below-1", lambda tf: tf.nn.fractional_max_pool(tf.zeros([1, 4, 4, 1]), 0.5, seed=1)),
    ("err-avg-ratio-short", lambda tf: tf.nn.fractional_avg_pool(tf.zeros([1, 4, 4, 1]), [1.5, 1.5], seed=1)),
    ("err-avg-channel-ratio", lambda tf: tf.nn.fractional_avg_pool(tf.zeros([1, 4, 4, 1]), [1.0, 1.5, 1.5, 2.0],
                                                                   seed=1)),
    ("err-avg-ratio-below-1", lambda tf: tf.nn.fractional_avg_pool(tf.zeros([1, 4, 4, 1]), [1.0, 0.5, 1.5, 1.0],
                                                                   seed=1)),
    ("err-avg-ratio-scalar", lambda tf: tf.nn.fractional_avg_pool(tf.zeros([1, 4, 4, 1]), 1.5, seed=1)),
    ("err-v1-seeds-not-deterministic", lambda tf: tf.compat.v1.nn.fractional_max_pool(
        tf.zeros([1, 4, 4, 1]), _R, deterministic=False, seed=1, seed2=2)),
]


def _global(tf: Any, kind: str) -> Any:
    tf.random.set_seed(3)
    try:
        return list(getattr(tf.nn, f"fractional_{kind}_pool")(tf.constant(_x(2, (1, 10, 9, 1))), _R, seed=7))
    finally:
        tf.random.set_seed(None)    # (the TF worker runs every case in one process)


def _ties(tf: Any) -> Any:
    """Equal values in a window: the gradient goes to the first (row-major) of them."""
    x = tf.constant(np.round(_x(4, (1, 9, 8, 1)) / 6), tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out, rows, cols = tf.nn.fractional_max_pool(x, _R, seed=17, overlapping=True)
        y = tf.reduce_sum(out)
    return [out, rows, cols, tape.gradient(y, x)]


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [(n, "ops.nn-fractional-pool", f) for n, f in _CASES]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.nn-fractional-pool")
@EDGES.parametrize("ops.nn-fractional-pool")
def test_fractional_pool(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_ops8_pool_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
