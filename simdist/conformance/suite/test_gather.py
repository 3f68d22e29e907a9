"""Strategy.gather / ReplicaContext.all_gather — clauses gather.* (CSS24/PSS `gather`; semantics §2)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simdist.conformance import hyp
from simdist.conformance.assertions import assert_equal, assert_shape, assert_true, raises, to_numpy
from simdist.conformance.repro import Program

clause = pytest.mark.clause

GATHER = """
strategy = backend.make_strategy(kind, n)
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(components[ctx.replica_id_in_sync_group]))
result = strategy.gather(values, axis=axis)
"""


def _errors(tf):
    # The documents name no error class; TF raises InvalidArgumentError or ValueError
    # depending on the path (collective / concat / tracing).
    return (tf.errors.InvalidArgumentError, ValueError, tf.errors.OpError)


# -- gather.concat -------------------------------------------------------------------------------
@clause("gather.concat")
def test_doc_example_two_replicas(backend):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
# A DistributedValues with component tensor of shape (2, 1) on each replica
distributed_values = strategy.experimental_distribute_values_from_function(lambda _: tf.identity(tf.constant([[1], [2]])))
@tf.function
def run():
    return strategy.gather(distributed_values, axis=0)
result = run()
""")
    ns = prog.run()
    expected = np.array([[1], [2], [1], [2]], dtype=np.int32)
    prog.expect("result", expected)
    call = "gather(2 replicas of [[1],[2]], axis=0)"
    assert_shape(ns["result"], (4, 1), call=call)
    assert_equal(ns["result"], expected, call=call)


@clause("gather.concat")
@pytest.mark.parametrize("axis,shape", [(0, (4, 2, 3)), (1, (1, 8, 3)), (2, (1, 2, 12))])
def test_doc_example_four_replicas(backend, axis, shape):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 4)
single_tensor = tf.reshape(tf.range(6), shape=(1,2,3))
distributed_values = strategy.experimental_distribute_values_from_function(lambda _: tf.identity(single_tensor))
@tf.function
def run(axis):
    return strategy.gather(distributed_values, axis=axis)
result = run(axis)
""", axis=axis)
    ns = prog.run()
    single = np.arange(6, dtype=np.int32).reshape(1, 2, 3)
    expected = np.concatenate([single] * 4, axis=axis)
    prog.expect("result", expected)
    call = f"gather(4 replicas of range(6).reshape(1,2,3), axis={axis})"
    assert_shape(ns["result"], shape, call=call)
    assert_equal(ns["result"], expected, call=call)


@clause("gather.concat")
@given(data=st.data())
def test_gather_is_concatenation_in_replica_order(backend, data):
    kind, n = data.draw(hyp.strategy_setups(backend, kinds=hyp.MULTI_REPLICA_KINDS))
    comps, axis = data.draw(hyp.gather_components(n, dtype=data.draw(st.sampled_from(["int32", "float32"]))))
    prog = Program(backend, GATHER, kind=kind, n=n, components=comps, axis=axis)
    ns = prog.run()
    expected = np.concatenate(comps, axis=axis)
    prog.expect("result", expected)
    call = f"{kind}({n}).gather(shapes {[c.shape for c in comps]}, axis={axis})"
    assert_shape(ns["result"], expected.shape, call=call)
    assert_equal(ns["result"], expected, call=call)


@clause("gather.concat", "gather.cross-replica-only")
@given(data=st.data())
def test_all_gather_gives_every_replica_the_concatenation(backend, tf, data):
    kind, n = data.draw(hyp.strategy_setups(backend, kinds=hyp.MULTI_REPLICA_KINDS))
    comps, axis = data.draw(hyp.gather_components(n, dtype="float32"))
    prog = Program(backend, """
strategy = backend.make_strategy(kind, n)
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(components[ctx.replica_id_in_sync_group]))
def replica_fn(x):
    return tf.distribute.get_replica_context().all_gather(x, axis)
