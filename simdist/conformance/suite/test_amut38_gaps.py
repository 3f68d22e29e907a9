"""Gaps the fifteenth mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 15, over the training-layer
files seeds 1-14 never or least sampled; thirty-eighth session): behaviours the suite executed but no test looked at
(docs/conformance.md, "Thirty-eighth session: automatic sweep, seed 15 (amut38)"; TF 2.21 + Keras 3.15).

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


@clause("ops.raw-ops", ref="tf221")
def test_amut38_raw_conv3d_backprop_input_v2(tf):
    """tf.raw_ops.Conv3DBackpropInputV2 called directly (input_sizes an input, filter and out_backprop tensors):
    with a 1x1x1 unit filter the input gradient is out_backprop itself (TF 2.21, observed)."""
    r = tf.raw_ops.Conv3DBackpropInputV2(input_sizes=[1, 2, 2, 2, 1], filter=tf.ones([1, 1, 1, 1, 1]),
                                         out_backprop=tf.reshape(tf.range(8, dtype=tf.float32), [1, 2, 2, 2, 1]),
                                         strides=[1, 1, 1, 1, 1], padding="VALID")
    _dtype_and_values(r, "float32", [[[[[0.0], [1.0]], [[2.0], [3.0]]], [[[4.0], [5.0]], [[6.0], [7.0]]]]],
                      call="tf.raw_ops.Conv3DBackpropInputV2 of a unit 1x1x1 filter")


# -- subnormals --------------------------------------------------------------------------------------------------------
@clause("ops.subnormals", ref="tf221")
@pytest.mark.parametrize("how", ["multiply", "divide"])
def test_amut38_bfloat16_results_flushed_to_zero_keep_their_sign(tf, how):
    """A bfloat16 product or quotient that lands among the subnormals is flushed to a zero of its sign (FTZ on the
    float32 the kernel computes in): -1e-20 * 1e-19 is -0.0, 1e-20 * 1e-19 is +0.0 (TF 2.21, observed signbits)."""
    bf = tf.bfloat16
    if how == "multiply":
        r = tf.constant([-1e-20, 1e-20], bf) * tf.constant([1e-19, 1e-19], bf)
    else:
        r = tf.constant([-1e-30, 1e-30], bf) / tf.constant([1e9, 1e9], bf)
    got = r.numpy().astype(np.float32)
    assert_equal(got.tolist(), [0.0, 0.0], call=f"bfloat16 {how} underflowing to a subnormal")
    assert_equal(np.signbit(got).tolist(), [True, False], call=f"bfloat16 {how} underflowing: signbits")


@clause("ops.math-special", ref="tf221")
def test_amut38_expint_of_subnormal_inputs(tf):
    """tf.math.special.expint of a subnormal: float32 gives Eigen's value for its smallest normal input
    (-103.39486, not the -inf of a flushed 0), float64 gives -inf (TF 2.21, observed)."""
    a = tf.math.special.expint(tf.constant([1e-40, 2e-39], tf.float32))
    b = tf.math.special.expint(tf.constant([1e-310], tf.float64))
    _dtype_and_values(a, "float32", [-103.39485931396484, -103.39485931396484], call="expint(float32 subnormals)")
    _dtype_and_values(b, "float64", [-np.inf], call="expint(float64 [1e-310])")


# -- tf.experimental.numpy, variables ----------------------------------------------------------------------------------
@clause("ops.experimental-numpy", ref="tf221")
def test_amut38_tnp_isclose_default_tolerances(tf):
    """tnp.isclose's defaults are NumPy's rtol=1e-05, atol=1e-08: 0 and 0.5 are not close, 1 and 1 + 5e-9 are
    (TF 2.21, observed)."""
    r = tf.experimental.numpy.isclose(tf.constant([0.0, 1.0]), tf.constant([0.5, 1.0 + 5e-9]))
    _dtype_and_values(r, "bool", [False, True], call="tnp.isclose([0, 1], [0.5, 1 + 5e-9])")


@clause("ops.variable-inplace", ref="tf221")
@pytest.mark.parametrize("read", ["read_value", "value", "convert"])
def test_amut38_a_variables_earlier_reads_keep_their_values_after_a_scatter(tf, read):
    """A tensor read from a variable (read_value(), value(), tf.convert_to_tensor) before a scatter_add keeps the
    value it read; the variable changes (TF 2.21, observed: [1, 2, 3] read, [11, 2, 3] after)."""
    v = tf.Variable([1.0, 2.0, 3.0])
    r = {"read_value": v.read_value, "value": v.value, "convert": lambda: tf.convert_to_tensor(v)}[read]()
    v.scatter_add(tf.IndexedSlices(tf.constant([10.0]), tf.constant([0])))
    assert_equal(r.numpy().tolist(), [1.0, 2.0, 3.0], call=f"v.{read}() taken before v.scatter_add")
    assert_equal(v.numpy().tolist(), [11.0, 2.0, 3.0], call="v after scatter_add([10] at 0)")


# -- keras.ops, image decoding, MWMS -----------------------------------------------------------------------------------
@clause("keras.ops", ref="tf221")
@pytest.mark.parametrize("size,want", [(2, [1, 2]), (3, [1, 2, 3]), (4, [1, 2, 3, 0])])
def test_amut38_unique_pads_or_truncates_to_size(keras, size, want):
    """keras.ops.unique(x, size=n): the sorted unique values truncated to n, or padded with 0 to n (Keras's
    tensorflow/numpy.py unique; TF backend observed for [3, 1, 3, 2], whose unique values are [1, 2, 3])."""
    r = keras.ops.unique(np.array([3, 1, 3, 2]), size=size)
    assert_equal(keras.ops.convert_to_numpy(r).tolist(), want, call=f"keras.ops.unique([3, 1, 3, 2], size={size})")


@clause("io.image-codecs", ref="tf221")
def test_amut38_decoded_images_static_shapes_in_a_function(tf):
    """Inside a tf.function a decoded image's height and width are unknown and its channels known when `channels`
    is given (decode_png/decode_image/decode_jpeg shape functions: [?, ?, channels or ?]; TF 2.21, observed)."""
    png = tf.io.encode_png(tf.zeros([2, 3, 3], tf.uint8))
    jpg = tf.io.encode_jpeg(tf.zeros([2, 3, 3], tf.uint8))
    shapes = []

    @tf.function
    def f(b, j):
        shapes.append(tf.io.decode_png(b, channels=3).shape.as_list())
        shapes.append(tf.io.decode_png(b).shape.as_list())
        shapes.append(tf.io.decode_image(b, channels=3, expand_animations=False).shape.as_list())
        shapes.append(tf.io.decode_jpeg(j, channels=1).shape.as_list())
        return 0

    f(png, jpg)
    assert_equal(shapes[:4], [[None, None, 3], [None, None, None], [None, None, 3], [None, None, 1]],
                 call="static shapes of decode_png(channels=3), decode_png(), decode_image(channels=3), "
                      "decode_jpeg(channels=1) in a tf.function")


_MWMS_RID_PROGRAM = """
rid = strategy.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
result = {"dtype": rid.dtype.name, "numpy_dtype": str(rid.numpy().dtype), "value": int(rid)}
"""


@clause("run.replica-context", ref="tf221")
def test_amut38_mwms_replica_id_is_an_int32_tensor(backend):
    """Under MultiWorkerMirroredStrategy (2 workers) replica_id_in_sync_group is an int32 tensor whose numpy() is
    an int32 value, the worker's index (TF 2.21, observed)."""
    out = backend.run_multi_worker(_MWMS_RID_PROGRAM, 2)
    got = [(o["dtype"], o["numpy_dtype"], o["value"]) for o in out]
    assert_equal(got, [("int32", "int32", 0), ("int32", "int32", 1)],
                 call="MWMS(2 workers).run(replica_id_in_sync_group): (dtype, numpy dtype, value) per worker")


