"""tf.nn's convolution, pooling, normalization and sampling wrappers as TF 2.21 checks their
arguments (issue 29's fourteenth generator, fz16a's classes), each against real TensorFlow 2.21
(the same call on both backends gives the same dtype and bits, or raises the same exception
class): the candidate samplers' and ComputeAccidentalHits' eager fallback, op-def minimums and
shape functions; the sampled losses' order of reads and their sharded weights; the Python
wrappers' own checks (nn_ops.py) and the C++ shape functions that raise ValueError while a
tf.function is traced. Needs the `tf` extra.
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


def _seeded(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """make(tf) after tf.random.set_seed(3)."""
    def run(tf: Any) -> Any:
        tf.random.set_seed(3)
        return make(tf)
    return run


def _sharded_grad(tf: Any) -> Any:
    """The gradient of a sampled softmax loss over two weight shards (variables)."""
    tf.random.set_seed(3)
    w = [tf.Variable([[1.0, 2.0], [3.0, 4.0]]), tf.Variable([[5.0, 6.0], [0.5, 1.5]])]
    with tf.GradientTape() as g:
        loss = tf.reduce_sum(tf.nn.sampled_softmax_loss(
            w, tf.constant([0.1, 0.2, 0.3, 0.4]), tf.constant([[1], [3]], tf.int64),
            tf.constant([[1.0, -1.0], [0.5, 2.0]]), num_sampled=2, num_classes=4))
    return [tf.convert_to_tensor(x) for x in g.gradient(loss, w)]


_S = "ops.candidate-samplers"
_L = "ops.sampled-losses"
_W = "ops.nn-wrapper-order"
_C = _W
_N = "ops.nn-more"
_T = "function.trace-time-errors"
_I64 = np.int64
CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # the eager fallback (a NumPy or tensor attr, a list input) converts a tensor of another dtype: ValueError
    ("uniform sampler bool tensor, np.int64 num_sampled", _S,
     lambda tf: tf.random.uniform_candidate_sampler(tf.constant(True), 3, _I64(2), True, 0, seed=7)),
    ("uniform sampler bool tensor, Python ints", _S,
     lambda tf: tf.random.uniform_candidate_sampler(tf.constant([[True]]), 1, 1, True, 2)),
    ("all sampler float64 tensor, tensor num_sampled", _S,
     lambda tf: tf.random.all_candidate_sampler(tf.constant([[[[-3.0]], [[0.0]]]], tf.float64), 3, tf.constant(2),
                                                True)),
    ("fixed unigram float16 tensor, np.int64 num_sampled", _S,
     lambda tf: tf.nn.fixed_unigram_candidate_sampler(tf.constant([[[2.5]], [[4.0]]], tf.float16), 3, _I64(2), True,
                                                      _I64(2))),
    ("fixed unigram int32 tensor, np.float32 distortion", _S,
     lambda tf: tf.random.fixed_unigram_candidate_sampler(tf.constant([[1]]), 1, 1, True, 2, unigrams=[1.0, 2.0],
                                                          distortion=np.float32(1))),
    ("fixed unigram int32 tensor", _S,
     lambda tf: tf.random.fixed_unigram_candidate_sampler(tf.constant([[1]]), 1, 1, True, 2, unigrams=[1.0, 2.0])),
    ("accidental hits bool tensor, list candidates", _S,
     lambda tf: tf.nn.compute_accidental_hits(tf.constant([[False, False, False]]), [[0]], num_true=-1, seed=7)),
    ("accidental hits bool tensor, tensor candidates", _S,
     lambda tf: tf.nn.compute_accidental_hits(tf.constant([[False]]), tf.constant([1], tf.int64), 1)),
    # the op def's minimums (num_true, num_sampled, range_max >= 1)
    ("log-uniform num_sampled 0", _S, lambda tf: tf.random.log_uniform_candidate_sampler(
        np.array([-1, 3, -1], np.int32), num_true=2, num_sampled=0, unique=False, range_max=-1)),
    ("log-uniform num_sampled 0 traced", _S, _fn(lambda tf: tf.random.log_uniform_candidate_sampler(
        np.array([-1, 3, -1], np.int32), num_true=2, num_sampled=0, unique=False, range_max=-1))),
    ("uniform range_max 0", _S, lambda tf: tf.random.uniform_candidate_sampler(
        tf.constant([[1]], tf.int64), 1, 1, True, 0)),
    ("uniform range_max 0 traced", _S, _fn(lambda tf: tf.random.uniform_candidate_sampler(
        tf.constant([1], tf.int64), 1, 1, True, 0))),
    ("uniform bool tensor traced", _S, _fn(lambda tf: tf.random.uniform_candidate_sampler(
        tf.constant([[True]]), 1, 1, True, 2))),
    # the shape functions in a tf.function
    ("log-uniform rank-0 classes traced", _S, _fn(lambda tf: tf.random.log_uniform_candidate_sampler(
        true_classes=np.array(0.5, np.float32), num_true=2, num_sampled=1, unique=True, range_max=_I64(2), seed=7))),
    ("all sampler rank-4 classes traced", _S, _fn(lambda tf: tf.nn.all_candidate_sampler(
        np.array([[[[2, 0, 0]]]], np.int64), 5, num_sampled=1, unique=True, seed=7))),
    ("uniform num_true columns traced", _S, _fn(lambda tf: tf.random.uniform_candidate_sampler(
        tf.constant([[1, 2]], tf.int64), 1, 1, True, 2))),
    ("accidental hits rank-1 classes traced", _S,
     _fn(lambda tf: tf.nn.compute_accidental_hits(tf.constant([1], tf.int64), [1], 1))),
    ("accidental hits rank-2 candidates traced", _S,
     _fn(lambda tf: tf.nn.compute_accidental_hits(tf.constant([[1]], tf.int64), [[1]], 1))),
    ("accidental hits num_true columns traced", _S,
     _fn(lambda tf: tf.nn.compute_accidental_hits(tf.constant([[1]], tf.int64), [1], 2))),
    ("accidental hits traced", _S, _fn(lambda tf: tf.nn.compute_accidental_hits(tf.constant([[1]], tf.int64), [1], 1))),
    ("accidental hits int32 classes traced", _S,
     _fn(lambda tf: tf.nn.compute_accidental_hits(tf.constant([[1]]), [1], 1))),
    # the sampled losses: labels.dtype read first, then the sampler, the lookups, inputs.dtype
    ("nce_loss int labels", _L, lambda tf: tf.nn.nce_loss(
        weights=[[[[5, 1]]]], biases=2.5, labels=2, inputs=(tf.constant(1, tf.int16),), num_sampled=5,
        num_classes=-1)),
    ("nce_loss float labels", _L, lambda tf: tf.nn.nce_loss(
        np.array(2.5, np.float16), biases=0, labels=0.5, inputs=(tf.constant([], tf.int32),), num_sampled=_I64(2),
        num_classes=5, num_true=tf.constant(2), remove_accidental_hits="yes")),
    ("nce_loss bool labels, 4 shards", _L, lambda tf: tf.nn.nce_loss(
        weights=float("inf"), biases=[[1.0, 0.25], [0.5, -1.5], [1.0, 0.0], [0.0, 2.5]],
        labels=tf.constant([[True, False], [True, False], [True, True], [True, True]]),
        inputs=[2 ** 31, tf.constant([[4.0, 1.0], [0.25, 0.001], [-0.0, 0.25], [1.0, -1.0]])], num_sampled=1,
        num_classes=2)),
    ("nce_loss rank-1 labels", _L, lambda tf: tf.nn.nce_loss(
        np.array([-4, -1, 0, 0], np.int64), [0, -4, 5, 1], np.array([0, -1, 5, -1], np.int64),
        inputs=[2.5, 2, tf.constant([-4, -4, -1, 3], tf.int64)], num_sampled=2, num_classes=3, num_true=1,
        remove_accidental_hits=1)),
    ("sampled_softmax list labels", _L, lambda tf: tf.nn.sampled_softmax_loss(
        weights=2.5, biases=[[-3.0]], labels=[[0.5]], inputs=[0.5, [[0]], np.array([[5]], np.int16)],
        num_sampled=2, num_classes=2, num_true=3)),
    ("sampled_softmax num_true -1", _L, lambda tf: tf.nn.sampled_softmax_loss(
        [[0.25, 4.0, 0.5, -1.5], [4.0, 0.5, 0.0, -1.5]], biases=[[0.0, 0.5, 1.0, 0.25], [-3.0, 7.0, -0.0, 0.25]],
        labels=np.array(2.5, np.float16), inputs=(tf.constant([[-1.5, 1.0, 0.5, 4.0]], tf.float16),),
        num_sampled=2, num_classes=3, num_true=-1, remove_accidental_hits=False)),
    ("sampled_softmax num_sampled 0", _L, lambda tf: tf.nn.sampled_softmax_loss(
        3, biases=2.5, labels=tf.constant(-2147483648, tf.int32), inputs=[[-0.0], [-1], 1e-40], num_sampled=0,
        num_classes=1)),
    ("nce_loss scalar bias shards", _L, _seeded(lambda tf: tf.nn.nce_loss(
        [tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.constant([[0.5, 1.5], [2.5, 3.5]])],
        [0.1, 0.2, 0.3, 0.4, 0.5], tf.constant([[1], [4]], tf.int64), tf.constant([[1.0, -1.0], [0.5, 2.0]]),
        num_sampled=3, num_classes=5))),
    ("sampled_softmax 3 weight shards", _L, _seeded(lambda tf: tf.nn.sampled_softmax_loss(
        [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [0.5, 1.5]], [[2.5, 3.5], [1.0, 1.0]]],
        tf.constant([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]), tf.constant([[1], [4]], tf.int64),
        tf.constant([[1.0, -1.0], [0.5, 2.0]]), num_sampled=3, num_classes=6))),
    ("nce_loss 2 weight shards of 5 rows", _L, _seeded(lambda tf: tf.nn.nce_loss(
        [tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.constant([[0.5, 1.5], [2.5, 3.5]])],
        tf.constant([0.1, 0.2, 0.3, 0.4, 0.5]), tf.constant([[1], [4]], tf.int64),
        tf.constant([[1.0, -1.0], [0.5, 2.0]]), num_sampled=3, num_classes=5))),
    ("sampled_softmax sharded gradient", _L, _sharded_grad),
    # pooling wrappers: _get_sequence of ksize and strides before the padding and the op
    ("max_pool_with_argmax empty strides", _W, lambda tf: tf.nn.max_pool_with_argmax(
        np.array(0.5 + 0.5j, np.complex64), ksize=np.array([2, 0], np.int64), strides=[], padding="VALID")),
    ("max_pool_with_argmax stride 0 traced", _W, _fn(lambda tf: tf.nn.max_pool_with_argmax(
        tf.ones([1, 2, 2, 1]), tf.TensorShape([3]), (0,), "VALID", data_format="NHWC"))),
    ("max_pool_with_argmax stride 0", _W, lambda tf: tf.nn.max_pool_with_argmax(
        tf.ones([1, 2, 2, 1]), tf.TensorShape([3]), (0,), "VALID", data_format="NHWC")),
    ("avg_pool2d tensor ksize traced", _W, _fn(lambda tf: tf.nn.avg_pool2d(
        tf.ones([1, 2, 2, 1]), tf.constant([], tf.int32), [], "same"))),
    ("avg_pool2d ksize of 3 before padding", _W, lambda tf: tf.nn.avg_pool2d(
        np.complex128(-3.0 + 2.5j), ksize=tf.TensorShape([1, 2, 2]), strides=np.array([4, 4], np.int64),
        padding="same")),
    ("max_pool2d ksize of 3 before padding", _W, lambda tf: tf.nn.max_pool2d(
        tf.ones([1, 2, 2, 1]), ksize=np.array([1, 2, 2], np.int64), strides=(3,), padding="same")),
    ("avg_pool2d lowercase padding traced", _W, _fn(lambda tf: tf.nn.avg_pool2d(
        tf.ones([1, 2, 2, 1]), 1, 1, "same"))),
    ("max_pool1d NHWC format", _W, lambda tf: tf.nn.max_pool1d(
        tf.ones([2, 3, 2], tf.float64), [3], strides=(1, 2, 2), padding="SAME", data_format="NHWC")),
    ("max_pool1d NCW", _W, lambda tf: tf.nn.max_pool1d(tf.ones([2, 3, 2], tf.float64), [1], 1, "SAME",
                                                       data_format="NCW")),
    ("avg_pool1d NWC", _W, lambda tf: tf.nn.avg_pool1d(tf.reshape(tf.range(12.0), [2, 3, 2]), 2, 1, "SAME")),
    ("max_pool1d explicit padding", _W, lambda tf: tf.nn.max_pool1d(
        tf.reshape(tf.range(12.0), [2, 3, 2]), 2, 1, [[0, 0], [1, 1], [0, 0]])),
    ("pool tensor window traced", _W, _fn(lambda tf: tf.nn.pool(
        tf.ones([1, 3, 2]), tf.constant([], tf.int32), "MAX", strides=np.array([3], np.int64), padding="SAME",
        data_format="NWC"))),
    ("pool tensor window", _W, lambda tf: tf.nn.pool(
        tf.ones([1, 3, 2]), tf.constant([], tf.int32), "MAX", strides=np.array([3], np.int64), padding="SAME",
        data_format="NWC")),
    ("max_pool2d window larger than input traced", _W, _fn(lambda tf: tf.nn.max_pool2d(
        tf.ones([1, 2, 2, 1]), 3, 1, "VALID"))),
    # convolutions: nn_impl/nn_ops' order, shape functions at trace
    ("depthwise rank-1 input, tensor strides traced", _C, _fn(lambda tf: tf.nn.depthwise_conv2d(
        [True, True, True, False], filter=tf.ones([2, 2]), strides=tf.constant([2, 3], tf.int32), padding="SAME"))),
    ("depthwise rank-0 input, NWC", _C, lambda tf: tf.nn.depthwise_conv2d(
        np.array(True), filter=tf.constant([[1, -1], [1, -1]]), strides=np.array([1, 2, 2], np.int64),
        padding="SAME", data_format="NWC", dilations=tf.TensorShape([2, 3]))),
    ("depthwise lowercase padding, rank-1 input", _C, lambda tf: tf.nn.depthwise_conv2d(
        tf.constant([0, 2], tf.uint32), tf.constant([-3.0, 0.0]), tf.constant([1, 2, 2], tf.int32), "same")),
    ("depthwise int strides with dilations", _C, lambda tf: tf.nn.depthwise_conv2d(
        tf.ones([1, 4, 4, 1]), tf.ones([2, 2, 1, 1]), 1, "SAME", dilations=[2, 2])),
    ("depthwise dilated SAME", _C, lambda tf: tf.nn.depthwise_conv2d(
        tf.reshape(tf.range(2 * 7 * 7 * 2, dtype=tf.float32), [2, 7, 7, 2]) / 50.0, tf.ones([3, 3, 2, 2]) * 0.5,
        [1, 1, 1, 1], "SAME", dilations=[2, 2])),
    ("depthwise dilated with strides", _C, lambda tf: tf.nn.depthwise_conv2d(
        tf.reshape(tf.range(2 * 8 * 8 * 2, dtype=tf.float32), [2, 8, 8, 2]) / 50.0, tf.ones([3, 3, 2, 1]),
        [1, 2, 2, 1], "SAME", dilations=[2, 2])),
    ("convolution rank-0 input, 2 dilations for 1-D", _C, lambda tf: tf.nn.convolution(
        -0.0, np.ones([3, 3, 2], np.float32), padding="same", dilations=[2, 3])),
    ("convolution rank-0 input, rank-2 filters", _C, lambda tf: tf.nn.convolution(
        -(2 ** 63), [[1.0, 2.0, -1.0], [-1.5, 2.5, 2.5], [-3.0, 0.0, -3.0]])),
    ("atrous_conv2d scalars traced", _C, _fn(lambda tf: tf.nn.atrous_conv2d(
        value=0.0, filters=np.array(0.25j, np.complex64), rate=1.0, padding="VALID"))),
    ("atrous_conv2d rank-2 filters", _C, lambda tf: tf.nn.atrous_conv2d(
        [[-1.5, 0.25], [-1.0, 1.0]], filters=tf.constant([[1.0, 2.0], [3.0, 4.0]]), rate=1, padding="same")),
    ("conv2d NCHW scalar input", _C, lambda tf: tf.nn.conv2d(
        tf.constant(np.float16(2.5)), filters=-2.5, strides=tf.TensorShape([2, 3]), padding="VALID",
        data_format="NCHW")),
    ("conv2d NCHW rank-2 input traced", _C, _fn(lambda tf: tf.nn.conv2d(
        tf.ones([2, 2], tf.float64), tf.ones([1, 1, 1, 1], tf.float64), 1, "VALID", data_format="NCHW"))),
    ("conv1d NCHW scalar input", _C, lambda tf: tf.nn.conv1d(
        tf.constant(-0.0, tf.float16), filters=3, stride=[[0]], padding="SAME", data_format="NCHW")),
    ("conv1d NDHWC format", _C, lambda tf: tf.nn.conv1d(
        tf.ones([1, 2, 3]), tf.ones([1, 3, 1]), 1, "VALID", data_format="NDHWC")),
    ("conv1d batch dims", _C, lambda tf: tf.nn.conv1d(
        tf.reshape(tf.range(72.0), [2, 2, 6, 3]), tf.ones([2, 3, 4]) * 0.5, 1, "VALID")),
    ("conv1d dilated", _C, lambda tf: tf.nn.conv1d(
        tf.reshape(tf.range(36.0), [2, 6, 3]), tf.ones([2, 3, 4]) * 0.5, 1, "VALID", dilations=2)),
    ("conv2d_transpose scalar input traced", _C, _fn(lambda tf: tf.nn.conv2d_transpose(
        tf.constant(3), 0, (), (2, 3)))),
    ("conv2d_transpose scalar filter traced", _C, _fn(lambda tf: tf.nn.conv2d_transpose(
        tf.ones([1, 2, 2, 1]), tf.constant(3.0), [1, 2, 2, 1], 1))),
    ("conv2d_transpose 3 sizes traced", _C, _fn(lambda tf: tf.nn.conv2d_transpose(
        tf.ones([1, 2, 2, 1]), tf.ones([1, 1, 1, 1]), [1, 2, 2], 1))),
    # LRN, crelu, batch normalization, unique
    ("lrn Python int traced", _N, _fn(lambda tf: tf.nn.lrn(3, depth_radius=2, alpha=-1.0))),
    ("lrn Python int", _N, lambda tf: tf.nn.lrn(3, depth_radius=2, alpha=-1.0)),
    ("lrn float64 ndarray rank 3 traced", _N, _fn(lambda tf: tf.nn.lrn(np.ones([1, 3, 2]), alpha=3.0))),
    ("lrn rank-2 tensor traced", _N, _fn(lambda tf: tf.nn.local_response_normalization(tf.ones([2, 2])))),
    ("lrn int64 ndarray", _N, lambda tf: tf.nn.lrn(np.ones([1, 1, 1, 2], np.int64))),
    ("lrn complex ndarray", _N, lambda tf: tf.nn.lrn(np.ones([1, 1, 1, 2], np.complex64))),
    ("lrn int list", _N, lambda tf: tf.nn.lrn([[[[1, 1]]]])),
    ("crelu empty axis traced", _N, _fn(lambda tf: tf.nn.crelu(np.complex128(2.5 + 2.5j), axis=[]))),
    ("crelu empty axis", _N, lambda tf: tf.nn.crelu(np.complex128(2.5 + 2.5j), axis=[])),
    ("batch_norm_global Python input", _N, lambda tf: tf.nn.batch_norm_with_global_normalization(
        -1.5, 0.5, variance=tf.constant(0.5), beta=1e-6, gamma=float("nan"), variance_epsilon=np.float64(0.1),
        scale_after_normalization=False)),
    ("batch_norm_global int mean", _N, lambda tf: tf.nn.batch_norm_with_global_normalization(
        tf.constant([1.5], tf.float64), 0, np.array([0.001]), -1.0, 2, 2, True)),
    ("batch_normalization NumPy scalars", _N, lambda tf: tf.nn.batch_normalization(
        x=np.float32(0.0), mean=3, variance=0.001, offset=np.float32(0.25), scale=np.array(2.5, np.float32),
        variance_epsilon=np.float64(0.1))),
    ("batch_normalization int x traced", _N, _fn(lambda tf: tf.nn.batch_normalization(
        2 ** 31, [[1, -1]], variance=tf.constant([[1.0, 4.0]], tf.bfloat16), offset=[[0.001, 0.5]], scale=0,
        variance_epsilon=float("nan")))),
    ("batch_normalization ndarray x", _N, lambda tf: tf.nn.batch_normalization(
        np.array([[1.0, 2.0], [3.0, 4.0]]), tf.constant([1.0, 2.0]), tf.constant([0.5, 0.25]), 0.5, 2.0, 1e-3)),
    ("ctc_unique_labels complex vector traced", _N, _fn(lambda tf: tf.nn.ctc_unique_labels(
        np.array([1e-40 + 0.25j], np.complex128)))),
    # other ops' shape functions the reproducers reached (ValueError at trace)
    ("set_diag scalar input traced", _T, _fn(lambda tf: tf.linalg.set_diag(tf.constant(0.001), tf.constant([1.0])))),
    ("random_hue scalar image traced", _T, _fn(lambda tf: tf.image.random_hue(2.5, max_delta=float("nan")))),
    ("adjust_saturation rank-2 image traced", _T, _fn(lambda tf: tf.image.adjust_saturation(tf.ones([2, 3]), 0.5))),
    ("adjust_contrast rank-2 image traced", _T, _fn(lambda tf: tf.image.adjust_contrast(tf.ones([2, 3]), 0.5))),
    ("adjust_contrast rank-2 image", _T, lambda tf: tf.image.adjust_contrast(tf.ones([2, 3]), 0.5)),
    ("avg_pool2d window larger than input traced", _T, _fn(lambda tf: tf.nn.avg_pool2d(
        tf.ones([1, 2, 2, 1]), 3, 1, "VALID"))),
    ("conv2d filter larger than input traced", _T, _fn(lambda tf: tf.nn.conv2d(
        tf.ones([1, 2, 2, 1]), tf.ones([3, 3, 1, 1]), 1, "VALID"))),
    ("max_pool2d window larger than input", _T, lambda tf: tf.nn.max_pool2d(tf.ones([1, 2, 2, 1]), 3, 1, "VALID")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.candidate-samplers")
@EDGES.parametrize("ops.candidate-samplers")
def test_candidate_sampler_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.sampled-losses")
@EDGES.parametrize("ops.sampled-losses")
def test_sampled_loss_reads_and_shards(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-wrapper-order")
@EDGES.parametrize("ops.nn-wrapper-order")
def test_pool_and_conv_wrapper_order(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-more")
@EDGES.parametrize("ops.nn-more")
def test_normalization_and_friends(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_shape_functions_at_trace(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz16a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
