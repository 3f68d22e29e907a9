"""The collectives sweep by rule (sixty-first session, rsweep61; rsweep61_cases.py): ReplicaContext.all_reduce at every
ring chunk boundary in five dtypes with order-sensitive and special values, a tf.function's packs by
CommunicationOptions(bytes_per_pack, implementation), batch_reduce_to/reduce_to with options and destinations,
MirroredStrategy's other cross-device ops (ReductionToOneDevice, HierarchicalCopyAllReduce, NcclAllReduce on CPUs),
all_gather of uneven shapes, gradients through the collectives, and a one-worker MultiWorkerMirroredStrategy — under
MirroredStrategy of three (r3-) and four (r4-) CPU replicas, compared bit for bit (and by device) with TF 2.21's
recorded results (`python -m simdist.conformance.suite.test_rsweep61 --record` rewrites rsweep61_r3_reference.json.gz
and rsweep61_r4_reference.json.gz, each in its own process)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.rsweep61_cases import FLOATS, REF3, REF4


def _check(backend: Any, name: str) -> None:
    (REF3 if name.startswith("r3-") else REF4).check(backend, name)


def _ids(*suffixes: str) -> list[str]:
    return [n for s in suffixes for n in (f"r3-{s}", f"r4-{s}") if n in REF3.programs or n in REF4.programs]


@pytest.mark.clause("reduce.ring-order")
@pytest.mark.parametrize("name", _ids(*[f"ring-{d}" for d in FLOATS + ("int64",)], "ring-shapes", "ring-specials"))
def test_rsweep61_ring_chunk_boundaries(backend: Any, name: str) -> None:
    """all_reduce SUM/MEAN at, below and above every chunk boundary of the ring (and 0, 1, r - 1, r, r + 1 elements),
    rank 0 to 3 shapes, inf/NaN/-0.0/subnormal/overflowing values: every replica's bits and device, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("reduce.ring-order")
@pytest.mark.parametrize("name", _ids("packs"))
def test_rsweep61_traced_packs_by_options(backend: Any, name: str) -> None:
    """A tf.function's nest all_reduce under CommunicationOptions(bytes_per_pack around each pack's bytes,
    implementation AUTO/RING/NCCL), half types, mixed dtypes: TF 2.21's bits or error class."""
    _check(backend, name)


@pytest.mark.clause("extended.reduce-to")
@pytest.mark.parametrize("name", _ids("batch-reduce"))
def test_rsweep61_batch_reduce_to_with_options(backend: Any, name: str) -> None:
    """extended.batch_reduce_to of seven values with options to three kinds of destination, eager and traced;
    reduce_to and reduce at chunk boundaries: bits and devices, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("gather.concat")
@pytest.mark.parametrize("name", _ids("all-gather"))
def test_rsweep61_all_gather_uneven(backend: Any, name: str) -> None:
    """all_gather of 0 to 17 rows per replica in six dtypes, eager and traced, along 1 uneven, a nest: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("replica.all-reduce-gradient")
@pytest.mark.parametrize("name", _ids("grads"))
def test_rsweep61_gradients_through_collectives(backend: Any, name: str) -> None:
    """A tape inside strategy.run through all_reduce SUM/MEAN and all_gather along 0 (uneven) and 1: each replica's
    gradient bits, eager and traced, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("extended.cross-device-ops")
@pytest.mark.parametrize("name", _ids("cross-device-ops", "nccl"))
def test_rsweep61_cross_device_ops_on_cpus(backend: Any, name: str) -> None:
    """MirroredStrategy with ReductionToOneDevice (reduce_to_device, accumulation_fn), HierarchicalCopyAllReduce
    (num_packs 0/1/2) and NcclAllReduce on CPUs: all_reduce, reduce, batch_reduce_to, all_gather, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("mwms.single-worker")
@pytest.mark.parametrize("name", _ids("mwms"))
def test_rsweep61_one_worker_multi_worker_mirrored(backend: Any, name: str) -> None:
    """MultiWorkerMirroredStrategy() in one process, one worker: its collectives with options, reduce, gather,
    variables and a gradient through all_reduce, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("reduce.same-object-leaves")
@pytest.mark.parametrize("name", _ids("edges"))
def test_rsweep61_collective_argument_edges(backend: Any, name: str) -> None:
    """Captured (same-object) tensors all-gathered and all-reduced, CrossDeviceOps objects' reduce/batch_reduce onto
    matching, other and mixed destinations, nests mixing int32/int64/float leaves, axes at the rank: TF 2.21's."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        if "3" in sys.argv[2:] or len(sys.argv) == 2:
            REF3.record()
        if "4" in sys.argv[2:]:
            REF4.record()
        if len(sys.argv) == 2:
            import subprocess
            subprocess.run([sys.executable, "-m", "simdist.conformance.suite.test_rsweep61", "--record", "4"],
                           check=True)