@clause("ops.ragged", ref="tf221")
@pytest.mark.parametrize("lengths,text", [
    ([2, 2], "Arguments to _from_row_partition do not form a valid RaggedTensor"),
    ([4, -1], "Arguments to from_row_lengths do not form a valid RowPartition"),
])
def test_amut38_ragged_from_row_lengths_validates_by_default(tf, lengths, text):
    """tf.RaggedTensor.from_row_lengths validates by default (validate=True): row lengths that do not sum to the
    values' length, or a negative one, are InvalidArgumentError (TF 2.21, observed texts)."""
    with raises(tf.errors.InvalidArgumentError, match=re.escape(text),
                call=f"tf.RaggedTensor.from_row_lengths([1, 2, 3], {lengths})"):
        tf.RaggedTensor.from_row_lengths([1, 2, 3], lengths)


# -- shape functions in a tf.function ----------------------------------------------------------------------------------
@clause("function.trace-time-errors", ref="tf221")
@pytest.mark.parametrize("spec", [None, [None]], ids=["unknown-rank", "unknown-size"])
def test_amut38_scatter_nd_into_an_empty_output_with_updates_of_unknown_size(tf, spec):
    """ScatterNdShapeHelper refuses indices or updates for an empty output only when their element count is known
    and positive: in a tf.function whose input_signature leaves the updates' size unknown, raw ScatterNd of zero
    indices into shape [0] traces and gives a bool [0] (TF 2.21, observed)."""
    f = tf.function(lambda x0: tf.raw_ops.ScatterNd(indices=tf.zeros([0, 1], tf.int32), updates=x0, shape=[0]),
                    input_signature=[tf.TensorSpec(spec, tf.bool)])
    r = f(tf.zeros([0], tf.bool))
    assert_equal(r.dtype.name, "bool", call=f"ScatterNd(zeros [0, 1], updates {spec}, [0]) traced", what="dtype")
    assert_equal(r.shape.as_list(), [0], call=f"ScatterNd(zeros [0, 1], updates {spec}, [0]) traced", what="shape")


@clause("function.trace-time-errors", ref="tf221")
@pytest.mark.parametrize("spec", [[1, 0, None, 2], None], ids=["unknown-width", "unknown-rank"])
def test_amut38_avg_pool_window_past_an_unknown_dimension_runs_the_kernel(tf, spec, onednn_float32):
    """A VALID AvgPool window longer than a dimension the traced graph does not know is no trace-time error: the
    kernel computes the empty output when called (NCHW [1, 0, ?, 2] or unknown rank, called on zeros [1, 0, 0, 2];
    TF 2.21, observed: float32 [1, 0, 0, 2]). NCHW AvgPool is oneDNN's: on a CPU where TF leaves oneDNN off
    (an AVX2-only AMD EPYC, observed) TF refuses the layout, so the test is skipped there."""
    f = tf.function(lambda x0: tf.raw_ops.AvgPool(ksize=[1, 1, 1, 1], value=x0, data_format="NCHW",
                                                  strides=[1, 1, 1, 1], padding="VALID"),
                    input_signature=[tf.TensorSpec(spec, tf.float32)])
    r = f(tf.zeros([1, 0, 0, 2]))
    assert_equal(r.dtype.name, "float32", call=f"AvgPool NCHW of {spec} traced, called", what="dtype")
    assert_equal(r.shape.as_list(), [1, 0, 0, 2], call=f"AvgPool NCHW of {spec} traced, called", what="shape")
