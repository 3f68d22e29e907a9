"""tf.distribute's smaller public names, as TF 2.21 defines them (read in distribute_lib.py,
python/types/distribute.py, collective_util.py, coordinator/coordinator_context.py and
failure_handling/preemption_watcher.py, and observed): clauses strategy.run-options,
input.interface-types, mwms.communication-options, coord.worker-index and pch.watcher."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import raises

clause = pytest.mark.clause

_WORKER_INDEX = "Cannot retrieve the worker index"


@clause("strategy.run-options", ref="tf221")
def test_run_options_is_a_namedtuple_run_ignores_off_tpus(backend, tf):
    """RunOptions' three fields and defaults; MirroredStrategy.run gives the same replica results
    with RunOptions or with any other `options` value."""
    opts = tf.distribute.RunOptions()
    assert tuple(opts) == (True, False, None), \
        f"tuple(RunOptions())={tuple(opts)!r}, but should be (True, False, None) [RunOptions()]"
    assert opts._fields == ("experimental_enable_dynamic_batch_size", "experimental_bucketizing_dynamic_shape",
                            "experimental_xla_options"), f"RunOptions._fields={opts._fields!r} [RunOptions]"
    s = backend.make_strategy("mirrored", 2)
    for given in (tf.distribute.RunOptions(experimental_enable_dynamic_batch_size=False), "not options"):
        got = [float(t.numpy()) for t in s.experimental_local_results(s.run(lambda: tf.constant(1.5), options=given))]
        assert got == [1.5, 1.5], f"local results={got}, but should be [1.5, 1.5] [run(options={given!r})]"


@clause("input.interface-types", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "one_device"])
def test_distributed_datasets_and_iterators_are_the_interface_types(backend, tf, kind):
    s = backend.make_strategy(kind, 2 if kind == "mirrored" else 1)
    D = tf.distribute
    made = {"experimental_distribute_dataset": s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4)),
            "distribute_datasets_from_function": s.distribute_datasets_from_function(
                lambda ctx: tf.data.Dataset.range(4).batch(2))}
    for how, d in made.items():
        assert isinstance(d, D.DistributedDataset), \
            f"type={type(d).__name__} is not a tf.distribute.DistributedDataset [{kind}.{how}]"
        assert not isinstance(d, tf.data.Dataset), f"type={type(d).__name__} is a tf.data.Dataset [{kind}.{how}]"
        it = iter(d)
        assert isinstance(it, D.DistributedIterator), \
            f"iter(...) type={type(it).__name__} is not a tf.distribute.DistributedIterator [{kind}.{how}]"


@clause("input.interface-types", ref="tf221")
def test_default_strategy_distributes_a_dataset_as_itself(backend, tf):
    s = tf.distribute.get_strategy()
    ds = tf.data.Dataset.range(6).batch(4)
    d = s.experimental_distribute_dataset(ds)
    assert d is ds, f"type={type(d).__name__}, but should be the dataset itself [default.experimental_distribute_dataset]"
    assert not isinstance(iter(d), tf.distribute.DistributedIterator), \
        "iter(...) is a DistributedIterator, but should be the dataset's own iterator [default strategy]"
    got = [b.numpy().tolist() for b in d]
    assert got == [[0, 1, 2, 3], [4, 5]], f"batches={got}, but should be [[0, 1, 2, 3], [4, 5]] [default strategy]"


@clause("input.interface-types", ref="tf221")
def test_interface_members_raise_until_defined(backend, tf):
    dd, di = tf.distribute.DistributedDataset(), tf.distribute.DistributedIterator()
    for what, call in (("iter(DistributedDataset())", lambda: iter(dd)),
                       ("DistributedDataset().element_spec", lambda: dd.element_spec),
                       ("DistributedDataset().reduce", lambda: dd.reduce(0, lambda a, b: a)),
                       ("DistributedIterator().get_next()", di.get_next),
                       ("DistributedIterator().element_spec", lambda: di.element_spec),
                       ("DistributedIterator().get_next_as_optional()", di.get_next_as_optional)):
        with raises(NotImplementedError, match="descendants", call=what):
            call()


@clause("mwms.communication-options", ref="tf221")
def test_communication_options_and_hints_make_one_options_class(backend, tf):
    E = tf.distribute.experimental
    co = E.CommunicationOptions(bytes_per_pack=8, timeout_seconds=2.0, implementation="ring")
    hints = E.CollectiveHints(bytes_per_pack=16)
    assert not isinstance(co, E.CommunicationOptions), \
        "CommunicationOptions() is an instance of CommunicationOptions, but TF's name is a factory of collective_util.Options"
    assert type(co) is type(hints) and type(co).__name__ == "Options", \
        f"types {type(co).__name__} and {type(hints).__name__}, but both should be Options [CollectiveHints]"
    assert (hints.bytes_per_pack, hints.timeout_seconds) == (16, None), \
        f"CollectiveHints(16) fields {(hints.bytes_per_pack, hints.timeout_seconds)}, but should be (16, None)"
    want = "Options(bytes_per_pack=8,timeout_seconds=2.0, implementation=CommunicationImplementation.RING)"
    assert str(co) == want, f"str={str(co)!r}, but should be {want!r} [CommunicationOptions]"
    with raises(ValueError, match="must be >=0", call="CollectiveHints(bytes_per_pack=-1)"):
        E.CollectiveHints(bytes_per_pack=-1)


@clause("coord.worker-index", ref="tf221")
def test_worker_index_only_on_a_worker(backend, tf):
    C = tf.distribute.coordinator
    with raises(RuntimeError, match=_WORKER_INDEX, call="experimental_get_current_worker_index() eagerly"):
        C.experimental_get_current_worker_index()

    @tf.function
    def off_the_cluster():
        return C.experimental_get_current_worker_index()
    with raises(RuntimeError, match=_WORKER_INDEX, call="experimental_get_current_worker_index() in a tf.function"):
        off_the_cluster()
    with raises(AssertionError, match="should only take `RemoteValue`s", call="PerWorkerValue([1, 2])"):
        C.PerWorkerValue([1, 2])


@clause("coord.worker-index", ref="tf221")
def test_worker_index_shards_a_per_worker_dataset(backend, tf):
    """Each worker's dataset_fn reads its own index, and every closure's element comes from the
    shard of the index the closure reads (whichever worker the scheduler picked)."""
    cluster = backend.make_ps_cluster(workers=2, ps=1)
    C = tf.distribute.coordinator
    c = cluster.coordinator

    def dataset_fn():
        i = C.experimental_get_current_worker_index()
        return tf.data.Dataset.range(20).shard(2, i).map(lambda x: x * 10 + tf.cast(i, tf.int64))
    it = iter(c.create_per_worker_dataset(dataset_fn))
    assert isinstance(it, C.PerWorkerValue), f"iter(per-worker dataset) type={type(it).__name__}, not a PerWorkerValue"

    @tf.function
    def step(iterator):
        return next(iterator), C.experimental_get_current_worker_index()
    rvs = [c.schedule(step, args=(it,)) for _ in range(6)]
    c.join()
    pairs = [[int(v) for v in rv.fetch()] for rv in rvs]
    bad = [(a, i) for a, i in pairs if a % 10 != i or (a // 10) % 2 != i or i not in (0, 1)]
    assert not bad, f"(element, worker index) pairs {bad} do not come from that worker's shard (all: {pairs})"


@clause("pch.watcher", ref="tf221")
def test_preemption_watcher_off_tpus_never_notices(backend, tf):
    w = tf.distribute.experimental.PreemptionWatcher()
    assert w.preemption_message is None, f"preemption_message={w.preemption_message!r}, but should be None off TPUs"
    got = w.block_until_worker_exit()
    assert got is None, f"block_until_worker_exit() returned {got!r}, but should return None at once off TPUs"


@clause("extended.cross-device-ops", ref="tf221")
@pytest.mark.parametrize("kind", ["ReductionToOneDevice", "NcclAllReduce", "HierarchicalCopyAllReduce"])
def test_cross_device_ops_reduce_and_broadcast(backend, tf, kind):
    """Three replicas' sums, left to right as TF's CPU kernels add them, onto one device and onto
    a mirrored variable (an all-reduce there); a broadcast onto the variable's devices."""
    D = tf.distribute
    s = backend.make_strategy("mirrored", 3)
    rows = [[1.0, 1e8, -1e8, 3.0], [1e8, 1.0, 1.0, 1e-8], [-1e8, -1e8, 1e8, 7.0]]
    pr = s.run(lambda: tf.gather(tf.constant(rows), D.get_replica_context().replica_id_in_sync_group))
    with s.scope():
        mv = tf.Variable([0.0] * 4)
    ops = getattr(D, kind)()
    assert isinstance(ops, D.CrossDeviceOps), f"{kind}() is not a tf.distribute.CrossDeviceOps"
    one = ops.reduce(D.ReduceOp.SUM, pr, s.experimental_local_results(pr)[0].device)
    assert one.numpy().tolist() == [0.0, 0.0, 0.0, 10.0], \
        f"sum={one.numpy().tolist()}, but should be [0.0, 0.0, 0.0, 10.0] (left to right) [{kind}.reduce(SUM, ..., one device)]"
    everywhere = s.experimental_local_results(ops.reduce(D.ReduceOp.MEAN, pr, mv))
    got = [t.numpy().tolist() for t in everywhere]
    want = [[0.0, 0.0, 0.0, float(np.float32(10.0) / np.float32(3.0))]] * 3
    assert got == want, f"means={got}, but should be {want} [{kind}.reduce(MEAN, ..., mirrored variable)]"
    copies = [t.numpy().tolist() for t in s.experimental_local_results(ops.broadcast(tf.constant(5.0), mv))]
    assert copies == [5.0] * 3, f"broadcast copies={copies}, but should be [5.0] * 3 [{kind}.broadcast]"
    with raises(ValueError, match="must be Reduce.SUM or Reduce.MEAN", call=f"{kind}.reduce('SUM', ...)"):
        ops.reduce("SUM", pr, "/cpu:0")


@clause("extended.cross-device-ops", ref="tf221")
def test_cross_device_ops_base_leaves_reduce_to_descendants(backend, tf):
    D = tf.distribute
    s = backend.make_strategy("mirrored", 2)
    pr = s.run(lambda: tf.constant(1.0) * tf.cast(D.get_replica_context().replica_id_in_sync_group + 1, tf.float32))
    base = D.CrossDeviceOps()
    with raises(NotImplementedError, match="must be implemented in descendants", call="CrossDeviceOps().reduce"):
        base.reduce(D.ReduceOp.SUM, pr, "/cpu:0")
    with raises(NotImplementedError, match="must be implemented in descendants", call="CrossDeviceOps().batch_reduce"):
        base.batch_reduce(D.ReduceOp.SUM, [(pr, "/cpu:0")])
    with raises(ValueError, match="destinations must be one of", call="CrossDeviceOps().reduce(..., [])"):
        base.reduce(D.ReduceOp.SUM, pr, [])
