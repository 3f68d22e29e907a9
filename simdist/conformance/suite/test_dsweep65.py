"""tf.data transformations by option value (sixty-fifth session, dsweep65; dsweep65_cases.py): every Dataset
transformation simdist implements × num_parallel_calls (None, 0, 1, 2, AUTOTUNE, -2, -3, tensors), deterministic,
buffer sizes, counts, drop_remainder, batch sizes, cycle/block lengths, shard edges, seeds with
reshuffle_each_iteration, name= — construction or its refusal's class, element spec, cardinality and elements —
and experimental_distribute_dataset / distribute_datasets_from_function of the same pipelines under a mirrored
strategy of two CPUs, compared with TF 2.21's recorded answers (`python -m simdist.conformance.suite.test_dsweep65
--record` rewrites dsweep65_reference.json.gz). Where TF 2.21's iteration hangs or ends the process (batch with
num_parallel_calls 0, -2, -3; rebatch(-1)) the case compares construction, spec and cardinality only."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.dsweep65_cases import REF

_check = REF.check


@pytest.mark.clause("dataset.api-surface")
@pytest.mark.parametrize("name", ["d-map", "d-batch", "d-counts", "d-buffers", "d-functions", "d-combine",
                                  "d-slices"])
def test_dsweep65_transformations_by_option_value(backend: Any, name: str) -> None:
    """map/batch/padded_batch/rebatch/ragged_batch/unbatch, repeat/take/skip/shard/enumerate/range/window,
    prefetch/cache/with_options, filter/scan/reduce/take_while/unique/group_by_window/bucketing/apply,
    zip/concatenate/sample/choose/from_tensor_slices at every option value by kind: TF 2.21's construction,
    spec, cardinality and elements, or its refusal's class and when it comes."""
    _check(backend, name)


@pytest.mark.clause("dataset.interleave")
def test_dsweep65_interleave_cycle_block_and_parallelism(backend: Any) -> None:
    """interleave × cycle_length × block_length (None, 0, AUTOTUNE, -2, 1, 2, 50, a tensor) and × num_parallel_calls
    × deterministic (the parallel kernel's AUTOTUNE cycle length), flat_map: TF 2.21's order or refusal."""
    _check(backend, "d-interleave")


@pytest.mark.clause("dataset.shuffle")
def test_dsweep65_shuffle_buffer_seed_and_reshuffle(backend: Any) -> None:
    """shuffle × buffer size (0, 1, AUTOTUNE, -2, 3, 100, a tensor) × seed (None under a global seed, 7) ×
    reshuffle_each_iteration, each iterated twice; shuffle before repeat and batch: TF 2.21's orders."""
    _check(backend, "d-shuffle")


@pytest.mark.clause("dataset.partial-batch-split")
def test_dsweep65_distributed_pipelines_by_option_value(backend: Any) -> None:
    """experimental_distribute_dataset of batch sizes 1..8 with and without drop_remainder, tensor sizes, parallel
    and map num_parallel_calls=0 pipelines, rebatch/prefetch/shuffle/repeat/take/shard after the batch, ragged
    batches; distribute_datasets_from_function's contexts and per-replica batches (Mirrored, 2 CPUs): each step's
    per-replica values."""
    _check(backend, "d-dist")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