result = strategy.run(replica_fn, args=(values,))
local = strategy.experimental_local_results(result)
""", kind=kind, n=n, components=comps, axis=axis)
    ns = prog.run()
    expected = np.concatenate(comps, axis=axis)
    local = ns["local"]
    assert_equal(len(local), n, what="len(local results)", call=f"{kind}({n}).run(all_gather)")
    for i, v in enumerate(local):
        assert_equal(v, expected, what=f"replica {i}", call=f"{kind}({n}).run(all_gather(axis={axis}))")


# -- gather.shape-rule ----------------------------------------------------------------------------
SHAPE_RULE = """
strategy = backend.make_strategy(kind, 2)
components = [tf.zeros((1, 2, 3)), tf.zeros((1, 3, 3))]
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: components[ctx.replica_id_in_sync_group])
result = strategy.gather(values, axis=axis)
"""


@clause("gather.shape-rule")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_doc_shape_rule_axis1_ok(backend, kind):
    prog = Program(backend, SHAPE_RULE, kind=kind, axis=1)
    ns = prog.run()
    assert_shape(ns["result"], (1, 5, 3), call=f"{kind}.gather((1,2,3)|(1,3,3), axis=1)")


@clause("gather.shape-rule")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
@pytest.mark.parametrize("axis", [0, 2])
def test_doc_shape_rule_other_axes_fail(backend, tf, kind, axis):
    prog = Program(backend, SHAPE_RULE, kind=kind, axis=axis)
    prog.expect_error("an error: shapes differ at dimension 1 != axis")
    with raises(_errors(tf), call=f"{kind}.gather((1,2,3)|(1,3,3), axis={axis})"):
        prog.run()


@clause("gather.shape-rule")
@given(data=st.data())
def test_broken_shape_rule_raises(backend, tf, data):
    kind, n = data.draw(hyp.multi_replica_setups(backend))
    comps, axis = data.draw(hyp.broken_gather_components(n))
    prog = Program(backend, GATHER, kind=kind, n=n, components=comps, axis=axis)
    prog.expect_error("an error: the shapes break the gather rule")
    with raises(_errors(tf), call=f"{kind}({n}).gather(shapes {[c.shape for c in comps]}, axis={axis})"):
        prog.run()


# -- gather.nonzero-rank --------------------------------------------------------------------------
@clause("gather.nonzero-rank")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_rank0_components_rejected(backend, tf, kind, dtype):
    prog = Program(backend, GATHER, kind=kind, n=2,
                   components=[np.array(1, dtype=dtype), np.array(2, dtype=dtype)], axis=0)
    prog.expect_error("an error: rank-0 components")
    with raises(_errors(tf), call=f"{kind}.gather(rank-0 {dtype}, axis=0)"):
        prog.run()


@clause("gather.nonzero-rank")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_rank0_after_expand_dims(backend, kind):
    prog = Program(backend, """
strategy = backend.make_strategy(kind, 2)
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.expand_dims(tf.constant(float(ctx.replica_id_in_sync_group)), 0))
result = strategy.gather(values, axis=0)
""", kind=kind)
    ns = prog.run()
    assert_equal(ns["result"], np.array([0., 1.], np.float32), call=f"{kind}.gather(expand_dims(scalar), axis=0)")


# -- gather.axis-range -----------------------------------------------------------------------------
@clause("gather.axis-range")
@given(data=st.data())
def test_axis_at_or_beyond_rank_raises(backend, tf, data):
    kind, n = data.draw(hyp.multi_replica_setups(backend))
    comps = data.draw(hyp.same_shape_components(n, dtype="int32", min_rank=1, max_rank=3))
    axis = data.draw(st.integers(comps[0].ndim, comps[0].ndim + 2))
    prog = Program(backend, GATHER, kind=kind, n=n, components=comps, axis=axis)
    prog.expect_error(f"an error: axis {axis} >= rank {comps[0].ndim}")
    with raises(_errors(tf), call=f"{kind}({n}).gather(rank {comps[0].ndim}, axis={axis})"):
        prog.run()


@clause("gather.axis-range", ref="doc")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_negative_axis_rejected_as_documented(backend, tf, kind):
    """Documented: axis "Must be in the range [0, rank(value))"."""
    prog = Program(backend, GATHER, kind=kind, n=2,
                   components=[np.array([1, 2], np.int32), np.array([3, 4], np.int32)], axis=-1)
    prog.expect_error("an error: axis -1 is outside [0, rank)")
    with raises(_errors(tf), call=f"{kind}.gather([1,2]|[3,4], axis=-1)"):
        prog.run()


@clause("gather.axis-range", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_negative_axis_counts_from_the_end(backend, kind):
    prog = Program(backend, GATHER, kind=kind, n=2,
                   components=[np.array([[1], [2]], np.int32), np.array([[3], [4]], np.int32)], axis=-1)
    ns = prog.run()
    assert_equal(ns["result"], np.array([[1, 3], [2, 4]], np.int32), call=f"{kind}.gather(axis=-1)")


# -- gather.cross-replica-only ----------------------------------------------------------------------
@clause("gather.cross-replica-only")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_gather_in_replica_context_raises(backend, tf, kind):
    strategy = backend.make_strategy(kind, 2)
    values = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant([1, 2]))
    with raises(RuntimeError, call=f"{kind}.run(lambda x: strategy.gather(x, 0))"):
        strategy.run(lambda x: strategy.gather(x, 0), args=(values,))


@clause("gather.cross-replica-only", ref="tf221")
def test_gather_in_replica_context_message(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    values = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant([1, 2]))
    with raises(RuntimeError, match="requires cross-replica context.*all_gather",
                call="mirrored.run(lambda x: strategy.gather(x, 0))"):
        strategy.run(lambda x: strategy.gather(x, 0), args=(values,))


# -- gather.dense-only -----------------------------------------------------------------------------
SLICES = """
strategy = backend.make_strategy(kind, 2)
def make_slices():
    return tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([0]), tf.constant([3, 2]))
