"""Rules found by the option audit (docs/conformance.md "Option coverage of the suite"), against
real TF 2.21 + Keras 3.15: MultiHeadAttention's activity_regularizer penalises its four projections'
outputs and not its own output again (keras.reg.layer-losses); Bidirectional(weights=...) is
accepted and ignored, and stateful layers carry their states through fit and predict
(keras.rnn.layers); the depthwise backprops ignore their dilations and abort
on an out_backprop of the wrong size in float32/bfloat16 (InvalidArgumentError otherwise), conv_transpose with a 5-long output_shape is 3-D
(ops.nn-more); the max/avg pools, `pool`, depthwise/separable, 1-D, 3-D and transposed convolutions and the
depthwise backprops with
channels-first formats (float32: the NHWC values transposed; other dtypes the default kernels'
errors; the default depthwise kernel wants equal row and column strides) (ops.nn-more); ctc_loss takes `unique`
(ops.nn-ctc); depth_to_space/space_to_depth find no NCHW
kernel (ops.space-batch). Needs the `tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_X = (np.arange(30, dtype=np.float32).reshape(2, 5, 3) % 7 - 3.0) * np.float32(0.3)


def _mha_losses(tf: Any, use_gate: bool) -> Any:
    k = tf.keras
    k.backend.clear_session()
    layer = k.layers.MultiHeadAttention(2, 3, use_gate=use_gate, activity_regularizer=k.regularizers.L1L2(0.01, 0.02),
                                        kernel_initializer=k.initializers.Constant(0.1), bias_initializer="ones")
    out = layer(tf.constant(_X), tf.constant(_X))
    return np.array([float(np.asarray(v)) for v in layer.losses] + [float(np.asarray(out).sum())])


def _bidirectional_weights(tf: Any) -> Any:
    k = tf.keras
    k.backend.clear_session()
    given = [np.full((3, 8), 0.5, np.float32), np.full((2, 8), -0.5, np.float32), np.full((8,), 2.0, np.float32)] * 2
    layer = k.layers.Bidirectional(k.layers.LSTM(2, kernel_initializer=k.initializers.Constant(0.2),
                                                 recurrent_initializer=k.initializers.Constant(0.1)), weights=given)
    out = layer(tf.constant(_X))
    return np.concatenate([np.asarray(w).ravel() for w in layer.get_weights()] + [np.asarray(out).ravel()])


def _dw_backprop(tf: Any, which: str, dtype: str, dilations: list[int], size: int) -> Any:
    f = tf.cast(tf.constant(np.arange(8, dtype=np.float32).reshape(2, 2, 2, 1) / 7), dtype)
    g = tf.cast(tf.constant(np.arange(size * size * 2, dtype=np.float32).reshape(1, size, size, 2) / 9), dtype)
    x = tf.cast(tf.constant(np.arange(50, dtype=np.float32).reshape(1, 5, 5, 2) / 11), dtype)
    if which == "input":
        return tf.nn.depthwise_conv2d_backprop_input([1, 5, 5, 2], f, g, [1, 1, 1, 1], "VALID", dilations=dilations)
    return tf.nn.depthwise_conv2d_backprop_filter(x, [2, 2, 2, 1], g, [1, 1, 1, 1], "VALID", dilations=dilations)


def _conv_transpose_3d(tf: Any) -> Any:
    x = tf.constant((np.arange(36, dtype=np.float32).reshape(1, 3, 2, 3, 2) % 5 - 2) / 3)
    k = tf.constant((np.arange(48, dtype=np.float32).reshape(2, 2, 2, 3, 2) % 7 - 3) / 4)
    return [tf.nn.conv_transpose(x, k, [1, 5, 4, 5, 3], 1, "VALID", dilations=2),
            tf.nn.conv_transpose(x, k, [1, 6, 4, 6, 3], 2, "SAME")]


def _ctc_unique(tf: Any) -> Any:
    logits = tf.constant((np.arange(60, dtype=np.float32).reshape(6, 2, 5) * 0.37) % 2.3 - 1.1)
    labels = tf.constant([[1, 2, 2], [3, 1, 0]])
    unique = (tf.constant([[1, 2, 0], [3, 1, 0]]), tf.constant([[0, 1, 1], [0, 1, 2]]))
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.nn.ctc_loss(labels, logits, tf.constant([3, 2]), tf.constant([6, 6]), unique=unique, blank_index=4)
    return [loss, tape.gradient(loss, logits)]


def _stateful_fit(tf: Any, kind: str) -> Any:
    """fit (shuffle=False, batches of 2) and predict through a stateful recurrent layer: the states
    run on across batches and epochs (fit does not reset them)."""
    k = tf.keras
    k.backend.clear_session()
    x = (np.arange(72, dtype=np.float32).reshape(6, 4, 3) % 7 - 3) / 4
    y = (np.arange(6, dtype=np.float32) % 3 - 1).reshape(6, 1)
    rnn = getattr(k.layers, kind)(2, stateful=True, kernel_initializer=k.initializers.Constant(0.1),
                                  recurrent_initializer=k.initializers.Constant(-0.2))
    m = k.Sequential([k.Input(batch_shape=(2, 4, 3)), rnn, k.layers.Dense(1, kernel_initializer="ones")])
    m.compile(optimizer=k.optimizers.SGD(0.1), loss="mse")
    hist = m.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0)
    states = [np.asarray(v.value if hasattr(v, "value") else v) for v in rnn.states]
    pred = m.predict(x, batch_size=2, verbose=0)
    return [np.array(hist.history["loss"]), *states, pred, *[np.asarray(w) for w in m.get_weights()]]


CASES = [("mha-activity-losses", "keras.reg.layer-losses", lambda tf: _mha_losses(tf, False), 1e-5),
         ("mha-gate-activity-losses", "keras.reg.layer-losses", lambda tf: _mha_losses(tf, True), 1e-5),
         ("bidirectional-weights-ignored", "keras.rnn.layers", _bidirectional_weights, 1e-5)]
CASES += [(f"stateful-{kind}-fit", "keras.rnn.layers", (lambda tf, kind=kind: _stateful_fit(tf, kind)), 1e-5)
          for kind in ("SimpleRNN", "GRU", "LSTM")]
CASES += [(f"depthwise-backprop-{w}-{dt}-dilated{d[1]}{d[2]}-out{n}", "ops.nn-more",
           (lambda tf, w=w, dt=dt, d=d, n=n: _dw_backprop(tf, w, dt, d, n)), 1e-6)
          for w in ("input", "filter") for dt in ("float32", "bfloat16", "float64")
          for d in ([1, 2, 2, 1], [1, 1, 2, 1], [1, 1, 1, 1]) for n in (4, 3)]
CASES += [(f"{op}-nchw-{dt}", "ops.space-batch",
           (lambda tf, op=op, dt=dt: getattr(tf.nn, op)(tf.cast(tf.ones([1, 4, 2, 2]), dt), 2, data_format="NCHW")),
           0.0) for op in ("depth_to_space", "space_to_depth") for dt in ("float32", "int32")]
CASES += [("depth-to-space-nchw-traced", "ops.space-batch", edge_compare.traced(
    lambda tf, x: tf.nn.depth_to_space(x, 2, data_format="NCHW"), lambda tf: tf.ones([1, 4, 2, 2])), 0.0)]
def _pools(tf: Any, dt: str) -> Any:
    """The 1-, 2- and 3-D pools and `pool` with channels-first data formats."""
    c = (lambda a: tf.cast(tf.constant(a), dt))
    x4 = c((np.arange(120) % 7 - 3).reshape(2, 3, 5, 4) / 3)
    x3 = c((np.arange(30) % 7 - 3).reshape(2, 3, 5) / 3)
    x5 = c((np.arange(256) % 7 - 3).reshape(2, 2, 4, 4, 4) / 3)
    return [tf.nn.max_pool2d(x4, 2, [1, 1, 2, 1], "SAME", data_format="NCHW"),
            tf.nn.avg_pool2d(x4, [2, 3], 2, "VALID", data_format="NCHW"),
            tf.nn.avg_pool(x3, 2, 1, "SAME", data_format="NCW"), tf.nn.max_pool1d(x3, 2, 2, "SAME", data_format="NCW"),
            tf.nn.max_pool3d(x5, 2, [1, 1, 2, 1, 2], "VALID", data_format="NCDHW"),
            tf.nn.avg_pool3d(x5, 2, 2, "SAME", data_format="NCDHW"),
            tf.nn.pool(x4, [2, 2], "MAX", strides=[2, 1], padding="VALID", data_format="NCHW"),
            tf.nn.pool(x3, [2], "AVG", strides=[2], padding="SAME", data_format="NCW")]


def _pool_one(tf: Any, dt: str, which: int) -> Any:
    return _pools(tf, dt)[which] if dt == "float32" else _POOL_ALONE[which](tf, dt)


_POOL_ALONE = [
    lambda tf, dt: tf.nn.max_pool2d(tf.cast(tf.ones([1, 2, 4, 4]), dt), 2, 2, "VALID", data_format="NCHW"),
    lambda tf, dt: tf.nn.avg_pool2d(tf.cast(tf.ones([1, 2, 4, 4]), dt), 2, 2, "VALID", data_format="NCHW"),
    lambda tf, dt: tf.nn.avg_pool(tf.cast(tf.ones([1, 2, 4]), dt), 2, 1, "SAME", data_format="NCW"),
    lambda tf, dt: tf.nn.max_pool1d(tf.cast(tf.ones([1, 2, 4]), dt), 2, 2, "SAME", data_format="NCW"),
    lambda tf, dt: tf.nn.max_pool3d(tf.cast(tf.ones([1, 2, 4, 4, 4]), dt), 2, 2, "VALID", data_format="NCDHW"),
    lambda tf, dt: tf.nn.avg_pool3d(tf.cast(tf.ones([1, 2, 4, 4, 4]), dt), 2, 2, "SAME", data_format="NCDHW"),
    lambda tf, dt: tf.nn.pool(tf.cast(tf.ones([1, 2, 4, 4]), dt), [2, 2], "MAX", strides=[2, 1], padding="VALID",
                              data_format="NCHW"),
    lambda tf, dt: tf.nn.pool(tf.cast(tf.ones([1, 2, 4]), dt), [2], "AVG", strides=[2], padding="SAME",
                              data_format="NCW"),
]

CASES += [(f"pool-nc-{dt}-{i}", "ops.nn-more", (lambda tf, dt=dt, i=i: _pool_one(tf, dt, i)), 1e-6)
          for dt in ("float32", "float64", "int32") for i in range(len(_POOL_ALONE))]
def _conv_nc(tf: Any, dt: str, which: str) -> Any:
    """Channels-first depthwise, separable, 1-D and transposed convolutions."""
    c = (lambda a: tf.cast(tf.constant(a), dt))
    x4 = c((np.arange(120) % 7 - 3).reshape(2, 2, 5, 6) / 3)
    x3 = c((np.arange(28) % 7 - 3).reshape(2, 2, 7) / 3)
    dk, pk = c((np.arange(24) % 5 - 2).reshape(2, 3, 2, 2) / 4), c((np.arange(12) % 5 - 2).reshape(1, 1, 4, 3) / 4)
    k1, kt = c((np.arange(18) % 5 - 2).reshape(3, 2, 3) / 4), c((np.arange(24) % 5 - 2).reshape(2, 2, 3, 2) / 4)
    kt1 = c((np.arange(18) % 5 - 2).reshape(3, 3, 2) / 4)
    return {"dw": lambda: tf.nn.depthwise_conv2d(x4, dk, [1, 1, 2, 1], "SAME", data_format="NCHW"),
            "dw-equal": lambda: tf.nn.depthwise_conv2d(x4, dk, [1, 1, 2, 2], "SAME", data_format="NCHW"),
            "dw-nhwc-unequal": lambda: tf.nn.depthwise_conv2d(tf.transpose(x4, [0, 2, 3, 1]), dk, [1, 2, 1, 1], "SAME"),
            "dw-dilated": lambda: tf.nn.depthwise_conv2d(x4, dk, [1, 1, 1, 1], "VALID", data_format="NCHW",
                                                         dilations=[2, 1]),
            "sep": lambda: tf.nn.separable_conv2d(x4, dk, pk, [1, 1, 1, 1], "VALID", data_format="NCHW"),
            "conv1d": lambda: tf.nn.conv1d(x3, k1, 2, "SAME", data_format="NCW"),
            "conv1d-dilated": lambda: tf.nn.conv1d(x3, k1, 1, "VALID", data_format="NCW", dilations=2),
            "conv2d-t": lambda: tf.nn.conv2d_transpose(x4, kt, [2, 3, 10, 12], 2, "SAME", data_format="NCHW"),
            "conv1d-t": lambda: tf.nn.conv1d_transpose(x3, kt1, [2, 3, 15], 2, "VALID", data_format="NCW"),
            "conv-t": lambda: tf.nn.conv_transpose(x4, kt, [2, 3, 6, 7], 1, "VALID", data_format="NCHW")}[which]()


CASES += [(f"conv-nc-{w}-{dt}", "ops.nn-more", (lambda tf, dt=dt, w=w: _conv_nc(tf, dt, w)), 1e-5)
          for dt in ("float32", "float64", "int32")
          for w in ("dw", "dw-equal", "dw-nhwc-unequal", "dw-dilated", "sep", "conv1d", "conv1d-dilated", "conv2d-t",
                    "conv1d-t", "conv-t")]
def _conv3d_nc(tf: Any, dt: str, which: str) -> Any:
    """NCDHW 3-D convolutions and NCHW depthwise backprops."""
    c = (lambda a: tf.cast(tf.constant(a), dt))
    x5 = c((np.arange(160) % 7 - 3).reshape(2, 2, 4, 4, 5) / 3)
    k3, kt3 = c((np.arange(48) % 5 - 2).reshape(2, 2, 2, 2, 3) / 4), c((np.arange(48) % 5 - 2).reshape(2, 2, 2, 3, 2) / 4)
    f, g = c((np.arange(8) % 5 - 2).reshape(2, 2, 2, 1) / 4), c((np.arange(64) % 7 - 3).reshape(2, 2, 4, 4) / 3)
    x4 = c((np.arange(100) % 7 - 3).reshape(2, 2, 5, 5) / 3)
    return {"c3": lambda: tf.nn.conv3d(x5, k3, [1, 1, 1, 2, 1], "SAME", data_format="NCDHW"),
            "c3-dilated": lambda: tf.nn.conv3d(x5, k3, [1, 1, 1, 1, 1], "VALID", data_format="NCDHW",
                                               dilations=[1, 1, 2, 1, 1]),
            "c3t": lambda: tf.nn.conv3d_transpose(x5, kt3, [2, 3, 8, 8, 10], 2, "SAME", data_format="NCDHW"),
            "ct3": lambda: tf.nn.conv_transpose(x5, kt3, [2, 3, 5, 5, 6], 1, "VALID", data_format="NCDHW"),
            "dwbi": lambda: tf.nn.depthwise_conv2d_backprop_input([2, 2, 5, 5], f, g, [1, 1, 1, 1], "VALID",
                                                                  data_format="NCHW"),
            "dwbf": lambda: tf.nn.depthwise_conv2d_backprop_filter(x4, [2, 2, 2, 1], g, [1, 1, 1, 1], "VALID",
                                                                   data_format="NCHW")}[which]()


CASES += [(f"conv3d-nc-{w}-{dt}", "ops.nn-more", (lambda tf, dt=dt, w=w: _conv3d_nc(tf, dt, w)), 1e-5)
          for dt in ("float32", "float64", "int32") for w in ("c3", "c3-dilated", "c3t", "ct3", "dwbi", "dwbf")]
CASES += [("conv-transpose-3d", "ops.nn-more", _conv_transpose_3d, 1e-5),
          ("ctc-loss-unique", "ops.nn-ctc", _ctc_unique, 1e-5)]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.within(case[3]))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("keras.reg.layer-losses")
@EDGES.parametrize("keras.reg.layer-losses")
def test_mha_activity_regularizer_losses(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("keras.rnn.layers")
@EDGES.parametrize("keras.rnn.layers")
def test_bidirectional_weights_and_stateful_layers(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-more")
@EDGES.parametrize("ops.nn-more")
def test_depthwise_backprop_dilations_and_3d_conv_transpose(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.space-batch")
@EDGES.parametrize("ops.space-batch")
def test_depth_space_moves_refuse_nchw(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-ctc")
@EDGES.parametrize("ops.nn-ctc")
def test_ctc_loss_takes_unique(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_options2_rules_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
