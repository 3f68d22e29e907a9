"""Replica-context collectives of values that are not per-replica (a tensor captured from outside
`run`), the leaves' checks before MirroredStrategy's batch all-reduce, the gather axis by path,
`reduce`'s eager axis key, the gather of a structure and a tf.function returning a distributed
variable — clauses reduce.same-object-leaves, gather.same-object-leaves, gather.axis-range,
reduce.axis-key, gather.plain-value, function.operation-results (TF 2.21's behaviour, read in its
source and observed)."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


def _own(tf, dtype="float32"):
    """The replica's own value: [1, 2] times (replica id + 1)."""
    ctx = tf.distribute.get_replica_context()
    return tf.constant([1, 2], dtype) * tf.cast(ctx.replica_id_in_sync_group + 1, dtype)


@clause("reduce.same-object-leaves", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
@pytest.mark.parametrize("op", ["SUM", "MEAN"])
def test_a_captured_tensor_is_all_reduced_to_itself(backend, tf, kind, op):
    strategy = backend.make_strategy(kind, 2)
    x = tf.constant([1.0, 2.0])
    own = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce(op, _own(tf)))
    captured = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce(op, x))
    call = f"{kind}(2).run(all_reduce({op}, ...))"
    want_own = np.array([3.0, 6.0] if op == "SUM" else [1.5, 3.0], np.float32)
    for i, part in enumerate(strategy.experimental_local_results(own)):
        assert_equal(part, want_own, call=call, what=f"replica {i}'s reduction of its own [1, 2] * (id + 1)")
    for i, part in enumerate(strategy.experimental_local_results(captured)):
        assert_equal(part, np.array([1.0, 2.0], np.float32), call=call,
                     what=f"replica {i}'s all_reduce of a tensor captured from outside run (unreduced in TF 2.21)")


@clause("reduce.same-object-leaves", ref="tf221")
def test_mirrored_batches_refuse_mixed_leaves(backend, tf):
    """MirroredStrategy's collective batch: a captured leaf beside a per-replica one is IndexError;
    an int32 leaf beside any other leaf is ValueError; CentralStorageStrategy reduces each leaf."""
    strategy = backend.make_strategy("mirrored", 2)
    x = tf.constant([1.0, 2.0])
    with raises(IndexError, call="mirrored(2).run(all_reduce(SUM, [captured, own]))"):
        strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", [x, _own(tf)]))
    with raises(ValueError, match="must be either all on the host or all on the compute devices",
                call="mirrored(2).run(all_reduce(SUM, [own float32, own int32]))"):
        strategy.run(lambda: tf.distribute.get_replica_context().all_reduce(
            "SUM", [_own(tf), _own(tf, "int32")]))
    alone = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", [_own(tf, "int32")]))
    assert_equal(strategy.experimental_local_results(alone[0])[0], np.array([3, 6], np.int32),
                 call="mirrored(2).run(all_reduce(SUM, [own int32]))", what="a lone int32 leaf's sum")
    central = backend.make_strategy("central_storage", 2)
    out = central.run(lambda: tf.distribute.get_replica_context().all_reduce(
        "SUM", [x, _own(tf, "int32")]))
    call = "central_storage(2).run(all_reduce(SUM, [captured, own int32]))"
    assert_equal(central.experimental_local_results(out[0])[1], np.array([1.0, 2.0], np.float32), call=call,
                 what="the captured leaf on replica 1")
    assert_equal(central.experimental_local_results(out[1])[1], np.array([3, 6], np.int32), call=call,
                 what="the int32 leaf's sum on replica 1")


