"""`StrategyExtended.broadcast_to(tensor, destinations)` — clause extended.broadcast-to (TF 2.21's
StrategyExtendedV1 method, read in distribute_lib.py, mirrored_strategy.py, one_device_strategy.py,
parameter_server_strategy.py and cross_device_ops.py, and observed): the value copied onto each
destination device, a Python number returned as it is, OneDevice's value as it is, the default
strategy's NotImplementedError, None or a list of destinations AssertionError."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


def _per_replica(tf, strategy):
    """[1, 2] times (replica id + 1), one value per replica."""
    return strategy.run(lambda: tf.constant([1.0, 2.0]) * tf.cast(
        tf.distribute.get_replica_context().replica_id_in_sync_group + 1, tf.float32))


@clause("extended.broadcast-to", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_broadcast_to_one_device_copies_each_value(backend, tf, kind):
    """A per-replica value sent to one device keeps every replica's value; a tensor becomes a
    tensor with its values; a NumPy array is converted; IndexedSlices stay IndexedSlices."""
    strategy = backend.make_strategy(kind, 2)
    call = f"{kind}(2).extended.broadcast_to(..., '/cpu:0')"
    out = strategy.extended.broadcast_to(_per_replica(tf, strategy), "/cpu:0")
    parts = strategy.experimental_local_results(out)
    assert len(parts) == 2, f"len(local results)={len(parts)}, but should be 2 (the per-replica values) [{call}]"
    for i, part in enumerate(parts):
        assert_equal(part, np.array([1.0, 2.0], np.float32) * (i + 1), call=call, what=f"replica {i}'s copy")
    arr = strategy.extended.broadcast_to(np.array([3.0, 4.0], np.float32), "/cpu:0")
    assert tf.is_tensor(arr), f"type={type(arr).__name__}, but a NumPy array should come back a tensor [{call}]"
    assert_equal(arr, np.array([3.0, 4.0], np.float32), call=call, what="a NumPy array's copy")
    slices = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([3, 2]))
    got = strategy.extended.broadcast_to(slices, "/cpu:0")
    assert isinstance(got, tf.IndexedSlices), \
        f"type={type(got).__name__}, but IndexedSlices should stay IndexedSlices [{call}]"
    assert_equal(got.values, np.array([[1.0, 2.0]], np.float32), call=call, what="the slices' values")
    assert_equal(got.indices, np.array([1], np.int32), call=call, what="the slices' indices")


@clause("extended.broadcast-to", ref="tf221")
def test_broadcast_to_a_mirrored_destination_mirrors(backend, tf):
    """Onto a MirroredVariable's devices, a tensor comes back with one equal copy per device."""
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        v = tf.Variable([0.0, 0.0])
    out = strategy.extended.broadcast_to(tf.constant([5.0, 6.0]), v)
    parts = strategy.experimental_local_results(out)
    call = "mirrored(2).extended.broadcast_to(tensor, mirrored_variable)"
    assert len(parts) == 2, f"len(local results)={len(parts)}, but should be 2 (one copy per device) [{call}]"
    for i, part in enumerate(parts):
        assert_equal(part, np.array([5.0, 6.0], np.float32), call=call, what=f"device {i}'s copy")


@clause("extended.broadcast-to", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage", "one_device"])
def test_broadcast_to_returns_python_numbers_and_one_device_values(backend, tf, kind):
    strategy = backend.make_strategy(kind, 2 if kind != "one_device" else 1)
    call = f"{kind}.extended.broadcast_to(3, '/cpu:0')"
    out = strategy.extended.broadcast_to(3, "/cpu:0")
    assert type(out) is int and out == 3, f"result={out!r}, but a Python number comes back as it is [{call}]"
    if kind == "one_device":
        arr = np.array([1.0], np.float32)
        got = strategy.extended.broadcast_to(arr, "/cpu:0")
        assert got is arr, f"result={got!r}, but OneDeviceStrategy returns the value itself [{call}]"


@clause("extended.broadcast-to", ref="tf221")
def test_broadcast_to_refusals(backend, tf):
    """None or a list of destinations is AssertionError; the default strategy has no broadcast
    (NotImplementedError); MirroredStrategy reads the value's dtype first (None: AttributeError)."""
    strategy = backend.make_strategy("mirrored", 2)
    with raises(AssertionError, call="mirrored(2).extended.broadcast_to(t, None)"):
        strategy.extended.broadcast_to(tf.constant(1.0), None)
    with raises(AssertionError, call="mirrored(2).extended.broadcast_to(t, ['/cpu:0'])"):
        strategy.extended.broadcast_to(tf.constant(1.0), ["/cpu:0"])
    with raises(AttributeError, call="mirrored(2).extended.broadcast_to(None, '/cpu:0')"):
        strategy.extended.broadcast_to(None, "/cpu:0")
    with raises(NotImplementedError, call="default strategy .extended.broadcast_to(t, '/cpu:0')"):
        tf.distribute.get_strategy().extended.broadcast_to(tf.constant(1.0), "/cpu:0")


@clause("extended.v1-methods", ref="tf221")
def test_extended_v1_methods_on_mirrored(backend, tf):
    """call_for_each_replica gives each replica's result; read_var of a SUM sync-on-read variable
    is the sum of its copies, of a MirroredVariable its value; the local strategy's flags."""
    strategy = backend.make_strategy("mirrored", 2)
    ext = strategy.extended
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])
        r = tf.Variable([1.0, 2.0], synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
    out = ext.call_for_each_replica(
        lambda: tf.constant(1.0) + tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32))
    call = "mirrored(2).extended.call_for_each_replica(1 + replica id)"
    for i, part in enumerate(strategy.experimental_local_results(out)):
        assert_equal(part, np.float32(1 + i), call=call, what=f"replica {i}'s result")
    assert_equal(ext.read_var(r), np.array([2.0, 4.0], np.float32), call="mirrored(2).extended.read_var(sum on-read)",
                 what="the sum of the two copies of [1, 2]")
    assert_equal(ext.read_var(v), np.array([1.0, 2.0], np.float32), call="mirrored(2).extended.read_var(mirrored)",
                 what="the variable's value")
    flags = {name: getattr(ext, name) for name in ("should_checkpoint", "should_save_summary",
                                                    "experimental_should_init", "experimental_between_graph")}
    want = {"should_checkpoint": True, "should_save_summary": True, "experimental_should_init": True,
            "experimental_between_graph": False}
    assert flags == want, f"flags={flags}, but should be {want} [mirrored(2).extended]"
    byrep = ext.worker_devices_by_replica
    assert len(byrep) == 2 and all(len(d) == 1 for d in byrep), \
        f"worker_devices_by_replica={byrep!r}, but should be one device per replica [mirrored(2).extended]"
    parts = strategy.unwrap(strategy.run(lambda: tf.constant(2.0)))
    assert len(parts) == 2, f"len(unwrap(...))={len(parts)}, but should be 2 [mirrored(2).unwrap]"
    with raises(RuntimeError, call="default strategy: extended.call_for_each_replica inside its own run"):
        default = tf.distribute.get_strategy()
        default.run(lambda: default.extended.call_for_each_replica(lambda: 1.0))
