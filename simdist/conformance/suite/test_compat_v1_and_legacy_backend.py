"""`tf.compat.v1` functions whose v1 signatures or semantics differ from TF 2's (clause
ops.compat-v1) and `tf.keras.backend`'s legacy functions (clause keras.backend.legacy).
Expected values are NumPy computations written here."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises

clause = pytest.mark.clause
A = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], np.float32)


@clause("ops.compat-v1", ref="tf221")
def test_v1_where_is_select_without_broadcasting(tf):
    v1 = tf.compat.v1
    assert_equal(v1.where(A > 0, A, -A), np.abs(A), call="compat.v1.where(c, x, y), all the same shape")
    assert_equal(v1.where(np.array([True, False]), A, -A), np.stack([A[0], -A[1]]),
                 call="compat.v1.where(vector c, x, y): rows")
    assert_equal(v1.where(A > 0), np.argwhere(A > 0), call="compat.v1.where(c)")
    with raises(tf.errors.InvalidArgumentError, match="must have the same size and shape",
                call="compat.v1.where(c, x, scalar): no broadcasting"):
        v1.where(A > 0, A, 1.0)
    with raises(tf.errors.InvalidArgumentError, match="Number of batches of 'then' must match size of 'cond'",
                call="compat.v1.where(vector of 3, x of 2 rows, y)"):
        v1.where(np.array([True, False, True]), A, -A)


@clause("ops.compat-v1", ref="tf221")
def test_v1_control_flow_unpacks_singletons_and_v1_argument_orders(tf):
    v1 = tf.compat.v1
    out = v1.cond(tf.constant(True), lambda: [tf.constant(1)], lambda: [tf.constant(2)])
    assert_equal(int(out), 1, call="compat.v1.cond returning [t] (strict=False unpacks it)")
    out = v1.cond(tf.constant(True), lambda: (tf.constant(1),), lambda: (tf.constant(2),), strict=True)
    assert_equal(len(out), 1, call="compat.v1.cond(strict=True)", what="len(result)")
    out = v1.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)])
    assert_equal(int(out), 3, call="compat.v1.while_loop over [i] (returned bare)")
    out = v1.while_loop(lambda i: i < 3, lambda i: [i + 1], [tf.constant(0)], return_same_structure=True)
    assert_equal(len(out), 1, call="compat.v1.while_loop(return_same_structure=True)", what="len(result)")
    out = v1.while_loop(lambda i: i < 3, lambda i: [i + 1], [tf.constant(0)])
    assert_equal(len(out), 1, call="compat.v1.while_loop with a body returning [i + 1] (not packed)",
                 what="len(result)")
    preds = np.array([[0.1, 0.9], [0.8, 0.2]], np.float32)
    assert_equal(v1.math.in_top_k(preds, np.array([1, 1]), 1), np.array([True, False]),
                 call="compat.v1.math.in_top_k(predictions, targets, k)")
    assert_equal(v1.gather(A, [1, 0]), A[[1, 0]], call="compat.v1.gather")
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    assert_equal(v1.nn.max_pool(x, 2, 2, "VALID").numpy().ravel(), np.array([5, 7, 13, 15], np.float32),
                 call="compat.v1.nn.max_pool(value, ksize, strides, padding)")
    got = v1.nn.convolution(input=np.ones((1, 4, 4, 1), np.float32), filter=np.ones((2, 2, 1, 1), np.float32),
                            padding="VALID", dilation_rate=(2, 2))
    assert_equal(got.numpy().ravel(), np.full(4, 4.0, np.float32),
                 call="compat.v1.nn.convolution(input, filter, padding, dilation_rate=(2, 2))")
    v = tf.Variable([1.0, 2.0])
    assert_equal(v1.assign_add(v, [1.0, 1.0]), np.array([2.0, 3.0], np.float32), call="compat.v1.assign_add")


@clause("keras.backend.legacy", ref="tf221")
def test_legacy_keras_backend_functions(keras):
    K = keras.backend
    a = K.constant(A)   # (the legacy functions take tensors: K.mean of an ndarray is AttributeError, as TF's)
    assert_close(K.mean(a, axis=1), A.mean(1), call="keras.backend.mean(axis=1)")
    assert_close(K.std(a, axis=1), A.std(1), call="keras.backend.std(axis=1)")
    assert_equal(K.int_shape(K.ones((2, 3))), (2, 3), call="keras.backend.int_shape")
    assert_close(K.batch_dot(np.ones((2, 3, 4), np.float32), np.ones((2, 4, 5), np.float32)),
                 np.full((2, 3, 5), 4.0, np.float32), call="keras.backend.batch_dot")
    assert_close(K.l2_normalize(a, axis=1), A / np.sqrt((A ** 2).sum(1, keepdims=True)),
                 call="keras.backend.l2_normalize(axis=1)")
    assert_equal(K.repeat_elements(a, 2, axis=1), np.repeat(A, 2, axis=1), call="keras.backend.repeat_elements")
    assert_close(K.get_value(K.variable(A)), A, call="keras.backend.get_value(variable(A))")
    assert_equal(K.image_data_format(), "channels_last", call="keras.backend.image_data_format()")
    assert_close(K.epsilon(), 1e-7, call="keras.backend.epsilon()")
    outputs = K.rnn(lambda x, s: (x + s[0], [x + s[0]]), np.ones((2, 3, 4), np.float32),
                    [np.zeros((2, 4), np.float32)])[1]
    assert_close(outputs, np.broadcast_to(np.arange(1, 4, dtype=np.float32)[None, :, None], (2, 3, 4)),
                 call="keras.backend.rnn(step adding the input to the state)", what="outputs")
