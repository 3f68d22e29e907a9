"""What issue 29's fz15d closed among the fourteenth generator's classes (tests/fuzz14): Grappler's
constant push-down inside tf.function, a one-row MatMul's order, the argument checks of Fill,
DynamicPartition and DynamicStitch, squeeze of an empty axis list, get_static_value while a
tf.function traces, broadcast_dynamic_shape's operand conversion and broadcast_static_shape's
refusal of non-TensorShapes, polygamma's poles, betainc's operand matching, and the assertions'
separate conversion of x and y. Expected values are computed here with NumPy; the differential
cases are tests/ops/test_fz15d_edges_tf.py."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, assert_true, raises

clause = pytest.mark.clause


@clause("function.grappler-rewrites", ref="tf221")
def test_constants_of_a_sum_are_added_first_inside_tf_function(tf):
    xs = np.array([1.0, 3.0, -2.0, 1e8], np.float32)
    x = tf.constant(xs)
    c1, c2 = np.float32(0.1), np.float32(0.2)
    got = tf.function(lambda v: (v + 0.1) + 0.2)(x)
    assert_equal(got, xs + (c2 + c1), call="tf.function(lambda v: (v + 0.1) + 0.2)(x): x + (0.2 + 0.1)")
    eager = (xs + c1) + c2
    assert_true(not np.array_equal(eager, xs + (c2 + c1)), "the example separates the two orders",
                call="(x + 0.1) + 0.2 eagerly")
    got = tf.function(lambda v: 0.3 - (v - 0.1))(x)
    assert_equal(got, (np.float32(0.3) + c1) - xs, call="tf.function(lambda v: 0.3 - (v - 0.1))(x): (0.3 + 0.1) - x")


@clause("ops.packet-paths", ref="tf221")
def test_one_row_matmul_accumulates_in_order_with_fused_multiply_adds(tf, onednn_float32):
    a = np.array([[-3.0, 2.5, -1.5]], np.float32)
    w = np.array([0.2989, 0.5870, 0.1140], np.float32)
    acc = np.float32(0.0)
    for j in range(3):   # acc = fma(a_j, w_j, acc): the product exact in float64, one rounding
        acc = np.float32(np.float64(a[0, j]) * np.float64(w[j]) + np.float64(acc))
    got = tf.matmul(a, w.reshape(3, 1))
    assert_equal(got, np.array([[acc]], np.float32), call="tf.matmul([[-3, 2.5, -1.5]], [[0.2989], [0.587], [0.114]])")
    gray = tf.image.rgb_to_grayscale(tf.constant(a))
    assert_equal(gray, np.array([[acc]], np.float32), call="tf.image.rgb_to_grayscale([[-3, 2.5, -1.5]])")


@clause("ops.argument-errors", ref="tf221")
def test_fill_partition_and_stitch_check_their_arguments(tf):
    with raises(tf.errors.InvalidArgumentError, match="value must represent a scalar",
                call="tf.fill([2, 3], np.array([[1], [0]], np.int8))"):
        tf.fill(tf.constant([2, 3]), np.array([[1], [0]], np.int8))
    assert_equal(tf.fill([2], [1.0]), np.array([1.0, 1.0], np.float32), call="tf.fill([2], [1.0])")
    with raises(tf.errors.InvalidArgumentError, match=r"partitions\[0\] = -1 is not in \[0, 3\)",
                call="tf.dynamic_partition([False], [-1], 3)"):
        tf.dynamic_partition(tf.constant([False]), [-1], num_partitions=3)
    with raises(tf.errors.InvalidArgumentError, match="must be at least minimum 1",
                call="tf.dynamic_partition([1, 2], [0, 1], 0)"):
        tf.dynamic_partition(tf.constant([1, 2]), [0, 1], num_partitions=0)
    with raises(tf.errors.InvalidArgumentError, match="does not start with",
                call="tf.dynamic_stitch([[0, 1]], [[1, 2, 3]])"):
        tf.dynamic_stitch([[0, 1]], [tf.constant([1, 2, 3])])
    with raises(tf.errors.InvalidArgumentError, match="is out of range", call="tf.dynamic_stitch([[-1]], [[5]])"):
        tf.dynamic_stitch([[-1]], [tf.constant([5])])
    v = np.array([[5.0], [7.0]], np.float32)
    assert_equal(tf.squeeze(tf.constant(v), []), v.squeeze(), call="tf.squeeze([[5.0], [7.0]], []) squeezes all")
    mean, _ = tf.nn.moments(tf.constant(v), axes=[])
    assert_equal(mean, v.squeeze(), call="tf.nn.moments([[5.0], [7.0]], axes=[])[0]")


@clause("ops.array-more", ref="tf221")
def test_static_values_and_broadcast_shape_operands(tf):
    def body(x):
        return tf.constant([int(tf.get_static_value(x) is None), int(tf.get_static_value(tf.constant(2)) is None)])
    f = tf.function(body, input_signature=[tf.TensorSpec([], tf.float32)])
    assert_equal(f(tf.constant(0.5)), np.array([1, 0], np.int32),
                 call="get_static_value(argument) is None, of a literal not, while tracing")
    tf.broadcast_dynamic_shape([1], [1])
    r = tf.broadcast_dynamic_shape(np.array([2, 3], np.int64), np.array([1], np.int64))
    assert_equal(r.dtype.name, "int32", call="tf.broadcast_dynamic_shape(np int64 [2, 3], np int64 [1]).dtype")
    r = tf.broadcast_dynamic_shape(tf.constant([3, 3]), tf.TensorShape([3]))
    assert_equal(r, np.broadcast_shapes((3, 3), (3,)), call="tf.broadcast_dynamic_shape([3, 3], TensorShape([3]))")
    with raises(AttributeError, match="ndims", call="tf.broadcast_static_shape([2, 3], np.array([]))"):
        tf.broadcast_static_shape([2, 3], np.array([], np.int64))


@clause("ops.special-functions", ref="tf221")
def test_polygamma_at_nonpositive_integers(tf):
    n = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    got = tf.math.polygamma(tf.constant(n), tf.constant([0.0, -1.0, -2.0, 0.0]))
    want = np.where(np.fmod(n, 2) == 1, np.inf, np.nan).astype(np.float32)   # zeta(n + 1, x): inf for even n + 1
    assert_equal(np.isnan(np.asarray(got)), np.isnan(want), call="isnan(polygamma(n, 0 or a negative integer))")
    assert_equal(np.asarray(got)[~np.isnan(want)], want[~np.isnan(want)], call="polygamma(odd n, pole) = +inf")


@clause("ops.conversion", ref="tf221")
def test_betainc_converts_values_to_the_tensor_dtype(tf):
    x = tf.constant([0.5, 0.25], tf.float64)
    r = tf.math.betainc(a=2, b=np.float32(3.0), x=x)
    assert_equal(r.dtype.name, "float64", call="tf.math.betainc(2, np.float32(3.0), float64 x).dtype")
    r = tf.math.betainc(np.float64(2.0), 4.0, tf.constant(0.5))
    assert_equal(r.dtype.name, "float32", call="tf.math.betainc(np.float64(2.0), 4.0, float32 x).dtype")


@clause("ops.debugging-checks", ref="tf221")
def test_assertions_convert_x_and_y_each_on_its_own(tf):
    with raises(tf.errors.InvalidArgumentError, match="cannot compute Equal",
                call="tf.debugging.assert_equal(float64 -0.0, -0.0)"):
        tf.debugging.assert_equal(tf.constant(-0.0, tf.float64), -0.0)
    with raises(tf.errors.InvalidArgumentError, match="cannot compute Greater",
                call="tf.debugging.assert_greater(32767, -(2 ** 63))"):
        tf.debugging.assert_greater(32767, -(2 ** 63))
    assert_equal(tf.debugging.assert_equal(tf.constant([1, 2]), [1, 2]), None,
                 call="tf.debugging.assert_equal(int32 [1, 2], [1, 2])")
