"""run, values, local results — clauses run.*, local-results.tuple, values-from-function,
num-replicas, cluster-resolver.single-worker, repr.per-replica (semantics §4–§6)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simdist.conformance import hyp
from simdist.conformance.assertions import (assert_close, assert_equal, assert_true, assert_type_name, fail,
                                            raises, to_numpy)
from simdist.conformance.repro import Program

clause = pytest.mark.clause


# -- run.per-replica -----------------------------------------------------------------------------
@clause("run.per-replica")
@given(data=st.data())
def test_fn_called_once_per_replica_with_its_component(backend, data):
    kind, n = data.draw(hyp.strategy_setups(backend))
    comps = data.draw(hyp.same_shape_components(n, dtype="float32", max_rank=1))
    prog = Program(backend, """
strategy = backend.make_strategy(kind, n)
calls = []
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(components[ctx.replica_id_in_sync_group]))
shared = tf.constant(10.0)
def fn(x, y, scale=1.0):
    calls.append(1)
    return x * scale + y
result = strategy.run(fn, args=(values, shared), kwargs={"scale": 2.0})
local = strategy.experimental_local_results(result)
""", kind=kind, n=n, components=comps)
    ns = prog.run()
    call = f"{kind}({n}).run(fn, args=(per-replica, tensor), kwargs={{'scale': 2.0}})"
    assert_equal(len(ns["calls"]), n, what="number of fn calls", call=call)
    assert_equal(len(ns["local"]), n, what="number of local results", call=call)
    for i, v in enumerate(ns["local"]):
        assert_close(v, comps[i] * 2 + 10, what=f"replica {i}", call=call)


@clause("run.per-replica", ref="doc")
def test_css20_experimental_run_v2(backend, tf):
    """CSS20 documents `experimental_run_v2(fn, args=(), kwargs=None)`: fn runs on each compute replica."""
    strategy = backend.make_strategy("central_storage", 2)
    run_v2 = getattr(strategy, "experimental_run_v2", None)
    if run_v2 is None:
        fail("CentralStorageStrategy has no experimental_run_v2 (documented in r2.0)",
             call="strategy.experimental_run_v2")
    out = run_v2(lambda x: x * 2, args=(tf.constant(3.0),))
    assert_equal([float(to_numpy(v)) for v in strategy.experimental_local_results(out)], [6.0, 6.0],
                 what="components", call="experimental_run_v2(lambda x: x*2, args=(3.0,))")


@clause("run.per-replica", ref="tf221")
def test_args_must_be_a_tuple(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    with raises(ValueError, match="positional args must be a list or tuple", call="run(fn, args=tensor)"):
        strategy.run(lambda x: x, args=tf.constant(1.0))


@clause("run.per-replica", ref="tf221")
def test_a_replica_that_raises_stops_the_later_ones(backend, tf):
    """TF's MirroredStrategy runs its replicas one at a time to their next merge call and stops at
    the first that raised: the later replicas do not run that turn (fz13)."""
    strategy = backend.make_strategy("mirrored", 2)
    calls = []

    def fn():
        calls.append(len(calls))
        raise ValueError("replica failed")

    with raises(ValueError, match="replica failed", call="mirrored(2).run(fn raising in every replica)"):
        strategy.run(fn)
    assert_equal(len(calls), 1, what="replicas that ran fn", call="mirrored(2).run(fn raising in every replica)")

    def after_merge():
        calls.append("before")
        tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0))
        calls.append("after")
        raise ValueError("replica failed after a collective")

    calls.clear()
    with raises(ValueError, match="after a collective", call="mirrored(2).run(fn raising after all_reduce)"):
        strategy.run(after_merge)
    assert_equal(calls, ["before", "before", "after"], what="the replicas' steps",
                 call="mirrored(2).run(fn raising after all_reduce)")


# -- run.merged-result ---------------------------------------------------------------------------
@clause("run.merged-result")
@given(data=st.data())
def test_result_keeps_fn_structure(backend, tf, data):
    kind, n = data.draw(hyp.strategy_setups(backend))
    strategy = backend.make_strategy(kind, n)

    def fn():
        ctx = tf.distribute.get_replica_context()
        i = tf.cast(ctx.replica_id_in_sync_group, tf.float32)
        return {"a": i, "b": (i + 1.0, [i * 2.0])}

    out = strategy.run(fn)
    call = f"{kind}({n}).run(fn -> {{'a': i, 'b': (i+1, [2i])}})"
    assert_true(isinstance(out, dict) and sorted(out) == ["a", "b"], f"result {out!r} lost the dict structure", call=call)
    assert_true(isinstance(out["b"], tuple) and isinstance(out["b"][1], list), "nested tuple/list lost", call=call)
    leaves = [out["a"], out["b"][0], out["b"][1][0]]
    for leaf, scale, add in zip(leaves, (1.0, 1.0, 2.0), (0.0, 1.0, 0.0)):
        local = strategy.experimental_local_results(leaf)
        if n > 1:
            assert_type_name(leaf, ("PerReplica", "Mirrored", "DistributedValues"), what="leaf", call=call)
        assert_equal([float(to_numpy(v)) for v in local], [i * scale + add for i in range(n)], what="leaf components",
                     call=call)


@clause("run.merged-result")
@pytest.mark.parametrize("kind", ["one_device", "default", "mirrored"])
def test_single_replica_gives_plain_values(backend, tf, kind):
    strategy = backend.make_strategy(kind, 1)
    out = strategy.run(lambda: tf.constant(1.0))
    assert_type_name(out, ("Tensor", "EagerTensor"), call=f"{kind}(1).run(lambda: tf.constant(1.0))")


@clause("run.merged-result", ref="tf221")
def test_same_object_from_every_replica_is_returned_itself(backend, tf):
    """tf.cast to a tensor's own dtype returns that tensor (TF's cast), so every replica returns the
    same object and run gives it back as a plain tensor, not a PerReplica."""
    strategy = backend.make_strategy("mirrored", 2)
    x = tf.constant([1.0, 2.0])
    out = strategy.run(lambda: tf.cast(x, x.dtype))
    call = "mirrored(2).run(lambda: tf.cast(x, x.dtype))"
    assert_type_name(out, ("Tensor", "EagerTensor"), call=call)
    assert_equal(len(strategy.experimental_local_results(out)), 1, what="len(local results)", call=call)
    # a plain value reduces to itself (clause reduce.plain-value), not to a mean over replicas
    assert_equal(to_numpy(strategy.reduce("MEAN", out, axis=None)), np.array([1.0, 2.0], np.float32),
                 what="reduce MEAN", call=call)


@clause("run.merged-result")
def test_doc_constant_tensor_input(backend):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
tensor_input = tf.constant(3.0)
@tf.function
def replica_fn(input):
    return input*2.0
result = strategy.run(replica_fn, args=(tensor_input,))
""")
    ns = prog.run()
    assert_type_name(ns["result"], "PerReplica", call="run(replica_fn, args=(tf.constant(3.0),))")
    assert_equal([to_numpy(v) for v in ns["strategy"].experimental_local_results(ns["result"])],
                 [np.float32(6.0), np.float32(6.0)], what="components")


