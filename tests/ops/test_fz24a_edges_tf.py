"""Rules behind the twentieth fuzzer's classes that fz24a closed (the fresh campaigns eager seed
2420261202, tape seed 2420261203, sig seed 2420261204, and fz20_seen's SigmoidGrad gradient), each
against real TensorFlow 2.21: the same raw call on both backends gives the same dtype and values, or
raises the same exception class. Eagerly, in a tf.function (`traced`), with an input_signature
(`sig`) and under a GradientTape (`tape`). No float32 case of an op TF runs through oneDNN on the
reference host (MatMul, Conv2D): those cases are float64. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, tape as _tape, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"
_K = "ops.fuzz-raw"
_C = "ops.complex"
_SIMD = "ops.simd-signed-zeros"

_EIP = "tf.raw_ops.ExtractImagePatches(images=tf.zeros({}), ksizes={}, strides={}, rates={}, padding='VALID')"
_EVP = "tf.raw_ops.ExtractVolumePatches(input=tf.zeros({}), ksizes={}, strides={}, padding='{}')"
_LRNG = "tf.raw_ops.LRNGrad(input_grads=tf.ones({}, tf.float16), input_image=tf.ones({}, tf.float16), " \
        "output_image=tf.ones({}, tf.float16), depth_radius={})"
_MPG = "tf.raw_ops.MaxPoolGrad(orig_input=tf.ones({}, tf.float64), orig_output=tf.ones({}, tf.float64), " \
       "grad=tf.ones({}, tf.float64), ksize={}, strides={}, padding='VALID')"
_MPGG = "tf.raw_ops.MaxPoolGradGrad(orig_input=tf.ones({}, tf.float64), orig_output=tf.ones({}, tf.float64), " \
        "grad=tf.ones({}, tf.float64), ksize={}, strides={}, padding='VALID')"
_DW = "tf.raw_ops.DepthwiseConv2dNative{}(strides=[1, 1, 1, 1], data_format='NCHW', padding='VALID', {})"
_SIGN = "[1e30 + 1e30j, 1e-30 + 1e-30j, complex(float('inf'), 0), 3e38 + 3e38j, 1e-40 + 1j, 0j, " \
        "complex(float('nan'), 1), 1 + 1j, -3 + 2.5j, -1.5 - 3j, 0.25 - 7j]"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # the kernels' constructor checks before the input's rank (seed 2420261202 #43, #63)
    ("ExtractVolumePatches strides across depth, uint64", _K, _eager(
        "tf.raw_ops.ExtractVolumePatches(input=tf.zeros((2, 1, 1), tf.uint64), ksizes=[1, 1, 3, 1, 1], "
        "strides=[1, 2, 2, 2, 2], padding='SAME')")),
    ("ExtractVolumePatches ksize 0", _K, _eager(_EVP.format("(1, 2, 2, 1, 1)", [1, 1, 0, 1, 1], [1, 2, 2, 1, 1],
                                                            "VALID"))),
    ("ExtractVolumePatches stride -1", _K, _eager(_EVP.format("(1, 2, 2, 1, 1)", [1, 1, 1, 1, 1], [1, 2, 1, -1, 1],
                                                              "VALID"))),
    ("ExtractVolumePatches empty output, traced", _K, _traced(_EVP.format("(1, 2, 1, 1, 1)", [1, 1, 3, 1, 1],
                                                                          [1, 2, 2, 1, 1], "VALID"))),
    ("ExtractVolumePatches negative output", _K, _eager(_EVP.format("(1, 2, 1, 1, 1)", [1, 1, 4, 1, 1],
                                                                    [1, 2, 1, 1, 1], "VALID"))),
    ("ExtractImagePatches strides across batch, rank 3", _K, _eager(_EIP.format("(2, 2, 1)", [1, 1, 1, 1],
                                                                                [2, 2, 2, 1], [1, 3, 1, 1]))),
    ("ExtractImagePatches rate 0", _K, _eager(_EIP.format("(1, 2, 2, 1)", [1, 1, 1, 1], [1, 2, 2, 1], [1, 0, 1, 1]))),
    ("ExtractImagePatches rank 3", _K, _eager(_EIP.format("(1, 2, 2)", [1, 1, 1, 1], [1, 2, 2, 1], [1, 1, 1, 1]))),
    ("extract_patches strides across batch, rank 3", _K, _eager(
        "tf.image.extract_patches(tf.zeros((2, 2, 1)), sizes=[1, 1, 1, 1], strides=[2, 1, 1, 1], "
        "rates=[1, 1, 1, 1], padding='VALID')")),
    # their shape functions in a graph: rank, attr counts, GetWindowedOutputSizeVerbose
    ("ExtractImagePatches rank 3, traced", _T, _traced(_EIP.format("(2, 2, 1)", [1, 1, 1, 1], [2, 2, 2, 1],
                                                                   [1, 3, 1, 1]))),
    ("ExtractImagePatches 5 strides, traced", _T, _traced(_EIP.format("(1, 1, 2, 1)", [1, 1, 1, 1], [1, 1, 2, 1, 5],
                                                                      [1, 1, 1, 1]))),
    ("ExtractImagePatches negative rows, traced", _T, _traced(_EIP.format("(1, 1, 2, 1)", [1, 4, 1, 1], [1, 1, 2, 1],
                                                                          [1, 1, 1, 1]))),
    ("ExtractVolumePatches 6 ksizes, traced", _T, _traced(_EVP.format("(1, 2, 2, 1, 1)", [1, 1, 1, 1, 1, 1],
                                                                      [2, 2, 2, 1, 1], "VALID"))),
    ("ExtractVolumePatches stride 0, traced", _T, _traced(_EVP.format("(1, 2, 1, 1, 1)", [1, 1, 3, 1, 1],
                                                                      [1, 2, 0, 1, 1], "VALID"))),
    # MatrixTriangularSolve's batch broadcast and rows (#33)
    ("MatrixTriangularSolve rows mismatch", _K, _eager(
        "tf.raw_ops.MatrixTriangularSolve(matrix=tf.ones((1, 1)), rhs=tf.ones((3, 1)), adjoint=True)")),
    ("MatrixTriangularSolve batch clash", _K, _eager(
        "tf.raw_ops.MatrixTriangularSolve(matrix=tf.ones((2, 2, 2)), rhs=tf.ones((3, 2, 2)))")),
    # LRNGradOp (#59, #129) and its launcher's loop (tape seed 2420261203 #95)
    ("LRNGrad depth_radius -1", _K, _eager(_LRNG.format("(2, 2)", "(2, 2)", "(2, 2)", -1))),
    ("LRNGrad matrices", _K, _eager(_LRNG.format("(2, 2)", "(2, 2)", "(2, 2)", 1))),
    ("LRNGrad other depth", _K, _eager(_LRNG.format("(1, 1, 2, 3)", "(1, 1, 2, 2)", "(1, 1, 2, 2)", 1))),
    ("LRNGrad output_image rank 2", _K, _eager(_LRNG.format("(1, 1, 2, 2)", "(1, 1, 2, 2)", "(1, 2)", 1))),
    ("LRNGrad output_image not LRN's, zero gradients", _K, _eager(
        "tf.raw_ops.LRNGrad(input_grads=tf.constant([[[[0.5, 0.0, 0.75, 7.0], [7.0, 1.0, 0.0, -1.0]]]]), "
        "input_image=tf.constant([[[[0.25, 0.25, 4.0, float('inf')], [1.0, 2.5, 0.5, 2.5]]]]), "
        "output_image=tf.constant([[[[1.0, 2.5, 0.001, 4.0], [0.25, -3.0, 1.0, 7.0]]]]), depth_radius=1, "
        "alpha=-1.0, beta=0.75, bias=1.0)")),
    ("LRNGrad float16, zero gradients", _K, _eager(
        "tf.raw_ops.LRNGrad(input_grads=tf.constant([[[[0.5, 0.0, 0.75]]]], tf.float16), "
        "input_image=tf.constant([[[[0.25, 100.0, 4.0]]]], tf.float16), "
        "output_image=tf.constant([[[[1.0, 2.5, -0.5]]]], tf.float16), depth_radius=2, alpha=1e-4, beta=0.75)")),
    # OneHotOp's scalars (#97)
    ("OneHot vector on_value", _K, _eager(
        "tf.raw_ops.OneHot(on_value=tf.constant([2, 0, 5], tf.uint64), indices=tf.constant([0, 1, 2], tf.int8), "
        "depth=tf.constant(3), off_value=tf.constant([1, 0, 5], tf.uint64))")),
    ("OneHot matrix off_value", _K, _eager(
        "tf.raw_ops.OneHot(on_value=tf.constant(2.0, tf.float16), indices=[0, 1], depth=3, "
        "off_value=tf.constant([[0.0]], tf.float16))")),
    ("OneHot axis 5 before a negative depth", _K, _eager(
        "tf.raw_ops.OneHot(on_value=tf.constant([2.0]), indices=[0, 1], depth=-3, off_value=tf.constant(0.0), "
        "axis=5)")),
    ("OneHot vector depth", _K, _eager(
        "tf.raw_ops.OneHot(on_value=tf.constant(2.0), indices=[0, 1], depth=[3], off_value=tf.constant(0.0))")),
    ("one_hot vector on_value, traced", _K, _traced(
        "tf.one_hot([0, 1], 3, on_value=tf.constant([2.0]), off_value=tf.constant(0.0))")),
    ("OneHot vector depth, traced", _T, _traced(
        "tf.raw_ops.OneHot(on_value=tf.constant(2.0), indices=[0, 1], depth=[3], off_value=tf.constant(0.0))")),
    # CrossOp (#101)
    ("Cross of 2-vectors", _K, _eager("tf.raw_ops.Cross(a=tf.constant([-0.0, -0.5]), b=tf.constant([7.0, 0.75]))")),
    ("Cross of scalars", _K, _eager("tf.raw_ops.Cross(a=tf.constant(1.0), b=tf.constant(2.0))")),
    ("linalg.cross of 2-vectors", _K, _eager("tf.linalg.cross(tf.constant([-0.0, -0.5]), tf.constant([7.0, 0.75]))")),
    ("linalg.cross of two shapes", _K, _eager(
        "tf.linalg.cross(tf.constant([-0.0, -0.5, 1.0]), tf.constant([[7.0, 0.75, 1.0]]))")),
    # complex Sign: Eigen's psign in packets, sign_impl in the tail (#67)
    ("Sign complex64 packets and tail", _C, _eager(f"tf.raw_ops.Sign(x=tf.constant({_SIGN}, tf.complex64))")),
    ("Sign complex64 one element", _C, _eager("tf.raw_ops.Sign(x=tf.constant([-3 + 2.5j], tf.complex64))")),
    ("Sign complex128 packets and tail", _C, _eager(
        "tf.raw_ops.Sign(x=tf.constant([1e300 + 1e300j, 1e-300 + 1e-300j, 1e-160 + 0j, complex(float('inf'), 1), "
        "-1.5 - 3j], tf.complex128))")),
    # complex SigmoidGrad: each path's product order (#45) and its gradient conjugates (SEEN 2020261202 #174)
    ("SigmoidGrad complex64 tail Annex G", _C, _eager(
        "tf.raw_ops.SigmoidGrad(y=tf.constant([complex(0.001, 65504.0), complex(4.0, -1.5), complex(7.0, -3.4e38), "
        "complex(-1.0, -0.5), complex(0.0, 0.75), complex(float('nan'), -float('inf'))], tf.complex64), "
        "dy=tf.constant([0.75 - 0.5j, 0j, -1.5 + 0.25j, -0.5 + 7j, 4 + 1j, 4 - 0.5j], tf.complex64))")),
    ("SigmoidGrad complex128 gradient", _C, _tape(
        "tf.raw_ops.SigmoidGrad(y=x, dy=tf.constant(0.5 - 1.5j, tf.complex128))",
        "tf.constant(-3 + 7j, tf.complex128)")),
    ("TanhGrad complex64 gradient", _C, _tape(
        "tf.raw_ops.TanhGrad(y=x, dy=tf.constant([0.5 - 1.5j, 2 + 1j], tf.complex64))",
        "tf.constant([-3 + 7j, 0.25 - 0.5j], tf.complex64)")),
    # bfloat16 Maximum/Minimum: NaN propagates, a zero tie is the first operand (#117)
    ("Maximum bfloat16 NaN and zero ties", _SIMD, _eager(
        "tf.raw_ops.Maximum(x=tf.constant([0.0, -0.0, float('nan'), 1.0] * 3, tf.bfloat16), "
        "y=tf.constant([float('nan'), 0.0, float('inf'), float('nan')] * 3, tf.bfloat16))")),
    ("Minimum bfloat16 subnormal beside NaN", _SIMD, _eager(
        "tf.raw_ops.Minimum(x=tf.constant([0.0, 1e-40, -0.0], tf.bfloat16), "
        "y=tf.constant([float('nan'), 1.0, 0.0], tf.bfloat16))")),
    # SparseReshape carries an index beyond its dimension (#81)
    ("SparseReshape out-of-range index", _K, _eager(
        "tf.raw_ops.SparseReshape(input_shape=[2, 2, 1], new_shape=[4], input_indices=[[0, 1, 1]])")),
    ("SparseReshape negative indices", _K, _eager(
        "tf.raw_ops.SparseReshape(input_shape=[2, 3], new_shape=[3, 2], "
        "input_indices=[[0, -1], [1, 2], [-3, 5], [0, 0]])")),
    # SetSize's SparseTensor::Create checks (sig seed 2420261204 #95) and an unsorted segment output the
    # allocator cannot give (#109)
    ("SetSize of vector indices", _K, _eager(
        "tf.raw_ops.SetSize(set_indices=[0, 0, 0, 0], set_shape=tf.constant([3, 3], tf.int64), "
        "set_values=tf.constant([7, 7, 5, 7], tf.uint8), validate_indices=False)")),
    ("SetSize rows mismatch", _K, _eager(
        "tf.raw_ops.SetSize(set_indices=[[0, 0], [0, 1]], set_shape=tf.constant([3, 3], tf.int64), "
        "set_values=tf.constant([7, 7, 5, 7], tf.uint8))")),
    ("SetSize shape rank 3 for 2 index columns", _K, _eager(
        "tf.raw_ops.SetSize(set_indices=[[0, 0], [0, 1]], set_shape=tf.constant([3, 3, 3], tf.int64), "
        "set_values=tf.constant([7, 7], tf.uint8))")),
    ("SetSize of vector indices, sig", _K, _sig(
        "tf.raw_ops.SetSize(set_indices=[0, 0, 0, 0], set_shape=tf.constant([3, 3], tf.int64), set_values=x, "
        "validate_indices=False)", ([4], "uint8"), "tf.constant([7, 7, 5, 7], tf.uint8)")),
    ("UnsortedSegmentSum of 2**31 - 1 segments", _K, _eager(
        "tf.raw_ops.UnsortedSegmentSum(segment_ids=[0], data=tf.ones((1, 1, 4, 4), tf.uint16), "
        "num_segments=tf.constant(2147483647, tf.int32))")),
    # DenseCountSparseOutput's maxlength 0 (#155)
    ("DenseCountSparseOutput maxlength 0", _K, _eager(
        "tf.raw_ops.DenseCountSparseOutput(binary_output=True, values=tf.constant([2, 1, 7], tf.int64), "
        "weights=tf.constant([7, 5, 0]), minlength=1, maxlength=0)")),
    ("SparseCountSparseOutput maxlength 0", _K, _eager(
        "tf.raw_ops.SparseCountSparseOutput(indices=tf.constant([[0], [1]], tf.int64), "
        "values=tf.constant([2, 1], tf.int64), dense_shape=tf.constant([2], tf.int64), "
        "weights=tf.constant([], tf.int32), minlength=5, maxlength=0, binary_output=False)")),
    # ResizeBilinearGrad's batch and channels from grads (#187)
    ("ResizeBilinearGrad batch and channels of grads", _K, _eager(
        "tf.raw_ops.ResizeBilinearGrad(grads=tf.reshape(tf.range(24, dtype=tf.float32), (2, 3, 2, 2)), "
        "original_image=tf.ones((1, 4, 4, 3), tf.float64), align_corners=True)")),
    # LinearAlgebraOp's input checks (tape seed 2420261203 #34) and the linalg shape functions (sig #19, #99)
    ("MatrixSolve ranks differ", _K, _eager(
        "tf.raw_ops.MatrixSolve(rhs=tf.zeros((3, 0, 3, 0), tf.complex64), matrix=tf.ones((3, 4, 2), tf.complex64))")),
    ("MatrixSolve non-square", _K, _eager("tf.raw_ops.MatrixSolve(rhs=tf.zeros((3, 4, 1)), matrix=tf.ones((3, 4, 2)))")),
    ("MatrixSolve outer dimensions", _K, _eager(
        "tf.raw_ops.MatrixSolve(rhs=tf.zeros((2, 4, 1)), matrix=tf.ones((3, 4, 4)))")),
    ("MatrixSolve rows", _K, _eager("tf.raw_ops.MatrixSolve(rhs=tf.zeros((3, 3, 1)), matrix=tf.ones((3, 4, 4)))")),
    ("linalg.solve ranks differ", _K, _eager("tf.linalg.solve(tf.ones((2, 2)), tf.zeros((2,)))")),
    ("linalg.solve rows, traced", _T, _traced("tf.linalg.solve(tf.ones((2, 2)), tf.zeros((3, 1)))")),
    ("MatrixSolve unknown shapes, sig", _T, _sig("tf.raw_ops.MatrixSolve(matrix=x, rhs=tf.zeros((3, 1)))",
                                                 ([None, None], "float32"), "tf.ones((2, 3))")),
    ("MatrixInverse reciprocal of the pivots", _K, _eager(
        "tf.raw_ops.MatrixInverse(input=tf.constant([[[0.0, 0.5, 4.0], [0.75, -0.5, -1.5], [0.0, 7.0, 0.001]], "
        "[[7.0, -0.0, -0.5], [-3.0, 7.0, 4.0], [0.25, 0.0, 0.25]]]))")),
    ("MatrixSolve reciprocal of the pivots, float64", _K, _eager(
        "tf.raw_ops.MatrixSolve(matrix=tf.constant([[7.0, -0.0, -0.5], [-3.0, 7.0, 4.0], [0.25, 0.0, 0.3]], "
        "tf.float64), rhs=tf.constant([[1.0, 0.1], [0.0, 3.0], [0.7, 0.0]], tf.float64))")),
    ("Qr of a vector", _K, _eager("tf.raw_ops.Qr(input=tf.ones((3,)))")),
    ("Svd of a vector", _K, _eager("tf.raw_ops.Svd(input=tf.ones((3,)))")),
    ("Qr of a scalar, sig", _T, _sig("tf.raw_ops.Qr(input=x)", ([], "float16"), "tf.constant(0.75, tf.float16)")),
    ("Qr of a vector, sig", _T, _sig("tf.raw_ops.Qr(input=x, full_matrices=True)", ([None], "complex64"),
                                     "tf.constant([1j, 2 + 0j], tf.complex64)")),
    ("BroadcastTo shape -2, sig", _T, _sig("tf.raw_ops.BroadcastTo(input=x, shape=tf.constant([-2, 3], tf.int32))",
                                             ([None, 3], "float32"), "tf.ones((1, 3))")),
    ("BroadcastTo 2 into 4, traced", _T, _traced(
        "tf.raw_ops.BroadcastTo(input=tf.ones((2, 3)), shape=tf.constant([4, 3], tf.int32))")),
    ("BroadcastTo rank 3 into 2, traced", _T, _traced(
        "tf.raw_ops.BroadcastTo(input=tf.ones((1, 2, 3)), shape=tf.constant([4, 3], tf.int32))")),
    ("StridedSlice two ellipsis bits, empty begin", _K, _eager(
        "tf.raw_ops.StridedSlice(input=tf.constant(-4, tf.int16), begin=tf.constant([], tf.int16), "
        "end=tf.constant([], tf.int16), strides=tf.constant([], tf.int16), ellipsis_mask=5, shrink_axis_mask=3)")),
    ("StridedSlice two ellipsis bits, traced", _T, _traced(
        "tf.raw_ops.StridedSlice(input=tf.ones((2, 3)), begin=tf.constant([0, 0]), end=tf.constant([1, 1]), "
        "strides=tf.constant([1, 1]), ellipsis_mask=3)")),
    ("MatrixInverse non-square, traced", _T, _traced("tf.raw_ops.MatrixInverse(input=tf.ones((3, 2)))")),
    ("MatrixDeterminant non-square, traced", _T, _traced("tf.raw_ops.MatrixDeterminant(input=tf.ones((3, 2)))")),
    ("SelfAdjointEigV2 non-square, traced", _T, _traced("tf.raw_ops.SelfAdjointEigV2(input=tf.ones((2, 3, 2)))")),
    ("Lu non-square, traced", _T, _traced("tf.raw_ops.Lu(input=tf.ones((3, 2)))")),
    ("Cholesky vector, traced", _T, _traced("tf.raw_ops.Cholesky(input=tf.ones((3,)))")),
    ("MatrixLogarithm non-square, traced", _T, _traced(
        "tf.raw_ops.MatrixLogarithm(input=tf.ones((3, 2), tf.complex64))")),
    # MaxPoolingGradOp / MaxPoolingGradGradOp (tape #67, #123)
    ("MaxPoolGrad ksize across batch", _K, _eager(_MPG.format("(1, 1)", "()", "(3, 1)", [2, 2, 2, 1], [1, 2, 1, 1]))),
    ("MaxPoolGrad stride across depth", _K, _eager(_MPG.format("(1, 1)", "()", "(3, 1)", [1, 2, 2, 1], [1, 2, 1, 2]))),
    ("MaxPoolGrad 5 ksizes", _K, _eager(_MPG.format("(1, 1)", "()", "(3, 1)", [1, 2, 2, 1, 1], [1, 2, 1, 1]))),
    ("MaxPoolGrad grad shape", _K, _eager(_MPG.format("(1, 2, 2, 1)", "(1, 2, 2, 1)", "(1, 2, 3, 1)", [1, 1, 1, 1],
                                                      [1, 1, 1, 1]))),
    ("MaxPoolGrad orig_output shape, ksize 0", _K, _eager(_MPG.format("(1, 2, 2, 1)", "(1, 2, 2, 1)", "(1, 2, 2, 1)",
                                                                      [1, 0, 1, 1], [1, 1, 1, 1]))),
    ("MaxPoolGradGrad orig_output shape", _K, _eager(
        "tf.raw_ops.MaxPoolGradGrad(grad=tf.ones((3, 2, 1, 4), tf.int16), ksize=[1, 1, 1, 1], "
        "orig_input=tf.ones((3, 2, 1, 4), tf.int16), strides=[1, 2, 2, 1], padding='SAME', "
        "orig_output=tf.ones((3, 2, 1, 4), tf.int16))")),
    ("MaxPoolGradGrad depth stride", _K, _eager(_MPGG.format("(1, 1)", "()", "(3, 1)", [1, 2, 2, 1], [1, 2, 1, 2]))),
    ("MaxPoolGradGrad grad shape", _K, _eager(_MPGG.format("(1, 2, 2, 1)", "(1, 2, 2, 1)", "(1, 2, 3, 1)",
                                                           [1, 1, 1, 1], [1, 1, 1, 1]))),
    ("MaxPoolGradGrad grad rank", _K, _eager(_MPGG.format("(1, 2, 2, 1)", "(1, 2, 2, 1)", "(1, 2, 2)", [1, 1, 1, 1],
                                                          [1, 1, 1, 1]))),
    ("MaxPoolGradGrad empty forward", _K, _eager(_MPGG.format("(1, 2, 2, 1)", "(1, 0, 2, 1)", "(1, 2, 2, 1)",
                                                              [1, 3, 1, 1], [1, 1, 1, 1]))),
    # a raw MatMul's kernel checks (tape #92)
    ("MatMul rank 3 by 2", _K, _eager("tf.raw_ops.MatMul(a=tf.ones((4, 1, 3), tf.complex64), "
                                      "b=tf.ones((1, 3), tf.complex64))")),
    ("MatMul rank 3 by 3", _K, _eager("tf.raw_ops.MatMul(a=tf.ones((2, 4, 3), tf.float64), "
                                      "b=tf.ones((2, 3, 5), tf.float64))")),
    ("MatMul vectors", _K, _eager("tf.raw_ops.MatMul(a=tf.ones((3,), tf.float64), b=tf.ones((3,), tf.float64))")),
    ("MatMul inner dimensions, transpose_b", _K, _eager(
        "tf.raw_ops.MatMul(a=tf.ones((3, 4), tf.float64), b=tf.ones((3, 5), tf.float64), transpose_b=True)")),
    ("MatMul transpose_a", _K, _eager(
        "tf.raw_ops.MatMul(a=tf.ones((3, 4), tf.float64), b=tf.ones((3, 5), tf.float64), transpose_a=True)")),
    # the depthwise kernels' checks before their NCHW refusal (tape #161)
    ("DepthwiseConv2dNativeBackpropInput empty input_sizes, NCHW", _K, _eager(_DW.format(
        "BackpropInput", "filter=tf.constant(-3.0, tf.float64), out_backprop=tf.constant(-1.0, tf.float64), "
        "input_sizes=tf.constant([], tf.int32)"))),
    ("DepthwiseConv2dNativeBackpropInput negative size, NCHW", _K, _eager(_DW.format(
        "BackpropInput", "filter=tf.ones((1, 1), tf.float64), out_backprop=tf.ones((1, 2), tf.float64), "
        "input_sizes=tf.constant([1, -1, 2, 2], tf.int32)"))),
    ("DepthwiseConv2dNativeBackpropFilter matrix filter_sizes, NCHW", _K, _eager(_DW.format(
        "BackpropFilter", "input=tf.ones((1, 1, 2, 2), tf.float64), out_backprop=tf.constant(-1.0, tf.float64), "
        "filter_sizes=tf.constant([[1]], tf.int32)"))),
    ("DepthwiseConv2dNative depths, NCHW", _K, _eager(_DW.format(
        "", "input=tf.ones((1, 1, 2, 2), tf.float64), filter=tf.ones((1, 1, 2, 1), tf.float64)"))),
    ("DepthwiseConv2dNative valid shapes, NCHW", _K, _eager(_DW.format(
        "", "input=tf.ones((1, 1, 2, 2), tf.float64), filter=tf.ones((1, 1, 1, 1), tf.float64)"))),
]


def _parts_agree(got: Any, want: Any) -> Any:
    """Complex results part by part, each bit for bit with any NaN matching any NaN (bits_agree
    compares complex values with ==, where NaN never matches)."""
    if got.dtype.kind != "c":
        return edge_compare.bits_agree(got, want)
    return edge_compare.bits_agree(got.real.copy(), want.real.copy()) & \
        edge_compare.bits_agree(got.imag.copy(), want.imag.copy())


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_kernel_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@EDGES.parametrize("ops.complex")
def test_complex_kernels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.simd-signed-zeros")
@EDGES.parametrize("ops.simd-signed-zeros")
def test_bfloat16_max_min(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz24a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
