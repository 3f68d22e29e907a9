"""A step's logs without components against Keras 3.15 on TF 2.21 (clause keras.fit.logs): Keras wraps each step's
logs read from a dataset iterator (fit, evaluate) in tf.experimental.Optional.from_value, whose OptionalFromValue op
needs at least one component, so a custom train_step or test_step returning {} fails: InvalidArgumentError with
run_eagerly=True, ValueError when the step function is traced; train_on_batch (a Python iterator) is not wrapped.
Optional.from_value of {}, () or a nested empty structure is the same error ([] is a tensor and passes). simdist
ran such a fit (found writing a probe of the thirty-sixth blind batch, docs/conformance.md)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
from case_wrappers import error_last_line
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _model(keras: Any, logs: Callable[[Any], Any]) -> Any:
    class Steps(keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, x: Any) -> Any:
            return self.dense(x)

        def train_step(self, data: Any) -> Any:
            return logs(keras)

        def test_step(self, data: Any) -> Any:
            return logs(keras)

    return Steps()


def _run(how: str, eager: bool, logs: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        keras = tf.keras
        model = _model(keras, logs)
        model.compile(optimizer="sgd", loss="mse", run_eagerly=eager)
        x, y = np.ones((4, 2), "float32"), np.ones((4, 1), "float32")
        if how == "fit":
            return sorted(model.fit(x, y, batch_size=2, verbose=0).history)
        if how == "evaluate":
            return model.evaluate(x, y, batch_size=2, verbose=0)
        return model.train_on_batch(x, y)
    return case


def _optional(value: Callable[[Any], Any], traced: bool) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        def has_value() -> Any:
            return tf.experimental.Optional.from_value(value(tf)).has_value()
        return tf.function(has_value)() if traced else has_value()
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    empty = lambda k: {}                                  # noqa: E731
    some = lambda k: {"n": k.ops.convert_to_tensor(1.0)}  # noqa: E731
    cases: dict[str, Callable[[Any], Any]] = {}
    for how in ("fit", "evaluate", "train_on_batch"):
        for eager in (True, False):
            mode = "eager" if eager else "traced"
            cases[f"logs/{how} of empty logs, {mode}"] = _run(how, eager, empty)
            cases[f"logs/{how} of one log, {mode}"] = _run(how, eager, some)
    values = {"{}": lambda tf: {}, "()": lambda tf: (), "{'a': ()}": lambda tf: {"a": ()}, "[]": lambda tf: [],
              "{'a': 1.0}": lambda tf: {"a": tf.constant(1.0)}}
    for name, value in values.items():
        cases[f"optional/from_value({name}), eager"] = _optional(value, False)
        # (traced: the error's "in user code:" frame names this file's path; its last line is compared)
        cases[f"optional/from_value({name}), traced"] = error_last_line(_optional(value, True))
    return cases


_AUTO_NAME = re.compile(r"((?:steps|dense)_)\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.fit.logs")
@pytest.mark.parametrize("prefix", ["logs/", "optional/"])
def test_step_logs_without_components_as_tf(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
