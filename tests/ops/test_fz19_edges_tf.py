"""Rules behind the last six unanalysed classes of issue 29's fourteenth generator (tests/fuzz14) and
the classes of fz19's fresh campaigns (fourteenth generator seed 1420261219, third generator seed
1219, first generator seed 20261219), each against real TensorFlow 2.21: the same call on both
backends gives the same dtype and values, or raises the same exception class. Eagerly, in a
tf.function (`traced`), with an input_signature (`sig`: get_concrete_function on placeholders, then
a call) and under a GradientTape (`tape`). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig, var_traced as _var_traced, tape as _tape
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


# complex64 values beside the exponents below: a subnormal real part, parts whose atan2 underflows,
# infinities, NaN and zero (TF 2.21's glibc cpow in its three steps under DAZ/FTZ)
_CX = ("np.array([complex(-1.4e-45, 0.5), complex(-1e-40, 0.5), complex(3e38, -1.5), complex(0.0, 0.5), "
       "complex(1e-30, 0.5), complex(-1e-40, 1e-30), complex(-np.inf, 1.0), complex(np.nan, 1.0), "
       "complex(0.0, 0.0), complex(7.0, 2.5), complex(65504.0, 0.001), complex(-3.0, 4.0)], np.complex64)")
_EXP = "np.array([2, 2, 5, 2, 2, 1, 3, 2, 2, 3, -4, 5], np.int32)"
_CX128 = ("np.array([complex(-5e-324, 0.5), complex(-1e-310, 0.5), complex(1e308, -1.5), complex(0.0, 0.5), "
          "complex(-1e-310, 1e-300), complex(7.0, 2.5)], np.complex128)")

_CPLX = "ops.complex"
_SPEC = "ops.special-functions"
_SUB = "ops.subnormals"
_ATTR = "ops.attr-types"
_T = "function.trace-time-errors"
_C = "ops.conversion"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # complex Pow (fz14 seed 1420261218 #120) and complex Equal/NotEqual under DAZ (the same program)
    ("complex64 pow by int32", _CPLX, _eager(f"tf.math.pow(tf.constant({_CX}), {_EXP})")),
    ("complex64 pow by complex", _CPLX, _eager(
        f"tf.math.pow(tf.constant({_CX}), tf.constant(np.array([complex(0.5, 0), complex(2.5, 0), complex(0, 1), "
        "complex(1e-40, 2), complex(2, -1e-40), complex(-1.5, 0.5), complex(-2147483648, 0), complex(1, 0), "
        "complex(2, 0), complex(0, 0), complex(0.5, 0), complex(3, 0)], np.complex64)))")),
    ("complex128 pow", _CPLX, _eager(f"tf.math.pow(tf.constant({_CX128}), np.array([2, 2, 5, 2, 1, 3], np.int32))")),
    ("complex64 pow of scalars", _CPLX, _eager(
        "tf.math.pow(tf.constant(np.complex64(3)), tf.constant(np.complex64(complex(1e-40, np.inf))))")),
    ("complex64 pow broadcast", _CPLX, _eager(
        "tf.math.pow(tf.constant(np.array([[1+1j], [2]], np.complex64)), tf.constant(np.array([2, 3+1j], "
        "np.complex64)))")),
    ("complex64 pow, tape", _CPLX, _tape(f"tf.math.pow(x, {_EXP})", f"tf.constant({_CX})")),
    ("complex64 pow, traced", _CPLX, _traced(f"tf.math.pow(tf.constant({_CX}), {_EXP})")),
    ("complex64 equal of subnormal parts", _CPLX, _eager(
        "tf.equal(tf.constant(np.zeros(4, np.complex64)), np.array([complex(1e-40, 0), complex(0, -1e-40), "
        "complex(1e-40, 1), complex(np.nan, 0)], np.complex64))")),
    ("complex64 not_equal of subnormal parts", _CPLX, _eager(
        "tf.not_equal(tf.constant(np.zeros(4, np.complex64)), np.array([complex(1e-40, 0), complex(0, -1e-40), "
        "complex(1e-40, 1), complex(np.nan, 0)], np.complex64))")),
    ("complex128 == of a subnormal part", _CPLX, _eager(
        "tf.constant(np.zeros(2, np.complex128)) == np.array([complex(1e-310, 0), complex(0, 1e-300)])")),
    ("complex64 variable != list", _CPLX, _eager(
        "tf.Variable(np.zeros(2, np.complex64)) != np.array([complex(-1e-45, 0), complex(0, 0.5)], np.complex64)")),
    # polygamma and zeta (fz14 seed 1420261218 #298)
    ("polygamma infinite and huge orders", _SPEC, _eager(
        "tf.math.polygamma(np.array([np.inf] * 7 + [1e30, 2e30, 3.0, np.inf], np.float32), "
        "np.array([1e-40, 0.0, 1.0, 0.5, -1.0, 2.0, -0.5, 0.0, 0.0, 1e-40, -2.0], np.float32))")),
    ("polygamma float64 infinite orders", _SPEC, _eager(
        "tf.math.polygamma(np.array([np.inf, np.inf, np.inf, 1e300, np.inf]), np.array([0.0, 2.0, 1e-310, -3.0, "
        "np.nan]))")),
    ("polygamma at subnormal x", _SPEC, _eager(
        "tf.math.polygamma(np.array([3.0, 2.0, 1.0, 0.0, 3.0], np.float32), "
        "np.array([1e-40, 1e-40, -1e-40, 1e-40, -1.0], np.float32))")),
    ("zeta of an infinite x", _SPEC, _eager(
        "tf.math.zeta(np.array([np.inf] * 6, np.float32), np.array([2.0, 1.0, 0.5, 1e30, np.inf, np.nan], "
        "np.float32))")),
    # sinh keeps a subnormal (third generator seed 1219 #53)
    ("sinh float32 subnormals", _SUB, _eager("tf.math.sinh(tf.constant(np.array([1e-40, -1e-40, 0.5, -2e-39] * 3, "
                                             "np.float32)))")),
    ("sinh bfloat16 subnormals", _SUB, _eager("tf.math.sinh(tf.constant(np.array([1e-40, -1e-40, 0.5]), "
                                              "tf.bfloat16))")),
    ("sinh float64 subnormals", _SUB, _eager("tf.math.sinh(tf.constant(np.array([1e-310, -1e-310, 0.5, -2e-312] * 3)))")),
    # the wrappers' make_* before any input converts, eager list inputs (fz14 seed 1420261219)
    ("approx_max_k aggregate_to_topk=1", _ATTR, _eager(
        "tf.math.approx_max_k(1e+300, 5, reduction_dimension=1, recall_target=np.float64(0.1), aggregate_to_topk=1)")),
    ("regex_replace replace_global=1", _ATTR, _eager(
        "tf.strings.regex_replace(tf.constant(['a1']), pattern='[0-9]+', rewrite='x', replace_global=1)")),
    ("extract_glimpse normalized=np.True_", _ATTR, _eager(
        "tf.image.extract_glimpse(input=tf.zeros([1, 4, 4, 1]), size=[1, 2, 2], offsets=np.array([complex(0.5, 1)]), "
        "normalized=np.bool_(True))")),
    ("shape_n of an ndarray", _ATTR, _eager("tf.shape_n(np.array([-1.5], np.float32))")),
    ("shape_n of a matrix", _ATTR, _eager("tf.shape_n(np.array([[1.0, 2.0]], np.float32))")),
    ("shape_n of a NumPy scalar", _ATTR, _eager("tf.shape_n(np.float32(1))")),
    ("dynamic_stitch data matrix", _ATTR, _eager(
        "tf.dynamic_stitch([0, 1], np.array([[7.0, 0.5], [1.0, 2.0]], np.float32))")),
    ("dynamic_stitch indices vector", _ATTR, _eager("tf.dynamic_stitch(np.array([0]), [tf.constant([1.0])])")),
    ("dynamic_stitch data tensor", _ATTR, _eager("tf.dynamic_stitch([0], tf.constant([[1.0]]))")),
    ("conv strides empty ndarray", _ATTR, _eager(
        "tf.conv(np.array(0.001, np.float16), filter=2 ** 31, strides=np.array([], np.int64), padding='SAME', "
        "batch_dims=0)")),
    ("conv strides TensorShape", _ATTR, _eager(
        "tf.conv(np.ones((2, 3, 3), np.complex64), filter=np.ones((3, 3), np.complex64), "
        "strides=tf.TensorShape([2, 3, 3]), padding='same')")),
    ("conv strides ndarray", _ATTR, _eager(
        "tf.conv(np.ones((1, 2, 2, 1), np.float32), filter=np.ones((1, 1, 1, 1), np.float32), "
        "strides=np.array([1, 1, 1, 1]), padding='SAME')")),
    ("conv2d_backprop_filter_v2 strides empty ndarray", _ATTR, _eager(
        "tf.conv2d_backprop_filter_v2(input=tf.constant(-4, 'int16'), filter=np.array(2, np.int64), out_backprop=-1, "
        "strides=np.array([], np.int64), padding='same')")),
    ("conv strides empty ndarray, traced", _ATTR, _traced(
        "tf.conv(np.array(0.001, np.float16), filter=2 ** 31, strides=np.array([], np.int64), padding='SAME', "
        "batch_dims=0)")),
    ("to_hash_bucket tensor num_buckets", _ATTR, _eager(
        "tf.strings.to_hash_bucket(tf.constant([1.0, 2.0]), num_buckets=tf.constant(2))")),
    ("to_hash_bucket int num_buckets", _ATTR, _eager("tf.strings.to_hash_bucket(tf.constant([1.0]), num_buckets=2)")),
    ("to_hash_bucket_fast tensor num_buckets", _ATTR, _eager(
        "tf.strings.to_hash_bucket_fast(tf.constant([1.0]), num_buckets=tf.constant(3))")),
    ("to_hash_bucket strings tensor num_buckets", _ATTR, _eager(
        "tf.strings.to_hash_bucket(tf.constant(['a', 'b']), num_buckets=tf.constant(5))")),
    ("reduce_join keepdims=1", _ATTR, _eager("tf.strings.reduce_join(inputs=[255, 255, -1.0], axis=-1, keepdims=1)")),
    ("reduce_join keepdims=np.True_", _ATTR, _eager(
        "tf.strings.reduce_join(inputs=['a', 'b'], axis=-1, keepdims=np.bool_(True))")),
    ("reduce_join keepdims=True", _ATTR, _eager("tf.strings.reduce_join(inputs=['a', 'b'], axis=-1, keepdims=True)")),
    ("repeat of a NumPy axis", _ATTR, _eager("tf.repeat(tf.constant([1.0, 2.0]), repeats=-1, axis=np.int64(-1))")),
    ("repeat of an int axis", _ATTR, _eager("tf.repeat(tf.constant([1.0, 2.0]), repeats=2, axis=-1)")),
    ("conv1d nested stride", _ATTR, _eager("tf.nn.conv1d(np.ones((1, 3, 1)), filters=-1, stride=[[0]], padding='SAME')")),
    ("conv1d list stride", _ATTR, _eager(   # (its shape only: a float32 Conv2D's values are oneDNN's)
        "tf.shape(tf.nn.conv1d(np.ones((1, 3, 1), np.float32), filters=np.ones((1, 1, 1), np.float32), stride=[1], "
        "padding='SAME'))")),
    ("in_top_k float targets", _ATTR, _eager(
        "tf.nn.in_top_k(targets=[0.5, 4.0, -np.inf, -3.0], predictions=np.array([0.0, -0.0, 7.0, 0.25], np.float32), "
        "k=3)")),
    ("in_top_k empty targets", _ATTR, _eager("tf.nn.in_top_k(targets=[], predictions=np.zeros((0, 3), np.float32), k=3)")),
    ("in_top_k float k", _ATTR, _eager("tf.nn.in_top_k(targets=[0, 1], predictions=np.zeros((2, 3), np.float32), "
                                       "k=1.5)")),
    # shape functions and op_def_library at trace, the kernels eagerly (fz14 seed 1420261219)
    ("diag num_rows too small", _T, _eager("tf.linalg.diag([-1.0, -1.5, -0.0], num_rows=1)")),
    ("diag num_rows too small, traced", _T, _traced("tf.linalg.diag([-1.0, -1.5, -0.0], num_rows=1)")),
    ("diag num_cols too small, traced", _T, _traced("tf.linalg.diag([-1.0, -1.5], num_cols=1)")),
    ("banded_triangular_solve scalars", _T, _eager("tf.linalg.banded_triangular_solve(-0.0, tf.constant(2.0))")),
    ("banded_triangular_solve scalars, traced", _T, _traced(
        "tf.linalg.banded_triangular_solve(-0.0, tf.constant(2.0))")),
    ("banded_triangular_solve scalar rhs, traced", _T, _traced(
        "tf.linalg.banded_triangular_solve(tf.ones([1, 2]), tf.constant(2.0))")),
    ("random_index_shuffle short seed, rounds 0", _T, _eager(
        "tf.random_index_shuffle(1, seed=[0, 0], max_index=0, rounds=0)")),
    ("random_index_shuffle short seed, rounds 0, traced", _T, _traced(
        "tf.random_index_shuffle(1, seed=[0, 0], max_index=0, rounds=0)")),
    ("fftnd of a scalar", _T, _eager("tf.signal.fftnd(np.int32(5))")),
    ("fftnd of a scalar, traced", _T, _traced("tf.signal.fftnd(np.int32(5))")),
    ("ifftnd of a scalar, traced", _T, _traced("tf.signal.ifftnd(np.complex64(5))")),
    ("rfftnd of a scalar, traced", _T, _traced("tf.signal.rfftnd(np.float32(5))")),
    ("fftnd of a vector, traced", _T, _traced("tf.signal.fftnd(np.array([1.0, 2.0], np.complex64))")),
    ("strided_slice index types", _T, _eager(
        "tf.strided_slice(np.int64(3), np.array([0, 1], np.int64), tf.constant([0, 1]), var=np.int64(0))")),
    ("strided_slice index types, traced", _T, _traced(
        "tf.strided_slice(np.int64(3), np.array([0, 1], np.int64), tf.constant([0, 1]), var=np.int64(0))")),
    ("strided_slice int32 begin int64 end, traced", _T, _traced(
        "tf.strided_slice(np.array([3, 4]), np.array([0], np.int64), tf.constant([1]))")),
    ("strided_slice same index types, traced", _T, _traced(
        "tf.strided_slice(np.array([3, 4, 5]), tf.constant([0]), tf.constant([2]))")),
    ("space_to_batch_nd empty paddings, traced", _T, _traced(
        "tf.space_to_batch_nd(tf.zeros([2, 2]), (0,), paddings=[])")),
    ("space_to_batch_nd empty paddings", _T, _eager("tf.space_to_batch_nd(tf.zeros([2, 2]), (0,), paddings=[])")),
    ("compute_accidental_hits uint64 variable, traced", _T, _traced(
        "tf.nn.compute_accidental_hits(true_classes=tf.Variable(np.array([[1, 3]], np.uint64)), "
        "sampled_candidates=[[0]], num_true=2, seed=7)")),
    ("depthwise_conv2d_backprop_input float64 sizes", _T, _eager(
        "tf.nn.depthwise_conv2d_backprop_input(tf.constant([1.0, 0.001, 7.0], tf.float64), [0.001, 2.5, 2.5], "
        "tf.constant([1.0, 0.001, 7.0], tf.float64), (2, 3), padding='VALID')")),
    ("depthwise_conv2d_backprop_input complex sizes, fast path", _T, _eager(
        "tf.nn.depthwise_conv2d_backprop_input(tf.constant([complex(-np.inf, -1.0), complex(-0.0, 2.5)]), "
        "filter=-2.5, out_backprop=np.array([[1, -4], [5, 3]], np.int16), strides=tf.TensorShape([4, 2]), "
        "padding='SAME')")),
    ("random_crop one-element size of a scalar", _T, _eager("tf.image.random_crop(np.int8(3), tf.constant([3]), seed=1)")),
    ("random_crop one-element size of a scalar, traced", _T, _traced(
        "tf.image.random_crop(np.int8(3), tf.constant([3]), seed=1)")),
    ("random_crop one-element size of a matrix, traced", _T, _traced(
        "tf.image.random_crop(np.ones((2, 2), np.float32), tf.constant([1]), seed=1)")),
    ("random_crop longer size of a vector, traced", _T, _traced(
        "tf.image.random_crop(np.ones((2,), np.float32), tf.constant([1, 1]), seed=1)")),
    ("random_crop size too large", _T, _eager(
        "tf.image.random_crop(np.ones((2, 2), np.float32), tf.constant([3, 1]), seed=1)")),
    ("random_crop sizes of another length, traced", _T, _traced(
        "tf.image.random_crop(np.ones((2, 2), np.float32), tf.constant([1, 1, 1]), seed=1)")),
    ("random_crop ok shape", _T, _eager(
        "tf.shape(tf.image.random_crop(np.ones((3, 2), np.float32), tf.constant([2, 1]), seed=1))")),
    ("stft fft_length of three", _T, _eager(
        "tf.signal.stft(np.array([1.0, -0.0, 0.25, 2.0]), frame_length=1, frame_step=2, fft_length=[1, 2, 2])")),
    ("stft fft_length of one", _T, _eager(
        "tf.signal.stft(np.array([1.0, -0.0, 0.25, 2.0]), frame_length=1, frame_step=2, fft_length=[4])")),
    ("stft fft_length empty", _T, _eager(
        "tf.signal.stft(np.array([1.0, -0.0, 0.25, 2.0]), frame_length=1, frame_step=2, fft_length=[])")),
    ("stft fft_length of two, traced", _T, _traced(
        "tf.signal.stft(np.array([1.0, -0.0, 0.25, 2.0]), frame_length=1, frame_step=2, fft_length=[4, 4])")),
    ("stft fft_length scalar", _T, _eager(
        "tf.shape(tf.signal.stft(np.array([1.0, -0.0, 0.25, 2.0]), frame_length=1, frame_step=2, fft_length=4))")),
    ("bincount tensor axis, traced", _T, _traced("tf.math.bincount(tf.constant([1, 2]), axis=tf.constant(-1))")),
    ("bincount tensor axis", _T, _eager("tf.math.bincount(tf.constant([1, 2]), axis=tf.constant(-1))")),
    ("make_tensor_proto of a traced constant, sig", _T, _sig(
        "tf.make_tensor_proto(values=tf.constant(False), shape=tf.TensorShape([3, 1]))", ([3, 1], "complex64"),
        "tf.zeros([3, 1], tf.complex64)")),
    ("make_tensor_proto returned, sig", _T, _sig("tf.make_tensor_proto(values=np.int32(0), verify_shape=np.bool_(True))",
                                                 ([3, 1], "complex64"), "tf.zeros([3, 1], tf.complex64)")),
    ("make_tensor_proto of a list returned, traced", _T, _traced("tf.make_tensor_proto([1.5, 2.0], shape=[2, 1])")),
    ("make_tensor_proto of strings returned, traced", _T, _traced("tf.make_tensor_proto(['a', 'bc'])")),
    ("eigvals of an unknown non-square dimension, sig", _T, _sig(
        "tf.linalg.eigvals(x)", ([4, 3, None], "float32"), "tf.ones([4, 3, 1])")),
    ("det of an unknown non-square dimension, sig", _T, _sig(
        "tf.linalg.det(x)", ([4, 3, None], "float32"), "tf.ones([4, 3, 1])")),
    ("inv of an unknown non-square dimension, sig", _T, _sig(
        "tf.linalg.inv(x)", ([None, 3, None], "float32"), "tf.ones([4, 3, 1])")),
    ("cholesky of a known non-square matrix, sig", _T, _sig(
        "tf.linalg.cholesky(x)", ([4, 3, 1], "float32"), "tf.ones([4, 3, 1])")),
    ("slogdet of an unknown rank, sig", _T, _sig(
        "tf.linalg.slogdet(x)[0]", (None, "float32"), "tf.ones([3])")),
    ("lu_reconstruct of a short perm", _T, _eager(
        "tf.linalg.lu_reconstruct(tf.constant([[complex(1, 4), complex(-3, 4)], [complex(0.001, 4), complex(4, 0)]], "
        "tf.complex128), perm=[0])")),
    ("lu_reconstruct of a short perm, traced", _T, _traced(
        "tf.linalg.lu_reconstruct(tf.constant([[1.0, 2.0], [3.0, 4.0]]), perm=[0])")),
    ("lu_reconstruct of a short perm, tape", _T, _tape("tf.linalg.lu_reconstruct(x, perm=[0])",
                                                       "tf.constant([[1.0, 2.0], [3.0, 4.0]])")),
    # conversions (fz14 seed 1420261219; first generator seed 20261219 #57)
    ("constant of FLT_MAX's literal", _C, _eager("tf.constant([[-3.4028235e+38, 0.5]])")),
    ("constant rounding to FLT_MAX", _C, _eager("tf.constant([3.40282356e38, 1.0])")),
    ("constant scalar of FLT_MAX's literal", _C, _eager("tf.constant(3.4028235e38)")),
    ("constant beyond float32", _C, _eager("tf.constant([3.5e38, 1.0])")),
    ("is_tensor of a variable", _C, _eager("tf.is_tensor(tf.Variable([1, 2]))")),
    ("is_tensor of a variable, traced", _C, _var_traced("tf.is_tensor(v)", "tf.Variable([1, 2])")),
    ("is_tensor of a variable's value, traced", _C, _var_traced("tf.is_tensor(v + 1)", "tf.Variable([1, 2])")),
    ("is_tensor of an ndarray", _C, _eager("tf.is_tensor(np.array(1))")),
    ("broadcast_dynamic_shape of an empty list", _C, _eager("tf.broadcast_dynamic_shape(shape_x=[], shape_y=(2, 0))")),
    ("broadcast_dynamic_shape of a float list", _C, _eager("tf.broadcast_dynamic_shape(shape_x=[0.5], shape_y=(2, 0))")),
    ("broadcast_dynamic_shape of empty lists", _C, _eager("tf.broadcast_dynamic_shape(shape_x=[], shape_y=[])")),
    ("nextafter int32 and float32 arrays, traced", _C, _traced(
        "tf.math.nextafter(np.array([2, 5, 0], np.int32), np.array([0.25, 0.001, 0.001], np.float32))")),
    ("nextafter int64 and float32 arrays, traced", _C, _traced(
        "tf.math.nextafter(np.array([2, 5]), np.array([0.25, 1.0], np.float32))")),
    ("nextafter float16 and float32 arrays, traced", _C, _traced(
        "tf.math.nextafter(np.array([1, 2], np.float16), np.array([0.25, 1.0], np.float32))")),
    ("nextafter float64 and float32 arrays, traced", _C, _traced(
        "tf.math.nextafter(np.array([0.25, 1.0]), np.array([0.25, 1.0], np.float32))")),
    ("nextafter int32 array and a float, traced", _C, _traced("tf.math.nextafter(np.array([2, 5], np.int32), 1.5)")),
    ("nextafter int32 and float32 arrays, sig", _C, _sig(
        "tf.math.nextafter(np.array([[2], [5]], np.int32), np.array([[0.25], [np.nan]], np.float32))",
        ([2, 1], "int32"), "tf.zeros([2, 1], tf.int32)")),
    # (float16 LRN's rsqrt is Eigen's packet one, vrsqrtps-dependent: dtypes, shapes and the overflow's zeros only)
    ("lrn of a float16 array", _C, _eager(
        "tf.zeros_like(tf.nn.local_response_normalization(np.ones((1, 1, 1, 2), np.float16)))")),
    ("lrn of a float16 array, traced", _C, _traced(
        "tf.zeros_like(tf.nn.local_response_normalization(np.ones((1, 1, 1, 2), np.float16)))")),
    ("lrn of a float16 array with 65504", _C, _eager(
        "tf.equal(tf.nn.local_response_normalization(np.array([[[[7.0, 0.001, 65504.0], [1.0, 2.0, 3.0]]]], "
        "np.float16)), 0)")),
    ("lrn of a float64 array", _C, _eager("tf.nn.local_response_normalization(np.ones((1, 1, 1, 2)))")),
    ("stateless_normal float tensor mean, uint32", _C, _eager(
        "tf.random.stateless_normal([2], [1, 2], mean=tf.constant(1.0), stddev=0.5, dtype=tf.uint32)")),
    ("stateless_normal int mean, uint32", _C, _eager(
        "tf.random.stateless_normal([2], [1, 2], mean=0, stddev=1, dtype=tf.uint32)")),
    ("stateless_normal default mean, int32", _C, _eager("tf.random.stateless_normal([2], [1, 2], dtype=tf.int32)")),
    ("stateless_normal float variable mean, int32", _C, _eager(
        "tf.random.stateless_normal([2], [1, 2], mean=tf.Variable(1.0), dtype=tf.int32)")),
    ("stateless_truncated_normal int mean, int64", _C, _eager(
        "tf.random.stateless_truncated_normal([2], [1, 2], mean=0, stddev=1, dtype=tf.int64)")),
]



def _parts_agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """edge_compare.bits_agree, complex part by part (a NaN part matching any NaN part)."""
    if got.dtype.kind == "c":
        return edge_compare.bits_agree(np.array(got.real), np.array(want.real)) & \
            edge_compare.bits_agree(np.array(got.imag), np.array(want.imag))
    return edge_compare.bits_agree(got, want)


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.complex")
@EDGES.parametrize("ops.complex")
def test_complex_pow_and_equal(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.special-functions")
@EDGES.parametrize("ops.special-functions")
def test_polygamma_zeta(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals")
@EDGES.parametrize("ops.subnormals")
def test_sinh_subnormals(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_attrs_and_list_inputs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz19_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
