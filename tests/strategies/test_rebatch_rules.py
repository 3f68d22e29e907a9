"""Unit tests of the pure rebatch / auto-shard rules (simdist.semantics.rebatch, .autoshard) and of the
rebatch and shard kernels' rules (simdist.runtime.data.rebatch, .shard).

Expected values are TF 2.21's (tf-2.21-semantics.md §3 and TF's own rebatch/auto-shard tests).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from simdist.runtime import errors
from simdist.runtime.data import rebatch as rebatch_op
from simdist.runtime.data import shard as shard_op
from simdist.semantics import autoshard, rebatch


def node(kind: str, *inputs: object, **params: object) -> SimpleNamespace:
    return SimpleNamespace(kind=kind, inputs=tuple(inputs), params=params)


def arrays(batches: list[list[int]]) -> list[list[np.ndarray]]:
    return [[np.asarray(b, dtype=np.int64)] for b in batches]


def rows(out: object) -> list[list[int]]:
    return [c[0].tolist() for c in out]


# --- batch_sizes_for_worker --------------------------------------------------------------------------
@pytest.mark.parametrize("g,w,r,expected", [
    (7, 2, 2, [[2, 2, 2, 1], [2, 1, 2, 2]]),
    (4, 3, 1, [[2, 1, 1], [1, 1, 2], [1, 2, 1]]),
    (8, 1, 4, [[2, 2, 2, 2]]),
    (2, 1, 3, [[1, 1, 0]]),
    (5, 1, 2, [[3, 2]]),
])
def test_batch_sizes_for_worker(g: int, w: int, r: int, expected: list[list[int]]) -> None:
    got = [rebatch.batch_sizes_for_worker(g, w, r, i) for i in range(w)]
    assert got == expected, f"batch_sizes_for_worker(G={g}, W={w}, r={r}) = {got}, but should be {expected}"


@pytest.mark.parametrize("g,w,r", [(7, 2, 2), (13, 3, 2), (1, 2, 2), (100, 4, 3)])
def test_batch_sizes_constraints(g: int, w: int, r: int) -> None:
    """TF's constraints (A)-(D): W*r entries, each worker sums to G, each step sums to G, sizes differ by <= 1."""
    lists = [rebatch.batch_sizes_for_worker(g, w, r, i) for i in range(w)]
    assert all(len(l) == w * r for l in lists), f"lengths {[len(l) for l in lists]}, but should be {w * r}"
    assert all(sum(l) == g for l in lists), f"sums {[sum(l) for l in lists]}, but should all be {g}"
    for step in range(w):
        total = sum(sum(lists[i][step * r:(step + 1) * r]) for i in range(w))
        assert total == g, f"global step {step} consumes {total}, but should consume {g}"
    flat = [s for l in lists for s in l]
    assert max(flat) - min(flat) <= 1, f"sizes {flat} differ by more than 1"


# --- compute_batch_size --------------------------------------------------------------------------------
def test_static_batch_size_rules() -> None:
    assert rebatch.static_batch_size([[4], [4, 3]]) == 4, "equal static dims should give that dim"
    assert rebatch.static_batch_size([[4], [2]]) == -1, "unequal static dims should give -1"
    assert rebatch.static_batch_size([[None], [4]]) is None, "an unknown dim should defer to the graph"
    assert rebatch.static_batch_size([None]) is None, "unknown rank should defer to the graph"


def test_static_batch_size_scalar_raises_index_error() -> None:
    with pytest.raises(IndexError, match="^list index out of range$"):
        rebatch.static_batch_size([[]])


def test_graph_batch_size_walks_pass_through_ops() -> None:
    batch = node("BatchDatasetV2", node("RangeDataset"), batch_size=4)
    for kind in ("PrefetchDataset", "OptionsDataset", "ShuffleDatasetV3", "RepeatDataset", "TakeDataset",
                 "SkipDataset", "ShardDataset", "FilterDataset", "CacheDatasetV2"):
        got = rebatch.graph_batch_size(node(kind, batch))
        assert got == 4, f"graph_batch_size through {kind} = {got}, but should be 4"
    for kind in ("MapDataset", "ParallelMapDatasetV2", "UnbatchDataset", "FlatMapDataset", "RebatchDatasetV2"):
        got = rebatch.graph_batch_size(node(kind, batch))
        assert got == -1, f"graph_batch_size through {kind} = {got}, but should be -1"
    zipped = node("ZipDataset", batch, node("BatchDatasetV2", node("RangeDataset"), batch_size=3))
    assert rebatch.graph_batch_size(zipped) == -1, "zip of different batch sizes should give -1"
    same = node("ZipDataset", batch, batch)
    assert rebatch.graph_batch_size(same) == 4, "zip of equal batch sizes should give that size"
    assert rebatch.graph_batch_size(node("RangeDataset")) == -1, "no batch upstream should give -1"


