"""Rules behind the twentieth fuzzer's classes that fz23a closed (the sig campaign seed 2220261202's
open classes, the fresh function campaign seed 2320261202's), each against real TensorFlow 2.21: the
same raw call on both backends gives the same dtype and values, or raises the same exception class.
Eagerly, in a tf.function (`traced`), and with an input_signature (`sig`: get_concrete_function on
placeholders, then a call). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"
_K = "ops.fuzz-raw"
_SUB = "ops.subnormals"
_FR = "ops.special-functions"
_BV = "ops.linalg-more"

_SRM = "tf.raw_ops.SparseReduceMax(input_indices=tf.zeros((1, 3), tf.int64), input_values=x, "
_DTS = "tf.raw_ops.DenseToSparseSetOperation(set_operation='a-b', set2_values=tf.constant([3, 3], tf.int16), "
_MDV3 = "tf.raw_ops.MatrixDiagV3(padding_value=7, diagonal=x, "
_CRGI = "tf.raw_ops.CropAndResizeGradImage(T=tf.float32, grads=tf.zeros((3, 2, 2, 1)), boxes=tf.zeros((3, 4)), "
_RIS = "tf.raw_ops.RandomIndexShuffle(index=tf.constant(2, tf.uint32), max_index=tf.constant(5, tf.uint32), seed=x)"
_BTS = "tf.raw_ops.BandedTriangularSolve(matrix=x, rhs="
_CRGB = "tf.raw_ops.CropAndResizeGradBoxes(grads=tf.zeros({}), image=tf.zeros({}), boxes=tf.zeros({}), " \
        "box_ind=tf.zeros({}, tf.int32))"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # SparseReduceShapeFn, where the graph knows input_shape and reduction_axes (seed 2220261202 #128, #192)
    ("SparseReduceMax of a kept dimension -2, sig", _T, _sig(
        _SRM + "input_shape=[-2, 3, 4], reduction_axes=[-1])", ([None], "float32"), "tf.ones((1,))")),
    ("SparseReduceMax of a reduced dimension -2, sig", _T, _sig(
        _SRM + "input_shape=[-2, 3, 4], reduction_axes=[0])", ([None], "float32"), "tf.ones((1,))")),
    ("SparseReduceSum of an empty shape, traced", _T, _traced(
        "tf.raw_ops.SparseReduceSum(input_indices=tf.constant([0, 2], tf.int64), input_values=tf.ones((2,)), "
        "input_shape=tf.constant([], tf.int64), reduction_axes=1)")),
    ("SparseReduceSum axis 7 of 3 dims, traced", _T, _traced(
        "tf.raw_ops.SparseReduceSum(input_indices=tf.constant([[0, 2, 2]], tf.int64), input_values=tf.ones((1,)), "
        "input_shape=tf.constant([3, 3, 3], tf.int64), reduction_axes=7)")),
    # SparseSoftmax's and SparseReshape's ranks (seed 2220261202 #42, #129; 2320261202 #114, #157)
    ("SparseSoftmax of scalar indices, sig", _T, _sig(
        "tf.raw_ops.SparseSoftmax(sp_shape=tf.constant([2, 4], tf.int64), sp_indices=tf.constant(2, tf.int64), "
        "sp_values=x)", ([None], "float64"), "tf.zeros((2,), tf.float64)")),
    ("SparseSoftmax of more values than indices, traced", _T, _traced(
        "tf.raw_ops.SparseSoftmax(sp_shape=tf.constant([2, 2], tf.int64), "
        "sp_indices=tf.constant([[0, 0], [1, 1]], tf.int64), sp_values=tf.zeros((3,), tf.float64))")),
    ("SparseReshape of vector indices, traced", _T, _traced(
        "tf.raw_ops.SparseReshape(input_shape=[1, 3], new_shape=[3, 1], input_indices=[0])")),
    ("SparseReshape of a -2 size, traced", _T, _traced(
        "tf.raw_ops.SparseReshape(input_shape=[1, 3], new_shape=[-2, 3], input_indices=[[0, 0]])")),
    # set_ops.cc's shape functions (seed 2220261202 #121)
    ("DenseToSparseSetOperation of a vector set1, traced", _T, _traced(
        _DTS + "set1=tf.constant([1, 2], tf.int16), set2_indices=[[0, 1], [1, 1]], set2_shape=[2, 2])")),
    ("DenseToSparseSetOperation of index rank 2, shape rank 3, traced", _T, _traced(
        _DTS + "set1=tf.ones((2, 2), tf.int16), set2_indices=[[0, 1], [1, 1]], set2_shape=[2, 2, 2])")),
    ("DenseToSparseSetOperation of set1 rank 3, shape rank 2, traced", _T, _traced(
        _DTS + "set1=tf.ones((2, 2, 2), tf.int16), set2_indices=[[0, 1], [1, 1]], set2_shape=[2, 2])")),
    ("sets.difference of ranks 2 and 3, sparse b, traced", _T, _traced(
        "tf.sets.difference(tf.ones((2, 2), tf.int16), tf.sparse.SparseTensor([[0, 1, 0]], "
        "tf.constant([3], tf.int16), [2, 2, 2]))")),
    ("DenseToDenseSetOperation of ranks 2 and 3, traced", _T, _traced(
        "tf.raw_ops.DenseToDenseSetOperation(set1=tf.ones((2, 2), tf.int32), set2=tf.ones((2, 2, 2), tf.int32), "
        "set_operation='a-b')")),
    # MatrixDiagV2Shape with InferenceContext::Value's -1 for an unknown dimension (seed 2220261202 #70)
    ("MatrixDiagV3 rows and cols both off, sig", _T, _sig(_MDV3 + "k=0, num_rows=3, num_cols=2)", ([None, 1], "int32"),
                                                          "tf.constant([[1], [3]])")),
    ("MatrixDiagV3 num_rows too small, traced", _T, _traced(
        "tf.raw_ops.MatrixDiagV3(padding_value=7, diagonal=tf.constant([1, 2, 3]), k=-1, num_rows=1, num_cols=4)")),
    ("MatrixDiagV3 band of unknown diagonals, sig", _T, _sig(_MDV3 + "k=[-1, 0], num_rows=-1, num_cols=-1)",
                                                             ([None, None], "int32"), "tf.constant([[1, 2], [3, 4]])")),
    ("MatrixDiagV3 unknown length, rows given, sig", _T, _sig(_MDV3 + "k=0, num_rows=3, num_cols=4)",
                                                              ([None], "int32"), "tf.constant([1, 2])")),
    ("MatrixDiagV3 fitting, sig", _T, _sig(_MDV3 + "k=0, num_rows=5, num_cols=-1)", ([None, 1], "int32"),
                                           "tf.constant([[1], [3]])")),
    # CropAndResizeGradImage: its shape function (image_size), then its kernel's checks (seed 2220261202 #184)
    ("CropAndResizeGradImage image_size of 1, traced", _T, _traced(
        _CRGI + "box_ind=[0, 1, 2], image_size=tf.constant([1], tf.int32))")),
    ("CropAndResizeGradImage image_size -3, traced", _T, _traced(_CRGI + "box_ind=[0, 1, 2], image_size=[1, 1, 2, -3])")),
    ("CropAndResizeGradImage box_ind a matrix", _K, _eager(_CRGI + "box_ind=[[0], [0], [0]], image_size=[1, 1, 2, 1])")),
    ("CropAndResizeGradImage depth differs", _K, _eager(_CRGI + "box_ind=[0, 0, 0], image_size=[1, 1, 2, 2])")),
    ("CropAndResizeGradImage negative batch", _K, _eager(_CRGI + "box_ind=[0, 0, 0], image_size=[-1, 1, 2, 1])")),
    ("CropAndResizeGradImage box index out of range", _K, _eager(_CRGI + "box_ind=[0, 0, 1], image_size=[1, 1, 2, 1])")),
    ("CropAndResizeGradImage of rank-3 grads, traced", _K, _traced(
        "tf.raw_ops.CropAndResizeGradImage(T=tf.float32, grads=tf.zeros((3, 2, 2)), boxes=tf.zeros((3, 4)), "
        "box_ind=[0, 0, 0], image_size=[1, 1, 2, 1])")),
    # CropAndResizeGradBoxes' kernel checks (seed 2320261202 #129)
    ("CropAndResizeGradBoxes of vector grads", _K, _eager(_CRGB.format((3,), (2, 3, 3, 1), (3, 4), (3,)))),
    ("CropAndResizeGradBoxes image depth differs", _K, _eager(_CRGB.format((3, 2, 2, 1), (2, 3, 3, 2), (3, 4), (3,)))),
    ("CropAndResizeGradBoxes boxes of 3 columns, traced", _K, _traced(
        _CRGB.format((3, 2, 2, 1), (2, 3, 3, 1), (3, 3), (3,)))),
    ("CropAndResizeGradBoxes fitting", _K, _eager(_CRGB.format((3, 2, 2, 1), (2, 3, 3, 1), (3, 4), (3,)))),
    # StatelessRandomPermuteShape, the raw op and the public function alike (seed 2220261202 #126)
    ("RandomIndexShuffle seed [None], sig", _T, _sig(_RIS, ([None], "uint32"), "tf.constant([1, 2, 3], tf.uint32)")),
    ("RandomIndexShuffle seed [3, 2], sig", _T, _sig(_RIS, ([3, 2], "uint32"), "tf.ones((3, 2), tf.uint32)")),
    ("RandomIndexShuffle seed rows against index, traced", _T, _traced(
        "tf.raw_ops.RandomIndexShuffle(index=tf.constant([2, 3], tf.uint32), max_index=tf.constant(5, tf.uint32), "
        "seed=tf.ones((3, 3), tf.uint32))")),
    ("random_index_shuffle seed [None], sig", _T, _sig("tf.random_index_shuffle(2, x, 5)", ([None], "int64"),
                                                       "tf.constant([1, 2, 3], tf.int64)")),
    # RandomIndexShuffle's kernel: index and max_index per output (a max below the index)
    ("RandomIndexShuffle max below index", _K, _eager(
        "tf.raw_ops.RandomIndexShuffle(index=tf.constant([1, 5]), seed=[1, 2, 3], max_index=tf.constant([3, 2]))")),
    ("RandomIndexShuffle negative max", _K, _eager(
        "tf.raw_ops.RandomIndexShuffle(index=tf.constant([1, -1]), seed=[1, 2, 3], max_index=tf.constant([-2, 5]))")),
    ("RandomIndexShuffle negative index", _K, _eager(
        "tf.raw_ops.RandomIndexShuffle(index=tf.constant(-1), seed=[1, 2, 3], max_index=tf.constant(3))")),
    ("RandomIndexShuffle max below index, traced", _K, _traced(
        "tf.raw_ops.RandomIndexShuffle(index=tf.constant(2, tf.uint32), seed=[1, 2, 3], "
        "max_index=tf.constant(1, tf.uint32))")),
    # BandedTriangularSolveShapeFn at trace for the raw op and tf.linalg.banded_triangular_solve (seed 2220261202 #96)
    ("BandedTriangularSolve of an unknown rank and [None], sig", _T, _sig(_BTS + "tf.ones((1,), tf.float16))",
                                                                          (None, "float16"), "tf.ones((1,), tf.float16)")),
    ("BandedTriangularSolve of an unknown rank called with a vector", _T, _sig(
        _BTS + "tf.ones((3, 1, 4, 2), tf.float64), adjoint=True)", (None, "float64"), "tf.zeros((0,), tf.float64)")),
    ("BandedTriangularSolve more bands than rows, traced", _T, _traced(
        "tf.raw_ops.BandedTriangularSolve(matrix=tf.ones((4, 3)), rhs=tf.ones((3, 1)))")),
    ("BandedTriangularSolve batch clash, traced", _T, _traced(
        "tf.raw_ops.BandedTriangularSolve(matrix=tf.ones((4, 2, 3)), rhs=tf.ones((3, 3, 1)))")),
    ("banded_triangular_solve of scalars, traced", _T, _traced(
        "tf.linalg.banded_triangular_solve(tf.constant(1.0), tf.constant(2.0))")),
    # FractionalMaxPool's constructor: seeds without deterministic (seed 2220261202 #87)
    ("FractionalMaxPool seed without deterministic", _K, _eager(
        "tf.raw_ops.FractionalMaxPool(value=tf.ones((1, 2, 2, 1)), pooling_ratio=[1.0, 1.0, 1.0, 1.0], seed=1)")),
    ("FractionalAvgPool seed2 without deterministic, traced", _K, _traced(
        "tf.raw_ops.FractionalAvgPool(value=tf.ones((1, 2, 2, 1)), pooling_ratio=[1.0, 1.0, 1.0, 1.0], seed2=1)")),
    ("FractionalMaxPool seed, ratio under 1", _K, _eager(
        "tf.raw_ops.FractionalMaxPool(value=tf.ones((1, 2, 2, 1)), pooling_ratio=[1.0, 0.5, 1.0, 1.0], seed=1)")),
    # PadV2's constant_values a scalar (seed 2320261202 #3, #22)
    ("PadV2 of a vector constant, traced", _K, _traced(
        "tf.raw_ops.PadV2(input=tf.ones((1,), tf.uint8), paddings=[[1, 0]], constant_values=tf.ones((1,), tf.uint8))")),
    ("PadV2 of a vector constant, negative paddings", _K, _eager(
        "tf.raw_ops.PadV2(input=tf.ones((2,)), paddings=[[-1, 0]], constant_values=[1.0])")),
    ("pad of a matrix constant", _K, _eager("tf.pad(tf.ones((2,)), [[1, 0]], constant_values=tf.ones((1, 1)))")),
    # UnravelIndexOp's and MirrorPadGradOp's checks a raw call reaches (tape campaign seed 2320261203 #45, #115)
    ("UnravelIndex of a negative dim", _K, _eager("tf.raw_ops.UnravelIndex(indices=tf.constant([0], tf.int64), dims=[-1])")),
    ("UnravelIndex of a zero dim", _K, _eager("tf.raw_ops.UnravelIndex(indices=tf.constant([0], tf.int64), dims=[0])")),
    ("UnravelIndex of matrix indices, no dims", _K, _eager("tf.raw_ops.UnravelIndex(indices=[[0]], dims=[])")),
    ("UnravelIndex beyond the dims, traced", _K, _traced("tf.raw_ops.UnravelIndex(indices=[5], dims=[2, 2])")),
    ("UnravelIndex of a negative index", _K, _eager("tf.raw_ops.UnravelIndex(indices=[-1], dims=[2, 2])")),
    ("MirrorPadGrad of empty paddings", _K, _eager(
        "tf.raw_ops.MirrorPadGrad(input=tf.constant([1], tf.uint32), mode='REFLECT', paddings=tf.constant([], tf.int64))")),
    ("MirrorPadGrad of paddings of 3 columns", _K, _eager(
        "tf.raw_ops.MirrorPadGrad(input=tf.constant([1, 2, 3], tf.uint32), mode='REFLECT', paddings=[[1, 1, 1]])")),
    ("MirrorPadGrad of too many paddings rows, traced", _K, _traced(
        "tf.raw_ops.MirrorPadGrad(input=tf.constant([1, 2, 3]), mode='SYMMETRIC', paddings=[[1, 1], [0, 0]])")),
    ("MatrixTriangularSolve of non-square matrices", _K, _eager(
        "tf.raw_ops.MatrixTriangularSolve(matrix=tf.ones((2, 4, 4, 2)), rhs=tf.ones((2, 4, 4, 2)))")),
    ("MatrixTriangularSolve of a vector rhs", _K, _eager("tf.raw_ops.MatrixTriangularSolve(matrix=tf.ones((2, 2)), "
                                                        "rhs=tf.ones((2,)))")),
    ("Where of a scalar", _K, _eager("tf.raw_ops.Where(condition=tf.constant(2147483647))")),
    ("Where of a scalar, traced", _K, _traced("tf.raw_ops.Where(condition=tf.constant(True))")),
    # the fresh function campaign's shape functions (seed 2320261202)
    ("MatrixTriangularSolve of vectors, traced", _T, _traced(
        "tf.raw_ops.MatrixTriangularSolve(matrix=tf.ones((4,)), rhs=tf.ones((4,)), adjoint=True)")),
    ("MatrixTriangularSolve non-square bfloat16, traced", _T, _traced(
        "tf.raw_ops.MatrixTriangularSolve(matrix=tf.ones((1, 2, 2), tf.bfloat16), rhs=tf.ones((3, 2), tf.bfloat16))")),
    ("MatrixTriangularSolve batch clash, traced", _T, _traced(
        "tf.raw_ops.MatrixTriangularSolve(matrix=tf.ones((2, 2, 2)), rhs=tf.ones((3, 2, 2)))")),
    ("MaxPoolGrad of a matrix input, traced", _T, _traced(
        "tf.raw_ops.MaxPoolGrad(ksize=[1, 3, 1, 1], strides=[1, 1, 1, 1], padding='SAME', orig_input=tf.ones((1, 4)), "
        "orig_output=tf.constant(0.5), grad=tf.ones((1, 4)))")),
    ("MaxPoolGrad of a scalar output, traced", _T, _traced(
        "tf.raw_ops.MaxPoolGrad(ksize=[1, 3, 1, 1], strides=[1, 1, 1, 1], padding='SAME', "
        "orig_input=tf.ones((1, 4, 4, 1)), orig_output=tf.constant(0.5), grad=tf.ones((1, 4)))")),
    ("MaxPoolGrad of a matrix grad", _K, _eager(
        "tf.raw_ops.MaxPoolGrad(ksize=[1, 3, 1, 1], strides=[1, 1, 1, 1], padding='SAME', "
        "orig_input=tf.ones((1, 4, 4, 1)), orig_output=tf.ones((1, 4, 4, 1)), grad=tf.ones((1, 4)))")),
    ("SparseCountSparseOutput of vector indices, traced", _T, _traced(
        "tf.raw_ops.SparseCountSparseOutput(weights=tf.ones((1,)), dense_shape=[1, 2], binary_output=False, "
        "values=tf.constant([7]), indices=tf.constant([0], tf.int64))")),
    ("TopKV2 of k -1, traced", _T, _traced("tf.raw_ops.TopKV2(k=tf.constant(-1), input=tf.ones((2, 3)), "
                                           "index_type=tf.int16)")),
    ("TopKV2 of a vector k, traced", _T, _traced("tf.raw_ops.TopKV2(k=tf.constant([1]), input=tf.ones((2, 3)))")),
    ("TopKV2 of k -1", _T, _eager("tf.raw_ops.TopKV2(k=tf.constant(-1), input=tf.ones((2, 3)))")),
    ("LRN of a scalar, traced", _T, _traced("tf.raw_ops.LRN(input=tf.constant(-3.0, tf.bfloat16))")),
    ("LRNGrad of rank-3 grads, traced", _T, _traced(
        "tf.raw_ops.LRNGrad(input_grads=tf.ones((1, 1, 3)), input_image=tf.ones((1, 1, 1, 3)), "
        "output_image=tf.ones((1, 1, 1, 3)))")),
    ("LRNGrad of another output depth, traced", _T, _traced(
        "tf.raw_ops.LRNGrad(input_grads=tf.ones((1, 1, 1, 3)), input_image=tf.ones((1, 1, 1, 3)), "
        "output_image=tf.ones((1, 1, 1, 2)))")),
    ("SparseSoftmaxCrossEntropyWithLogits of rank-3 features, traced", _T, _traced(
        "tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(labels=[[1], [3]], features=tf.ones((2, 4, 3)))")),
    ("SparseSoftmaxCrossEntropyWithLogits batch clash, traced", _T, _traced(
        "tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(labels=tf.constant([0, 1, 1]), features=tf.ones((2, 4)))")),
    ("UniqueWithCounts of a matrix, traced", _T, _traced(
        "tf.raw_ops.UniqueWithCounts(x=tf.ones((2, 2), tf.float64), out_idx=tf.int64)")),
    ("Unique of a matrix, traced", _T, _traced("tf.raw_ops.Unique(x=tf.ones((2, 2)))")),
    ("MirrorPad mode BOGUS, traced", _T, _traced(
        "tf.raw_ops.MirrorPad(input=tf.ones((1, 1, 4)), paddings=[[0, 0], [0, 0], [0, 1]], mode='BOGUS')")),
    ("MirrorPad mode BOGUS", _T, _eager(
        "tf.raw_ops.MirrorPad(input=tf.ones((1, 1, 4)), paddings=[[0, 0], [0, 0], [0, 1]], mode='BOGUS')")),
    # ClipByValue of complex64 flushes its float32 parts' subnormals, as the float kernels (seed 2220261202 #109)
    ("ClipByValue complex64 subnormal parts", _SUB, _eager(
        "tf.raw_ops.ClipByValue(t=tf.constant(np.array([complex(1.0, 1e-40), complex(3.0, -1e-40), complex(1e-40, 0.5)], "
        "np.complex64)), clip_value_min=tf.constant(complex(-1, -1e-40), tf.complex64), "
        "clip_value_max=tf.constant(complex(2, 1e-40), tf.complex64))")),
    ("ClipByValue complex64 subnormal parts, sig", _SUB, _sig(
        "tf.raw_ops.ClipByValue(t=x, clip_value_min=tf.constant(complex(-1, -1), tf.complex64), "
        "clip_value_max=tf.constant(complex(2, 2), tf.complex64))", ([None], "complex64"),
        "tf.constant(np.array([complex(0.0, 1e-40), complex(1e-40, 0.5)], np.complex64))")),
    ("ClipByValue complex128 float64 subnormal parts", _SUB, _eager(
        "tf.raw_ops.ClipByValue(t=tf.constant(np.array([complex(5e-324, 1.0), complex(0.5, -1e-310)], np.complex128)), "
        "clip_value_min=tf.constant(complex(-1, 1e-310), tf.complex128), "
        "clip_value_max=tf.constant(complex(2, 2), tf.complex128))")),
    # BandedTriangularSolve of complex: `row / s` and `row /= s` by Eigen's pdiv_complex (x / 0 NaN), `(rhs - band
    # * x) / s` by std::complex's operator/ (an infinity); the adjoint conjugates the band (SEEN 20202612010 #35)
    ("BandedTriangularSolve complex zero diagonal, later batch", _BV, _eager(
        "tf.raw_ops.BandedTriangularSolve(matrix=tf.constant(np.array([[[1.0 + 0j, 1.0 + 0j]], [[0j, 0j]]]), "
        "tf.complex64), rhs=tf.constant(np.full((2, 2, 1), -1.5 + 2.5j), tf.complex64))")),
    ("BandedTriangularSolve complex infinite diagonal, upper", _BV, _eager(
        "tf.raw_ops.BandedTriangularSolve(matrix=tf.constant(np.array([[[1.0 + 0j, 1.0 + 0j]], [[np.inf + 0j, "
        "np.inf + 0j]]]), tf.complex128), rhs=tf.constant(np.full((2, 2, 3), -1.5 + 2.5j), tf.complex128), lower=False)")),
    ("BandedTriangularSolve complex zero diagonal, adjoint", _BV, _eager(
        "tf.raw_ops.BandedTriangularSolve(matrix=tf.constant(np.array([[[1.0 + 0j, 1.0 + 0j]], [[0j, 0j]]]), "
        "tf.complex64), rhs=tf.constant(np.full((2, 2, 1), -1.5 + 2.5j), tf.complex64), adjoint=True)")),
    ("BandedTriangularSolve complex adjoint of a diagonal", _BV, _eager(
        "tf.raw_ops.BandedTriangularSolve(matrix=tf.constant([[1 + 1j, 2 + 0j]], tf.complex64), "
        "rhs=tf.constant([[1 + 0j], [1j]], tf.complex64), adjoint=True)")),
    ("banded_triangular_solve complex64 adjoint, upper", _BV, _eager(
        "tf.linalg.banded_triangular_solve(tf.constant([[0.5 + 0.25j, 2 - 1j, 1 + 1j], [1 + 0j, 2 + 2j, 4 - 3j]], "
        "tf.complex64), tf.constant([[1 + 1j], [2 + 0j], [0.5 - 0.5j]], tf.complex64), lower=False, adjoint=True)")),
    ("banded_triangular_solve complex128, traced", _BV, _traced(
        "tf.linalg.banded_triangular_solve(tf.constant([[0.5 + 0.25j, 2 - 1j, 1 + 1j], [1 + 0j, 2 + 2j, 4 + 0j]], "
        "tf.complex128), tf.constant([[1 + 1j], [2 + 0j], [0.5 - 0.5j]], tf.complex128))")),
    # Cephes' fresnl cut-off: |x| > 36974 is ±0.5 (seed 2220261202 #161)
    ("FresnelSin beyond the cut-off, float64", _FR, _eager(
        "tf.raw_ops.FresnelSin(x=tf.constant([40000.0, 65504.0, 1e10, -4e4, -1e300, -np.inf, np.inf], tf.float64))")),
    ("FresnelCos beyond the cut-off, float64", _FR, _eager(
        "tf.raw_ops.FresnelCos(x=tf.constant([40000.0, 65504.0, -1e300, -np.inf], tf.float64))")),
    ("FresnelSin beyond the cut-off, float32, sig", _FR, _sig("tf.raw_ops.FresnelSin(x=x)", ([None], "float32"),
                                                             "tf.constant([4e4, 65504.0, -1e30, -np.inf])")),
    ("Conv3DBackpropFilterV2 padding BOGUS, traced", _T, _traced(
        "tf.raw_ops.Conv3DBackpropFilterV2(out_backprop=tf.ones((2, 1)), strides=[1, 1, 1, 1, 1], "
        "filter_sizes=tf.constant([1, 2], tf.int32), padding='BOGUS', input=tf.ones((2, 1)))")),
]



def _parts_close(got: Any, want: Any) -> Any:
    """Each part within 1e-6 (NaN with NaN whatever its sign, infinities of one sign): the banded solves'
    values, whose NaN sign out of Eigen's pdiv_complex and adjoint complex products' last bits are not
    modelled; every other group is compared bit for bit."""
    close = edge_compare.within(1e-6)
    if got.dtype.kind == "c":
        return close(got.real.copy(), want.real.copy()) & close(got.imag.copy(), want.imag.copy())
    return close(got, want)


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _parts_close if case[1] == _BV
                                else edge_compare.bits_agree)


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


@clause("ops.subnormals")
@EDGES.parametrize("ops.subnormals")
def test_complex_parts_flush(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.special-functions")
@EDGES.parametrize("ops.special-functions")
def test_fresnel_cutoff(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_banded_solve_values(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz23a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
