"""Gaps the fifteenth mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 15, over the training-layer
files seeds 1-14 never or least sampled; thirty-eighth session): behaviours the suite executed but no test looked at
(docs/conformance.md, "Thirty-eighth session: automatic sweep, seed 15 (amut38)"; TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 named in each test.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause


def _dtype_and_values(r, dtype: str, values, call: str) -> None:
    assert_equal(r.dtype.name, dtype, call=call, what="dtype")
    assert_equal(r.numpy().tolist(), values, call=call)


def _complex_parts(x) -> np.ndarray:
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x, np.complex128)
    return np.stack([a.real, a.imag])


# -- linear algebra ----------------------------------------------------------------------------------------------------
@clause("ops.linalg-more", ref="tf221")
def test_amut38_complex_eig_with_a_zero_subdiagonal_pivot(tf):
    """tf.linalg.eig of a complex matrix whose Hessenberg reduction meets a zero pivot (m[1, 0] = 0, m[2, 0] != 0):
    Eigen's Householder reflector of that column has tau = 1 exactly, and Q must still accumulate it (Eigen's
    ComplexSchur / HessenbergDecomposition). TF 2.21's eigenvalues and eigenvectors (observed, complex128, to 12
    digits); the suite's matrices never had tau = 1, so skipping such reflectors went unseen."""
    m = np.array([[1, 2, 3], [0, 4, 5], [6, 7, 8j]], np.complex128)
    e, v = tf.linalg.eig(tf.constant(m))
    want_e = [0.910567183048 - 0.039516140445j, -4.485304571051 + 5.275691896416j, 8.574737388003 + 2.763824244029j]
    want_v = [[0.655413918877 + 0.441604654911j, 0.250835160584 - 0.021767639016j, 0.341796111258 - 0.191538474123j],
              [-0.203554325586 - 0.479837616915j, 0.432435264378 - 0.023904773019j, 0.552452975989 - 0.299761064724j],
              [0.121981216567 + 0.298093952365j, -0.708646141641 + 0.496846899954j, 0.671162836495 + 0.031110955693j]]
    tol = Tolerance(rtol=0.0, atol=1e-9)
    assert_close(_complex_parts(e), _complex_parts(want_e), tolerance=tol,
                 call="tf.linalg.eig([[1, 2, 3], [0, 4, 5], [6, 7, 8j]]) eigenvalues (real, imag)")
    assert_close(_complex_parts(v), _complex_parts(want_v), tolerance=tol,
                 call="tf.linalg.eig([[1, 2, 3], [0, 4, 5], [6, 7, 8j]]) eigenvectors (real, imag)")


# -- raw ops -----------------------------------------------------------------------------------------------------------
@clause("ops.raw-ops", ref="tf221")
@pytest.mark.parametrize("op", ["DeepCopy", "Snapshot", "CopyHost", "Copy", "DebugIdentityV2"])
def test_amut38_raw_copies_return_their_input(tf, op):
    """The raw copy ops (DeepCopy's input is `x`, the others' `input`) return their input's dtype and values
    (TF 2.21, observed for an int16 [[1, 2]]). The suite never called DeepCopy."""
    x = tf.constant([[1, 2]], tf.int16)
    r = tf.raw_ops.DeepCopy(x=x) if op == "DeepCopy" else getattr(tf.raw_ops, op)(input=x)
    _dtype_and_values(r, "int16", [[1, 2]], call=f"tf.raw_ops.{op} of int16 [[1, 2]]")


@clause("ops.raw-ops", ref="tf221")
def test_amut38_raw_nth_element(tf):
    """tf.raw_ops.NthElement: the n-th smallest along the last axis (reverse: the n-th largest), observed in TF 2.21."""
    a = tf.raw_ops.NthElement(input=tf.constant([[5, 1, 4, 2], [0, 9, 3, 7]]), n=1)
    b = tf.raw_ops.NthElement(input=tf.constant([5.0, 1.0, 4.0, 2.0]), n=1, reverse=True)
    _dtype_and_values(a, "int32", [2, 3], call="NthElement([[5,1,4,2],[0,9,3,7]], n=1)")
    _dtype_and_values(b, "float32", 4.0, call="NthElement([5,1,4,2.], n=1, reverse)")


