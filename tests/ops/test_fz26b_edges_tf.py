"""Rules behind the classes of issue 29's fresh campaigns that fz26b ran (fourteenth generator seeds
1420262601 and 1420262602), each against real TensorFlow 2.21: the same call on both backends gives
the same dtype and values, or raises the same exception class. Eagerly, in a tf.function (`traced`),
with an input_signature (`sig`: get_concrete_function on placeholders, then a call), and across two
replicas of a MirroredStrategy. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_R = "reduce.dtypes"
_C = "ops.conversion"
_A = "ops.attr-types"
_T = "function.trace-time-errors"
_G = "function.grappler-rewrites"
_L = "ops.linalg-more"
_X = "ops.reflected-retry"

_STRATEGIES: dict[str, Any] = {}


def _strategy(tf: Any) -> Any:
    """MirroredStrategy on two logical CPUs: simdist's on a fresh simulation for each case, TF's
    made once per worker (tests/ops/test_fuzz2_edges_tf.py's helper)."""
    simdist_tf = tf.__name__.startswith("simdist")
    if simdist_tf or tf.__name__ not in _STRATEGIES:
        if simdist_tf:
            import simdist
            simdist.reset()
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        _STRATEGIES[tf.__name__] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return _STRATEGIES[tf.__name__]


def _reduce_strings(how: str, axis: Any, value: str) -> Callable[[Any], Any]:
    """strategy.reduce(how, per-replica strings, axis): `value` computed in each replica."""
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        v = s.run(lambda: eval(value, {"tf": tf, "np": np}))  # noqa: S307 - our own text
        return s.reduce(how, v, axis=axis)
    return run


def _hash_of_variable(expr: str, var: str) -> Callable[[Any], Any]:
    """`expr` of a plain variable `v` made by `var`."""
    def run(tf: Any) -> Any:
        v = eval(var, {"tf": tf, "np": np})  # noqa: S307 - our own text
        return eval(expr, {"tf": tf, "np": np, "v": v})  # noqa: S307 - our own text
    return run


CASES: list[tuple[str, str, Any]] = [
    # strategy.reduce of per-replica strings: AddN (axis None) and Sum (an axis) take no string (1420262601 #209)
    ("reduce SUM of per-replica formatted strings", _R, _reduce_strings(
        "SUM", None, "tf.strings.format('{}', [tf.constant(1.0)])")),
    ("reduce MEAN of per-replica string vectors", _R, _reduce_strings("MEAN", None, "tf.constant(['a', 'b'])")),
    ("reduce SUM axis 0 of per-replica string vectors", _R, _reduce_strings("SUM", 0, "tf.constant(['a', 'b'])")),
    ("reduce MEAN axis 0 of per-replica string vectors", _R, _reduce_strings("MEAN", 0, "tf.constant(['a', 'b'])")),
    ("reduce SUM of per-replica floats", _R, _reduce_strings("SUM", None, "tf.constant([1.5, 2.0])")),
    # a Variable through the hash ops' eager fallback (1420262601 #34)
    ("to_hash_bucket_fast of an int32 Variable, np.int64 buckets", _A, _hash_of_variable(
        "tf.strings.to_hash_bucket_fast(v, np.int64(2))", "tf.Variable([1, 2])")),
    ("to_hash_bucket_fast of an int32 Variable, int buckets", _A, _hash_of_variable(
        "tf.strings.to_hash_bucket_fast(v, 2)", "tf.Variable([1, 2])")),
    ("to_hash_bucket of an int32 Variable, np.int32 buckets", _A, _hash_of_variable(
        "tf.strings.to_hash_bucket(v, np.int32(3))", "tf.Variable([1, 2])")),
    ("to_hash_bucket_fast of a string Variable, np.int64 buckets", _A, _hash_of_variable(
        "tf.strings.to_hash_bucket_fast(v, np.int64(5))", "tf.Variable(['a', 'b'])")),
    # TridiagonalMatMul: LinearAlgebraOp's checks, ValidateInputMatrixShapes, its shape function (#37)
    ("tridiagonal_matmul of a scalar rhs", _L, _eager(
        "tf.linalg.tridiagonal_matmul(np.array([[1.0, -2.0], [0.0, -3.0], [4.0, 1.0]]), rhs=-1)")),
    ("tridiagonal_matmul of a scalar rhs, traced", _L, _traced(
        "tf.linalg.tridiagonal_matmul(tf.ones([3, 2]), -1.0)")),
    ("tridiagonal_matmul of other outer dimensions", _L, _eager(
        "tf.linalg.tridiagonal_matmul(tf.ones([2, 3, 2]), tf.ones([3, 2, 1]))")),
    ("tridiagonal_matmul of a 3x3 compact form, 2 rows", _L, _eager(
        "tf.linalg.tridiagonal_matmul(tf.ones([3, 3]), tf.ones([2, 1]))")),
    ("raw TridiagonalMatMul of vectors", _L, _eager(
        "tf.raw_ops.TridiagonalMatMul(superdiag=tf.ones([2]), maindiag=tf.ones([2]), subdiag=tf.ones([2]), "
        "rhs=tf.ones([2]))")),
    ("raw TridiagonalMatMul of a long subdiagonal", _L, _eager(
        "tf.raw_ops.TridiagonalMatMul(superdiag=tf.ones([1, 2]), maindiag=tf.ones([1, 2]), subdiag=tf.ones([1, 3]), "
        "rhs=tf.ones([2, 2]))")),
    ("tridiagonal_matmul values", _L, _eager(
        "tf.linalg.tridiagonal_matmul(tf.constant([[1.0, 2.0, 0.0], [3.0, 4.0, 5.0], [0.0, 6.0, 7.0]]), "
        "tf.constant([[1.0], [2.0], [3.0]]))")),
    # DynamicStitch: a list item in a list input sends the call to the fallback's list checks (#135)
    ("dynamic_stitch of list indices and tensor data", _A, _eager(
        "tf.dynamic_stitch([[2]], data=tf.constant([[1.0, 2.0]]))")),
    ("dynamic_stitch of an np.int32 index and tensor data", _A, _eager(
        "tf.dynamic_stitch([np.int32(0)], data=tf.constant([[1.0, 2.0]]))")),
    ("dynamic_stitch of tensor indices and tensor data", _A, _eager(
        "tf.dynamic_stitch([tf.constant([0])], data=tf.constant([[1.0, 2.0]]))")),
    ("dynamic_stitch of a tensor for indices and list data", _A, _eager(
        "tf.dynamic_stitch(tf.constant([[0]]), data=[[1.0]])")),
    # math_ops.matmul conjugates before the op: conj of bool/string is TypeError (#137, lstsq's Gramian)
    ("lstsq of bools", _A, _eager(
        "tf.linalg.lstsq(tf.constant([[True, False], [False, True]]), rhs=[[False, False], [True, False]])")),
    ("matmul of bools, adjoint_a", _A, _eager(
        "tf.linalg.matmul(tf.constant([[True]]), tf.constant([[True]]), adjoint_a=True)")),
    ("matmul of bools, adjoint_b, traced", _A, _traced(
        "tf.linalg.matmul(tf.constant([[True]]), tf.constant([[True]]), adjoint_b=True)")),
    ("matmul of strings, adjoint_a", _A, _eager(
        "tf.linalg.matmul(tf.constant([['a']]), tf.constant([['a']]), adjoint_a=True)")),
    ("batch matmul of bools, adjoint_a", _A, _eager(
        "tf.linalg.matmul(tf.ones([1, 1, 1], tf.bool), tf.ones([1, 1, 1], tf.bool), adjoint_a=True)")),
    ("batch matmul of bools, transpose_a", _A, _eager(
        "tf.linalg.matmul(tf.ones([1, 1, 1], tf.bool), tf.ones([1, 1, 1], tf.bool), transpose_a=True)")),
    ("matmul of bfloat16, adjoint_a", _A, _eager(
        "tf.linalg.matmul(tf.constant([[1.5, 2.0]], tf.bfloat16), tf.constant([[1.0, 3.0]], tf.bfloat16), "
        "adjoint_a=True)")),
    # binary_op_wrapper's retry: a NumPy complex scalar's __rfloordiv__/__rmod__ return NotImplemented (#204)
    ("bool // np.complex128, traced", _X, _traced("tf.constant(False) // np.complex128(4 + 1j)")),
    ("string % np.complex64, traced", _X, _traced("tf.constant('a') % np.complex64(4 + 1j)")),
    ("bool + np.complex128, traced", _X, _traced("tf.constant(False) + np.complex128(4 + 1j)")),
    ("bool // np.float64, traced", _X, _traced("tf.constant(False) // np.float64(2.0)")),
    # tf.constant in a graph: make_tensor_proto iterates a tensor shape (#227) and empties a shape of no
    # elements (seed 1420262602 #91)
    ("constant of an ndarray, a tensor shape, traced", _C, _traced(
        "tf.constant(np.array([[1.0, -np.inf]], np.float16), shape=tf.constant([1, 2]))")),
    ("constant of an np.float32, a tensor shape, traced", _C, _traced(
        "tf.constant(np.float32(1.0), shape=tf.constant([1, 2]))")),
    ("constant of an int ndarray as strings, a tensor shape, traced", _C, _traced(
        "tf.constant(np.array([1, 2]), tf.string, shape=tf.constant([1, 2]))")),
    ("constant of a list, a tensor shape, traced", _C, _traced("tf.constant([1.0, 2.0], shape=tf.constant([1, 2]))")),
    ("constant of an ndarray, an ndarray shape, traced", _C, _traced(
        "tf.constant(np.float32(1.0), shape=np.array([1, 2]))")),
    ("constant of a nested list, shape (0,), bfloat16, traced", _C, _traced(
        "tf.constant([[[[5], [3], [3]]]], dtype=tf.bfloat16, shape=(0,))")),
    ("constant of strings, shape (0, 2), traced", _C, _traced("tf.constant(['a', 'b'], shape=(0, 2))")),
    ("constant of ints as strings, shape (0,), traced", _C, _traced("tf.constant([1, 2], tf.string, shape=[0])")),
    ("constant of None, shape (0,), traced", _C, _traced("tf.constant(None, shape=[0])")),
    ("constant of a nested list, shape (0,)", _C, _eager("tf.constant([[[[5], [3], [3]]]], dtype=tf.bfloat16, shape=(0,))")),
    # sort_ops: a constant scalar axis, checked before the values convert (1420262602 #11)
    ("sort of axis (1, 0)", _A, _eager("tf.sort(np.array([[3]], np.int64), axis=(1, 0), direction='DESCENDING')")),
    ("argsort of axis [1]", _A, _eager("tf.argsort([[3, 1]], axis=[1])")),
    ("sort of a string, axis [0]", _A, _eager("tf.sort('a', axis=[0])")),
    ("sort of axis 1.5", _A, _eager("tf.sort([[3, 1]], axis=1.5)")),
    ("sort of an axis argument, traced", _A, _sig("tf.sort([[3, 1]], axis=x)", ([], "int32"), "tf.constant(1)")),
    ("sort of a constant axis tensor, traced", _A, _traced("tf.sort([[3, 1]], axis=tf.constant(1))")),
    # StridedSlice converts its input before begin, end and strides (#14)
    ("strided_slice of a list holding 1e300, unequal begin/end", _C, _eager(
        "tf.strided_slice([0.5, -3.0, 1e+300], begin=[-1], end=[1, 2, 2])")),
    ("strided_slice of a list, unequal begin/end", _C, _eager("tf.strided_slice([0.5, -3.0], begin=[-1], end=[1, 2])")),
    # Grappler's 0 - y -> Neg(y) for IsZeros' integer and complex Const types (#46)
    ("uint8 0 - x, sig", _G, _sig("tf.constant(0, tf.uint8) - x", ([], "uint8"), "tf.constant(3, tf.uint8)")),
    ("uint16 0 - x, sig", _G, _sig("tf.constant(0, tf.uint16) - x", ([], "uint16"), "tf.constant(3, tf.uint16)")),
    ("uint32 0 - x, sig", _G, _sig("tf.constant(0, tf.uint32) - x", ([], "uint32"), "tf.constant(3, tf.uint32)")),
    ("uint8 zeros([2]) - x, sig", _G, _sig("tf.zeros([2], tf.uint8) - x", ([], "uint8"), "tf.constant(3, tf.uint8)")),
    ("complex64 0 - x, sig", _G, _sig("tf.constant(0, tf.complex64) - x", ([], "complex64"),
                                      "tf.constant(complex(0.0, 0.0), tf.complex64)")),
    ("complex64 1j - x, sig", _G, _sig("tf.constant(1j, tf.complex64) - x", ([], "complex64"),
                                       "tf.constant(complex(0.0, 0.0), tf.complex64)")),
    ("int8 0 - x, sig", _G, _sig("tf.constant(0, tf.int8) - x", ([], "int8"), "tf.constant(3, tf.int8)")),
    # NumPy values beside a tensor are cast to its dtype (ConvertToEagerTensor's FORCECAST; #251)
    ("solve of a float16 ndarray and an int64 tensor", _A, _eager(
        "tf.linalg.solve(np.ones([1, 4, 2], np.float16), tf.constant(3, tf.int64))")),
    ("solve of a float64 ndarray and a float32 tensor", _A, _eager("tf.linalg.solve(np.eye(2), tf.ones([2, 1]))")),
    ("solve of a float32 tensor and an int64 ndarray", _A, _eager(
        "tf.linalg.solve(tf.eye(2), np.ones([2, 1], np.int64))")),
    ("triangular_solve of an int32 ndarray and a float32 tensor", _A, _eager(
        "tf.linalg.triangular_solve(np.eye(2, dtype=np.int32), tf.ones([2, 1]))")),
    ("set_diag of an int64 ndarray and a float32 tensor", _A, _eager(
        "tf.linalg.set_diag(np.zeros([2, 2], np.int64), tf.ones([2]))")),
    ("solve of a float64 ndarray and a string tensor", _A, _eager(
        "tf.linalg.solve(np.eye(2), tf.constant([['a'], ['b']]))")),
    # Split's shape function: a constant split_dim of a scalar input at trace (fresh seed 1420262603 #77)
    ("split of a scalar, traced", _T, _traced("tf.split(np.int32(0), np.int64(2), num=1)")),
    ("split of a scalar", _T, _eager("tf.split(np.int32(0), np.int64(2), num=1)")),
    ("split of a scalar argument, sig", _T, _sig("tf.split(x, 1, num=1)", ([], "int32"), "tf.constant(3)")),
    # tensordot's scalar axes tensor: StridedSlice's shape function at trace (#171)
    ("tensordot of a scalar axes tensor, traced", _T, _traced(
        "tf.linalg.tensordot(a=2.5, b=np.array([False, True]), axes=tf.constant(0))")),
    ("tensordot of a scalar axes tensor", _T, _eager(
        "tf.linalg.tensordot(a=tf.ones([2]), b=tf.ones([2]), axes=tf.constant(0))")),
    # unsorted_segment_sqrt_n / mean: N, the sum, then Sqrt (#245)
    ("unsorted_segment_sqrt_n of uint64, short ids, traced", _T, _traced(
        "tf.math.unsorted_segment_sqrt_n(tf.constant([[3], [1]], tf.uint64), [0], tf.constant(2))")),
    ("unsorted_segment_sqrt_n of uint64, short ids", _T, _eager(
        "tf.math.unsorted_segment_sqrt_n(tf.constant([[3], [1]], tf.uint64), [0], tf.constant(2))")),
    ("unsorted_segment_sqrt_n of uint64, traced", _T, _traced(
        "tf.math.unsorted_segment_sqrt_n(tf.constant([[3], [1]], tf.uint64), [0, 1], 2)")),
    ("unsorted_segment_sqrt_n of float32, an id out of range, traced", _T, _traced(
        "tf.math.unsorted_segment_sqrt_n(tf.constant([[3.0], [1.0]]), [0, 5], 2)")),
    ("unsorted_segment_mean of complex64, short ids", _T, _eager(
        "tf.math.unsorted_segment_mean(tf.constant([[3], [1]], tf.complex64), [0], 2)")),
    ("unsorted_segment_mean of int32, short ids, traced", _T, _traced(
        "tf.math.unsorted_segment_mean(tf.constant([[3], [1]]), [0], 2)")),
    # a dilation other than 1: the Convolution class checks the input's rank (#165)
    ("atrous_conv2d of a scalar, rate 0.5", _A, _eager(
        "tf.nn.atrous_conv2d(value=float('nan'), filters=np.ones([2, 1, 4, 3], np.bool_), rate=tf.constant(0.5), "
        "padding='VALID')")),
    ("atrous_conv2d of a matrix, rate 2", _A, _eager(
        "tf.nn.atrous_conv2d(value=tf.ones([2, 2]), filters=tf.ones([2, 1, 4, 3]), rate=2, padding='VALID')")),
    # oneDNN's depthwise backprops: the constructor's batch/depth stride check; filter and out_backprop
    # (input and out_backprop) share T, a NumPy value cast to the tensor's dtype (#3)
    ("depthwise backprop input, np.complex64 out_backprop, strides (2, 4), NCHW", _A, _eager(
        "tf.nn.depthwise_conv2d_backprop_input(np.array([[-1, 1, 0, 2], [-4, 2, 0, -1]], np.int64), filter=-2.5, "
        "out_backprop=np.complex64(0.25 + 0.5j), strides=(2, 4), padding='SAME', data_format='NCHW')")),
    ("depthwise backprop input, strides [2, 1, 1, 1], NHWC", _A, _eager(
        "tf.nn.depthwise_conv2d_backprop_input([1, 2, 2, 1], filter=tf.ones([1, 1, 1, 1]), "
        "out_backprop=tf.ones([1, 2, 2, 1]), strides=[2, 1, 1, 1], padding='SAME')")),
    ("depthwise backprop input, strides [1, 2, 1, 1], NCHW", _A, _eager(
        "tf.nn.depthwise_conv2d_backprop_input([1, 1, 2, 2], filter=tf.ones([1, 1, 1, 1]), "
        "out_backprop=tf.ones([1, 1, 2, 2]), strides=[1, 2, 1, 1], padding='SAME', data_format='NCHW')")),
    ("depthwise backprop filter, strides [1, 1, 1, 2], NHWC", _A, _eager(
        "tf.nn.depthwise_conv2d_backprop_filter(tf.ones([1, 2, 2, 1]), [1, 1, 1, 1], "
        "out_backprop=tf.ones([1, 2, 2, 1]), strides=[1, 1, 1, 2], padding='SAME')")),
    ("depthwise backprop input, a float64 ndarray filter", _A, _eager(
        "tf.nn.depthwise_conv2d_backprop_input([1, 2, 2, 1], filter=np.ones([1, 1, 1, 1]), "
        "out_backprop=tf.ones([1, 2, 2, 1]), strides=[1, 1, 1, 1], padding='SAME')")),
    ("depthwise backprop filter, a float64 ndarray input", _A, _eager(
        "tf.nn.depthwise_conv2d_backprop_filter(np.ones([1, 2, 2, 1]), [1, 1, 1, 1], "
        "out_backprop=tf.ones([1, 2, 2, 1]), strides=[1, 1, 1, 1], padding='SAME')")),
    # the fallback's args_to_matching_eager: the first eager tensor fixes T, a variable converts to it
    # (fresh seed 1420262603 #71)
    ("conv2d_backprop_input_v2 of an int32 Variable, np.int32 filter, uint32 out_backprop", _A, _hash_of_variable(
        "tf.conv2d_backprop_input_v2(input=v, filter=np.int32(5), out_backprop=tf.constant([[[2, 3, 3, 1]]], "
        "tf.uint32), strides=[2, 3], padding='same', data_format='NWC', dilations=(1, 1, 4))",
        "tf.Variable([[[1, 7, 3, 3]]])")),
    ("solve of a float32 Variable and a float64 tensor", _A, _hash_of_variable(
        "tf.linalg.solve(v, tf.constant([[1.0], [1.0]], tf.float64))", "tf.Variable(tf.eye(2))")),
    ("conv2d_backprop_input_v2 of an int32 Variable, uint32 tensors", _A, _hash_of_variable(
        "tf.conv2d_backprop_input_v2(input=v, filter=tf.constant([[[[5]]]], tf.uint32), out_backprop=tf.constant("
        "[[[[2]]]], tf.uint32), strides=[1, 1, 1, 1], padding='SAME')", "tf.Variable([[[[1]]]])")),
    # CheckOneInput: a TensorShape, string, None or complex input leaves the fast path (#285)
    ("extract_glimpse of an int32 image, a TensorShape size", _A, _eager(
        "tf.image.extract_glimpse(tf.constant([[[[-1], [-4], [3], [5]]]]), size=tf.TensorShape([1, 2, 2]), "
        "offsets=2.5, centered=True, normalized=None)")),
    ("extract_glimpse of an int32 image, a size tensor", _A, _eager(
        "tf.image.extract_glimpse(tf.constant([[[[-1], [-4], [3], [5]]]]), tf.constant([2, 2]), "
        "tf.constant([[0.0, 0.0]]))")),
    ("logical_and of a float tensor and a string", _A, _eager("tf.math.logical_and(tf.constant([1.0]), 'a')")),
    ("logical_and of a float tensor and 1j", _A, _eager("tf.math.logical_and(tf.constant([1.0]), 1j)")),
    ("logical_and of a float tensor and True", _A, _eager("tf.math.logical_and(tf.constant([1.0]), True)")),
]


EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("reduce.dtypes")
@EDGES.parametrize("reduce.dtypes")
def test_string_reductions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_fast_path_and_fallback(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_tridiagonal_matmul_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.reflected-retry")
@EDGES.parametrize("ops.reflected-retry")
def test_numpy_reflected_operators(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_constant_and_slice_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_subtraction_from_zero(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz26b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
