"""`tf.keras.ops` — clause keras.ops (TF 2.21 + Keras 3.15: keras/src/ops and
keras/src/backend/tensorflow): Keras's dtype rules, a few values per family, and ops on
KerasTensors in a functional model.

Expected values are NumPy computations written here, never the backend's.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises

clause = pytest.mark.clause

A = np.array([[1.5, -2.0, 0.0], [3.0, 0.5, -1.0]], np.float32)
B = np.array([[0.5, 1.0, 2.0], [-1.0, 4.0, 0.25]], np.float32)
I = np.array([[1, -2, 3], [4, 0, -6]], np.int32)


def _dtype(x):
    return x.dtype.name if hasattr(x.dtype, "name") else str(x.dtype)


@clause("keras.ops", ref="tf221")
def test_keras_ops_follow_keras_dtype_promotion(keras):
    """Keras's result_type (JAX's lattice), not TF's: int32 with float32 is float32, a Python
    float with int32 is float32 (floatx), uint8 with int8 is int16, true division of ints and
    the mean of ints are floats, the sum of bools int32."""
    ops = keras.ops
    for call, got, want in [
            ("add(int32, float32)", ops.add(I, B), "float32"),
            ("multiply(int32, 2.5)", ops.multiply(I, 2.5), "float32"),
            ("add(uint8, int8)", ops.add(np.array([1], np.uint8), np.array([1], np.int8)), "int16"),
            ("divide(int32, int32)", ops.divide(I, np.full((2, 3), 2, np.int32)), "float32"),
            ("mean(int32)", ops.mean(I), "float32"),
            ("sum(bool)", ops.sum(np.array([True, False, True])), "int32"),
            ("add(float16, 1.5)", ops.add(np.array([1], np.float16), 1.5), "float16"),
            ("sqrt(int32)", ops.sqrt(np.array([4, 9], np.int32)), "float32")]:
        assert_equal(_dtype(got), want, call=f"keras.ops.{call}", what="dtype")
    assert_close(ops.divide(I, np.full((2, 3), 2, np.int32)), I / 2, call="keras.ops.divide(int32, int32)")
    assert_close(ops.mean(I), np.float32(I.mean()), call="keras.ops.mean(int32)")


@clause("keras.ops", ref="tf221")
def test_keras_ops_values_by_family(keras):
    ops = keras.ops
    assert_close(ops.matmul(A, B.T), A @ B.T, call="keras.ops.matmul")
    assert_close(ops.einsum("ij,kj->ik", A, B), A @ B.T, call="keras.ops.einsum('ij,kj->ik')")
    assert_close(ops.std(A, axis=1), A.std(axis=1), call="keras.ops.std(axis=1)")
    assert_close(ops.var(A, axis=0, keepdims=True), A.var(axis=0, keepdims=True), call="keras.ops.var(axis=0)")
    assert_close(ops.logsumexp(A, axis=1), np.log(np.exp(A).sum(1)), call="keras.ops.logsumexp(axis=1)")
    e = np.exp(A - A.max(0))
    assert_close(ops.softmax(A, axis=0), e / e.sum(0), call="keras.ops.softmax(axis=0)")
    f = np.exp(A - A.max())
    assert_close(ops.softmax(A, axis=(0, 1)), f / f.sum(), call="keras.ops.softmax(axis=(0, 1))")
    assert_close(ops.relu(A), np.maximum(A, 0), call="keras.ops.relu")
    assert_close(ops.silu(A), A / (1 + np.exp(-A)), call="keras.ops.silu")
    assert_close(ops.clip(A, -1, 1), np.clip(A, -1, 1), call="keras.ops.clip")
    assert_equal(ops.argsort(np.array([2.0, 1.0, 2.0, 1.0])), np.array([1, 3, 0, 2]), call="keras.ops.argsort")
    assert_equal(ops.one_hot(np.array([0, 2]), 3), np.eye(3, dtype=np.float32)[[0, 2]], call="keras.ops.one_hot")
    assert_close(ops.segment_sum(np.array([1.0, 2.0, 3.0, 4.0], np.float32), np.array([0, 0, 1, 1])),
                 np.array([3.0, 7.0], np.float32), call="keras.ops.segment_sum")
    assert_equal(ops.pad(A, ((1, 0), (0, 2))), np.pad(A, ((1, 0), (0, 2))), call="keras.ops.pad")
    assert_equal(ops.tril(A, k=1), np.tril(A, 1), call="keras.ops.tril(k=1)")
    assert_close(ops.norm(A, ord=1, axis=1), np.abs(A).sum(1), call="keras.ops.norm(ord=1, axis=1)")
    s = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
    assert_close(ops.inv(s), np.linalg.inv(s), call="keras.ops.inv")
    assert_close(ops.det(s), np.float32(5.0), call="keras.ops.det")
    total, ys = ops.scan(lambda c, x: (c + x, c * x), 0.0, np.array([0.2, 0.5, 0.9], np.float32))
    assert_close(total, np.float32(1.6), call="keras.ops.scan", what="carry")
    assert_close(ys, np.array([0.0, 0.1, 0.63], np.float32), call="keras.ops.scan", what="stacked outputs")
    assert_equal(ops.while_loop(lambda i: i < 5, lambda i: i + 2, 0), 6, call="keras.ops.while_loop")


@clause("keras.ops", ref="tf221")
def test_keras_ops_argument_errors(keras):
    ops = keras.ops
    with raises(ValueError, match="both should be `None`", call="keras.ops.where(c, x1) without x2"):
        ops.where(A > 0, A)
    with raises(TypeError, match="Argument `N` must be an integer", call="keras.ops.eye(2.5)"):
        ops.eye(2.5)
    with raises(ValueError, match="order", call="keras.ops.normalize(x, order=0)"):
        ops.normalize(A, order=0)


@clause("keras.ops", ref="tf221")
def test_keras_ops_on_keras_tensors_build_a_functional_model(keras):
    """Called on KerasTensors a keras.ops function returns a KerasTensor (the shape and dtype of
    its result) and the model computes it; `shape` answers from the spec."""
    ops = keras.ops
    inp = keras.Input((4,))
    h = keras.layers.Dense(3, kernel_initializer="ones")(inp)
    z = ops.mean(ops.square(ops.relu(ops.add(h, -2.0))), axis=-1, keepdims=True)
    out = ops.concatenate([z, ops.max(h, axis=-1, keepdims=True)], axis=-1)
    assert_equal(tuple(z.shape), (None, 1), call="keras.ops.mean(KerasTensor (None, 3), axis=-1, keepdims=True)",
                 what="shape")
    assert_equal(tuple(ops.shape(inp)), (None, 4), call="keras.ops.shape(Input((4,)))")
    model = keras.Model(inp, out)
    x = np.arange(8, dtype=np.float32).reshape(2, 4) / 4
    hx = x.sum(1, keepdims=True) * np.ones((1, 3), np.float32)
    zx = (np.maximum(hx - 2, 0) ** 2).mean(-1, keepdims=True)
    assert_close(model.predict(x, verbose=0), np.concatenate([zx, hx.max(-1, keepdims=True)], -1),
                 call="Model(inp, keras.ops graph).predict")
