"""Error classes issue 29's fourteenth generator (tests/fuzz14) found wrong, each against real
TensorFlow 2.21 (the same call on both backends gives the same dtype and bits, or raises the same
exception class): attributes TF's Python reads on arguments it has not converted (a `layout=`
string's `.mesh`, a window's `dtype.is_floating`, fftnd's `input_tensor.shape`, eig's
`tensor.dtype`: AttributeError; fftnd's scalar axes: IndexError), the kernel lookup for an op's
first input type before its other inputs' types and the kernel's checks (NotFoundError: MatMul,
BatchMatMulV2, MatrixSolve, SpaceToBatchND, TensorScatter*), the output-type attrs of the raw
FFTND ops, Fill's scalar value and matmul's transpose/adjoint pairs. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _fn(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """make(tf) inside a tf.function."""
    return lambda tf: tf.function(lambda: make(tf))()


def _strided(op: str, label: str) -> Callable[[Any], Any]:
    """op with a strides list attr given as a TensorShape, an empty or int NumPy array, or an int."""
    def run(tf: Any) -> Any:
        n = 4 if op == "extract_patches" else 5
        v = {"TensorShape": tf.TensorShape([1] * n), "empty ndarray": np.array([], np.int64),
             "int ndarray": np.ones(n, np.int64), "int": 1}[label]
        if op == "conv3d":
            return tf.nn.conv3d(tf.ones([1, 2, 2, 2, 1]), tf.ones([1, 1, 1, 1, 1]), strides=v, padding="VALID")
        if op == "extract_volume_patches":
            return tf.extract_volume_patches(tf.ones([1, 2, 2, 2, 1]), [1, 1, 1, 1, 1], v, "VALID")
        return tf.image.extract_patches(tf.ones([1, 2, 2, 1]), [1, 1, 1, 1], v, [1, 1, 1, 1], "VALID")
    return run


def _captured_pool(tf: Any) -> Any:
    """max_pool2d inside a tf.function with an eager ksize tensor it closes over."""
    k = tf.constant([2])
    return tf.function(lambda: tf.nn.max_pool2d(tf.ones([1, 4, 4, 1]), k, 1, "SAME"))()


_A = "ops.argument-errors"
CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # layout= (dtensor.call_with_layout)
    ("fill layout str", _A, lambda tf: tf.fill([2], 1.0, layout="NHWC")),
    ("ones layout int", _A, lambda tf: tf.ones([2], layout=3)),
    ("zeros layout str", _A, lambda tf: tf.zeros([2, 1], layout="x")),
    ("ones_like layout str", _A, lambda tf: tf.ones_like([1.0], layout="x")),
    ("zeros_like layout str", _A, lambda tf: tf.zeros_like([1.0], layout="x")),
    ("fill layout traced", _A, _fn(lambda tf: tf.fill([2], 1.0, layout="NHWC"))),
    ("ones negative layout traced", _A, _fn(lambda tf: tf.ones([-2], layout=3))),
    ("ones layout None", _A, lambda tf: tf.ones([2], layout=None)),
    ("fill non-scalar value", _A, lambda tf: tf.fill([3], [[1.0, 2.0]])),
    ("fill non-scalar value traced", _A, _fn(lambda tf: tf.fill([3], [[1.0, 2.0]]))),
    # window and mel dtypes read as given
    *[(f"{w} dtype {d!r}", _A, (lambda w, d: lambda tf: getattr(tf.signal, w)(4, dtype=d))(w, d))
      for w in ("hann_window", "hamming_window", "vorbis_window", "kaiser_window", "kaiser_bessel_derived_window")
      for d in (np.float32, "float64")],
    ("hann_window dtype tf.int32", _A, lambda tf: tf.signal.hann_window(4, dtype=tf.int32)),
    ("hann_window dtype tf.float16", _A, lambda tf: tf.signal.hann_window(4, dtype=tf.float16)),
    ("mel dtype np.int16", _A, lambda tf: tf.signal.linear_to_mel_weight_matrix(dtype=np.int16)),
    ("mel dtype tf.int16", _A, lambda tf: tf.signal.linear_to_mel_weight_matrix(dtype=tf.int16)),
    ("mel bins before dtype", _A, lambda tf: tf.signal.linear_to_mel_weight_matrix(num_mel_bins=-1, dtype="x")),
    # the FFTND wrappers
    ("fftnd python int", _A, lambda tf: tf.signal.fftnd(2, norm="backward")),
    ("ifftnd scalar axes", _A, lambda tf: tf.signal.ifftnd(-1, fft_length=tf.constant([2, 2]), axes=tf.constant(0))),
    ("irfftnd python float", _A, lambda tf: tf.signal.irfftnd(0.001)),
    ("irfftnd numpy scalar", _A, lambda tf: tf.signal.irfftnd(np.float64(0.5))),
    ("irfftnd complex scalar", _A, lambda tf: tf.signal.irfftnd(tf.constant(1 + 0j))),
    ("fftnd complex scalar", _A, lambda tf: tf.signal.fftnd(tf.constant(1 + 0j))),
    ("rfftnd python int", _A, lambda tf: tf.signal.rfftnd(3, fft_length=tf.TensorShape([2, 3]))),
    ("irfftnd numpy scalar axes", _A, lambda tf: tf.signal.irfftnd(tf.constant([1, 2]), axes=np.int64(-1))),
    ("rfftnd int tensor scalar axes", _A, lambda tf: tf.signal.rfftnd(tf.constant([1, 2]), axes=tf.constant(-1))),
    ("rfftnd list", _A, lambda tf: tf.signal.rfftnd([[1.0, 2.0]])),
    ("rfftnd bool", _A, lambda tf: tf.signal.rfftnd(False)),
    ("rfftnd ndarray", _A, lambda tf: tf.signal.rfftnd(np.ones((2, 2), np.float32))),
    ("irfftnd rank below axes", _A, lambda tf: tf.signal.irfftnd(tf.constant([1, 2]), axes=[0, 1])),
    ("rfftnd rank below axes", _A, lambda tf: tf.signal.rfftnd(tf.constant([1.0, 2.0]), axes=[0, 1])),
    ("fftnd complex", _A, lambda tf: tf.signal.fftnd(tf.constant([1 + 0j, 2]))),
    ("raw irfftnd Treal uint8", _A, lambda tf: tf.irfftnd(tf.constant([1 + 0j]), [2], axes=[0], Treal=tf.uint8)),
    ("raw irfftnd Treal bfloat16", _A, lambda tf: tf.irfftnd(-2.5, [0], axes=[0], Treal=tf.bfloat16)),
    ("raw irfftnd Treal float64", _A, lambda tf: tf.irfftnd(tf.constant([1 + 0j]), [1], axes=[0], Treal=tf.float64)),
    ("raw rfftnd Tcomplex float64", _A, lambda tf: tf.rfftnd(tf.constant([1.0]), [1], axes=[0], Tcomplex=tf.float64)),
    # clip_by_global_norm's use_norm as given
    ("clip_by_global_norm use_norm False", _A,
     lambda tf: tf.clip_by_global_norm(([0.25, 4.0, -1.5], True, np.uint32(1)), 3.0, use_norm=False)),
    ("clip_by_global_norm use_norm True", _A, lambda tf: tf.clip_by_global_norm([tf.ones([2])], 3.0, use_norm=True)),
    ("clip_by_global_norm use_norm 1", _A, lambda tf: tf.clip_by_global_norm([np.ones((2, 1), np.float32)], 0, use_norm=1)),
    ("clip_by_global_norm use_norm 2.0", _A, lambda tf: tf.clip_by_global_norm([tf.ones([2])], 3.0, use_norm=2.0)),
    ("clip_by_global_norm use_norm tensor", _A,
     lambda tf: tf.clip_by_global_norm([tf.ones([2])], 3.0, use_norm=tf.constant(2.0))[0]),
    # eig reads tensor.dtype
    # the nn wrappers read input.shape unconverted
    ("max_pool list", _A, lambda tf: tf.nn.max_pool([[4.0, 1.0], [-3.0, -1.5]], ksize=tf.constant([4, 4]),
                                                     strides=(1, 2, 2), padding="same")),
    ("avg_pool list", _A, lambda tf: tf.nn.avg_pool([[4.0, 1.0]], 1, 1, "SAME")),
    ("max_pool ndarray", _A, lambda tf: tf.nn.max_pool(np.ones((1, 2, 2, 1), np.float32), 1, 1, "SAME")),
    ("conv2d list", _A, lambda tf: tf.nn.conv2d([[4294967295, 0]], np.array([[True, False]]), tf.TensorShape([1, 2]),
                                                "VALID")),
    ("conv2d list, strides of 3", _A, lambda tf: tf.nn.conv2d([[1.0]], tf.ones([1, 1, 1, 1]), [1, 2, 3], "VALID")),
    ("conv3d bool", _A, lambda tf: tf.nn.conv3d(False, tf.ones([1, 1, 1, 1, 1]), [1, 1, 1, 1, 1], "VALID")),
    ("conv3d ndarray", _A, lambda tf: tf.nn.conv3d(np.ones((1, 2, 2, 2, 1), np.float32), tf.ones([1, 1, 1, 1, 1]),
                                                   [1, 1, 1, 1, 1], "VALID")),
    ("eig python float", _A, lambda tf: tf.linalg.eig(float("nan"))),
    ("eigvals python int", _A, lambda tf: tf.linalg.eigvals(5)),
    ("eigvals list", _A, lambda tf: tf.linalg.eigvals([[1.0, 2.0], [3.0, 4.0]])),
    ("eigvals ndarray", _A, lambda tf: tf.linalg.eigvals(np.array([[1.0, 2.0], [3.0, 4.0]]))),
    ("eigvals int ndarray", _A, lambda tf: tf.linalg.eigvals(np.array([[1, 2], [3, 4]]))),
    # kernel lookup before the other inputs' types and the kernel's checks
    ("matmul uint16 @ int64", _A, lambda tf: tf.matmul(tf.ones([2, 2], tf.uint16), tf.ones([2, 2], tf.int64))),
    ("matmul int64 @ uint16", _A, lambda tf: tf.matmul(tf.ones([2, 2], tf.int64), tf.ones([2, 2], tf.uint16))),
    ("matmul uint16 @ list", _A, lambda tf: tf.ones([2, 2], tf.uint16) @ [[1.5, 2.0], [3.0, 4.0]]),
    ("matvec uint16 float32", _A, lambda tf: tf.linalg.matvec(tf.ones([2, 2], tf.uint16), tf.ones([2]))),
    ("batch matmul uint8 float32", _A, lambda tf: tf.matmul(tf.ones([2, 2, 2], tf.uint8), tf.ones([2, 2, 2]))),
    ("matmul bool", _A, lambda tf: tf.matmul(tf.ones([2, 2], tf.bool), tf.ones([2, 2], tf.bool))),
    ("matmul uint16 @ int64 traced", _A,
     _fn(lambda tf: tf.matmul(tf.ones([2, 2], tf.uint16), tf.ones([2, 2], tf.int64)))),
    ("matmul uint16 traced", _A, _fn(lambda tf: tf.matmul(tf.ones([2, 2], tf.uint16), tf.ones([2, 2], tf.uint16)))),
    ("matmul transpose and adjoint", _A,
     lambda tf: tf.linalg.matmul(tf.ones([2, 2]), tf.ones([2, 2]), transpose_b=True, adjoint_b=1)),
    ("solve half matrix, double rhs", _A, lambda tf: tf.linalg.solve(tf.eye(2, dtype=tf.float16), tf.ones([2, 1], tf.float64))),
    ("solve half matrix, double rhs traced", _A,
     _fn(lambda tf: tf.linalg.solve(tf.eye(2, dtype=tf.float16), tf.ones([2, 1], tf.float64)))),
    ("space_to_batch complex64", _A,
     lambda tf: tf.space_to_batch(tf.ones([1, 2, 2, 1], tf.complex64), [2, 2], [[0, 0], [0, 0]])),
    ("space_to_batch bool of rank 1", _A, lambda tf: tf.space_to_batch(tf.ones([2], tf.bool), [2, 2], [[0, 0], [0, 0]])),
    ("space_to_batch complex64 traced", _A,
     _fn(lambda tf: tf.space_to_batch(tf.ones([1, 2, 2, 1], tf.complex64), [2, 2], [[0, 0], [0, 0]]))),
    ("batch_to_space complex64", _A,
     lambda tf: tf.batch_to_space(tf.ones([4, 1, 1, 1], tf.complex64), [2, 2], [[0, 0], [0, 0]])),
    ("tensor_scatter_nd_min complex64", _A,
     lambda tf: tf.tensor_scatter_nd_min(tf.ones([2], tf.complex64), [[0]], tf.ones([1], tf.float32))),
    ("tensor_scatter_nd_max bool", _A, lambda tf: tf.tensor_scatter_nd_max(tf.ones([2], tf.bool), [[0]], [True])),
    ("tensor_scatter_nd_sub bool", _A, lambda tf: tf.tensor_scatter_nd_sub(tf.ones([2], tf.bool), [[0]], [True])),
    ("tensor_scatter_nd_add bool", _A, lambda tf: tf.tensor_scatter_nd_add(tf.ones([2], tf.bool), [[0]], [True])),
    ("tensor_scatter_nd_sub bool traced", _A,
     _fn(lambda tf: tf.tensor_scatter_nd_sub(tf.ones([2], tf.bool), [[0]], tf.ones([1], tf.bool)))),
    ("tensor_scatter_nd_add complex64", _A,
     lambda tf: tf.tensor_scatter_nd_add(tf.ones([2], tf.complex64), [[0]], tf.ones([1], tf.complex64))),
    # a tensor of another type reaches the kernel; NumPy values stay on the fast path
    ("logical_and float tensor, numpy float", _A, lambda tf: tf.math.logical_and(tf.constant([1.0]), np.float64(0.0))),
    ("logical_and float variable, numpy float", _A, lambda tf: tf.math.logical_and(tf.Variable([1.0]), np.float64(0.0))),
    ("logical_and numpy float, float variable", _A, lambda tf: tf.math.logical_and(np.float64(0.0), tf.Variable([1.0]))),
    ("logical_and float variable, list", _A, lambda tf: tf.math.logical_and(tf.Variable([1.0]), [True])),
    *[(f"logical_or float tensor, {v!r}", _A, (lambda v: lambda tf: tf.math.logical_or(tf.constant([1.5, 2.0]), v))(v))
      for v in (np.uint32(4), np.int64(1), np.float32(1), np.complex128(1), np.bool_(False), np.array(1.0),
                np.array([0, 1]))],
    ("logical_xor complex variable, numpy int", _A,
     lambda tf: tf.math.logical_xor(tf.Variable([0.5 + 0j]), np.array([-4], np.int64))),
    ("to_hash_bucket_fast float variable", _A, lambda tf: tf.strings.to_hash_bucket_fast(tf.Variable([1.0]), 3)),
    ("in_top_k half targets", _A, lambda tf: tf.math.in_top_k(tf.constant([[1.0]], tf.float16), -2.5, tf.constant(2))),
    ("in_top_k float targets", _A, lambda tf: tf.math.in_top_k(tf.constant([[1.0]]), tf.constant([0]), tf.constant(2))),
    ("in_top_k int predictions", _A, lambda tf: tf.math.in_top_k(np.array([[1 + 1j]]), tf.constant([0]), 1)),
    ("diag_part float padding of a double matrix", _A,
     lambda tf: tf.linalg.diag_part(tf.ones([2, 2], tf.float64), padding_value=tf.constant(0.5))),
    ("diag_part double padding", _A,
     lambda tf: tf.linalg.diag_part(tf.ones([2, 2], tf.float64), k=(-1, 1), padding_value=tf.constant(0.5, tf.float64))),
    ("diag int padding of a list", _A, lambda tf: tf.linalg.diag([1.0, 2.0], k=1, padding_value=tf.constant(3))),
    ("diag int padding traced", _A, _fn(lambda tf: tf.linalg.diag(tf.ones([2]), k=1, padding_value=tf.constant(3)))),
    # list attrs: any sequence of Python ints eagerly
    *[(f"{op} strides {label}", _A, _strided(op, label)) for op in ("conv3d", "extract_volume_patches", "extract_patches")
      for label in ("TensorShape", "empty ndarray", "int ndarray", "int")],
    ("conv3d strides TensorShape traced", _A, _fn(lambda tf: tf.nn.conv3d(
        tf.ones([1, 2, 2, 2, 1]), tf.ones([1, 1, 1, 1, 1]), strides=tf.TensorShape([1, 1, 1, 1, 1]), padding="VALID"))),
    # 3-D ops: the op def's attrs in order
    ("conv3d_transpose int64 NHWC", _A, lambda tf: tf.nn.conv3d_transpose(
        tf.constant(2, tf.int64), np.array(-1, np.int32), tf.TensorShape([3]), [1, 2, 2], padding="SAME",
        data_format="NHWC")),
    ("conv3d_transpose NHWC", _A, lambda tf: tf.nn.conv3d_transpose(
        tf.ones([1, 2, 2, 2, 1]), tf.ones([1, 1, 1, 1, 1]), [1, 2, 2, 2, 1], 1, data_format="NHWC")),
    ("conv3d_transpose strides sequence before T", _A, lambda tf: tf.nn.conv3d_transpose(
        tf.constant([[2, -4, -4]]), np.ones((3, 3), np.float32), (3, 3), np.array([], np.int64), dilations=(3, 3))),
    ("conv3d int32, short strides", _A, lambda tf: tf.nn.conv3d(tf.ones([1, 2, 2, 2, 1], tf.int32),
                                                                tf.ones([1, 1, 1, 1, 1], tf.int32), [1], "VALID")),
    ("conv3d int32, NumPy strides", _A, lambda tf: tf.nn.conv3d(tf.ones([1, 2, 2, 2, 1], tf.int32),
                                                                tf.ones([1, 1, 1, 1, 1]), np.ones(5, np.int64), "VALID")),
    ("conv3d NHWC", _A, lambda tf: tf.nn.conv3d(tf.ones([1, 2, 2, 2, 1]), tf.ones([1, 1, 1, 1, 1]), [1, 1, 1, 1, 1],
                                                 "VALID", data_format="NHWC")),
    ("avg_pool3d int8 same NHWC", _A, lambda tf: tf.nn.avg_pool3d(
        tf.ones([1, 2, 2, 2, 1], tf.int8), 1, 1, "same", data_format="NHWC")),
    ("max_pool3d same", _A, lambda tf: tf.nn.max_pool3d(tf.ones([1, 2, 2, 2, 1]), 1, 1, "same")),
    ("max_pool3d NHWC", _A, lambda tf: tf.nn.max_pool3d(tf.ones([1, 2, 2, 2, 1]), 1, 1, "VALID", data_format="NHWC")),
    # attrs' minimums and lists, kernel checks
    ("dynamic_partition num_partitions 0", _A, lambda tf: tf.dynamic_partition(tf.ones([3]), [-1], 0)),
    ("dynamic_partition num_partitions 0 traced", _A, _fn(lambda tf: tf.dynamic_partition(tf.ones([3]), [0], 0))),
    ("dynamic_partition scalar data", _A, lambda tf: tf.dynamic_partition(tf.constant(1.0), tf.constant([0, 0]), 3)),
    ("dynamic_partition shape", _A, lambda tf: tf.dynamic_partition(tf.ones([3, 2]), [0, 1], 2)),
    ("dynamic_partition shape traced", _A, _fn(lambda tf: tf.dynamic_partition(tf.ones([3, 2]), [0, 1], 2))),
    ("dynamic_partition id out of range", _A, lambda tf: tf.dynamic_partition(tf.ones([2, 2]), [[0, 1], [-1, 0]], 2)),
    ("dynamic_partition scalars", _A, lambda tf: tf.dynamic_partition(tf.constant(1.0), tf.constant(0), 2)),
    ("isotonic_regression bool", _A, lambda tf: tf.nn.isotonic_regression([True])),
    ("isotonic_regression complex64", _A, lambda tf: tf.nn.isotonic_regression(tf.constant([1], tf.complex64))),
    ("isotonic_regression uint8", _A, lambda tf: tf.nn.isotonic_regression(tf.constant([1], tf.uint8))),
    ("isotonic_regression bool traced", _A, _fn(lambda tf: tf.nn.isotonic_regression([True]))),
    ("approx_min_k k -1", _A, lambda tf: tf.math.approx_min_k(tf.ones([2, 3]), -1, recall_target=3.0)),
    ("approx_max_k k -1", _A, lambda tf: tf.math.approx_max_k(tf.ones([2, 3]), -1)),
    ("approx_top_k int32 k -1", _A, lambda tf: tf.approx_top_k(tf.ones([2, 3], tf.int32), -1)),
    ("random.normal complex64", _A, lambda tf: tf.random.normal([2], dtype=tf.complex64)),
    ("random.truncated_normal complex128", _A, lambda tf: tf.random.truncated_normal([2], dtype=tf.complex128)),
    ("random.normal bool", _A, lambda tf: tf.random.normal([2], dtype=tf.bool)),
    ("compute_average_loss bool", _A, lambda tf: tf.nn.compute_average_loss(tf.constant([True, False]),
                                                                          global_batch_size=2)),
    ("scatter_nd scalar updates", _A, lambda tf: tf.scatter_nd([-1], 1, tf.constant([], tf.int32))),
    ("scatter_nd scalar indices", _A, lambda tf: tf.scatter_nd(0, 1.0, [3])),
    ("scatter_nd scalar updates traced", _A, _fn(lambda tf: tf.scatter_nd([0], 1.0, [3]))),
    ("tensor_scatter_nd_max scalar tensor and updates", _A, lambda tf: tf.tensor_scatter_nd_max(2 ** 31, tf.constant([0]), 1)),
    ("tensor_scatter_nd_min scalar updates", _A, lambda tf: tf.tensor_scatter_nd_min(tf.constant([1.0, 2.0]), [0], 1.0)),
    ("tensor_scatter_nd_add scalar updates", _A, lambda tf: tf.tensor_scatter_nd_add(tf.constant([1.0]), [[5]], 1.0)),
    ("tensor_scatter_nd_update scalar indices", _A, lambda tf: tf.tensor_scatter_nd_update(tf.constant([1.0]), 0, 1.0)),
    ("tensor_scatter_nd_add scalar updates traced", _A,
     _fn(lambda tf: tf.tensor_scatter_nd_add(tf.constant([1.0]), [0], 1.0))),
    ("cumprod axis []", _A, lambda tf: tf.math.cumprod(tf.ones([3]), axis=[])),
    ("broadcast_static_shape tuples", _A, lambda tf: tf.broadcast_static_shape((2, 3), (3,))),
    ("broadcast_static_shape ndarray", _A, lambda tf: tf.broadcast_static_shape(np.array([2, 0]), tf.TensorShape([3]))),
    ("broadcast_dynamic_shape TensorShapes", _A,
     lambda tf: tf.broadcast_dynamic_shape(tf.TensorShape([4, 1]), tf.TensorShape([1, 3]))),
    ("broadcast_dynamic_shape TensorShapes mismatch", _A,
     lambda tf: tf.broadcast_dynamic_shape(tf.TensorShape([4, 2]), tf.TensorShape([2, 3]))),
    # _get_sequence's `list(value)` of a tensor inside a tf.function
    ("max_pool1d tensor ksize traced", _A, _fn(lambda tf: tf.nn.max_pool1d(
        tf.ones([1, 4, 1]), ksize=tf.constant([0]), strides=(4,), padding="SAME"))),
    ("max_pool2d tensor strides traced", _A, _fn(lambda tf: tf.nn.max_pool2d(
        tf.ones([1, 4, 4, 1]), np.array([3]), tf.constant([], tf.int32), "SAME"))),
    ("max_pool3d tensor strides before padding traced", _A, _fn(lambda tf: tf.nn.max_pool3d(
        tf.ones([1, 4, 4, 4, 1]), ksize=np.array([1]), strides=tf.constant([1]), padding="same"))),
    ("avg_pool1d tensor ksize traced", _A, _fn(lambda tf: tf.nn.avg_pool1d(
        tf.ones([1, 4, 1]), tf.constant([3]), tf.constant([], tf.int32), padding="same"))),
    ("conv1d tensor stride traced", _A, _fn(lambda tf: tf.nn.conv1d(tf.ones([1, 4, 1]), tf.ones([1, 1, 1]),
                                                                     tf.constant([0]), "SAME"))),
    ("conv1d_transpose tensor strides traced", _A, _fn(lambda tf: tf.nn.conv1d_transpose(
        tf.ones([1, 4, 1]), tf.ones([1, 1, 1]), [1, 4, 1], tf.constant([4, 2])))),
    ("conv2d_transpose tensor strides before padding traced", _A, _fn(lambda tf: tf.nn.conv2d_transpose(
        tf.ones([1, 4, 4, 1]), tf.ones([1, 1, 1, 1]), output_shape=[1, 4, 4, 1], strides=tf.constant([], tf.int32),
        padding="same"))),
    ("conv3d_transpose tensor strides traced", _A, _fn(lambda tf: tf.nn.conv3d_transpose(
        tf.ones([1, 4, 4, 4, 1]), tf.ones([1, 1, 1, 1, 1]), output_shape=[1, 4, 4, 4, 1], strides=tf.constant([2])))),
    ("conv2d tensor strides traced", _A, _fn(lambda tf: tf.nn.conv2d(tf.ones([1, 4, 4, 1]), tf.ones([1, 1, 1, 1]),
                                                                      tf.constant([1]), "SAME"))),
    ("max_pool2d eager tensor ksize", _A, lambda tf: tf.nn.max_pool2d(tf.ones([1, 4, 4, 1]), tf.constant([2]),
                                                                        tf.constant([1]), "SAME")),
    ("max_pool2d captured tensor ksize traced", _A, _captured_pool),
    # shapes read by index in TF's Python: IndexError
    ("atrous_conv2d_transpose scalar value", _A, lambda tf: tf.nn.atrous_conv2d_transpose(
        tf.constant(5, tf.int16), tf.ones([2, 2]), tf.constant([], tf.int32), 1e-6, "same")),
    ("atrous_conv2d_transpose list value", _A, lambda tf: tf.nn.atrous_conv2d_transpose(
        [5, 2, 5, 1], 2, (2, 3), float("nan"), "SAME")),
    ("atrous_conv2d_transpose rank-2 filters", _A, lambda tf: tf.nn.atrous_conv2d_transpose(
        tf.ones([1, 2, 2, 1]), tf.ones([1, 1]), (1, 2, 2, 1), 2, "SAME")),
    ("atrous_conv2d_transpose rate 2", _A, lambda tf: tf.nn.atrous_conv2d_transpose(
        tf.ones([1, 2, 2, 1]), tf.ones([1, 1, 1, 1]), (1, 2, 2, 1), 2, "SAME")),
    ("ctc_loss scalar logits", _A, lambda tf: tf.nn.ctc_loss(np.array([7.0, 1.0]), logits=1.0,
                                                             label_length=np.array([1e-40, -0.0]), logit_length=[0.0, 0.001])),
    ("ctc_loss int scalar logits", _A, lambda tf: tf.nn.ctc_loss(labels=0.5, logits=-1, label_length=np.array(1.0, np.float32),
                                                                 logit_length=7.0)),
    ("ctc_loss rank-1 labels", _A, lambda tf: tf.nn.ctc_loss(labels=[1, 2], logits=tf.ones([2, 2, 3]), label_length=[1, 1],
                                                             logit_length=[2, 2])),
    ("ctc_loss int logits", _A, lambda tf: tf.nn.ctc_loss(labels=[[1], [2]], logits=tf.ones([2, 2, 3], tf.int32),
                                                          label_length=[1, 1], logit_length=[2, 2])),
    # TF's own Python `if` on a tensor comparison
    ("random_contrast tensor upper traced", _A,
     _fn(lambda tf: tf.image.random_contrast(tf.ones([2, 2, 3]), 0.2, tf.constant(0.5), seed=1))),
    ("random_contrast vector upper", _A, lambda tf: tf.image.random_contrast(
        tf.ones([2, 2, 3]), np.bool_(True), tf.constant([3, 2], dtype=tf.uint64), seed=42)),
    ("random_saturation tensor upper traced", _A,
     _fn(lambda tf: tf.image.random_saturation(tf.ones([2, 2, 3]), 0.2, tf.constant(0.5), seed=1))),
    ("random_saturation scalar tensor upper below lower", _A,
     lambda tf: tf.image.random_saturation(tf.ones([2, 2, 3]), 0.2, tf.constant(0.1), seed=1)),
    ("random_brightness tensor delta traced", _A,
     _fn(lambda tf: tf.image.random_brightness(tf.ones([2, 2, 3]), tf.constant(0.2), seed=1))),
    ("stateless_random_contrast tensor upper traced", _A, _fn(
        lambda tf: tf.image.stateless_random_contrast(tf.ones([2, 2, 3]), 0.2, tf.constant(0.5), seed=[1, 2]))),
    # T from the first tensor argument
    ("tensor_scatter_nd_sub numpy uint16 tensor, bool updates", _A, lambda tf: tf.tensor_scatter_nd_sub(
        np.array([3, 2, 2], np.uint16), tf.constant([[1], [1], [2]]), tf.constant([True, False, True]))),
    ("tensor_scatter_nd_add numpy float64 tensor, int32 updates", _A,
     lambda tf: tf.tensor_scatter_nd_add(np.array([1.5, 2.5]), [[0]], tf.constant([1]))),
    ("tensor_scatter_nd_add float list, int32 updates", _A,
     lambda tf: tf.tensor_scatter_nd_add([1.5, 2.5], [[0]], tf.constant([1]))),
    # a TensorShape converts to its dimensions (ops.conversion)
    ("convert TensorShape", "ops.conversion", lambda tf: tf.convert_to_tensor(tf.TensorShape([2, 3]))),
    ("convert TensorShape int64", "ops.conversion", lambda tf: tf.convert_to_tensor(tf.TensorShape([2, 3]), dtype=tf.int64)),
    ("convert TensorShape float32", "ops.conversion",
     lambda tf: tf.convert_to_tensor(tf.TensorShape([2, 3]), dtype=tf.float32)),
    ("convert large TensorShape", "ops.conversion", lambda tf: tf.convert_to_tensor(tf.TensorShape([2 ** 31, 3]))),
    ("convert large TensorShape int32", "ops.conversion",
     lambda tf: tf.convert_to_tensor(tf.TensorShape([2 ** 31, 3]), dtype=tf.int32)),
    ("convert partial TensorShape", "ops.conversion", lambda tf: tf.convert_to_tensor(tf.TensorShape([None, 3]))),
    ("convert empty TensorShape", "ops.conversion", lambda tf: tf.convert_to_tensor(tf.TensorShape([]))),
    ("constant of a TensorShape", "ops.conversion", lambda tf: tf.constant(tf.TensorShape([2, 3]))),
    ("sample_distorted_bounding_box TensorShape", _A, lambda tf: tf.image.sample_distorted_bounding_box(
        tf.TensorShape([1, 2, 2]), float("inf"), seed=42, aspect_ratio_range=[0.0, 1.0], area_range=(0.0, 5.0),
        max_attempts=1)),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_argument_error_classes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_tensor_shape_conversion(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz15c_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
