"""Distributed variables under every strategy, by rule (dvsweep66b, continuing dvsweep66): Mirrored and
CentralStorage on two CPUs × dtype (float32/float64/int32/int64/bool) × synchronization × aggregation × every write
method (assign, assign_add, assign_sub, scatter_update/add/sub) in replica context and in cross-replica context
(tensor, list, NumPy, slice assign), device-scoped reads, tf.gather, merge_call with extended.update / reduce_to /
batch_reduce_to / read_var; and ParameterServerStrategy with its ClusterCoordinator on two ps tasks: round-robin
placement, class names by synchronization × aggregation, scheduled writes, ShardedVariable (FixedShardsPartitioner)
shards, methods and checkpoint.

Expected results are TF 2.21's: the local programs by `python -m simdist.conformance.suite.test_dvsweep66b --record`
(dvsweep66b_reference.json.gz), the cluster programs by `... --record-ps` (TF's in-process servers, the tensorflow
backend's make_ps_cluster; dvsweep66b_ps_reference.json.gz). Values are exact small numbers, compared by bits."""

from __future__ import annotations

import gzip
import json
import os
from typing import Any, Callable

import pytest

from simdist.conformance.suite import dvsweep66b_cases as C
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "dvsweep66b_reference.json.gz")
PS_PATH = os.path.join(os.path.dirname(__file__), "dvsweep66b_ps_reference.json.gz")
HOST_DEPENDENT: tuple[str, ...] = ()
REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _check = REF.add, REF.check
_DEVS = ("/cpu:0", "/cpu:1")


def _mirrored(tf: Any, mk: Any) -> Any:
    return mk()


def _central(tf: Any, mk: Any) -> Any:
    mk()
    return tf.distribute.experimental.CentralStorageStrategy(list(_DEVS))


_program("dvb-replica-mirrored", lambda tf, mk: C.replica_writes(tf, _mirrored(tf, mk)))
_program("dvb-replica-central", lambda tf, mk: C.replica_writes(tf, _central(tf, mk)))
_program("dvb-cross-mirrored", lambda tf, mk: C.cross_writes(tf, _mirrored(tf, mk), _DEVS))
_program("dvb-cross-central", lambda tf, mk: C.cross_writes(tf, _central(tf, mk), _DEVS))
_program("dvb-merge-mirrored", lambda tf, mk: C.merge_calls(tf, _mirrored(tf, mk)))
_program("dvb-merge-central", lambda tf, mk: C.merge_calls(tf, _central(tf, mk)))

_PS: dict[str, tuple[Callable[[Any], Any], Callable[[Any, Any], Any]]] = {
    "ps-plain": (lambda tf: None, C.ps_plain),
    "ps-sharded": (lambda tf: tf.distribute.experimental.partitioners.FixedShardsPartitioner(2), C.ps_sharded),
}


def _run_ps(backend: Any, name: str) -> Any:
    part, prog = _PS[name]
    cluster = backend.make_ps_cluster(workers=1, ps=2, variable_partitioner=part(backend.tf))
    return json.loads(json.dumps(prog(backend.tf, cluster)))


@pytest.mark.clause("mirrored.aggregation")
@pytest.mark.parametrize("name", ["dvb-replica-mirrored", "dvb-replica-central"])
def test_dvsweep66b_replica_context_writes_by_method(backend: Any, name: str) -> None:
    """Each write method of per-replica values in a tf.function run by strategy.run, by dtype × sync × aggregation:
    the replicas' reads, the copies, the cross-replica read, or the error class TF raises."""
    _check(backend, name)


@pytest.mark.clause("mirrored.aggregation")
@pytest.mark.clause("mirrored.variables")
@pytest.mark.clause("mirrored.sync-on-read")
@pytest.mark.clause("mirrored.scatter")
@pytest.mark.parametrize("name", ["dvb-cross-mirrored", "dvb-cross-central"])
def test_dvsweep66b_cross_replica_writes_and_device_scoped_reads(backend: Any, name: str) -> None:
    """Cross-replica writes (tensor, list, NumPy, slice, scatter) by dtype × sync × aggregation: the result's type,
    the copies, the read, reads under tf.device of each replica's device, tf.gather."""
    _check(backend, name)


@pytest.mark.clause("mirrored.aggregation")
@pytest.mark.parametrize("name", ["dvb-merge-mirrored", "dvb-merge-central"])
def test_dvsweep66b_merge_call_update_and_reductions(backend: Any, name: str) -> None:
    """merge_call: reduce_to then extended.update, update with per-replica args, batch_reduce_to of variables,
    read_var of a sync-on-read variable; in cross-replica context too."""
    _check(backend, name)


@pytest.mark.clause("pss.round-robin")
@pytest.mark.clause("pss.sharded-variable")
@pytest.mark.clause("pss.sharded-gather")
@pytest.mark.requires("multi_worker")
@pytest.mark.parametrize("name", sorted(_PS))
def test_dvsweep66b_parameter_server_variables(backend: Any, name: str) -> None:
    """ParameterServerStrategy on two ps tasks: placement, class names, coordinator-scheduled writes; with
    FixedShardsPartitioner(2): ShardedVariable's shards, methods and checkpoint round trip."""
    with gzip.open(PS_PATH, "rt") as f:
        want = json.load(f)[name]
    got = _run_ps(backend, name)
    assert got == want, f"{name}: TF 2.21 gives {str(want)[:900]}\n got {str(got)[:900]}"


def _record_ps() -> None:
    from simdist.conformance.backends.tf_backend import TensorFlowBackend  # noqa: PLC0415
    backend = TensorFlowBackend()
    out = {name: _run_ps(backend, name) for name in sorted(_PS)}
    with gzip.open(PS_PATH, "wt") as f:
        json.dump(out, f, sort_keys=True)
    print(f"wrote {PS_PATH}: {len(out)} programs")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
    if "--record-ps" in sys.argv:
        _record_ps()