"""


@clause("gather.dense-only")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_plain_indexed_slices_rejected(backend, tf, kind):
    prog = Program(backend, SLICES + "result = strategy.gather(make_slices(), axis=0)\n", kind=kind)
    with raises((NotImplementedError, ValueError, TypeError), call=f"{kind}.gather(IndexedSlices, 0)"):
        prog.run()


@clause("gather.dense-only", ref="doc")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_distributed_indexed_slices_rejected_as_documented(backend, tf, kind):
    """Documented: the components "can only be dense tensors ..., NOT a tf.IndexedSlices"."""
    prog = Program(backend, SLICES + "result = strategy.gather(strategy.run(make_slices), axis=0)\n", kind=kind)
    prog.expect_error("an error: IndexedSlices components")
    with raises((NotImplementedError, ValueError, TypeError), call=f"{kind}.gather(PerReplica of IndexedSlices, 0)"):
        prog.run()


@clause("gather.dense-only", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_distributed_indexed_slices_densified(backend, tf, kind):
    """TF 2.21 turns PerReplica IndexedSlices into dense tensors and concatenates them."""
    prog = Program(backend, SLICES + "result = strategy.gather(strategy.run(make_slices), axis=0)\n", kind=kind)
    ns = prog.run()
    dense = np.array([[1., 2.], [0., 0.], [0., 0.]], np.float32)
    assert_equal(ns["result"], np.concatenate([dense, dense]), call=f"{kind}.gather(PerReplica of IndexedSlices, 0)")


@clause("gather.dense-only", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_all_gather_indexed_slices_not_implemented(backend, tf, kind):
    prog = Program(backend, SLICES + """
result = strategy.run(lambda: tf.distribute.get_replica_context().all_gather(make_slices(), 0))
""", kind=kind)
    with raises(NotImplementedError, match="all_gather does not support IndexedSlices",
                call=f"{kind}.run(all_gather(IndexedSlices))"):
        prog.run()


# -- gather.plain-value ------------------------------------------------------------------------------
@clause("gather.plain-value")
@pytest.mark.parametrize("kind", ["one_device", "default"])
def test_plain_tensor_single_replica(backend, tf, kind):
    strategy = backend.make_strategy(kind, 1)
    out = strategy.gather(tf.constant([[1, 2]]), axis=0)
    assert_equal(out, np.array([[1, 2]], np.int32), call=f"{kind}.gather(tf.constant([[1,2]]), axis=0)")


@clause("gather.plain-value", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_plain_tensor_multi_replica_unchanged(backend, tf, kind):
    strategy = backend.make_strategy(kind, 2)
    out = strategy.gather(tf.constant([1, 2]), axis=0)
    assert_equal(out, np.array([1, 2], np.int32), call=f"{kind}(2).gather(tf.constant([1,2]), axis=0)")
    scalar = strategy.gather(tf.constant(7), axis=0)
    assert_equal(to_numpy(scalar), np.int32(7), call=f"{kind}(2).gather(tf.constant(7), axis=0)")


# -- gather.rank0-error-class ----------------------------------------------------------------------
RANK0 = """
strategy = backend.make_strategy(kind, 2)
if explicit_ops:
    strategy = tf.distribute.MirroredStrategy(strategy.extended.worker_devices,
                                              cross_device_ops=tf.distribute.ReductionToOneDevice())
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.cast(tf.constant(1), getattr(tf, dtype)))
def gather():
    if path == "all_gather":
        return strategy.run(lambda x: tf.distribute.get_replica_context().all_gather(x, axis=0), args=(values,))
    return strategy.gather(values, axis=0)
result = tf.function(gather)() if traced else gather()
"""


@clause("gather.rank0-error-class", ref="tf221")
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "tf.function"])
@pytest.mark.parametrize("path", ["gather", "all_gather"])
@pytest.mark.parametrize("dtype", ["float32", "int32", "int64"])
@pytest.mark.parametrize("kind,explicit_ops", [("mirrored", False), ("mirrored", True), ("central_storage", False)],
                         ids=["mirrored", "mirrored-r1d", "central_storage"])
def test_rank0_error_class(backend, tf, kind, explicit_ops, dtype, path, traced):
    """TF 2.21: ValueError on MirroredStrategy's default (collective) path for every dtype but int32,
    and inside any tf.function; InvalidArgumentError eagerly on the concatenation path."""
    collective = kind == "mirrored" and not explicit_ops and dtype != "int32"
    want = ValueError if (collective or traced) else tf.errors.InvalidArgumentError
    prog = Program(backend, RANK0, kind=kind, explicit_ops=explicit_ops, dtype=dtype, path=path, traced=traced)
    prog.expect_error(f"{want.__name__}: rank-0 components")
    call = (f"{kind}{' (ReductionToOneDevice)' if explicit_ops else ''}: {path} of rank-0 {dtype}"
            f"{' in a tf.function' if traced else ''}")
    try:
        prog.run()
        got = None
    except Exception as e:  # noqa: BLE001 - the class is what is checked
        got = e
        backend.notice_error(e)
    assert_true(got is not None and type(got) is want,
                f"raised {type(got).__name__ if got is not None else 'nothing'}, but TF 2.21 raises {want.__name__}",
                call=call)