# --- legacy split --------------------------------------------------------------------------------------
@pytest.mark.parametrize("b,r,expected", [
    (4, 3, [(0, 2), (2, 4), (4, 4)]),
    (5, 2, [(0, 3), (3, 5)]),
    (1, 4, [(0, 1), (1, 1), (1, 1), (1, 1)]),
    (0, 2, [(0, 0), (0, 0)]),
    (8, 4, [(0, 2), (2, 4), (4, 6), (6, 8)]),
])
def test_legacy_split_bounds(b: int, r: int, expected: list[tuple[int, int]]) -> None:
    got = rebatch_op.legacy_split_bounds(b, r)
    assert got == expected, f"legacy_split_bounds({b}, {r}) = {got}, but should be {expected}"


def test_legacy_rebatch_example_from_tf_docstring() -> None:
    got = rows(rebatch_op.iter_legacy_rebatch(arrays([[0, 1, 2, 3], [4, 5, 6, 7]]), 3))
    assert got == [[0, 1], [2, 3], [], [4, 5], [6, 7], []], f"legacy rebatch of range(8).batch(4) over 3 = {got}"


def test_legacy_rebatch_slices_components_independently() -> None:
    out = list(rebatch_op.iter_legacy_rebatch([[np.arange(4), np.arange(2)]], 2))
    got = [[c.tolist() for c in o] for o in out]
    assert got == [[[0, 1], [0]], [[2, 3], [1]]], f"per-component legacy split = {got}"


def test_legacy_rebatch_scalar_component_error() -> None:
    with pytest.raises(errors.InvalidArgumentError, match="Component 0 is scalar"):
        list(rebatch_op.iter_legacy_rebatch([[np.asarray(3)]], 2))


# --- RebatchV2 ----------------------------------------------------------------------------------------
def v2(batches: list[list[int]], sizes: list[int], drop: bool = False) -> list[list[int]]:
    return rows(rebatch_op.iter_rebatch_v2(arrays(batches), sizes, drop, [[None]], [np.int64]))


def test_rebatch_v2_concatenates_across_batches() -> None:
    got = v2([[0, 1, 2, 3], [4]], [2, 2])
    assert got == [[0, 1], [2, 3], [4]], f"range(5).batch(4) rebatched [2,2] = {got}"
    got = v2([[0, 1, 2], [3, 4, 5], [6]], [4])
    assert got == [[0, 1, 2, 3], [4, 5, 6]], f"slices should concatenate across input batches, got {got}"


def test_rebatch_v2_drop_remainder_and_zero_sizes() -> None:
    got = v2([[0, 1, 2, 3], [4, 5, 6]], [3], drop=True)
    assert got == [[0, 1, 2], [3, 4, 5]], f"drop_remainder should drop the short tail, got {got}"
    got = v2([[0, 1], [2]], [1, 0])
    assert got == [[0], [], [1], [], [2], []], f"batch size 0 should emit empty batches (TF 2.21), got {got}"


def test_rebatch_v2_mismatched_components_error() -> None:
    bad = [[np.arange(3), np.arange(2)]]
    with pytest.raises(errors.InvalidArgumentError, match="Component 0 had size 3 but component 1 had size, 2"):
        list(rebatch_op.iter_rebatch_v2(bad, [2], False, [[None], [None]], [np.int64, np.int64]))


def test_rebatch_v2_static_dim() -> None:
    assert rebatch_op.rebatch_v2_static_dim([2, 2], [4], False) == 2, "4 into [2,2] is static 2"
    assert rebatch_op.rebatch_v2_static_dim([2, 2], [None], False) is None, "unknown input dim gives None"
    assert rebatch_op.rebatch_v2_static_dim([2, 1], [3], False) is None, "unequal sizes give None"
    assert rebatch_op.rebatch_v2_static_dim([3], [4], False) is None, "4 % 3 != 0 gives None"
    assert rebatch_op.rebatch_v2_static_dim([3], [4], True) == 3, "drop_remainder makes it static"


# --- partial steps / dummies ----------------------------------------------------------------------------
@pytest.mark.parametrize("shape,expected", [
    ([None], (0,)), ([2], (0,)), ([None, 3], (0, 3)), ([3, 2], (0, 2)), ([2, None], (2, 0)), ([], ()), (None, ()),
])
def test_dummy_shape(shape: object, expected: tuple[int, ...]) -> None:
    got = rebatch.dummy_shape(shape)
    assert got == expected, f"dummy_shape({shape}) = {got}, but should be {expected}"


