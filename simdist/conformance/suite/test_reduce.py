"""Strategy.reduce — clauses reduce.* (CSS24/CSS20/ODS/PSS `reduce`; semantics §1)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simdist.conformance import hyp
from simdist.conformance.assertions import (assert_close, assert_device, assert_dtype, assert_equal,
                                            assert_shape, assert_true, assert_type_name, device_matches, fail,
                                            raises, to_numpy)
from simdist.conformance.repro import Program

clause = pytest.mark.clause

DISTRIBUTE = """
strategy = backend.make_strategy(kind, n)
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(components[ctx.replica_id_in_sync_group]))
"""


def _doc_values(backend, kind):
    """The documents' global batch of 8 over 2 replicas: [0,1,2,3] and [4,5,6,7]."""
    return Program(backend, DISTRIBUTE + "result = strategy.reduce(op, values, axis=axis)\n",
                   kind=kind, n=2, components=[np.arange(4, dtype=np.int64), np.arange(4, 8, dtype=np.int64)],
                   op="SUM", axis=None)


# -- reduce.axis-none / reduce.axis-batch: the documented example --------------------------------
@clause("reduce.axis-none")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_doc_example_axis_none(backend, kind):
    prog = _doc_values(backend, kind)
    ns = prog.run()
    prog.expect("result", [4, 6, 8, 10])
    assert_equal(ns["result"], np.array([4, 6, 8, 10]), call=f"{kind}.reduce(SUM, [0,1,2,3]|[4,5,6,7], axis=None)")


@clause("reduce.axis-batch")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_doc_example_axis_batch(backend, kind):
    prog = _doc_values(backend, kind)
    prog.params["axis"] = 0
    ns = prog.run()
    prog.expect("result", 28)
    assert_equal(ns["result"], np.int64(28), call=f"{kind}.reduce(SUM, [0,1,2,3]|[4,5,6,7], axis=0)")


@clause("reduce.axis-none")
@given(data=st.data())
def test_axis_none_is_elementwise_across_replicas(backend, data):
    kind, n = data.draw(hyp.strategy_setups(backend, kinds=hyp.MULTI_REPLICA_KINDS))
    op = data.draw(st.sampled_from(["SUM", "MEAN"]))
    dtype = data.draw(st.sampled_from(hyp.FLOAT_DTYPES))
    comps = data.draw(hyp.same_shape_components(n, dtype=dtype, max_rank=2))
    prog = Program(backend, DISTRIBUTE + "result = strategy.reduce(op, values, axis=None)\n",
                   kind=kind, n=n, components=comps, op=op)
    ns = prog.run()
    total = np.sum(np.stack(comps), axis=0)
    expected = total if op == "SUM" else total / n
    prog.expect("result", expected)
    call = f"{kind}({n}).reduce({op}, axis=None) of shape {comps[0].shape}"
    assert_shape(ns["result"], comps[0].shape, call=call)
    assert_close(ns["result"], expected, call=call, scale=np.sum(np.abs(np.stack(comps)), axis=0))


@clause("reduce.axis-batch")
@given(data=st.data())
def test_sum_axis0_is_sum_of_concatenation(backend, data):
    kind, n = data.draw(hyp.strategy_setups(backend, kinds=hyp.MULTI_REPLICA_KINDS))
    dtype = data.draw(st.sampled_from(hyp.FLOAT_DTYPES + hyp.INT_DTYPES))
    comps = data.draw(hyp.per_replica_batches(n, dtype=dtype, min_rows=1))
    prog = Program(backend, DISTRIBUTE + "result = strategy.reduce('SUM', values, axis=0)\n",
                   kind=kind, n=n, components=comps)
    ns = prog.run()
    expected = np.sum(np.concatenate(comps, axis=0), axis=0)
    prog.expect("result", expected)
    call = f"{kind}({n}).reduce(SUM, axis=0), rows {[c.shape[0] for c in comps]}"
    assert_shape(ns["result"], expected.shape, call=call)
    assert_close(ns["result"], expected, call=call)