@clause("ops.raw-ops", ref="tf221")
def test_amut38_raw_avg_pool_grads(tf):
    """tf.raw_ops.AvgPoolGrad / AvgPool3DGrad called directly: orig_input_shape is the int32 input #0 and grad the
    float input #1; each window's gradient spread evenly over it (TF 2.21, observed)."""
    g2 = tf.raw_ops.AvgPoolGrad(orig_input_shape=[1, 4, 4, 1], grad=tf.reshape(tf.range(4, dtype=tf.float32),
                                [1, 2, 2, 1]), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    want2 = [[[[0.0], [0.0], [0.25], [0.25]], [[0.0], [0.0], [0.25], [0.25]], [[0.5], [0.5], [0.75], [0.75]],
              [[0.5], [0.5], [0.75], [0.75]]]]
    _dtype_and_values(g2, "float32", want2, call="tf.raw_ops.AvgPoolGrad 2x2 VALID")
    g3 = tf.raw_ops.AvgPool3DGrad(orig_input_shape=[1, 2, 4, 4, 1], grad=tf.reshape(tf.range(4, dtype=tf.float32),
                                  [1, 1, 2, 2, 1]), ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], padding="VALID")
    plane = [[[0.0], [0.0], [0.125], [0.125]], [[0.0], [0.0], [0.125], [0.125]], [[0.25], [0.25], [0.375], [0.375]],
             [[0.25], [0.25], [0.375], [0.375]]]
    _dtype_and_values(g3, "float32", [[plane, plane]],
                      call="tf.raw_ops.AvgPool3DGrad 2x2x2 VALID")


# -- tf.experimental.numpy ---------------------------------------------------------------------------------------------
@clause("ops.experimental-numpy", ref="tf221")
@pytest.mark.parametrize("x1,x2,want", [([1, 2], [4, 8], [0.25, 0.25]), ([True, False], [True, True], [1.0, 0.0])])
def test_amut38_tnp_true_divide_divides_the_first_by_the_second(tf, x1, x2, want):
    """tnp.true_divide(x1, x2) is x1 / x2 at the promoted dtype (ints and bools: float64), TF 2.21 observed."""
    r = tf.experimental.numpy.true_divide(np.array(x1), np.array(x2))
    _dtype_and_values(r, "float64", want, call=f"tnp.true_divide({x1}, {x2})")


# -- keras.ops ---------------------------------------------------------------------------------------------------------
@clause("keras.ops", ref="tf221")
def test_amut38_crop_images_to_a_non_square_target(keras):
    """keras.ops.image.crop_images with target_height != target_width (eager): a [2, 3] window from (1, 1) of a
    (1, 4, 6, 2) image (TF backend, observed)."""
    x = np.arange(48, dtype="float32").reshape(1, 4, 6, 2)
    r = keras.ops.image.crop_images(x, top_cropping=1, left_cropping=1, target_height=2, target_width=3)
    want = [[[[14.0, 15.0], [16.0, 17.0], [18.0, 19.0]], [[26.0, 27.0], [28.0, 29.0], [30.0, 31.0]]]]
    assert_equal(keras.ops.convert_to_numpy(r).tolist(), want,
                 call="keras.ops.image.crop_images(arange(48).reshape(1, 4, 6, 2), 1, 1, target 2x3)")


@clause("keras.ops", ref="tf221")
def test_amut38_matmul_of_two_sparse_tensors(keras, tf):
    """keras.ops.matmul of two tf.SparseTensors on the TF backend goes through the CSR sparse matrix ops and
    returns a SparseTensor (Keras's tensorflow/numpy.py matmul, sparse-sparse): TF 2.21's product observed."""
    a = tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
    b = tf.SparseTensor([[0, 1], [2, 0]], [3.0, 4.0], [3, 2])
    r = keras.ops.matmul(a, b)
    assert_equal(type(r).__name__, "SparseTensor", call="keras.ops.matmul(SparseTensor, SparseTensor) type")
    assert_equal(tf.sparse.to_dense(r).numpy().tolist(), [[0.0, 3.0], [8.0, 0.0]],
                 call="keras.ops.matmul(SparseTensor, SparseTensor) densified")


@clause("keras.ops", ref="tf221")
def test_amut38_symbolic_gaussian_blur_keeps_its_sigma(keras):
    """keras.ops.image.gaussian_blur on a KerasTensor builds a GaussianBlur operation with the call's kernel_size
    and sigma, so a functional model applies the same blur as the eager call (Keras's ops/image.py; the rule is
    exact on either backend: the two run one kernel)."""
    inp = keras.Input((5, 5, 1))
    mdl = keras.Model(inp, keras.ops.image.gaussian_blur(inp, kernel_size=(3, 3), sigma=(0.5, 2.0)))
    x = np.arange(25, dtype="float32").reshape(1, 5, 5, 1)
    eager = keras.ops.convert_to_numpy(keras.ops.image.gaussian_blur(x, kernel_size=(3, 3), sigma=(0.5, 2.0)))
    assert_equal(mdl.predict(x, verbose=0).tolist(), eager.tolist(),
                 call="functional gaussian_blur(sigma=(0.5, 2.0)).predict vs the eager call")
