"""Cross-device reductions and distributed-variable updates by rule (sixty-third session, dsweep63; dsweep63_cases.py):
each cross-device op × reduction API × SUM/MEAN × six dtypes, IndexedSlices through the reductions, MirroredVariable
and SyncOnRead updates per aggregation, extended.update's groups and kwargs, merge_call, colocate_vars_with — under
MirroredStrategy of two (d2-), three (d3-) and four (d4-) CPU replicas, compared bit for bit (and by device) with TF
2.21's recorded results (`python -m simdist.conformance.suite.test_dsweep63 --record` rewrites the three references,
each in its own process)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.dsweep63_cases import DTYPES, REFS


def _check(backend: Any, name: str) -> None:
    REFS[int(name[1])].check(backend, name)


def _ids(*suffixes: str) -> list[str]:
    return [f"d{n}-{s}" for s in suffixes for n in (2, 3, 4) if f"d{n}-{s}" in REFS[n].programs]


@pytest.mark.clause("extended.cross-device-ops")
@pytest.mark.parametrize("name", _ids(*[f"cdo-{d}" for d in DTYPES]))
def test_dsweep63_cross_device_ops_by_dtype(backend: Any, name: str) -> None:
    """The ring, ReductionToOneDevice (and to the last CPU), HierarchicalCopyAllReduce (num_packs 0/1/2) × all_reduce,
    reduce, reduce_to (three destinations), batch_reduce_to × SUM/MEAN: every copy's bits and device, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("extended.reduce-to")
@pytest.mark.parametrize("name", _ids("slices"))
def test_dsweep63_indexed_slices_through_reductions(backend: Any, name: str) -> None:
    """A gather's gradient per replica (same, different, duplicate, no indices) all-reduced, reduced, reduce_to'd and
    batch_reduce_to'd by three cross-device ops: values, indices, dense shape and kind, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("mirrored.aggregation")
@pytest.mark.parametrize("name", _ids("vars-mirrored"))
def test_dsweep63_mirrored_variable_updates(backend: Any, name: str) -> None:
    """MirroredVariable assign/assign_add/assign_sub per aggregation and dtype in replica and cross-replica context:
    every copy, the results, refusals, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("optim.update")
@pytest.mark.parametrize("name", _ids("vars-update"))
def test_dsweep63_update_kwargs_merge_call_colocation(backend: Any, name: str) -> None:
    """extended.update's args/kwargs/group in both contexts, update_non_slot, run's kwargs, merge_call's regrouped
    arguments, colocate_vars_with's devices and refusal: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("mirrored.sync-on-read")
@pytest.mark.parametrize("name", _ids("vars-sync"))
def test_dsweep63_sync_on_read_variables(backend: Any, name: str) -> None:
    """SyncOnRead SUM/MEAN/ONLY_FIRST_REPLICA variables written per replica and read/assigned across: TF 2.21's."""
    _check(backend, name)


if __name__ == "__main__":
    import subprocess
    import sys
    if "--record" in sys.argv:
        which = [int(a) for a in sys.argv[2:]] or [2, 3, 4]
        if len(which) == 1:
            REFS[which[0]].record()
        else:
            for n in which:
                subprocess.run([sys.executable, "-m", "simdist.conformance.suite.test_dsweep63", "--record", str(n)],
                               check=True)
