"""Rules behind the classes of issue 29's fresh campaigns that fz31b ran (fourteenth generator seeds
1420313001 and 1420313002, fourth generator seed 3101, second 3104, third 3102 --ext8), each
against real TensorFlow 2.21: the same call on both backends gives the same dtype and values (bit
for bit: -0.0 differs from 0.0), or raises the same exception class. Eagerly, in a tf.function
(`traced`, a one-expression body), and with an input_signature (`sig`: get_concrete_function on
placeholders, then a call). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig, tape as _tape, var_traced as _var_traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_AT = "ops.attr-types"
_A = "ops.argument-errors"
_C = "ops.conversion"
_T = "function.trace-time-errors"
_G = "function.grappler-rewrites"
_B = "ops.linalg-banded-solve"
_L = "ops.linalg-lstsq"
_R = "ops.random-in-function"
_E = "ops.empty-inputs"


def _twice(body: str, arg: str) -> Callable[[Any], Any]:
    """`lambda x: body` as a tf.function (AutoGraph off), called twice with `arg` (a replay)."""
    def run(tf: Any) -> Any:
        f = tf.function(eval(f"lambda x: {body}", {"tf": tf, "np": np}), autograph=False)  # noqa: S307
        x = eval(arg, {"tf": tf, "np": np})  # noqa: S307 - our own text
        return [f(x), f(x)]
    return run


def _sig_then_call(expr: str, spec: tuple[list[int | None] | None, str], arg: str) -> Callable[[Any], Any]:
    """get_concrete_function of `lambda x: expr` with a one-spec input_signature, whatever it
    raises, then a call with `arg` (which traces again when the first trace failed)."""
    def run(tf: Any) -> Any:
        fn = eval(f"lambda x: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        g = tf.function(fn, input_signature=[tf.TensorSpec(spec[0], getattr(tf, spec[1]))], autograph=False)
        try:
            g.get_concrete_function()
        except Exception:  # noqa: BLE001, S110 - the call's outcome is the case's
            pass
        return g(eval(arg, {"tf": tf, "np": np}))  # noqa: S307 - our own text
    return run


def _banded(row: list[float], dtype: str, lower: bool = True) -> Callable[[Any], Any]:
    """banded_triangular_solve of two bands whose diagonal row is `row` (ones elsewhere)."""
    def run(tf: Any) -> Any:
        tf.constant(1.0) + 1.0
        b = np.ones([2, len(row)], dtype)
        b[0 if lower else 1] = row
        return tf.linalg.banded_triangular_solve(b, np.ones([len(row), 1], dtype), lower=lower)
    return run


_NAN = float("nan")
_ROW_NAN = "[-7.25, 1e-40, float('nan'), -2.0]"
_ROW_INF = "[float('inf'), -0.001, 3.0, -0.0]"
_ROW_OK = "[-0.001, 6e-08, 0.1, -0.0]"
_SOFTMAX_ROWS = f"[{_ROW_NAN}, {_ROW_OK}, [1.0, 1e30, 1e30, 1e-40], {_ROW_INF}]"
_W = "[[1.0, 2.0, 3.0, 4.0, 5.0], [0.1, 0.2, 0.3, 0.4, 0.5]]"

CASES: list[tuple[str, str, Any]] = [
    # -- dry runs past a square-matrix check the graph cannot make (1420313001 #272)
    ("int32 [] == det(x) of a [0, None] spec", _T, _sig(
        "tf.constant([], tf.int32) == tf.linalg.det(x)", ([0, None], "float32"), "tf.zeros([0, 4])")),
    ("det of a [0, None] spec, called", _T, _sig("tf.linalg.det(x)", ([0, None], "float32"), "tf.zeros([0, 4])")),
    ("det of a [2, None] spec, square call", _T, _sig("tf.linalg.det(x)", ([2, None], "float32"), "tf.ones([2, 2])")),
    ("int32 [] == slogdet(x)[1] of a [0, None] spec", _T, _sig(
        "tf.constant([], tf.int32) == tf.linalg.slogdet(x)[1]", ([0, None], "float32"), "tf.zeros([0, 4])")),
    ("int32 [1] + inv(x) of a [2, None] spec", _T, _sig(
        "tf.constant([1]) + tf.linalg.inv(x)", ([2, None], "float32"), "tf.zeros([2, 3])")),
    ("int32 [1] + cholesky(x) of a [2, None] spec", _T, _sig(
        "tf.constant([1]) + tf.linalg.cholesky(x)", ([2, None], "float32"), "tf.zeros([2, 3])")),
    ("int32 [1] + det(x) of an unknown-rank spec", _T, _sig(
        "tf.constant([1]) + tf.linalg.det(x)", (None, "float32"), "tf.zeros([3])")),
    ("det of a [0, 4] matrix eagerly", _T, _eager("tf.linalg.det(tf.zeros([0, 4]))")),
    # -- a call after a failed trace traces again: the trace's AttributeError, not an earlier kernel's error
    # (fz14_known's tensor_scatter_nd_update>safe_embedding_lookup_sparse, seed 1420262601 #33)
    ("scatter of a scalar update, then safe_embedding_lookup_sparse of a list, called", _T, _sig_then_call(
        "(tf.tensor_scatter_nd_update(np.array([[2]], np.int32), indices=tf.constant([0]), updates=np.int32(-1)), "
        "tf.nn.safe_embedding_lookup_sparse(np.array([[1.0]]), sparse_ids=[[2.5]]))[1]", ([1], "float32"),
        "tf.constant([1.0])")),
    # -- dropout's SelectV2 of a noise shape beside dimensions the graph does not know (1420313001 #137)
    ("dropout noise_shape (0,) of a [None] spec", _T, _sig(
        "tf.nn.dropout(x, np.float64(0.1), noise_shape=(0,))", ([None], "float64"), "tf.constant([7.0, -3.0, -1.0, 0.25], tf.float64)")),
    ("dropout noise_shape (3,) of a [None] spec", _T, _sig(
        "tf.nn.dropout(x, 0.1, noise_shape=(3,))", ([None], "float32"), "tf.ones([4])")),
    ("dropout noise_shape (0,) of a [4] spec", _T, _sig(
        "tf.nn.dropout(x, 0.1, noise_shape=(0,))", ([4], "float32"), "tf.ones([4])")),
    ("dropout noise_shape (0,) eagerly", _T, _eager("tf.nn.dropout(tf.ones([4]), 0.1, noise_shape=(0,))")),
    # -- a sorted segment kernel's refusal is a run-time one (fresh fourteenth generator seed 1420313003 #121)
    ("segment_min refused, then rgb_to_yuv of an int list, traced", _T, _traced(
        "(tf.math.segment_min(np.array([[5e-324, 0.5, 0.001], [-0.0, 4.0, 7.0], [0.5, 2.5, 65504.0], "
        "[-0.0, float('inf'), -0.0]], np.float16), [0]), tf.image.rgb_to_yuv(images=[[127, 0, -4], [2, 127, 2]]))[1]")),
    ("segment_sum refused, then float32 + int32, traced", _T, _traced(
        "tf.math.segment_sum(tf.ones([3, 2]), [0]) + tf.constant(1, tf.int32)")),
    ("segment_sum refused, traced", _T, _traced("tf.math.segment_sum(tf.ones([3, 2]), [0])")),
    ("segment_mean of unsorted ids, then bool - bool, traced", _T, _traced(
        "(tf.math.segment_mean(tf.ones([2, 2]), [1, 0]), tf.constant(True) - tf.constant(False))[1]")),
    # -- SpaceToDepth's and DepthToSpace's make_int of block_size (fresh seed 1420313004 #158)
    ("space_to_depth(x, tf.constant(2)) of a [None] int64 spec", _T, _sig(
        "tf.nn.space_to_depth(x, tf.constant(2))", ([None], "int64"), "tf.constant([1, 2, 7], tf.int64)")),
    ("space_to_depth([1, 2, 2, 1], tf.constant(2)) traced", _T, _traced("tf.nn.space_to_depth(tf.ones([1, 2, 2, 1]), tf.constant(2))")),
    ("depth_to_space([1, 1, 1, 4], tf.constant(2)) traced", _T, _traced("tf.nn.depth_to_space(tf.ones([1, 1, 1, 4]), tf.constant(2))")),
    ("space_to_depth([1, 2, 2, 1], tf.constant(2))", _T, _eager("tf.nn.space_to_depth(tf.ones([1, 2, 2, 1]), tf.constant(2))")),
    # -- UnravelIndex's value checks are its kernel's (fresh fourteenth generator seed 1420313005 #73)
    ("unravel_index([-1], [2, 0]) then assert_less of int8, traced", _T, _traced(
        "tf.debugging.assert_less(x=tf.unravel_index([-1], [2, 0]), y=np.array([-4], dtype=np.int8))")),
    ("unravel_index([7], [2, 2]) + 1.5, traced", _T, _traced("tf.unravel_index([7], [2, 2]) + 1.5")),
    ("unravel_index([-1], [2, 0]) traced", _T, _traced("tf.unravel_index([-1], [2, 0])")),
    ("unravel_index([-1], [2, 0])", _T, _eager("tf.unravel_index([-1], [2, 0])")),
    ("unravel_index([7], [2, 2])", _T, _eager("tf.unravel_index([7], [2, 2])")),
    ("unravel_index([-5, 3], [2, 2])", _T, _eager("tf.unravel_index([-5, 3], [2, 2])")),
    # -- the YIQ/YUV conversions read the static rank (fresh fourteenth generator seed 1420313006 #5)
    ("yiq_to_rgb of an unknown-rank float64 spec", _T, _sig("tf.image.yiq_to_rgb(x)", (None, "float64"), "tf.constant([-3.0, 4.0], tf.float64)")),
    ("rgb_to_yuv of an unknown-rank float64 spec", _T, _sig("tf.image.rgb_to_yuv(x)", (None, "float64"), "tf.constant([-3.0, 4.0], tf.float64)")),
    ("yiq_to_rgb of a [None, 3] spec", _T, _sig("tf.image.yiq_to_rgb(x)", ([None, 3], "float32"), "tf.ones([2, 3])")),
    # -- SplitV's shape function with constant sizes beside a known dimension (fourth generator seed 3103 #109)
    ("split(int32 ndarray [3], [1, 1]) traced", _T, _traced("tf.split(np.array([3, 2, 2], np.int32), [1, 1])")),
    ("split(int32 ndarray [3], [1, 5, -1]) traced", _T, _traced("tf.split(np.array([3, 2, 2], np.int32), [1, 5, -1])")),
    ("split(int32 ndarray [3], [1, -1]) traced", _T, _traced("tf.split(np.array([3, 2, 2], np.int32), [1, -1])")),
    ("split of a [None] spec, [1, 1]", _T, _sig("tf.split(x, [1, 1])", ([None], "int32"), "tf.constant([3, 2, 2])")),
    ("split of a [3] spec, [1, 1]", _T, _sig("tf.split(x, [1, 1])", ([3], "int32"), "tf.constant([3, 2, 2])")),
    ("split(int32 ndarray [3], [1, 1])", _T, _eager("tf.split(np.array([3, 2, 2], np.int32), [1, 1])")),
    # -- BatchToSpaceND's index types and a constant block_shape at trace; half slogdet (fresh seed 1420313007)
    ("batch_to_space(empty float32, [], tf.constant([]))", _T, _eager(
        "tf.batch_to_space(input=tf.zeros([0]), block_shape=np.array([], np.int64), crops=tf.constant([]))")),
    ("batch_to_space([2, 1], [], int32 zeros [0, 2])", _T, _eager(
        "tf.batch_to_space(input=tf.ones([2, 1]), block_shape=np.array([], np.int64), crops=tf.zeros([0, 2], tf.int32))")),
    ("batch_to_space([4, 1], [2], float crops)", _T, _eager("tf.batch_to_space(tf.ones([4, 1]), [2], tf.constant([[0.0, 0.0]]))")),
    ("batch_to_space([4, 1], float block_shape, crops)", _T, _eager(
        "tf.batch_to_space(tf.ones([4, 1]), tf.constant([2.0]), [[0, 0]])")),
    ("space_to_batch([4, 2], [2], float paddings [])", _T, _eager("tf.space_to_batch(tf.ones([4, 2]), [2], tf.constant([]))")),
    ("batch_to_space(uint32, TensorShape([0]), [[1, 1]]) traced", _T, _traced(
        "tf.batch_to_space(input=np.ones([3, 4, 1, 4], np.uint32), block_shape=tf.TensorShape([0]), crops=[[1, 1]])")),
    ("batch_to_space(float32, [0], [[1, 1]]) traced", _T, _traced(
        "tf.batch_to_space(input=tf.ones([3, 4, 1, 4]), block_shape=[0], crops=[[1, 1]])")),
    ("batch_to_space(float32, [0], [[1, 1]])", _T, _eager("tf.batch_to_space(input=tf.ones([3, 4, 1, 4]), block_shape=[0], crops=[[1, 1]])")),
    ("slogdet(float16 scalar), then shape, traced", _T, _traced(
        "(tf.linalg.slogdet(tf.constant(0.001, tf.float16)), tf.shape(tf.constant([[0, 2]], tf.int16)))[1]")),
    ("slogdet(float16 [2, 2]) traced", _T, _traced("tf.linalg.slogdet(tf.ones([2, 2], tf.float16))")),
    ("slogdet(float16 [2, 2])", _T, _eager("tf.linalg.slogdet(tf.ones([2, 2], tf.float16))")),
    # -- Conv2DBackprop*V2 (no kernel): the shape function at trace (fresh seed 1420313007 #15)
    ("conv2d_backprop_filter_v2(1.5, -0.0, -1, strides=[], NCHW) traced", _T, _traced(
        "tf.conv2d_backprop_filter_v2(input=1.5, filter=-0.0, out_backprop=-1, strides=[], padding='SAME', data_format='NCHW')")),
    ("conv2d_backprop_input_v2(1.5, -0.0, -1.0) traced", _T, _traced(
        "tf.conv2d_backprop_input_v2(input=1.5, filter=-0.0, out_backprop=-1.0, strides=[1, 1, 1, 1], padding='SAME')")),
    ("conv2d_backprop_filter_v2 of rank-4 tensors traced", _T, _traced(
        "tf.conv2d_backprop_filter_v2(input=tf.ones([1, 2, 2, 1]), filter=tf.ones([1, 1, 1, 1]), "
        "out_backprop=tf.ones([1, 2, 2, 1]), strides=[1, 1, 1, 1], padding='SAME')")),
    # -- DepthwiseConv2dNative in a graph: the inputs' types before the attrs and ranks (fresh seed 1420313008 #137)
    ("depthwise_conv2d(rank-3 float list, filter=255, strides (1, 2, 2)) traced", _T, _traced(
        "tf.nn.depthwise_conv2d([[[2.5, -0.0], [4.0, 1.0]], [[1e-40, 0.5], [7.0, 1e-40]]], filter=255, strides=(1, 2, 2), "
        "padding='SAME')")),
    ("depthwise_conv2d(int32 rank-4, int32 filter) traced", _T, _traced(
        "tf.nn.depthwise_conv2d(tf.ones([1, 2, 2, 1], tf.int32), filter=tf.ones([1, 1, 1, 1], tf.int32), "
        "strides=[1, 1, 1, 1], padding='SAME')")),
    ("depthwise_conv2d(float32 rank-4, rank-3 filter) traced", _T, _traced(
        "tf.nn.depthwise_conv2d(tf.ones([1, 2, 2, 1]), filter=tf.ones([1, 1, 1]), strides=[1, 1, 1, 1], padding='SAME')")),
    ("depthwise_conv2d(rank-3 float list, filter=255, strides (1, 2, 2))", _T, _eager(
        "tf.nn.depthwise_conv2d([[[2.5, -0.0], [4.0, 1.0]], [[1e-40, 0.5], [7.0, 1e-40]]], filter=255, strides=(1, 2, 2), "
        "padding='SAME')")),
    # -- TruncateMod of half/bfloat16 in a graph: the inputs' types before the kernel (fresh seed 1420313009 #8)
    ("truncatemod(bfloat16, complex64) traced", _T, _traced(
        "tf.truncatemod(tf.ones([2], tf.bfloat16), y=tf.constant([-1 - 3.4e38j, 1 + 0j], tf.complex64))")),
    ("truncatemod(float16, int32) traced", _T, _traced("tf.truncatemod(tf.ones([2], tf.float16), y=tf.ones([2], tf.int32))")),
    ("truncatemod(bfloat16, bfloat16) traced", _T, _traced("tf.truncatemod(tf.ones([2], tf.bfloat16), y=tf.ones([2], tf.bfloat16))")),
    ("truncatemod(float16, float32)", _T, _eager("tf.truncatemod(tf.ones([2], tf.float16), y=tf.ones([2]))")),
    # -- the FFT wrappers' padding with an empty fft_length (1420313001 #135, 1420313002 #77)
    ("irfftnd(np.int64(-4), fft_length=[])", _A, _eager("tf.signal.irfftnd(input_tensor=np.int64(-4), fft_length=[])")),
    ("irfftnd([1+0j], fft_length=[])", _A, _eager("tf.signal.irfftnd(tf.constant([1+0j]), fft_length=[])")),
    ("irfftnd(empty, fft_length=[])", _A, _eager("tf.signal.irfftnd(tf.zeros([0], tf.complex64), fft_length=[])")),
    ("irfftnd([2, 2], fft_length=[], axes=[0])", _A, _eager(
        "tf.signal.irfftnd(tf.ones([2, 2], tf.complex64), fft_length=[], axes=[0])")),
    ("irfft([1+0j], fft_length=[])", _A, _eager("tf.signal.irfft(tf.constant([1+0j]), fft_length=[])")),
    ("irfft3d([1, 1, 1], fft_length=[])", _A, _eager("tf.signal.irfft3d(tf.ones([1, 1, 1], tf.complex64), fft_length=[])")),
    ("irfft(float32 ndarray, fft_length=tensor [])", _A, _eager(
        "tf.signal.irfft(np.array([[[2.5, -0.0]], [[4.0, -0.0]]], np.float32), fft_length=tf.constant([], tf.int32))")),
    ("irfft([1+0j], fft_length=[]) traced", _A, _traced("tf.signal.irfft(tf.constant([1+0j]), fft_length=[])")),
    ("rfftnd([1.0], fft_length=[])", _A, _eager("tf.signal.rfftnd(tf.constant([1.0]), fft_length=[])")),
    ("irfftnd(x, fft_length=[]) of a [None] spec", _T, _sig(
        "tf.signal.irfftnd(x, fft_length=[])", ([None], "complex64"), "tf.constant([1+0j], tf.complex64)")),
    ("fftnd(x, fft_length=[], axes=[2]) of a [None, 3, 4] spec", _T, _sig(
        "tf.signal.fftnd(x, fft_length=[], axes=[2])", ([None, 3, 4], "complex64"), "tf.ones([2, 3, 4], tf.complex64)")),
    ("irfftnd(x, [3, 4], axes=[2]) of a [None, 3, 4] spec", _T, _sig(
        "tf.signal.irfftnd(x, fft_length=[3, 4], axes=[2])", ([None, 3, 4], "complex64"), "tf.ones([2, 3, 4], tf.complex64)")),
    ("ifftnd(x, [5], axes=[0]) of an unknown-rank spec", _T, _sig(
        "tf.signal.ifftnd(x, fft_length=[5], axes=[0])", (None, "complex64"), "tf.ones([2, 3, 4], tf.complex64)")),
    # -- Conv2D's input and filter share T: a NumPy filter is cast (1420313002 #185)
    ("conv2d(float32, bool ndarray filter)", _AT, _eager(
        "tf.nn.conv2d(tf.ones([1, 2, 3, 3]), np.ones([1, 2, 3, 3], np.bool_), 1, padding='SAME')")),
    ("conv2d(float32, bool ndarray filter) NCHW strides [1, 2, 3, 3]", _AT, _eager(
        "tf.nn.conv2d(tf.ones([1, 2, 3, 3]), np.ones([1, 2, 3, 3], np.bool_), [1, 2, 3, 3], padding='SAME', "
        "data_format='NCHW')")),
    ("conv2d(float32, complex64 ndarray filter)", _AT, _eager(
        "tf.nn.conv2d(tf.ones([1, 2, 3, 3]), np.ones([1, 1, 3, 3], np.complex64) * 1j + 2, 1, padding='SAME')")),
    ("conv2d(int32 ndarray, float32 ndarray filter)", _AT, _eager(
        "tf.nn.conv2d(np.ones([1, 2, 3, 3], np.int32), np.ones([1, 1, 3, 3], np.float32), 1, padding='SAME')")),
    ("conv2d(rank-5 float32, bool ndarray filter)", _AT, _eager(
        "tf.nn.conv2d(tf.ones([1, 1, 2, 3, 3]), np.ones([1, 2, 3, 3], np.bool_), 1, padding='SAME')")),
    ("conv2d(float32, bool ndarray filter) traced", _AT, _traced(
        "tf.nn.conv2d(tf.ones([1, 2, 3, 3]), np.ones([1, 2, 3, 3], np.bool_), 1, padding='SAME')")),
    ("conv2d(float16 tensor, float32 tensor)", _AT, _eager(
        "tf.nn.conv2d(tf.ones([1, 2, 3, 3], tf.float16), tf.ones([1, 1, 3, 3]), 1, padding='SAME')")),
    # -- random ops' mean of a variable inside tf.function (fresh fourteenth generator seed 1420313003 #44)
    ("truncated_normal([0], mean=variable) traced", _R, _var_traced("tf.random.truncated_normal(shape=[0], mean=v)",
                                                                      "tf.Variable(0.5)")),
    ("normal([0], mean=variable, stddev=variable) traced", _R, _var_traced(
        "tf.random.normal(shape=[0], mean=v, stddev=v)", "tf.Variable(0.5)")),
    ("truncated_normal([0], mean=variable)", _R, _eager("tf.random.truncated_normal(shape=[0], mean=tf.Variable(0.5))")),
    # -- DynamicPartition's gradient through DynamicStitch of empty rows (fresh seed 1420313003 #189)
    ("dynamic_partition gradient of a [1, 4, 0, 4] variable", _E, _tape(
        "tf.dynamic_partition(x, tf.constant([0]), num_partitions=2)", "tf.Variable(tf.zeros([1, 4, 0, 4]))")),
    ("dynamic_partition gradient of a [2, 0] variable", _E, _tape(
        "tf.dynamic_partition(x, tf.constant([0, 1]), num_partitions=2)", "tf.Variable(tf.zeros([2, 0]))")),
    ("dynamic_stitch of empty rows", _E, _eager(
        "tf.dynamic_stitch([tf.constant([[0, 2]]), tf.constant([1])], [tf.zeros([1, 2, 0, 3]), tf.zeros([1, 0, 3])])")),
    # -- conv3d_transpose: filter and out_backprop share T (fz14_known's conv3d_transpose>not class)
    ("conv3d_transpose(uint32 ndarray, float list filter)", _AT, _eager(
        "tf.nn.conv3d_transpose(np.ones([2, 2], np.uint32), [[[[[1.0]]]]], [1, 2, 2, 2, 1], 1)")),
    ("conv3d_transpose(uint32 ndarray, float list filter) traced", _AT, _traced(
        "tf.nn.conv3d_transpose(np.ones([2, 2], np.uint32), [[[[[1.0]]]]], [1, 2, 2, 2, 1], 1)")),
    ("conv3d_transpose(uint32 rank-5 ndarray, float list filter)", _AT, _eager(
        "tf.nn.conv3d_transpose(np.ones([1, 2, 2, 2, 1], np.uint32), [[[[[1.0]]]]], [1, 2, 2, 2, 1], 1)")),
    ("conv3d_transpose(uint32 ndarray, float list filter, output_shape [3, 1]) of a spec", _AT, _sig(
        "tf.nn.conv3d_transpose(input=np.array([[5], [1], [5]], np.uint32), filters=[[-1.0], [0.001], [3e+38]], "
        "output_shape=[3, 1], strides=np.array([1, 2, 2], np.int64)) + x", ([1], "float32"), "tf.constant([1.0])")),
    ("conv3d_transpose(True, uint8 ndarray filters, data_format='NWC')", _AT, _eager(
        "tf.nn.conv3d_transpose(True, filters=np.array([[0, 2, 5, 0], [1, 3, 1, 2]], np.uint8), "
        "output_shape=np.array([0], np.int64), strides=tf.constant([3]), padding='VALID', data_format='NWC')")),
    # -- BiasAdd's value and bias share T eagerly; a graph converts bias with value's dtype (fresh seed 1420313006 #88)
    ("bias_add(-2.5, int32 tensor)", _AT, _eager("tf.nn.bias_add(-2.5, bias=tf.constant([1, 2]))")),
    ("bias_add(-2.5, float16 variable)", _AT, _eager("tf.nn.bias_add(-2.5, bias=tf.Variable(tf.constant([1.0, 2.0], tf.float16)))")),
    ("bias_add(float32 [2, 2], float64 tensor)", _AT, _eager("tf.nn.bias_add(tf.ones([2, 2]), bias=tf.constant([1.0, 2.0], tf.float64))")),
    ("bias_add(float32 [2, 2], float64 tensor) traced", _AT, _traced(
        "tf.nn.bias_add(tf.ones([2, 2]), bias=tf.constant([1.0, 2.0], tf.float64))")),
    ("bias_add([[1, 2]], float32 tensor)", _AT, _eager("tf.nn.bias_add([[1, 2]], bias=tf.constant([1.0, 2.0]))")),
    ("bias_add([[1, 2]], [1.5, 2])", _AT, _eager("tf.nn.bias_add([[1, 2]], bias=[1.5, 2])")),
    ("bias_add(float64 ndarray, float32 tensor)", _AT, _eager("tf.nn.bias_add(np.array([[1.0, 2.0]]), bias=tf.constant([1.0, 2.0]))")),
    # -- DynamicStitch: data as one type group, the lists' lengths (fresh seed 1420313006 #71, #76)
    ("dynamic_stitch([1, 1, 3, 3], rows holding 1e300)", _AT, _eager(
        "tf.dynamic_stitch([1, 1, 3, 3], [[0.001, -3.0, 4.0, 0.001], [65504.0, 1.0, -0.0, -0.0], "
        "[0.5, -1.5, float('inf'), 1e+300], [-1.0, 1.0, 0.0, -0.0]])")),
    ("dynamic_stitch([[0]], four floats)", _AT, _eager("tf.dynamic_stitch([[0]], [0.0, 1e-40, -float('inf'), -1.5])")),
    ("dynamic_stitch([[0]], four floats) traced", _AT, _traced("tf.dynamic_stitch([[0]], [0.0, 1e-40, -float('inf'), -1.5])")),
    ("dynamic_stitch([tensor], two tensors)", _AT, _eager(
        "tf.dynamic_stitch([tf.constant(0)], [tf.constant(1.0), tf.constant(2.0)])")),
    ("dynamic_stitch([0], a [3, 2] tensor as data)", _AT, _eager(
        "tf.dynamic_stitch(indices=[0], data=tf.constant([[0.5, 5e-324], [7.0, 0.25], [1e+300, 0.0]], dtype=np.float32))")),
    ("dynamic_stitch([0, 1, 2], a [3, 2] tensor as data)", _AT, _eager(
        "tf.dynamic_stitch(indices=[0, 1, 2], data=tf.constant([[0.5, 1.0], [7.0, 0.25], [2.0, 0.0]]))")),
    ("dynamic_stitch([0, 1], [1, 2.5])", _AT, _eager("tf.dynamic_stitch([0, 1], [1, 2.5])")),
    ("dynamic_stitch([0, 1], [2.5, int32 tensor])", _AT, _eager("tf.dynamic_stitch([0, 1], [2.5, tf.constant(1)])")),
    ("conv3d_transpose(int32 tensor, float list filter)", _AT, _eager(
        "tf.nn.conv3d_transpose(tf.ones([2, 2], tf.int32), filters=[1.0, 0.25], output_shape=[4], strides=[1, 2, 2])")),
    ("conv3d_transpose(float64 tensor, float list filter)", _AT, _eager(
        "tf.nn.conv3d_transpose(tf.ones([2, 2], tf.float64), filters=[1.0, 0.25], output_shape=[4], strides=[1, 2, 2])")),
    # -- the depthwise backprops' fallback conversion and input types (1420313002 #60)
    ("depthwise_conv2d_backprop_filter(float32 filter_sizes, np.uint8 out_backprop)", _AT, _eager(
        "tf.nn.depthwise_conv2d_backprop_filter(tf.ones([1, 2, 4, 1]), tf.ones([4]), np.uint8(2), [1, 1, 1, 1], 'SAME')")),
    ("depthwise_conv2d_backprop_filter(float32 filter_sizes, float32 out_backprop)", _AT, _eager(
        "tf.nn.depthwise_conv2d_backprop_filter(tf.ones([1, 2, 4, 1]), tf.ones([4]), tf.ones([1, 2, 4, 1]), "
        "[1, 1, 1, 1], 'SAME')")),
    ("depthwise_conv2d_backprop_input(float32 input_sizes)", _AT, _eager(
        "tf.nn.depthwise_conv2d_backprop_input(tf.ones([4]), tf.ones([1, 1, 1, 1]), tf.ones([1, 2, 4, 1]), "
        "[1, 1, 1, 1], 'SAME')")),
    # -- the fractional pools' make_bool before T (1420313002 #58)
    ("fractional_max_pool(True, True, overlapping=1)", _AT, _eager(
        "tf.nn.fractional_max_pool(value=True, pooling_ratio=True, pseudo_random=True, overlapping=1, seed=42)")),
    ("fractional_max_pool(True, [1, 1.5, 1.5, 1], pseudo_random=1)", _AT, _eager(
        "tf.nn.fractional_max_pool(True, [1.0, 1.5, 1.5, 1.0], pseudo_random=1, seed=42)")),
    ("fractional_max_pool(True, True)", _AT, _eager("tf.nn.fractional_max_pool(True, True, seed=42)")),
    ("fractional_avg_pool(float32, overlapping=1)", _AT, _eager(
        "tf.nn.fractional_avg_pool(tf.ones([1, 4, 4, 1]), [1.0, 1.5, 1.5, 1.0], overlapping=1, seed=42)")),
    ("fractional_max_pool(float32, overlapping=1) traced", _AT, _traced(
        "tf.nn.fractional_max_pool(tf.ones([1, 4, 4, 1]), [1.0, 1.5, 1.5, 1.0], overlapping=1, seed=42)")),
    # -- Pool3D: T, then data_format and padding (1420313002 #56, #93)
    ("avg_pool3d(uint8 scalar, data_format='NHWC')", _A, _eager(
        "tf.nn.avg_pool3d(tf.constant(7, tf.uint8), (3,), (1, 2, 2), padding='VALID', data_format='NHWC')")),
    ("avg_pool3d(uint8 scalar, data_format='NHWC') traced", _A, _traced(
        "tf.nn.avg_pool3d(tf.constant(7, tf.uint8), (3,), (1, 2, 2), padding='VALID', data_format='NHWC')")),
    ("avg_pool3d(-2.5, data_format='NCHW') traced", _A, _traced(
        "tf.nn.avg_pool3d(-2.5, tf.TensorShape([3]), np.array([4], dtype=np.int64), 'SAME', data_format='NCHW')")),
    ("avg_pool3d(rank-5, data_format='NCHW')", _A, _eager(
        "tf.nn.avg_pool3d(tf.ones([1, 2, 2, 2, 1]), 1, 1, 'SAME', data_format='NCHW')")),
    ("avg_pool3d(rank-5, data_format='NCHW') traced", _A, _traced(
        "tf.nn.avg_pool3d(tf.ones([1, 2, 2, 2, 1]), 1, 1, 'SAME', data_format='NCHW')")),
    ("max_pool3d(uint8, data_format='NCHW')", _A, _eager(
        "tf.nn.max_pool3d(tf.ones([1, 2, 2, 2, 1], tf.uint8), 1, 1, 'SAME', data_format='NCHW')")),
    ("max_pool3d(uint8, data_format='NCHW') traced", _A, _traced(
        "tf.nn.max_pool3d(tf.ones([1, 2, 2, 2, 1], tf.uint8), 1, 1, 'SAME', data_format='NCHW')")),
    ("max_pool3d(float32, data_format='NCHW') traced", _A, _traced(
        "tf.nn.max_pool3d(tf.ones([1, 2, 2, 2, 1]), 1, 1, 'SAME', data_format='NCHW')")),
    ("avg_pool3d(rank-5, padding='FOO') traced", _A, _traced(
        "tf.nn.avg_pool3d(tf.ones([1, 2, 2, 2, 1]), 1, 1, 'FOO', data_format='NHWC')")),
    # -- sort_ops: Neg before the axis's StridedSlice (1420313002 #160)
    ("argsort(bool scalar) traced", _T, _traced("tf.argsort(tf.constant(True), stable=1)")),
    ("argsort(bool scalar)", _T, _eager("tf.argsort(tf.constant(True))")),
    ("sort(bool scalar) traced", _T, _traced("tf.sort(tf.constant(True))")),
    ("argsort(string scalar) traced", _T, _traced("tf.argsort(tf.constant('a'))")),
    ("argsort(uint8 scalar) traced", _T, _traced("tf.argsort(tf.constant(1, tf.uint8))")),
    ("argsort(bool scalar, DESCENDING) traced", _T, _traced("tf.argsort(tf.constant(True), direction='DESCENDING')")),
    # -- NumPy bools in a sequence (1420313002 #182)
    ("ctc_greedy_decoder([int64 array, bool array, list])", _C, _eager(
        "tf.nn.ctc_greedy_decoder([np.array([5, 1], np.int64), np.array([False, True]), [3, 2]], [1, 1])")),
    ("constant([int64 array, bool array])", _C, _eager("tf.constant([np.array([1, 2]), np.array([False, True])])")),
    ("constant([int64 array, bool array], float32)", _C, _eager(
        "tf.constant([np.array([1, 2]), np.array([False, True])], tf.float32)")),
    ("convert([int64 array, bool array], dtype_hint=float32)", _C, _eager(
        "tf.convert_to_tensor([np.array([1, 2]), np.array([False, True])], dtype_hint=tf.float32)")),
    ("constant([bool array, bool array], float32)", _C, _eager(
        "tf.constant([np.array([False, True]), np.array([False, True])], tf.float32)")),
    ("constant([bool array, [True, False]], int32)", _C, _eager(
        "tf.constant([np.array([False, True]), [True, False]], tf.int32)")),
    ("convert([bool array, bool array], dtype_hint=float32)", _C, _eager(
        "tf.convert_to_tensor([np.array([False, True]), np.array([False, True])], dtype_hint=tf.float32)")),
    ("constant([1, np.bool_(True)], float32)", _C, _eager("tf.constant([1, np.bool_(True)], tf.float32)")),
    ("constant([1, np.bool_(True)], bool)", _C, _eager("tf.constant([1, np.bool_(True)], tf.bool)")),
    ("constant([True, np.bool_(False)], complex128)", _C, _eager("tf.constant([True, np.bool_(False)], tf.complex128)")),
    ("constant([1.5, np.bool_(True)], int32)", _C, _eager("tf.constant([1.5, np.bool_(True)], tf.int32)")),
    ("constant([bool 0-d array, 1], int64)", _C, _eager("tf.constant([np.array(True), 1], tf.int64)")),
    ("constant([True, False], float32)", _C, _eager("tf.constant([True, False], tf.float32)")),
    ("constant([float32 array, int64 array], float32)", _C, _eager(
        "tf.constant([np.array([1.5, 2.5], np.float32), np.array([3, 2])], tf.float32)")),
    # -- ctc decoders' list inputs: args_to_matching_eager (fz14_known's ctc_greedy_decoder classes)
    ("ctc_greedy_decoder((complex128 ndarray,), ...)", _C, _eager(
        "tf.nn.ctc_greedy_decoder(inputs=(np.array([[[1+1j, 2]], [[3, 4]], [[5, 6]]]),), sequence_length=[0, 0, 1])")),
    ("ctc_greedy_decoder([float64 tensor], ...)", _C, _eager("tf.nn.ctc_greedy_decoder([tf.ones([1, 2], tf.float64)], [1])[1]")),
    ("ctc_greedy_decoder([float64 ndarray], ...)", _C, _eager("tf.nn.ctc_greedy_decoder([np.ones([1, 2])], [1])[1]")),
    ("ctc_greedy_decoder([float64 tensor, float32 tensor], ...)", _C, _eager(
        "tf.nn.ctc_greedy_decoder([tf.ones([1, 2], tf.float64), tf.ones([1, 2])], [1, 1])")),
    ("ctc_greedy_decoder([[[True, 2]]], ...)", _C, _eager("tf.nn.ctc_greedy_decoder([[[True, 2]]], [1])")),
    ("ctc_greedy_decoder([[[1, 2]], [[3, 4]]], ...)", _C, _eager("tf.nn.ctc_greedy_decoder([[[1, 2]], [[3, 4]]], [2])[1]")),
    ("ctc_greedy_decoder([[['a', 'b']]], ...)", _C, _eager("tf.nn.ctc_greedy_decoder([[['a', 'b']]], [1])")),
    ("ctc_greedy_decoder([1e-40, 65504.0, uint32 tensor]) traced", _C, _traced(
        "tf.nn.ctc_greedy_decoder([1e-40, 65504.0, tf.constant(5, tf.uint32)], sequence_length=[1])")),
    ("ctc_greedy_decoder([[[1, 2]]]) traced", _C, _traced("tf.nn.ctc_greedy_decoder([[[1, 2]]], [1])[1]")),
    ("ctc_beam_search_decoder([[[1, 2]]])", _C, _eager("tf.nn.ctc_beam_search_decoder([[[1, 2]]], [1])[1]")),
    # -- a graph's Python ints beyond int64, as NumPy infers them (fresh fourteenth generator seed 1420313003 #190)
    ("sigmoid of an int list holding 2**64 - 1, traced", _C, _traced(
        "tf.math.sigmoid([[[[1, 5], [1, 3]]], [[[5, 1], [18446744073709551615, 5]]]])")),
    ("convert [2**63] traced", _C, _traced("tf.convert_to_tensor([2**63])")),
    ("convert [1, 2**63] traced", _C, _traced("tf.convert_to_tensor([1, 2**63])")),
    ("convert [-1, 2**63] traced", _C, _traced("tf.convert_to_tensor([-1, 2**63])")),
    ("convert [2**64] traced", _C, _traced("tf.convert_to_tensor([2**64])")),
    ("constant([1, 2**63], int64) traced", _C, _traced("tf.constant([1, 2**63], tf.int64)")),
    ("sigmoid of an int list holding 2**64 - 1", _C, _eager("tf.math.sigmoid([[1, 5], [18446744073709551615, 5]])")),
    # -- autopacking's dtype hint dropped on a graph Pack's shape error (fourth generator 3101 #161)
    ("convert([bool tensor [1], 1], dtype_hint=uint8) traced", _C, _traced(
        "tf.convert_to_tensor([tf.constant([True]), 1], dtype_hint=np.uint8)")),
    ("convert([bool tensor [1], 1], dtype_hint=float32) traced", _C, _traced(
        "tf.convert_to_tensor([tf.constant([True]), 1], dtype_hint=tf.float32)")),
    ("convert([x[0], 1], dtype_hint=uint8) of a [4, 1] bool spec", _C, _sig(
        "tf.convert_to_tensor([x[0], 1], dtype_hint=np.uint8)", ([4, 1], "bool"),
        "tf.constant([[True], [True], [True], [False]])")),
    ("convert([bool tensor [1], 1], dtype_hint=uint8)", _C, _eager(
        "tf.convert_to_tensor([tf.constant([True]), 1], dtype_hint=np.uint8)")),
    ("convert([int32 tensor [1], [1]], dtype_hint=float32) traced", _C, _traced(
        "tf.convert_to_tensor([tf.constant([1]), [1]], dtype_hint=tf.float32)")),
    # -- ReplacePackWithTileReshape after common-subexpression elimination; output 0 tiled (second generator 3104 #19)
    ("stack of two argsort(int32 argument)", _G, _twice("tf.stack([tf.argsort(x), tf.argsort(x)])", "tf.constant([3, 1, 2])")),
    ("stack of two argsort(float32 argument)", _G, _twice(
        "tf.stack([tf.argsort(x), tf.argsort(x)])", "tf.constant([3.5, 1.0, 2.0])")),
    ("stack of two argsort of broadcast argmax", _G, _twice(
        "tf.stack([tf.argsort(tf.broadcast_to(tf.math.argmax(x, axis=-1, output_type=tf.int32), [2]), axis=-1), "
        "tf.argsort(tf.broadcast_to(tf.math.argmax(x, axis=-1, output_type=tf.int32), [2]), axis=-1)], axis=0)",
        "tf.constant([5], tf.uint32)")),
    ("stack of one top_k indices twice", _G, _twice(
        "(lambda i: tf.stack([i, i]))(tf.math.top_k(x, 3).indices)", "tf.constant([3, 1, 2])")),
    ("stack of two top_k(x, 2) indices", _G, _twice(
        "tf.stack([tf.math.top_k(x, 2).indices, tf.math.top_k(x, 2).indices])", "tf.constant([3, 1, 2])")),
    ("stack of three top_k indices, axis 1", _G, _twice(
        "tf.stack([tf.math.top_k(x, 3).indices] * 3, axis=1)", "tf.constant([3, 1, 2])")),
    ("stack of two split parts 1", _G, _twice("tf.stack([tf.split(x, 3)[1], tf.split(x, 3)[1]])", "tf.constant([3, 1, 2])")),
    ("stack of two unique idx", _G, _twice("tf.stack([tf.unique(x).idx, tf.unique(x).idx])", "tf.constant([3, 1, 2])")),
    ("stack of top_k indices and values", _G, _twice(
        "tf.stack([tf.math.top_k(x, 3).indices, tf.math.top_k(x, 3).values])", "tf.constant([3, 1, 2])")),
    ("concat of two top_k indices", _G, _twice(
        "tf.concat([tf.math.top_k(x, 3).indices, tf.math.top_k(x, 3).indices], 0)", "tf.constant([3, 1, 2])")),
    ("stack of two uint16 copies", _G, _twice("tf.stack([x + 1, x + 1])", "tf.constant([3, 1], tf.uint16)")),
    # -- constant folding evaluates Softmax with Eigen's kernel (third generator 3102 --ext8 #212)
    ("softmax of bfloat16 constant rows traced", _G, _traced(f"tf.nn.softmax(tf.constant({_SOFTMAX_ROWS}, tf.bfloat16), 1)")),
    ("softmax of bfloat16 constant rows", _G, _eager(f"tf.nn.softmax(tf.constant({_SOFTMAX_ROWS}, tf.bfloat16), 1)")),
    ("softmax of float32 constant rows traced", _G, _traced(f"tf.nn.softmax(tf.constant({_SOFTMAX_ROWS}), 1)")),
    ("softmax of float32 constant [2, 5] traced", _G, _traced(f"tf.nn.softmax(tf.constant({_W}))")),
    ("softmax of bfloat16 constant [2, 5] traced", _G, _traced(f"tf.nn.softmax(tf.constant({_W}, tf.bfloat16))")),
    ("softmax of bfloat16 constant axis 0 traced", _G, _traced(f"tf.nn.softmax(tf.constant({_SOFTMAX_ROWS}, tf.bfloat16), 0)")),
    ("softmax of a bfloat16 constant vector traced", _G, _traced(f"tf.nn.softmax(tf.constant({_ROW_OK}, tf.bfloat16))")),
    ("log_softmax of bfloat16 constant rows traced", _G, _traced(
        f"tf.nn.log_softmax(tf.constant({_SOFTMAX_ROWS}, tf.bfloat16), 1)")),
    ("softmax of float16 constant rows traced", _G, _traced(f"tf.nn.softmax(tf.constant({_SOFTMAX_ROWS}, tf.float16), 1)")),
    # -- lstsq: rhs converted beside the matrix; fast=False of a non-finite matrix (fresh seed 1420313004 #40)
    ("lstsq(float list, int list) traced", _L, _traced(
        "tf.linalg.lstsq([[1.0, 0.5, 0.0], [-1.5, -1.0, 1e-40], [1e-40, 4.0, -3.4e+38], [7.0, float('inf'), 7.0]], "
        "[[-4, 5, 5], [-1, -4, 2], [0, 2, 5], [2, -1, 5]])")),
    ("lstsq(float32 tensor, int list)", _L, _eager("tf.linalg.lstsq(tf.ones([4, 3]), [[-4, 5, 5], [-1, -4, 2], [0, 2, 5], [2, -1, 5]])")),
    ("lstsq(float list, int list, fast=False) traced", _L, _traced(
        "tf.linalg.lstsq([[1.0, 0.5, 0.0], [-1.5, -1.0, 1e-40], [1e-40, 4.0, -3.4e+38], [7.0, float('inf'), 7.0]], "
        "[[-4, 5, 5], [-1, -4, 2], [0, 2, 5], [2, -1, 5]], fast=False)")),
    ("lstsq(int list, float list) traced", _L, _traced("tf.linalg.lstsq([[1, 2], [3, 4]], [[1.0], [2.0]])")),
    ("lstsq(float32 tensor, int32 tensor) traced", _L, _traced("tf.linalg.lstsq(tf.ones([4, 3]), tf.ones([4, 3], tf.int32))")),
    ("lstsq(fast=False) of a matrix holding NaN, float64", _L, _eager(
        "tf.linalg.lstsq(tf.constant([[1.0, float('nan')], [2.0, 3.0]], tf.float64), tf.ones([2, 1], tf.float64), fast=False)")),
    ("lstsq(fast=False) of a matrix holding -inf, float32", _L, _eager(
        "tf.linalg.lstsq(tf.constant([[1.0, 2.0], [-float('inf'), 1.0], [3.0, 4.0]]), tf.ones([3, 1]), fast=False)")),
    ("lstsq(fast=False) of a [2, 3] matrix holding NaN", _L, _eager(
        "tf.linalg.lstsq(tf.constant([[1.0, 2.0, float('nan')], [3.0, 4.0, 5.0]]), tf.ones([2, 1]), fast=False)")),
    # -- BandedTriangularSolve's pivot check: Eigen's minCoeff of the first matrix's diagonal (1420313002 #140)
    ("banded solve, diagonal [-1, -0, nan, 1] float64", _B, _eager(
        "tf.linalg.banded_triangular_solve(bands=np.array([[-1.0, -0.0, float('nan'), 1.0], [float('inf'), 0.001, 1.0, "
        "-3.4e+38], [float('inf'), 2.5, -1.5, 0.001], [0.001, 0.0, -0.0, -0.0]]), rhs=[[0.5, float('inf'), -0.0, -3.0], "
        "[-0.0, 1.0, float('inf'), 1.0], [1.0, -1.0, 3e+38, -3.0], [4.0, 1.0, -1.0, 7.0]], lower=True)")),
    ("banded solve, diagonal [nan, 1, 1, 1] float64", _B, _banded([_NAN, 1, 1, 1], "float64")),
    ("banded solve, diagonal [1, nan, 1, 1] float64", _B, _banded([1, _NAN, 1, 1], "float64")),
    ("banded solve, diagonal [1, 1, nan, 0] float64", _B, _banded([1, 1, _NAN, 0], "float64")),
    ("banded solve, diagonal [nan, 1, 1] float64", _B, _banded([_NAN, 1, 1], "float64")),
    ("banded solve, diagonal [1, nan, 1, 1, 1, 0, 1, 1, 1] float64", _B, _banded([1, _NAN, 1, 1, 1, 0, 1, 1, 1], "float64")),
    ("banded solve, diagonal [1, nan, 1, 1, 1, 0, 1, 1, 1] float32", _B, _banded([1, _NAN, 1, 1, 1, 0, 1, 1, 1], "float32")),
    ("banded solve, diagonal [1, 1, 1, 1, nan] float32", _B, _banded([1, 1, 1, 1, _NAN], "float32")),
    ("banded solve, diagonal [nan, 1, 1, 1, 0, 1, 1, 1] float32", _B, _banded([_NAN, 1, 1, 1, 0, 1, 1, 1], "float32")),
    ("banded solve, 17-long diagonal, nan then 0 float64", _B, _banded([1, _NAN] + [1] * 11 + [0, 1, 1, 1], "float64")),
    ("banded solve, 33-long diagonal, nan then 0 float32", _B, _banded([1] * 4 + [_NAN] + [1] * 15 + [0] + [1] * 12,
                                                                       "float32")),
    ("banded solve, upper, diagonal [1, nan, 0] float64", _B, _banded([1, _NAN, 0], "float64", lower=False)),
    ("banded solve, complex diagonal [1, nan, 1, 1, 1, 0, 1, 1, 1]", _B, _eager(
        "tf.linalg.banded_triangular_solve(np.stack([np.array([1, float('nan'), 1, 1, 1, 0, 1, 1, 1]) * (1 + 1j), "
        "np.ones(9)]).astype(np.complex128), np.ones([9, 1], np.complex128), lower=True)")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)   # (complex: part by part)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_argument_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_fast_path_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_grappler_rewrites(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-banded-solve")
@EDGES.parametrize("ops.linalg-banded-solve")
def test_banded_solve_pivot_check(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-lstsq")
@EDGES.parametrize("ops.linalg-lstsq")
def test_lstsq_inputs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.random-in-function")
@EDGES.parametrize("ops.random-in-function")
def test_random_of_a_variable_in_function(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.empty-inputs")
@EDGES.parametrize("ops.empty-inputs")
def test_empty_rows(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz31b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
