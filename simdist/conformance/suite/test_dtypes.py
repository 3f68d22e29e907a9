"""Every numeric dtype, both axis forms — clauses reduce.dtypes and gather.dtypes (TF 2.21 observed).

The documents say nothing about dtypes; these rules are what TensorFlow 2.21 does on CPUs
(tf-2.21 runs, docs/spec.md). Expected values are computed here with NumPy on data chosen so
that every result is exact in every dtype (no rounding to argue about).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_dtype, assert_equal, device_matches, fail, raises
from simdist.conformance.repro import Program

clause = pytest.mark.clause

NUMERIC = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16")
#: What TF 2.21's CPU collectives (CollectiveReduceV2 / CollectiveGatherV2) accept.
COLLECTIVE = ("float16", "float32", "float64", "int32", "int64")
SMALL_INTS = ("int8", "int16", "uint8", "uint16")


def mean_dtype(dtype: str) -> str:
    """MEAN is TF's truediv: 8/16-bit integers give float32, 32/64-bit integers float64."""
    if dtype in SMALL_INTS:
        return "float32"
    if dtype in ("int32", "int64"):
        return "float64"
    return dtype


DISTRIBUTE = """
strategy = backend.make_strategy(kind, n)
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(components[ctx.replica_id_in_sync_group], dtype=dtype))
result = strategy.reduce(op, values, axis=axis)
"""

# axis=None: same shapes, elementwise; axis=0: uneven batches (3 rows and 2 rows).
SAME_SHAPE = [np.array([1, 2, 3]), np.array([5, 6, 9])]
UNEVEN = [np.array([1, 2, 3]), np.array([4, 5])]


def _expected(op: str, axis, comps: list[np.ndarray]) -> np.ndarray:
    if axis is None:
        total = np.sum(np.stack(comps), axis=0)
        return total if op == "SUM" else total / len(comps)
    allv = np.concatenate(comps)
    return np.sum(allv) if op == "SUM" else np.sum(allv) / allv.size


@clause("reduce.dtypes", ref="tf221")
@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_reduce_every_dtype_both_axis_forms(backend, kind, dtype):
    """SUM keeps the dtype; MEAN divides by the replica count (axis=None) or the true element
    count (axis=0), in the dtype of truediv."""
    for op in ("SUM", "MEAN"):
        for axis, comps in ((None, SAME_SHAPE), (0, UNEVEN)):
            prog = Program(backend, DISTRIBUTE, kind=kind, n=2, dtype=dtype, op=op, axis=axis,
                           components=[c.astype(dtype) for c in comps])
            ns = prog.run()
            want_dtype = dtype if op == "SUM" else mean_dtype(dtype)
            expected = np.asarray(_expected(op, axis, comps)).astype(want_dtype)
            prog.expect("result", expected)
            call = f"{kind}(2).reduce({op}, {dtype} {[c.tolist() for c in comps]}, axis={axis})"
            assert_dtype(ns["result"], want_dtype, call=call)
            assert_equal(ns["result"], expected, call=call)


@clause("reduce.dtypes", ref="tf221")
@pytest.mark.parametrize("dtype,big", [("int64", 2**40 + 1), ("float64", 1.0 + 2.0**-30)])
@pytest.mark.parametrize("axis", [None, 0])
def test_reduce_sums_in_the_input_dtype(backend, dtype, big, axis):
    """Sums are formed in the components' dtype: int64 beyond 2**24 and float64 beyond float32's
    precision come back exact."""
    comps = [np.array([big, 2], dtype=dtype), np.array([big, 3], dtype=dtype)]
    prog = Program(backend, DISTRIBUTE, kind="mirrored", n=2, dtype=dtype, op="SUM", axis=axis, components=comps)
    ns = prog.run()
    expected = comps[0] + comps[1] if axis is None else np.sum(np.concatenate(comps))
    prog.expect("result", expected)
    assert_equal(ns["result"], expected.astype(dtype), call=f"mirrored(2).reduce(SUM, {dtype} {comps}, axis={axis})")


