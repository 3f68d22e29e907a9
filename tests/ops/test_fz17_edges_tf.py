"""Rules behind the last unanalysed classes of issue 29's fourteenth generator (tests/fuzz14, fz17's
share) and tf.strings.unicode_script, each against real TensorFlow 2.21: the same call on both
backends gives the same dtype and values, or raises the same exception class. Eagerly, in a
tf.function (`traced`), with an input_signature (`sig`: get_concrete_function on placeholders, then
a call) and in a replica of a one-device MirroredStrategy (`dist`). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import traced as _traced, sig as _sig
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _eager(expr: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        return eval(expr, {"tf": tf, "np": np})  # noqa: S307 - our own text
    return run


def _dist(expr: str, var: str) -> Callable[[Any], Any]:
    """`lambda v: expr` in strategy.run of a one-device MirroredStrategy, v a MirroredVariable made
    from `var` in its scope; the replica's result."""
    def run(tf: Any) -> Any:
        s = tf.distribute.MirroredStrategy(["/cpu:0"])
        with s.scope():
            v = tf.Variable(eval(var, {"tf": tf, "np": np}))  # noqa: S307 - our own text
        fn = eval(f"lambda v: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        return s.experimental_local_results(s.run(fn, args=(v,)))[0]
    return run


def _script_runs(tf: Any) -> Any:
    """unicode_script of every code point 0..0x10FFFF and a few outside, as runs: the start of
    each run of one value and that value."""
    r = np.asarray(tf.strings.unicode_script(tf.range(0x110000)).numpy())
    starts = np.concatenate([[0], np.flatnonzero(np.diff(r)) + 1])
    return [tf.constant(starts.astype(np.int32)), tf.constant(r[starts]), tf.strings.unicode_script(
        tf.constant([-1, -(2 ** 31), 0x110000, 2 ** 31 - 1, 0xD800, 0xDFFF, 0xFFFE, 0xE000, 0xF0000]))]


_O = "function.operation-results"
_C = "ops.conversion"
_U = "ops.strings-unicode-script"
_T = "function.trace-time-errors"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # a traced assertion, NoOp or group is an Operation: returning one is TypeError, converting one too
    # (fz14 seed 1420261217 #78)
    ("assert_less returned, sig", _O, _sig("tf.debugging.assert_less(x, tf.constant([4]))", ([1], "int32"),
                                            "tf.constant([-1])")),
    ("failing assert_less returned, sig", _O, _sig("tf.debugging.assert_less(x, tf.constant([-4]))", ([1], "int32"),
                                                    "tf.constant([-1])")),
    ("failing assert_less not returned, sig", _O, _sig("(tf.debugging.assert_less(x, tf.constant([-4])), x)[1]",
                                                        ([1], "int32"), "tf.constant([-1])")),
    ("failing assert_positive not returned, sig", _O, _sig("(tf.debugging.assert_positive(x), x)[1]",
                                                            ([2], "float32"), "tf.constant([1.0, -1.0])")),
    ("failing tf.Assert returned, sig", _O, _sig("tf.debugging.Assert(tf.reduce_all(x > 0), [x])", ([1], "int32"),
                                                  "tf.constant([-1])")),
    ("failing assert_none_equal returned, sig", _O, _sig("tf.debugging.assert_none_equal(x, 0)", ([1], "int32"),
                                                          "tf.constant([0])")),
    ("assert_less of constants returned, traced", _O, _traced("tf.debugging.assert_less(tf.constant(1), 5)")),
    ("assert_equal returned, traced", _O, _traced("tf.debugging.assert_equal(tf.constant([1]), 1)")),
    ("assert_positive returned, traced", _O, _traced("tf.debugging.assert_positive(tf.constant([1.0]))")),
    ("assert_none_equal returned, traced", _O, _traced("tf.debugging.assert_none_equal(tf.constant([1]), 2)")),
    ("assert_near returned, traced", _O, _traced("tf.debugging.assert_near(tf.constant([1.0]), 1.0)")),
    ("assert_rank returned, traced", _O, _traced("tf.debugging.assert_rank(tf.constant([1]), 1)")),
    ("assert_rank_at_least returned, traced", _O, _traced("tf.debugging.assert_rank_at_least(tf.constant([1]), 1)")),
    ("tf.Assert returned, traced", _O, _traced("tf.debugging.Assert(tf.constant(True), [1])")),
    ("no_op returned, traced", _O, _traced("tf.no_op()")),
    ("group returned, traced", _O, _traced("tf.group(tf.constant(1))")),
    ("assertion in a returned list, traced", _O, _traced("[tf.constant(1), tf.debugging.assert_less(1, 2)]")),
    ("identity of an assertion, traced", _O, _traced("tf.identity(tf.debugging.assert_less(tf.constant(1), 2))")),
    ("assert_type returns None, traced", _O, _traced("[tf.constant(1), tf.debugging.assert_type(tf.constant(1), "
                                                     "tf.int32)][0]")),
    ("assertion as a control dependency, traced", _O, _traced(
        "(lambda op: tf.constant([2]))(tf.debugging.assert_less(tf.constant(1), 2))")),
    ("assert_less eager returns None", _O, _eager("[tf.constant(1), tf.debugging.assert_less(1, 2)][0]")),
    # betainc's operands: the fast path with no tensor, the fallback with a MirroredVariable
    # (fz14 seed 1420261217 #107, #89)
    ("betainc Python a, float32 b, uint16 x arrays", _C, _eager(
        "tf.math.betainc(a=1e-40, b=np.array([65504.0, 0.5, 7.0], np.float32), x=np.array([0, 3, 0], np.uint16))")),
    ("betainc Python a, float32 b, int64 x arrays", _C, _eager(
        "tf.math.betainc(0.5, np.array([1.0, 0.5], np.float32), np.array([0, 1], np.int64))")),
    ("betainc float64 a array, Python b, np.float32 x", _C, _eager(
        "tf.math.betainc(np.array([0.5], np.float64), 1.0, np.float32(0.5))")),
    ("betainc Python int a, float b", _C, _eager("tf.math.betainc(1, 1.5, 0.5)")),
    ("betainc float32 array a, float64 variable x", _C, _eager(
        "tf.math.betainc(np.array([1.0], np.float32), 1.0, tf.Variable([0.5], dtype=tf.float64))")),
    ("betainc complex64 a beside a float32 MirroredVariable", _C, _dist(
        "tf.math.betainc(np.array([0.5 + 0j], np.complex64), np.array(2.5, np.float32), v)", "[0.25]")),
    ("betainc float32 a beside a float32 MirroredVariable", _C, _dist(
        "tf.math.betainc(np.array([0.5], np.float32), np.array(2.5, np.float32), v)", "[0.25]")),
    # identity_n of an array (fz14 seed 1420261217 #92)
    ("identity_n of a rank-2 array, traced", _C, _traced("tf.identity_n(np.array([[2.5], [0.5]], np.float32))")),
    ("identity_n of a tensor, traced", _C, _traced("tf.identity_n(tf.constant([1.0, 2.0]))")),
    ("identity_n of a tuple, traced", _C, _traced("tf.identity_n((1.0, 2))")),
    ("identity_n of a rank-1 array", _C, _eager("tf.identity_n(np.array([2.5, 0.5], np.float32))")),
    # BroadcastArgs's fallback for a list, tuple or TensorShape operand (fz14 seed 1420261202 #591)
    ("broadcast_dynamic_shape int64 array, tuple", _C, _eager(
        "tf.broadcast_dynamic_shape(np.array([1, 2], np.int64), (1, 2))")),
    ("broadcast_dynamic_shape int64 array, list", _C, _eager(
        "tf.broadcast_dynamic_shape(np.array([1, 2], np.int64), [1, 2])")),
    ("broadcast_dynamic_shape int64 arrays", _C, _eager(
        "tf.broadcast_dynamic_shape(np.array([1, 2], np.int64), np.array([1, 2], np.int64))")),
    ("broadcast_dynamic_shape float64 array, tuple", _C, _eager(
        "tf.broadcast_dynamic_shape(np.array([1.0, 2.0]), (1, 2))")),
    ("broadcast_dynamic_shape int64 array, TensorShape", _C, _eager(
        "tf.broadcast_dynamic_shape(np.array([1, 2], np.int64), tf.TensorShape([1, 2]))")),
    ("broadcast_dynamic_shape tuple, int64 array", _C, _eager(
        "tf.broadcast_dynamic_shape((1, 2), np.array([1, 2], np.int64))")),
    ("broadcast_dynamic_shape int64 array, tuple of floats", _C, _eager(
        "tf.broadcast_dynamic_shape(np.array([1, 2], np.int64), (1.0, 2))")),
    # make_tensor_proto's dense dimensions in a graph (fz14 seed 1420261202 #399)
    ("list of rank-1 arrays, traced", _C, _traced("tf.constant([np.array([1, 2]), np.array([3, 4])])")),
    ("list of rank-1 arrays", _C, _eager("tf.constant([np.array([1, 2]), np.array([3, 4])])")),
    ("list of 0-d arrays, traced", _C, _traced("tf.constant([np.array(1), np.array(2)])")),
    ("list with a later array, traced", _C, _traced("tf.constant([[1, 2], np.array([3, 4])])")),
    ("nested list with an inner array, traced", _C, _traced("tf.add([[np.array([1, 2])]], 1)")),
    ("reduce_join of a tuple holding an array, traced", _C, _traced(
        "tf.strings.reduce_join((np.array([[1, 2]], np.uint32), [[1, 2]]))")),
    ("list of empty arrays, traced", _C, _traced("tf.constant([np.array([]), np.array([])])")),
    # Conv2DBackpropInputV2's inputs share T (fz14 seed 1420261217 #21)
    ("conv2d_backprop_input_v2 float list beside uint64", _C, _eager(
        "tf.conv2d_backprop_input_v2(tf.ones([4, 3, 2], tf.uint64), filter=tf.ones([3, 2], tf.uint64), "
        "out_backprop=[[0.5, 2.5]], strides=[3, 2], padding='SAME')")),
    ("conv2d_backprop_input_v2 int list beside uint64", _C, _eager(
        "tf.conv2d_backprop_input_v2(tf.ones([4, 3, 2], tf.uint64), filter=tf.ones([3, 2], tf.uint64), "
        "out_backprop=[[1, 2]], strides=[3, 2], padding='SAME')")),
    ("conv2d_backprop_filter_v2 float list beside int32", _C, _eager(
        "tf.conv2d_backprop_filter_v2(tf.ones([4, 3, 2], tf.int32), filter=tf.ones([3, 2], tf.int32), "
        "out_backprop=[[0.5, 2.5]], strides=[3, 2], padding='SAME')")),
    # the fresh campaign's classes (fz14 seed 1420261218 #29, #38, #5, #15, #30, #32)
    ("band_part np.int64 num_lower, int num_upper", _C, _eager(
        "tf.linalg.band_part(np.ones([1, 3, 4], np.float32), np.int64(2), num_upper=0)")),
    ("band_part int num_lower, np.int64 num_upper", _C, _eager(
        "tf.linalg.band_part(np.ones([3, 4], np.float32), 2, np.int64(0))")),
    ("band_part int64 tensor, int", _C, _eager("tf.linalg.band_part(np.ones([3, 4], np.float32), "
                                               "tf.constant(1, tf.int64), 0)")),
    ("linspace int start, float32 tensor stop", _C, _eager("tf.linspace(2, tf.constant(0.5), 3, axis=0)")),
    ("linspace int start, float32 tensor stop, traced", _C, _traced("tf.linspace(2, tf.constant(0.5), 3)")),
    ("linspace float start, Python int stop", _C, _eager("tf.linspace(tf.constant(0.5), 2, 3)")),
    ("ensure_shape with a tensor shape, traced", _T, _traced(
        "tf.ensure_shape(tf.zeros([2, 3], tf.float64), tf.constant([], tf.int32))")),
    ("ensure_shape with a tensor shape, sig", _T, _sig("tf.ensure_shape(x, tf.constant([2, 3], tf.int32))",
                                                       ([2, 3], "float64"), "tf.zeros([2, 3], tf.float64)")),
    ("ensure_shape with a tensor shape", _T, _eager("tf.ensure_shape(tf.zeros([2, 3]), tf.constant([2, 3]))")),
    ("set_diag uint16 diagonal of the wrong shape", _T, _eager(
        "tf.linalg.set_diag(tf.zeros([4, 3], tf.float64), tf.ones([4, 3], tf.uint16))")),
    ("set_diag uint16 diagonal of the wrong shape, sig", _T, _sig(
        "tf.linalg.set_diag(x, tf.ones([4, 3], tf.uint16))", ([None, 3], "float64"), "tf.zeros([4, 3], tf.float64)")),
    ("conv2d_transpose batch stride, scalar filter", _T, _eager(
        "tf.nn.conv2d_transpose(3, 1, output_shape=tf.constant([4, 2, 2, 2]), strides=tf.constant([4, 2, 2, 2]), "
        "dilations=tf.TensorShape([4, 2, 2, 2]))")),
    ("conv2d batch stride, rank-3 input", _T, _eager(
        "tf.nn.conv2d(tf.ones([2, 2, 1]), tf.ones([1, 1, 1, 1]), strides=[2, 1, 1, 1], padding='SAME')")),
    ("conv2d batch dilation, rank-3 filter", _T, _eager(
        "tf.nn.conv2d(tf.ones([2, 2, 1]), tf.ones([1, 1, 1]), strides=1, padding='SAME', dilations=[2, 1, 1, 1])")),
    ("range of a tuple", _T, _eager("tf.range((0, 1))")),
    ("range of a tuple, traced", _T, _traced("tf.range((0, 1))")),
    ("range of a 1-element list", _T, _eager("tf.range([3])")),
    ("range of a 1-element tensor delta", _T, _eager("tf.range(0, 5, tf.constant([2]))")),
    ("softmax_cross_entropy_with_logits tuple axis", _T, _eager(
        "tf.nn.softmax_cross_entropy_with_logits(np.ones([2, 3], np.float32), logits=np.ones([2, 3], np.float32), "
        "axis=(0, 1))")),
    ("softmax_cross_entropy_with_logits tuple axis, traced", _T, _traced(
        "tf.nn.softmax_cross_entropy_with_logits(np.ones([2, 3], np.float32), logits=np.ones([2, 3], np.float32), "
        "axis=(0, 1))")),
    ("softmax_cross_entropy_with_logits 1-element list axis", _T, _eager(
        "tf.nn.softmax_cross_entropy_with_logits(np.ones([2, 3], np.float32), logits=np.ones([2, 3], np.float32), "
        "axis=[0])")),
    # the second fresh campaign's classes (fz14 seed 1420261218 #42, #43, #46, #70, #83, #86, #106, #111)
    ("batch_to_space rank-1 input, sig", _T, _sig("tf.batch_to_space(x, tf.constant([1, 2, 2]), tf.constant([[1, 0]]))",
                                                  ([2], "float32"), "tf.constant([-1.5, 0.5])")),
    ("batch_to_space rank-1 input, bad crops", _T, _eager(
        "tf.batch_to_space(tf.ones([2]), [2, 2, 2], [[0, 0]])")),
    ("space_to_batch_nd rank-1 input, bad paddings", _T, _eager(
        "tf.space_to_batch_nd(tf.ones([2]), [2, 2, 2], [[0, 0]])")),
    ("det of a float16 vector, traced", _T, _traced("tf.linalg.det(tf.constant([0.25], tf.float16))")),
    ("det of a float16 vector", _T, _eager("tf.linalg.det(tf.constant([0.25], tf.float16))")),
    ("histogram_fixed_width_bins nbins -1 of int values, sig", _T, _sig(
        "tf.histogram_fixed_width_bins(values=x, value_range=[0.0, 1.0], nbins=-1)", ([], "int32"), "tf.constant(5)")),
    ("histogram_fixed_width_bins nbins -1", _T, _eager(
        "tf.histogram_fixed_width_bins(tf.constant([0.5]), [0.0, 1.0], nbins=-1)")),
    ("diag k=2 with too few columns", _T, _eager("tf.linalg.diag([[2.5], [-1.5]], k=2, num_cols=1)")),
    ("diag with too few rows", _T, _eager("tf.linalg.diag([1.0, 2.0], k=-1, num_rows=2)")),
    ("conv3d bool input, huge int filter", _C, _eager(
        "tf.nn.conv3d(input=tf.constant([False, True]), filters=-(2 ** 63), strides=(3,), padding='VALID')")),
    ("reduce_join of floats with a NumPy axis", _C, _eager(
        "tf.strings.reduce_join([[0.5, 1.0]], axis=np.int64(0), keepdims=True)")),
    ("reduce_join of floats with a list axis", _C, _eager("tf.strings.reduce_join([[0.5, 1.0]], axis=[0])")),
    ("reduce_join of floats with an int axis", _C, _eager("tf.strings.reduce_join([[0.5, 1.0]], axis=0)")),
    ("tensor_scatter_nd_min int8 array, uint8 variable updates", _C, _eager(
        "tf.tensor_scatter_nd_min(np.array([-4, 1], np.int8), tf.constant([[0], [1]]), "
        "tf.Variable(np.array([5, 2], np.uint8)))")),
    ("ints beyond int64 to float64", _C, _eager("tf.constant([2 ** 64 - 1, 3], tf.float64)")),
    ("ints beyond int64 to float32, traced", _C, _traced("tf.constant([[2 ** 64 - 1], [-(2 ** 63) - 1]], tf.float32)")),
    ("float tensor minus a list with an int beyond int64", _C, _eager("tf.constant([1.0, 2.0]) - [2 ** 64, 3]")),
    ("inferred list, int beyond int64 first", _C, _eager("tf.constant([2 ** 64, 1.5])")),
    ("inferred list, int beyond int64 after a float", _C, _eager("tf.constant([1.5, 2 ** 64])")),
    # the third fresh range (fz14 seed 1420261218 #123, #130, #146, #172, #199, #206)
    ("in_top_k NumPy float16 targets, int predictions", _C, _eager("tf.math.in_top_k(np.float16(-1.5), 0, 2)")),
    ("in_top_k int64 tensor predictions", _C, _eager("tf.math.in_top_k([0], tf.constant([[1]], tf.int64), 1)")),
    ("space_to_batch_nd float32 paddings, traced", _T, _traced(
        "tf.space_to_batch_nd(tf.ones([2, 2]), tf.constant([], tf.int32), tf.constant([]))")),
    ("batch_to_space float32 crops, traced", _T, _traced(
        "tf.batch_to_space(tf.ones([4, 1, 1, 1]), [2, 2], tf.constant([[0.0, 0.0], [0.0, 0.0]]))")),
    ("conv2d_transpose empty strides, NCHW", _T, _eager(
        "tf.nn.conv2d_transpose(np.array(True), 2, output_shape=np.array([], np.int64), strides=(), "
        "data_format='NCHW')")),
    ("conv2d_transpose empty strides, NCHW, traced", _T, _traced(
        "tf.nn.conv2d_transpose(np.array(True), 2, output_shape=np.array([], np.int64), strides=(), "
        "data_format='NCHW')")),
    ("unsorted_segment_join of a NumPy float and a bfloat16 tensor", _C, _eager(
        "tf.strings.unsorted_segment_join([np.float32(1.5), tf.constant(7.0, tf.bfloat16)], [0], 1)")),
    ("convert a float and a float64 tensor to int8", _C, _eager(
        "tf.convert_to_tensor([2.5, tf.constant(1.0, tf.float64)], dtype=tf.int8)")),
    ("tensordot scalar tensor axes", _C, _eager(
        "tf.linalg.tensordot(np.array([-0.0, -3.0], np.float32), tf.ones([2, 2]), tf.constant(-1))")),
    ("tensordot 1-element tensor axes", _C, _eager(
        "tf.linalg.tensordot(tf.ones([2]), tf.ones([2, 2]), tf.constant([1]))")),
    ("squeeze with a tensor axis", _C, _eager("tf.squeeze(tf.ones([2, 1]), axis=tf.constant(-1))")),
    ("squeeze with a 0-d array axis", _C, _eager("tf.squeeze(tf.ones([2, 1]), axis=np.array(-1))")),
    ("squeeze with a NumPy int axis", _C, _eager("tf.squeeze(tf.ones([2, 1]), axis=np.int64(-1))")),
    ("squeeze of a list with a tensor axis", _C, _eager("tf.squeeze([[1.0], [2.0]], axis=tf.constant(-1))")),
    ("squeeze with a 1-element tensor axis", _C, _eager("tf.squeeze(tf.ones([2, 1]), axis=tf.constant([-1]))")),
    ("squeeze with a tensor axis, traced", _C, _traced("tf.squeeze(tf.ones([2, 1]), axis=tf.constant(-1))")),
    ("ctc_greedy_decoder of a list mixing bools and floats", _C, _eager("tf.nn.ctc_greedy_decoder([True, -2.5], [0])")),
    # seed 1420261218 programs 220-319 (#251, #279, #305)
    ("to_hash_bucket float array, num_buckets -1", _C, _eager(
        "tf.strings.to_hash_bucket(np.array([0.0], np.float32), -1)")),
    ("to_hash_bucket_fast float array, num_buckets -1", _C, _eager(
        "tf.strings.to_hash_bucket_fast(np.array([0.0], np.float32), -1)")),
    ("to_hash_bucket float tensor, num_buckets -1", _C, _eager("tf.strings.to_hash_bucket(tf.constant([1.0]), -1)")),
    ("to_hash_bucket of an int MirroredVariable", _C, _dist("tf.strings.to_hash_bucket(input=v, num_buckets=2)",
                                                            "[1, 2]")),
    ("upper of an int MirroredVariable", _C, _dist("tf.strings.upper(v)", "[1, 2]")),
    ("det of a uint16 scalar, traced", _T, _traced("tf.linalg.det(np.array(5, np.uint16))")),
    ("irfftnd of an int32 scalar, traced", _T, _traced("tf.irfftnd(tf.saturate_cast(2, tf.int32), fft_length=(2, 0), "
                                                        "axes=[])")),
    ("rfftnd of an int32 vector, traced", _T, _traced("tf.rfftnd(tf.constant([1]), fft_length=[1], axes=[0])")),
    ("generate_bounding_box_proposals uint64 scores beside a list", _C, _eager(
        "tf.image.generate_bounding_box_proposals(tf.constant([2, 2], tf.uint64), bbox_deltas=[2, 2], "
        "image_info=np.array([3, 127], np.int8), anchors=tf.constant([0, -1], tf.int64))")),
    ("generate_bounding_box_proposals uint64 scores beside arrays", _C, _eager(
        "tf.image.generate_bounding_box_proposals(tf.constant([2, 2], tf.uint64), bbox_deltas=np.array([2.0, 2.0]), "
        "image_info=np.array([3, 127], np.int8), anchors=tf.constant([0, -1], tf.int64))")),
    ("as_dtype(True)", _C, _eager("tf.zeros([1], dtype=tf.dtypes.as_dtype(True))")),
    ("as_dtype(np.True_)", _C, _eager("tf.zeros([1], dtype=tf.dtypes.as_dtype(np.True_))")),
    ("as_dtype(1.0)", _C, _eager("tf.zeros([1], dtype=tf.dtypes.as_dtype(1.0))")),
    ("as_dtype(np.float32(3.0))", _C, _eager("tf.zeros([1], dtype=tf.dtypes.as_dtype(np.float32(3.0)))")),
    ("as_dtype(False)", _C, _eager("tf.zeros([1], dtype=tf.dtypes.as_dtype(False))")),
    ("strided_slice begin and end of two lengths, traced", _T, _traced("tf.strided_slice(2.5, [2, 3, 3, 3], [-1])")),
    ("strided_slice strides of another length, traced", _T, _traced(
        "tf.strided_slice(tf.ones([5]), [1], [3], [1, 1])")),
    ("strided_slice begin and end of two lengths", _T, _eager("tf.strided_slice(tf.ones([5]), [2, 3], [-1])")),
    # pad_to_bounding_box of an image of unknown rank (fz14 seed 1420261217 #66)
    ("pad_to_bounding_box unknown rank, rank-1 value", _T, _sig(
        "tf.image.pad_to_bounding_box(x, 1, 2, 2, 1)", (None, "float32"), "tf.constant([1.0])")),
    ("pad_to_bounding_box unknown rank, one image", _T, _sig(
        "tf.image.pad_to_bounding_box(x, 1, 1, 4, 4)", (None, "float32"), "tf.ones([2, 2, 1])")),
    ("pad_to_bounding_box unknown rank, a batch", _T, _sig(
        "tf.image.pad_to_bounding_box(x, 1, 1, 4, 4)", (None, "float32"), "tf.ones([1, 2, 2, 1])")),
    ("pad_to_bounding_box unknown rank, too small a target", _T, _sig(
        "tf.image.pad_to_bounding_box(x, 1, 1, 2, 2)", (None, "float32"), "tf.ones([2, 2, 1])")),
    ("pad_to_bounding_box unknown rank, negative offset", _T, _sig(
        "tf.image.pad_to_bounding_box(x, -1, 1, 4, 4)", (None, "float32"), "tf.ones([2, 2, 1])")),
    ("pad_to_bounding_box rank 1", _T, _sig(
        "tf.image.pad_to_bounding_box(x, 1, 1, 4, 4)", ([None], "float32"), "tf.ones([2])")),
    # tf.strings.unicode_script
    ("unicode_script every code point", _U, _script_runs),
    ("unicode_script list", _U, _eager("tf.strings.unicode_script([65, 0x3042, -5, 0x110000, 0x10FFFF, 0xD800])")),
    ("unicode_script scalar", _U, _eager("tf.strings.unicode_script(0x0E01)")),
    ("unicode_script rank 2", _U, _eager("tf.strings.unicode_script([[65, 0x0400], [0x05D0, 0x0627]])")),
    ("unicode_script int64 array", _U, _eager("tf.strings.unicode_script(np.array([65, 66], np.int64))")),
    ("unicode_script float64 array", _U, _eager("tf.strings.unicode_script(np.array([65.5], np.float64))")),
    ("unicode_script Python float", _U, _eager("tf.strings.unicode_script(2.5)")),
    ("unicode_script int64 tensor", _U, _eager("tf.strings.unicode_script(tf.constant([65], tf.int64))")),
    ("unicode_script float tensor, traced", _U, _traced("tf.strings.unicode_script(tf.constant([65.0]))")),
    ("unicode_script ragged", _U, _eager(
        "tf.strings.unicode_script(tf.ragged.constant([[65, 66], [0x3042]])).flat_values")),
    ("unicode_script traced", _U, _traced("tf.strings.unicode_script(tf.constant([0x1F600, 0x10400]))")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.operation-results")
@EDGES.parametrize("function.operation-results")
def test_traced_operations(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_unknown_rank_image(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.strings-unicode-script")
@EDGES.parametrize("ops.strings-unicode-script")
def test_unicode_script(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz17_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
