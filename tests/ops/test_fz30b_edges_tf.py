"""Rules behind the classes of issue 29's fresh campaigns that fz30b ran (fourteenth generator seeds
1420303001 and 1420303002, fourth generator seed 3001, third 3002 --ext8), each against real
TensorFlow 2.21: the same call on both backends gives the same dtype and values (bit for bit:
-0.0 differs from 0.0), or raises the same exception class. Eagerly, in a tf.function (`traced`,
a one-expression body), and with an input_signature (`sig`: get_concrete_function on
placeholders, then a call). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_AT = "ops.attr-types"
_A = "ops.argument-errors"
_C = "ops.conversion"
_T = "function.trace-time-errors"
_S = "ops.subnormals"

_BOXES = "tf.constant([[[1, 1, 5, 5]]], tf.int16)"

CASES: list[tuple[str, str, Any]] = [
    # in_top_k: the eager fast path converts a k that is no tensor with T (from the targets) before
    # the kernel checks T (1420303001 #11)
    ("in_top_k bool targets, Python k", _AT, _eager(
        "tf.math.in_top_k(targets=tf.constant([True, False]), predictions=[[2, 5], [5, 3]], k=2)")),
    ("in_top_k bool targets, tensor predictions", _AT, _eager(
        "tf.math.in_top_k(tf.constant([True, False]), tf.constant([[2., 5], [5, 3]]), 2)")),
    ("in_top_k string targets", _AT, _eager("tf.math.in_top_k(tf.constant(['a', 'b']), tf.constant([[2., 5], [5, 3]]), 2)")),
    ("in_top_k float targets, Python k", _AT, _eager("tf.math.in_top_k(tf.constant([1., 0.]), tf.constant([[2., 5], [5, 3]]), 2)")),
    ("in_top_k bool targets, k True", _AT, _eager(
        "tf.math.in_top_k(tf.constant([True, False]), tf.constant([[2., 5], [5, 3]]), True)")),
    ("in_top_k bool targets, NumPy k", _AT, _eager(
        "tf.math.in_top_k(tf.constant([True, False]), tf.constant([[2., 5], [5, 3]]), np.int32(2))")),
    ("in_top_k bool targets, tensor k", _AT, _eager(
        "tf.math.in_top_k(tf.constant([True, False]), tf.constant([[2., 5], [5, 3]]), tf.constant(2))")),
    ("in_top_k bool targets, traced", _AT, _traced(
        "tf.math.in_top_k(tf.constant([True, False]), tf.constant([[2., 5], [5, 3]]), 2)")),
    # StringToNumber: an out_type that is no DType sends the call to the eager fallback (1420303001 #77)
    ("to_number(int64 tensor, out_type=np.int64)", _AT, _eager(
        "tf.strings.to_number(tf.constant([1, 2], tf.int64), out_type=np.int64)")),
    ("to_number(int64 tensor, out_type='int64')", _AT, _eager(
        "tf.strings.to_number(tf.constant([1, 2], tf.int64), out_type='int64')")),
    ("to_number(int64 tensor, out_type=tf.int64)", _AT, _eager(
        "tf.strings.to_number(tf.constant([1, 2], tf.int64), out_type=tf.int64)")),
    ("to_number(int32 variable, out_type=np.int64)", _AT, _eager(
        "tf.strings.to_number(tf.Variable([1, 2]), out_type=np.int64)")),
    ("to_number(int64 tensor, out_type=np.bool_)", _AT, _eager(
        "tf.strings.to_number(tf.constant([1, 2], tf.int64), out_type=np.bool_)")),
    ("to_number(string tensor, out_type=np.int64)", _AT, _eager(
        "tf.strings.to_number(tf.constant(['1', '2']), out_type=np.int64)")),
    ("to_number(int64 tensor, out_type=np.int64), traced", _AT, _traced(
        "tf.strings.to_number(tf.constant([1, 2], tf.int64), out_type=np.int64)")),
    # SampleDistortedBoundingBoxV2's float inputs: the fast path leaves an int16 tensor to the kernel
    # (1420303002 #8)
    ("sample_distorted_bounding_box(ndarray size, int16 boxes)", _AT, _eager(
        f"tf.image.sample_distorted_bounding_box(np.array([3, 1, 3], np.int64), {_BOXES}, seed=1)")),
    ("sample_distorted_bounding_box(tensor size, int16 boxes)", _AT, _eager(
        f"tf.image.sample_distorted_bounding_box(tf.constant([3, 1, 3]), {_BOXES}, seed=1)")),
    ("sample_distorted_bounding_box(list size, int16 boxes)", _AT, _eager(
        f"tf.image.sample_distorted_bounding_box([3, 1, 3], {_BOXES}, seed=1)")),
    ("sample_distorted_bounding_box(float64 min_object_covered)", _AT, _eager(
        f"tf.image.sample_distorted_bounding_box(np.array([3, 1, 3], np.int64), {_BOXES}, seed=1, "
        "min_object_covered=tf.constant(0.1, tf.float64))")),
    ("stateless_sample_distorted_bounding_box(list seed, int16 boxes)", _AT, _eager(
        f"tf.image.stateless_sample_distorted_bounding_box(np.array([3, 1, 3], np.int64), {_BOXES}, seed=[1, 2])")),
    ("stateless_sample_distorted_bounding_box(tensor seed, int16 boxes)", _AT, _eager(
        f"tf.image.stateless_sample_distorted_bounding_box(np.array([3, 1, 3], np.int64), {_BOXES}, "
        "seed=tf.constant([1, 2]))")),
    # a dilated convolution's Convolution class: a known filter rank must be num_spatial_dims + 2
    # (1420303001 #91)
    ("convolution of a scalar filter, dilations [0]", _A, _eager(
        "tf.nn.convolution(tf.Variable(tf.zeros([3, 2, 1, 1], tf.bool)), 1e-40, data_format='NCHW', dilations=[0])")),
    ("convolution of a scalar filter, dilations 2", _A, _eager("tf.nn.convolution(tf.zeros([3, 2, 1, 1]), 1e-40, dilations=2)")),
    ("convolution of a rank-3 filter, dilations 2", _A, _eager(
        "tf.nn.convolution(tf.zeros([3, 2, 1, 1]), tf.ones([1, 1, 1]), dilations=2)")),
    ("atrous_conv2d of a scalar filter", _A, _eager("tf.nn.atrous_conv2d(tf.zeros([3, 2, 1, 1]), 1.0, rate=2, padding='SAME')")),
    # boolean_mask's static check slices the shape with the axis as given (1420303002 #182)
    ("boolean_mask with axis -3 of a rank-3 mask", _A, _eager(
        "tf.boolean_mask(tf.constant([[[1.0], [-1.5], [0.25]]], tf.bfloat16), np.array([[[-1], [0], [-1]]], np.int8), "
        "axis=np.int64(-3))")),
    ("boolean_mask with axis -2 of a rank-2 mask", _A, _eager(
        "tf.boolean_mask(tf.constant([[1.0, 2.0]]), np.array([[True, False]]), axis=-2)")),
    ("boolean_mask with axis -2 of a rank-1 mask", _A, _eager(
        "tf.boolean_mask(tf.constant([[1.0, 2.0]]), np.array([True]), axis=-2)")),
    # autopacking a list that holds a tensor (1420303001 #62)
    ("ctc_greedy_decoder of [float, bfloat16 tensor, float32 tensor]", _C, _eager(
        "tf.nn.ctc_greedy_decoder([0.5, tf.constant([65504.0, -0.0, 7.0, 0.0], tf.bfloat16), "
        "tf.constant([1e-40, -0.0, 0.0, 2.5], tf.float32)], sequence_length=[4])")),
    ("convert [float, bfloat16 tensor, float32 tensor]", _C, _eager(
        "tf.convert_to_tensor([0.5, tf.constant([1.0], tf.bfloat16), tf.constant([2.0])])")),
    ("convert [bfloat16 tensor, float32 tensor]", _C, _eager(
        "tf.convert_to_tensor([tf.constant([1.0], tf.bfloat16), tf.constant([2.0])])")),
    ("convert [bfloat16 tensor, float32 variable, 3.0]", _C, _eager(
        "tf.convert_to_tensor([tf.constant(1.0, tf.bfloat16), tf.Variable(2.0), 3.0])")),
    ("convert [[bfloat16, float], [float32, float]]", _C, _eager(
        "tf.convert_to_tensor([[tf.constant(1.0, tf.bfloat16), 1.0], [tf.constant(2.0), 3.0]])")),
    ("convert [[bfloat16, bfloat16], [float32, float32]]", _C, _eager(
        "tf.convert_to_tensor([[tf.constant(1.0, tf.bfloat16), tf.constant(1.0, tf.bfloat16)], "
        "[tf.constant(2.0), tf.constant(2.0)]])")),
    ("convert [1e300, bfloat16 tensor, float32 tensor]", _C, _eager(
        "tf.convert_to_tensor([1e300, tf.constant(1.0, tf.bfloat16), tf.constant(2.0)])")),
    ("convert [bfloat16 tensor, float32 tensor], traced", _C, _traced(
        "tf.convert_to_tensor([tf.constant(1.0, tf.bfloat16), tf.constant(2.0)])")),
    ("convert [1, bfloat16, float32] with a float32 hint", _C, _eager(
        "tf.convert_to_tensor([1, tf.constant(1.0, tf.bfloat16), tf.constant(2.0)], dtype_hint=tf.float32)")),
    # SelectV2 on the eager fast path takes T from a variable y (fourth generator seed 3002 #117)
    ("where(True, 0.5, float16 variable)", _C, _eager("tf.where(0.5 > 0, 0.5, tf.Variable(tf.constant(0.0, tf.float16)))")),
    ("where(True, 0.5, float16 variable)[0]", _C, _eager(
        "tf.where(0.5 > 0, 0.5, tf.Variable(tf.constant(0.0, tf.float16)))[0]")),
    ("where(list, 0, float16 variable)", _C, _eager("tf.where([True, False], 0, tf.Variable([1.0, 2.0], dtype=tf.float16))")),
    ("where(True, 0, float16 variable)", _C, _eager("tf.where(True, 0, tf.Variable([1.0, 2.0], dtype=tf.float16))")),
    ("where(np.bool_, 2, float16 variable)", _C, _eager(
        "tf.where(np.bool_(True), 2, tf.Variable([1.0, 2.0], dtype=tf.float16))")),
    ("where(True, 2.5, int32 variable)", _C, _eager("tf.where(True, 2.5, tf.Variable([1, 2]))")),
    ("where(True, 70000.0, float16 variable)", _C, _eager("tf.where(True, 70000.0, tf.Variable([1.0, 2.0], dtype=tf.float16))")),
    # StringJoin's fallback for an item the fast path refuses (1420303007 #95)
    ("strings.join([float32 tensor, 0.5, np.bool_])", _C, _eager(
        "tf.strings.join([tf.constant(7.0), 0.5, np.bool_(False)])")),
    ("strings.join([int32 tensor, 'a'])", _C, _eager("tf.strings.join([tf.constant([1]), 'a'])")),
    ("strings.join(['a', int32 tensor])", _C, _eager("tf.strings.join(['a', tf.constant([1])])")),
    ("strings.join([string tensor, 0.5])", _C, _eager("tf.strings.join([tf.constant(['x']), 0.5])")),
    ("strings.join([string tensor, 'a'])", _C, _eager("tf.strings.join([tf.constant(['x']), 'a'])")),
    ("strings.join([int32 tensor, string tensor])", _C, _eager("tf.strings.join([tf.constant([1]), tf.constant(['x'])])")),
    # a graph's make_tensor_proto takes bools as numbers of a numeric dtype (fz4 seed 3001 #58)
    ("convert [True, 0] with an int8 hint, traced", _C, _traced("tf.convert_to_tensor([True, 0], dtype_hint=tf.int8)")),
    ("convert [True, 0] with an int8 hint", _C, _eager("tf.convert_to_tensor([True, 0], dtype_hint=tf.int8)")),
    ("constant [True, 0] as int8, traced", _C, _traced("tf.constant([True, 0], dtype=tf.int8)")),
    ("constant [True, 1] as bool, traced", _C, _traced("tf.constant([True, 1], tf.bool)")),
    ("constant [True, 1.5] as int8, traced", _C, _traced("tf.constant([True, 1.5], tf.int8)")),
    ("constant [[True, 300], [False, 2]] as uint8, traced", _C, _traced("tf.constant([[True, 300], [False, 2]], tf.uint8)")),
    ("convert [True, 1] with a bool hint, traced", _C, _traced("tf.convert_to_tensor([True, 1], dtype_hint=tf.bool)")),
    # a dry run goes on past saturate_cast's missing uint32 ClipByValue kernel (1420303001 #192)
    ("float32 ndarray @ saturate_cast(uint32 ndarray, complex128), sig", _T, _sig(
        "np.array([1.0], np.float32) @ tf.dtypes.saturate_cast(np.array([3], np.uint32), dtype=np.complex128)",
        ([1], "uint32"), "tf.constant([1], tf.uint32)")),
    ("matmul of saturate_cast(uint32 ndarray, complex128), traced", _T, _traced(
        "tf.matmul(tf.dtypes.saturate_cast(np.array([3], np.uint32), np.complex128), "
        "tf.dtypes.saturate_cast(np.array([3], np.uint32), np.complex128))")),
    ("saturate_cast(uint32 ndarray, complex128)", _T, _eager("tf.dtypes.saturate_cast(np.array([3], np.uint32), np.complex128)")),
    # Conv3DBackpropInputV2 in a graph: the filter's T before the attrs (1420303001 #287, #128)
    ("conv3d_transpose of an int64 filter, NCHW, sig", _T, _sig(
        "tf.nn.conv3d_transpose(x, tf.constant([[-4, -4], [0, 2], [1, 3]], tf.int64), tf.constant([3, 2], tf.int32), "
        "np.array([3], np.int64), data_format='NCHW')", ([3, None], "bfloat16"), "tf.ones([3, 2], tf.bfloat16)")),
    ("conv3d_transpose of an int64 filter, NCHW", _T, _eager(
        "tf.nn.conv3d_transpose(tf.ones([3, 2], tf.bfloat16), tf.constant([[-4, -4], [0, 2], [1, 3]], tf.int64), "
        "tf.constant([3, 2], tf.int32), np.array([3], np.int64), data_format='NCHW')")),
    ("conv3d_transpose of an int64 input, traced", _T, _traced(
        "tf.nn.conv3d_transpose(tf.ones([1, 1, 1, 1, 1], tf.int64), tf.ones([1, 1, 1, 1, 1]), [1, 1, 1, 1, 1], "
        "[1, 1, 1, 1, 1])")),
    ("conv3d_transpose with strides of 2, sig", _T, _sig(
        "tf.nn.conv3d_transpose(x, np.ones([4, 4], np.int64), tf.constant([1, 2, 2], tf.int32), "
        "strides=np.array([2, 3], np.int64))", ([4, None], "float32"), "tf.ones([4, 2])")),
    ("conv3d_transpose of an int64 filter, NCDHW, sig", _T, _sig(
        "tf.nn.conv3d_transpose(x, np.ones([1, 4], np.int64), tf.constant([1, 2, 2], tf.int32), strides=1, "
        "data_format='NCDHW')", ([4, None], "float32"), "tf.ones([4, 2])")),
    # the FFTND family has no kernel: a dry run goes on past it with a stand-in (1420303003 #62)
    ("ifftnd(...) & int32 tensor, sig", _T, _sig(
        "tf.ifftnd([[5]], fft_length=np.array([2, 0], np.int64), axes=(-2, 1)) & tf.constant([[2]], tf.int32)",
        (None, "float32"), "tf.constant(1.0)")),
    ("ifftnd(...) & int32 tensor, traced", _T, _traced(
        "tf.ifftnd([[5]], fft_length=np.array([2, 0], np.int64), axes=(-2, 1)) & tf.constant([[2]], tf.int32)")),
    ("fftnd of a complex spec + float32 ones, sig", _T, _sig(
        "tf.signal.fftnd(x) + tf.ones([3])", ([2, 2], "complex64"), "tf.ones([2, 2], tf.complex64)")),
    ("fftnd of a partly known spec & 1, sig", _T, _sig(
        "tf.signal.fftnd(x) & 1", ([2, None], "complex64"), "tf.ones([2, 2], tf.complex64)")),
    ("ifftnd with fft_length, eagerly", _T, _eager(
        "tf.ifftnd([[5]], fft_length=np.array([2, 1], np.int64), axes=(-2, 1))")),
    ("fftnd of a complex vector, traced", _T, _traced("tf.signal.fftnd(tf.ones([2], tf.complex64))")),
    # MaxPool's and AvgPool's data_format lists, after padding (1420303004 #139)
    ("max_pool2d with data_format NWC", _A, _eager(
        "tf.nn.max_pool2d(tf.ones([1, 3, 3, 2]), np.array([3], np.int64), (3,), 'VALID', data_format='NWC')")),
    ("avg_pool2d with data_format NWC", _A, _eager("tf.nn.avg_pool2d(tf.ones([1, 3, 3, 2]), 3, 3, 'VALID', data_format='NWC')")),
    ("max_pool2d with data_format NCW", _A, _eager("tf.nn.max_pool2d(tf.ones([1, 3, 3, 2]), 3, 3, 'VALID', data_format='NCW')")),
    ("max_pool with data_format NWC", _A, _eager("tf.nn.max_pool(tf.ones([1, 3, 3, 2]), 3, 3, 'VALID', data_format='NWC')")),
    ("max_pool2d with data_format NWC, traced", _A, _traced(
        "tf.nn.max_pool2d(tf.ones([1, 3, 3, 2]), 3, 3, 'VALID', data_format='NWC')")),
    ("max_pool2d with a bad padding and data_format", _A, _eager(
        "tf.nn.max_pool2d(tf.ones([1, 3, 3, 2]), 3, 3, 'SAME_X', data_format='NWC')")),
    ("max_pool1d with data_format NWC", _A, _eager("tf.nn.max_pool1d(tf.ones([1, 4, 2]), 2, 2, 'VALID', data_format='NWC')")),
    # _maybe_pad_for_rfft's Sub of fft_length and the input's sizes in a graph (1420303005 #129)
    ("fftnd of a [None, 4, 4] spec with an empty fft_length, sig", _T, _sig(
        "tf.signal.fftnd(x, fft_length=tf.constant([], tf.int32))", ([None, 4, 4], "float32"), "tf.ones([2, 4, 4])")),
    ("fftnd of a complex [None, 4, 4] with an empty fft_length, sig", _T, _sig(
        "tf.signal.fftnd(tf.cast(x, tf.complex64), fft_length=tf.constant([], tf.int32))", ([None, 4, 4], "float32"),
        "tf.ones([2, 4, 4])")),
    ("fftnd of a complex [None, 4, 4] with fft_length [2, 2], sig", _T, _sig(
        "tf.signal.fftnd(tf.cast(x, tf.complex64), fft_length=[2, 2])", ([None, 4, 4], "float32"), "tf.ones([2, 4, 4])")),
    ("rfftnd of a [None, 4, 4] with fft_length [2], sig", _T, _sig(
        "tf.signal.rfftnd(x, fft_length=[2])", ([None, 4, 4], "float32"), "tf.ones([2, 4, 4])")),
    ("irfftnd of a [4, None, 4] with fft_length [2, 3], sig", _T, _sig(
        "tf.signal.irfftnd(tf.cast(x, tf.complex64), fft_length=[2, 3])", ([4, None, 4], "float32"), "tf.ones([4, 2, 4])")),
    ("ifftnd of a [4, None] with fft_length [2, 3, 4], sig", _T, _sig(
        "tf.signal.ifftnd(tf.cast(x, tf.complex64), fft_length=[2, 3, 4])", ([4, None], "float32"), "tf.ones([4, 2])")),
    ("fftnd of a known float32 input with an empty fft_length", _T, _eager(
        "tf.signal.fftnd(tf.ones([2, 4, 4]), fft_length=tf.constant([], tf.int32))")),
    # Split's shape function wants a scalar split_dim (1420303007 #4)
    ("split with axis [], sig", _T, _sig("tf.split(3, np.int64(2), axis=[])", ([2], "float32"), "tf.ones([2])")),
    ("split of a vector with axis [], traced", _T, _traced("tf.split(tf.ones([4]), 2, axis=[])")),
    ("split of a vector with axis [0], traced", _T, _traced("tf.split(tf.ones([4]), 2, axis=[0])")),
    ("split with axis []", _T, _eager("tf.split(3, np.int64(2), axis=[])")),
    # StatelessRandomBinomial in a graph: probs' type and the dtype attr before the kernel (1420303008 #135)
    ("stateless_binomial of int32 counts and float probs, complex128, traced", _T, _traced(
        "tf.random.stateless_binomial(tf.TensorShape([2, 3]), tf.constant([1, 2], tf.int32), "
        "counts=tf.constant(-1, tf.int32), probs=np.float32(2.5), output_dtype=tf.complex128)")),
    ("stateless_binomial of float counts, complex128, traced", _T, _traced(
        "tf.random.stateless_binomial([2, 3], [1, 2], counts=tf.constant(3.0), probs=np.float32(0.5), "
        "output_dtype=tf.complex128)")),
    ("stateless_binomial of int32 counts and probs, traced", _T, _traced(
        "tf.random.stateless_binomial([2], [1, 2], counts=tf.constant(3, tf.int32), probs=tf.constant(1, tf.int32))")),
    ("stateless_binomial of int32 counts, complex128", _T, _eager(
        "tf.random.stateless_binomial(tf.TensorShape([2, 3]), tf.constant([1, 2], tf.int32), "
        "counts=tf.constant(-1, tf.int32), probs=np.float32(2.5), output_dtype=tf.complex128)")),
    ("stateless_binomial of Python counts and probs as int32, traced", _T, _traced(
        "tf.random.stateless_binomial([2], [1, 2], counts=3.0, probs=0.5, output_dtype=tf.int32)")),
    # StringToHashBucket*: in a graph the string input's type, then num_buckets' minimum (1420261202 #832)
    ("to_hash_bucket_fast of an int32 spec, num_buckets 0, sig", _T, _sig(
        "tf.strings.to_hash_bucket_fast(x, num_buckets=0)", ([2], "int32"), "tf.constant([1, 2])")),
    ("to_hash_bucket_fast of a string spec, num_buckets 0, sig", _T, _sig(
        "tf.strings.to_hash_bucket_fast(x, num_buckets=0)", ([2], "string"), "tf.constant(['a', 'b'])")),
    ("to_hash_bucket of an int32 spec, num_buckets 0, sig", _T, _sig(
        "tf.strings.to_hash_bucket(x, num_buckets=0)", ([2], "int32"), "tf.constant([1, 2])")),
    ("to_hash_bucket_strong of an int32 spec, num_buckets 0, sig", _T, _sig(
        "tf.strings.to_hash_bucket_strong(x, num_buckets=0, key=[1, 2])", ([2], "int32"), "tf.constant([1, 2])")),
    ("to_hash_bucket_fast of an int32 tensor, num_buckets 0, traced", _T, _traced(
        "tf.strings.to_hash_bucket_fast(tf.constant([1]), num_buckets=0)")),
    ("to_hash_bucket_fast of an int32 tensor, num_buckets 0", _T, _eager(
        "tf.strings.to_hash_bucket_fast(tf.constant([1]), num_buckets=0)")),
    # the sorted segment reductions copy a one-row segment (fz3 ext8 seed 3002 #285)
    ("segment_sum of one -0.0 row", _S, _eager("tf.math.segment_sum([-0.0], [0])")),
    ("segment_sum of two -0.0 rows", _S, _eager("tf.math.segment_sum([-0.0, -0.0], [0, 0])")),
    ("segment_sum with a gap", _S, _eager("tf.math.segment_sum(tf.constant([-0.0, 1.0, -0.0]), [0, 0, 2])")),
    ("segment_sum of one subnormal row", _S, _eager("tf.math.segment_sum(tf.constant([[1e-40, -0.0, 2.0]]), [0])")),
    ("segment_sum of a subnormal beside 0", _S, _eager("tf.math.segment_sum(tf.constant([1e-40, 0.0]), [0, 0])")),
    ("segment_sum of float64 subnormal rows", _S, _eager("tf.math.segment_sum(tf.constant([1e-310, -0.0], tf.float64), [0, 2])")),
    ("segment_sum of float16 -0.0", _S, _eager("tf.math.segment_sum(tf.constant([-0.0], tf.float16), [0])")),
    ("segment_sum of bfloat16 -0.0", _S, _eager("tf.math.segment_sum(tf.constant([-0.0], tf.bfloat16), [0])")),
    ("segment_sum of complex64 -0.0", _S, _eager("tf.math.segment_sum(tf.constant([complex(-0.0, -0.0)], tf.complex64), [0])")),
    ("segment_sum of -0.0, traced", _S, _traced("tf.math.segment_sum([-0.0], [0])")),
    ("segment_mean of one -0.0 row", _S, _eager("tf.math.segment_mean([-0.0], [0])")),
    ("segment_mean of one subnormal row", _S, _eager("tf.math.segment_mean(tf.constant([[1e-40, -0.0, 2.0]]), [0])")),
    ("segment_prod of one subnormal row", _S, _eager("tf.math.segment_prod(tf.constant([1e-40]), [0])")),
    ("segment_prod of one -0.0 row", _S, _eager("tf.math.segment_prod(tf.constant([-0.0]), [0])")),
    ("segment_max of one subnormal row", _S, _eager("tf.math.segment_max(tf.constant([1e-40]), [0])")),
    ("segment_min of a subnormal row after -0.0", _S, _eager("tf.math.segment_min(tf.constant([-0.0, 1e-40]), [0, 2])")),
    ("segment_sum of int32 rows", _S, _eager("tf.math.segment_sum(tf.constant([[-1, 2]]), [0])")),
    # bfloat16 ClipByValue selects as Minimum/Maximum do, keeping a subnormal's bits in the tail (fz3 ext8 3003 #74)
    ("saturate_cast of a bfloat16 variable holding a subnormal", _S, _eager(
        "tf.dtypes.saturate_cast(tf.Variable(tf.constant(np.array([[2.5, 9.99994610111476e-41, 1e10]], np.float32), "
        "dtype=tf.bfloat16)), dtype=tf.bfloat16)")),
    ("saturate_cast of bfloat16 subnormals to float32", _S, _eager(
        "tf.dtypes.saturate_cast(tf.constant(np.array([[2.5, 9.99994610111476e-41]], np.float32), dtype=tf.bfloat16), "
        "tf.float32)")),
    ("saturate_cast of ten bfloat16 subnormals to float32", _S, _eager(
        "tf.dtypes.saturate_cast(tf.constant(np.full([10], 9.99994610111476e-41, np.float32), dtype=tf.bfloat16), "
        "tf.float32)")),
    ("raw ClipByValue of bfloat16 subnormals", _S, _eager(
        "tf.raw_ops.ClipByValue(t=tf.constant(np.array([-9.99994610111476e-41, 9.99994610111476e-41, 1.0], np.float32), "
        "dtype=tf.bfloat16), clip_value_min=tf.constant(0.0, tf.bfloat16), clip_value_max=tf.constant(1.0, tf.bfloat16))")),
    ("saturate_cast of float32 subnormals", _S, _eager(
        "tf.dtypes.saturate_cast(tf.constant(np.array([[2.5, 9.99994610111476e-41]], np.float32)), tf.float32)")),
    # bfloat16 Pow reads a subnormal operand by its bits (glibc's powf) at every position (1420303004 #18)
    ("bfloat16 list ** variable holding a subnormal", _S, _eager(
        "[[2.5, 7.0, -3.0, -float('inf')]] ** tf.Variable(tf.constant(np.array([[float('inf'), float('nan'), 7.0, "
        "9.99994610111476e-41]], np.float32), dtype=tf.bfloat16))")),
    ("bfloat16 pow of subnormal exponents", _S, _eager(
        "tf.constant([-float('inf'), 0.0, -0.0], tf.bfloat16) ** tf.cast(tf.constant(np.full([3], 1e-40, np.float32)), "
        "tf.bfloat16)")),
    ("bfloat16 pow of negative subnormal exponents", _S, _eager(
        "tf.constant([-float('inf'), 0.0, -0.0], tf.bfloat16) ** tf.cast(tf.constant(np.full([3], -1e-40, np.float32)), "
        "tf.bfloat16)")),
    ("bfloat16 pow of subnormal bases", _S, _eager(
        "tf.cast(tf.constant(np.full([3], 1e-40, np.float32)), tf.bfloat16) ** tf.constant([2.0, 0.5, -1.0], tf.bfloat16)")),
    ("bfloat16 pow of nine subnormal bases", _S, _eager(
        "tf.cast(tf.constant(np.full([9], 1e-40, np.float32)), tf.bfloat16) ** tf.constant([-1.0] * 9, tf.bfloat16)")),
    ("bfloat16 pow of a subnormal base to 0 and 1", _S, _eager(
        "tf.cast(tf.constant([1e-40, 1e-40]), tf.bfloat16) ** tf.constant([0.0, 1.0], tf.bfloat16)")),
    ("bfloat16 pow of seventeen subnormal exponents", _S, _eager(
        "tf.constant([-float('inf')] * 17, tf.bfloat16) ** tf.cast(tf.constant(np.full([17], 1e-40, np.float32)), "
        "tf.bfloat16)")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)   # (complex: part by part)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_fast_path_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_argument_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals")
@EDGES.parametrize("ops.subnormals")
def test_subnormals_and_signed_zeros(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz30b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
