"""tf.random.gamma/poisson and their stateless forms against real TensorFlow 2.21: the draws bit for
bit (TF's Philox streams and kernels), the eager seed rule (global and op seeds, the op-seed
sequence every seedless random op advances, per-kernel streams that continue across calls and
restart at set_seed), dtypes, shapes and TF's errors; RandomGamma's gradient in alpha within a
tolerance (simdist's RandomGammaGrad is computed, not Eigen's series). Every case sets its own
global seed first, so its outcome does not depend on the cases before it. Needs the `tf` extra
(or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_ALPHAS = np.array([0.5, 1.0, 3.0, 0.01, 50.0, 1e-3, 0.999, 7.25])
_RATES = np.array([0.5, 3.0, 9.99, 10.0, 123.4, 1e6, 0.0, 2.5e3])



def _rates(dt: str) -> np.ndarray:
    """_RATES within the output type (TF's kernel never returns for a rate above its largest value)."""
    return np.where(_RATES > 6e4, 6e4, _RATES) if dt == "float16" else _RATES


def _seeded(gs: Any, fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        tf.random.set_seed(gs)
        return fn(tf)
    return run


def _grads(tf: Any, fn: Callable[..., Any], *xs: np.ndarray) -> Any:
    """[fn(*vs), d loss / d v for each v] with loss = sum(fn(*vs) * (1, 2, 3, ...))."""
    vs = [tf.Variable(tf.constant(x)) for x in xs]
    with tf.GradientTape() as tape:
        y = fn(*vs)
        loss = tf.reduce_sum(y * tf.reshape(tf.range(1, tf.size(y) + 1, dtype=y.dtype), tf.shape(y)))
    return [y] + [tf.convert_to_tensor(g) for g in tape.gradient(loss, vs)]


_DRAWS: list[tuple[str, Callable[[Any], Any]]] = [
    *[(f"gamma-{dt}", (lambda dt: _seeded(1, lambda tf: tf.random.gamma([5], _ALPHAS, seed=2, dtype=dt)))(dt))
      for dt in ("float16", "float32", "float64")],
    ("gamma-beta-broadcast", _seeded(3, lambda tf: tf.random.gamma([4, 2], np.array([[1.0], [3.0], [0.2]], np.float32),
                                                                    beta=np.array([[3.0, 0.5]], np.float32), seed=9))),
    ("gamma-beta-zero-negative", _seeded(3, lambda tf: tf.random.gamma([3], 2.0, beta=[1.0, 0.0, -1.0], seed=1))),
    ("gamma-special-alphas", _seeded(4, lambda tf: tf.random.gamma(
        [6], np.array([np.inf, np.nan, -1.0, 0.0, 1e-30, 1e30], np.float64), seed=5, dtype=tf.float64))),
    ("gamma-float16-small-alpha", _seeded(4, lambda tf: tf.random.gamma([50], [1e-3, 0.05], seed=5,
                                                                         dtype=tf.float16))),
    ("gamma-stream-continues", _seeded(1, lambda tf: [tf.random.gamma([3], [0.5, 2.0], seed=2, dtype=tf.float64)
                                                      for _ in range(3)])),
    ("gamma-streams-per-dtype", _seeded(1, lambda tf: [tf.random.gamma([2], 2.0, seed=2, dtype=d)
                                                       for d in (tf.float64, tf.float32, tf.float64)])),
    ("gamma-set-seed-restarts", lambda tf: [(tf.random.set_seed(5), tf.random.gamma([3], 1.5, seed=1))[1]
                                            for _ in range(2)]),
    ("gamma-op-seed-sequence", _seeded(7, lambda tf: [tf.shape(tf.random.uniform([2])), tf.shape(tf.random.normal([1])),
                                                      tf.random.gamma([3], [0.5, 2.0], dtype=tf.float64),
                                                      tf.shape(tf.random.truncated_normal([1])),
                                                      tf.shape(tf.random.shuffle([1, 2])),
                                                      tf.shape(tf.random.categorical([[0.0, 1.0]], 2)),
                                                      tf.random.gamma([3], 2.0), tf.random.poisson([3], 4.0)])),
    ("gamma-op-seed-without-global", lambda tf: (tf.random.set_seed(None), tf.random.gamma([4], 2.5, seed=11))[1]),
    ("gamma-seed-zero-zero", _seeded(0, lambda tf: tf.random.gamma([3], 2.5, seed=0))),
    ("gamma-large-seeds", _seeded(2**40 + 3, lambda tf: tf.random.gamma([3], 2.5, seed=2**33 + 1))),
    ("gamma-empty", _seeded(1, lambda tf: [tf.random.gamma([2, 0], 2.0, seed=1), tf.random.gamma([2], [], seed=1),
                                           tf.random.gamma([2], 2.0, seed=1)])),
    ("gamma-in-function", _seeded(6, lambda tf: tf.function(lambda a: tf.random.gamma([3], a, seed=3))(
        tf.constant([0.7, 4.0])))),
    ("gamma-int-dtype", lambda tf: tf.random.gamma([2], 2, dtype=tf.int32)),
    ("gamma-bfloat16", lambda tf: tf.random.gamma([2], 2.0, dtype=tf.bfloat16)),
    ("gamma-negative-dimension", lambda tf: tf.random.gamma([-1], 2.0)),
    ("gamma-float-shape", lambda tf: tf.random.gamma([2.5], 1.0)),
    ("gamma-matrix-shape", lambda tf: tf.random.gamma([[2]], 1.0)),
    ("gamma-beta-incompatible", lambda tf: tf.random.gamma([2], [1.0, 2.0], beta=[1.0, 2.0, 3.0])),
    ("gamma-alpha-dtype-mismatch", lambda tf: tf.random.gamma([2], tf.constant([1.0], tf.float64))),
    *[(f"poisson-{dt}", (lambda dt: _seeded(1, lambda tf: tf.random.poisson([5], _rates(dt), seed=3, dtype=dt)))(dt))
      for dt in ("float16", "float32", "float64", "int32", "int64")],
    ("poisson-rate-dtypes", _seeded(2, lambda tf: [tf.random.poisson([3], tf.constant(r, d), seed=4)
                                                   for r, d in ((4.5, tf.float16), (12.5, tf.float64), (3, tf.int32),
                                                                (30, tf.int64))])),
    ("poisson-special-rates", _seeded(2, lambda tf: [tf.random.poisson([2], [np.inf, -np.inf, -1.0, 6e4], seed=1,
                                                                       dtype=d)
                                                     for d in (tf.float16, tf.float32, tf.int32, tf.int64)])),
    ("poisson-stream-continues", _seeded(1, lambda tf: [tf.random.poisson([4], [2.0, 40.0], seed=2) for _ in range(3)])),
    ("poisson-empty", _seeded(1, lambda tf: [tf.random.poisson([0], [1.0]), tf.random.poisson([2], [], seed=1)])),
    ("poisson-bool-dtype", lambda tf: tf.random.poisson([2], [1.0], dtype=tf.bool)),
    ("poisson-uint8-dtype", lambda tf: tf.random.poisson([2], [1.0], dtype=tf.uint8)),
    ("poisson-negative-dimension", lambda tf: tf.random.poisson([3, -2], [1.0])),
    *[(f"stateless-gamma-{dt}-{s}", (lambda dt, s: lambda tf: tf.random.stateless_gamma(
        [4, 8], tf.constant(s, dt), _ALPHAS, dtype=tf.float64))(dt, s))
      for dt in ("int32", "int64") for s in ((1, 2), (-3, 5))],
    ("stateless-gamma-huge-seed", lambda tf: tf.random.stateless_gamma([3, 2], tf.constant([-2**62, 2**40], tf.int64),
                                                                       [0.5, 3.0])),
    ("stateless-gamma-beta", lambda tf: tf.random.stateless_gamma([5, 3, 2], [7, 8], np.ones((3, 1), np.float32),
                                                                  beta=[2.0, 0.25], dtype=tf.float32)),
    ("stateless-gamma-float16", lambda tf: tf.random.stateless_gamma([40], [7, 8], 0.3, dtype=tf.float16)),
    ("stateless-gamma-repeatable", lambda tf: [tf.random.stateless_gamma([3], [1, 1], 2.0) for _ in range(2)]),
    ("stateless-gamma-shape-suffix", lambda tf: tf.random.stateless_gamma([3], [1, 2], [1.0, 2.0])),
    ("stateless-gamma-seed-shape", lambda tf: tf.random.stateless_gamma([3], [1, 2, 3], 1.0)),
    ("stateless-gamma-seed-dtype", lambda tf: tf.random.stateless_gamma([3], [1.0, 2.0], 1.0)),
    *[(f"stateless-poisson-{dt}", (lambda dt: lambda tf: tf.random.stateless_poisson(
        [3, 8], [11, -4], _rates(dt), dtype=dt))(dt)) for dt in ("float16", "float32", "float64", "int32", "int64")],
    ("stateless-poisson-int-rates", lambda tf: tf.random.stateless_poisson([4, 2], [5, 6], tf.constant([3, 50], tf.int64),
                                                                           dtype=tf.int64)),
    ("stateless-poisson-shape-suffix", lambda tf: tf.random.stateless_poisson([3], [1, 2], [1.0, 2.0])),
    ("stateless-poisson-uint8", lambda tf: tf.random.stateless_poisson([3], [1, 2], 1.0, dtype=tf.uint8)),
    ("stateless-poisson-gradient", lambda tf: _grads(tf, lambda lam: tf.cast(
        tf.random.stateless_poisson([3, 2], [1, 2], lam, dtype=tf.float32), tf.float32) * lam, np.array(
            [1.5, 20.0], np.float32))),
    ("poisson-gradient", _seeded(1, lambda tf: _grads(tf, lambda lam: tf.random.poisson([3], lam, seed=1),
                                                      np.array([1.5, 20.0], np.float32)))),
]

_GRADS: list[tuple[str, Callable[[Any], Any]]] = [
    *[(f"gamma-grad-{dt}", (lambda dt: _seeded(1, lambda tf: _grads(tf, lambda a: tf.random.gamma([4], a, seed=3),
                                                                    np.array([0.3, 1.0, 2.5, 9.0], dt))))(dt))
      for dt in ("float32", "float64")],
    ("gamma-grad-alpha-beta", _seeded(2, lambda tf: _grads(tf, lambda a, b: tf.random.gamma([3, 2], a, beta=b, seed=1),
                                                           np.array([[0.8], [4.0]], np.float32),
                                                           np.array([0.5, 2.0], np.float32)))),
    ("stateless-gamma-grad", lambda tf: _grads(tf, lambda a: tf.random.stateless_gamma([5, 3], [3, 4], a),
                                               np.array([0.6, 1.7, 30.0], np.float32))),
    ("gamma-grad-float16", _seeded(1, lambda tf: _grads(tf, lambda a: tf.random.gamma([2], a, seed=3, dtype=tf.float16),
                                                        np.array([1.5], np.float16)))),
]

CASES: list[tuple[str, str, Callable[[Any], Any], float]] = (
    [(n, "ops.random-gamma-poisson", f, 0.0) for n, f in _DRAWS]
    + [(n, "ops.random-gamma-gradient", f, 1e-4) for n, f in _GRADS])

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.within(case[3], atol_ratio=0.01))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.random-gamma-poisson")
@EDGES.parametrize("ops.random-gamma-poisson")
def test_gamma_poisson_draws(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.random-gamma-poisson")
@EDGES.parametrize("ops.random-gamma-gradient")
def test_gamma_gradient(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.random-gamma-poisson")
@pytest.mark.parametrize("rate, dtype", [(np.nan, "float32"), (1e5, "float16"), (3e9, "int32")])
def test_poisson_rates_tf_never_returns_on_are_refused(rate: float, dtype: str) -> None:
    """TF's Poisson kernel loops forever on a NaN rate and on a rate above its output type's largest
    value (its rejection loop cannot accept; not runnable on TF): simdist raises instead."""
    from simdist import tf
    from simdist.runtime import errors
    for draw in (lambda: tf.random.poisson([2], [rate], seed=1, dtype=dtype),
                 lambda: tf.random.stateless_poisson([2, 1], [1, 2], [rate], dtype=dtype)):
        with pytest.raises(errors.InvalidArgumentError, match="loops forever") as e:
            draw()
        assert "cannot be sampled as " + dtype in str(e.value), f"error {e.value!s} should name the rate and dtype"


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_random_gamma_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
