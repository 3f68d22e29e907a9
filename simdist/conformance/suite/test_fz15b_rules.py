"""What issue 29's fourteenth generator (tests/fuzz14) found where TF 2.21 raises ValueError
while building a graph or in a Python wrapper (fz15b's share): FFT's rank at trace, the
TensorScatter ops' shape checks, the LU family's static checks (clauses ops.signal-fft,
function.trace-time-errors, ops.linalg-lu). The differential cases are
tests/ops/test_fz15b_edges_tf.py."""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import raises

clause = pytest.mark.clause


@clause("ops.signal-fft", ref="tf221")
def test_fft_rank_is_a_shape_function_error_at_trace(tf):
    x = tf.zeros([2], tf.complex64)
    with raises(tf.errors.InvalidArgumentError, match="rank of at least 2", call="tf.signal.fft2d(zeros([2]))"):
        tf.signal.fft2d(x)
    with raises(ValueError, match="Shape must be at least rank 2 but is rank 1",
                call="tf.function(lambda: tf.signal.fft2d(zeros([2])))()"):
        tf.function(lambda: tf.signal.fft2d(x))()
    with raises(ValueError, match="Shape must be at least rank 3 but is rank 2",
                call="fft3d with input_signature [TensorSpec([None, None])]"):
        tf.function(tf.signal.fft3d, input_signature=[tf.TensorSpec([None, None], tf.complex64)]).get_concrete_function()
    tf.function(tf.signal.fft3d, input_signature=[tf.TensorSpec(None, tf.complex64)]).get_concrete_function()


@clause("function.trace-time-errors", ref="tf221")
def test_tensor_scatter_shape_checks(tf):
    x = tf.zeros([2, 3])
    with raises(tf.errors.InvalidArgumentError, match="Outer dimensions of indices and update must match",
                call="tensor_scatter_nd_add(zeros([2, 3]), [[0]], zeros([2, 3]))"):
        tf.tensor_scatter_nd_add(x, [[0]], tf.zeros([2, 3]))
    with raises(tf.errors.InvalidArgumentError, match="Updates shape must have rank at least one",
                call="tensor_scatter_nd_max(zeros([2, 3]), [0], 1.0)"):
        tf.tensor_scatter_nd_max(x, [0], 1.0)
    with raises(ValueError, match=r"Dimensions \[1,2\) of input\[shape=\[2,3\]\] = \[3\] must match",
                call="tf.function(tensor_scatter_nd_add(zeros([2, 3]), [[0]], zeros([1, 2])))()"):
        tf.function(lambda: tf.tensor_scatter_nd_add(x, [[0]], tf.zeros([1, 2])))()
    with raises(ValueError, match="Shape must be at least rank 1 but is rank 0",
                call="tf.function(tensor_scatter_nd_min(zeros([]), [[0]], zeros([1])))()"):
        tf.function(lambda: tf.tensor_scatter_nd_min(tf.zeros([]), [[0]], tf.zeros([1])))()
    # a scalar `updates` is left to the kernel: the trace succeeds, the run raises
    f = tf.function(lambda: tf.tensor_scatter_nd_sub(x, [[0]], 1.0))
    with raises(tf.errors.InvalidArgumentError, match="Updates shape must have rank at least one",
                call="tf.function(tensor_scatter_nd_sub(zeros([2, 3]), [[0]], 1.0))()"):
        f()


@clause("ops.linalg-lu", ref="tf221")
def test_lu_family_checks_static_shapes_first(tf):
    for call, text in (("tf.linalg.lu_reconstruct(tf.constant([2, 3, 0]), [0])", "at least 2 dimensions"),
                       ("tf.linalg.lu_matrix_inverse(tf.eye(2), [[0, 1]])", "must equal `rank(perm) + 1`"),
                       ("tf.linalg.lu_reconstruct([[1.0, 2.0, 3.0]], [0])", "must be square"),
                       ("tf.linalg.lu_solve(tf.eye(2), [0, 1], [1.0, 2.0])", "`rhs` must have at least 2"),
                       ("tf.linalg.lu_solve(tf.eye(2), [0, 1], [[1.0, 2.0]])", "must equal `rhs.shape")):
        with raises(ValueError, match=re.escape(text), call=call):
            eval(call, {"tf": tf, "np": np})  # noqa: S307 - our own text


