"""Keras 3's stateless API on simdist vs TF 2.21 + Keras 3.15: `keras.StatelessScope` (a state mapping read and
written inside, the variables untouched, its errors), `Layer.stateless_call` (Dense with regularizers and
return_losses, BatchNormalization in training with its moving statistics returned, a functional model, the errors of
an unbuilt layer and of a wrong number of values) and the metrics' `stateless_update_state` / `stateless_result` /
`stateless_reset_state` (clause keras.metric.option-coverage's kmuse runs them on every metric), and
`Optimizer.stateless_apply`, which Keras's TF backend refuses. Clause
keras.layer.forward-and-gradients. Its golden (tests/goldens/) is stamped with this file.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

X = np.array([[1.0, 2.0, 3.0], [3.0, 1.0, 0.0]], "float32")


def _dense(return_losses: bool) -> Callable[[Any], Any]:
    def f(tf: Any) -> Any:
        tf.keras.utils.set_random_seed(3)
        layer = tf.keras.layers.Dense(2, kernel_regularizer="l2", activity_regularizer="l1")
        layer.build((None, 3))
        values = [np.full(v.shape, 0.5, "float32") for v in layer.trainable_variables]
        out = layer.stateless_call(values, [], tf.constant(X), return_losses=return_losses)
        return [list(out), list(layer.weights), list(layer.losses)]
    return f


def _batch_norm(tf: Any) -> Any:
    tf.keras.utils.set_random_seed(3)
    layer = tf.keras.layers.BatchNormalization()
    layer.build((None, 3))
    trainable = [v.value for v in layer.trainable_variables]
    moving = [np.full(v.shape, 2.0, "float32") for v in layer.non_trainable_variables]
    out, new_moving = layer.stateless_call(trainable, moving, tf.constant(X), training=True)
    return [out, new_moving, list(layer.weights)]


def _model(tf: Any) -> Any:
    tf.keras.utils.set_random_seed(4)
    keras = tf.keras
    inp = keras.Input((3,))
    h = keras.layers.Dense(4, activation="relu")(inp)
    h = keras.layers.BatchNormalization()(h)
    model = keras.Model(inp, keras.layers.Dense(1)(h))
    trainable = [np.asarray(v) * 0.5 for v in model.trainable_variables]
    non_trainable = [np.asarray(v) + 1.0 for v in model.non_trainable_variables]
    out, new = model.stateless_call(trainable, non_trainable, tf.constant(X), training=True)
    return [out, new, model(X)]


def _unbuilt(tf: Any) -> Any:
    return tf.keras.layers.Dense(2).stateless_call([], [], tf.ones((1, 3)))


def _wrong_count(tf: Any) -> Any:
    layer = tf.keras.layers.Dense(2)
    layer.build((None, 3))
    return layer.stateless_call([np.ones((3, 2), "float32")], [], tf.ones((1, 3)))


def _scope(tf: Any) -> Any:
    v = tf.keras.Variable(np.zeros(3, "float32"))
    with tf.keras.StatelessScope([(v, np.ones(3, "float32"))]) as scope:
        v.assign_add(np.full(3, 2.0, "float32"))
        inside = v.value
    return [inside, scope.get_current_value(v), v.value]


def _metric(name: str) -> Callable[[Any], Any]:
    def f(tf: Any) -> Any:
        y = np.array([[0, 1], [1, 0], [1, 1]], "float32")
        p = np.array([[0.2, 0.7], [0.6, 0.1], [0.9, 0.4]], "float32")
        metric = getattr(tf.keras.metrics, name)()
        state = metric.stateless_update_state([v.value for v in metric.variables], tf.constant(y), tf.constant(p))
        state = metric.stateless_update_state(state, tf.constant(y[:2]), tf.constant(p[:2]))
        return [state, metric.stateless_result(state), metric.stateless_reset_state(), list(metric.variables)]
    return f


CASES: dict[str, Callable[[Any], Any]] = {
    "layer/dense": _dense(False),
    "layer/dense_losses": _dense(True),
    "layer/batch_norm_training": _batch_norm,
    "layer/functional_model": _model,
    "layer/unbuilt": _unbuilt,
    "layer/wrong_count": _wrong_count,
    "scope/assign_add": _scope,
    "scope/not_a_variable": lambda tf: tf.keras.StatelessScope([(1.0, 2.0)]),
    "scope/shape": lambda tf: tf.keras.StatelessScope([(tf.keras.Variable(np.zeros(3, "float32"), name="v"),
                                                        np.zeros(2, "float32"))]),
    "metric/binary_accuracy": _metric("BinaryAccuracy"),
    "metric/auc": _metric("AUC"),
    "metric/f1": _metric("F1Score"),
    "metric/mean_squared_error": _metric("MeanSquaredError"),
    "optimizer/sgd": lambda tf: tf.keras.optimizers.SGD().stateless_apply([], [], []),
    "optimizer/loss_scale_unbuilt": lambda tf: tf.keras.optimizers.LossScaleOptimizer(
        tf.keras.optimizers.SGD()).stateless_apply([], [], []),
    "metric/wrong_count": lambda tf: tf.keras.metrics.Mean().stateless_update_state([1.0], tf.constant([1.0])),
}
LABELS = sorted(CASES)
_AUTO_NAME = re.compile(r"\b(dense|batch_normalization|functional|variable|v)(_\d+)?\b")


def _run(tf: Any, label: str) -> Any:
    return case_results.run(tf, CASES[label], _AUTO_NAME)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: _run(tf, LABELS[i]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(LABELS))))


@pytest.mark.clause("keras.layer.forward-and-gradients")
def test_stateless_api_matches_tf(tf_results: dict[int, Any]) -> None:
    from simdist import tf
    bad = [d for i, lab in enumerate(LABELS) if (d := case_results.diff(_run(tf, lab), tf_results[i], lab))]
    assert not bad, f"{len(bad)} of {len(LABELS)} cases differ from TF 2.21:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
