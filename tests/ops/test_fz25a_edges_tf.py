"""Rules behind the twentieth fuzzer's classes that fz25a closed (the fresh campaigns eager seed
2520261201, tape seed 2520261202, sig seed 2520261203, eager seed 2520261204), each against real
TensorFlow 2.21: the same raw call on both backends gives the same dtype and values, or raises the
same exception class. Eagerly, in a tf.function with an input_signature (`sig`), and under nested
GradientTapes. The pooling cases in NCHW/NCDHW are float32 and bfloat16 on purpose: TF runs them
through oneDNN on a CPU with AVX512 (this host's and the reference host's). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"
_K = "ops.fuzz-raw"
_G = "autodiff.op-gradients"

_SCS = "tf.raw_ops.SparseCountSparseOutput(indices={}, values=tf.constant({}, tf.int64), " \
       "dense_shape=tf.constant({}, tf.int64), weights=tf.constant({}, tf.int64), binary_output=False, maxlength=5)"
_CAST = "tf.raw_ops.Cast(x=tf.constant({}, tf.{}), DstT=tf.{}, Truncate=True)"
_NCHW = "tf.reshape(tf.range(18.0), [1, 2, 3, 3])"
_NCDHW = "tf.reshape(tf.range(36.0), [1, 2, 2, 3, 3])"


def _softsign_second(tf: Any) -> Any:
    """The second derivative of softsign: TF 2.21 registers no gradient for SoftsignGrad."""
    x = tf.constant([1.0, -2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.nn.softsign(x)
        g = inner.gradient(y, x)
    return outer.gradient(g, x)


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # Round of int32/int64: the float template with Scalar(0.5) == 0 (seed 2520261201 #73)
    ("Round int64", _K, _eager("tf.raw_ops.Round(x=tf.constant([2, 3, -7, -9223372036854775808], tf.int64))")),
    ("Round int32", _K, _eager("tf.raw_ops.Round(x=tf.constant([1, 2, 5, 2147483647, -1] * 5, tf.int32))")),
    ("tf.round int32 (no op)", _K, _eager("tf.round(tf.constant([1, 2, 5], tf.int32))")),
    # InvertPermutation's kernel checks on a raw call (fresh seed 2520261205 #2)
    ("InvertPermutation -1", _K, _eager("tf.raw_ops.InvertPermutation(x=tf.constant([0, -1, 1]))")),
    ("InvertPermutation repeated", _K, _eager("tf.raw_ops.InvertPermutation(x=tf.constant([0, 1, 1], tf.int64))")),
    ("invert_permutation", _K, _eager("tf.math.invert_permutation(tf.constant([2, 0, 1]))")),
    # Diag of a scalar (tape seed 2520261202 #46)
    ("Diag scalar", _K, _eager("tf.raw_ops.Diag(diagonal=tf.constant(-1.0))")),
    ("Diag scalar, sig unknown rank", _T, _sig("tf.raw_ops.Diag(diagonal=x)", (None, "float32"), "tf.constant(1.0)")),
    ("Diag scalar, sig", _T, _sig("tf.raw_ops.Diag(diagonal=x)", ([], "float32"), "tf.constant(1.0)")),
    # SoftsignGrad has no gradient (tape seed 2520261202 #68)
    ("softsign second derivative", _G, _softsign_second),
    # Cast's Truncate: LSBZeroSetter on cast_op.h's pairs only (tape seed 2520261202 #178)
    ("Cast Truncate float32 to bfloat16", _K, _eager(_CAST.format("[1.01171875, -1.01171875, 3.5, float('nan'), "
                                                                  "float('inf'), 3.4e38]", "float32", "bfloat16"))),
    ("Cast Truncate float32 to float16", _K, _eager(_CAST.format("[1.00146484375, -1.00146484375, 70000.0, 6e-8]",
                                                                 "float32", "float16"))),
    ("Cast Truncate float64 to float32", _K, _eager(_CAST.format("[1 + 3 * 2**-24, -(1 + 3 * 2**-24), 1e-45]",
                                                                 "float64", "float32"))),
    ("Cast Truncate float64 to bfloat16 (rounds)", _K, _eager(_CAST.format("[1.01171875, 1.0029296875]", "float64",
                                                                           "bfloat16"))),
    ("Cast Truncate complex128 to complex64", _K, _eager(_CAST.format("[1 + 3 * 2**-24 - 1j * (1 + 3 * 2**-24)]",
                                                                      "complex128", "complex64"))),
    ("Cast Truncate int32 to float32 (rounds)", _K, _eager(_CAST.format("[16777217, 16777219]", "int32", "float32"))),
    ("cast float64 to float32 below the normal range (FTZ)", _K, _eager(
        "tf.cast(tf.constant([-1e-40, 1e-45, 2e-38, 1e-300, 1.5], tf.float64), tf.float32)")),
    ("Cast Truncate int16 to uint8", _K, _eager(_CAST.format("[3, 500, -5]", "int16", "uint8"))),
    # LeakyRelu's alpha is a float attr (seed 2520261204 #62)
    ("LeakyRelu float64 default alpha", _K, _eager("tf.raw_ops.LeakyRelu(features=tf.constant([-1.5, 2.0], "
                                                   "tf.float64))")),
    ("LeakyReluGrad float64 alpha 0.3", _K, _eager("tf.raw_ops.LeakyReluGrad(gradients=tf.constant([-1.5, 2.0], "
                                                   "tf.float64), features=tf.constant([-1.0, 2.0], tf.float64), "
                                                   "alpha=0.3)")),
    # SparseCountSparseOutput's checks (seed 2520261201 #136)
    ("SparseCountSparseOutput values vs indices", _K, _eager(_SCS.format("[[0, 0, 0, 0], [1, 1, 1, 2]]", [0, 0, 5],
                                                                         [2, 1], [1, 7, 3]))),
    ("SparseCountSparseOutput shape vs indices", _K, _eager(_SCS.format("[[0, 0, 0, 0], [1, 1, 1, 2]]", [0, 5], [2, 1],
                                                                        [7, 3]))),
    ("SparseCountSparseOutput index out of shape", _K, _eager(_SCS.format("[[0, 0], [1, 3]]", [0, 1], [2, 3], [1, 7]))),
    ("SparseCountSparseOutput rank 3 shape", _K, _eager(_SCS.format("[[0, 0, 0], [1, 1, 0]]", [0, 2], [2, 3, 1],
                                                                    [1, 7]))),
    # shape functions with an input_signature (sig seed 2520261203)
    ("SparseTensorDenseMatMul a_shape rank 1, sig", _T, _sig(
        "tf.raw_ops.SparseTensorDenseMatMul(a_indices=[1, 2, 2, 3], a_values=x, a_shape=[4], b=tf.ones([4, 1]))",
        ([4], "float32"), "tf.ones([4])")),
    ("SparseTensorDenseMatMul inner dimensions, sig", _T, _sig(
        "tf.raw_ops.SparseTensorDenseMatMul(a_indices=[[0, 0]], a_values=x, a_shape=[2, 3], b=tf.ones([2, 2]))",
        ([1], "float32"), "tf.ones([1])")),
    ("AvgPoolGrad orig_input_shape of 3, sig", _T, _sig(
        "tf.raw_ops.AvgPoolGrad(grad=x, padding='VALID', strides=[1, 1, 1, 1], orig_input_shape=[3, 1, 3], "
        "ksize=[1, 1, 1, 1])", ([None, None], "float32"), "tf.ones([2, 4])")),
    ("DenseBincount size a vector, sig", _T, _sig(
        "tf.raw_ops.DenseBincount(input=x, weights=tf.ones([3, 4]), size=[1, 1])", ([None, 4], "int64"),
        "tf.ones([3, 4], tf.int64)")),
    ("DenseBincount size -2, sig", _T, _sig(
        "tf.raw_ops.DenseBincount(input=x, weights=tf.ones([3, 4]), size=-2)", ([None, 4], "int64"),
        "tf.ones([3, 4], tf.int64)")),
    ("Conv2DBackpropInput out_backprop rank 3, sig", _T, _sig(
        "tf.raw_ops.Conv2DBackpropInput(out_backprop=x, input_sizes=[4, 4, 1, 3], padding='VALID', "
        "filter=tf.ones([4, 1, 1, 1]), strides=[1, 2, 1])", ([1, 4, None], "float32"), "tf.ones([1, 4, 4])")),
    ("PadV2 negative padding, sig", _T, _sig(
        "tf.raw_ops.PadV2(input=x, paddings=[[2, 1], [-1, 1]], constant_values=tf.ones([2, 1], tf.float64))",
        ([2, 1], "float64"), "tf.ones([2, 1], tf.float64)")),
    ("Pad negative padding, unknown rank, sig", _T, _sig(
        "tf.raw_ops.Pad(input=x, paddings=[[2, 1], [-1, 1]])", (None, "float64"), "tf.ones([2, 1], tf.float64)")),
    ("MirrorPad negative padding, sig", _T, _sig(
        "tf.raw_ops.MirrorPad(input=x, paddings=[[1, 1], [-1, 1]], mode='SYMMETRIC')", (None, "float64"),
        "tf.ones([2, 1], tf.float64)")),
    ("MatrixSolve rows of [?, 3], sig", _T, _sig(
        "tf.raw_ops.MatrixSolve(matrix=x, rhs=tf.ones([1, 3], tf.complex128))", ([None, 3], "complex128"),
        "tf.ones([1, 3], tf.complex128)")),
    # checks a graph leaves to the kernel where it does not know the shape (sig seed 2520261203 #24, #90, #176)
    ("Fill value of unknown rank, sig", _T, _sig("tf.raw_ops.Fill(value=x, dims=tf.constant([4]))",
                                                 (None, "complex128"), "tf.ones([1, 2], tf.complex128)")),
    ("RGBToHSV 2 channels of unknown rank, sig", _T, _sig("tf.raw_ops.RGBToHSV(images=x)", (None, "float16"),
                                                          "tf.zeros([4, 1, 2], tf.float16)")),
    ("RGBToHSV 2 channels, sig", _T, _sig("tf.raw_ops.RGBToHSV(images=x)", ([4, 1, 2], "float16"),
                                          "tf.zeros([4, 1, 2], tf.float16)")),
    ("StridedSlice shrink stride -2 on an unknown dimension, sig", _T, _sig(
        "tf.raw_ops.StridedSlice(input=x, begin=tf.constant([-1, 1, 0]), end=tf.constant([2, 2, -1]), "
        "strides=tf.constant([1, -2, -2]), begin_mask=3, shrink_axis_mask=2)", ([4, None, None], "uint64"),
        "tf.ones([4, 2, 1], tf.uint64)")),
    ("StridedSlice shrink stride -2 on a known dimension, sig", _T, _sig(
        "tf.raw_ops.StridedSlice(input=x, begin=tf.constant([-1, 1, 0]), end=tf.constant([2, 2, -1]), "
        "strides=tf.constant([1, -2, -2]), begin_mask=3, shrink_axis_mask=2)", ([4, 2, None], "uint64"),
        "tf.ones([4, 2, 1], tf.uint64)")),
    # the pools: the batch refusal before the rank (seed 2520261204 #132)
    ("MaxPool3D batch window, rank 1 bfloat16", _K, _eager(
        "tf.raw_ops.MaxPool3D(ksize=[2, 1, 1, 1, 2], input=tf.constant([1.0, 2.0], tf.bfloat16), "
        "strides=[1, 1, 2, 3, 1], padding='VALID')")),
    ("MaxPool3D depth window, rank 1", _K, _eager(
        "tf.raw_ops.MaxPool3D(ksize=[1, 1, 1, 1, 2], input=tf.constant([1.0, 2.0]), strides=[1, 1, 1, 1, 1], "
        "padding='VALID')")),
    ("AvgPool batch stride, rank 1", _K, _eager(
        "tf.raw_ops.AvgPool(ksize=[1, 1, 1, 1], value=tf.constant([1.0, 2.0]), strides=[2, 1, 1, 1], "
        "padding='VALID')")),
    # oneDNN's channels-first pools (tape seed 2520261202, seed 2520261204)
    ("AvgPool NCHW", _K, _eager(f"tf.raw_ops.AvgPool(value={_NCHW}, ksize=[1, 1, 2, 2], strides=[1, 1, 2, 1], "
                                "padding='SAME', data_format='NCHW')")),
    ("AvgPool NCHW bfloat16", _K, _eager(f"tf.raw_ops.AvgPool(value=tf.cast({_NCHW}, tf.bfloat16), ksize=[1, 1, 2, 1], "
                                         "strides=[1, 1, 2, 2], padding='SAME', data_format='NCHW')")),
    ("AvgPool NCHW channel stride 2", _K, _eager(f"tf.raw_ops.AvgPool(value={_NCHW}, ksize=[1, 1, 2, 1], "
                                                 "strides=[1, 2, 2, 1], padding='SAME', data_format='NCHW')")),
    ("AvgPool NCHW rank 2", _K, _eager("tf.raw_ops.AvgPool(value=tf.ones([4, 3], tf.bfloat16), ksize=[1, 1, 1, 1], "
                                       "strides=[1, 2, 1, 1], padding='SAME', data_format='NCHW')")),
    ("MaxPool NCHW", _K, _eager(f"tf.raw_ops.MaxPool(input={_NCHW}, ksize=[1, 1, 2, 2], strides=[1, 1, 2, 1], "
                                "padding='SAME', data_format='NCHW')")),
    ("MaxPool NCHW window over channels", _K, _eager(f"tf.raw_ops.MaxPool(input={_NCHW}, ksize=[1, 2, 1, 1], "
                                                     "strides=[1, 1, 2, 1], padding='VALID', data_format='NCHW')")),
    ("MaxPool NCHW_VECT_C", _K, _eager("tf.raw_ops.MaxPool(input=tf.zeros([0, 3, 3]), ksize=[1, 3, 3, 1], "
                                       "strides=[1, 1, 3, 1], padding='VALID', data_format='NCHW_VECT_C')")),
    ("MaxPool3D NCDHW", _K, _eager(f"tf.raw_ops.MaxPool3D(input={_NCDHW}, ksize=[1, 1, 1, 2, 2], "
                                   "strides=[1, 1, 1, 1, 2], padding='SAME', data_format='NCDHW')")),
    ("MaxPool3D NCDHW rank 1", _K, _eager("tf.raw_ops.MaxPool3D(input=tf.constant([-1.0, 0.75]), ksize=[1, 1, 2, 2, 1], "
                                          "strides=[1, 1, 1, 3, 1], padding='SAME', data_format='NCDHW')")),
    ("AvgPool3D NCDHW", _K, _eager(f"tf.raw_ops.AvgPool3D(input={_NCDHW}, ksize=[1, 1, 1, 2, 2], "
                                   "strides=[1, 1, 1, 1, 2], padding='VALID', data_format='NCDHW')")),
    ("AvgPool3D NCDHW rank 3", _K, _eager("tf.raw_ops.AvgPool3D(input=tf.zeros([2, 3, 3]), ksize=[1, 1, 2, 1, 1], "
                                          "strides=[1, 3, 2, 1, 1], padding='SAME', data_format='NCDHW')")),
    ("AvgPoolGrad NCHW", _K, _eager("tf.raw_ops.AvgPoolGrad(orig_input_shape=tf.constant([1, 2, 2, 3]), "
                                    "grad=tf.reshape(tf.range(12.0), [1, 2, 2, 3]), ksize=[1, 1, 1, 1], "
                                    "strides=[1, 1, 1, 1], padding='SAME', data_format='NCHW')")),
    ("AvgPoolGrad NCHW negative size", _K, _eager("tf.raw_ops.AvgPoolGrad(orig_input_shape=tf.constant([-2, 1]), "
                                                  "grad=tf.constant([[1.0]], tf.bfloat16), ksize=[1, 2, 3, 1], "
                                                  "strides=[1, 3, 1, 1], padding='SAME', data_format='NCHW')")),
    ("AvgPoolGrad NCHW window over channels and space", _K, _eager(
        "tf.raw_ops.AvgPoolGrad(orig_input_shape=tf.constant([1, 1, 1, 1]), grad=tf.zeros([1, 1, 1, 1], tf.bfloat16), "
        "ksize=[1, 2, 3, 1], strides=[1, 3, 1, 1], padding='SAME', data_format='NCHW')")),
    ("AvgPoolGrad NCHW float64", _K, _eager("tf.raw_ops.AvgPoolGrad(orig_input_shape=tf.constant([1, 1, 2, 2]), "
                                            "grad=tf.ones([1, 1, 2, 2], tf.float64), ksize=[1, 1, 1, 1], "
                                            "strides=[1, 1, 1, 1], padding='SAME', data_format='NCHW')")),
    ("AvgPool3DGrad NCDHW", _K, _eager("tf.raw_ops.AvgPool3DGrad(orig_input_shape=[1, 2, 2, 3, 3], "
                                       "grad=tf.ones([1, 2, 2, 2, 1]), ksize=[1, 1, 1, 2, 2], strides=[1, 1, 1, 1, 2], "
                                       "padding='VALID', data_format='NCDHW')")),
    ("MaxPoolGrad NCHW float32", _K, _eager(
        f"tf.raw_ops.MaxPoolGrad(orig_input={_NCHW}, orig_output=tf.ones([1, 2, 2, 2]), grad=tf.ones([1, 2, 2, 2]), "
        "ksize=[1, 1, 2, 2], strides=[1, 1, 1, 1], padding='VALID', data_format='NCHW')")),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.bits_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_kernel_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("autodiff.op-gradients")
@EDGES.parametrize("autodiff.op-gradients")
def test_softsign_grad_has_no_gradient(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz25a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