@clause("function.trace-time-errors", ref="tf221")
def test_attr_minimum_and_depth_shape_functions_at_trace(tf):
    x = tf.zeros([1, 3, 2, 1])
    with raises(tf.errors.InvalidArgumentError, match="must be at least minimum 1", call="tf.split(zeros([3]), 0)"):
        tf.split(tf.zeros([3]), 0)
    with raises(ValueError, match="Attr 'num_split' of 'Split' Op passed 0 less than minimum 1",
                call="tf.function(lambda: tf.split(zeros([3]), 0))()"):
        tf.function(lambda: tf.split(tf.zeros([3]), 0))()
    with raises(ValueError, match="Attr 'block_size' of 'SpaceToDepth' Op passed 1 less than minimum 2",
                call="tf.function(lambda: tf.nn.space_to_depth(zeros([1, 3, 2, 1]), 1))()"):
        tf.function(lambda: tf.nn.space_to_depth(x, 1))()
    with raises(tf.errors.InvalidArgumentError, match="should be divisible by block_size",
                call="tf.nn.space_to_depth(zeros([1, 3, 2, 1]), 2)"):
        tf.nn.space_to_depth(x, 2)
    with raises(ValueError, match="Dimension size must be evenly divisible by 2 but is 3",
                call="tf.function(lambda: tf.nn.space_to_depth(zeros([1, 3, 2, 1]), 2))()"):
        tf.function(lambda: tf.nn.space_to_depth(x, 2))()
    with raises(ValueError, match="Shape must be rank 4 but is rank 3",
                call="depth_to_space with input_signature [TensorSpec([None, 2, 2])]"):
        tf.function(lambda t: tf.nn.depth_to_space(t, 2),
                    input_signature=[tf.TensorSpec([None, 2, 2], tf.float32)]).get_concrete_function()
    tf.function(lambda t: tf.nn.space_to_depth(t, 2),
                input_signature=[tf.TensorSpec([None, None, None, 1], tf.float32)]).get_concrete_function()


@clause("ops.signal-fft", ref="tf221")
def test_raw_fftnd_converts_its_int32_inputs_first(tf):
    x = tf.zeros([2], tf.complex64)
    with raises(ValueError, match="unsupported type", call="tf.fftnd(zeros([2]), [2], None)"):
        tf.fftnd(x, [2], None)
    with raises(TypeError, call="tf.fftnd(zeros([2]), [2], [0.5])"):
        tf.fftnd(x, [2], [0.5])
    with raises(tf.errors.NotFoundError, match="RFFTND", call="tf.rfftnd(zeros([3]), [3], [0])"):
        tf.rfftnd(tf.zeros([3]), [3], [0])


@clause("ops.linalg-lu", ref="tf221")
def test_pinv_and_matrix_rank_refuse_a_rank_below_two(tf):
    with raises(ValueError, match=re.escape("must have at least 2 dimensions (saw: 0)"),
                call="tf.linalg.matrix_rank(np.array(5, np.int64))"):
        tf.linalg.matrix_rank(np.array(5, np.int64))
    with raises(TypeError, match="float`-like", call="tf.linalg.matrix_rank(tf.constant([[5]], tf.int64))"):
        tf.linalg.matrix_rank(tf.constant([[5]], tf.int64))
    with raises(ValueError, match=re.escape("(saw: 1)"), call="tf.linalg.pinv([1.0, 2.0])"):
        tf.linalg.pinv([1.0, 2.0])