@clause("reduce.same-object-leaves", ref="tf221")
def test_mirrored_eager_python_numbers_are_refused(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    with raises(AttributeError, match="'float' object has no attribute 'dtype'",
                call="mirrored(2).run(all_reduce(SUM, 1.0))"):
        strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", 1.0))
    traced = tf.function(lambda: strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", 1.0)))
    for i, part in enumerate(strategy.experimental_local_results(traced())):
        assert_equal(part, np.float32(2.0), call="tf.function(mirrored(2).run(all_reduce(SUM, 1.0)))",
                     what=f"replica {i}'s sum (traced, each replica's 1.0 is its own tensor)")


@clause("gather.same-object-leaves", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_a_captured_tensor_is_all_gathered_to_itself(backend, tf, kind):
    strategy = backend.make_strategy(kind, 2)
    x = tf.constant([[1.0, 2.0]])
    out = strategy.run(lambda: tf.distribute.get_replica_context().all_gather([x, tf.ones([1, 2])], 0))
    call = f"{kind}(2).run(all_gather([captured (1, 2), own ones (1, 2)], axis=0))"
    for i in range(2):
        assert_equal(strategy.experimental_local_results(out[0])[i], np.array([[1.0, 2.0]], np.float32), call=call,
                     what=f"replica {i}'s gather of the captured tensor (returned as it is)")
        assert_equal(strategy.experimental_local_results(out[1])[i], np.ones([2, 2], np.float32), call=call,
                     what=f"replica {i}'s gather of its own ones")
    beyond = strategy.run(lambda: tf.distribute.get_replica_context().all_gather(x, 2))
    assert_equal(strategy.experimental_local_results(beyond)[0], np.array([[1.0, 2.0]], np.float32),
                 call=f"{kind}(2).run(all_gather(captured (1, 2), axis=2))", what="the captured tensor, axis unchecked")


@clause("gather.axis-range", ref="tf221")
def test_negative_axis_by_path(backend, tf):
    """MirroredStrategy's collective path (float32) refuses a negative axis with ValueError; its
    int32 path and CentralStorageStrategy concatenate along it."""
    strategy = backend.make_strategy("mirrored", 2)

    def values(s, dtype):
        return s.experimental_distribute_values_from_function(
            lambda c: tf.cast(tf.reshape(tf.range(4) + 10 * c.replica_id_in_sync_group, [2, 2]), dtype))
    with raises(ValueError, call="mirrored(2).gather(float32 (2, 2) per replica, axis=-1)"):
        strategy.gather(values(strategy, tf.float32), -1)
    want = np.array([[0, 1, 10, 11], [2, 3, 12, 13]])
    assert_equal(strategy.gather(values(strategy, tf.int32), -1), want.astype(np.int32),
                 call="mirrored(2).gather(int32 (2, 2) per replica, axis=-1)")
    central = backend.make_strategy("central_storage", 2)
    assert_equal(central.gather(values(central, tf.float32), -1), want.astype(np.float32),
                 call="central_storage(2).gather(float32 (2, 2) per replica, axis=-1)")


@clause("reduce.axis-key", ref="tf221")
def test_reduce_axis_must_be_hashable_eagerly(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    v = strategy.experimental_distribute_values_from_function(
        lambda c: tf.reshape(tf.range(4.0) + 10.0 * tf.cast(c.replica_id_in_sync_group, tf.float32), [2, 2]))
    with raises(TypeError, match="unhashable", call="mirrored(2).reduce(SUM, v, axis=[0])"):
        strategy.reduce("SUM", v, axis=[0])
    assert_equal(strategy.reduce("MEAN", v, axis=(0, 1)), np.float32(6.5), call="mirrored(2).reduce(MEAN, v, axis=(0, 1))")
    traced = tf.function(lambda: strategy.reduce("SUM", v, axis=[0, 1]))
    assert_equal(traced(), np.float32(52.0), call="tf.function(mirrored(2).reduce(SUM, v, axis=[0, 1]))")


@clause("function.operation-results", ref="tf221")
def test_a_function_returns_a_distributed_variables_read(backend, tf):
    """A tf.function returning a distributed variable returns its cross-replica read: a MirroredVariable's
    value, a SUM sync-on-read variable's aggregate; one tensor, not a distributed value."""
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])
        w = tf.Variable([1.0, 2.0], synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
    for name, fn, want in (("MirroredVariable", lambda: v, [1.0, 2.0]), ("SUM sync-on-read variable", lambda: w, [2.0, 4.0])):
        out = tf.function(fn)()
        call = f"tf.function(lambda: {name} [1, 2] on mirrored(2))()"
        assert_equal(len(strategy.experimental_local_results(out)), 1, call=call, what="number of local results")
        assert_equal(out, np.array(want, np.float32), call=call)


@clause("gather.plain-value", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_gather_of_a_structure_gives_replica_0s_components(backend, tf, kind):
    """A list of per-replica values is no DistributedValues: Strategy.gather returns
    `_local_results(value)[0]`, replica 0's components, unconcatenated."""
    strategy = backend.make_strategy(kind, 2)
    values = strategy.run(lambda: [_own(tf)])
    out = strategy.gather(values, 0)
    call = f"{kind}(2).gather([per-replica [1, 2] * (id + 1)], axis=0)"
    assert_equal(len(out), 1, call=call, what="length of the gathered list")
    assert_equal(out[0], np.array([1.0, 2.0], np.float32), call=call, what="its element")
