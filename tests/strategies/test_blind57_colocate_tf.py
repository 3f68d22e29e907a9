"""`strategy.extended.colocate_vars_with(v)` checks its variable as TF 2.21's `_validate_colocate_with_variable`
does (the forty-ninth session, helper blind49b; clause scope.colocate-requires-scope): the mirrored strategies
take only a distributed variable of their own scope, OneDevice and CentralStorage any variable of their own
scope, the default strategy anything; otherwise ValueError "`colocate_vars_with` must only be passed a variable
created in this tf.distribute.Strategy.scope() ...". simdist accepted any value before. Each case: a list of
[label, result or [error class, first words]].
"""

from __future__ import annotations

from typing import Any

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def program(tf: Any, case: dict, workdir: str) -> Any:
    cpus = tf.config.list_physical_devices("CPU")
    tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
    make = {"mirrored": lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]),
            "mirrored1": lambda: tf.distribute.MirroredStrategy(["/cpu:0"]),
            "onedevice": lambda: tf.distribute.OneDeviceStrategy("/cpu:1"),
            "central": lambda: tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"]),
            "default": lambda: tf.distribute.get_strategy()}
    other = tf.distribute.OneDeviceStrategy("/cpu:0")
    with other.scope():
        foreign = tf.Variable(3.0)
    plain = tf.Variable(1.0)
    s = make[case["name"]]()
    with s.scope():
        own = tf.Variable(2.0)
        on_read = tf.Variable(2.0, synchronization=tf.VariableSynchronization.ON_READ,
                              aggregation=tf.VariableAggregation.SUM)
    out: list[Any] = []
    for label, v in [("own", own), ("on_read", on_read), ("plain", plain), ("foreign", foreign),
                     ("tensor", tf.constant(1.0))]:
        try:
            with s.scope():
                with s.extended.colocate_vars_with(v):
                    w = tf.Variable(5.0)
            out.append([label, ["ok", float(w.numpy() if hasattr(w, "numpy") else w.read_value())]])
        except Exception as e:  # noqa: BLE001 - the class and the message's start are what is compared
            out.append([label, [type(e).__name__, str(e).split(",")[0][:110]]])
    return out


NAMES = ["mirrored", "mirrored1", "onedevice", "central", "default"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("scope.colocate-requires-scope")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_colocate_vars_with_checks_its_variable_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: colocate_vars_with({w[0]}): simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