@clause("reduce.axis-batch", ref="tf221")
def test_negative_and_tuple_axes(backend, tf):
    """axis counts from the end when negative and may be a tuple; an axis >= rank raises ValueError."""
    comps = [np.array([[1., 2., 3.], [4., 5., 6.]], np.float32), np.array([[7., 8., 9.]], np.float32)]
    prog = Program(backend, DISTRIBUTE + """
mean_rows = strategy.reduce('MEAN', values, axis=-2)
total = strategy.reduce('SUM', values, axis=(0, 1))
""", kind="mirrored", n=2, components=comps)
    ns = prog.run()
    allv = np.concatenate(comps)
    prog.expect("mean_rows", allv.mean(axis=0))
    assert_equal(ns["mean_rows"], allv.mean(axis=0).astype(np.float32),
                 call="mirrored(2).reduce(MEAN, (2,3)|(1,3), axis=-2)")
    assert_equal(ns["total"], np.float32(allv.sum()), call="mirrored(2).reduce(SUM, (2,3)|(1,3), axis=(0, 1))")
    with raises(ValueError, call="mirrored(2).reduce(SUM, rank-2 components, axis=2)"):
        ns["strategy"].reduce("SUM", ns["values"], axis=2)


# -- reduce.partial-batch -----------------------------------------------------------------------
def _partial(backend, kind, op, axis):
    return Program(backend, DISTRIBUTE + "result = strategy.reduce(op, values, axis=axis)\n",
                   kind=kind, n=2, components=[np.array([0., 1., 2., 3.], dtype=np.float32),
                                               np.array([4., 5.], dtype=np.float32)], op=op, axis=axis)


@clause("reduce.partial-batch")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_doc_partial_batch_mean_uses_true_count(backend, kind):
    prog = _partial(backend, kind, "MEAN", 0)
    ns = prog.run()
    prog.expect("result", 2.5, "15 / 6, not mean(1.5, 4.5) = 3.0")
    assert_close(ns["result"], np.float32(2.5), call=f"{kind}.reduce(MEAN, [0,1,2,3]|[4,5], axis=0)")


@clause("reduce.partial-batch")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_doc_partial_batch_axis_none_is_shape_mismatch(backend, kind, tf):
    prog = _partial(backend, kind, "SUM", None)
    prog.expect_error("a shape-mismatch error")
    with raises((tf.errors.OpError, ValueError), call=f"{kind}.reduce(SUM, [0,1,2,3]|[4,5], axis=None)"):
        prog.run()


@clause("reduce.partial-batch", ref="tf221")
def test_partial_batch_axis_none_error_class(backend, tf):
    prog = _partial(backend, "mirrored", "SUM", None)
    with raises(tf.errors.InvalidArgumentError, call="mirrored.reduce(SUM, [0,1,2,3]|[4,5], axis=None)"):
        prog.run()


@clause("reduce.partial-batch")
@given(data=st.data())
def test_mean_axis0_over_uneven_batches(backend, data):
    kind, n = data.draw(hyp.multi_replica_setups(backend))
    dtype = data.draw(st.sampled_from(hyp.FLOAT_DTYPES))
    comps = data.draw(hyp.per_replica_batches(n, dtype=dtype, min_rows=0, inner=()))
    if sum(c.shape[0] for c in comps) == 0:
        comps[0] = np.array([1.0], dtype=dtype)
    prog = Program(backend, DISTRIBUTE + "result = strategy.reduce('MEAN', values, axis=0)\n",
                   kind=kind, n=n, components=comps)
    ns = prog.run()
    allv = np.concatenate(comps)
    expected = np.sum(allv) / allv.size
    prog.expect("result", expected, f"sum / true count {allv.size}")
    assert_close(ns["result"], expected, scale=np.sum(np.abs(allv)) / allv.size,
                 call=f"{kind}({n}).reduce(MEAN, axis=0), rows {[c.shape[0] for c in comps]}")


@clause("reduce.partial-batch", ref="tf221")
def test_mean_axis0_with_an_empty_replica(backend):
    prog = Program(backend, DISTRIBUTE + "result = strategy.reduce('MEAN', values, axis=0)\n",
                   kind="mirrored", n=2,
                   components=[np.array([[1., 2.], [3., 4.]], dtype=np.float32), np.zeros((0, 2), np.float32)])
    ns = prog.run()
    prog.expect("result", [2.0, 3.0])
    assert_close(ns["result"], np.array([2., 3.]), call="mirrored.reduce(MEAN, [[1,2],[3,4]] | empty(0,2), axis=0)")


