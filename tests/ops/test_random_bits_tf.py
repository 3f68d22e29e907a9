"""TF's random numbers bit for bit against real TensorFlow 2.21: tf.random.uniform (float and int
dtypes), normal, truncated_normal, categorical, shuffle and stateless_normal,
stateless_truncated_normal, stateless_categorical: every float dtype, odd sizes (Philox group
boundaries), global/op/both seeds, streams that continue across calls and restart at set_seed,
truncated normal's rejections, a seeded op inside a tf.function called several times. Every case
sets its own global seed first, so its outcome does not depend on the cases before it. Needs the
`tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_FLOATS = ("float16", "bfloat16", "float32", "float64")
_LOGITS = portable_inputs.log(np.array([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25], [1.0, 1.0, 1.0], [0.9, 0.05, 0.05]], np.float32))


def _seeded(gs: Any, fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        tf.random.set_seed(gs)
        return fn(tf)
    return run


def _cast(tf: Any, xs: list) -> list:
    """bfloat16/float16 draws widened to float32 (exact), so the comparison sees every bit."""
    return [tf.cast(x, tf.float32) if x.dtype in (tf.bfloat16, tf.float16) else x for x in xs]


_DRAWS: list[tuple[str, Callable[[Any], Any]]] = [
    *[(f"{kind}-{dt}", (lambda kind, dt: _seeded(3, lambda tf: _cast(tf, [
        getattr(tf.random, kind)(shape, dtype=dt, seed=5) for shape in ([1], [7], [2, 5], [9], [3, 3, 3])])))(kind, dt))
      for kind in ("normal", "uniform", "truncated_normal") for dt in _FLOATS],
    *[(f"uniform-{dt}", (lambda dt: _seeded(2, lambda tf: [
        tf.random.uniform([n], minval=lo, maxval=hi, dtype=dt, seed=8)
        for n, lo, hi in ((5, 0, 10), (9, -7, 3), (3, -2**31 + 5, 2**31 - 9), (6, 0, 1))]))(dt))
      for dt in ("int32", "int64")],
    ("uniform-int64-wide", _seeded(2, lambda tf: tf.random.uniform([7], minval=-2**62, maxval=2**62, dtype=tf.int64,
                                                                   seed=1))),
    ("uniform-ranges", _seeded(4, lambda tf: [tf.random.uniform([5], seed=1), tf.random.uniform([5], 0, 5.0, seed=1),
                                              tf.random.uniform([5], 0.0, 1, seed=1),
                                              tf.random.uniform([5], -2, 3, seed=1),
                                              tf.random.uniform([5], 1.5, 2.5, dtype=tf.float64, seed=1)])),
    ("normal-mean-stddev", _seeded(4, lambda tf: [tf.random.normal([5], 3.0, 0.5, seed=2),
                                                  tf.random.normal([3], -1.0, 2.0, dtype=tf.float64, seed=2),
                                                  tf.random.truncated_normal([5], 1.0, 3.0, seed=2)])),
    ("global-seed-only", _seeded(11, lambda tf: [tf.random.normal([3]), tf.random.uniform([5]),
                                                 tf.random.truncated_normal([2]), tf.random.uniform([4], 0, 9, tf.int32),
                                                 tf.random.shuffle(tf.range(6)), tf.random.categorical(_LOGITS, 3)])),
    ("op-seed-only", lambda tf: (tf.random.set_seed(None),
                                 [tf.random.normal([3], seed=4), tf.random.uniform([3], seed=4),
                                  tf.random.categorical(_LOGITS, 2, seed=4)])[1]),
    ("seed-zero-zero", _seeded(0, lambda tf: [tf.random.normal([3], seed=0), tf.random.uniform([3], seed=0)])),
    ("large-seeds", _seeded(2**40 + 3, lambda tf: tf.random.normal([5], seed=2**33 + 1))),
    ("stream-continues", _seeded(1, lambda tf: [f(tf) for _ in range(3) for f in (
        lambda tf: tf.random.normal([5], seed=2), lambda tf: tf.random.uniform([3], seed=2),
        lambda tf: tf.random.truncated_normal([6], seed=2), lambda tf: tf.random.uniform([2], 0, 7, tf.int64, seed=2),
        lambda tf: tf.random.categorical(_LOGITS, 5, seed=2), lambda tf: tf.random.shuffle(tf.range(9), seed=2))])),
    ("streams-per-dtype", _seeded(1, lambda tf: _cast(tf, [tf.random.normal([2], seed=2, dtype=d)
                                                           for d in (tf.float64, tf.float32, tf.float16, tf.float64)]))),
    ("set-seed-restarts", lambda tf: [(tf.random.set_seed(5), tf.random.normal([3], seed=1))[1] for _ in range(2)]),
    ("truncated-rejections", _seeded(6, lambda tf: [tf.random.truncated_normal([1001], seed=1),
                                                    tf.random.truncated_normal([333], dtype=tf.float64, seed=1)])),
    ("empty-and-scalar", _seeded(1, lambda tf: [tf.random.normal([2, 0], seed=1), tf.random.normal([], seed=1),
                                                tf.random.uniform([0], seed=1), tf.random.normal([2], seed=1)])),
    ("categorical", _seeded(7, lambda tf: [tf.random.categorical(_LOGITS, n, seed=3) for n in (1, 4, 5, 9)])),
    ("categorical-dtypes", _seeded(7, lambda tf: [
        tf.random.categorical(_LOGITS.astype(np.float64), 6, seed=3),
        tf.random.categorical(_LOGITS.astype(np.float16), 6, seed=3, dtype=tf.int32),
        tf.random.categorical([[0.0, -np.inf, 1.0, np.inf], [-np.inf, 0.0, 0.0, 0.0]], 7, seed=3)])),
    ("shuffle", _seeded(8, lambda tf: [tf.random.shuffle(tf.range(10), seed=1),
                                       tf.random.shuffle(tf.reshape(tf.range(24), [6, 4]), seed=1),
                                       tf.random.shuffle(tf.range(17.0), seed=1), tf.random.shuffle([5], seed=1),
                                       tf.random.shuffle(tf.reshape(tf.range(3), [1, 3]), seed=1),
                                       tf.random.shuffle(tf.range(10), seed=1)])),
    ("in-function-seeded", _seeded(6, lambda tf: (lambda f: [f(tf.constant(1.0)) for _ in range(3)])(tf.function(
        lambda x: [x * tf.random.normal([5], seed=3), tf.random.uniform([3], seed=3),
                   tf.random.truncated_normal([4], seed=9), tf.random.categorical(_LOGITS, 3, seed=2)])))),
    *[(f"stateless-{kind}-{dt}", (lambda kind, dt: lambda tf: _cast(tf, [
        getattr(tf.random, "stateless_" + kind)(shape, seed=seed, dtype=dt)
        for shape in ([1], [7], [2, 5], [9]) for seed in ([1, 2], [-7, 3], tf.constant([2**40, -5], tf.int64))]))(
        kind, dt)) for kind in ("normal", "truncated_normal") for dt in _FLOATS],
    ("stateless-truncated-rejections", lambda tf: [tf.random.stateless_truncated_normal([1001], [4, 4]),
                                                   tf.random.stateless_truncated_normal([333], [4, 4], dtype=tf.float64)]),
    ("stateless-mean-stddev", lambda tf: [tf.random.stateless_normal([5], [1, 1], 2.0, 0.5),
                                          tf.random.stateless_truncated_normal([5], [1, 1], -1.0, 3.0)]),
    ("stateless-categorical", lambda tf: [tf.random.stateless_categorical(_LOGITS, n, seed)
                                          for n in (1, 5, 9) for seed in ([1, 2], [-3, 8])]),
    ("stateless-categorical-dtypes", lambda tf: [
        tf.random.stateless_categorical(_LOGITS.astype(np.float64), 6, [3, 3], dtype=tf.int32),
        tf.random.stateless_categorical([[0.0, -np.inf, 1.0], [-np.inf, 0.0, 2.0]], 7, [3, 3])]),
    ("categorical-sharded-rows", _seeded(7, lambda tf: [   # rows split over TF's 2 intra-op threads' blocks
        tf.random.categorical(np.random.default_rng(0).normal(size=(16, 100)).astype(np.float32), 50, seed=3)
        for _ in range(2)] + [tf.random.stateless_categorical(
            np.random.default_rng(1).normal(size=(64, 100)).astype(np.float32), 50, [1, 2])])),
    ("uniform-uint8", lambda tf: tf.random.uniform([2], 0, 5, dtype=tf.uint8)),
    ("uniform-bool", lambda tf: tf.random.uniform([2], dtype=tf.bool)),
    ("normal-int-dtype", lambda tf: tf.random.normal([2], dtype=tf.int32)),
    ("normal-int-dtype-int-params", lambda tf: tf.random.normal([2], 0, 1, dtype=tf.int32)),
    ("truncated-int-dtype", lambda tf: tf.random.truncated_normal([2], dtype=tf.int64)),
    ("truncated-int-dtype-int-params", lambda tf: tf.random.truncated_normal([2], 0, 1, dtype=tf.int32)),
    ("categorical-no-classes", lambda tf: tf.random.categorical(tf.zeros([2, 0]), 2)),
    ("categorical-negative-samples", lambda tf: tf.random.categorical([[0.0, 1.0]], -1)),
    ("categorical-no-rows", _seeded(1, lambda tf: tf.random.categorical(tf.zeros([0, 3]), 2, seed=1))),
    ("stateless-categorical-no-classes", lambda tf: tf.random.stateless_categorical(tf.zeros([2, 0]), 2, [1, 2])),
    ("uniform-int-empty-range", _seeded(1, lambda tf: tf.random.uniform([2], 3, 3, tf.int32))),
]

CASES: list[tuple[str, str, Callable[[Any], Any], float]] = [(n, "ops.random-bits", f, 0.0) for n, f in _DRAWS]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.within(case[3], atol_ratio=0.01))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.random-bits")
@EDGES.parametrize("ops.random-bits")
def test_random_bits(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_random_bits_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
