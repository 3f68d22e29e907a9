"""tf.random.uniform_candidate_sampler, log_uniform_candidate_sampler, fixed_unigram_candidate_sampler
(with unigrams), learned_unigram_candidate_sampler and all_candidate_sampler against real TensorFlow 2.21: sampled classes and expected counts bit for bit (TF's Philox streams,
the kernels' word order), unique and not, streams continuing across calls and restarting at
set_seed, the op-seed sequence, and TF's errors; tf.nn.nce_loss and sampled_softmax_loss (values
and gradients within float32 rounding of TF's: the same sampled classes, the composite's matmuls
summed in another order). Every case sets its own global seed first. Needs the `tf` extra (or its
golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_TC = np.array([[1, 5], [7, 0], [3, 3]], np.int64)
_UNIGRAMS = [5.0, 1.0, 0.5, 3.0, 0.25, 7.0, 2.0, 0.1]


def _seeded(gs: Any, fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        tf.random.set_seed(gs)
        return fn(tf)
    return run


def _sampler(tf: Any, kind: str) -> Any:
    return {"uniform": tf.random.uniform_candidate_sampler, "log": tf.random.log_uniform_candidate_sampler}[kind]


_RAW: list[tuple[str, Callable[[Any], Any]]] = [
    *[(f"{kind}-unique-{u}-range-{r}", (lambda kind, u, r: _seeded(4, lambda tf: _sampler(tf, kind)(
        _TC, 2, 6, u, r, seed=3)))(kind, u, r))
      for kind in ("uniform", "log") for u in (True, False) for r in (6, 20, 10**6, 2**40)],
    *[(f"{kind}-stream-continues", (lambda kind: _seeded(5, lambda tf: [_sampler(tf, kind)(_TC, 2, 5, True, 50, seed=1)
                                                                        for _ in range(3)]))(kind))
      for kind in ("uniform", "log")],
    *[(f"{kind}-op-seed-sequence", (lambda kind: _seeded(6, lambda tf: [
        tf.shape(tf.random.uniform([2])), _sampler(tf, kind)(_TC, 2, 8, True, 30),
        tf.random.gamma([2], 1.5), _sampler(tf, kind)(_TC, 2, 8, False, 30)]))(kind))
      for kind in ("uniform", "log")],
    ("log-num-true-one", _seeded(7, lambda tf: tf.random.log_uniform_candidate_sampler(
        np.array([[4], [9]], np.int64), 1, 64, True, 1000, seed=8))),
    ("log-large-batch", _seeded(7, lambda tf: tf.random.log_uniform_candidate_sampler(
        np.arange(40, dtype=np.int64).reshape(20, 2), 2, 300, True, 5000, seed=9))),
    ("all-sampler", _seeded(1, lambda tf: tf.nn.all_candidate_sampler(_TC, 2, 9, True))),
    ("all-sampler-not-unique", _seeded(1, lambda tf: tf.nn.all_candidate_sampler(_TC, 2, 8, False, seed=2))),
    ("random-all-sampler", _seeded(2, lambda tf: tf.random.all_candidate_sampler(_TC, 2, 4, True, seed=1))),
    *[(f"fixed-unigram-{i}-unique-{u}", (lambda kw, u: _seeded(3, lambda tf: tf.random.fixed_unigram_candidate_sampler(
        _TC[:2, :] % 4, 2, 4, u, kw["range"], unigrams=_UNIGRAMS, seed=2,
        **{k: v for k, v in kw.items() if k != "range"})))(kw, u))
      for i, kw in enumerate(({"range": 8}, {"range": 8, "distortion": 0.75}, {"range": 10, "num_reserved_ids": 2},
                              {"range": 4, "num_shards": 2, "shard": 1}))
      for u in (True, False)],
    ("fixed-unigram-stream-continues", _seeded(4, lambda tf: [tf.nn.fixed_unigram_candidate_sampler(
        _TC[:2, :1] % 4, 1, 6, False, 8, unigrams=_UNIGRAMS, seed=5) for _ in range(2)])),
    ("learned-unigram-counts-persist", _seeded(3, lambda tf: [tf.random.learned_unigram_candidate_sampler(
        np.array([[1, 3], [2, 1], [1, 1]], np.int64), 2, 4, u, 6, seed=2) for u in (True, False, True, False)])),
    ("learned-unigram-set-seed-resets", lambda tf: [(tf.random.set_seed(3), tf.nn.learned_unigram_candidate_sampler(
        np.array([[1, 3], [2, 1]], np.int64), 2, 5, False, 6, seed=2))[1] for _ in range(2)]),
    ("fixed-unigram-range-mismatch", lambda tf: tf.random.fixed_unigram_candidate_sampler(
        _TC[:2, :] % 4, 2, 3, True, 9, unigrams=_UNIGRAMS)),
    ("fixed-unigram-no-weights", lambda tf: tf.random.fixed_unigram_candidate_sampler(_TC, 2, 3, True, 9)),
    ("uniform-huge-range-rejection", _seeded(1, lambda tf: tf.random.uniform_candidate_sampler(
        _TC, 2, 5, True, 2**63 - 5, seed=1))),
    ("range-too-small", lambda tf: tf.random.uniform_candidate_sampler(_TC, 2, 9, True, 8, seed=1)),
    ("true-class-out-of-range", lambda tf: tf.random.log_uniform_candidate_sampler(_TC, 2, 3, True, 6, seed=1)),
    ("num-true-mismatch", lambda tf: tf.random.uniform_candidate_sampler(_TC, 1, 3, True, 9, seed=1)),
    ("true-classes-vector", lambda tf: tf.random.uniform_candidate_sampler(np.array([1, 2], np.int64), 2, 3, True, 9)),
    ("true-classes-int32", lambda tf: tf.random.uniform_candidate_sampler(tf.constant([[1, 2]], tf.int32), 2, 3,
                                                                          True, 9)),
    ("range-max-zero", lambda tf: tf.random.uniform_candidate_sampler(np.zeros((1, 1), np.int64), 1, 3, False, 0)),
]

_G = np.random.default_rng(2930)
_W, _B = _G.normal(size=(50, 8)).astype(np.float32), _G.normal(size=50).astype(np.float32)
_X, _L = _G.normal(size=(6, 8)).astype(np.float32), _G.integers(0, 50, size=(6, 2)).astype(np.int64)


def _loss_grads(tf: Any, fn: Callable[..., Any]) -> Any:
    """[loss, d sum(loss * (1..n)) / d weights, / d biases, / d inputs]."""
    w, b, x = tf.Variable(_W), tf.Variable(_B), tf.Variable(_X)
    with tf.GradientTape() as tape:
        y = fn(w, b, x)
        loss = tf.reduce_sum(y * tf.range(1, tf.size(y) + 1, dtype=y.dtype))
    return [y] + [tf.convert_to_tensor(g) for g in tape.gradient(loss, [w, b, x])]


_LOSSES: list[tuple[str, Callable[[Any], Any]]] = [
    ("nce-num-true-2", _seeded(1, lambda tf: _loss_grads(tf, lambda w, b, x: tf.nn.nce_loss(w, b, _L, x, 10, 50,
                                                                                           num_true=2)))),
    ("nce-accidental-hits", _seeded(2, lambda tf: _loss_grads(tf, lambda w, b, x: tf.nn.nce_loss(
        w, b, _L[:, :1], x, 20, 50, remove_accidental_hits=True)))),
    ("sampled-softmax", _seeded(3, lambda tf: _loss_grads(tf, lambda w, b, x: tf.nn.sampled_softmax_loss(
        w, b, _L[:, :1], x, 7, 50, seed=4)))),
    ("sampled-softmax-keep-hits", _seeded(3, lambda tf: _loss_grads(tf, lambda w, b, x: tf.nn.sampled_softmax_loss(
        w, b, _L, x, 12, 50, num_true=2, remove_accidental_hits=False)))),
    ("losses-op-seed-sequence", _seeded(5, lambda tf: [tf.nn.nce_loss(_W, _B, _L, _X, 10, 50, num_true=2),
                                                       tf.nn.sampled_softmax_loss(_W, _B, _L[:, :1], _X, 7, 50),
                                                       tf.nn.nce_loss(_W, _B, _L, _X, 10, 50, num_true=2)])),
    ("sampled-values-given", _seeded(6, lambda tf: tf.nn.sampled_softmax_loss(
        _W, _B, _L[:, :1], _X, 5, 50, sampled_values=tf.random.uniform_candidate_sampler(
            _L[:, :1], 1, 5, True, 50, seed=2)))),
    ("nce-labels-int32", _seeded(7, lambda tf: tf.nn.nce_loss(_W, _B, _L.astype(np.int32), _X, 6, 50, num_true=2))),
]

CASES: list[tuple[str, str, Callable[[Any], Any], float]] = (
    [(n, "ops.candidate-samplers", f, 0.0) for n, f in _RAW] + [(n, "ops.sampled-losses", f, 1e-5) for n, f in _LOSSES])
EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.within(case[3], atol_ratio=0.1))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.candidate-samplers")
@EDGES.parametrize("ops.candidate-samplers")
def test_candidate_samplers(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.sampled-losses")
@EDGES.parametrize("ops.sampled-losses")
def test_sampled_losses(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_candidate_samplers_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
