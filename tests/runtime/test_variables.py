"""Variable placement per strategy: clauses css.placement, css.constructor, one-device.placement,
mirrored.variables (reprs observed on TF 2.21)."""

from __future__ import annotations

import pytest

import simdist
from helpers import assert_components, assert_value
from simdist import tf
from strategies_helpers import central_storage, cpus, mirrored

CPU = "/job:localhost/replica:0/task:0/device:CPU:{}"
GPU = "/job:localhost/replica:0/task:0/device:GPU:{}"


@pytest.mark.clause("mirrored.variables")
def test_mirrored_variable_repr():
    s = mirrored(2)
    with s.scope():
        v = tf.Variable(1.0)
    assert repr(v) == ("MirroredVariable:{\n  0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>,\n"
                       "  1: <tf.Variable 'Variable/replica_1:0' shape=() dtype=float32, numpy=1.0>\n}"), repr(v)
    assert [c.device for c in v.values] == [CPU.format(0), CPU.format(1)]


@pytest.mark.clause("mirrored.aggregation")
def test_mirrored_update_in_replica_context_aggregates_or_stays_local():
    """TF 2.21: without aggregation each replica updates its own copy (observed; the
    tf.VariableAggregation docs say NONE is an error); with SUM the copies get the total."""
    s = mirrored(2)
    with s.scope():
        plain = tf.Variable(0.0)
        summed = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)
    s.run(lambda: plain.assign_add(tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                                           tf.float32) + 1.0))
    assert_components(tf.distribute.DistributedValues(plain.values), [1.0, 2.0], "assign_add without aggregation")
    s.run(lambda: summed.assign_add(tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                                            tf.float32) + 1.0))
    assert_components(tf.distribute.DistributedValues(summed.values), [3.0, 3.0], "SUM-aggregated assign_add")


@pytest.mark.clause("css.placement")
def test_central_storage_aggregating_variable_on_cpu():
    s = central_storage(2)
    with s.scope():
        v = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>", repr(v)
    assert v.device == CPU.format(0)
    s.run(lambda: v.assign_add(tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)))
    assert_value(v, 1.5, "MEAN-aggregated assign_add of replica ids 0 and 1 onto 1.0")


@pytest.mark.clause("css.placement")
@pytest.mark.clause("css.constructor")
def test_central_storage_defaults_with_gpus():
    simdist.configure(gpus=1)
    s = tf.distribute.experimental.CentralStorageStrategy()
    with s.scope():
        v = tf.Variable(1.0)
    assert v.device == GPU.format(0), v.device
    assert s.extended.parameter_devices == ("/device:GPU:0",), s.extended.parameter_devices
    simdist.configure(gpus=4)
    s = tf.distribute.experimental.CentralStorageStrategy()
    assert s.num_replicas_in_sync == 4
    assert s.extended.worker_devices == [GPU.format(i) for i in range(4)]
    assert s.extended.parameter_devices == ("/device:CPU:0",)
    with s.scope():
        v = tf.Variable(1.0)
    assert v.device == CPU.format(0), v.device


@pytest.mark.clause("css.constructor")
def test_central_storage_explicit_devices():
    cpus(3)
    s = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"], parameter_device="CPU:2")
    assert s.extended.parameter_devices == ("CPU:2",)
    with s.scope():
        v = tf.Variable(1.0)
    assert v.device == CPU.format(2)


@pytest.mark.clause("one-device.placement")
def test_one_device_places_variables_inputs_and_run():
    cpus(2)
    s = tf.distribute.OneDeviceStrategy("/cpu:1")
    assert s.extended.worker_devices == (CPU.format(1),)
    with s.scope():
        v = tf.Variable(2.0)
    assert v.device == CPU.format(1)
    out = s.run(lambda: tf.constant(1.0))
    assert out.device == CPU.format(1), out.device
    assert repr(s.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)) == \
        "<tf.Tensor: shape=(), dtype=int32, numpy=0>"


def test_colocate_vars_with():
    s = mirrored(2)
    cs = central_storage(2)
    with cs.scope():
        a = tf.Variable(1.0)
        with cs.extended.colocate_vars_with(a):
            b = tf.Variable(2.0)
    assert b.device == a.device
    del s


def test_unknown_device_is_clear_error():
    with pytest.raises(ValueError, match=r"unknown device .*GPU:0.*simdist.configure\(gpus=N\)"):
        tf.distribute.OneDeviceStrategy("/gpu:0")


def test_tensor_read_before_an_update_keeps_its_value():
    """Updates may reuse a variable's buffer only when nothing else holds it: a tensor read
    earlier (or an array from .numpy()) is a snapshot, as in TF."""
    v = tf.Variable(tf.ones([4, 4]))
    before = v.read_value()
    arr = v.numpy()
    v.assign_add(tf.ones([4, 4]))
    v.assign_sub(tf.ones([4, 4]) * 0.5)
    assert_value(before, [[1.0] * 4] * 4, "tensor read before assign_add")
    assert_value(arr, [[1.0] * 4] * 4, "v.numpy() taken before assign_add")
    assert_value(v, [[1.5] * 4] * 4, "v after assign_add(1) and assign_sub(0.5)")


def test_transaction_reads_see_buffered_writes_and_commit_applies_deltas():
    """Inside a coordinator function (a transaction) reads see the function's own writes; commit
    applies assign_add as a delta onto the value current at commit time."""
    from simdist.runtime import variables
    v = tf.Variable(tf.constant([1.0, 2.0]))
    with variables.transaction() as t:
        v.assign_add(tf.constant([10.0, 10.0]))
        assert_value(v.read_value(), [11.0, 12.0], "read after assign_add in a transaction")
        v.assign_add(tf.constant([1.0, 1.0]))
        v.assign_sub(tf.constant([0.5, 0.5]))
        assert_value(v.read_value(), [11.5, 12.5], "read after three buffered writes")
    assert_value(v, [1.0, 2.0], "v before commit (writes are buffered)")
    v.assign(tf.constant([100.0, 200.0]))     # another function's write lands first
    t.commit()
    assert_value(v, [110.5, 210.5], "v after commit: deltas applied onto the current value")
    with variables.transaction() as t:
        v.assign(tf.constant([0.0, 0.0]))
        v.assign_add(tf.constant([3.0, 4.0]))
        assert_value(v.read_value(), [3.0, 4.0], "read after assign then assign_add")
    t.commit()
    assert_value(v, [3.0, 4.0], "v after committing assign then assign_add")
