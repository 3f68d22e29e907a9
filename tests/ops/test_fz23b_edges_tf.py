"""Rules behind the classes of issue 29's fresh campaigns that fz23b ran (fourteenth generator seed
1420262301, fourth generator seed 2301, fz14_seen.py's classes of seeds 1420262001 and 1420261202),
each against real TensorFlow 2.21: the same call on both backends gives the same dtype and values, or
raises the same exception class. Eagerly, in a tf.function (`traced`), with an input_signature
(`sig`: get_concrete_function on placeholders, then a call) and of a variable. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig, var_traced as _var_traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"
_C = "ops.conversion"
_ATTR = "ops.attr-types"
_SUB = "ops.subnormals"
_IMG = "tf.zeros((3, 4, 4, 3), tf.uint16)"
_B4 = "tf.constant([[[[True], [True], [False], [True]], [[True], [True], [False], [False]]]], dtype=tf.bool)"
_DW = "tf.nn.depthwise_conv2d_backprop_filter"

CASES: list[tuple[str, str, Any]] = [
    # GatherV2's axis input: converted with its inferred dtype, Taxis int32/int64 after Tindices, a scalar
    # (seed 1420262301 #74, fourth generator seed 2301 #32)
    ("gather axis [], batch_dims 2", _C, _eager("tf.gather(1.0, indices=[0], axis=[], batch_dims=2)")),
    ("gather axis [], traced", _C, _traced("tf.gather([1.0], indices=[0], axis=[])")),
    ("gather axis 0.0", _C, _eager("tf.gather([1.0], indices=[0], axis=0.0)")),
    ("gather axis [0]", _C, _eager("tf.gather([1.0], indices=[0], axis=[0])")),
    ("gather axis [0], traced", _C, _traced("tf.gather([1.0], indices=[0], axis=[0])")),
    ("gather axis int16 tensor", _C, _eager("tf.gather([1.0], indices=[0], axis=tf.constant(0, tf.int16))")),
    ("gather axis int64 tensor", _C, _eager("tf.gather([[1.0]], indices=[0], axis=tf.constant(1, tf.int64))")),
    ("gather float indices beside axis []", _C, _eager("tf.gather([1.0], indices=[0.0], axis=[])")),
    ("gather axis True", _C, _eager("tf.gather([1.0], indices=[0], axis=True)")),
    ("gather batch_dims 1, axis 1.0", _C, _eager("tf.gather([[1.0]], indices=[[0]], axis=1.0, batch_dims=1)")),
    ("gather of a matrix, axis [0]", _C, _eager("tf.gather(tf.ones((3, 3)), 0, axis=[0])")),
    ("gather variable, axis 0 and batch_dims 1", _C, _eager(
        "tf.gather(tf.Variable([[1.0, 2.0]]), [[0]], axis=0, batch_dims=1)")),
    # inverse_mdct leaves its result unbound for a norm other than None/'ortho' (#97)
    ("inverse_mdct norm forward", _C, _eager(
        "tf.signal.inverse_mdct(mdcts=tf.zeros((4, 1, 1, 0), tf.complex64), norm='forward')")),
    ("inverse_mdct norm forward, traced", _C, _traced("tf.signal.inverse_mdct(tf.zeros((2, 4)), norm='backward')")),
    # op_def_library: each input's type in OpDef order, before attrs and shape functions (#119, #125, #131, #246)
    ("rfftnd of int32 beside axes None, traced", _T, _traced("tf.rfftnd(input=tf.constant(2), fft_length=[3], axes=None)")),
    ("rfftnd of int32 beside axes None", _T, _eager("tf.rfftnd(input=tf.constant(2), fft_length=[3], axes=None)")),
    ("conv of uint32 beside a bool filter, sig", _T, _sig(
        f"tf.conv(np.array(1, dtype=np.uint32), {_B4}, (3,), 'same', data_format='NCHW', batch_dims=2)",
        ([1, None, 4, 1], "bool"), "tf.zeros((1, 2, 4, 1), tf.bool)")),
    ("conv of f32, padding same, traced", _T, _traced(
        "tf.conv(tf.ones(()), tf.ones((1, 1, 1, 1)), (3,), 'SAME', data_format='NCHW', batch_dims=2)")),
    ("conv2d of uint32, padding same, traced", _T, _traced(
        "tf.nn.conv2d(tf.ones((1, 1, 1, 1), tf.uint32), tf.ones((1, 1, 1, 1)), 1, 'same')")),
    ("conv2d padding same, traced", _T, _traced("tf.nn.conv2d(tf.ones((1, 1, 1, 1)), tf.ones((1, 1, 1, 1)), 1, 'same')")),
    ("depthwise_conv2d of complex128, traced", _T, _traced(
        "tf.nn.depthwise_conv2d(input=tf.ones((1, 3, 4, 3), tf.complex128), filter=tf.ones((1, 1, 3, 1), tf.complex128), "
        "strides=(1, 1, 1, 1), padding='same')")),
    ("depthwise_conv2d of complex128 beside an int list, traced", _T, _traced(
        "tf.nn.depthwise_conv2d(input=tf.ones((3, 4, 3), tf.complex128), filter=[[[2, 1, 0]]], strides=(3, 4, 3), "
        "padding='same')")),
    ("raw DepthwiseConv2dNative of complex128, traced", _T, _traced(
        "tf.raw_ops.DepthwiseConv2dNative(input=tf.ones((1, 3, 4, 3), tf.complex128), filter=tf.ones((1, 1, 3, 1), "
        "tf.complex128), strides=(1, 1, 1, 1), padding='same')")),
    ("raw DepthwiseConv2dNative padding same, traced", _T, _traced(
        "tf.raw_ops.DepthwiseConv2dNative(input=tf.ones((1, 3, 4, 3)), filter=tf.ones((1, 1, 3, 1)), "
        "strides=(1, 1, 1, 1), padding='same')")),
    ("raw AddV2 of bools, traced", _T, _traced("tf.raw_ops.AddV2(x=tf.ones((1,), tf.bool), y=tf.ones((1,), tf.bool))")),
    ("conv1d of a list beside a bool filter, NCHW, traced", _T, _traced(
        "tf.nn.conv1d([[-0.0, 1.0, 2.5], [-0.0, 0.001, 0.5]], tf.constant([[True, False, True], [True, True, False]]), "
        "stride=[0], padding='SAME', data_format='NCHW')")),
    ("conv1d of a list beside a bool filter, NCHW, stride 1, traced", _T, _traced(
        "tf.nn.conv1d([[-0.0, 1.0, 2.5], [-0.0, 0.001, 0.5]], tf.constant([[True, False, True], [True, True, False]]), "
        "stride=1, padding='SAME', data_format='NCHW')")),
    ("where of int t and a float list e, traced", _T, _traced("tf.where([True, False], -1, [3.0, -float('inf'), 1.0])")),
    ("where of int t and a float list e", _T, _eager("tf.where([True, False], -1, [3.0, -float('inf'), 1.0])")),
    ("draw_bounding_boxes of float64 boxes, sig", _T, _sig(
        "tf.image.stateless_random_flip_left_right(tf.image.draw_bounding_boxes(False, x, colors=2), (3, 4))",
        (None, "float64"), "tf.constant([-1.5], tf.float64)")),
    ("draw_bounding_boxes of float64 boxes, traced", _T, _traced(
        "tf.image.draw_bounding_boxes(False, tf.constant([-1.5], tf.float64), colors=2)")),
    # LowerBound/UpperBound have no complex or string kernel (#131)
    ("searchsorted of complex128, traced", _T, _traced(
        "tf.searchsorted(tf.constant([[1j, 2j]]), tf.constant([[1j, 2j]]))")),
    ("searchsorted of complex64", _T, _eager(
        "tf.searchsorted(tf.constant([[1j, 2j]], tf.complex64), tf.constant([[1j, 2j]], tf.complex64))")),
    ("searchsorted of strings", _T, _eager("tf.searchsorted(tf.constant([['a']]), tf.constant([['a']]))")),
    ("searchsorted right of complex128, traced", _T, _traced(
        "tf.searchsorted(tf.constant([[1j, 2j]]), tf.constant([[1j, 2j]]), side='right')")),
    # BiasAdd's shape function passes an unknown rank (fourth generator seed 2301 #56)
    ("bias_add of an unknown rank, scalar call", _T, _sig("tf.nn.bias_add(x, [0.1])", (None, "float32"),
                                                          "tf.constant(0.1)")),
    ("bias_add of an unknown rank, vector call", _T, _sig("tf.nn.bias_add(x, [0.1])", (None, "float32"),
                                                          "tf.constant([0.1])")),
    ("bias_add of a scalar, traced", _T, _traced("tf.nn.bias_add(tf.constant(0.1), [0.1])")),
    # TensorScatter*'s shape function before a run finds no kernel for T (fourth generator seed 2301 #7)
    ("tensor_scatter_nd_add of a bool scalar, traced", _T, _traced(
        "tf.tensor_scatter_nd_add(tf.constant(True), tf.constant([[0]]), [True])")),
    ("tensor_scatter_nd_add of a bool vector, traced", _T, _traced(
        "tf.tensor_scatter_nd_add(tf.constant([True]), tf.constant([[0]]), [True])")),
    ("tensor_scatter_nd_max of a bool scalar, traced", _T, _traced(
        "tf.tensor_scatter_nd_max(tf.constant(True), tf.constant([[0]]), [True])")),
    # DepthwiseConv2dNativeBackpropFilter's filter_sizes must be a vector, after the type attrs (#278)
    ("depthwise backprop filter of int64, matrix filter_sizes", _T, _eager(
        f"{_DW}(input=tf.ones((3, 3, 4), tf.int64), filter_sizes=[[1]], out_backprop=tf.ones((3, 3, 4), tf.int64), "
        "strides=[1, 1, 1, 1], padding='SAME')")),
    ("depthwise backprop filter, matrix filter_sizes", _T, _eager(
        f"{_DW}(input=tf.ones((1, 3, 3, 4)), filter_sizes=[[1]], out_backprop=tf.ones((1, 3, 3, 4)), "
        "strides=[1, 1, 1, 1], padding='SAME')")),
    ("depthwise backprop filter, matrix filter_sizes, traced", _T, _traced(
        f"{_DW}(input=tf.ones((1, 3, 3, 4)), filter_sizes=[[1]], out_backprop=tf.ones((1, 3, 3, 4)), "
        "strides=[1, 1, 1, 1], padding='SAME')")),
    ("depthwise backprop filter, scalar filter_sizes", _T, _eager(
        f"{_DW}(input=tf.ones((1, 3, 3, 4)), filter_sizes=3, out_backprop=tf.ones((1, 3, 3, 4)), "
        "strides=[1, 1, 1, 1], padding='SAME')")),
    # a list input sends the call to the fallback, whose make_int refuses a TensorShape (#278)
    ("depthwise backprop filter, TensorShape strides beside a list", _ATTR, _eager(
        f"{_DW}(input=tf.ones((3, 3, 4), tf.int64), filter_sizes=[[[-4, -4, 2, 2]]], out_backprop=tf.ones((3, 3, 4), "
        "tf.int64), strides=tf.TensorShape([3]), padding='same', data_format='NWC')")),
    # crop_to_bounding_box's checks as image_ops_impl._assert makes them (fz14 SEEN seed 1420262001 #79)
    ("crop_to_bounding_box, tensor target_height beyond, traced", _T, _traced(
        f"tf.image.crop_to_bounding_box({_IMG}, offset_height=5, offset_width=0, target_height=tf.constant(2), "
        "target_width=2)")),
    ("crop_to_bounding_box, tensor target_height beyond", _T, _eager(
        f"tf.image.crop_to_bounding_box({_IMG}, offset_height=5, offset_width=0, target_height=tf.constant(2), "
        "target_width=2)")),
    ("crop_to_bounding_box, int target_height beyond, traced", _T, _traced(
        f"tf.image.crop_to_bounding_box({_IMG}, offset_height=5, offset_width=0, target_height=2, target_width=2)")),
    ("crop_to_bounding_box, tensor target_height within, traced", _T, _traced(
        f"tf.image.crop_to_bounding_box({_IMG}, offset_height=1, offset_width=0, target_height=tf.constant(2), "
        "target_width=2)")),
    ("crop_to_bounding_box of an unknown height, sig", _T, _sig("tf.image.crop_to_bounding_box(x, 3, 0, 2, 2)",
                                                                ([1, None, 4, 1], "float32"), "tf.zeros((1, 4, 4, 1))")),
    ("crop_to_bounding_box of an unknown height, bad width, sig", _T, _sig(
        "tf.image.crop_to_bounding_box(x, 3, 5, 2, 2)", ([1, None, 4, 1], "float32"), "tf.zeros((1, 4, 4, 1))")),
    ("crop_to_bounding_box, tensor offset -1 then a Python failure", _T, _eager(
        "tf.image.crop_to_bounding_box(tf.zeros((4, 4, 1)), 0, tf.constant(-1), 9, 2)")),
    ("crop_to_bounding_box, tensor offset -1 then a Python failure, traced", _T, _traced(
        "tf.image.crop_to_bounding_box(tf.zeros((4, 4, 1)), 0, tf.constant(-1), 9, 2)")),
    # a fresh seed after the fixes (seed 1420262302 #17, #85, #102, #127)
    ("scatter_nd of a rank-1 indices list, updates of an unknown dimension, sig", _T, _sig(
        "tf.scatter_nd(indices=[0, 0, 2], updates=x, shape=tf.TensorShape([3, 1]))", ([3, None], "float16"),
        "tf.ones((3, 1), tf.float16)")),
    ("scatter_nd, updates of an unknown dimension, sig", _T, _sig(
        "tf.scatter_nd(indices=[[0], [0], [2]], updates=x, shape=tf.TensorShape([3, 1]))", ([3, None], "float16"),
        "tf.ones((3, 1), tf.float16)")),
    ("scatter_nd, updates of an unknown dimension, wrong inner, sig", _T, _sig(
        "tf.scatter_nd(indices=[[0], [0], [2]], updates=x, shape=tf.TensorShape([3, 2]))", ([3, None], "float16"),
        "tf.ones((3, 1), tf.float16)")),
    ("stateless_sample_distorted_bounding_box of an int8 variable, traced", _T, _var_traced(
        "tf.image.stateless_sample_distorted_bounding_box(image_size=np.array([], dtype=np.int64), bounding_boxes=v, "
        "seed=[0, 0])", "tf.Variable(np.array(5, np.int8))")),
    ("stateless_sample_distorted_bounding_box of an int8 tensor, traced", _T, _traced(
        "tf.image.stateless_sample_distorted_bounding_box(image_size=[1, 2, 3], bounding_boxes=tf.constant(5, tf.int8), "
        "seed=[0, 0])")),
    ("to_hash_bucket_strong of a NumPy bool array, 4 key words", _C, _eager(
        "tf.strings.to_hash_bucket_strong(np.array([True, False, True, False]), num_buckets=1, key=[1, 5, 3, 3])")),
    ("to_hash_bucket_strong of a NumPy bool array, num_buckets 0", _C, _eager(
        "tf.strings.to_hash_bucket_strong(np.array([True]), num_buckets=0, key=[1, 5])")),
    ("to_hash_bucket_strong of strings, 3 key words", _C, _eager(
        "tf.strings.to_hash_bucket_strong(['a'], num_buckets=2, key=[1, 5, 3])")),
    ("conv2d_backprop_input_v2, use_cudnn_on_gpu 1", _ATTR, _eager(
        "tf.conv2d_backprop_input_v2(tf.ones((2, 1, 4, 2)), [[[[0.25, 0.001], [0.5, 7.0]]]], -(2 ** 63), "
        "strides=[2, 1, 4, 2], padding='VALID', use_cudnn_on_gpu=1, data_format='NCHW')")),
    ("conv2d_backprop_input_v2, use_cudnn_on_gpu 1, traced", _ATTR, _traced(
        "tf.conv2d_backprop_input_v2(tf.ones((2, 1, 4, 2)), [[[[0.25, 0.001], [0.5, 7.0]]]], -(2 ** 63), "
        "strides=[2, 1, 4, 2], padding='VALID', use_cudnn_on_gpu=1, data_format='NCHW')")),
    ("conv2d_backprop_input_v2, use_cudnn_on_gpu None", _ATTR, _eager(
        "tf.conv2d_backprop_input_v2(tf.ones((2, 1, 4, 2)), tf.ones((1, 1, 2, 2)), tf.ones((2, 1, 4, 2)), "
        "strides=[1, 1, 1, 1], padding='VALID', use_cudnn_on_gpu=None)")),
    ("conv2d_backprop_filter_v2, padding 1", _ATTR, _eager(
        "tf.conv2d_backprop_filter_v2(tf.ones((2, 1, 4, 2)), tf.ones((1, 1, 2, 2)), tf.ones((2, 1, 4, 2)), "
        "strides=[1, 1, 1, 1], padding=1, use_cudnn_on_gpu=1)")),
    # NextAfter's result carries the subnormal mark (fz14 SEEN seed 1420262001 #201)
    ("nextafter toward 4 // -0.0", _SUB, _eager(
        "tf.math.nextafter(x1=np.int64(0), x2=np.array([[[4.0], [0.0]]], dtype=np.float64)) // "
        "np.array(-0.0, dtype=np.float32)")),
    ("nextafter toward 4 // 0.0", _SUB, _eager(
        "tf.math.nextafter(tf.constant([0.0, 0.0]), tf.constant([4.0, 0.0])) // tf.constant(0.0)")),
    ("nextafter toward -4 // 0.0", _SUB, _eager("tf.math.nextafter(tf.constant([0.0]), tf.constant([-4.0])) // "
                                                "tf.constant([0.0])")),
    ("float64 nextafter // -0.0", _SUB, _eager(
        "tf.math.nextafter(tf.constant([0.0], tf.float64), tf.constant([4.0], tf.float64)) // "
        "tf.constant([-0.0], tf.float64)")),
    ("nextafter toward 4 * 2.0", _SUB, _eager("tf.math.nextafter(tf.constant([0.0]), tf.constant([4.0])) * 2.0")),
]


EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_attr_orders(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals")
@EDGES.parametrize("ops.subnormals")
def test_subnormals_made_by_nextafter(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz23b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