@clause("reduce.partial-batch", ref="tf221")
@pytest.mark.parametrize("dtype,result_dtype", [("int32", "float64"), ("int64", "float64"),
                                                ("float32", "float32"), ("float64", "float64")])
def test_mean_axis0_result_dtype(backend, dtype, result_dtype):
    prog = Program(backend, DISTRIBUTE + "result = strategy.reduce('MEAN', values, axis=0)\n",
                   kind="mirrored", n=2,
                   components=[np.array([1, 2, 3, 4], dtype=dtype), np.array([1, 2], dtype=dtype)])
    ns = prog.run()
    prog.expect("result", 13 / 6)
    call = f"mirrored.reduce(MEAN, {dtype} [1,2,3,4]|[1,2], axis=0)"
    assert_dtype(ns["result"], result_dtype, call=call)
    assert_close(ns["result"], 13 / 6, call=call)


# -- reduce.string-op ---------------------------------------------------------------------------
@clause("reduce.string-op")
@pytest.mark.parametrize("name", ["SUM", "MEAN"])
def test_string_op_equals_enum(backend, tf, name):
    strategy = backend.make_strategy("mirrored", 2)
    comps = [np.array([1., 2.], np.float32), np.array([3., 5.], np.float32)]
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(comps[ctx.replica_id_in_sync_group]))
    by_name = strategy.reduce(name, values, axis=None)
    by_enum = strategy.reduce(getattr(tf.distribute.ReduceOp, name), values, axis=None)
    assert_equal(by_name, to_numpy(by_enum), call=f"reduce({name!r}) vs reduce(ReduceOp.{name})")


@clause("reduce.string-op", ref="tf221")
@given(data=st.data())
def test_string_op_any_case(backend, data):
    op = data.draw(hyp.reduce_op_names())
    kind, n = data.draw(hyp.strategy_setups(backend))
    comps = [np.array([1., 2.], np.float32) * (i + 1) for i in range(n)]
    prog = Program(backend, DISTRIBUTE + "result = strategy.reduce(op, values, axis=None)\n",
                   kind=kind, n=n, components=comps, op=op)
    ns = prog.run()
    total = np.sum(np.stack(comps), axis=0)
    expected = total if op.upper() == "SUM" else total / n
    if kind in hyp.SINGLE_REPLICA_KINDS:
        expected = comps[0]
    prog.expect("result", expected)
    assert_close(ns["result"], expected, call=f"{kind}({n}).reduce({op!r}, axis=None)")


@clause("reduce.string-op", ref="tf221")
@given(data=st.data())
def test_unknown_op_name_raises_value_error(backend, tf, data):
    op = data.draw(hyp.invalid_reduce_op_names())
    strategy = backend.make_strategy("mirrored", 2)
    values = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(1.0))
    with raises(ValueError, match="is not a valid ReduceOp", call=f"reduce({op!r}, ...)"):
        strategy.reduce(op, values, axis=None)


# -- reduce.replica-ids -------------------------------------------------------------------------
REPLICA_IDS = """
strategy = backend.make_strategy(kind, n)
def step_fn():
    i = tf.distribute.get_replica_context().replica_id_in_sync_group
    return tf.identity(i)
per_replica_result = strategy.run(step_fn)
total = strategy.reduce("SUM", per_replica_result, axis=None)
"""


@clause("reduce.replica-ids")
def test_doc_replica_ids_sum_to_one(backend):
    prog = Program(backend, REPLICA_IDS, kind="mirrored", n=2)
    ns = prog.run()
    prog.expect("total", 1)
    assert_equal(ns["total"], np.int32(1), call="MirroredStrategy(2).reduce('SUM', replica ids)")
    assert_dtype(ns["total"], "int32", call="MirroredStrategy(2).reduce('SUM', replica ids)")


