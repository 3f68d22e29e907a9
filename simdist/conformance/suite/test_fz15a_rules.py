"""Rules issue 29's fz15a fixed (the fourteenth fuzzer's TypeError classes), as users meet them:
op attributes of the wrong Python kind, inputs converted with the op def's dtype, list inputs and
attributes, the debugging assertions' comparison ops, as_dtype of a tensor, and a tf.function
returning a function (clause ops.attr-types). Expected values are computed here with NumPy; the
differential cases are tests/ops/test_fz15a_edges_tf.py."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises

clause = pytest.mark.clause


@clause("ops.attr-types", ref="tf221")
def test_bool_attributes_take_only_python_bools(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    for value, shown in ((1, "1"), (np.bool_(True), "np.True_")):
        with raises(TypeError, match=f"Expected bool for argument 'exclusive' not {shown}\\.",
                    call=f"tf.math.cumsum(x, exclusive={shown})"):
            tf.math.cumsum(x, exclusive=value)
    with raises(TypeError, match="Expected bool for argument 'sorted' not 1\\.", call="tf.math.top_k(x, sorted=1)"):
        tf.math.top_k(x, sorted=1)
    with raises(TypeError, match="Expected bool for argument 'unique' not 1\\.",
                call="tf.random.uniform_candidate_sampler(..., unique=1)"):
        tf.random.uniform_candidate_sampler(tf.constant([[1]], tf.int64), 1, 2, unique=1, range_max=5, seed=1)
    want = np.concatenate([[0.0], np.cumsum([1.0, 2.0])]).tolist()
    assert_equal(tf.math.cumsum(x, exclusive=True).numpy().tolist(), want, call="tf.math.cumsum(x, exclusive=True)")


@clause("ops.attr-types", ref="tf221")
def test_matmul_passes_transpose_as_given_and_adjoint_by_truth(tf):
    a, b = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32), np.array([[5.0], [6.0]], np.float32)
    with raises(TypeError, match="Expected bool for argument 'transpose_a' not 1\\.",
                call="tf.matmul(a, b, transpose_a=1)"):
        tf.matmul(a, b, transpose_a=1)
    with raises(TypeError, match="Expected bool for argument 'adj_x' not np.True_\\.",
                call="tf.matmul(a3, b3, adjoint_a=np.bool_(True)) (BatchMatMulV2)"):
        tf.matmul(a[None], b[None], adjoint_a=np.bool_(True))
    out = tf.matmul(a, b, adjoint_a=1)
    assert_close(out.numpy(), a.T @ b, call="tf.matmul(a, b, adjoint_a=1)")


@clause("ops.attr-types", ref="tf221")
def test_int_float_string_and_list_attributes(tf):
    img = tf.ones([1, 1, 1, 2])
    with raises(TypeError, match="Expected float for argument 'bias' not array\\(\\[1\\.\\]\\)\\.",
                call="tf.nn.local_response_normalization(img, bias=np.array([1.0]))"):
        tf.nn.local_response_normalization(img, bias=np.array([1.0]))
    with raises(TypeError, match="Expected int for argument 'depth_radius' not '2'\\.",
                call="tf.nn.local_response_normalization(img, depth_radius='2')"):
        tf.nn.local_response_normalization(img, depth_radius="2")
    with raises(TypeError, match="Expected string for argument 'fill' not 1\\.0\\.", call="tf.as_string(x, fill=1.0)"):
        tf.as_string(tf.constant([1.5]), fill=1.0)
    with raises(TypeError, match="Expected int for argument 'seq_dim' not None\\.",
                call="tf.reverse_sequence(x, [1, 1]) without seq_axis"):
        tf.reverse_sequence(tf.ones([2, 2]), [1, 1])
    with raises(TypeError, match="Expected list for 'strides' argument to 'conv3d' Op",
                call="tf.nn.conv3d(x, w, strides=tf.constant([1, 1, 1, 1, 1]), 'VALID')"):
        tf.nn.conv3d(tf.ones([1, 1, 1, 1, 1]), tf.ones([1, 1, 1, 1, 1]), tf.constant([1, 1, 1, 1, 1]), "VALID")
    # an int attribute takes an eager scalar tensor, not a tf.function's graph tensor
    eager = tf.one_hot([1], 3, axis=tf.constant(0))
    assert_equal(eager.numpy().tolist(), np.eye(3, dtype=np.float32)[:, 1:2].tolist(),
                 call="tf.one_hot([1], 3, axis=tf.constant(0))")
    with raises(TypeError, match="Expected int for argument 'axis'",
                call="tf.one_hot(..., axis=tf.constant(0)) traced"):
        tf.function(lambda: tf.one_hot([1], 3, axis=tf.constant(0)))()


@clause("ops.attr-types", ref="tf221")
def test_inputs_convert_with_the_op_defs_dtype(tf):
    with raises(TypeError, match="Cannot convert 0\\.25 to EagerTensor of dtype int64",
                call="tf.random.uniform_candidate_sampler(0.25, ...)"):
        tf.random.uniform_candidate_sampler(0.25, 1, 2, unique=True, range_max=5, seed=1)
    with raises(TypeError, match="Cannot convert nan to EagerTensor of dtype int32",
                call="tf.linalg.set_diag([1, 2, 3], float('nan'))"):
        tf.linalg.set_diag([1, 2, 3], float("nan"))
    m = np.array([[2.0]], np.float64)
    out = tf.linalg.triangular_solve(tf.constant(m), [[1.0]])
    assert_equal(out.dtype.name, "float64", call="tf.linalg.triangular_solve(float64 tensor, [[1.0]])", what="dtype")
    assert_close(out.numpy(), np.linalg.solve(m, [[1.0]]), call="tf.linalg.triangular_solve(float64, [[1.0]])")
    with raises(TypeError, match="Cannot convert 0 to EagerTensor of dtype bool", call="tf.logical_and(0, [1])"):
        tf.logical_and(0, [1])


@clause("ops.attr-types", ref="tf221")
def test_assertions_compare_with_the_op(tf):
    x, y = tf.constant([1], tf.int32), tf.constant([1.0], tf.float64)
    with raises(tf.errors.InvalidArgumentError, match="cannot compute Equal as input #1",
                call="tf.debugging.assert_equal(int32, float64)"):
        tf.debugging.assert_equal(x, y)
    with raises(TypeError, call="tf.debugging.assert_equal(int32, float64) in a tf.function"):
        tf.function(lambda: tf.debugging.assert_equal(x, y))()
    with raises(TypeError, call="tf.debugging.assert_less(bools) in a tf.function"):
        tf.function(lambda: tf.debugging.assert_less(tf.constant([True]), tf.constant([False])))()
    assert_equal(tf.debugging.assert_less(tf.constant([1]), tf.constant([2])), None,
                 call="tf.debugging.assert_less([1], [2])", what="the returned value")


@clause("ops.attr-types", ref="tf221")
def test_as_dtype_list_inputs_and_function_outputs(tf):
    with raises(TypeError, match="Cannot convert the argument `type_value`", call="tf.dtypes.as_dtype(tensor)"):
        tf.dtypes.as_dtype(tf.constant([1, 2]))
    assert_equal(tf.dtypes.as_dtype(np.zeros(2, np.int16)).name, "int16", call="tf.dtypes.as_dtype(int16 array)")
    with raises(TypeError, match="Expected list for 'input' argument to 'shape_n' Op",
                call="tf.shape_n(tensor) in a tf.function"):
        tf.function(lambda t: tf.shape_n(t))(tf.constant([[1], [2]]))
    with raises(TypeError, match="must return zero or more Tensors", call="a tf.function returning a function"):
        tf.function(lambda: tf.signal.inverse_stft_window_fn(frame_step=2))()
