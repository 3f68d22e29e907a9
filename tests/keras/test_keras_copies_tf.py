"""copy.copy, copy.deepcopy and pickle of Keras objects against Keras 3.15 on TF 2.21 (clause
keras.saving.keras-file): Keras's KerasSaveable makes each a `.keras` archive written to memory and
read back, so a copy is a new object from the original's config: a layer's weights in new variables,
a fitted model with its compile state, weights, optimizer iterations and slots, a metric without its
state, a loss with its config, an optimizer alone unbuilt. Values, names and identities compared."""

from __future__ import annotations

import copy
import os
import pickle
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _dense(tf: Any) -> Any:
    d = tf.keras.layers.Dense(2, kernel_initializer="ones", name="d0")
    d.build((None, 3))
    return d


def _fitted(tf: Any) -> Any:
    k = tf.keras
    m = k.Sequential([k.Input((3,)), k.layers.Dense(2, kernel_initializer="ones", name="d1")], name="seq")
    m.compile(k.optimizers.Adam(0.1), "mse", metrics=["mae"])
    x = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0
    m.fit(x, np.zeros((4, 2), np.float32), verbose=0, epochs=2, batch_size=2, shuffle=False)
    return m


def _layer_copy(how: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        d = _dense(tf)
        c = how(d)
        return [type(c).__name__, c is d, c.built, c.name, c.kernel is d.kernel, [w.numpy() for w in c.weights]]
    return case


def _model_copy(how: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        m = _fitted(tf)
        c = how(m)
        x = np.ones((2, 3), np.float32)
        return [type(c).__name__, c is m, c.compiled, c.name, [layer.name for layer in c.layers],
                [w.numpy() for w in c.weights], [v.numpy() for v in c.optimizer.variables],
                c.predict(x, verbose=0), c.evaluate(x, np.zeros((2, 2), np.float32), verbose=0)]
    return case


def _functional_copy(tf: Any) -> Any:
    k = tf.keras
    inp = k.Input((3,), name="x")
    m = k.Model(inp, k.layers.Dense(1, kernel_initializer="ones", name="d2")(inp), name="fn")
    c = copy.deepcopy(m)
    return [type(c).__name__, c.name, c.input_names if hasattr(c, "input_names") else None,
            c(np.ones((1, 3), np.float32))]


def _metric_copy(how: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        mt = tf.keras.metrics.Mean(name="avg")
        mt.update_state([1.0, 2.0, 6.0])
        c = how(mt)
        c.update_state([3.0])
        return [type(c).__name__, c.name, c.result(), mt.result()]
    return case


def _loss_copy(tf: Any) -> Any:
    ls = tf.keras.losses.MeanSquaredError(reduction="sum", name="l2")
    c = copy.deepcopy(ls)
    return [type(c).__name__, c.name, c.reduction, c(np.ones((2, 2), np.float32), np.zeros((2, 2), np.float32))]


def _optimizer_copy(fitted: bool) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        opt = _fitted(tf).optimizer if fitted else tf.keras.optimizers.SGD(0.5, momentum=0.9)
        c = copy.deepcopy(opt)
        return [type(c).__name__, float(c.learning_rate), [v.numpy() for v in c.variables]]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {
        "layer/copy.copy": _layer_copy(copy.copy),
        "layer/deepcopy": _layer_copy(copy.deepcopy),
        "layer/pickle": _layer_copy(lambda o: pickle.loads(pickle.dumps(o))),
        "model/deepcopy of a fitted model": _model_copy(copy.deepcopy),
        "model/pickle of a fitted model": _model_copy(lambda o: pickle.loads(pickle.dumps(o))),
        "model/copy.copy of a fitted model": _model_copy(copy.copy),
        "model/deepcopy of a functional model": _functional_copy,
        "other/deepcopy of a metric with state": _metric_copy(copy.deepcopy),
        "other/copy.copy of a metric with state": _metric_copy(copy.copy),
        "other/deepcopy of a loss": _loss_copy,
        "other/deepcopy of a fresh optimizer": _optimizer_copy(False),
        "other/deepcopy of a fitted model's optimizer": _optimizer_copy(True),
    }


_AUTO_NAME = re.compile(r"((?:dense|sequential|functional|adam|sgd|mean)_)\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("prefix", ["layer/", "model/", "other/"])
def test_copies_and_pickles_are_keras_file_round_trips(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
