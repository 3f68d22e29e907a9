"""tf.train.ExponentialMovingAverage against TF 2.21 (clause training.moving-average): the averages'
values, dtypes and names, num_updates, a variable decay, tf.function, the errors, and Keras 3
variables, eagerly under the default strategy (tests under MirroredStrategy are the suite's,
simdist/conformance/suite/test_moving_averages.py). Each case names its variables uniquely, since
the average names depend on the names a process has used."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _values(tf: Any) -> Any:
    v = tf.Variable([1.0, 2.0], name="mavg_a")
    u = tf.Variable(3.0, dtype=tf.float64, name="mavg_b")
    ema = tf.train.ExponentialMovingAverage(0.9)
    before = [ema.average(v), ema.average_name(v)]
    returned = ema.apply([v, u])
    first = [ema.average(v), ema.average(u), ema.average(v).name, ema.average(v).trainable]
    v.assign([2.0, 4.0])
    u.assign(5.0)
    ema.apply([v, u])
    second = [ema.average(v), ema.average(u)]
    ema.apply([v])
    return [before, returned, first, second, ema.average(v), ema.average(u), ema.average_name(v), ema.name]


def _float16(tf: Any) -> Any:
    h = tf.Variable([1.0, -3.0], dtype=tf.float16, name="mavg_c")
    ema = tf.train.ExponentialMovingAverage(0.3)
    ema.apply([h])
    h.assign([2.0, 7.0])
    ema.apply([h])
    return ema.average(h)


def _num_updates(tf: Any) -> Any:
    w = tf.Variable([10.0, 1.0], name="mavg_d")
    out = []
    for n in (0, 3, 1000):
        ema = tf.train.ExponentialMovingAverage(0.99, num_updates=tf.constant(n), name=f"nu{n}")
        ema.apply([w])
        w.assign([0.0, 2.0])
        ema.apply([w])
        w.assign([10.0, 1.0])
        out.append(ema.average(w))
    return out


def _variable_decay_in_function(tf: Any) -> Any:
    decay = tf.Variable(0.5)
    x = tf.Variable(1.0, name="mavg_e")
    ema = tf.train.ExponentialMovingAverage(decay, name="ema4")
    ema.apply([x])
    x.assign(3.0)
    ema.apply([x])

    @tf.function
    def step() -> None:
        x.assign_add(1.0)
        ema.apply([x])

    step()
    decay.assign(0.25)
    step()
    return [x, ema.average(x), ema.average(x).name]


def _names(tf: Any) -> Any:
    a = tf.Variable([0.0], name="mavg_f")
    b = tf.Variable([0.0], name="mavg_f")
    e1, e2, e3 = (tf.train.ExponentialMovingAverage(0.5), tf.train.ExponentialMovingAverage(0.5),
                  tf.train.ExponentialMovingAverage(0.5, name="other"))
    e1.apply([a])
    e2.apply([b, a])
    e3.apply([a])
    restore = e2.variables_to_restore([a, b])
    return [e1.average(a).name, e2.average(b).name, e2.average(a).name, e3.average(a).name,
            sorted((k, v.name) for k, v in restore.items())]


def _apply_none(tf: Any) -> Any:
    tf.Variable([1.0], name="mavg_g")
    ema = tf.train.ExponentialMovingAverage(0.5)
    return [ema.apply(), ema.apply(None)]


def _error(make: Any) -> Any:
    def case(tf: Any) -> Any:
        first = tf.Variable([1.0], name="mavg_h")
        ema = tf.train.ExponentialMovingAverage(0.5)
        try:
            ema.apply([first, make(tf)])
            raised = None
        except Exception as e:  # noqa: BLE001 - the class and message are compared, then what apply left
            raised = [type(e).__name__, str(e)]
        return [raised, ema.average(first) is not None]
    return case


def _keras(values: bool) -> Any:
    def case(tf: Any) -> Any:
        k = tf.keras
        m = k.Sequential([k.Input((2,)), k.layers.Dense(1, kernel_initializer="ones", name="mavg_dense")],
                         name="mavg_model")
        ema = tf.train.ExponentialMovingAverage(0.5)
        vs = [w.value for w in m.trainable_variables] if values else m.trainable_variables
        ema.apply(vs)
        for w in m.trainable_variables:
            w.assign(w * 3.0)
        ema.apply(vs)
        return [[ema.average(v).name, ema.average(v)] for v in vs]
    return case


def _cases() -> dict[str, Any]:
    return {
        "values/float32 and float64": _values,
        "values/float16": _float16,
        "values/num_updates": _num_updates,
        "values/variable decay, in a tf.function": _variable_decay_in_function,
        "names/same variable name, other ema name, variables_to_restore": _names,
        "apply/None": _apply_none,
        "errors/a tensor": _error(lambda tf: tf.constant([1.0])),
        "errors/an int variable": _error(lambda tf: tf.Variable([1], name="mavg_i")),
        "errors/a complex variable": _error(lambda tf: tf.Variable([1.0 + 1j], name="mavg_j")),
        "keras/the variables' values": _keras(True),
        "keras/Keras variables": _keras(False),
    }


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(mavg_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("training.moving-average")
@pytest.mark.parametrize("prefix", ["values/", "names/", "apply/", "errors/", "keras/"])
def test_moving_averages_match_tensorflow(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
