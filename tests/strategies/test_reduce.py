"""Strategy.reduce: clauses reduce.* (values observed on TF 2.21, see shared/reference §1)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import assert_value
from strategies_helpers import mirrored, per_replica
from simdist import tf


@pytest.mark.clause("reduce.axis-none")
def test_axis_none_documented_example():
    s = mirrored(2)
    v = per_replica(s, [[0, 1, 2, 3], [4, 5, 6, 7]])
    assert_value(s.reduce("SUM", v, axis=None), [4, 6, 8, 10], "reduce(SUM, axis=None)", "int32")


@pytest.mark.clause("reduce.axis-batch")
def test_axis_batch_documented_example():
    s = mirrored(2)
    v = per_replica(s, [[0, 1, 2, 3], [4, 5, 6, 7]])
    assert_value(s.reduce("SUM", v, axis=0), 28, "reduce(SUM, axis=0)", "int32")


@pytest.mark.clause("reduce.partial-batch")
def test_partial_batch_mean_uses_true_count():
    s = mirrored(2)
    v = per_replica(s, [[0., 1., 2., 3.], [4., 5.]])
    assert_value(s.reduce("MEAN", v, axis=0), 15.0 / 6, "reduce(MEAN, axis=0) over [0..3]/[4,5]", "float32")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input 0: \[4\] != input 1: \[2\]"):
        s.reduce("SUM", v, axis=None)


@pytest.mark.clause("reduce.partial-batch")
def test_integer_mean_is_float64_and_empty_replica_counts_zero():
    s = mirrored(2)
    v = per_replica(s, [np.array([1, 2, 3, 4], np.int32), np.array([1, 2], np.int32)])
    assert_value(s.reduce("MEAN", v, axis=0), 13 / 6, "reduce(MEAN, axis=0) int32", "float64")
    e = per_replica(s, [np.array([[1., 2.], [3., 4.]], np.float32), np.zeros((0, 2), np.float32)])
    assert_value(s.reduce("MEAN", e, axis=0), [2., 3.], "reduce(MEAN, axis=0) with an empty replica", "float32")


@pytest.mark.clause("reduce.string-op")
@pytest.mark.parametrize("op", ["sum", "Sum", "SUM"])
def test_string_ops_any_case(op):
    s = mirrored(2)
    v = per_replica(s, [[1.], [2.]])
    assert_value(s.reduce(op, v, axis=None), [3.], f"reduce({op!r})")


@pytest.mark.clause("reduce.string-op")
def test_unknown_string_op():
    s = mirrored(2)
    with pytest.raises(ValueError, match="'MAX' is not a valid ReduceOp"):
        s.reduce("max", per_replica(s, [[1.], [2.]]), axis=None)


def test_non_reduceop_with_axis_is_type_error():
    s = mirrored(2)
    with pytest.raises(TypeError, match="Expected `reduce_op` to be a `tf.distribute.ReduceOp`, not: 1"):
        s.reduce(1, per_replica(s, [[1.], [2.]]), axis=0)


@pytest.mark.clause("reduce.replica-ids")
def test_reduce_replica_ids():
    s = mirrored(2)
    ids = s.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
    assert_value(s.reduce(tf.distribute.ReduceOp.SUM, ids, axis=None), 1, "reduce(SUM, replica ids)", "int32")


@pytest.mark.clause("reduce.plain-value")
def test_plain_values_one_device_and_default():
    od = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert od.reduce("SUM", 5, None) == 5
    assert_value(od.reduce("MEAN", tf.constant([1., 2.]), 0), 1.5, "OneDevice reduce(MEAN, [1,2], 0)")
    d = tf.distribute.get_strategy()
    assert_value(d.reduce("SUM", tf.constant([1., 2.]), None), [1., 2.], "default reduce(SUM, axis=None)")


@pytest.mark.clause("reduce.plain-value")
def test_plain_value_with_two_replicas():
    s = mirrored(2)
    t = tf.constant(3.0)
    with pytest.raises(ValueError, match=r"A non-DistributedValues value tf.Tensor\(3.0, shape=\(\), dtype=float32\) "
                                         r"cannot be reduced with the given reduce op ReduceOp.SUM."):
        s.reduce("SUM", t, None)
    assert s.reduce("MEAN", t, None) is t
    assert_value(s.reduce("SUM", tf.constant([3., 4.]), 0), 14.0, "broadcast plain value, SUM axis 0")
    assert_value(s.reduce("MEAN", tf.constant([3., 4.]), 0), 3.5, "broadcast plain value, MEAN axis 0")


@pytest.mark.clause("reduce.result-device")
def test_result_on_host_cpu():
    s = mirrored(2)
    out = s.reduce("SUM", per_replica(s, [[1.], [2.]]), None)
    assert out.device == "/job:localhost/replica:0/task:0/device:CPU:0", out.device


def test_reduce_inside_run_is_an_error():
    s = mirrored(2)
    with pytest.raises(RuntimeError, match="Method requires being in cross-replica context"):
        s.run(lambda: s.reduce("SUM", tf.constant(1.), None))


def test_negative_and_tuple_axes():
    s = mirrored(2)
    v = per_replica(s, [np.ones((2, 3), np.float32), 2 * np.ones((2, 3), np.float32)])
    assert_value(s.reduce("SUM", v, axis=-1), [9., 9.], "reduce(SUM, axis=-1)")
    assert_value(s.reduce("MEAN", v, axis=(0, 1)), 1.5, "reduce(MEAN, axis=(0, 1))")
    with pytest.raises(TypeError, match="not in list of allowed values: int32, int64"):
        s.reduce("SUM", v, axis=0.5)
    with pytest.raises(ValueError, match="Invalid reduction dimension 2 for input with 2 dimensions"):
        s.reduce("SUM", v, axis=2)


shapes = st.tuples(st.integers(0, 4), st.integers(1, 3))


@given(n=st.integers(1, 4), rows=st.lists(st.integers(0, 5), min_size=4, max_size=4),
       cols=st.integers(1, 3), seed=st.integers(0, 2**31 - 1), op=st.sampled_from(["SUM", "MEAN"]))
def test_property_axis0_equals_concatenation(n, rows, cols, seed, op):
    """reduce(op, axis=0) equals op over the concatenated components (the true count for MEAN)."""
    s = mirrored(n)
    rng = np.random.default_rng(seed)
    arrays = [rng.integers(-5, 5, size=(rows[i], cols)).astype(np.float64) for i in range(n)]
    if sum(rows[:n]) == 0 and op == "MEAN":
        return  # 0/0: NaN on both TF and simdist; covered by the differential tests
    v = per_replica(s, arrays)
    cat = np.concatenate(arrays, axis=0)
    expected = cat.sum(axis=0) if op == "SUM" else cat.sum(axis=0) / cat.shape[0]
    assert_value(s.reduce(op, v, axis=0), expected, f"reduce({op}, axis=0) over rows {rows[:n]}")


@given(n=st.integers(1, 4), shape=st.lists(st.integers(1, 3), min_size=0, max_size=3), seed=st.integers(0, 99))
def test_property_axis_none_is_elementwise(n, shape, seed):
    s = mirrored(n)
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal(shape).astype(np.float32) for _ in range(n)]
    v = per_replica(s, arrays)
    assert_value(s.reduce("SUM", v, None), np.sum(arrays, axis=0), "reduce(SUM, None)", rtol=1e-5)
    assert_value(s.reduce("MEAN", v, None), np.sum(arrays, axis=0) / n, "reduce(MEAN, None)", rtol=1e-5)
