"""Gaps the sixteenth mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 16, over the training-layer
files seeds 1-15 never or least sampled; thirty-ninth session): behaviours the suite executed but no test looked at
(docs/conformance.md, "Thirty-ninth session: automatic sweep, seed 16 (amut39)"; TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 named in each test.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause


# -- keras.ops ---------------------------------------------------------------------------------------------------------
@clause("keras.ops", ref="tf221")
@pytest.mark.parametrize(("lower", "want"), [(True, [1.0, 2.0, 19.0 / 6.0]), (False, [1.0, 7.0 / 3.0, 5.5])])
def test_amut39_solve_triangular_of_a_vector(keras, lower, want):
    """keras.ops.solve_triangular with b one rank below a (a [3, 3], b [3]): the TF backend solves b as a column and
    squeezes it back, a [3] result (TF 2.21, observed: [1, 2, 3.1666667] lower, [1, 2.3333335, 5.5] upper, the exact
    solutions here). The suite solved only matrix right-hand sides."""
    a = np.array([[2.0, 0, 0], [1, 3, 0], [4, 5, 6]], np.float32)
    b = np.array([2.0, 7, 33], np.float32)
    call = f"keras.ops.solve_triangular(a [3, 3], b [3], lower={lower})"
    r = keras.ops.convert_to_numpy(keras.ops.solve_triangular(a, b, lower=lower))
    assert_equal(list(r.shape), [3], call=call, what="shape")
    assert_close(r, np.array(want), tolerance=Tolerance(rtol=1e-6, atol=1e-6), call=call)


# -- linear algebra ----------------------------------------------------------------------------------------------------
@clause("ops.linalg-more", ref="tf221")
@pytest.mark.parametrize(("select_range", "want"), [
    ([0, 1], [1.254718759825861, 2.8227170808871085]),
    ([1, 3], [2.8227170808871085, 4.177282919112892, 5.745281240174139]),
    ([2, 2], [4.177282919112892]),
])
def test_amut39_eigh_tridiagonal_index_range_includes_both_ends(tf, select_range, want):
    """tf.linalg.eigh_tridiagonal(select='i', select_range=[lo, hi]) returns the eigenvalues of indices lo..hi, both
    ends included (hi - lo + 1 of them). TF 2.21, observed for the float64 diagonal [2, 3, 4, 5] and off-diagonal
    [1, 1, 1]; the suite only selected all ('a')."""
    a = tf.constant([2.0, 3.0, 4.0, 5.0], tf.float64)
    b = tf.constant([1.0, 1.0, 1.0], tf.float64)
    call = f"tf.linalg.eigh_tridiagonal([2, 3, 4, 5], [1, 1, 1], eigvals_only=True, select='i', select_range={select_range})"
    r = tf.linalg.eigh_tridiagonal(a, b, eigvals_only=True, select="i", select_range=select_range).numpy()
    assert_equal(list(r.shape), [len(want)], call=call, what="shape")
    assert_close(r, np.array(want), tolerance=Tolerance(rtol=1e-12, atol=1e-12), call=call)


# -- raw ops -----------------------------------------------------------------------------------------------------------
@clause("ops.raw-ops", ref="tf221")
@pytest.mark.parametrize("axis", [1, 2])
def test_amut39_quantize_and_dequantize_v4_grad_axis_past_the_rank(tf, axis):
    """raw QuantizeAndDequantizeV4Grad with an axis at or past the input's rank (input rank 1) is InvalidArgumentError
    "Axis should be -1 or 0 or a positive value less than 1but given axis value was <axis>" (TF 2.21, observed; the
    kernel's text has no space before "but")."""
    x = tf.constant([1.0, 2.0])
    call = f"tf.raw_ops.QuantizeAndDequantizeV4Grad(input rank 1, axis={axis})"
    text = f"Axis should be -1 or 0 or a positive value less than 1but given axis value was {axis}"
    with raises(tf.errors.InvalidArgumentError, match=re.escape(text), call=call):
        tf.raw_ops.QuantizeAndDequantizeV4Grad(gradients=tf.constant([1.0, 1.0]), input=x, input_min=tf.constant(0.0),
                                               input_max=tf.constant(3.0), axis=axis)


# -- tf.io -------------------------------------------------------------------------------------------------------------
@clause("ops.conversion", ref="tf221")
def test_amut39_parse_example_names_that_are_not_text_in_a_function(tf):
    """tf.io.parse_example inside a tf.function with example_names [1]: op_def_library's TypeError names the op's
    input and the op, "Expected string passed to parameter 'names' of op 'ParseExampleV2', got [1] of type 'list'
    instead. Error: Expected string, but got 1 of type 'int'." (TF 2.21, observed; its AutoGraph frame lines come
    first)."""
    feats = {"a": tf.io.FixedLenFeature([], tf.int64, 0)}

    @tf.function
    def f(x):
        return tf.io.parse_example(x, feats, example_names=[1])

    text = ("Expected string passed to parameter 'names' of op 'ParseExampleV2', got [1] of type 'list' instead. "
            "Error: Expected string, but got 1 of type 'int'.")
    with raises(TypeError, match=re.escape(text), call="tf.function: tf.io.parse_example(..., example_names=[1])"):
        f(tf.constant([b""]))


@clause("ops.linalg-more", ref="tf221")
def test_amut39_svd_of_a_non_symmetric_matrix_to_the_last_bits(tf):
    """tf.linalg.svd of a float64 3x3 matrix whose 2x2 Jacobi blocks are not symmetric (Eigen's JacobiSVD first
    rotates each block symmetric from its trace and its off-diagonal difference, real_2x2_jacobi_svd): TF 2.21's
    singular values to 5e-15 and vectors to 1e-15 (observed; a wrong symmetrizing rotation still converges, off in
    the last bits only, so the suite's looser SVD checks did not see it)."""
    m = np.array([[1.0, 2, 0], [3, 1, 4], [0, 5, 2]])
    s, u, v = tf.linalg.svd(tf.constant(m))
    call = "tf.linalg.svd([[1, 2, 0], [3, 1, 4], [0, 5, 2]] float64)"
    want_s = [6.60489441053206, 3.87298334620742, 1.17276162357164]
    want_u = [[0.2709029485663496, 0.19611613513818385, -0.9424171337558113],
              [0.6199928743664238, -0.7844645405527363, 0.014973989122626817],
              [0.7363561829664487, 0.5883484054145522, 0.3341043634154396]]
    want_v = [[0.32262159532297013, -0.5570066518960167, -0.765283539594869],
              [0.7333318877297831, 0.6582805886043833, -0.16997355413516468],
              [0.5984476991934506, -0.5063696835418334, 0.6208462731786417]]
    assert_close(s.numpy(), np.array(want_s), tolerance=Tolerance(rtol=0.0, atol=5e-15), call=call + " s")
    assert_close(u.numpy(), np.array(want_u), tolerance=Tolerance(rtol=0.0, atol=1e-15), call=call + " u")
    assert_close(v.numpy(), np.array(want_v), tolerance=Tolerance(rtol=0.0, atol=1e-15), call=call + " v")


@clause("ops.linalg-more", ref="tf221")
def test_amut39_expm_with_a_degree_9_pade_approximant(tf):
    """tf.linalg.expm of a float64 2x2 matrix whose 1-norm (1.3) selects the degree-9 Pade approximant (TF's
    _matrix_exp_pade9): TF 2.21's values to 1e-14 (observed). The suite's expm checks were looser than a one-unit
    change in a Pade coefficient."""
    r = tf.linalg.expm(tf.constant([[0.5, 1.0], [-0.7, 0.3]], tf.float64)).numpy()
    want = [[1.13867564454108, 1.3260873602752608], [-0.9282611521926825, 0.8734581724860282]]
    assert_close(r, np.array(want), tolerance=Tolerance(rtol=0.0, atol=1e-14),
                 call="tf.linalg.expm([[0.5, 1.0], [-0.7, 0.3]] float64)")


@clause("ops.linalg-more", ref="tf221")
@pytest.mark.parametrize("select_range", [[2, 1], [3, 0]])
def test_amut39_eigh_tridiagonal_empty_index_range(tf, select_range):
    """tf.linalg.eigh_tridiagonal(select='i') with select_range[0] > select_range[1] is InvalidArgumentError "Got empty
    index range in select_range." (TF 2.21, observed eagerly; check_ops.assert_less_equal's data follows it)."""
    a = tf.constant([2.0, 3.0, 4.0, 5.0], tf.float64)
    b = tf.constant([1.0, 1.0, 1.0], tf.float64)
    with raises(tf.errors.InvalidArgumentError, match=re.escape("Got empty index range in select_range."),
                call=f"tf.linalg.eigh_tridiagonal(..., select='i', select_range={select_range})"):
        tf.linalg.eigh_tridiagonal(a, b, eigvals_only=True, select="i", select_range=select_range)


# -- tf.debugging ------------------------------------------------------------------------------------------------------
@clause("ops.debugging-checks", ref="tf221")
@pytest.mark.parametrize(("call", "text"), [
    ("tf.compat.v1.assert_positive(tf.constant([-1, 2]))",
     "\nCondition x > 0 did not hold element-wise:\nx (shape=(2,) dtype=int32) = \n['-1', '2']"),
    ("tf.compat.v1.assert_less(tf.constant([3, 1]), tf.constant([2, 2]))",
     "Condition x < y did not hold.\nIndices of first 1 different values:\n[[0]]\nCorresponding x values:\n[3]\n"
     "Corresponding y values:\n[2]\nFirst 2 elements of x:\n[3 1]\nFirst 2 elements of y:\n[2 2]"),
])
def test_amut39_eager_v1_assertions_print_check_ops_eager_data(tf, call, text):
    """A failing tf.compat.v1 assertion run eagerly raises InvalidArgumentError with check_ops' eager data (the
    tensor's shape and dtype label and its elements as strings; for a binary assertion _make_assert_msg_data's
    indices and first elements), not the graph's "x = [...]" form (TF 2.21, observed texts)."""
    with raises(tf.errors.InvalidArgumentError, match="^" + re.escape(text) + "$", call=call):
        eval(call, {"tf": tf})  # noqa: S307 - the parametrized call text above


@clause("function.trace-time-errors", ref="tf221")
@pytest.mark.parametrize("rd", [2, -3])
def test_amut39_approx_max_k_reduction_dimension_out_of_range_at_trace(tf, rd):
    """tf.math.approx_max_k of a [1, 3] input with reduction_dimension 2 or -3, traced: ApproxTopK's shape function
    refuses it, ValueError "Invalid reduction dimension: <rd>. Must be within the range of [-2, 1]" (TF 2.21, observed
    for 2; -3 the same rule's other end). The suite traced only dimensions in range."""
    @tf.function
    def f():
        return tf.math.approx_max_k(tf.constant([[1.0, 5.0, 3.0]]), 2, reduction_dimension=rd)

    text = f"Invalid reduction dimension: {rd}. Must be within the range of [-2, 1]"
    with raises(ValueError, match=re.escape(text), call=f"traced tf.math.approx_max_k([1, 3], 2, reduction_dimension={rd})"):
        f.get_concrete_function()