@clause("reduce.dtypes", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage", "one_device"])
@pytest.mark.parametrize("dtype", ["int32", "int8", "float16"])
def test_one_replica_reduce_returns_the_component(backend, kind, dtype):
    """With one replica, reduce(MEAN, axis=None) returns the component unchanged (an integer
    stays an integer); with axis=0 it is reduced as usual."""
    prog = Program(backend, DISTRIBUTE, kind=kind, n=1, dtype=dtype, op="MEAN", axis=None,
                   components=[np.array([1, 2])])
    ns = prog.run()
    call = f"{kind}(1).reduce(MEAN, {dtype} [1, 2], axis=None)"
    assert_dtype(ns["result"], dtype, call=call)
    assert_equal(ns["result"], np.array([1, 2], dtype=dtype), call=call)
    prog.params["axis"] = 0
    ns = prog.run()
    call = f"{kind}(1).reduce(MEAN, {dtype} [1, 2], axis=0)"
    assert_dtype(ns["result"], mean_dtype(dtype), call=call)
    assert_equal(ns["result"], np.asarray(1.5, dtype=mean_dtype(dtype)), call=call)


ALL_REDUCE = """
strategy = backend.make_strategy(kind, n)
def fn():
    ctx = tf.distribute.get_replica_context()
    return ctx.all_reduce(op, tf.cast(ctx.replica_id_in_sync_group, dtype) + tf.constant([1, 2], dtype))
result = strategy.run(fn)
"""


@clause("reduce.dtypes", ref="tf221")
@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_all_reduce_every_dtype(backend, tf, kind, dtype):
    """ReplicaContext.all_reduce: every replica gets the SUM (same dtype) or MEAN (truediv dtype)
    on its own device. MirroredStrategy's CPU collective rejects 8- and 16-bit integers
    (InvalidArgumentError); CentralStorageStrategy reduces on one device and takes every dtype."""
    n = 2
    for op in ("SUM", "MEAN"):
        prog = Program(backend, ALL_REDUCE, kind=kind, n=n, dtype=dtype, op=op)
        call = f"{kind}({n}).run(all_reduce({op}, {dtype} replica_id + [1, 2]))"
        if kind == "mirrored" and dtype in SMALL_INTS:
            prog.expect_error("InvalidArgumentError (the CPU collective has no kernel for this dtype)")
            with raises(tf.errors.InvalidArgumentError, call=call):
                prog.run()
            continue
        ns = prog.run()
        rows = [np.array([1, 2]) + i for i in range(n)]
        total = np.sum(rows, axis=0)
        want_dtype = dtype if op == "SUM" else mean_dtype(dtype)
        expected = (total if op == "SUM" else total / n).astype(want_dtype)
        prog.expect("strategy.experimental_local_results(result)", [expected] * n)
        s = ns["strategy"]
        local = s.experimental_local_results(ns["result"])
        devices = backend.device_names(n)
        for i, v in enumerate(local):
            assert_dtype(v, want_dtype, call=call, what=f"replica {i}")
            assert_equal(v, expected, call=call, what=f"replica {i}")
            if not device_matches(v.device, devices[i]):
                fail(f"replica {i}.device={v.device!r}, but should be replica {i}'s device {devices[i]!r}", call)


GATHER = """
strategy = backend.make_strategy(kind, n)
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(components[ctx.replica_id_in_sync_group], dtype=dtype))
gathered = strategy.gather(values, axis=0)
def fn():
    ctx = tf.distribute.get_replica_context()
    return ctx.all_gather(tf.cast(ctx.replica_id_in_sync_group, dtype) + tf.constant([1, 2], dtype), 0)
all_gathered = strategy.run(fn)
"""


@clause("gather.dtypes", ref="tf221")
@pytest.mark.parametrize("dtype", COLLECTIVE)
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_gather_keeps_every_collective_dtype(backend, kind, dtype):
    """gather and all_gather concatenate in replica order and keep the dtype."""
    comps = [np.array([1, 2, 3]), np.array([4, 6])]
    prog = Program(backend, GATHER, kind=kind, n=2, dtype=dtype, components=comps)
    ns = prog.run()
    expected = np.concatenate(comps).astype(dtype)
    prog.expect("gathered", expected)
    call = f"{kind}(2).gather({dtype} [1,2,3] | [4,6], axis=0)"
    assert_dtype(ns["gathered"], dtype, call=call)
    assert_equal(ns["gathered"], expected, call=call)
    everyone = np.array([1, 2, 2, 3], dtype=dtype)
    for i, v in enumerate(ns["strategy"].experimental_local_results(ns["all_gathered"])):
        assert_dtype(v, dtype, call=f"{kind}(2).all_gather({dtype})", what=f"replica {i}")
        assert_equal(v, everyone, call=f"{kind}(2).all_gather({dtype})", what=f"replica {i}")


@clause("gather.dtypes", ref="tf221")
@pytest.mark.parametrize("dtype", SMALL_INTS)
def test_small_integers_gather_on_central_storage_only(backend, tf, dtype):
    """CentralStorageStrategy concatenates 8- and 16-bit integers; MirroredStrategy's CPU
    collective gather rejects them with TypeError (gather and all_gather alike)."""
    comps = [np.array([1, 2, 3]), np.array([4, 6])]
    prog = Program(backend, GATHER, kind="central_storage", n=2, dtype=dtype, components=comps)
    ns = prog.run()
    assert_dtype(ns["gathered"], dtype, call=f"central_storage(2).gather({dtype})")
    assert_equal(ns["gathered"], np.concatenate(comps).astype(dtype), call=f"central_storage(2).gather({dtype})")
    strategy = backend.make_strategy("mirrored", 2)
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(comps[ctx.replica_id_in_sync_group], dtype=dtype))
    with raises(TypeError, match="not in list of allowed values", call=f"mirrored(2).gather({dtype})"):
        strategy.gather(values, axis=0)

    def fn():
        return tf.distribute.get_replica_context().all_gather(tf.constant([1, 2], dtype), 0)

    strategy = backend.make_strategy("mirrored", 2)
    with raises(TypeError, match="not in list of allowed values", call=f"mirrored(2).run(all_gather({dtype}))"):
        strategy.run(fn)


@clause("reduce.dtypes", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "one_device"])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_one_replica_all_reduce_mean_keeps_integers(backend, tf, kind, dtype):
    """A lone replica's all_reduce returns its value untouched: MEAN of integers stays integer."""
    strategy = backend.make_strategy(kind, 1)
    out = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce(
        "MEAN", tf.constant([3, 4], getattr(tf, dtype))))
    call = f"{kind}(1).run(all_reduce(MEAN, {dtype} [3, 4]))"
    assert_dtype(out, dtype, call=call)
    assert_equal(out, np.array([3, 4], dtype=dtype), call=call)


@clause("ops.dtype-text", ref="tf221")
@pytest.mark.parametrize("name", ["float32", "float64", "int32", "int64", "bool", "float16"])
def test_a_dtype_prints_as_tfs(backend, name):
    """str() of a tf.DType is <dtype: 'name'> (DType.__str__), repr() is tf.name."""
    tf = backend.tf
    d = getattr(tf, name)
    got = (str(d), repr(d), f"{tf.zeros([1], dtype=d).dtype}")
    want = (f"<dtype: '{name}'>", f"tf.{name}", f"<dtype: '{name}'>")
    assert got == want, f"(str, repr, f-string of a tensor's dtype) = {got}, but should be {want} [tf.{name}]"
