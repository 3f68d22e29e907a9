"""Name scopes of composite functions, seen through an AddN's name-sorted order (clause function.grappler-rewrites,
fz65: fz54b --alias seed 65601 #1, a traced float32 loss `add_n([0.0, Sum_4 .. Sum_9])` one ulp off TF 2.21).
Grappler's canonical form sorts an AddN's inputs by their nodes' names, so every node a function's earlier calls
name at the top level shifts the later `Sum_k` names (Sum_9 < Sum_10 no more) and with them the order of the sum.
math_ops.reduce_logsumexp opens `name_scope(name, "ReduceLogSumExp")` (its Sum is `ReduceLogSumExp/Sum`, its last
Add the scope's name); simdist named its Sum at the top level. Each case calls one composite in a tf.function, then
sums twelve reduce_sums of rows of mixed magnitudes with add_n (order-sensitive in float32). Compared: the bits of
the composite's result and of the add_n."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_COMPOSITES: dict[str, Callable[[Any, Any], Any]] = {
    "none": lambda tf, x: x,
    "reduce_logsumexp": lambda tf, x: tf.math.reduce_logsumexp(x, axis=1),
    "reduce_logsumexp(name)": lambda tf, x: tf.math.reduce_logsumexp(x, name="lse"),
    "reduce_logsumexp keepdims": lambda tf, x: tf.math.reduce_logsumexp(x, 0, keepdims=True),
    "reduce_variance": lambda tf, x: tf.math.reduce_variance(x, 1),
    "reduce_std": lambda tf, x: tf.math.reduce_std(x),
    "reduce_euclidean_norm": lambda tf, x: tf.math.reduce_euclidean_norm(x, 0),
    "count_nonzero": lambda tf, x: tf.math.count_nonzero(x, 1),
    "l2_normalize": lambda tf, x: tf.math.l2_normalize(x, 1),
    "moments": lambda tf, x: tf.nn.moments(x, [0])[1],
    "norm": lambda tf, x: tf.norm(x),
    "compute_average_loss": lambda tf, x: tf.nn.compute_average_loss(x[:, 0], global_batch_size=4),
    "scale_regularization_loss": lambda tf, x: tf.nn.scale_regularization_loss(tf.reduce_sum(x)),
    "clip_by_norm": lambda tf, x: tf.clip_by_norm(x, 1.0),
    "global_norm": lambda tf, x: tf.linalg.global_norm([x, x]),
    "lbeta": lambda tf, x: tf.math.lbeta(tf.abs(x) + 1.0),
    "log_softmax": lambda tf, x: tf.nn.log_softmax(x),
    "sigmoid_cross_entropy": lambda tf, x: tf.nn.sigmoid_cross_entropy_with_logits(tf.sigmoid(x), x),
    "softmax_cross_entropy": lambda tf, x: tf.nn.softmax_cross_entropy_with_logits(tf.nn.softmax(x), x),
    "weighted_moments": lambda tf, x: tf.nn.weighted_moments(x, [0], tf.abs(x))[1],
    "reduce_logsumexp twice": lambda tf, x: tf.math.reduce_logsumexp(x) + tf.math.reduce_logsumexp(x, 1)[0],
}


def _case(comp: str, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        rs = np.random.RandomState(6560 + seed)
        x = tf.constant((rs.standard_normal((4, 3)) * 3).astype(np.float32))
        mags = 10.0 ** rs.randint(-3, 8, size=(12, 1))
        rows = tf.constant((rs.standard_normal((12, 3)) * mags).astype(np.float32))

        def f(x: Any, rows: Any) -> Any:
            c = _COMPOSITES[comp](tf, x)
            return c, tf.math.add_n([tf.reduce_sum(rows[i]) for i in range(12)])
        c, s = tf.function(f)(x, rows)
        return [np.asarray(tf.cast(c, tf.float32).numpy()).view(np.uint32).ravel().tolist(),
                int(np.asarray(s.numpy()).view(np.uint32))]
    return run


def _loss_case(comp: str, seed: int) -> Callable[[Any], Any]:
    """The fuzzer's shape: the composite, four plain reduce_sums (Sum .. Sum_3 on TF), then a loss `add_n([0.0,
    Sum_4 .. Sum_9])` of six rows whose sum depends on its order (a composite naming a top-level Sum makes them
    Sum_5 .. Sum_10, and Sum_10 sorts first)."""
    def run(tf: Any) -> Any:
        rs = np.random.RandomState(6570 + seed)
        mags = 10.0 ** rs.randint(-2, 8, size=(6, 1))
        rows = tf.constant((rs.standard_normal((6, 3)) * mags).astype(np.float32))
        x = tf.constant((np.random.RandomState(seed).standard_normal((4, 3)) * 3).astype(np.float32))

        def f(x: Any, rows: Any) -> Any:
            c = _COMPOSITES[comp](tf, x)
            pre = [tf.reduce_sum(x[j]) for j in range(4)]
            return c, pre, tf.math.add_n([tf.constant(0.0)] + [tf.reduce_sum(rows[i]) for i in range(6)])
        c, pre, s = tf.function(f)(x, rows)
        return [np.asarray(tf.cast(c, tf.float32).numpy()).view(np.uint32).ravel().tolist(),
                [int(np.asarray(p.numpy()).view(np.uint32)) for p in pre], int(np.asarray(s.numpy()).view(np.uint32))]
    return run


_CASES = {f"{comp}/{seed}": _case(comp, seed) for comp in _COMPOSITES for seed in range(3)}
_CASES.update({f"{comp}/loss/{seed}": _loss_case(comp, seed) for comp in _COMPOSITES for seed in (1, 6, 7)})
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz65_scope_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_composites_name_their_nodes_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