@clause("run.merged-result")
def test_doc_distributed_values_input_in_function(backend):
    """PSS/ODS run docs, example 2: the tf.function returns a plain tensor 4."""
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
@tf.function
def run():
    def value_fn(value_context):
        return value_context.num_replicas_in_sync
    distributed_values = (
        strategy.experimental_distribute_values_from_function(
            value_fn))
    def replica_fn2(input):
        return input*2
    return strategy.run(replica_fn2, args=(distributed_values,))
result = run()
""")
    ns = prog.run()
    prog.expect("result", 4)
    assert_equal(ns["result"], np.int32(4), call="doc example: run() with num_replicas_in_sync * 2")


@clause("run.merged-result", ref="tf221")
def test_same_python_value_from_all_replicas_returned_as_is(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    assert_equal(strategy.run(lambda x: x * 2, args=(3,)), 6, call="mirrored(2).run(lambda x: x*2, args=(3,))")
    assert_equal(strategy.run(lambda: None), None, call="mirrored(2).run(lambda: None)")
    c = tf.constant(1.0)
    assert_true(strategy.run(lambda: c) is c, "a captured tensor returned by every replica should come back as is",
                call="mirrored(2).run(lambda: c)")


# -- run.one-device-example ----------------------------------------------------------------------
ODS_LOOP = """
strategy = backend.make_strategy("one_device", 1)
def step_fn(x):
    return x * 2
result = 0
for i in range(10):
    result += strategy.run(step_fn, args=(i,))
