"""Distributed input (simdist.strategies.input) against TF 2.21's observed outputs.

Goes through `distribute_dataset` / `distribute_datasets_from_function` with an InputLayout, so
it does not depend on the strategies. Values are TF 2.21's (tf-2.21-semantics.md §3, §4, and
runs of input_lib_test's multi-worker cases).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from simdist.runtime import data, errors
from simdist.runtime.values import PerReplica
from simdist.strategies import input as dinput

D = data.Dataset
P = data.experimental.AutoShardPolicy
LOCAL = "/job:localhost/replica:0/task:0/device:CPU:{}"


def layout(num_replicas: int, num_workers: int = 1, partial: bool = True) -> dinput.InputLayout:
    r = num_replicas // num_workers
    if num_workers == 1:
        return dinput.InputLayout((tuple(LOCAL.format(j) for j in range(r)),), (LOCAL.format(0),),
                                  partial_batches=partial)
    devs = tuple(tuple(f"/job:worker/replica:0/task:{w}/device:CPU:{j}" for j in range(r)) for w in range(num_workers))
    hosts = tuple(f"/job:worker/replica:0/task:{w}/device:CPU:0" for w in range(num_workers))
    return dinput.InputLayout(devs, hosts, partial_batches=partial)


def with_policy(ds: data.Dataset, policy: P) -> data.Dataset:
    o = data.Options()
    o.experimental_distribute.auto_shard_policy = policy
    return ds.with_options(o)


def steps(dd: Any) -> list[list[list[Any]]]:
    """Per step, per replica, the values as lists."""
    out = []
    for s in dd:
        assert isinstance(s, PerReplica), f"a step of a multi-replica dataset should be PerReplica, got {type(s)}"
        out.append([v.numpy().tolist() for v in s.values])
    return out


# --- semantics §3 "Observed outputs [2.21]" ---------------------------------------------------------------
TABLE = [
    # (name, dataset factory, R, AUTO/DATA steps, OFF steps)
    ("range(6).batch(4) R=2", lambda: D.range(6).batch(4), 2,
     [[[0, 1], [2, 3]], [[4], [5]]], [[[0, 1], [2, 3]], [[4, 5], []]]),
    ("range(13).batch(5) R=2", lambda: D.range(13).batch(5), 2,
     [[[0, 1, 2], [3, 4]], [[5, 6, 7], [8, 9]], [[10, 11], [12]]],
     [[[0, 1, 2], [3, 4]], [[5, 6, 7], [8, 9]], [[10, 11, 12], []]]),
    ("range(8).batch(4) R=3", lambda: D.range(8).batch(4), 3,
     [[[0, 1], [2, 3], []], [[4, 5], [6, 7], []]], [[[0, 1], [2], [3]], [[4, 5], [6], [7]]]),
    ("range(14).batch(8) R=4", lambda: D.range(14).batch(8), 4,
     [[[0, 1], [2, 3], [4, 5], [6, 7]], [[8, 9], [10, 11], [12, 13], []]],
     [[[0, 1], [2, 3], [4, 5], [6, 7]], [[8, 9], [10, 11], [12, 13], []]]),
    ("range(5).batch(4) R=4", lambda: D.range(5).batch(4), 4,
     [[[0], [1], [2], [3]], [[4], [], [], []]], [[[0], [1], [2], [3]], [[4], [], [], []]]),
    ("range(9).batch(2) R=2", lambda: D.range(9).batch(2), 2,
     [[[0], [1]], [[2], [3]], [[4], [5]], [[6], [7]], [[8], []]],
     [[[0], [1]], [[2], [3]], [[4], [5]], [[6], [7]], [[8], []]]),
    ("range(10).batch(4, drop) R=2", lambda: D.range(10).batch(4, drop_remainder=True), 2,
     [[[0, 1], [2, 3]], [[4, 5], [6, 7]]], [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]),
    ("range(10).batch(3, drop) R=2", lambda: D.range(10).batch(3, drop_remainder=True), 2,
     [[[0, 1], [2]]] * 0 + [[[0, 1], [2]], [[3, 4], [5]], [[6, 7], [8]]],
     [[[0, 1], [2]], [[3, 4], [5]], [[6, 7], [8]]]),
]


@pytest.mark.clause("dataset.partial-batch-split")
@pytest.mark.parametrize("name,make,R,legacy,v2", TABLE, ids=[t[0] for t in TABLE])
@pytest.mark.parametrize("policy", [P.AUTO, P.DATA, P.OFF], ids=["AUTO", "DATA", "OFF"])
def test_observed_outputs_table(name: str, make: Any, R: int, legacy: list, v2: list, policy: P) -> None:
    ds = make() if policy == P.AUTO else with_policy(make(), policy)
    got = steps(dinput.distribute_dataset(ds, layout(R)))
    expected = v2 if policy == P.OFF else legacy
    assert got == expected, f"{name} under {policy.name}: {got}, but TF 2.21 gives {expected}"


@pytest.mark.parametrize("drop,R,expected", [
    (True, 2, "PerReplicaSpec(TensorSpec(shape=(2,), dtype=tf.int64, name=None), "
              "TensorSpec(shape=(2,), dtype=tf.int64, name=None))"),
    (False, 2, "PerReplicaSpec(TensorSpec(shape=(None,), dtype=tf.int64, name=None), "
               "TensorSpec(shape=(None,), dtype=tf.int64, name=None))"),
])
def test_table_element_specs(drop: bool, R: int, expected: str) -> None:
    dd = dinput.distribute_dataset(D.range(10).batch(4, drop_remainder=drop), layout(R))
    assert repr(dd.element_spec) == expected, f"element_spec {dd.element_spec!r}, but TF 2.21 gives {expected}"
    odd = dinput.distribute_dataset(D.range(10).batch(3, drop_remainder=True), layout(2))
    assert "shape=(None,)" in repr(odd.element_spec), f"batch 3 over 2 has unknown per-replica dim: {odd.element_spec!r}"


def test_generator_row_unknown_batch_size_is_legacy_even_with_off() -> None:
    g = D.from_generator(lambda: iter([[0, 1, 2, 3, 4], [5, 6]]), output_signature=data.TensorSpec([None], "int64"))
    got = steps(dinput.distribute_dataset(with_policy(g, P.OFF), layout(2)))
    assert got == [[[0, 1, 2], [3, 4]], [[5], [6]]], f"generator row: {got}"


def test_css_doc_example_last_step() -> None:
    """§12: range(14).batch(8) over 2 replicas: AUTO last step [8,9,10]/[11,12,13]; OFF [8..11]/[12,13]."""
    auto = steps(dinput.distribute_dataset(D.range(14).batch(8), layout(2)))
    off = steps(dinput.distribute_dataset(with_policy(D.range(14).batch(8), P.OFF), layout(2)))
    assert auto[-1] == [[8, 9, 10], [11, 12, 13]], auto
    assert off[-1] == [[8, 9, 10, 11], [12, 13]], off


@pytest.mark.parametrize("policy", [P.AUTO, P.OFF], ids=["AUTO", "OFF"])
def test_global_batch_smaller_than_replicas(policy: P) -> None:
    """§12: range(7).batch(1) over 2 replicas: replica 1 always empty, under both policies."""
    got = steps(dinput.distribute_dataset(with_policy(D.range(7).batch(1), policy), layout(2)))
    assert got == [[[i], []] for i in range(7)], got


def test_reduce_doc_example_batch8() -> None:
    """Clause reduce.doc-example-loop: range(10).batch(8) over 2 replicas, last step [8] / [9]."""
    got = steps(dinput.distribute_dataset(D.range(10).batch(8), layout(2)))
    assert got == [[[0, 1, 2, 3], [4, 5, 6, 7]], [[8], [9]]], got


@pytest.mark.clause("dataset.rebatch")
def test_rebatch_clause_example() -> None:
    got = steps(dinput.distribute_dataset(D.range(4).batch(2), layout(2)))
    assert got == [[[0], [1]], [[2], [3]]], got


def test_unbatched_scalar_dataset_raises_index_error() -> None:
    """TF 2.21 raises IndexError('list index out of range'); older TF raised ValueError."""
    with pytest.raises(IndexError, match="^list index out of range$"):
        dinput.distribute_dataset(D.range(10), layout(2))
    with pytest.raises(IndexError, match="^list index out of range$"):
        dinput.distribute_dataset(D.range(10).batch(2).enumerate(), layout(2))


def test_single_replica_gives_plain_values_and_scalars_work() -> None:
    one = dinput.InputLayout(((LOCAL.format(1),),), (LOCAL.format(0),), rebatch=False, partial_batches=False,
                             wrap_single=True)
    got = list(dinput.distribute_dataset(D.range(3), one))
    assert [int(t.numpy()) for t in got] == [0, 1, 2], got
    assert all(t.device == LOCAL.format(1) for t in got), [t.device for t in got]
    dd = dinput.distribute_dataset(D.range(3), one)
    assert repr(dd.element_spec) == "TensorSpec(shape=(), dtype=tf.int64, name=None)", dd.element_spec
    mirrored_1 = dinput.distribute_dataset(D.range(4).batch(2), layout(1))
    got = [t.numpy().tolist() for t in mirrored_1]
    assert got == [[0, 1], [2, 3]], f"Mirrored with one device yields plain tensors (TF 2.21): {got}"
    assert repr(mirrored_1.element_spec) == "TensorSpec(shape=(None,), dtype=tf.int64, name=None)"


# --- structures, devices, dummies ------------------------------------------------------------------------
def test_tuple_and_dict_elements_keep_structure() -> None:
    ds = D.from_tensor_slices((np.arange(6), np.arange(6.) * 2)).batch(4)
    out = list(dinput.distribute_dataset(ds, layout(2)))
    assert isinstance(out[0], tuple) and len(out[0]) == 2, type(out[0])
    got = [[[v.numpy().tolist() for v in pr.values] for pr in step] for step in out]
    assert got == [[[[0, 1], [2, 3]], [[0.0, 2.0], [4.0, 6.0]]], [[[4], [5]], [[8.0], [10.0]]]], got
    dtypes = [[pr.values[0].dtype.name for pr in step] for step in out]
    assert dtypes == [["int64", "float64"]] * 2, dtypes
    dds = dinput.distribute_dataset(D.from_tensor_slices({"a": np.arange(6), "b": np.arange(6.) * 2}).batch(4),
                                    layout(2))
    step = next(iter(dds))
    assert list(step) == ["a", "b"] and all(isinstance(v, PerReplica) for v in step.values()), step
    assert repr(dds.element_spec) == (
        "{'a': PerReplicaSpec(TensorSpec(shape=(None,), dtype=tf.int64, name=None), "
        "TensorSpec(shape=(None,), dtype=tf.int64, name=None)), 'b': PerReplicaSpec(TensorSpec(shape=(None,), "
        "dtype=tf.float64, name=None), TensorSpec(shape=(None,), dtype=tf.float64, name=None))}"), dds.element_spec


def test_values_are_placed_on_replica_devices() -> None:
    step = next(iter(dinput.distribute_dataset(D.range(4).batch(2), layout(2))))
    got = [v.device for v in step.values]
    assert got == [LOCAL.format(0), LOCAL.format(1)], got
    host = dinput.distribute_dataset(D.range(4).batch(2), layout(2),
                                     dinput.InputOptions(experimental_fetch_to_device=False))
    got = [v.device for v in next(iter(host)).values]
    assert got == [LOCAL.format(0)] * 2, f"fetch_to_device=False keeps values on the host: {got}"


def test_dummy_shapes_for_2d_partial_batches() -> None:
    """R=3, from_tensor_slices(zeros((5,2))).batch(4): AUTO [2,2],[2,2],[0,2] then [1,2],[0,2],[0,2] (TF 2.21)."""
    ds = D.from_tensor_slices(np.zeros((5, 2))).batch(4)
    auto = [[tuple(v.shape) for v in s.values] for s in dinput.distribute_dataset(ds, layout(3))]
    assert auto == [[(2, 2), (2, 2), (0, 2)], [(1, 2), (0, 2), (0, 2)]], auto
    off = [[tuple(v.shape) for v in s.values] for s in dinput.distribute_dataset(with_policy(ds, P.OFF), layout(3))]
    assert off == [[(2, 2), (1, 2), (1, 2)], [(1, 2), (0, 2), (0, 2)]], off


def test_from_tensors_fully_static_spec() -> None:
    dd = dinput.distribute_dataset(D.from_tensors([[1, 2], [3, 4]]), layout(3))
    assert steps(dd) == [[[[1, 2]], [[3, 4]], []]], steps(dd)
    assert "TensorSpec(shape=(None, 2), dtype=tf.int32" in repr(dd.element_spec), dd.element_spec


def test_static_shapes_drop_partial_steps() -> None:
    """Statically shaped data on one worker: no partial-batch handling, an incomplete step ends iteration."""
    fn = lambda ctx: D.range(5).batch(1, drop_remainder=True)   # noqa: E731 - 5 static batches over 2 replicas
    got = steps(dinput.distribute_datasets_from_function(fn, layout(2)))
    assert got == [[[0], [1]], [[2], [3]]], f"the partial step [4]/- is dropped: {got}"
    dynamic = steps(dinput.distribute_datasets_from_function(lambda ctx: D.range(5).batch(1), layout(2)))
    assert dynamic[-1] == [[4], []], f"with a dynamic batch dim the partial step gets a dummy: {dynamic}"
    no_flag = steps(dinput.distribute_datasets_from_function(lambda ctx: D.range(5).batch(1), layout(2, partial=False)))
    assert no_flag == [[[0], [1]], [[2], [3]]], f"strategy without partial batches drops the step: {no_flag}"


def test_infinite_dataset_repeats_with_partial_steps_from_legacy() -> None:
    dd = dinput.distribute_dataset(D.range(5).batch(4).repeat(), layout(3))
    it = iter(dd)
    got = [[v.numpy().tolist() for v in next(it).values] for _ in range(4)]
    assert got == [[[0, 1], [2, 3], []], [[4], [], []], [[0, 1], [2, 3], []], [[4], [], []]], got


def test_get_next_and_optional_like_tf() -> None:
    it = iter(dinput.distribute_dataset(D.range(3).batch(2), layout(2)))
    a = it.get_next_as_optional()
    assert [v.numpy().tolist() for v in a.get_value().values] == [[0], [1]]
    b = it.get_next_as_optional()
    assert [v.numpy().tolist() for v in b.get_value().values] == [[2], []]
    c = it.get_next_as_optional()
    assert bool(c.has_value().numpy()) is False
    with pytest.raises(errors.OutOfRangeError, match="^End of sequence$"):
        it.get_next()
    with pytest.raises(StopIteration):
        next(it)


def test_iterating_twice_starts_over_and_cardinality() -> None:
    dd = dinput.distribute_dataset(D.range(4).batch(2), layout(2))
    assert steps(dd) == steps(dd) == [[[0], [1]], [[2], [3]]]
    assert dd.cardinality == 2 and isinstance(dd.cardinality, np.int64), repr(dd.cardinality)


@pytest.mark.clause("dataset.no-more-transforms")
def test_no_more_transforms() -> None:
    dd = dinput.distribute_dataset(D.range(4).batch(2), layout(2))
    for name in ("map", "batch", "filter", "shard", "prefetch", "repeat", "take", "with_options"):
        with pytest.raises(AttributeError, match=f"^'DistributedDataset' object has no attribute '{name}'$"):
            getattr(dd, name)
    dff = dinput.distribute_datasets_from_function(lambda c: D.range(4).batch(2), layout(2))
    with pytest.raises(AttributeError, match="^'DistributedDatasetsFromFunction' object has no attribute 'map'$"):
        dff.map(lambda x: x)
    with pytest.raises(TypeError, match="has no len"):
        len(dd)


@pytest.mark.clause("dataset.prefetch")
def test_prefetch_of_replicas_per_worker_is_appended() -> None:
    dd = dinput.distribute_dataset(D.range(8).batch(4), layout(4))
    last = dd._cloned_datasets[0]
    assert last.kind == "PrefetchDataset" and last.params["buffer_size"] == 4, (last.kind, dict(last.params))
    mw = dinput.distribute_dataset(D.range(8).batch(4), layout(4, num_workers=2))
    sizes = [c.params["buffer_size"] for c in mw._cloned_datasets]
    assert sizes == [2, 2], f"multi-worker prefetch is replicas per worker: {sizes}"


def test_pipeline_after_data_rewrite() -> None:
    """AUTO on in-memory data: RebatchV2 rewritten to legacy Rebatch(R), shard(W, i) before the prefetch."""
    dd = dinput.distribute_dataset(D.range(8).batch(4), layout(2))
    chain = []
    node = dd._cloned_datasets[0]
    while node.inputs:
        chain.append((node.kind, {k: v for k, v in node.params.items() if k in ("num_shards", "index", "num_replicas",
                                                                             "buffer_size")}))
        node = node.inputs[0]
    assert chain[:3] == [("PrefetchDataset", {"buffer_size": 2}), ("ShardDataset", {"num_shards": 1, "index": 0}),
                         ("RebatchDataset", {"num_replicas": 2})], chain
    off = dinput.distribute_dataset(with_policy(D.range(8).batch(4), P.OFF), layout(2))
    assert off._cloned_datasets[0].inputs[0].kind == "RebatchDatasetV2", "OFF keeps RebatchV2"
    assert off._cloned_datasets[0].inputs[0].params["batch_sizes"] == (2, 2)


def test_on_step_is_called_before_values_are_handed_out() -> None:
    calls = []

    def on_step(host: str, elems: list, devices: list) -> None:
        calls.append((host, [e.numpy().tolist() for e in elems], devices))

    it = iter(dinput.distribute_dataset(D.range(3).batch(2), layout(2), on_step=on_step))
    next(it)
    assert calls == [(LOCAL.format(0), [[0], [1]], [LOCAL.format(0), LOCAL.format(1)])], calls
    next(it)
    assert calls[1] == (LOCAL.format(0), [[2], []], [LOCAL.format(0), LOCAL.format(1)]), calls
    with pytest.raises(StopIteration):
        next(it)
    assert len(calls) == 2, "no call for the step that does not exist"


@pytest.mark.clause("dataset.prefetch")
def test_distributed_input_is_read_ahead() -> None:
    """After the first step, prefetch(r) plus one buffered element per device have been read."""
    produced = []

    def gen():
        for i in range(64):
            produced.append(i)
            yield i

    ds = D.from_generator(gen, output_signature=data.TensorSpec((), "int64")).batch(4)
    it = iter(dinput.distribute_dataset(ds, layout(2)))
    first = next(it)
    assert [v.numpy().tolist() for v in first.values] == [[0, 1], [2, 3]]
    # step 1 (4 rows) + per-device buffers (1 more step: 4 rows) + prefetch(2) (2 more pieces: 4 rows).
    assert len(produced) == 12, f"source produced {len(produced)} rows after the first step, expected 12"
    none = dinput.distribute_dataset(ds, layout(2), dinput.InputOptions(experimental_per_replica_buffer_size=0))
    produced.clear()
    next(iter(none))
    assert len(produced) == 8, f"without per-device buffers {len(produced)} rows, expected 8"


def test_per_replica_mode_not_supported_for_distribute_dataset() -> None:
    opts = dinput.InputOptions(experimental_replication_mode=dinput.InputReplicationMode.PER_REPLICA)
    with pytest.raises(NotImplementedError) as e:
        dinput.distribute_dataset(D.range(4).batch(2), layout(2), opts)
    assert str(e.value) == ("InputReplicationMode.PER_REPLICA is only supported in "
                            "`distribute_datasets_from_function`."), str(e.value)


def test_file_policy_multi_worker_is_not_found_and_single_worker_skips() -> None:
    with pytest.raises(errors.NotFoundError, match="^Found an unshardable source dataset: "):
        dinput.distribute_dataset(with_policy(D.range(8).batch(4), P.FILE), layout(2, num_workers=2))
    got = steps(dinput.distribute_dataset(with_policy(D.range(6).batch(4), P.FILE), layout(2)))
    assert got == [[[0, 1], [2, 3]], [[4, 5], []]], f"FILE on one worker is skipped: RebatchV2 semantics, got {got}"


def test_hint_policy_fills_in_shard_hints() -> None:
    ds = with_policy(D.range(8).shard(data.experimental.SHARD_HINT, 0).batch(2), P.HINT)
    got = steps(dinput.distribute_dataset(ds, layout(2, num_workers=2)))
    # worker 0 reads 0,2,4,6 and worker 1 reads 1,3,5,7, batched by 2 and rebatched V2 [1,1] per worker.
    assert got == [[[0], [1]], [[2], [3]], [[4], [5]], [[6], [7]]], got
    chain = dinput.distribute_dataset(ds, layout(2, num_workers=2))._cloned_datasets[1]
    assert chain.inputs[0].kind == "RebatchDatasetV2", "HINT keeps RebatchV2"


# --- multi-worker (input_lib_test) --------------------------------------------------------------------------
@pytest.mark.parametrize("policy", [P.AUTO, P.DATA], ids=["AUTO", "DATA"])
def test_mwms_with_data_sharding(policy: P) -> None:
    """testMWMSWithDataSharding: W=2, r=1, range(8).batch(3): worker0 [0,1],[3,4],[6]; worker1 [2],[5],[7]."""
    got = steps(dinput.distribute_dataset(with_policy(D.range(8).batch(3), policy), layout(2, num_workers=2)))
    assert got == [[[0, 1], [2]], [[3, 4], [5]], [[6], [7]]], got


def test_mwms_partial_batch() -> None:
    """testMWMSPartialBatch: each worker range(12).batch(8), OFF: [0..3],[4..7],[8..11]."""
    got = steps(dinput.distribute_dataset(with_policy(D.range(12).batch(8), P.OFF), layout(2, num_workers=2)))
    assert got == [[list(range(0, 4))] * 2, [list(range(4, 8))] * 2, [list(range(8, 12))] * 2], got


def test_mwms_partial_batch_with_legacy_rebatch() -> None:
    """…WithLegacyRebatch (batch size unknown): [0..3],[4..7],[8,9],[10,11]."""
    ds = with_policy(D.range(12).batch(8).map(lambda x: x), P.OFF)
    got = steps(dinput.distribute_dataset(ds, layout(2, num_workers=2)))
    assert got == [[[0, 1, 2, 3]] * 2, [[4, 5, 6, 7]] * 2, [[8, 9]] * 2, [[10, 11]] * 2], got


def test_multi_worker_partial_steps_and_dynamic_spec() -> None:
    """Multi-worker: statically shaped data still gets partial handling and a None batch dim in the spec."""
    ds = D.range(6).batch(2, drop_remainder=True)   # 3 batches; legacy split over R=2, then shard(2, i)
    dd = dinput.distribute_dataset(ds, layout(2, num_workers=2))
    assert repr(dd.element_spec) == ("PerReplicaSpec(TensorSpec(shape=(None,), dtype=tf.int64, name=None), "
                                     "TensorSpec(shape=(None,), dtype=tf.int64, name=None))"), dd.element_spec
    assert steps(dd) == [[[0], [1]], [[2], [3]], [[4], [5]]], steps(dd)
    uneven = dinput.distribute_dataset(D.range(3).batch(1, drop_remainder=True), layout(2, num_workers=2))
    assert steps(uneven) == [[[0], []], [[1], []], [[2], []]], steps(uneven)


def test_mwms_worker_devices_and_on_step_per_worker() -> None:
    calls = []
    dd = dinput.distribute_dataset(D.range(8).batch(4), layout(4, num_workers=2),
                                   on_step=lambda h, e, d: calls.append((h, len(e), tuple(d))))
    step = next(iter(dd))
    assert len(step.values) == 4, f"R = W*r = 4 components, got {len(step.values)}"
    assert [v.device for v in step.values] == [f"/job:worker/replica:0/task:{w}/device:CPU:{j}"
                                               for w in range(2) for j in range(2)]
    assert [c[0] for c in calls] == ["/job:worker/replica:0/task:0/device:CPU:0",
                                     "/job:worker/replica:0/task:1/device:CPU:0"], calls


# --- distribute_datasets_from_function, contexts -----------------------------------------------------------
@pytest.mark.clause("dataset-fn.no-batching")
def test_dataset_fn_example_and_contexts() -> None:
    seen = []

    def fn(ctx: dinput.InputContext) -> data.Dataset:
        seen.append(str(ctx))
        return D.range(5).batch(2)

    dff = dinput.distribute_datasets_from_function(fn, layout(2))
    assert seen == ["tf.distribute.InputContext(input pipeline id 0, total: 1)"], seen
    assert steps(dff) == [[[0, 1], [2, 3]], [[4], []]], steps(dff)
    assert len(seen) == 1, "dataset_fn is called once per worker, not per iteration"


def test_dataset_fn_per_replica_mode() -> None:
    seen = []

    def fn(ctx: dinput.InputContext) -> data.Dataset:
        seen.append((ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync))
        return D.range(5).batch(2)

    opts = dinput.InputOptions(experimental_replication_mode=dinput.InputReplicationMode.PER_REPLICA,
                               experimental_fetch_to_device=False)
    dff = dinput.distribute_datasets_from_function(fn, layout(2), opts)
    assert seen == [(2, 0, 2), (2, 1, 2)], seen
    assert steps(dff) == [[[0, 1], [0, 1]], [[2, 3], [2, 3]], [[4], [4]]], steps(dff)
    assert [v.device for v in next(iter(dff)).values] == [LOCAL.format(0)] * 2


def test_dataset_fn_multi_worker_contexts() -> None:
    seen = []
    dinput.distribute_datasets_from_function(lambda c: seen.append(str(c)) or D.range(4).batch(1),
                                             layout(4, num_workers=2))
    assert seen == ["tf.distribute.InputContext(input pipeline id 0, total: 2)",
                    "tf.distribute.InputContext(input pipeline id 1, total: 2)"], seen


def test_input_options_errors_like_tf() -> None:
    with pytest.raises(ValueError, match="you must also specify `PER_REPLICA` for the replication mode"):
        dinput.distribute_datasets_from_function(
            lambda c: D.range(2), layout(2), dinput.InputOptions(experimental_place_dataset_on_device=True))
    with pytest.raises(ValueError, match="can not be set to True when experimental_fetch_to_device is True"):
        dinput.distribute_datasets_from_function(
            lambda c: D.range(2), layout(2),
            dinput.InputOptions(experimental_place_dataset_on_device=True,
                                experimental_replication_mode=dinput.InputReplicationMode.PER_REPLICA))


def test_input_options_repr() -> None:
    got = repr(dinput.InputOptions())
    assert got == ("InputOptions(experimental_fetch_to_device=True, experimental_replication_mode="
                   "<InputReplicationMode.PER_WORKER: 'PER_WORKER'>, experimental_place_dataset_on_device=False, "
                   "experimental_per_replica_buffer_size=1)"), got


@pytest.mark.clause("dataset-fn.input-context")
def test_input_context_and_value_context() -> None:
    ctx = dinput.InputContext(3, 1, 6)
    assert str(ctx) == "tf.distribute.InputContext(input pipeline id 1, total: 3)", str(ctx)
    assert (ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync) == (3, 1, 6)
    assert ctx.get_per_replica_batch_size(12) == 2
    with pytest.raises(ValueError) as e:
        ctx.get_per_replica_batch_size(13)
    assert str(e.value) == "The `global_batch_size` 13 is not divisible by `num_replicas_in_sync` 6 ", str(e.value)
    default = dinput.InputContext()
    assert (default.num_input_pipelines, default.input_pipeline_id, default.num_replicas_in_sync) == (1, 0, 1)
    vc = dinput.ValueContext(2, 4)
    assert str(vc) == "tf.distribute.ValueContext(replica id 2,  total replicas in sync: 4)", str(vc)
    assert (dinput.ValueContext().replica_id_in_sync_group, dinput.ValueContext().num_replicas_in_sync) == (0, 1)
    assert [m.value for m in dinput.InputReplicationMode] == ["PER_WORKER", "PER_REPLICA"]


def test_reduce_over_distributed_dataset() -> None:
    dd = dinput.distribute_dataset(D.range(5).batch(4), layout(2))
    total = dd.reduce(0, lambda s, step: s + sum(int(v.numpy().sum()) for v in step.values))
    assert total == 10, f"reduce over all steps (partial included) should see 0..4, sum {total}"