def test_partial_batches_enabled_rule() -> None:
    assert rebatch.partial_batches_enabled(True, 3, False, False), "dynamic shapes enable partial batches"
    assert not rebatch.partial_batches_enabled(True, 3, True, False), "static shapes, one worker: disabled"
    assert rebatch.partial_batches_enabled(True, 3, True, True), "static shapes, multi-worker: enabled"
    assert not rebatch.partial_batches_enabled(True, -1, False, True), "infinite datasets: disabled"
    assert not rebatch.partial_batches_enabled(False, 3, False, True), "strategy flag off: disabled"


def test_step_outcome() -> None:
    assert rebatch.step_outcome([True, True], False) == "full"
    assert rebatch.step_outcome([True, False], True) == "partial"
    assert rebatch.step_outcome([True, False], False) == "end"
    assert rebatch.step_outcome([False, False], True) == "end"


def test_replica_element_index_round_robin() -> None:
    got = [[rebatch.replica_element_index(s, 3, j) for j in range(3)] for s in range(2)]
    assert got == [[0, 1, 2], [3, 4, 5]], f"round-robin indices = {got}"


def test_get_per_replica_batch_size_error_message() -> None:
    assert rebatch.global_batch_rows(12, 6) == 2
    with pytest.raises(ValueError) as e:
        rebatch.global_batch_rows(13, 6)
    assert str(e.value) == "The `global_batch_size` 13 is not divisible by `num_replicas_in_sync` 6 ", str(e.value)


def test_replicas_must_divide_workers() -> None:
    with pytest.raises(ValueError, match=r"`num_replicas_in_sync` \(3\) that cannot be divided by `num_workers` \(2\)"):
        rebatch.check_replicas_divide(3, 2)


# --- auto-shard ----------------------------------------------------------------------------------------
P = autoshard.AutoShardPolicy


def test_policy_enum_values_as_tf() -> None:
    got = {p.name: int(p) for p in P}
    assert got == {"OFF": -1, "AUTO": 0, "FILE": 1, "DATA": 2, "HINT": 3}, got


def test_plan_off_and_file_single_worker_do_nothing() -> None:
    for plan in (autoshard.plan_autoshard(P.OFF, 2, 1, "x"), autoshard.plan_autoshard(P.FILE, 1, 0, "x")):
        assert not (plan.insert_shard or plan.rewrite_rebatch_v2 or plan.replace_shard_hint), plan


def test_plan_auto_falls_back_to_data_with_tf_log() -> None:
    err = autoshard.file_shard_error(node("BatchDatasetV2", node("RangeDataset"), batch_size=2))
    assert err is not None and err.startswith("Found an unshardable source dataset: "), err
    plan = autoshard.plan_autoshard(P.AUTO, 1, 0, err)
    assert plan.policy_applied == P.DATA and plan.insert_shard and plan.rewrite_rebatch_v2, plan
    assert plan.log is not None and plan.log.startswith("AUTO sharding policy will apply DATA sharding policy"), plan.log


def test_plan_file_on_in_memory_source_is_not_found() -> None:
    err = autoshard.file_shard_error(node("TensorSliceDataset"))
    with pytest.raises(errors.NotFoundError, match="Found an unshardable source dataset"):
        autoshard.plan_autoshard(P.FILE, 2, 0, err)


def test_file_walk_stops_at_non_pass_through_node() -> None:
    err = autoshard.file_shard_error(node("PrefetchDataset", node("UnbatchDataset", node("RangeDataset"))))
    assert err is not None and err.startswith("Did not find a shardable source, walked to a node which is not a dataset"), err


def test_plan_hint_and_data() -> None:
    plan = autoshard.plan_autoshard(P.HINT, 2, 1, None)
    assert plan.replace_shard_hint and not plan.insert_shard, plan
    plan = autoshard.plan_autoshard(P.DATA, 2, 1, None)
    assert plan.insert_shard and plan.rewrite_rebatch_v2 and not plan.replace_shard_hint, plan


def test_trailing_count() -> None:
    got = autoshard.trailing_count(["PrefetchDataset", "OptionsDataset", "RebatchDatasetV2", "PrefetchDataset"])
    assert got == 2, f"trailing_count = {got}, but should be 2"


@pytest.mark.parametrize("n,i,msg", [
    (0, 0, "Number of shards must be greater than zero (currently num_shards = 0)."),
    (2, 2, "Index must be between 0 and 1 (currently index = 2)."),
    (2, -1, "Index must be between 0 and 1 (currently index = -1)."),
])
def test_shard_argument_errors(n: int, i: int, msg: str) -> None:
    with pytest.raises(errors.InvalidArgumentError) as e:
        shard_op.check_shard_args(n, i)
    assert str(e.value) == msg, f"message {str(e.value)!r}, but should be {msg!r}"
