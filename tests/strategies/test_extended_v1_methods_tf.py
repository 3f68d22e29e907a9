"""The StrategyExtendedV1 methods TF 2.21's strategies inherit, against TF 2.21 (clause
extended.v1-methods): `call_for_each_replica`, `read_var`, `non_slot_devices`,
`should_checkpoint`, `should_save_summary`, `experimental_should_init`,
`experimental_between_graph`, `experimental_require_static_shapes`, `worker_devices_by_replica`,
and the strategy's deprecated `unwrap` and `colocate_vars_with`; read in distribute_lib.py,
mirrored_strategy.py, one_device_strategy.py and parameter_server_strategy.py. The default
strategy's `call_for_each_replica` inside its own `run` is RuntimeError (the replica context
its `run` enters is not the default one). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_workers
from diff_helpers import make_strategy
from simdist import tf as sim_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _value(x: Any) -> Any:
    if type(x).__name__ in ("PerReplica", "Mirrored"):
        return (type(x).__name__, [_value(v) for v in x.values])
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        return ("T", x.dtype.name, np.asarray(x.numpy()).tolist())
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_value(v) for v in x])
    if hasattr(x, "assign") and hasattr(x, "name"):
        return ("variable", x.name)
    if isinstance(x, (bool, int, float, str)) or x is None:
        return (type(x).__name__, x)
    return (type(x).__name__, None)


def _outcome(fn: Callable[[], Any]) -> Any:
    try:
        return ("ok", _value(fn()))
    except Exception as e:  # noqa: BLE001 - the class is the result
        return ("error", type(e).__name__)


def _program(kind: str, what: str) -> Callable[[Any], Any]:
    def prog(tf: Any) -> Any:
        n = 2 if kind.endswith("2") else 1
        s = make_strategy(tf, kind[:-1], n)
        e = s.extended
        with s.scope():
            v = tf.Variable([1.0, 2.0], name="b")
            w = tf.Variable([3.0], name="a")
            r = tf.Variable([1.0, 2.0], synchronization=tf.VariableSynchronization.ON_READ,
                            aggregation=tf.VariableAggregation.SUM, name="r")
        calls: dict[str, Callable[[], Any]] = {
            "non_slot_devices": lambda: e.non_slot_devices([v, w]),
            "read_var-variable": lambda: e.read_var(v),
            "read_var-sync-on-read": lambda: e.read_var(r),
            "read_var-tensor": lambda: e.read_var(tf.constant([5.0])),
            "call_for_each_replica": lambda: s.experimental_local_results(e.call_for_each_replica(
                lambda: tf.constant(1.0) + tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                                                   tf.float32))),
            "call_for_each_replica-args": lambda: s.experimental_local_results(
                e.call_for_each_replica(lambda x: x * 2, args=(tf.constant([1.0]),))),
            "call_for_each_replica-in-replica": lambda: s.run(lambda: e.call_for_each_replica(lambda: 1.0)),
            "unwrap": lambda: s.unwrap(s.run(lambda: tf.constant(2.0))),
            "colocate_vars_with-outside-scope": lambda: s.colocate_vars_with(v) and None,
        }
        if what in calls:
            return _outcome(calls[what])
        return _outcome(lambda: getattr(e, what))
    return prog


_WHATS = ["should_checkpoint", "should_save_summary", "experimental_should_init", "experimental_between_graph",
          "experimental_require_static_shapes", "worker_devices_by_replica", "non_slot_devices", "read_var-variable",
          "read_var-sync-on-read", "read_var-tensor", "call_for_each_replica", "call_for_each_replica-args",
          "call_for_each_replica-in-replica", "unwrap", "colocate_vars_with-outside-scope"]
CASES = [(f"{k}-{w}", _program(k, w)) for k in ("mirrored2", "mirrored1", "central_storage2", "one_device1", "default1")
         for w in _WHATS]


def run_case(tf: Any, k: int) -> Any:
    return CASES[k][1](tf)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as real_tf
    cpu = real_tf.config.list_physical_devices("CPU")[0]
    real_tf.config.set_logical_device_configuration(cpu, [real_tf.config.LogicalDeviceConfiguration()] * 4)
    return {i: run_case(real_tf, i) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.clause("extended.v1-methods")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_extended_v1_method(index: int, tf_results: dict[int, Any]) -> None:
    got, want = run_case(sim_tf, index), tf_results[index]
    assert got == want, f"result={got!r}, but TF 2.21 gives {want!r} [{CASES[index][0]}]"


if __name__ == "__main__":  # TF worker: python test_extended_v1_methods_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
