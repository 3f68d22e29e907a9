"""Rules behind issue 29's fourteenth-generator classes fz20 analysed (seed 1420261219 programs
320-479, seed 1420262001) and the op gaps it closed, each against real TensorFlow 2.21: the same
call on both backends gives the same dtype and values, or raises the same exception class. Eagerly, in a
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


_ATTR = "ops.attr-types"
_T = "function.trace-time-errors"
_SYM = "function.symbolic-tensors"
_NMS = "ops.image-boxes"
_NN = "ops.nn-ctc"
_DROP = "nn.dropout-seeding"
_REP = "keras.layer.upsampling-padding"
_X1 = "tf.reshape(tf.range(10, dtype=tf.float64), [1, 5, 2])"
_K1 = "tf.ones([2, 2, 3], tf.float64)"

_B3 = "tf.ones((2, 2, 2))"
_B4 = "tf.ones((2, 3, 1, 4))"
_S3 = "tf.ones((2, 3, 2))"
_CNMS = "tf.image.combined_non_max_suppression"
_NMSO = "tf.image.non_max_suppression_overlaps"
_O = "np.array([[0.0, 0.7, 0.2], [0.7, 0.0, 0.1], [0.2, 0.1, 0.0]], np.float32)"
_OU = "np.zeros((3, 3), np.uint32)"
_SC = "tf.constant([1.0, 2.0, 3.0])"
_H = "np.array([[[[0.5, -1.25, 3.0, 7.5, -0.125, 2.0, 100.0, -3.5]]]], np.float16)"
_LRN = "ops.nn-more"
_I8 = "tf.constant([[100, -100, 7], [1, 2, 3]], tf.int8)"
_U8 = "tf.constant([[200, 1], [3, 255], [9, 9]], tf.uint8)"
_BX = "tf.constant([[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1]])"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # tensordot's int axes: a's rank checked, b's indexed (fz14 seed 1420261219 #335)
    ("tensordot axes beyond b's rank", _ATTR, _eager(
        "tf.linalg.tensordot(a=tf.constant([[7, 7, 7]], tf.uint64), b=np.complex64(complex(7.0, 4.0)), "
        "axes=np.int64(1))")),
    ("tensordot axes beyond a's rank", _ATTR, _eager("tf.linalg.tensordot(a=tf.constant(2.0), b=tf.ones([3]), axes=1)")),
    ("tensordot axes beyond b's rank, traced", _ATTR, _traced(
        "tf.linalg.tensordot(tf.ones([2, 3], tf.float64), tf.constant(2.0, tf.float64), axes=1)")),
    ("tensordot axes 0 of a scalar b", _ATTR, _eager(
        "tf.linalg.tensordot(tf.constant([1.0, 2.0], tf.float64), tf.constant(2.0, tf.float64), axes=0)")),
    # atrous_conv2d's np.broadcast_to(rate) in TF's Python (fz14 seed 1420261219 #373)
    ("atrous_conv2d graph-tensor rate, sig", _SYM, _sig(
        "tf.nn.atrous_conv2d(False, np.uint64(1), tf.constant(0.5), padding='SAME')", ([3], "uint64"),
        "tf.constant([2, 1, 7], tf.uint64)")),
    ("atrous_conv2d argument rate, sig", _SYM, _sig(
        "tf.nn.atrous_conv2d(tf.ones([1, 5, 5, 1], tf.float64), tf.ones([2, 2, 1, 1], tf.float64), x, "
        "padding='SAME')", ([], "int32"), "tf.constant(2)")),
    ("atrous_conv2d variable rate, traced", _SYM, _var_traced(
        "tf.nn.atrous_conv2d(tf.ones([1, 5, 5, 1], tf.float64), tf.ones([2, 2, 1, 1], tf.float64), v, "
        "padding='SAME')", "tf.Variable(2)")),
    ("atrous_conv2d eager tensor rate", _SYM, _eager(
        "tf.nn.atrous_conv2d(tf.ones([1, 5, 5, 1], tf.float64), tf.ones([2, 2, 1, 1], tf.float64), tf.constant(2), "
        "padding='SAME')")),
    ("atrous_conv2d int rate, traced", _SYM, _traced(
        "tf.nn.atrous_conv2d(tf.ones([1, 5, 5, 1], tf.float64), tf.ones([2, 2, 1, 1], tf.float64), 2, "
        "padding='VALID')")),
    # ctc_unique_labels: map_fn's list, Unique's shape function on zero rows (fz14 seed 1420261219 #405)
    ("ctc_unique_labels returns a list", _NN, _eager(
        "tf.constant(isinstance(tf.nn.ctc_unique_labels(tf.constant([[1, 2, 2]])), list))")),
    ("ctc_unique_labels of zero 4-d rows", _NN, _eager("tf.nn.ctc_unique_labels(tf.zeros([0, 4, 1, 3], tf.bool))")),
    ("ctc_unique_labels of zero 4-d rows, traced", _NN, _traced(
        "tf.nn.ctc_unique_labels(tf.zeros([0, 4, 1, 3], tf.bool))")),
    ("ctc_unique_labels of zero scalar rows, traced", _NN, _traced("tf.nn.ctc_unique_labels(tf.zeros([0], tf.int32))")),
    ("ctc_unique_labels of zero vector rows, traced", _NN, _traced(
        "tf.nn.ctc_unique_labels(tf.zeros([0, 3], tf.int32))")),
    ("ctc_unique_labels of a matrix, traced", _NN, _traced(
        "tf.nn.ctc_unique_labels(tf.constant([[3, 1, 3], [2, 2, 0]]))")),
    # CombinedNonMaxSuppression: the eager fallback's conversions, the kernel's order (fz14 seed 1420261219 #360)
    ("combined_nms fallback of complex scores", _NMS, _eager(
        f"{_CNMS}(tf.ones((2, 2, 2)), tf.constant([[1, 2], [3, 4]], tf.complex64), [[[False, False], [False, False]], "
        "[[True, True], [True, True]]], [[True]], iou_threshold=0, clip_boxes=True)")),
    ("combined_nms fast path of complex scores", _NMS, _eager(
        f"{_CNMS}(tf.ones((2, 2, 2)), tf.constant([[1, 2], [3, 4]], tf.complex64), 2, 3)")),
    ("combined_nms fallback of a bool max_total_size", _NMS, _eager(f"{_CNMS}({_B4}, {_S3}, [1], [True])")),
    ("combined_nms rank-3 boxes, per class 0", _NMS, _eager(f"{_CNMS}({_B3}, {_S3}, 0, 3)")),
    ("combined_nms rank-3 boxes, total 0", _NMS, _eager(f"{_CNMS}({_B3}, {_S3}, 1, 0)")),
    ("combined_nms rank-3 boxes, iou 2", _NMS, _eager(f"{_CNMS}({_B3}, {_S3}, 1, 1, iou_threshold=2.0)")),
    ("combined_nms rank-3 boxes", _NMS, _eager(f"{_CNMS}({_B3}, {_S3}, 1, 1)")),
    ("combined_nms rank-3 boxes, vector per class", _NMS, _eager(f"{_CNMS}({_B3}, {_S3}, [1, 2], 1)")),
    ("combined_nms batch mismatch", _NMS, _eager(f"{_CNMS}({_B4}, tf.ones((3, 3, 2)), [1], 1)")),
    ("combined_nms rank-4 scores", _NMS, _eager(f"{_CNMS}({_B4}, tf.ones((2, 3, 1, 1)), 1, 1)")),
    ("combined_nms rank-4 scores, rank-3 boxes", _NMS, _eager(f"{_CNMS}({_B3}, tf.ones((2, 3, 2, 1)), 1, 1)")),
    ("combined_nms boxes of 3 columns", _NMS, _eager(f"{_CNMS}(tf.ones((2, 3, 1, 3)), {_S3}, 1, 1)")),
    ("combined_nms computes", _NMS, _eager(
        f"{_CNMS}(tf.constant([[[[0.0, 0.0, 1.0, 1.0]], [[0.0, 0.1, 1.0, 1.1]], [[0.5, 0.5, 2.0, 2.0]]]]), "
        "tf.constant([[[0.9, 0.1], [0.8, 0.7], [0.3, 0.6]]]), 2, 3, iou_threshold=0.5)")),
    # NonMaxSuppressionWithOverlaps: the wrapper's threshold, the eager fallback (fz14 seed 1420261219 #400)
    ("nms_overlaps fallback of int64 scores", _NMS, _eager(
        f"{_NMSO}(np.zeros((3, 1, 4, 4), np.uint32), tf.constant(np.zeros((1, 4, 4), np.int64)), np.int64(2))")),
    ("nms_overlaps fast path of int64 scores", _NMS, _eager(f"{_NMSO}({_OU}, tf.constant([1, 2, 3], tf.int64), 2)")),
    ("nms_overlaps uint32 overlaps, NumPy size", _NMS, _eager(f"{_NMSO}({_OU}, {_SC}, np.int64(2))")),
    ("nms_overlaps NumPy size", _NMS, _eager(f"{_NMSO}({_O}, {_SC}, np.int64(2), overlap_threshold=0.5)")),
    ("nms_overlaps int threshold", _NMS, _eager(f"{_NMSO}({_O}, {_SC}, 2, overlap_threshold=0)")),
    ("nms_overlaps int threshold, NumPy size", _NMS, _eager(f"{_NMSO}({_O}, {_SC}, np.int64(2), overlap_threshold=1)")),
    ("nms_overlaps list overlaps", _NMS, _eager(f"{_NMSO}({_O}.tolist(), {_SC}, 2)")),
    ("nms_overlaps list overlaps, int64 scores", _NMS, _eager(
        f"{_NMSO}({_O}.tolist(), tf.constant([1, 2, 3], tf.int64), 2)")),
    ("nms_overlaps float64 overlaps, NumPy size", _NMS, _eager(
        f"{_NMSO}(tf.constant({_O}, tf.float64), {_SC}, np.int32(2))")),
    ("nms_overlaps list size", _NMS, _eager(f"{_NMSO}({_OU}, {_SC}, [2])")),
    ("nms_overlaps int threshold, traced", _NMS, _traced(f"{_NMSO}({_O}, {_SC}, 2, overlap_threshold=0)")),
    # tf.repeat with a vector of counts (repeat_with_axis's sequence-mask branch; the op gap fz19 left)
    ("repeat strings by counts", _REP, _eager("tf.repeat(['a', 'b', 'c'], repeats=[3, 0, 2], axis=0)")),
    ("repeat rows by counts", _REP, _eager("tf.repeat([[1, 2], [3, 4]], repeats=[2, 3], axis=0)")),
    ("repeat columns by counts", _REP, _eager("tf.repeat([[1, 2], [3, 4]], repeats=[2, 3], axis=1)")),
    ("repeat flattened by counts", _REP, _eager("tf.repeat([[1, 2], [3, 4]], repeats=[1, 0, 2, 3])")),
    ("repeat flattened, counts too short", _REP, _eager("tf.repeat([[1, 2], [3, 4]], repeats=[1, 2])")),
    ("repeat last axis of 3-d", _REP, _eager(
        "tf.repeat(tf.reshape(tf.range(12.0), [2, 3, 2]), repeats=[2, 1], axis=-1)")),
    ("repeat middle axis of 3-d", _REP, _eager(
        "tf.repeat(tf.reshape(tf.range(12.0, dtype=tf.float64), [2, 3, 2]), repeats=[0, 1, 3], axis=1)")),
    ("repeat negative count, axis 0", _REP, _eager("tf.repeat([1, 2, 3], repeats=[-1, 2, 1], axis=0)")),
    ("repeat negative count, axis 1", _REP, _eager("tf.repeat([[1, 2], [3, 4]], repeats=[-1, 2], axis=1)")),
    ("repeat all-zero counts", _REP, _eager("tf.repeat([1.0, 2.0], repeats=[0, 0], axis=0)")),
    ("repeat int64 counts", _REP, _eager("tf.repeat([1.0, 2.0], repeats=tf.constant([2, 1], tf.int64), axis=0)")),
    ("repeat float counts", _REP, _eager("tf.repeat([1.0, 2.0], repeats=[2.0, 1.0], axis=0)")),
    ("repeat matrix of counts", _REP, _eager("tf.repeat([1.0, 2.0], repeats=[[2, 1]], axis=0)")),
    ("repeat empty counts", _REP, _eager("tf.repeat([1.0, 2.0], repeats=[], axis=0)")),
    ("repeat scalar input by counts", _REP, _eager("tf.repeat(3.0, repeats=[2, 1], axis=0)")),
    ("repeat by counts, traced", _REP, _traced(
        "tf.repeat(tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64), [1, 2], axis=1)")),
    ("repeat by counts, tape", _REP, _tape("tf.repeat(x, [3, 1], axis=1) * tf.constant([1.0, 2.0, 3.0, 4.0], "
                                           "tf.float64)", "tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64)")),
    ("repeat rows by counts, tape", _REP, _tape("tf.repeat(x, [2, 0, 1], axis=0)",
                                                "tf.constant([[1.0], [2.0], [3.0]], tf.float64)")),
    # conv1d's stride through _get_sequence: a float is one element, make_int truncates it (the op gap fz19 left)
    ("conv1d float stride", _ATTR, _eager(f"tf.nn.conv1d({_X1}, {_K1}, stride=2.5, padding='SAME')")),
    ("conv1d float stride 2.0", _ATTR, _eager(f"tf.nn.conv1d({_X1}, {_K1}, stride=2.0, padding='VALID')")),
    ("conv1d float stride below 1", _ATTR, _eager(f"tf.nn.conv1d({_X1}, {_K1}, stride=0.5, padding='VALID')")),
    ("conv1d NumPy float stride", _ATTR, _eager(f"tf.nn.conv1d({_X1}, {_K1}, stride=np.float32(2), padding='VALID')")),
    ("conv1d list float stride", _ATTR, _eager(f"tf.nn.conv1d({_X1}, {_K1}, stride=[1.5], padding='VALID')")),
    ("conv1d full float strides", _ATTR, _eager(f"tf.nn.conv1d({_X1}, {_K1}, stride=[1, 2.0, 1], padding='VALID')")),
    ("conv1d string stride", _ATTR, _eager(f"tf.nn.conv1d({_X1}, {_K1}, stride='2', padding='VALID')")),
    ("conv1d float dilations", _ATTR, _eager(f"tf.nn.conv1d({_X1}, {_K1}, stride=1, padding='VALID', dilations=2.0)")),
    ("conv1d float stride, traced", _ATTR, _traced(f"tf.nn.conv1d({_X1}, {_K1}, stride=2.5, padding='SAME')")),
    ("conv2d float strides", _ATTR, _eager(
        "tf.nn.conv2d(tf.ones([1, 4, 4, 1], tf.float64), tf.ones([2, 2, 1, 1], tf.float64), strides=2.0, "
        "padding='VALID')")),
    # the eager fallback refuses a sequence list(int) attr and converts T's inputs to the first tensor's
    # dtype (fz14 seed 1420262001 #51, #131, #166, #225)
    ("conv NumPy-scalar filter, TensorShape strides", _ATTR, _eager(
        "tf.conv(tf.ones((3, 3, 3)), np.float32(0.001), tf.TensorShape([2, 3]), 'same')")),
    ("conv np.float64 filter, TensorShape strides", _ATTR, _eager(
        "tf.conv(tf.ones((3, 3, 3)), np.float64(0.001), tf.TensorShape([2, 3]), 'same')")),
    ("conv list filter, TensorShape strides", _ATTR, _eager(
        "tf.conv(tf.ones((3, 3, 3)), [1.0], tf.TensorShape([2, 3]), 'same')")),
    ("conv tensor filter, TensorShape strides", _ATTR, _eager(
        "tf.conv(tf.ones((3, 3, 3)), tf.ones([1, 1, 3, 1]), tf.TensorShape([1, 1, 1]), 'SAME')")),
    ("conv2d_backprop_filter_v2 NumPy out_backprop, TensorShape strides", _ATTR, _eager(
        "tf.conv2d_backprop_filter_v2(input=tf.ones(3), filter=np.array([1+1j, 2, 3], np.complex128), "
        "out_backprop=np.float32(0.001), strides=tf.TensorShape([3]), padding='same', data_format='NHWC')")),
    ("nms_with_scores fallback of int8 boxes", _NMS, _eager(
        "tf.image.non_max_suppression_with_scores(tf.constant(3, dtype='int8'), scores=1, max_output_size=np.int64(2), "
        "soft_nms_sigma=3.0)")),
    ("nms_with_scores int8 boxes on the fast path", _NMS, _eager(
        "tf.image.non_max_suppression_with_scores(tf.constant(3, dtype='int8'), scores=1, max_output_size=2)")),
    ("nms_with_scores all-tensor fallback", _NMS, _eager(
        f"tf.image.non_max_suppression_with_scores({_BX}, tf.constant([0.9, 0.8], tf.float64), np.int64(2))")),
    ("nms_with_scores float16 boxes, list scores", _NMS, _eager(
        f"tf.image.non_max_suppression_with_scores(tf.cast({_BX}, tf.float16), [0.9, 0.8], np.int64(2))")),
    ("nms_with_scores NumPy size computes", _NMS, _eager(
        f"tf.image.non_max_suppression_with_scores({_BX}, [0.9, 0.8], np.int64(2))")),
    ("nms int8 boxes, float scores, NumPy size", _NMS, _eager(
        "tf.image.non_max_suppression(tf.constant(3, dtype='int8'), scores=0.5, max_output_size=np.int64(2))")),
    ("nms list boxes, float64 scores, NumPy size", _NMS, _eager(
        f"tf.image.non_max_suppression({_BX}.numpy().tolist(), tf.constant([0.9, 0.8], tf.float64), np.int64(2))")),
    ("nms float64 scores, NumPy size", _NMS, _eager(
        f"tf.image.non_max_suppression({_BX}, tf.constant([0.9, 0.8], tf.float64), np.int64(2))")),
    ("with_space_to_batch float32 rate", _ATTR, _eager(
        "tf.nn.with_space_to_batch(tf.Variable([-1.0]), tf.constant([4.0], dtype=np.float32), 'same', op='sum', "
        "data_format='NCHW')")),
    ("with_space_to_batch int64 rate", _ATTR, _eager(
        "tf.nn.with_space_to_batch(tf.ones([1, 4, 1]), tf.constant([2], tf.int64), 'VALID', op=lambda i, n, p: i * 2.0)")),
    ("with_space_to_batch int32 rate", _ATTR, _eager(
        "tf.nn.with_space_to_batch(tf.ones([1, 4, 1]), tf.constant([2]), 'VALID', op=lambda i, n, p: i * 2.0)")),
    # a string wrapper's own conversion in a graph, op_def_library's of a list with a tensor, unknown ranks
    # (fz14 seed 1420261202 #663, #952, #957; seed 1420262001 #186, #199)
    ("strings.split of a float ndarray, traced", _T, _traced("tf.strings.split(np.array([-1.5, 0.25], np.float32))")),
    ("strings.split of a float ndarray", _T, _eager("tf.strings.split(np.array([-1.5, 0.25], np.float32))")),
    ("strings.ngrams of a float ndarray, traced", _T, _traced("tf.strings.ngrams(np.array([[-1.5], [0.25]]), 2)")),
    ("strings.split of an int list, traced", _T, _traced("tf.strings.split([1, 2])")),
    ("strings.length of a float ndarray, traced", _T, _traced("tf.strings.length(np.array([1.0], np.float32))")),
    ("unsorted_segment_join of a tuple with a tensor, traced", _T, _traced(
        "tf.strings.unsorted_segment_join(inputs=(tf.constant(2.5), np.int16(2)), segment_ids=[1], num_segments=-1)")),
    ("unsorted_segment_join of a tuple with a tensor", _T, _eager(
        "tf.strings.unsorted_segment_join(inputs=(tf.constant(2.5), np.int16(2)), segment_ids=[1], num_segments=-1)")),
    ("unsorted_segment_join of a list of strings and a tensor, traced", _T, _traced(
        "tf.strings.unsorted_segment_join(inputs=[tf.constant('a'), 'b'], segment_ids=[0, 1], num_segments=2)")),
    ("bytes_split of an unknown rank, sig", _T, _sig("tf.strings.bytes_split(x)", (None, "uint32"),
                                                     "tf.constant([1], tf.uint32)")),
    ("bytes_split of a known rank, sig", _T, _sig("tf.strings.bytes_split(x)", ([1], "uint32"),
                                                  "tf.constant([1], tf.uint32)")),
    ("image.transpose of an unknown rank, sig", _T, _sig("tf.image.transpose(x)", (None, "uint32"),
                                                         "tf.constant(2, tf.uint32)")),
    ("image.transpose of an unknown rank 3-d, sig", _T, _sig("tf.image.transpose(x)", (None, "uint32"),
                                                             "tf.ones([2, 3, 1], tf.uint32)")),
    ("image.flip_left_right of an unknown rank, sig", _T, _sig("tf.image.flip_left_right(x)", (None, "float32"),
                                                               "tf.ones([2, 3], tf.float32)")),
    ("image.transpose of a scalar", _T, _eager("tf.image.transpose(tf.constant(2.0))")),
    # tf.matmul(..., output_type=T): BatchMatMulV3's kernels (the op gap fz19 left; fz14 seed 14 #78, 1420261219 #277)
    ("matmul int8 x uint8 to int32", _ATTR, _eager(f"tf.matmul({_I8}, {_U8}, output_type=tf.int32)")),
    ("matmul int8 x int8 transposed to int32", _ATTR, _eager(
        f"tf.matmul({_I8}, {_I8}, transpose_b=True, output_type=tf.int32)")),
    ("matmul uint8 adjoint to int32", _ATTR, _eager(f"tf.matmul({_U8}, {_U8}, adjoint_a=True, output_type=tf.int32)")),
    ("matmul int8 to float32: no kernel", _ATTR, _eager(
        f"tf.matmul({_I8}, {_I8}, transpose_b=True, output_type=tf.float32)")),
    ("matmul int32 x float32 to int32: no kernel", _ATTR, _eager(
        "tf.matmul(tf.constant([[1]]), tf.constant([[1.0]]), output_type=tf.int32)")),
    ("matmul int32 to int64: no kernel", _ATTR, _eager(
        "tf.matmul(tf.constant([[1]]), tf.constant([[1]]), output_type=tf.int64)")),
    ("matmul int32 to int32", _ATTR, _eager("tf.matmul(tf.constant([[1]]), tf.constant([[2]]), output_type=tf.int32)")),
    ("matmul batched int8 to int32", _ATTR, _eager(
        "tf.matmul(tf.ones([2, 2, 3], tf.int8), tf.ones([3, 4], tf.int8), output_type=tf.int32)")),
    ("matmul int8 x bfloat16 to bfloat16 (shape)", _ATTR, _eager(
        f"tf.shape(tf.matmul({_I8}, tf.constant([[0.5], [0.25], [2.0]], tf.bfloat16), output_type=tf.bfloat16))")),
    ("matmul int8 vector to int32", _ATTR, _eager(
        "tf.matmul(tf.constant([1, 2], tf.int8), tf.constant([[1], [2]], tf.int8), output_type=tf.int32)")),
    ("matmul int8 mismatched to int32", _ATTR, _eager(f"tf.matmul({_I8}, {_I8}, output_type=tf.int32)")),
    ("matmul int8 x uint8 to int32, traced", _ATTR, _traced(f"tf.matmul({_I8}, {_U8}, output_type=tf.int32)")),
    ("matmul of scalars to int32, sig", _ATTR, _sig(
        "tf.matmul(a=np.int16(2), b=x, a_is_sparse=np.bool_(True), output_type=np.int32)", ([], "int32"),
        "tf.constant(3)")),
    ("matmul int16 x int32 to int32: no kernel, traced", _ATTR, _traced(
        "tf.matmul(tf.ones([2, 2], tf.int16), tf.ones([2, 2], tf.int32), output_type=tf.int32)")),
    ("matmul int8 to int32 wraps", _ATTR, _eager(
        "tf.matmul(tf.fill([1, 300000], tf.constant(127, tf.int8)), tf.fill([300000, 1], tf.constant(127, tf.int8)), "
        "output_type=tf.int32)")),
    # float16 LRN with its attributes (the op gap fz19 left), of a float16 tensor; beta 1 and 0.5 take
    # Eigen's reciprocal/rsqrt (dtype and shape only), others exp(log)
    ("lrn float16 r0 beta 0.75", _LRN, _eager(
        f"tf.nn.local_response_normalization(tf.constant({_H}), depth_radius=0, bias=1.0, alpha=1.0, beta=0.75)")),
    ("lrn float16 r1 beta 0.3", _LRN, _eager(
        f"tf.nn.local_response_normalization(tf.constant({_H}), depth_radius=1, bias=0.5, alpha=0.3, beta=0.3)")),
    ("lrn float16 r3 beta 2", _LRN, _eager(
        f"tf.nn.local_response_normalization(tf.constant({_H}), depth_radius=3, bias=2.0, alpha=1e-4, beta=2.0)")),
    ("lrn float16 beta 0.5 (dtype)", _LRN, _eager(
        f"tf.zeros_like(tf.nn.local_response_normalization(tf.constant({_H}), depth_radius=2, bias=1.0, alpha=0.3, "
        "beta=0.5))")),
    ("lrn float16 r0 beta 0.75, tape", _LRN, _tape(
        "tf.nn.local_response_normalization(x, depth_radius=0, bias=1.0, alpha=1.0, beta=0.75)", f"tf.constant({_H})")),
    ("lrn float16 r3 alpha 1 beta 0.75, tape", _LRN, _tape(
        "tf.nn.local_response_normalization(x, depth_radius=3, bias=1.0, alpha=1.0, beta=0.75)", f"tf.constant({_H})")),
    ("lrn float16 r1 traced", _LRN, _traced(
        f"tf.nn.local_response_normalization(tf.constant({_H}), depth_radius=1, bias=1.0, alpha=0.3, beta=0.3)")),
    # dropout's rate dtype (fz14 seed 1420261219 #474)
    ("dropout float32 rate of float64 x", _DROP, _eager("tf.nn.dropout(tf.constant(4.0, tf.float64), tf.constant(0.5))")),
    ("dropout float32 rate of float16 x", _DROP, _eager(
        "tf.nn.dropout(tf.constant([4.0], tf.float16), tf.constant(0.5))")),
    ("dropout int32 rate", _DROP, _eager("tf.nn.dropout(tf.constant([4.0]), tf.constant(0))")),
    ("dropout float64 rate, traced", _DROP, _traced(
        "tf.nn.dropout(tf.constant([4.0]), tf.constant(0.5, tf.float64))")),
    ("dropout float32 rate, tape", _DROP, _tape("tf.nn.dropout(x, tf.constant(0.5, tf.float64), seed=3)",
                                                "tf.constant(4.0, tf.float64)")),
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


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_wrapper_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.symbolic-tensors")
@EDGES.parametrize("function.symbolic-tensors")
def test_numpy_of_graph_values(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-ctc")
@EDGES.parametrize("ops.nn-ctc")
def test_ctc_unique_labels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image-boxes")
@EDGES.parametrize("ops.image-boxes")
def test_nms_conversions_and_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("keras.layer.upsampling-padding")
@EDGES.parametrize("keras.layer.upsampling-padding")
def test_repeat_by_counts(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-more")
@EDGES.parametrize("ops.nn-more")
def test_lrn_float16(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("nn.dropout-seeding")
@EDGES.parametrize("nn.dropout-seeding")
def test_dropout_rate_dtype(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz20_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