"""


@clause("run.one-device-example")
def test_doc_one_device_loop(backend):
    prog = Program(backend, ODS_LOOP)
    ns = prog.run()
    prog.expect("result", 90)
    assert_equal(to_numpy(ns["result"]).item(), 90, call="OneDeviceStrategy doc loop")


@clause("run.one-device-example", ref="tf221")
def test_one_device_loop_stays_python_int(backend):
    prog = Program(backend, ODS_LOOP)
    ns = prog.run()
    assert_true(type(ns["result"]) is int, f"result is {type(ns['result']).__name__}, but TF 2.21 gives a Python int",
                call="OneDeviceStrategy doc loop")


@clause("run.one-device-example")
@pytest.mark.requires("gpus")
def test_doc_one_device_gpu(backend, tf):
    strategy = backend.make_strategy("one_device", 1, device_type="GPU")
    with strategy.scope():
        v = tf.Variable(1.0)
    assert_equal(v.device, "/job:localhost/replica:0/task:0/device:GPU:0", what="v.device",
                 call='OneDeviceStrategy(device="/gpu:0")')


# -- run.replica-context -------------------------------------------------------------------------
@clause("run.replica-context")
@given(data=st.data())
def test_replica_ids_and_all_reduce(backend, tf, data):
    kind, n = data.draw(hyp.strategy_setups(backend))
    op = data.draw(st.sampled_from(["sum", "SUM", "mean", "MEAN"]))
    prog = Program(backend, """
strategy = backend.make_strategy(kind, n)
def fn():
    ctx = tf.distribute.get_replica_context()
    i = ctx.replica_id_in_sync_group
    return i, ctx.num_replicas_in_sync, ctx.all_reduce(op, tf.cast(i, tf.float32) + 1.0)
ids, nums, totals = strategy.run(fn)
""", kind=kind, n=n, op=op)
    ns = prog.run()
    s = ns["strategy"]
    call = f"{kind}({n}).run(replica context)"
    assert_equal([int(to_numpy(v)) for v in s.experimental_local_results(ns["ids"])], list(range(n)),
                 what="replica_id_in_sync_group", call=call)
    assert_equal([int(to_numpy(v)) for v in s.experimental_local_results(ns["nums"])], [n] * len(s.experimental_local_results(ns["nums"])),
                 what="num_replicas_in_sync", call=call)
    total = n * (n + 1) / 2
    expected = total if op.upper() == "SUM" else total / n
    for i, v in enumerate(s.experimental_local_results(ns["totals"])):
        assert_close(v, expected, what=f"all_reduce({op!r}) on replica {i}", call=call)


@clause("run.replica-context")
def test_doc_all_reduce_example(backend):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
@tf.function
def run():
    def value_fn(value_context):
        return tf.constant(value_context.replica_id_in_sync_group)
    distributed_values = (
        strategy.experimental_distribute_values_from_function(
            value_fn))
    def replica_fn(input):
        return tf.distribute.get_replica_context().all_reduce("sum", input)
    return strategy.run(replica_fn, args=(distributed_values,))
result = run()
""")
    ns = prog.run()
    assert_type_name(ns["result"], "PerReplica", call="doc all_reduce example")
    assert_equal([to_numpy(v) for v in ns["strategy"].experimental_local_results(ns["result"])],
                 [np.int32(1), np.int32(1)], what="components", call="doc all_reduce example")


# -- local-results.tuple ---------------------------------------------------------------------------
@clause("local-results.tuple")
@given(data=st.data())
def test_local_results_tuple_in_replica_order(backend, tf, data):
    kind, n = data.draw(hyp.strategy_setups(backend))
    strategy = backend.make_strategy(kind, n)
    out = strategy.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group * 10)
    local = strategy.experimental_local_results(out)
    call = f"{kind}({n}).experimental_local_results(run result)"
    assert_true(isinstance(local, tuple), f"returned {type(local).__name__}, but should be a tuple", call=call)
    assert_equal([int(to_numpy(v)) for v in local], [10 * i for i in range(n)], what="components", call=call)
    plain = tf.constant(5.0)
    single = strategy.experimental_local_results(plain)
    assert_true(isinstance(single, tuple) and len(single) == 1 and single[0] is plain,
                f"experimental_local_results(tensor) returned {single!r}, but should be (tensor,)", call=call)


