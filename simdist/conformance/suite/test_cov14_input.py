"""Distributed input paths the suite never ran before the fifteenth session's coverage pass
(cov14b): get_next_as_optional, DistributedDataset.reduce and cardinality, InputOptions
(PER_REPLICA replication, fetch_to_device=False and their errors), a dataset_fn that returns no
dataset, next() inside a replica function (clauses dataset.partial-batch-split, dataset.api-surface,
dataset-fn.input-context, dataset.no-more-transforms).

Expected values are worked out here from the rules (round-robin dealing of batches split across
replicas), never from the backend.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_equal, assert_true
from simdist.conformance.repro import Program

clause = pytest.mark.clause


@clause("dataset.partial-batch-split", ref="tf221")
def test_get_next_as_optional_reduce_and_cardinality(backend):
    ns = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
ds = tf.data.Dataset.range(n).batch(2)
dist = strategy.experimental_distribute_dataset(ds)
it = iter(dist)
steps = []
for _ in range(4):
    opt = it.get_next_as_optional()
    has = bool(opt.has_value())
    steps.append([has, [backend.to_numpy(x).tolist() for x in strategy.experimental_local_results(opt.get_value())]
                  if has else None])
total = int(dist.reduce(tf.constant(0, tf.int64), lambda state, x: state + strategy.reduce("SUM", x, axis=0)))
card = int(dist.cardinality)
card_repeat = int(strategy.experimental_distribute_dataset(ds.repeat()).cardinality)
card_fn = int(strategy.distribute_datasets_from_function(lambda ctx: ds).cardinality)
""", n=5).run()
    call = "MirroredStrategy(2): experimental_distribute_dataset(range(5).batch(2))"
    assert_equal(ns["steps"], [[True, [[0], [1]]], [True, [[2], [3]]], [True, [[4], []]], [False, None]], call=call,
                 what="get_next_as_optional() x4: [has_value, local results] (the partial last batch gives "
                      "replica 1 an empty one; then no value)")
    assert_equal(ns["total"], sum(range(5)), call=call, what="dist.reduce(0, state + SUM over replicas of each step)")
    assert_equal(ns["card"], 3, call=call, what="dist.cardinality (the source dataset's)")
    assert_equal(ns["card_repeat"], -1, call=call + ".repeat()", what="cardinality (INFINITE)")
    assert_equal(ns["card_fn"], 3, call="distribute_datasets_from_function(lambda ctx: range(5).batch(2))",
                 what="cardinality")


@clause("dataset-fn.input-context", ref="tf221")
def test_per_replica_replication_gives_each_replica_its_pipeline(backend):
    ns = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
contexts = []
def dataset_fn(ctx):
    contexts.append([ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync])
    return tf.data.Dataset.range(4).map(lambda x: x * 10 + ctx.input_pipeline_id).batch(2)
options = tf.distribute.InputOptions(experimental_replication_mode=tf.distribute.InputReplicationMode.PER_REPLICA,
                                     experimental_fetch_to_device=False)
dist = strategy.distribute_datasets_from_function(dataset_fn, options)
steps = [[backend.to_numpy(x).tolist() for x in strategy.experimental_local_results(step)] for step in dist]
defaults = list(tf.distribute.InputOptions())
""").run()
    call = "MirroredStrategy(2): distribute_datasets_from_function(fn, InputOptions(PER_REPLICA, fetch_to_device=False))"
    assert_equal(ns["contexts"], [[2, 0, 2], [2, 1, 2]], call=call,
                 what="[num_input_pipelines, input_pipeline_id, num_replicas_in_sync] of each dataset_fn call")
    assert_equal(ns["steps"], [[[0, 10], [1, 11]], [[20, 30], [21, 31]]], call=call,
                 what="each step's local results (replica k reads pipeline k's batches)")
    assert_equal(ns["defaults"][0], True, call="tf.distribute.InputOptions()", what="experimental_fetch_to_device")
    assert_equal(ns["defaults"][2:], [False, 1], call="tf.distribute.InputOptions()",
                 what="[experimental_place_dataset_on_device, experimental_per_replica_buffer_size]")


@clause("dataset.api-surface", ref="tf221")
def test_input_options_errors_and_host_placement(backend):
    ns = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
ds = tf.data.Dataset.range(4).batch(2)
IO, PR = tf.distribute.InputOptions, tf.distribute.InputReplicationMode.PER_REPLICA
out = {}
for name, f in [
        ("PER_REPLICA in experimental_distribute_dataset",
         lambda: strategy.experimental_distribute_dataset(ds, IO(experimental_replication_mode=PR,
                                                                 experimental_fetch_to_device=False))),
        ("place_dataset_on_device without PER_REPLICA",
         lambda: strategy.distribute_datasets_from_function(lambda c: ds, IO(experimental_place_dataset_on_device=True))),
        ("PER_REPLICA + fetch_to_device + place_dataset_on_device",
         lambda: strategy.distribute_datasets_from_function(lambda c: ds, IO(experimental_replication_mode=PR,
                                                            experimental_place_dataset_on_device=True,
                                                            experimental_fetch_to_device=True))),
        ("options not InputOptions", lambda: strategy.experimental_distribute_dataset(ds, options=3)),
        ("dataset_fn returns a list", lambda: strategy.distribute_datasets_from_function(lambda c: [1, 2])),
        ("next() inside the replica function", lambda: strategy.run(lambda: next(shared))),
]:
    shared = iter(strategy.experimental_distribute_dataset(ds))
    try:
        f()
        out[name] = ("returned", "")
    except Exception as e:
        out[name] = (type(e).__name__, str(e))
host = next(iter(strategy.experimental_distribute_dataset(ds, IO(experimental_fetch_to_device=False))))
host_values = [backend.to_numpy(x).tolist() for x in strategy.experimental_local_results(host)]
""").run()
    expected = {
        "PER_REPLICA in experimental_distribute_dataset":
            ("NotImplementedError", "InputReplicationMode.PER_REPLICA is only supported in "
                                    "`distribute_datasets_from_function`."),
        "place_dataset_on_device without PER_REPLICA":
            ("ValueError", "When `experimental_place_dataset_on_device` is set for dataset placement, you must also "
                           "specify `PER_REPLICA` for the replication mode"),
        "PER_REPLICA + fetch_to_device + place_dataset_on_device":
            ("ValueError", "`experimental_place_dataset_on_device` can not be set to True when "
                           "experimental_fetch_to_device is True and replication mode is set to `PER_REPLICA`"),
        "options not InputOptions": ("AttributeError", "'int' object has no attribute 'experimental_replication_mode'"),
        "dataset_fn returns a list": ("AttributeError", "'list' object has no attribute 'element_spec'"),
        "next() inside the replica function":
            ("ValueError", "next(iterator) should be called from outside of replica_fn. e.g. "
                           "strategy.run(replica_fn, args=(next(iterator),))"),
    }
    for name, (cls, text) in expected.items():
        got = ns["out"][name]
        assert_true(got[0] == cls and text in got[1], f"outcome={got!r}, but should be {cls} containing {text!r}",
                    call=f"MirroredStrategy(2): {name}")
    call = "MirroredStrategy(2): experimental_distribute_dataset(range(4).batch(2), InputOptions(fetch_to_device=False))"
    assert_equal(ns["host_values"], [[0], [1]], call=call, what="the first step's local results")
