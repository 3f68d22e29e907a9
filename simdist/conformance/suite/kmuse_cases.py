"""Keras metrics used as people use them (issue 29, kmuse): every metric of harden19_training.METRIC_CASES called as
a function (`metric(y_true, y_pred)`, which updates the state and returns the running result), twice, the second
time with a sample weight; then `result()`, `reset_state()` and another call; then a fresh instance driven through
the stateless API (`stateless_update_state` twice on its variables' values, `stateless_result`, the state,
`stateless_reset_state`), which must leave the instance's own variables untouched; then `from_config(get_config())`
updated once.

A planted bug in a metric often sits in the path a program uses rather than the one a test of `update_state` reads:
a `__call__` that resets before updating, a `reset_state` that leaves one variable, a stateless update that writes
the instance's variables, a config that drops an argument. The metrics and their inputs come from harden19's tables (the kind of y_true/y_pred each
takes), so nothing about the backend under test chooses what is tried.

Observed (`observe`): each returned value and result (shape, dtype, values) in order, or the class of the error
raised and what was observed before it. The TF 2.21 recording is kmuse_reference. Nothing here imports TensorFlow.
"""

from __future__ import annotations

from typing import Any

from simdist.conformance.suite import harden19_training as training
from simdist.conformance.suite import kenum_cases


def _pair(name: str, step: int) -> tuple[Any, Any]:
    return training.make_pair(training.METRIC_CASES[name][1], "typical", f"kmuse/{name}/{step}")


def observe(tf: Any, name: str) -> dict[str, Any]:
    """The metric `name` used through its call, reset, stateless and config paths (see the module)."""
    required, _ = training.METRIC_CASES[name]
    cls = getattr(tf.keras.metrics, name)
    value = kenum_cases._value
    out: list[Any] = []
    try:
        metric = cls(**required)
        y, p = _pair(name, 0)
        out.append(value(metric(y, p)))
        y2, p2 = _pair(name, 1)
        out.append(value(metric(y2, p2, sample_weight=kenum_cases._weights(len(y2), f"kmuse/{name}"))))
        out.append(value(metric.result()))
        metric.reset_state()
        out.append(value(metric.result()))
        out.append(value(metric(y2, p2)))
        fresh = cls(**required)
        before = [value(v) for v in fresh.variables]
        state = fresh.stateless_update_state([v.value for v in fresh.variables], tf.constant(y), tf.constant(p))
        state = fresh.stateless_update_state(state, tf.constant(y2), tf.constant(p2))
        out.append(value(fresh.stateless_result(state)))
        out += [value(v) for v in state] + [value(v) for v in fresh.stateless_reset_state()]
        out.append({"untouched": [value(v) for v in fresh.variables] == before})
        clone = cls.from_config(metric.get_config())
        clone.update_state(y, p)
        out.append(value(clone.result()))
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        return {"call": type(e).__name__, "before": out}
    return {"out": out}
