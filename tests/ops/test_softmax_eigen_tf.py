"""The softmax family's Eigen kernels (simdist/runtime/ops/softmax_eigen.py) against real TensorFlow
2.21, bit for bit: LogSoftmax (float32, float64, rank 1-3), float64 Softmax, the fused
SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits, their
losses and their gradients through a tape, eagerly and in a tf.function called twice, for rows
shorter and longer than a packet, Eigen's tree (over 1,024 classes) and extreme logits. Before the
sixteenth session simdist computed them with NumPy's exp, log and pairwise sums: on 12 seeded
layouts, 94 of 510 float32 cross-entropy losses and up to 2,064 of 2,200 gradient entries
differed from TF 2.21 by 1-30 ulps. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_RNG = np.random.default_rng(20261201)
# rows shorter than a packet, a packet and a tail, exact packets, long rows, Eigen's tree (> 1024)
_SHAPES = [(1, 2), (5, 3), (17, 10), (9, 16), (64, 37), (3, 130), (2, 1100)]
_DATA = {(dt, s): (_RNG.standard_normal(s) * 4).astype(dt) for dt in ("float32", "float64") for s in _SHAPES}
_LABELS = {s: _RNG.integers(0, s[1], size=s[0]) for s in _SHAPES}
_SOFT = {s: (lambda p: p / p.sum(1, keepdims=True))(_RNG.random(s)) for s in _SHAPES}
_EXTREME = np.array([[80.0, -80.0, 0.0, 3.5, -np.inf, 1e-3, 60.0, -30.0, 2.0, 88.0],
                     [-1e4, -1e4 + 1, -1e4 + 2, 0.5, 0.25, -0.0, 7.0, 7.0, 7.0, 7.0]])


def _name(dt: str, s: tuple[int, ...]) -> str:
    return f"{dt}-{'x'.join(map(str, s))}"


def _sparse(x: np.ndarray, lab: np.ndarray) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        xt = tf.constant(x)
        with tf.GradientTape() as g:
            g.watch(xt)
            loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=lab, logits=xt)
        return [loss, g.gradient(loss, xt)]
    return run


def _dense(x: np.ndarray, soft: np.ndarray) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        xt = tf.constant(x)
        with tf.GradientTape() as g:
            g.watch(xt)
            loss = tf.nn.softmax_cross_entropy_with_logits(labels=tf.constant(soft.astype(x.dtype)), logits=xt)
        return [loss, g.gradient(loss, xt)]
    return run


def _traced_sparse(x: np.ndarray, lab: np.ndarray) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        f = tf.function(lambda a: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=lab, logits=a))
        return [f(tf.constant(x)), f(tf.constant(x[::-1].copy()))]   # recorded, then replayed
    return run


def _log_softmax_grad(x: np.ndarray) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        xt = tf.constant(x)
        with tf.GradientTape() as g:
            g.watch(xt)
            y = tf.nn.log_softmax(xt)
            z = tf.reduce_sum(y * tf.constant(np.linspace(-1, 1, x.size).reshape(x.shape).astype(x.dtype)))
        return [y, g.gradient(z, xt)]
    return run


CASES: list[tuple[str, str, Callable[[Any], Any]]] = []
for (dt, s), x in _DATA.items():
    CASES += [
        (f"sparse-xent-{_name(dt, s)}", "nn.softmax-eigen", _sparse(x, _LABELS[s])),
        (f"xent-{_name(dt, s)}", "nn.softmax-eigen", _dense(x, _SOFT[s])),
        (f"log-softmax-{_name(dt, s)}", "nn.softmax-eigen", _log_softmax_grad(x)),
    ]
    if dt == "float64":
        CASES.append((f"softmax-{_name(dt, s)}", "nn.softmax-eigen", (lambda v: lambda tf: tf.nn.softmax(v))(x)))
for dt in ("float32", "float64"):
    e = _EXTREME.astype(dt)
    CASES += [
        (f"sparse-xent-extreme-{dt}", "nn.softmax-eigen", _sparse(e, np.array([4, 2]))),
        (f"xent-extreme-{dt}", "nn.softmax-eigen", _dense(e, np.eye(10)[[0, 9]])),
        (f"log-softmax-extreme-{dt}", "nn.softmax-eigen", _log_softmax_grad(e)),
        (f"traced-sparse-xent-{dt}", "nn.softmax-eigen", _traced_sparse(_DATA[(dt, (17, 10))], _LABELS[(17, 10)])),
        (f"log-softmax-rank3-{dt}", "nn.softmax-eigen",
         (lambda v: lambda tf: tf.nn.log_softmax(v))(_DATA[(dt, (64, 37))][:60].reshape(3, 20, 37))),
        (f"log-softmax-rank1-{dt}", "nn.softmax-eigen", (lambda v: lambda tf: tf.nn.log_softmax(v))(_DATA[(dt, (3, 130))][0])),
    ]
CASES.append(("softmax-float64-rank3", "nn.softmax-eigen",
              (lambda v: lambda tf: tf.nn.softmax(v, axis=1))(_DATA[("float64", (64, 37))][:60].reshape(3, 20, 37))))

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("nn.softmax-eigen")
@EDGES.parametrize("nn.softmax-eigen")
def test_softmax_family_in_eigens_order(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_softmax_eigen_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
