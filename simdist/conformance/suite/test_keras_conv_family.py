"""Conv1D (causal padding), DepthwiseConv2D, SeparableConv2D, UpSampling1D/2D and
ZeroPadding1D/2D — clauses keras.layer.conv1d, keras.layer.depthwise-separable,
keras.layer.upsampling-padding, keras.layer.conv-family.symbolic, .arguments and .fit
(TF 2.21 + Keras 3.15).

Expected values come from NumPy references written here (direct loops over output positions in
float64, np.repeat, np.pad), never from the backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.repro import Program

clause = pytest.mark.clause

SEQ = (np.arange(2 * 7 * 3, dtype=np.float32).reshape(2, 7, 3) % 5 - 2.0) / 2.0          # (2, 7, 3)
IMG = (np.arange(2 * 5 * 4 * 2, dtype=np.float32).reshape(2, 5, 4, 2) % 7 - 3.0) / 2.0   # (2, 5, 4, 2)

_LAYER_PROGRAM = """
layer = getattr(tf.keras.layers, name)(**kwargs)
layer(tf.constant(x))
layer.set_weights(weights)
y = layer(tf.constant(x)).numpy()
shapes = [tuple(int(d) for d in w.shape) for w in layer.weights]
"""


def _causal_conv1d_ref(x: np.ndarray, k: np.ndarray, b: np.ndarray, d: int) -> np.ndarray:
    """y[t] = sum_j x[t - d*(K-1-j)] @ k[j] + b, inputs before step 0 being zero (float64)."""
    n, steps, _ = x.shape
    kk = k.shape[0]
    out = np.zeros((n, steps, k.shape[2]))
    for t in range(steps):
        for j in range(kk):
            src = t - d * (kk - 1 - j)
            if src >= 0:
                out[:, t, :] += x[:, src, :].astype(np.float64) @ k[j].astype(np.float64)
    return out + b


def _depthwise_ref(x: np.ndarray, k: np.ndarray) -> np.ndarray:
    """VALID depthwise correlation: output channel c*M + m = input channel c with k[:, :, c, m]."""
    n, h, w, c = x.shape
    kh, kw, _, m = k.shape
    out = np.zeros((n, h - kh + 1, w - kw + 1, c * m))
    for i in range(h - kh + 1):
        for j in range(w - kw + 1):
            win = x[:, i:i + kh, j:j + kw, :].astype(np.float64)                 # (n, kh, kw, c)
            out[:, i, j, :] = np.einsum("nabc,abcm->ncm", win, k.astype(np.float64)).reshape(n, c * m)
    return out


@clause("keras.layer.conv1d", ref="tf221")
def test_conv1d_causal_sees_only_the_past(backend):
    kernel = (np.arange(3 * 3 * 2, dtype=np.float32).reshape(3, 3, 2) % 4 - 1.5) / 2.0
    bias = np.array([0.5, -1.0], dtype=np.float32)
    ns = Program(backend, _LAYER_PROGRAM, name="Conv1D", x=SEQ, weights=[kernel, bias],
                 kwargs={"filters": 2, "kernel_size": 3, "padding": "causal", "dilation_rate": 2}).run()
    call = "Conv1D(2, 3, padding='causal', dilation_rate=2)(x)"
    assert_equal(ns["shapes"], [(3, 3, 2), (2,)], call=call, what="weight shapes")
    assert_close(ns["y"], _causal_conv1d_ref(SEQ, kernel, bias, 2), call=call, what="y")


@clause("keras.layer.depthwise-separable", ref="tf221")
def test_depthwise_and_separable(backend):
    dk = (np.arange(2 * 2 * 2 * 3, dtype=np.float32).reshape(2, 2, 2, 3) % 5 - 2.0) / 4.0
    bias = np.arange(6, dtype=np.float32) / 4.0
    ns = Program(backend, _LAYER_PROGRAM, name="DepthwiseConv2D", x=IMG, weights=[dk, bias],
                 kwargs={"kernel_size": 2, "depth_multiplier": 3}).run()
    call = "DepthwiseConv2D(2, depth_multiplier=3)(x)"
    assert_equal(ns["shapes"], [(2, 2, 2, 3), (6,)], call=call, what="weight shapes")
    depthwise = _depthwise_ref(IMG, dk)
    assert_close(ns["y"], depthwise + bias, call=call, what="y")
    pk = (np.arange(6 * 4, dtype=np.float32).reshape(1, 1, 6, 4) % 3 - 1.0) / 2.0
    b4 = np.array([1.0, 0.0, -1.0, 2.0], dtype=np.float32)
    ns = Program(backend, _LAYER_PROGRAM, name="SeparableConv2D", x=IMG, weights=[dk, pk, b4],
                 kwargs={"filters": 4, "kernel_size": 2, "depth_multiplier": 3}).run()
    call = "SeparableConv2D(4, 2, depth_multiplier=3)(x)"
    assert_equal(ns["shapes"], [(2, 2, 2, 3), (1, 1, 6, 4), (4,)], call=call, what="weight shapes")
    assert_close(ns["y"], depthwise @ pk[0, 0].astype(np.float64) + b4, call=call, what="y")


@clause("keras.layer.upsampling-padding", ref="tf221")
def test_upsampling_and_zero_padding(backend):
    ns = Program(backend, """
