"""Error classes issue 29's fourteenth generator found (clause ops.argument-errors): attributes
TF's Python reads on arguments it has not converted, and the kernel lookup for an op's first
input type before its other inputs' types. The differential cases are
tests/ops/test_fz15c_edges_tf.py."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


@clause("ops.argument-errors", ref="tf221")
def test_unconverted_arguments_raise_attribute_error(tf):
    with raises(AttributeError, match="'str' object has no attribute 'mesh'", call="tf.fill([2], 1.0, layout='NHWC')"):
        tf.fill([2], 1.0, layout="NHWC")
    with raises(AttributeError, match="has no attribute 'is_floating'", call="tf.signal.hann_window(4, dtype=np.float32)"):
        tf.signal.hann_window(4, dtype=np.float32)
    with raises(ValueError, match="dtype must be a floating point type", call="tf.signal.hann_window(4, dtype=tf.int32)"):
        tf.signal.hann_window(4, dtype=tf.int32)
    with raises(AttributeError, match="'int' object has no attribute 'shape'", call="tf.signal.fftnd(2)"):
        tf.signal.fftnd(2)
    with raises(IndexError, match="tuple index out of range", call="tf.signal.rfftnd(x, axes=tf.constant(-1))"):
        tf.signal.rfftnd(tf.constant([1.0, 2.0]), axes=tf.constant(-1))
    with raises(AttributeError, match="'float' object has no attribute 'dtype'", call="tf.linalg.eig(1.0)"):
        tf.linalg.eig(1.0)


@clause("ops.argument-errors", ref="tf221")
def test_kernel_lookup_precedes_the_other_inputs_types(tf):
    a = tf.ones([2, 2], tf.uint16)
    with raises(tf.errors.NotFoundError, match="Could not find device for node", call="uint16 matrix @ int64 matrix"):
        tf.matmul(a, tf.ones([2, 2], tf.int64))
    with raises(tf.errors.InvalidArgumentError, match="cannot compute MatMul as input #1",
                call="int64 matrix @ uint16 matrix"):
        tf.matmul(tf.ones([2, 2], tf.int64), a)
    with raises(tf.errors.NotFoundError, match="Could not find device for node",
                call="tf.linalg.solve(half matrix, double rhs)"):
        tf.linalg.solve(tf.eye(2, dtype=tf.float16), tf.ones([2, 1], tf.float64))
    with raises(tf.errors.NotFoundError, match="Could not find device for node",
                call="tf.space_to_batch(bool vector, [2, 2], [[0, 0], [0, 0]])"):
        tf.space_to_batch(tf.ones([2], tf.bool), [2, 2], [[0, 0], [0, 0]])
    with raises(tf.errors.NotFoundError, match="Could not find device for node",
                call="tf.tensor_scatter_nd_min(complex64 tensor, [[0]], float32 updates)"):
        tf.tensor_scatter_nd_min(tf.ones([2], tf.complex64), [[0]], tf.ones([1], tf.float32))


@clause("ops.argument-errors", ref="tf221")
def test_attr_and_kernel_checks_in_tf_order(tf):
    with raises(tf.errors.InvalidArgumentError, match="cannot compute LogicalAnd as input #0",
                call="tf.math.logical_and(float tensor, np.float64(0.0))"):
        tf.math.logical_and(tf.constant([1.0]), np.float64(0.0))
    with raises(tf.errors.InvalidArgumentError, match="Length for attr 'strides' of 0 must be at least minimum 5",
                call="tf.nn.conv3d(x, f, strides=np.array([], np.int64), padding='VALID')"):
        tf.nn.conv3d(tf.ones([1, 2, 2, 2, 1]), tf.ones([1, 1, 1, 1, 1]), strides=np.array([], np.int64), padding="VALID")
    with raises(tf.errors.InvalidArgumentError, match="Value for attr 'data_format' of \"NHWC\"",
                call="tf.nn.conv3d_transpose(x, f, shape, 1, data_format='NHWC')"):
        tf.nn.conv3d_transpose(tf.ones([1, 2, 2, 2, 1]), tf.ones([1, 1, 1, 1, 1]), [1, 2, 2, 2, 1], 1, data_format="NHWC")
    with raises(tf.errors.InvalidArgumentError, match="must be at least minimum 1",
                call="tf.dynamic_partition(x, [0], 0)"):
        tf.dynamic_partition(tf.ones([3]), [0], 0)
    with raises(tf.errors.InvalidArgumentError, match=r"partitions\[1\] = 5 is not in \[0, 2\)",
                call="tf.dynamic_partition(x, [0, 5, 1], 2)"):
        tf.dynamic_partition(tf.ones([3]), [0, 5, 1], 2)
    with raises(tf.errors.InvalidArgumentError, match="Updates shape must have rank at least one",
                call="tf.tensor_scatter_nd_add([1.0, 2.0], [0], 1.0)"):
        tf.tensor_scatter_nd_add(tf.constant([1.0, 2.0]), [0], 1.0)
    with raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of bool",
                call="tf.nn.isotonic_regression([True])"):
        tf.nn.isotonic_regression([True])


@clause("ops.conversion", ref="tf221")
def test_tensor_shape_converts_to_its_dimensions(tf):
    t = tf.convert_to_tensor(tf.TensorShape([2, 3]))
    assert_equal(t, np.array([2, 3], np.int32), call="tf.convert_to_tensor(tf.TensorShape([2, 3]))")
    big = tf.convert_to_tensor(tf.TensorShape([2 ** 31, 3]))
    assert_equal(big, np.array([2 ** 31, 3], np.int64), call="tf.convert_to_tensor(tf.TensorShape([2**31, 3]))")
    with raises(ValueError, match="Cannot convert a partially known TensorShape",
                call="tf.convert_to_tensor(tf.TensorShape([None, 3]))"):
        tf.convert_to_tensor(tf.TensorShape([None, 3]))
    with raises(TypeError, match="Allowed dtypes are tf.int32 and tf.int64",
                call="tf.convert_to_tensor(tf.TensorShape([2, 3]), dtype=tf.float32)"):
        tf.convert_to_tensor(tf.TensorShape([2, 3]), dtype=tf.float32)


@clause("ops.argument-errors", ref="tf221")
def test_tensor_ksize_inside_a_function_is_iterated(tf):
    @tf.function
    def pool(x):
        return tf.nn.max_pool2d(x, tf.constant([2]), 1, "SAME")

    with raises(tf.errors.OperatorNotAllowedInGraphError, match="Iterating over a symbolic",
                call="tf.nn.max_pool2d(x, tf.constant([2]), 1, 'SAME') in a tf.function"):
        pool(tf.ones([1, 4, 4, 1]))
