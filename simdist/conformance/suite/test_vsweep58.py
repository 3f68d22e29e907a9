"""The stateful sweep (fifty-eighth session, vsweep58; vsweep58_cases.py): distributed variables of every dtype under
each aggregation x synchronization and strategy (MirroredStrategy over two CPUs, OneDeviceStrategy,
CentralStorageStrategy), written inside strategy.run eagerly and traced and read per replica; cross-replica
reductions and gathers of every dtype along each axis; checkpoints of every dtype and synchronization saved under one
strategy and restored under another (deferred too), CheckpointManager's options and the readers' key spellings;
tf.random.Generator from states at the 32- and 64-bit carries of its Philox counter, every method and draw, in
tf.function across calls, under strategy.run, checkpointed mid-stream. Expected results are TF 2.21's, recorded on
an AVX-512 Xeon with oneDNN on (`python -m simdist.conformance.suite.test_vsweep58 --record` rewrites
vsweep58_reference.json.gz); no program is host-dependent."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.vsweep58_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("mirrored.aggregation")
@pytest.mark.parametrize("name", _ids("v-var-"))
def test_vsweep58_variables_by_aggregation_synchronization_and_dtype(backend: Any, name: str) -> None:
    """Each aggregation x synchronization of a variable of each dtype under each strategy: made or refused, then
    assign/assign_add/assign_sub/scatter_update/scatter_add of per-replica values in strategy.run (eager and traced),
    the per-replica values after each, the read and strategy.reduce of it: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("reduce.dtypes")
@pytest.mark.parametrize("name", _ids("v-reduce-") + _ids("v-update-"))
def test_vsweep58_cross_replica_reductions_of_every_dtype(backend: Any, name: str) -> None:
    """all_reduce SUM/MEAN, all_gather along each axis, strategy.reduce SUM/MEAN along None/0/1 (traced too) and
    strategy.gather of every dtype (means of integers and bools), extended.update and colocate_vars_with: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("checkpoint.restore-status")
@pytest.mark.parametrize("name", _ids("v-ck-"))
def test_vsweep58_checkpoints_across_strategies_and_dtypes(backend: Any, name: str) -> None:
    """Variables of every dtype and synchronization saved under one strategy and restored under another (and
    deferred), the statuses' asserts, list_variables/load_variable spellings, CheckpointManager's options: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("ops.philox-counter-wrap")
@pytest.mark.parametrize("name", _ids("v-gen-"))
def test_vsweep58_generators_at_the_counter_carries(backend: Any, name: str) -> None:
    """tf.random.Generator from states at the 32- and 64-bit carries, every method and draw dtype, skip/split/
    make_seeds, in tf.function across calls, under strategy.run, checkpointed mid-stream: TF 2.21's bits."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