@clause("local-results.tuple", ref="tf221")
def test_local_results_of_nested_structure(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    ids = strategy.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
    local = strategy.experimental_local_results({"a": ids, "b": 3})
    assert_equal([{"a": int(to_numpy(x["a"])), "b": x["b"]} for x in local], [{"a": 0, "b": 3}, {"a": 1, "b": 3}],
                 what="local results of {'a': PerReplica, 'b': 3}")


# -- values-from-function --------------------------------------------------------------------------
VFF = """
strategy = backend.make_strategy(kind, n)
distributed_values = (
     strategy.experimental_distribute_values_from_function(
       value_fn))
local_result = strategy.experimental_local_results(distributed_values)
"""


@clause("values-from-function")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_doc_examples(backend, kind):
    prog = Program(backend, """
array_value = np.array([3., 2., 1.])
examples = {}
for name, value_fn in [("constant", lambda ctx: tf.constant(1.)),
                       ("array", lambda ctx: array_value[ctx.replica_id_in_sync_group]),
                       ("num", lambda ctx: ctx.num_replicas_in_sync)]:
""" + "\n".join("    " + line for line in VFF.strip().splitlines()) + """
    examples[name] = local_result
""", kind=kind, n=2)
    ns = prog.run()
    ex = ns["examples"]
    call = f"{kind}(2).experimental_distribute_values_from_function"
    assert_equal([to_numpy(v) for v in ex["constant"]], [np.float32(1.0), np.float32(1.0)], what="constant example", call=call)
    assert_equal([float(v) for v in ex["array"]], [3.0, 2.0], what="array example", call=call)
    assert_equal(list(ex["num"]), [2, 2], what="num_replicas_in_sync example", call=call)


@clause("values-from-function")
@given(data=st.data())
def test_value_context_per_replica(backend, tf, data):
    kind, n = data.draw(hyp.strategy_setups(backend, kinds=hyp.MULTI_REPLICA_KINDS))
    strategy = backend.make_strategy(kind, n)
    seen = []

    def value_fn(ctx):
        seen.append((ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync))
        return ctx.replica_id_in_sync_group

    local = strategy.experimental_local_results(strategy.experimental_distribute_values_from_function(value_fn))
    call = f"{kind}({n}).experimental_distribute_values_from_function"
    assert_equal(sorted(seen), [(i, n) for i in range(n)], what="ValueContexts", call=call)
    assert_equal([int(to_numpy(v)) for v in local], list(range(n)), what="components", call=call)


@clause("values-from-function", ref="doc")
def test_value_context_documented_name(backend, tf):
    """The docs: value_fn "is called for each replica with `tf.distribute.ValueContext`"."""
    assert_true(hasattr(tf.distribute, "ValueContext"), "tf.distribute has no ValueContext",
                call="tf.distribute.ValueContext")
    strategy = backend.make_strategy("mirrored", 2)
    seen = []
    strategy.experimental_distribute_values_from_function(lambda ctx: seen.append(ctx) or 0)
    assert_equal(len(seen), 2, what="value_fn calls", call="experimental_distribute_values_from_function")
    assert_true(all(isinstance(c, tf.distribute.ValueContext) for c in seen),
                f"value_fn got {[type(c).__name__ for c in seen]}", call="experimental_distribute_values_from_function")


@clause("values-from-function", ref="tf221")
def test_value_context_public_name_and_str(backend, tf):
    assert_true(not hasattr(tf.distribute, "ValueContext"), "TF 2.21 has no tf.distribute.ValueContext",
                call="tf.distribute.ValueContext")
    ctx = tf.distribute.experimental.ValueContext(2, 4)
    assert_equal(str(ctx), "tf.distribute.ValueContext(replica id 2,  total replicas in sync: 4)", what="str(ValueContext(2, 4))")


@clause("values-from-function", ref="tf221")
@pytest.mark.parametrize("kind", ["one_device", "default"])
def test_single_replica_returns_raw_value(backend, kind):
    strategy = backend.make_strategy(kind, 1)
    out = strategy.experimental_distribute_values_from_function(lambda ctx: ctx.num_replicas_in_sync)
    assert_equal(out, 1, call=f"{kind}.experimental_distribute_values_from_function(num_replicas_in_sync)")


# -- num-replicas ---------------------------------------------------------------------------------
@clause("num-replicas")
@given(data=st.data())
def test_num_replicas_in_sync(backend, data):
    kind, n = data.draw(hyp.strategy_setups(backend))
    strategy = backend.make_strategy(kind, n)
    assert_equal(strategy.num_replicas_in_sync, n, what="num_replicas_in_sync", call=f"{kind} over {n} device(s)")
    if kind != "default":  # the default strategy has no worker_devices
        assert_equal(len(strategy.extended.worker_devices), n, what="len(extended.worker_devices)", call=f"{kind}({n})")


@clause("num-replicas")
@pytest.mark.requires("host_config")
@pytest.mark.parametrize("cpus", [1, 3])
def test_mirrored_default_uses_every_cpu(backend, tf, cpus):
    backend.configure_host(cpus=cpus)
    strategy = tf.distribute.MirroredStrategy()
    assert_equal(strategy.num_replicas_in_sync, cpus, what="num_replicas_in_sync",
                 call=f"MirroredStrategy() on a host with {cpus} CPUs")


@clause("num-replicas")
@pytest.mark.requires("gpus", "host_config")
def test_mirrored_default_uses_every_gpu(backend, tf):
    backend.configure_host(cpus=1, gpus=3)
    assert_equal(tf.distribute.MirroredStrategy().num_replicas_in_sync, 3, what="num_replicas_in_sync",
                 call="MirroredStrategy() on a host with 3 GPUs")
    assert_equal(tf.distribute.experimental.CentralStorageStrategy().num_replicas_in_sync, 3,
                 what="num_replicas_in_sync", call="CentralStorageStrategy() on a host with 3 GPUs")


# -- cluster-resolver.single-worker ----------------------------------------------------------------
@clause("cluster-resolver.single-worker")
@pytest.mark.parametrize("kind,n", [("mirrored", 2), ("central_storage", 2), ("one_device", 1), ("default", 1)])
def test_single_worker_cluster_resolver_is_none(backend, kind, n):
    strategy = backend.make_strategy(kind, n)
    assert_equal(strategy.cluster_resolver, None, what="cluster_resolver", call=f"{kind}({n})")


# -- repr.per-replica ------------------------------------------------------------------------------
@clause("repr.per-replica", ref="tf221")
def test_per_replica_repr_and_str(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    out = strategy.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
    assert_equal(repr(out), "PerReplica:{\n  0: <tf.Tensor: shape=(), dtype=int32, numpy=0>,\n"
                            "  1: <tf.Tensor: shape=(), dtype=int32, numpy=1>\n}", what="repr(run result)")
    f = strategy.run(lambda: tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32))
    assert_equal(str(f), "PerReplica:{\n  0: tf.Tensor(0.0, shape=(), dtype=float32),\n"
                         "  1: tf.Tensor(1.0, shape=(), dtype=float32)\n}", what="str(run result)")


@clause("repr.per-replica", ref="tf221")
def test_per_replica_repr_of_python_values(backend):
    strategy = backend.make_strategy("mirrored", 2)
    out = strategy.experimental_distribute_values_from_function(lambda ctx: ctx.replica_id_in_sync_group)
    assert_equal(repr(out), "PerReplica:{\n  0: 0,\n  1: 1\n}", what="repr(values from function)")


@clause("run.merged-result", ref="tf221")
def test_replicas_returning_different_structures_raise(backend, tf):
    """Results are regrouped leaf by leaf; replicas returning lists of different lengths make
    TF 2.21's regroup fail an assertion (AssertionError "len(v) == 2, len(v0) == 1, ...")."""
    strategy = backend.make_strategy("mirrored", 2)
    ids = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(ctx.replica_id_in_sync_group))

    def fn(i):
        return [i] * (1 + int(i.numpy()))

    with raises(AssertionError, match="len", call="mirrored(2).run(fn returning [i] * (1 + i))"):
        strategy.run(fn, args=(ids,))


