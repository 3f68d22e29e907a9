"""Error classes issue 29's fourteenth generator found (clause ops.argument-errors): attributes
TF's Python reads on arguments it has not converted, and the kernel lookup for an op's first
input type before its other inputs' types. The differential cases are
tests/ops/test_fz15c_edges_tf.py."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import raises

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