@clause("reduce.replica-ids")
@given(data=st.data())
def test_replica_ids_sum(backend, data):
    kind, n = data.draw(hyp.strategy_setups(backend))
    prog = Program(backend, REPLICA_IDS, kind=kind, n=n)
    ns = prog.run()
    prog.expect("total", n * (n - 1) // 2)
    assert_equal(ns["total"], np.int32(n * (n - 1) // 2), call=f"{kind}({n}).reduce('SUM', replica ids)")


# -- reduce.plain-value ---------------------------------------------------------------------------
@clause("reduce.plain-value")
@pytest.mark.parametrize("kind", ["one_device", "default"])
@pytest.mark.parametrize("op", ["SUM", "MEAN"])
def test_plain_tensor_single_replica(backend, tf, kind, op):
    strategy = backend.make_strategy(kind, 1)
    value = tf.constant([3., 4.])
    out = strategy.reduce(op, value, axis=None)
    assert_equal(out, np.array([3., 4.], np.float32), call=f"{kind}.reduce({op}, tf.constant([3.,4.]), axis=None)")
    out0 = strategy.reduce(op, value, axis=0)
    assert_close(out0, 7.0 if op == "SUM" else 3.5, call=f"{kind}.reduce({op}, tf.constant([3.,4.]), axis=0)")


@clause("reduce.plain-value", ref="tf221")
def test_plain_python_value_single_replica_unchanged(backend):
    strategy = backend.make_strategy("one_device", 1)
    out = strategy.reduce("SUM", 5, axis=None)
    assert_equal(out, 5, call="one_device.reduce('SUM', 5, axis=None)")


@clause("reduce.plain-value", ref="tf221")
def test_plain_tensor_multi_replica(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    call = "mirrored(2).reduce({}, tf.constant(3.0), axis=None)"
    with raises(ValueError, match="non-DistributedValues", call=call.format("SUM")):
        strategy.reduce("SUM", tf.constant(3.0), axis=None)
    assert_equal(strategy.reduce("MEAN", tf.constant(3.0), axis=None), np.float32(3.0), call=call.format("MEAN"))
    # With an axis, the plain tensor is given to every replica and reduced there.
    assert_close(strategy.reduce("SUM", tf.constant([3., 4.]), axis=0), 14.0,
                 call="mirrored(2).reduce(SUM, tf.constant([3.,4.]), axis=0)")
    assert_close(strategy.reduce("MEAN", tf.constant([3., 4.]), axis=0), 3.5,
                 call="mirrored(2).reduce(MEAN, tf.constant([3.,4.]), axis=0)")


# -- reduce.result-device -------------------------------------------------------------------------
@clause("reduce.result-device")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage", "one_device"])
def test_result_on_host_cpu(backend, tf, kind):
    n = 1 if kind == "one_device" else 2
    strategy = backend.make_strategy(kind, n)
    values = strategy.run(lambda: tf.identity(tf.distribute.get_replica_context().replica_id_in_sync_group))
    total = strategy.reduce("SUM", values, axis=None)
    if not device_matches(total.device, "device:CPU:0"):
        fail(f"out.device={total.device!r}, but should be the host CPU (…/device:CPU:0)",
             f"{kind}({n}).reduce(SUM, replica ids)")


@clause("reduce.result-device")
@pytest.mark.requires("gpus")
def test_doc_result_device_with_gpus(backend, tf):
    strategy = backend.make_strategy("mirrored", 2, device_type="GPU")

    def step_fn():
        i = tf.distribute.get_replica_context().replica_id_in_sync_group
        return tf.identity(i)

    per_replica_result = strategy.run(step_fn)
    local = strategy.experimental_local_results(per_replica_result)
    assert_device(local[0].device, "/job:localhost/replica:0/task:0/device:GPU:0", what="local[0].device")
    assert_device(local[1].device, "/job:localhost/replica:0/task:0/device:GPU:1", what="local[1].device")
    total = strategy.reduce("SUM", per_replica_result, axis=None)
    assert_device(total.device, "/job:localhost/replica:0/task:0/device:CPU:0", what="total.device",
                  call="MirroredStrategy(GPU:0, GPU:1).reduce(SUM, ...)")


# -- reduce.ring-order / reduce.subnormals (TF 2.21, not in the documents) --------------------------------
RING = DISTRIBUTE + """
out = strategy.run(lambda x: tf.distribute.get_replica_context().all_reduce("SUM", x), args=(values,))
result = strategy.experimental_local_results(out)[0]
"""


def _ring_chunk(n: int, replicas: int, itemsize: int, align: int = 64) -> int:
    """Clause reduce.ring-order restated: ceil(n / R) elements rounded up to whole 64-byte units,
    one unit more when already whole."""
    base = -(-n // replicas)
    nbytes = base * itemsize
    return base + ((align - nbytes) if nbytes < align else (align - nbytes % align)) // itemsize


@clause("reduce.ring-order", ref="tf221")
def test_all_reduce_adds_each_chunk_in_ring_order(backend):
    """Three CPU replicas hold 1 and two halves of float32's epsilon at 1: added 1 first they vanish
    (1 + 2^-24 rounds to 1, twice), added to each other first they survive (2^-23 + 1). The first
    chunk starts at replica 0, the second at replica 1."""
    n = 48
    one, half_eps = np.float32(1.0), np.float32(2.0 ** -24)
    comps = [np.full(n, one), np.full(n, half_eps), np.full(n, half_eps)]
    prog = Program(backend, RING, kind="mirrored", n=3, components=comps)
    ns = prog.run()
    per = _ring_chunk(n, 3, 4)
    want = np.empty(n, np.float32)
    for c in range(3):
        lo, hi = min(c * per, n), min((c + 1) * per, n)
        order = [comps[(c + k) % 3][lo:hi] for k in range(3)]
        want[lo:hi] = (order[0] + order[1]) + order[2]
    prog.expect("result", want)
    call = "MirroredStrategy(3 CPUs).run(all_reduce(SUM)) of [1.0]*48 | [2^-24]*48 | [2^-24]*48"
    assert_true(not np.array_equal(want, (comps[0] + comps[1]) + comps[2]), "vacuous case: every order agrees",
                call=call)
    assert_equal(ns["result"], want, call=call, what="out (chunks of 32 and 16 elements, in ring order)")


@clause("reduce.subnormals", ref="tf221")
@pytest.mark.parametrize("how", ["reduce", "all_reduce"])
def test_cross_replica_sums_flush_subnormals(backend, how):
    """Subnormal components are read as zeros, and a sum of normal numbers that cancels to a
    subnormal is written as a zero: 3t - t - 1.75t is 0.25t exactly, t the smallest normal float32."""
    t = np.finfo(np.float32).tiny
    comps = [np.array([3 * t, t / 4, -t / 2, 1.0], np.float32), np.array([-t, t / 4, 0.0, 2.0], np.float32),
             np.array([-1.75 * t, t / 4, 0.0, 4.0], np.float32)]
    code = DISTRIBUTE + ("result = strategy.reduce('SUM', values, axis=None)\n" if how == "reduce" else
                         RING[len(DISTRIBUTE):])
    prog = Program(backend, code, kind="mirrored", n=3, components=comps)
    ns = prog.run()
    want = np.array([0.0, 0.0, 0.0, 7.0], np.float32)
    prog.expect("result", want)
    got = to_numpy(ns["result"])
    assert_equal(got, want, call=f"MirroredStrategy(3 CPUs) {how} SUM of [3t, t/4, -t/2, 1] | [-t, t/4, 0, 2] | "
                 "[-1.75t, t/4, 0, 4] (t = float32 tiny)", what="out (subnormal sums flushed to zero)")


# -- extended.reduce-to ----------------------------------------------------------------------------------
REDUCE_TO = DISTRIBUTE + """
devices = backend.device_names(n)
summed = strategy.extended.reduce_to(tf.distribute.ReduceOp.SUM, values, devices[1])
averaged = strategy.extended.reduce_to("MEAN", values, devices[0])
batch = strategy.extended.batch_reduce_to("SUM", [(values, devices[0]), (values, devices[1])])
"""


@clause("extended.reduce-to")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_reduce_to_a_destination(backend, kind):
    """reduce_to reduces like reduce(axis=None) and puts the result on the destination device;
    batch_reduce_to does the same for each (value, destination) pair."""
    comps = [np.array([1., 2.], np.float32), np.array([3., 4.], np.float32)]
    prog = Program(backend, REDUCE_TO, kind=kind, n=2, components=comps)
    ns = prog.run()
    total = comps[0] + comps[1]
    prog.expect("summed", total)
    call = f"{kind}(2).extended.reduce_to(..., [1,2]|[3,4], destinations=...)"
    assert_equal(ns["summed"], total, call=call.replace("...", "SUM", 1))
    assert_equal(ns["averaged"], total / 2, call=call.replace("...", "MEAN", 1))
    for name, i in (("summed", 1), ("averaged", 0)):
        if not device_matches(ns[name].device, ns["devices"][i]):
            fail(f"{name}.device={ns[name].device!r}, but should be the destination {ns['devices'][i]!r}", call)
    assert_equal(len(ns["batch"]), 2, what="len(batch_reduce_to(...))", call=call)
    for i, r in enumerate(ns["batch"]):
        for j, comp in enumerate(ns["strategy"].experimental_local_results(r)):
            assert_equal(comp, total, what=f"batch_reduce_to(...)[{i}] component {j}", call=call)


@clause("extended.reduce-to")
def test_reduce_to_needs_cross_replica_context(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    dest = backend.device_names(2)[0]

    def fn():
        return strategy.extended.reduce_to("SUM", tf.constant(1.0), dest)

    with raises(RuntimeError, match="cross-replica context", call="mirrored(2).run(extended.reduce_to(...))"):
        strategy.run(fn)


# -- reduce.doc-example-loop ---------------------------------------------------------------------
CSS_LOOP = """
strategy = backend.make_strategy("central_storage", 2)
ds = tf.data.Dataset.range(10)
dist_dataset = strategy.experimental_distribute_dataset(ds)
with strategy.scope():
    @tf.function
    def train_step(val):
        return val
    for x in dist_dataset:
        result = strategy.run(train_step, args=(x,))
by_replica = strategy.reduce(tf.distribute.ReduceOp.SUM, result, axis=None)
total = strategy.reduce(tf.distribute.ReduceOp.SUM, result, axis=0)
"""


@clause("reduce.doc-example-loop", ref="doc")
def test_doc_example_loop_documented_values(backend):
    """The CentralStorage reduce example exactly as documented: [4,6,8,10] and 28."""
    prog = Program(backend, CSS_LOOP)
    ns = prog.run()
    prog.expect("by_replica", [4, 6, 8, 10])
    prog.expect("total", 28)
    assert_equal(ns["by_replica"], np.array([4, 6, 8, 10]), call="CSS doc example, reduce(SUM, axis=None)")
    assert_equal(ns["total"], np.int64(28), call="CSS doc example, reduce(SUM, axis=0)")


@clause("reduce.doc-example-loop", ref="tf221")
def test_doc_example_loop_unbatched_raises_index_error(backend):
    prog = Program(backend, CSS_LOOP)
    prog.expect_error("IndexError (TF 2.21: unbatched dataset over 2 replicas)")
    with raises(IndexError, call="CentralStorage(2).experimental_distribute_dataset(Dataset.range(10))"):
        prog.run()


@clause("reduce.doc-example-loop", ref="tf221")
def test_doc_example_loop_batched_last_step(backend):
    prog = Program(backend, CSS_LOOP.replace("Dataset.range(10)", "Dataset.range(10).batch(8)"))
    ns = prog.run()
    prog.expect("by_replica", [17])
    prog.expect("total", 17)
    assert_equal([to_numpy(v).tolist() for v in ns["strategy"].experimental_local_results(ns["result"])],
                 [[8], [9]], what="last step", call="CSS(2), Dataset.range(10).batch(8)")
    assert_equal(ns["by_replica"], np.array([17]), call="CSS(2) range(10).batch(8): reduce(SUM, axis=None)")
    assert_equal(ns["total"], np.int64(17), call="CSS(2) range(10).batch(8): reduce(SUM, axis=0)")


@clause("reduce.axis-none", ref="tf221")
def test_reduce_returns_plain_tensor(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    values = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant([1., 2.]))
    out = strategy.reduce("SUM", values, axis=None)
    assert_type_name(out, ("EagerTensor", "Tensor"), call="mirrored.reduce(SUM, axis=None)")
