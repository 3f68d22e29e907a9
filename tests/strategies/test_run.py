"""run, replica contexts, local results, values from a function, reprs: clauses run.*, local-results.*,
values-from-function, num-replicas, cluster-resolver.single-worker, repr.per-replica."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import assert_components, assert_value
from simdist import tf
from strategies_helpers import central_storage, cpus, mirrored, per_replica


@pytest.mark.clause("run.per-replica")
def test_distributed_args_give_each_replica_its_component():
    s = mirrored(2)
    v = per_replica(s, [[1.], [2.]])
    out = s.run(lambda x, y: x * y, args=(v,), kwargs={"y": tf.constant(10.)})
    assert_components(out, [[10.], [20.]], "run(x*y)")


@pytest.mark.clause("run.merged-result")
def test_result_structure_and_plain_values():
    s = mirrored(2)
    t = tf.constant(1.0)
    out = s.run(lambda: {"a": tf.constant(1.0), "b": (t, None)})
    assert isinstance(out["a"], tf.distribute.DistributedValues)
    assert out["b"][0] is t and out["b"][1] is None
    od = tf.distribute.OneDeviceStrategy("/cpu:0")
    single = od.run(lambda: tf.constant(2.0))
    assert not isinstance(single, tf.distribute.DistributedValues)


@pytest.mark.clause("run.one-device-example")
def test_one_device_doc_loop():
    s = tf.distribute.OneDeviceStrategy("/cpu:0")
    result = 0
    for i in range(10):
        result += s.run(lambda x: x * 2, args=(i,))
    assert result == 90 and isinstance(result, int), result


@pytest.mark.clause("run.replica-context")
def test_replica_context_all_reduce():
    s = mirrored(2)

    def fn():
        ctx = tf.distribute.get_replica_context()
        x = tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0
        return ctx.all_reduce("sum", x), ctx.all_reduce(tf.distribute.ReduceOp.MEAN, x - 1.0)
    total, mean = s.run(fn)
    assert_components(total, [3.0, 3.0], "all_reduce(sum)")
    assert_components(mean, [0.5, 0.5], "all_reduce(MEAN)")


def test_merge_call_runs_once_in_cross_replica_context():
    s = mirrored(2)
    calls = []

    def merge_fn(strategy, value):
        calls.append(tf.distribute.in_cross_replica_context())
        return strategy.reduce("SUM", value, None)

    def fn():
        ctx = tf.distribute.get_replica_context()
        return ctx.merge_call(merge_fn, args=(tf.cast(ctx.replica_id_in_sync_group, tf.float32),))
    out = s.run(fn)
    assert calls == [True], calls
    assert_value(out, 1.0, "merge_call(reduce SUM) (every replica gets the same tensor, returned as is)")


def test_diverging_collectives_are_reported():
    s = mirrored(2)

    def fn():
        ctx = tf.distribute.get_replica_context()
        if ctx.replica_id_in_sync_group == 0:
            return ctx.all_reduce("sum", tf.constant(1.0))
        return tf.constant(0.)
    with pytest.raises(RuntimeError, match="every replica must make the same collective calls"):
        s.run(fn)


def test_replica_error_propagates():
    s = mirrored(2)

    def fn():
        if tf.distribute.get_replica_context().replica_id_in_sync_group == 1:
            raise KeyError("boom in replica 1")
        return tf.distribute.get_replica_context().all_reduce("sum", tf.constant(1.0))
    with pytest.raises(KeyError, match="boom in replica 1"):
        s.run(fn)


def test_args_must_be_sequence():
    s = mirrored(2)
    with pytest.raises(ValueError, match="positional args must be a list or tuple, got <class 'int'>"):
        s.run(lambda x: x, args=1)


@pytest.mark.clause("local-results.tuple")
def test_local_results():
    s = mirrored(2)
    v = per_replica(s, [1., 2.])
    assert [float(x) for x in s.experimental_local_results(v)] == [1.0, 2.0]
    t = tf.constant(3.)
    assert s.experimental_local_results(t) == (t,)
    nested = s.experimental_local_results({"a": v, "b": 5})
    assert len(nested) == 2 and float(nested[1]["a"]) == 2.0 and nested[1]["b"] == 5


@pytest.mark.clause("values-from-function")
def test_values_from_function_examples():
    s = mirrored(2)
    assert [float(x) for x in s.experimental_local_results(
        s.experimental_distribute_values_from_function(lambda c: tf.constant(1.0)))] == [1.0, 1.0]
    arr = np.array([3., 2., 1.])
    assert [float(x) for x in s.experimental_local_results(
        s.experimental_distribute_values_from_function(lambda c: arr[c.replica_id_in_sync_group]))] == [3.0, 2.0]
    assert s.experimental_local_results(
        s.experimental_distribute_values_from_function(lambda c: c.num_replicas_in_sync)) == (2, 2)
    assert repr(s.experimental_distribute_values_from_function(lambda c: c.replica_id_in_sync_group)) == \
        "PerReplica:{\n  0: 0,\n  1: 1\n}"
    od = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert od.experimental_distribute_values_from_function(lambda c: c.num_replicas_in_sync) == 1


@pytest.mark.clause("num-replicas")
def test_num_replicas():
    cpus(3)
    assert tf.distribute.OneDeviceStrategy("/cpu:1").num_replicas_in_sync == 1
    assert tf.distribute.MirroredStrategy().num_replicas_in_sync == 3
    assert tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:2"]).num_replicas_in_sync == 2
    assert tf.distribute.experimental.CentralStorageStrategy().num_replicas_in_sync == 1


@pytest.mark.clause("cluster-resolver.single-worker")
def test_single_worker_cluster_resolver_is_none():
    s = central_storage(2)
    assert s.cluster_resolver is None
    assert tf.distribute.OneDeviceStrategy("/cpu:0").cluster_resolver is None


@pytest.mark.clause("repr.per-replica")
def test_per_replica_repr_and_str():
    s = mirrored(2)
    v = s.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
    assert repr(v) == ("PerReplica:{\n  0: <tf.Tensor: shape=(), dtype=int32, numpy=0>,\n"
                       "  1: <tf.Tensor: shape=(), dtype=int32, numpy=1>\n}"), repr(v)
    w = per_replica(s, [[1, 2], [2, 4]])
    assert str(w) == ("PerReplica:{\n  0: tf.Tensor([1 2], shape=(2,), dtype=int32),\n"
                      "  1: tf.Tensor([2 4], shape=(2,), dtype=int32)\n}"), str(w)


def test_replica_values_live_on_replica_devices():
    s = mirrored(2)
    out = s.run(lambda: tf.constant(1.0))
    assert [c.device for c in out.values] == ["/job:localhost/replica:0/task:0/device:CPU:0",
                                              "/job:localhost/replica:0/task:0/device:CPU:1"]
    assert_value(out.values[1], 1.0, "run(constant) replica 1")