@clause("run.experimental-run")
@pytest.mark.parametrize("kind,n", [("mirrored", 2), ("central_storage", 2), ("one_device", 1)])
def test_doc_input_fn_iterator_and_experimental_run(backend, kind, n):
    """The ODS example: input_fn(InputContext) is called once (one worker) and gives per-replica
    batches; each experimental_run(replica_fn, iterator) takes one batch per replica."""
    prog = Program(backend, """
strategy = backend.make_strategy(kind, n)
global_batch_size = 2 * n
contexts = []
def input_fn(input_context):
    contexts.append((input_context.num_input_pipelines, input_context.input_pipeline_id,
                     input_context.num_replicas_in_sync))
    batch_size = input_context.get_per_replica_batch_size(global_batch_size)
    d = tf.data.Dataset.range(4 * n).batch(batch_size)
    return d.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
def replica_fn(batch):
    return tf.reduce_sum(batch)
with strategy.scope():
    iterator = strategy.make_input_fn_iterator(input_fn)
    results = [strategy.experimental_local_results(strategy.experimental_run(replica_fn, iterator))
               for _ in range(2)]
sums = [[int(backend.to_numpy(x)) for x in step] for step in results]
""", kind=kind, n=n)
    ns = prog.run()
    batches = [list(range(4 * n))[i:i + 2] for i in range(0, 4 * n, 2)]
    expected = [[sum(batches[step * n + r]) for r in range(n)] for step in range(2)]
    prog.expect("sums", expected)
    call = f"{kind}({n}): make_input_fn_iterator(input_fn) + experimental_run(reduce_sum, iterator) x 2"
    assert_equal(ns["contexts"], [[1, 0, n]], what="input_fn calls (num_input_pipelines, id, replicas)", call=call)
    assert_equal(ns["sums"], expected, what="per step, per replica sums", call=call)