up1 = tf.keras.layers.UpSampling1D(3)(tf.constant(seq)).numpy()
up2 = tf.keras.layers.UpSampling2D((2, 3))(tf.constant(img)).numpy()
pad1 = tf.keras.layers.ZeroPadding1D((1, 2))(tf.constant(seq)).numpy()
pad2 = tf.keras.layers.ZeroPadding2D(((1, 0), (2, 1)), data_format="channels_first")(tf.constant(img)).numpy()
""", seq=SEQ, img=IMG).run()
    assert_close(ns["up1"], np.repeat(SEQ, 3, axis=1), call="UpSampling1D(3)(x)", what="y")
    assert_close(ns["up2"], np.repeat(np.repeat(IMG, 2, axis=1), 3, axis=2), call="UpSampling2D((2, 3))(x)",
                 what="y")
    assert_close(ns["pad1"], np.pad(SEQ, ((0, 0), (1, 2), (0, 0))), call="ZeroPadding1D((1, 2))(x)", what="y")
    assert_close(ns["pad2"], np.pad(IMG, ((0, 0), (0, 0), (1, 0), (2, 1))),
                 call="ZeroPadding2D(((1, 0), (2, 1)), data_format='channels_first')(x)", what="y")


@clause("keras.layer.conv-family.symbolic", ref="tf221")
def test_symbolic_output_shapes(backend):
    ns = Program(backend, """
seq, img = tf.keras.Input((9, 2)), tf.keras.Input((5, 4, 3))
layers = tf.keras.layers
shapes = [tuple(layers.Conv1D(3, 3, strides=2, padding="causal")(seq).shape),
          tuple(layers.SeparableConv1D(6, 3)(seq).shape),
          tuple(layers.DepthwiseConv2D(2, depth_multiplier=3)(img).shape),
          tuple(layers.SeparableConv2D(4, 3, padding="same", strides=2)(img).shape),
          tuple(layers.UpSampling1D(3)(seq).shape),
          tuple(layers.UpSampling2D((2, 3))(img).shape),
          tuple(layers.ZeroPadding1D((1, 2))(seq).shape),
          tuple(layers.ZeroPadding2D(((1, 0), (2, 1)))(img).shape)]
""").run()
    want = [(None, 5, 3), (None, 7, 6), (None, 4, 3, 9), (None, 3, 2, 4), (None, 27, 2), (None, 10, 12, 3),
            (None, 12, 2), (None, 6, 7, 3)]
    assert_equal(ns["shapes"], want, call="Conv1D/SeparableConv1D/DepthwiseConv2D/SeparableConv2D/UpSampling/"
                 "ZeroPadding on keras.Input((9, 2)) and keras.Input((5, 4, 3))", what="shapes")


@clause("keras.layer.conv-family.arguments", ref="tf221")
@pytest.mark.parametrize("source,error,match", [
    ("tf.keras.layers.Conv2D(2, 3, padding='causal')", ValueError, "Received: causal"),
    ("tf.keras.layers.SeparableConv1D(2, 3, padding='causal')", ValueError, "Received: causal"),
    ("tf.keras.layers.DepthwiseConv2D(3, depth_multiplier=0)", ValueError, "depth_multiplier=0"),
    ("tf.keras.layers.SeparableConv2D(0, 3)", ValueError, "filters=0"),
    ("tf.keras.layers.UpSampling1D(0)", ValueError, "positive integer"),
    ("tf.keras.layers.UpSampling1D(1.5)", TypeError, "integer value for `size`"),
    ("tf.keras.layers.ZeroPadding2D((1, 2, 3))", ValueError, "two elements"),
    ("tf.keras.layers.UpSampling2D()(tf.ones([1, 4, 3]))", ValueError, "expected ndim=4, found ndim=3"),
])
def test_argument_errors(backend, source, error, match):
    with raises(error, match=match, call=source):
        Program(backend, source).run()


_FIT_PROGRAM = """
strategy = backend.make_strategy(kind, n)
layers = tf.keras.layers
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((8, 2)), layers.Conv1D(3, 2, padding="causal"),
                                 layers.SeparableConv1D(4, 2), layers.UpSampling1D(2), layers.ZeroPadding1D(1),
                                 layers.GlobalAveragePooling1D(), layers.Dense(2)])
    model.set_weights(weights)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
losses = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0).history["loss"]
"""


@clause("keras.layer.conv-family.fit", ref="tf221")
def test_fit_under_mirrored_matches_one_device(backend):
    """Without batch statistics, a Mirrored(2) step (each replica's mean loss / 2, gradients
    summed) is the one-device step over the global batch: the losses agree."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((16, 8, 2)).astype(np.float32)
    y = (np.arange(16) % 2).astype(np.int32)
    shapes = [(2, 2, 3), (3,), (2, 3, 1), (1, 3, 4), (4,), (4, 2), (2,)]
    weights = [(rng.standard_normal(s) * 0.5).astype(np.float32) for s in shapes]
    one = Program(backend, _FIT_PROGRAM, kind="default", n=1, x=x, y=y, weights=weights).run()["losses"]
    two = Program(backend, _FIT_PROGRAM, kind="mirrored", n=2, x=x, y=y, weights=weights).run()["losses"]
    assert_close(two, one, call="fit of Conv1D/SeparableConv1D/UpSampling1D/ZeroPadding1D under Mirrored(2)",
                 what="History losses (one device's as reference)")
