"""tf.nn's error paths against real TensorFlow 2.21: the same program on both backends must raise
the same exception class with the same message (TF's message normalised: its
`{{function_node ...}}` prefix, the `; NodeDef: ...` op description and the trailing
` name: ...` are dropped; simdist writes the rest as TF does, ending in `[Op:Name]`).

Each case is a program written once against a `tf` module. Needs the `tf` extra.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _x(tf: Any) -> Any:
    return tf.constant([[-1.0, 2.0], [3.0, -4.0]])


def _i(tf: Any) -> Any:
    return tf.constant([[-1, 2], [3, -4]])


def _img(tf: Any, shape: tuple = (2, 5, 5, 3)) -> Any:
    return tf.constant(np.arange(np.prod(shape), dtype=np.float32).reshape(shape) / 10)


def _mirrored(tf: Any) -> Any:
    return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def _in_scope(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def prog(tf: Any) -> Any:
        with _mirrored(tf).scope():
            return fn(tf)
    return prog


CASES: list[tuple[str, Callable[[Any], Any]]] = [
    # dtype rules
    ("relu(bool)", lambda tf: tf.nn.relu(tf.constant([True]))),
    ("elu(int32)", lambda tf: tf.nn.elu(_i(tf))),
    ("selu(int32)", lambda tf: tf.nn.selu(_i(tf))),
    ("sigmoid(int32)", lambda tf: tf.nn.sigmoid(_i(tf))),
    ("tanh(int32)", lambda tf: tf.math.tanh(_i(tf))),
    ("softplus(int32)", lambda tf: tf.nn.softplus(_i(tf))),
    ("softsign(int32)", lambda tf: tf.nn.softsign(_i(tf))),
    ("silu(int32)", lambda tf: tf.nn.silu(_i(tf))),
    ("softmax(int32)", lambda tf: tf.nn.softmax(_i(tf))),
    ("log_softmax(int32)", lambda tf: tf.nn.log_softmax(_i(tf))),
    ("l2_loss(int32)", lambda tf: tf.nn.l2_loss(_i(tf))),
    ("gelu(int32)", lambda tf: tf.nn.gelu(_i(tf))),
    ("avg_pool2d(int32)", lambda tf: tf.nn.avg_pool2d(tf.ones([1, 4, 4, 1], tf.int32), 2, 2, "VALID")),
    ("conv2d(float64, float32)", lambda tf: tf.nn.conv2d(tf.ones([1, 3, 3, 1], tf.float64),
                                                          tf.ones([1, 1, 1, 1]), 1, "SAME")),
    ("bias_add(float, int bias)", lambda tf: tf.nn.bias_add(_x(tf), tf.constant([1, 2]))),
    ("sigmoid_xent(int32)", lambda tf: tf.nn.sigmoid_cross_entropy_with_logits(labels=_i(tf), logits=_i(tf))),
    ("softmax_xent(int32)", lambda tf: tf.nn.softmax_cross_entropy_with_logits(labels=_i(tf), logits=_i(tf))),
    ("sparse_xent(float labels)",
     lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0.0, 1.0], logits=_x(tf))),
    ("sparse_xent(int logits)", lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1],
                                                                                          logits=_i(tf))),
    ("embedding_lookup(float ids)", lambda tf: tf.nn.embedding_lookup(_x(tf), [1.0, 0.0])),
    ("leaky_relu(alpha tensor)", lambda tf: tf.nn.leaky_relu(_x(tf), alpha=tf.constant(0.1))),
    # softmax / log_softmax
    ("softmax(axis=5)", lambda tf: tf.nn.softmax(_x(tf), axis=5)),
    ("softmax(axis=-3)", lambda tf: tf.nn.softmax(_x(tf), axis=-3)),
    ("softmax(scalar float32)", lambda tf: tf.nn.softmax(tf.constant(1.0))),
    ("softmax(scalar float64)", lambda tf: tf.nn.softmax(tf.constant(1.0, tf.float64))),
    ("softmax(rank 6 float32)", lambda tf: tf.nn.softmax(tf.ones([1, 1, 1, 1, 1, 2]))),
    ("log_softmax(scalar)", lambda tf: tf.nn.log_softmax(tf.constant(1.0))),
    # bias_add
    ("bias_add(wrong size)", lambda tf: tf.nn.bias_add(_x(tf), [1.0, 2.0, 3.0])),
    ("bias_add(rank 1 value)", lambda tf: tf.nn.bias_add(tf.constant([1.0, 2.0]), [1.0, 2.0])),
    ("bias_add(2-d bias)", lambda tf: tf.nn.bias_add(_x(tf), [[1.0, 2.0]])),
    ("bias_add(data_format)", lambda tf: tf.nn.bias_add(_x(tf), [1.0, 2.0], data_format="HWCN")),
    # sparse cross entropy
    ("sparse_xent(label too big)", lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 2],
                                                                                             logits=_x(tf))),
    ("sparse_xent(negative label)", lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[-1, 0],
                                                                                              logits=_x(tf))),
    ("sparse_xent(several bad labels)", lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=[3, 7, 1], logits=tf.ones([3, 2], tf.float64))),
    ("sparse_xent(3-d, bad label)", lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=[[0, 5]], logits=tf.zeros([1, 2, 3]))),
    ("sparse_xent(rank mismatch)", lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[0, 1]],
                                                                                             logits=_x(tf))),
    ("sparse_xent(shape mismatch)", lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1, 1],
                                                                                              logits=_x(tf))),
    ("sparse_xent(scalar logits)", lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=0, logits=tf.constant(1.0))),
    ("sparse_xent(no classes)", lambda tf: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0],
                                                                                          logits=tf.ones([1, 0]))),
    # softmax and sigmoid cross entropy
    ("softmax_xent(not broadcastable)", lambda tf: tf.nn.softmax_cross_entropy_with_logits(
        labels=[[0.0, 1.0, 0.0]], logits=_x(tf))),
    ("softmax_xent(rank mismatch)", lambda tf: tf.nn.softmax_cross_entropy_with_logits(
        labels=tf.ones([3, 4]), logits=tf.ones([2, 3, 4]))),
    ("softmax_xent(axis=2)", lambda tf: tf.nn.softmax_cross_entropy_with_logits(labels=_x(tf), logits=_x(tf), axis=2)),
    ("softmax_xent(axis=-2)", lambda tf: tf.nn.softmax_cross_entropy_with_logits(labels=_x(tf), logits=_x(tf),
                                                                                 axis=-2)),
    ("sigmoid_xent(shape mismatch)", lambda tf: tf.nn.sigmoid_cross_entropy_with_logits(labels=[[0.0, 1.0, 0.0]],
                                                                                        logits=_x(tf))),
    ("sigmoid_xent(labels None)", lambda tf: tf.nn.sigmoid_cross_entropy_with_logits(labels=None, logits=[1.0])),
    ("weighted_xent(shape mismatch)", lambda tf: tf.nn.weighted_cross_entropy_with_logits(
        labels=[1.0, 0.0], logits=[1.0], pos_weight=2.0)),
    # dropout
    ("dropout(int32)", lambda tf: tf.nn.dropout(_i(tf), 0.5)),
    ("dropout(rate=1)", lambda tf: tf.nn.dropout(_x(tf), 1.0)),
    ("dropout(rate=-0.1)", lambda tf: tf.nn.dropout(_x(tf), -0.1)),
    ("dropout(rate='a')", lambda tf: tf.nn.dropout(_x(tf), "a")),
    ("dropout(noise_shape not broadcastable)", lambda tf: tf.nn.dropout(_x(tf), 0.5, noise_shape=[3, 1])),
    ("stateless_dropout(seed of 3)", lambda tf: tf.nn.experimental.stateless_dropout(_x(tf), 0.5, seed=[1, 2, 3])),
    ("stateless_dropout(int seed)", lambda tf: tf.nn.experimental.stateless_dropout(_x(tf), 0.5, seed=1)),
    ("stateless_dropout(float seed)", lambda tf: tf.nn.experimental.stateless_dropout(_x(tf), 0.5, seed=[1.0, 2.0])),
    ("stateless_dropout(rng_alg)", lambda tf: tf.nn.experimental.stateless_dropout(_x(tf), 0.5, seed=[1, 2],
                                                                                   rng_alg="foo")),
    ("stateless_dropout(rate=1)", lambda tf: tf.nn.experimental.stateless_dropout(_x(tf), 1.0, seed=[1, 2])),
    # convolution
    ("conv2d(depth mismatch)", lambda tf: tf.nn.conv2d(_img(tf), tf.ones([3, 3, 2, 4]), 1, "SAME")),
    ("conv2d(filter too big)", lambda tf: tf.nn.conv2d(_img(tf), tf.ones([7, 7, 3, 4]), 1, "VALID")),
    ("conv2d(batch stride)", lambda tf: tf.nn.conv2d(_img(tf), tf.ones([3, 3, 3, 4]), [2, 1, 1, 1], "SAME")),
    ("conv2d(padding 'same')", lambda tf: tf.nn.conv2d(_img(tf), tf.ones([3, 3, 3, 4]), 1, "same")),
    ("conv2d(padding 'EXPLICIT')", lambda tf: tf.nn.conv2d(_img(tf), tf.ones([3, 3, 3, 4]), 1, "EXPLICIT")),
    ("conv2d(explicit padding of 3)", lambda tf: tf.nn.conv2d(_img(tf), tf.ones([3, 3, 3, 4]), 1,
                                                              [[0, 0], [1, 1], [1, 1]])),
    ("conv2d(NCHW float64)", lambda tf: tf.nn.conv2d(tf.ones([1, 3, 4, 4], tf.float64), tf.ones([3, 3, 3, 2],
                                                                                                tf.float64),
                                                      1, "SAME", data_format="NCHW")),
    ("conv2d(NCHW, depth stride)", lambda tf: tf.nn.conv2d(tf.ones([1, 3, 4, 4]), tf.ones([3, 3, 3, 2]),
                                                           [1, 2, 1, 1], "SAME", data_format="NCHW")),
    ("conv2d(NCHW depth mismatch)", lambda tf: tf.nn.conv2d(tf.ones([1, 3, 4, 4]), tf.ones([3, 3, 2, 2]), 1,
                                                            "SAME", data_format="NCHW")),
    ("conv2d(stride 0)", lambda tf: tf.nn.conv2d(_img(tf), tf.ones([3, 3, 3, 4]), 0, "VALID")),
    ("max_pool2d(stride 0)", lambda tf: tf.nn.max_pool2d(_img(tf), 2, 0, "VALID")),
    ("avg_pool2d(stride 0, SAME)", lambda tf: tf.nn.avg_pool2d(_img(tf), 2, 0, "SAME")),
    ("max_pool2d(ksize 0)", lambda tf: tf.nn.max_pool2d(_img(tf), 0, 1, "VALID")),
    ("avg_pool2d(ksize 0)", lambda tf: tf.nn.avg_pool2d(_img(tf), [2, 0], 1, "VALID")),
    ("conv2d(strides of 3)", lambda tf: tf.nn.conv2d(_img(tf), tf.ones([3, 3, 3, 4]), [1, 1, 1], "SAME")),
    ("depthwise_conv2d(int strides)", lambda tf: tf.nn.depthwise_conv2d(_img(tf), tf.ones([3, 3, 3, 1]), 1, "SAME")),
    ("depthwise_conv2d(strides of 2)", lambda tf: tf.nn.depthwise_conv2d(_img(tf), tf.ones([3, 3, 3, 1]), [1, 1],
                                                                         "SAME")),
    ("depthwise_conv2d(depth mismatch)", lambda tf: tf.nn.depthwise_conv2d(_img(tf), tf.ones([3, 3, 2, 1]),
                                                                           [1, 1, 1, 1], "SAME")),
    ("convolution(strides and dilations)", lambda tf: tf.nn.convolution(_img(tf), tf.ones([3, 3, 3, 4]), strides=2,
                                                                        dilations=2, padding="SAME")),
    # pooling
    ("max_pool2d(window too big)", lambda tf: tf.nn.max_pool2d(_img(tf), 7, 1, "VALID")),
    ("max_pool2d(batch window)", lambda tf: tf.nn.max_pool2d(_img(tf), [2, 2, 2, 1], [1, 2, 2, 1], "VALID")),
    ("max_pool2d(rank 3)", lambda tf: tf.nn.max_pool2d(_img(tf, (5, 5, 3)), 2, 2, "VALID")),
    ("avg_pool2d(explicit padding)", lambda tf: tf.nn.avg_pool2d(_img(tf), 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]])),
    # losses under strategies
    ("compute_average_loss(float global_batch_size)", lambda tf: tf.nn.compute_average_loss(
        [1.0, 2.0], global_batch_size=8.0)),
    ("compute_average_loss(negative global_batch_size)", lambda tf: tf.nn.compute_average_loss(
        [1.0, 2.0], global_batch_size=-8)),
    ("compute_average_loss(vector global_batch_size)", lambda tf: tf.nn.compute_average_loss(
        [1.0, 2.0], global_batch_size=[8])),
    ("compute_average_loss(scalar loss)", lambda tf: tf.nn.compute_average_loss(tf.constant(1.0))),
    ("compute_average_loss(sample_weight not broadcastable)", lambda tf: tf.nn.compute_average_loss(
        [1.0, 2.0, 3.0, 4.0], sample_weight=[1.0, 2.0])),
    ("compute_average_loss(cross-replica)", _in_scope(lambda tf: tf.nn.compute_average_loss([1.0, 2.0]))),
    ("scale_regularization_loss(cross-replica)", _in_scope(lambda tf: tf.nn.scale_regularization_loss([1.0]))),
    # embedding lookups
    ("embedding_lookup(id out of range)", lambda tf: tf.nn.embedding_lookup(_x(tf), [1, 2, 0])),
]


def normalise_message(msg: str) -> str:
    """TF's message without its eager-function prefix, NodeDef description and name suffix."""
    msg = re.sub(r"^\{\{function_node [^}]*\}\} ", "", msg)
    msg = re.sub(r"\n\t; NodeDef: .*?(?= \[Op:)", "", msg, flags=re.S)
    return re.sub(r" name: $", "", msg)


def run_case(tf: Any, k: int) -> tuple[str, str]:
    name, prog = CASES[k]
    try:
        out = prog(tf)
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return type(e).__name__, normalise_message(str(e))
    return "no error", repr(np.asarray(out))


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    return {k: run_case(tf, k) for k in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.parametrize("k", range(len(CASES)), ids=[name for name, _ in CASES])
def test_same_error_as_tensorflow(k: int, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    from strategies_helpers import cpus
    cpus(2)
    want = tf_results[k]
    assert want[0] != "no error", f"TF 2.21 raised nothing for {CASES[k][0]} (gave {want[1]})"
    got = run_case(tf, k)
    assert got[0] == want[0], f"{CASES[k][0]}: simdist raised {got[0]}: {got[1]!r}, but TF 2.21 raises {want[0]}: " \
                              f"{want[1]!r}"
    assert got[1] == want[1], f"{CASES[k][0]}: simdist's message is {got[1]!r}, TF 2.21's is {want[1]!r}"


if __name__ == "__main__":  # TF worker: python test_nn_errors_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
