"""The distribution sweep with three and four replicas (sixtieth session, jsweep60; jsweep60_cases.py): strategy.reduce
of PerReplica, Mirrored, nests and IndexedSlices (SUM/MEAN × axis None/0/1 × six dtypes, values whose order of
addition matters), ReplicaContext.all_reduce over the ring's chunk sizes and all_gather, extended.reduce_to and
batch_reduce_to, distributed datasets whose global batches do not divide by the replicas, each replica's devices, and
a tf.function step replayed three times over sync-on-read and mirrored variables — under MirroredStrategy and
CentralStorageStrategy of three (j3-) and four (j4-) replicas, one replica for contrast — compared bit for bit with
TF 2.21's recorded results (`python -m simdist.conformance.suite.test_jsweep60 --record` rewrites
jsweep60_r3_reference.json.gz and jsweep60_r4_reference.json.gz, each in its own process)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.jsweep60_cases import REF3, REF4


def _check(backend: Any, name: str) -> None:
    (REF3 if name.startswith("j3-") else REF4).check(backend, name)


def _ids(suffix: str) -> list[str]:
    return [f"j{n}-{suffix}" for n in (3, 4)]


@pytest.mark.clause("reduce.axis-none")
@pytest.mark.parametrize("name", _ids("reduce-dense"))
def test_jsweep60_reduce_dense(backend: Any, name: str) -> None:
    """strategy.reduce SUM/MEAN × axis None/0/1 of PerReplica and Mirrored values in six dtypes over 3 and 4 replicas
    (mirrored, central storage, one replica): TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("reduce.nested")
@pytest.mark.parametrize("name", _ids("reduce-nested"))
def test_jsweep60_reduce_nests_and_slices(backend: Any, name: str) -> None:
    """strategy.reduce of dicts/tuples with PerReplica and Mirrored leaves and of IndexedSlices: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("reduce.ring-order")
@pytest.mark.parametrize("name", _ids("all-reduce"))
def test_jsweep60_all_reduce_ring_sizes(backend: Any, name: str) -> None:
    """ReplicaContext.all_reduce SUM/MEAN of 7, 64 and 300 order-sensitive elements in six dtypes: TF 2.21's bits in
    every replica."""
    _check(backend, name)


@pytest.mark.clause("gather.concat")
@pytest.mark.parametrize("name", _ids("all-gather"))
def test_jsweep60_all_gather_and_slices(backend: Any, name: str) -> None:
    """all_gather and strategy.gather along 0 and 1 (ragged along 0, nests), all_reduce of IndexedSlices: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("extended.reduce-to")
@pytest.mark.parametrize("name", _ids("reduce-to"))
def test_jsweep60_reduce_to_destinations(backend: Any, name: str) -> None:
    """extended.reduce_to and batch_reduce_to to device strings, values and variables: bits and devices, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("dataset.partial-batch-split")
@pytest.mark.parametrize("name", _ids("datasets"))
def test_jsweep60_distributed_datasets(backend: Any, name: str) -> None:
    """Distributed datasets with global batches not divisible by 3 or 4 replicas, drop_remainder, rebatching,
    InputOptions, distribute_datasets_from_function: each replica's values, shapes and devices, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("mirrored.local-devices-in-cluster")
@pytest.mark.parametrize("name", _ids("devices"))
def test_jsweep60_replica_devices(backend: Any, name: str) -> None:
    """worker/parameter devices, each replica's result device, ReplicaContext.devices, variables' devices,
    non_slot_devices: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("mirrored.sync-on-read")
@pytest.mark.parametrize("name", _ids("replay"))
def test_jsweep60_traced_step_replayed(backend: Any, name: str) -> None:
    """A tf.function step called three times writing each replica's value to sync-on-read (SUM/MEAN/ONLY_FIRST) and
    mirrored variables, reductions in the function: every copy after each call, TF 2.21's bits."""
    _check(backend, name)


assert set(REF3.programs) | set(REF4.programs) == {
    n for s in ("reduce-dense", "reduce-nested", "all-reduce", "all-gather", "reduce-to", "datasets", "devices",
                "replay") for n in _ids(s)}

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        if "3" in sys.argv[2:] or len(sys.argv) == 2:
            REF3.record()
        if "4" in sys.argv[2:]:
            REF4.record()
        if len(sys.argv) == 2:
            import subprocess
            subprocess.run([sys.executable, "-m", "simdist.conformance.suite.test_jsweep60", "--record", "4"],
                           check=True)
