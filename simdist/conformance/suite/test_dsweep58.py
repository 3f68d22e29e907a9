"""The tf.data sweep (fifty-eighth session, dsweep58; dsweep58_cases.py): every source and transformation of
tf.data.Dataset crossed by rule over its options (each off its default and omitted), value ranges and edge sizes,
with distributed datasets over two replicas and Keras fit over a partial last batch. Each observation: elements
(floats by their bits), element_spec, cardinality and error classes. Expected results are TF 2.21's, recorded on an
AVX-512 Xeon with oneDNN on (`python -m simdist.conformance.suite.test_dsweep58 --record` rewrites
dsweep58_reference.json.gz); the `dk-` program (float32 products of a Dense layer) is host-dependent."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.dsweep58_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("dataset.api-surface")
@pytest.mark.parametrize("name", _ids("ds-src-"))
def test_dsweep58_sources(backend: Any, name: str) -> None:
    """from_tensor_slices/from_tensors of every dtype and structure, range with every argument form and output_type,
    zip/concatenate, from_generator, Counter, choose_from_datasets and sample_from_datasets (seeded, weights,
    stop_on_empty_dataset): elements, element_spec, cardinality, error classes as TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("dataset.batching")
@pytest.mark.parametrize("name", ["ds-batch", "ds-padded-batch", "ds-rebatch", "ds-window", "ds-ragged-batch"])
def test_dsweep58_batching(backend: Any, name: str) -> None:
    """batch (sizes 1, n-1, n, n+1, 2n; drop_remainder; num_parallel_calls; deterministic), padded_batch
    (padded_shapes omitted/None/explicit, padding_values, drop_remainder), unbatch, rebatch (int and list sizes),
    window (size, shift, stride, drop_remainder) + flat_map, ragged_batch: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("dataset.function-trace")
@pytest.mark.parametrize("name", ["ds-map", "ds-interleave"])
def test_dsweep58_map_filter_interleave(backend: Any, name: str) -> None:
    """map (num_parallel_calls x deterministic, tuple/dict arguments and results), filter, flat_map, interleave
    (cycle_length x block_length, num_parallel_calls x deterministic): TF 2.21's elements, specs and cardinalities."""
    _check(backend, name)


@pytest.mark.clause("dataset.shuffle")
@pytest.mark.parametrize("name", ["ds-shuffle", "ds-repeat-take-skip", "ds-shard"])
def test_dsweep58_order_and_counts(backend: Any, name: str) -> None:
    """shuffle (buffers 1, n-1, n, n+1, >n; op and global seeds; reshuffle_each_iteration over epochs), repeat
    (None, -1, 0, 1, n), take/skip (negative, over the end, infinite and unknown inputs), shard: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("dataset.scan-take-while-unique")
@pytest.mark.parametrize("name", ["ds-misc", "ds-group", "ds-edges"])
def test_dsweep58_stateful_transformations(backend: Any, name: str) -> None:
    """cache, prefetch, enumerate(start), scan, reduce, unique, ignore_errors, take_while, apply, group_by_window,
    bucket_by_sequence_length; iteration past an element's error through take/skip/zip, iterators at their end
    (get_next, next, get_next_as_optional), refusals (zip of a list, apply of a non-dataset, len): TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("dataset.api-surface")
@pytest.mark.parametrize("name", ["ds-options"])
def test_dsweep58_options(backend: Any, name: str) -> None:
    """tf.data.Options: every field's default, a dataset's options, each field set (and the elements unchanged),
    merged options, refusals: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("dataset.partial-batch-split")
@pytest.mark.parametrize("name", ["ds-dist", "dk-fit-partial"])
def test_dsweep58_distributed_datasets(backend: Any, name: str) -> None:
    """experimental_distribute_dataset over two replicas (partial last batches, auto-shard policies, element_spec,
    get_next_as_optional, InputOptions), distribute_datasets_from_function (InputContext fields), a step over a
    partial batch, Keras fit/evaluate over a partial last batch (default and mirrored): TF 2.21's."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
