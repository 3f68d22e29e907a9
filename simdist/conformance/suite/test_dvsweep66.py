"""Distributed variables under every strategy, by rule (dvsweep66): OneDeviceStrategy, CentralStorageStrategy and
MirroredStrategy × dtype × synchronization × aggregation → the variable's class name, its device, a per-replica
assign_add and read_value inside a tf.function run by strategy.run, the cross-replica read, and the error class where
TF refuses (aggregation NONE, MEAN of an integer, the cross-replica read of an ON_READ NONE variable).

Each program's expected result is TF 2.21's, observed by running it on TF with two logical CPUs
(`python -m simdist.conformance.suite.test_dvsweep66 --record`, which rewrites dvsweep66_reference.json.gz).
Values are exact small integers and halves, compared by their bits."""

from __future__ import annotations

import os
from typing import Any, Callable

import pytest

from simdist.conformance.suite.raw_bits import raw_bits as _raw
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "dvsweep66_reference.json.gz")
HOST_DEPENDENT: tuple[str, ...] = ()
REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _check = REF.add, REF.check

_SYNC = ("AUTO", "ON_WRITE", "ON_READ")
_AGG = ("NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA")
_DTYPES = ("float32", "float64", "int32", "int64")


def _cells(tf: Any, make: Callable[[], Any], dtypes: tuple[str, ...]) -> dict[str, Any]:
    """Every synchronization × aggregation × dtype under the strategy `make()` builds: class name, device suffix,
    the replicas' results of `v.assign_add(replica_id + 2); v.read_value()` in a tf.function, the cross-replica read."""
    out: dict[str, Any] = {}
    s = make()
    for dt in dtypes:
        for sy in _SYNC:
            for ag in _AGG:
                key = f"{dt} {sy} {ag}"
                try:
                    with s.scope():
                        v = tf.Variable(tf.constant(1, dt), synchronization=getattr(tf.VariableSynchronization, sy),
                                        aggregation=getattr(tf.VariableAggregation, ag))
                except Exception as e:   # noqa: BLE001 -- the refusal's class is the observation
                    out[key] = ["create error", type(e).__name__]
                    continue
                row: list[Any] = [type(v).__name__, str(v.device)[-5:]]

                @tf.function
                def step() -> Any:
                    def fn() -> Any:
                        rid = tf.distribute.get_replica_context().replica_id_in_sync_group
                        v.assign_add(tf.cast(rid + 2, dt))
                        return v.read_value()
                    return s.run(fn)
                try:
                    row.append([_raw(x) for x in s.experimental_local_results(step())])
                except Exception as e:   # noqa: BLE001
                    row.append(["run error", type(e).__name__])
                try:
                    row.append(_raw(v.read_value()))
                except Exception as e:   # noqa: BLE001
                    row.append(["read error", type(e).__name__])
                out[key] = row
    return out


def _one_replica(tf: Any, mk: Any) -> Any:
    mk()
    return {"one-device": _cells(tf, lambda: tf.distribute.OneDeviceStrategy("/cpu:0"), _DTYPES),
            "central storage 1": _cells(tf, lambda: tf.distribute.experimental.CentralStorageStrategy(["/cpu:0"]),
                                        ("float32", "int32"))}


def _two_replicas(tf: Any, mk: Any) -> Any:
    mk()
    devs = ["/cpu:0", "/cpu:1"]
    return {"central storage": _cells(tf, lambda: tf.distribute.experimental.CentralStorageStrategy(devs), _DTYPES),
            "mirrored": _cells(tf, lambda: tf.distribute.MirroredStrategy(devs), _DTYPES)}


_program("dv-one-replica", _one_replica)
_program("dv-two-replicas", _two_replicas)


@pytest.mark.clause("mirrored.aggregation")
def test_dvsweep66_one_replica_strategies_variables(backend: Any) -> None:
    """OneDevice and single-device CentralStorage: plain ResourceVariables whatever the synchronization/aggregation."""
    _check(backend, "dv-one-replica")


@pytest.mark.clause("mirrored.aggregation")
def test_dvsweep66_two_replica_variables_by_sync_and_aggregation(backend: Any) -> None:
    """CentralStorage (AggregatingVariable) and Mirrored (MirroredVariable/SyncOnReadVariable) on two CPUs: per-replica
    writes, reads in both contexts, and the refusals, by dtype × synchronization × aggregation."""
    _check(backend, "dv-two-replicas")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
