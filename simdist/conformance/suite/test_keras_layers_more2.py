"""More tf.keras layers and activations (klayer2) — the activations glu, hard_shrink, hard_tanh,
soft_shrink, sparse_plus, sparse_sigmoid, sparsemax, squareplus, tanh_shrink, threshold,
hard_swish; the layers Lambda, RepeatVector, Dot, ActivityRegularization, ThresholdedReLU,
Cropping2D/3D, ZeroPadding3D, Conv3D, Conv1D/2DTranspose, 3-D pooling, GaussianNoise,
GaussianDropout, AlphaDropout, SpatialDropout1D/2D/3D: values, gradients or one SGD step, output
shapes, config round trips, training vs inference, and a Sequential fit through several (TF 2.21
+ Keras 3.15).

Expected values come from NumPy transcriptions of keras/src/... written here, never from the
backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close as _assert_close
from simdist.conformance.assertions import assert_equal, assert_true, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause

# float32 results against float64 NumPy references: rounding and summation order only
TOL32 = Tolerance(rtol=1e-5, atol=1e-6)


def assert_close(got, expected, **kwargs):
    _assert_close(got, expected, tolerance=TOL32, **kwargs)

RNG = np.random.default_rng(21)
X = (RNG.standard_normal((3, 6)) * 2).astype(np.float32)
X[0, :4] = [-1.0, 1.0, 0.5, -0.5]


def _sparsemax(x: np.ndarray) -> np.ndarray:
    z = np.sort(x, axis=-1)[:, ::-1]
    k = np.arange(1, x.shape[-1] + 1)
    cums = np.cumsum(z, axis=-1)
    support = z - (cums - 1) / k > 0
    kz = support.sum(axis=-1, keepdims=True)
    tau = (np.where(support, cums, 0).sum(axis=-1, keepdims=True) - 1) / kz
    return np.maximum(x - tau, 0)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more2_activations_match_numpy(keras):
    A = keras.activations
    x = X.astype(np.float64)
    cases = {
        "glu": (A.glu(X), x[:, :3] / (1 + np.exp(-x[:, 3:]))),
        "hard_shrink": (A.hard_shrink(X), np.where(np.abs(x) > 0.5, x, 0)),
        "hard_shrink(threshold=1.5)": (A.hard_shrink(X, threshold=1.5), np.where(np.abs(x) > 1.5, x, 0)),
        "hard_tanh": (A.hard_tanh(X), np.clip(x, -1, 1)),
        "soft_shrink": (A.soft_shrink(X), np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0))),
        "sparse_plus": (A.sparse_plus(X), np.where(x <= -1, 0, np.where(x < 1, (x + 1) ** 2 / 4, x))),
        "sparse_sigmoid": (A.sparse_sigmoid(X), np.where(x <= -1, 0, np.where(x >= 1, 1, (x + 1) / 2))),
        "sparsemax": (A.sparsemax(X), _sparsemax(x)),
        "squareplus": (A.squareplus(X), (x + np.sqrt(x * x + 4)) / 2),
        "squareplus(b=1)": (A.squareplus(X, b=1), (x + np.sqrt(x * x + 1)) / 2),
        "tanh_shrink": (A.tanh_shrink(X), x - np.tanh(x)),
        "threshold(0.3, -2.0)": (A.threshold(X, 0.3, -2.0), np.where(x > 0.3, x, -2.0)),
        "hard_swish": (A.hard_swish(X), x * np.clip(x + 3, 0, 6) / 6),
    }
    for name, (got, want) in cases.items():
        assert_close(got, want, call=f"keras.activations.{name}(x)")
    assert_close(A.get("sparsemax")(X), _sparsemax(x), call='keras.activations.get("sparsemax")(x)')
    assert_equal(A.serialize(A.hard_tanh), "hard_tanh", call="keras.activations.serialize(hard_tanh)")
    assert_close(keras.layers.Dense(6, activation="tanh_shrink", kernel_initializer="identity")(X), x - np.tanh(x),
                 call='Dense(6, activation="tanh_shrink", kernel_initializer="identity")(x)')
    with raises(ValueError, match="divisible by 2"):
        A.glu(X[:, :5])


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more2_reshaping_layers_match_numpy(keras):
    L = keras.layers
    x2 = np.arange(12, dtype=np.float32).reshape(3, 4)
    rv = L.RepeatVector(3)
    assert_equal(rv(x2), np.repeat(x2[:, None, :], 3, axis=1), call="RepeatVector(3)(x of shape (3, 4))")
    assert_equal(tuple(rv.compute_output_shape((None, 4))), (None, 3, 4), call="RepeatVector(3).compute_output_shape")
    assert_equal(L.RepeatVector.from_config(rv.get_config()).n, 3, call="RepeatVector.from_config", what="n")
    with raises(ValueError, match="positive integer"):
        L.RepeatVector(0)
    x4 = np.arange(2 * 5 * 6 * 3, dtype=np.float32).reshape(2, 5, 6, 3)
    x5 = np.arange(2 * 4 * 5 * 6 * 3, dtype=np.float32).reshape(2, 4, 5, 6, 3)
    for crop, want in ((((1, 2), (0, 1)), x4[:, 1:3, 0:5, :]), (1, x4[:, 1:4, 1:5, :])):
        layer = L.Cropping2D(crop)
        assert_equal(layer(x4), want, call=f"Cropping2D({crop})(x of shape (2, 5, 6, 3))")
        assert_equal(tuple(layer.compute_output_shape((None, 5, 6, 3))), (None,) + want.shape[1:],
                     call=f"Cropping2D({crop}).compute_output_shape((None, 5, 6, 3))")
    assert_equal(L.Cropping2D(1, data_format="channels_first")(x4), x4[:, :, 1:5, 1:2],
                 call="Cropping2D(1, data_format='channels_first')(x of shape (2, 5, 6, 3))")
    c3 = L.Cropping3D(((1, 0), (1, 2), (0, 1)))
    assert_equal(c3(x5), x5[:, 1:, 1:3, 0:5, :], call="Cropping3D(((1, 0), (1, 2), (0, 1)))(x of shape (2, 4, 5, 6, 3))")
    assert_equal(tuple(map(tuple, L.Cropping3D.from_config(c3.get_config()).cropping)), ((1, 0), (1, 2), (0, 1)),
                 call="Cropping3D.from_config(get_config())", what="cropping")
    with raises(ValueError, match="smaller than the corresponding spatial dimension"):
        L.Cropping2D(3)(x4)
    zp = L.ZeroPadding3D(((1, 0), (0, 2), (1, 1)))
    want = np.pad(x5, ((0, 0), (1, 0), (0, 2), (1, 1), (0, 0)))
    assert_equal(zp(x5), want, call="ZeroPadding3D(((1, 0), (0, 2), (1, 1)))(x of shape (2, 4, 5, 6, 3))")
    assert_equal(tuple(L.ZeroPadding3D(2, data_format="channels_first").compute_output_shape((None, 3, 4, 5, 6))),
                 (None, 3, 8, 9, 10), call="ZeroPadding3D(2, data_format='channels_first').compute_output_shape")


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more2_dot_lambda_thresholded_relu(keras):
    L = keras.layers
    rng = np.random.default_rng(5)
    a = rng.standard_normal((3, 4)).astype(np.float32)
    b = rng.standard_normal((3, 4)).astype(np.float32)
    a3 = rng.standard_normal((3, 5, 4)).astype(np.float32)
    b3 = rng.standard_normal((3, 5, 4)).astype(np.float32)
    assert_close(L.Dot(axes=1)([a, b]), (a * b).sum(axis=1, keepdims=True), call="Dot(axes=1)([(3, 4), (3, 4)])")
    assert_close(L.Dot(axes=(2, 2))([a3, b3]), np.einsum("bik,bjk->bij", a3, b3), call="Dot(axes=(2, 2))([(3,5,4)]*2)")
    assert_close(L.Dot(axes=-1)([a3, a]), np.einsum("bik,bk->bi", a3, a), call="Dot(axes=-1)([(3, 5, 4), (3, 4)])")
    na = a3 / np.linalg.norm(a3, axis=1, keepdims=True)
    nb = b3 / np.linalg.norm(b3, axis=1, keepdims=True)
    assert_close(L.dot([a3, b3], axes=1, normalize=True), np.einsum("bki,bkj->bij", na, nb),
                 call="dot([(3,5,4)]*2, axes=1, normalize=True)")
    dot = L.Dot(axes=(1, 2), normalize=True)
    assert_equal(tuple(dot.compute_output_shape([(None, 4, 5), (None, 3, 4)])), (None, 5, 3),
                 call="Dot(axes=(1, 2)).compute_output_shape([(None, 4, 5), (None, 3, 4)])")
    cfg = dot.get_config()
    assert_equal(tuple(cfg["axes"]), (1, 2), call="Dot(axes=(1, 2), normalize=True).get_config()", what="axes")
    assert_equal(cfg["normalize"], True, call="Dot(axes=(1, 2), normalize=True).get_config()", what="normalize")
    with raises(ValueError, match="Incompatible input shapes"):
        L.Dot(axes=1)([a, a3])
    lam = L.Lambda(lambda t: t * 2.0 + 1.0)
    assert_close(lam(a), a * 2 + 1, call="Lambda(lambda t: t * 2 + 1)(x)")
    inp = keras.Input((4,))
    assert_equal(tuple(L.Lambda(lambda t: t[:, :2])(inp).shape), (None, 2), call="Lambda(t[:, :2])(Input((4,))).shape")
    assert_equal(tuple(L.Lambda(lambda t: t, output_shape=(7,)).compute_output_shape((None, 4))), (None, 7),
                 call="Lambda(fn, output_shape=(7,)).compute_output_shape((None, 4))")
    tr = L.ThresholdedReLU(theta=0.5)
    assert_close(tr(a), np.where(a > 0.5, a, 0), call="ThresholdedReLU(theta=0.5)(x)")
    assert_equal(tr.get_config()["theta"], 0.5, call="ThresholdedReLU(theta=0.5).get_config()", what="theta")
    with raises(ValueError, match=">=0"):
        L.ThresholdedReLU(theta=-1.0)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more2_activity_regularization_adds_its_loss(keras):
    x = X[:, :4]
    layer = keras.layers.ActivityRegularization(l1=0.1, l2=0.2)
    assert_equal(layer(x), x, call="ActivityRegularization(0.1, 0.2)(x)")
    x64 = x.astype(np.float64)
    want = (0.1 * np.abs(x64).sum() + 0.2 * (x64 ** 2).sum()) / x.shape[0]
    assert_equal(len(layer.losses), 1, call="ActivityRegularization(0.1, 0.2)(x)", what="len(losses)")
    assert_close(layer.losses[0], want, call="ActivityRegularization(0.1, 0.2)(x)", what="losses[0]")
    cfg = layer.get_config()
    assert_true("activity_regularizer" not in cfg and cfg["l1"] == 0.1 and cfg["l2"] == 0.2,
                f"get_config() has l1, l2 and no activity_regularizer, got {cfg}", call="ActivityRegularization")


def _conv3d_valid(x: np.ndarray, k: np.ndarray) -> np.ndarray:
    b, d, h, w, _ = x.shape
    kd, kh, kw, _, f = k.shape
    out = np.zeros((b, d - kd + 1, h - kh + 1, w - kw + 1, f))
    for i in range(kd):
        for j in range(kh):
            for m in range(kw):
                out += np.einsum("bdhwc,cf->bdhwf", x[:, i:i + out.shape[1], j:j + out.shape[2], m:m + out.shape[3]],
                                 k[i, j, m])
    return out


def _conv_transpose_valid(x: np.ndarray, k: np.ndarray, stride: int, out_sizes: tuple) -> np.ndarray:
    """N-D transposed convolution, channels last, VALID: each input element scatters
    x[..., c] * k[offsets, f, c] to output position i * stride + offset."""
    nsp = x.ndim - 2
    out = np.zeros((x.shape[0], *out_sizes, k.shape[-2]))
    for idx in np.ndindex(*x.shape[1:-1]):
        for off in np.ndindex(*k.shape[:nsp]):
            pos = tuple(i * stride + o for i, o in zip(idx, off))
            out[(slice(None), *pos)] += x[(slice(None), *idx)] @ k[off].T
    return out


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more2_conv3d_and_transposed_convs_match_numpy(tf, keras, onednn_float32):
    rng = np.random.default_rng(9)
    x5 = rng.standard_normal((2, 4, 5, 3, 2)).astype(np.float32)
    conv = keras.layers.Conv3D(3, 2, use_bias=False)
    conv.build(x5.shape)
    k = rng.standard_normal((2, 2, 2, 2, 3)).astype(np.float32)
    conv.set_weights([k])
    assert_close(conv(x5), _conv3d_valid(x5.astype(np.float64), k.astype(np.float64)),
                 call="Conv3D(3, 2, use_bias=False)(x of shape (2, 4, 5, 3, 2))")
    assert_equal(tuple(conv.compute_output_shape((None, 4, 5, 3, 2))), (None, 3, 4, 2, 3),
                 call="Conv3D(3, 2).compute_output_shape((None, 4, 5, 3, 2))")
    x3 = rng.standard_normal((2, 4, 3)).astype(np.float32)
    x4 = rng.standard_normal((2, 3, 4, 3)).astype(np.float32)
    for cls, x, stride, out_sizes in ((keras.layers.Conv1DTranspose, x3, 2, (9,)),
                                      (keras.layers.Conv2DTranspose, x4, 1, (5, 6)),
                                      (keras.layers.Conv2DTranspose, x4, 2, (7, 9))):
        layer = cls(2, 3, strides=stride)
        layer.build(x.shape)
        kt = rng.standard_normal(layer.kernel.shape).astype(np.float32)
        bias = np.array([0.5, -0.25], np.float32)
        layer.set_weights([kt, bias])
        call = f"{cls.__name__}(2, 3, strides={stride})(x of shape {x.shape}) with kernel and bias set"
        with tf.GradientTape() as tape:
            out = layer(x)
            loss = tf.reduce_sum(out * out)
        want = _conv_transpose_valid(x.astype(np.float64), kt.astype(np.float64), stride, out_sizes) + bias
        assert_close(out, want, call=call)
        assert_equal(tuple(layer.compute_output_shape((None,) + x.shape[1:])), (None, *out_sizes, 2), call=call,
                     what="compute_output_shape")
        g_bias = tape.gradient(loss, layer.bias)
        assert_close(g_bias, (2 * want).reshape(-1, 2).sum(axis=0), call=call + "; d sum(out**2) / d bias")
    cfg = keras.layers.Conv2DTranspose(4, 3, strides=2, output_padding=1).get_config()
    assert_equal(tuple(cfg["output_padding"]), (1, 1), call="Conv2DTranspose(4, 3, strides=2, output_padding=1).get_config()",
                 what="output_padding")
    assert_equal(tuple(keras.layers.Conv2DTranspose.from_config(cfg).compute_output_shape((None, 3, 4, 3))),
                 (None, 8, 10, 4), call="Conv2DTranspose(4, 3, strides=2, output_padding=1).compute_output_shape")
    assert_true(keras.layers.Convolution2DTranspose is keras.layers.Conv2DTranspose,
                "Convolution2DTranspose is Conv2DTranspose", call="keras.layers.Convolution2DTranspose")
    with raises(ValueError, match="output_padding"):
        keras.layers.Conv2DTranspose(2, 3, strides=1, output_padding=1)


@clause("keras.layer.pooling.window", ref="tf221")
def test_layers_more2_pooling_3d_matches_numpy(keras):
    x = np.random.default_rng(4).standard_normal((2, 4, 5, 6, 3)).astype(np.float32)
    L = keras.layers
    blocks = x[:, :4, :4, :6].reshape(2, 2, 2, 2, 2, 3, 2, 3)
    assert_close(L.MaxPooling3D()(x), blocks.max(axis=(2, 4, 6)), call="MaxPooling3D()(x of shape (2, 4, 5, 6, 3))")
    assert_close(L.AvgPool3D(2)(x), blocks.mean(axis=(2, 4, 6)), call="AvgPool3D(2)(x of shape (2, 4, 5, 6, 3))")
    assert_equal(tuple(L.AveragePooling3D(3, strides=2, padding="same").compute_output_shape((None, 4, 5, 6, 3))),
                 (None, 2, 3, 3, 3), call="AveragePooling3D(3, strides=2, padding='same').compute_output_shape")
    assert_close(L.GlobalAveragePooling3D()(x), x.mean(axis=(1, 2, 3)), call="GlobalAveragePooling3D()(x)")
    assert_close(L.GlobalMaxPool3D(keepdims=True)(x), x.max(axis=(1, 2, 3), keepdims=True),
                 call="GlobalMaxPool3D(keepdims=True)(x)")
    xcf = np.transpose(x, (0, 4, 1, 2, 3))
    assert_close(L.GlobalAvgPool3D(data_format="channels_first")(xcf), x.mean(axis=(1, 2, 3)),
                 call="GlobalAvgPool3D(data_format='channels_first')(x)")
    assert_equal(tuple(L.MaxPool3D().get_config()["pool_size"]), (2, 2, 2), call="MaxPool3D().get_config()",
                 what="pool_size")


@clause("keras.layer.noise", ref="tf221")
def test_layers_more2_noise_layers_training_vs_inference(keras):
    L = keras.layers
    x = np.random.default_rng(6).standard_normal((4, 5, 3)).astype(np.float32) + 3.0
    for layer in (L.GaussianNoise(0.5, seed=3), L.GaussianDropout(0.3, seed=3), L.AlphaDropout(0.3, seed=3)):
        assert_equal(layer(x), x, call=f"{type(layer).__name__}(..., seed=3)(x) at inference")
    g1, g2 = L.GaussianNoise(0.5, seed=3), L.GaussianNoise(0.5, seed=3)
    n1 = np.asarray(g1(x, training=True)) - x
    assert_close(np.asarray(g2(x, training=True)) - x, n1, call="GaussianNoise(0.5, seed=3): a second layer, same seed")
    n2 = np.asarray(g1(x, training=True)) - x
    assert_true(not np.allclose(n1, n2), "the second training call draws new noise (the seed generator advances)",
                call="GaussianNoise(0.5, seed=3)(x, training=True) twice")
    assert_true(0.3 < n1.std() < 0.7, f"noise std near 0.5, got {n1.std()}", call="GaussianNoise(0.5, seed=3)")
    gd = np.asarray(L.GaussianDropout(0.3, seed=4)(x, training=True)) / x
    assert_true(abs(gd.mean() - 1) < 0.2 and 0.4 < gd.std() < 0.9,
                f"multiplicative noise of mean 1 and std sqrt(0.3/0.7)=0.65, got mean {gd.mean()}, std {gd.std()}",
                call="GaussianDropout(0.3, seed=4)(x, training=True)")
    rate, alpha_p = 0.3, -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
    a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * rate
    out = np.asarray(L.AlphaDropout(rate, noise_shape=(4, 1, 3), seed=5)(x, training=True))
    kept = np.isclose(out, a * x + b, rtol=1e-5)
    dropped = np.isclose(out, a * alpha_p + b, rtol=1e-5)
    assert_true(bool(np.all(kept | dropped)), "every output is a*x+b (kept) or a*alpha_p+b (dropped)",
                call="AlphaDropout(0.3, noise_shape=(4, 1, 3), seed=5)(x, training=True)")
    assert_true(bool(np.all(kept == kept[:, :1, :])), "noise_shape (4, 1, 3): one decision per (batch, channel)",
                call="AlphaDropout(0.3, noise_shape=(4, 1, 3), seed=5)")
    for layer, key in ((L.GaussianNoise(0.2, seed=1), "stddev"), (L.GaussianDropout(0.2, seed=1), "rate"),
                       (L.AlphaDropout(0.2, seed=1), "rate")):
        cfg = layer.get_config()
        again = type(layer).from_config(cfg)
        assert_equal(getattr(again, key), 0.2, call=f"{type(layer).__name__}.from_config(get_config())", what=key)
        assert_equal(again.seed, 1, call=f"{type(layer).__name__}.from_config(get_config())", what="seed")
    with raises(ValueError, match="between 0 and 1"):
        L.GaussianNoise(1.5)


@clause("keras.layer.dropout", ref="tf221")
def test_layers_more2_spatial_dropout_drops_whole_channels(keras):
    L = keras.layers
    rng = np.random.default_rng(8)
    for layer, x, spatial in ((L.SpatialDropout1D(0.5, seed=2), rng.random((4, 6, 8)) + 1, (1,)),
                              (L.SpatialDropout2D(0.5, seed=2), rng.random((4, 3, 5, 8)) + 1, (1, 2)),
                              (L.SpatialDropout3D(0.5, data_format="channels_first", seed=2),
                               rng.random((4, 8, 2, 3, 2)) + 1, (2, 3, 4))):
        x = x.astype(np.float32)
        call = f"{type(layer).__name__}(0.5, seed=2)(x of shape {x.shape}, training=True)"
        assert_equal(layer(x), x, call=call.replace("training=True", "inference"))
        out = np.asarray(layer(x, training=True))
        kept = out != 0
        assert_close(np.where(kept, out, 0), np.where(kept, x * 2, 0), call=call, what="kept values (x / (1 - rate))")
        first = kept[tuple(slice(0, 1) if ax in spatial else slice(None) for ax in range(x.ndim))]
        assert_true(bool(np.all(kept == first)), "a channel is kept or dropped whole (noise shape 1 on spatial axes)",
                    call=call)
        assert_true(0 < kept.mean() < 1, f"some channels kept and some dropped, got kept fraction {kept.mean()}",
                    call=call)
    cfg = L.SpatialDropout2D(0.25, seed=3, name="sd").get_config()
    assert_equal({k: cfg[k] for k in ("rate", "seed", "name", "data_format")},
                 {"rate": 0.25, "seed": 3, "name": "sd", "data_format": "channels_last"},
                 call="SpatialDropout2D(0.25, seed=3, name='sd').get_config()")


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more2_sequential_fit_through_new_layers(keras):
    rng = np.random.default_rng(12)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    target = rng.standard_normal((4, 4)).astype(np.float32)
    kernel = rng.standard_normal((3, 2)).astype(np.float32)
    bias = np.array([0.1, -0.2], np.float32)
    L = keras.layers
    model = keras.Sequential([keras.Input((3,)), L.Dense(2), L.RepeatVector(2), L.Lambda(lambda t: t * 2.0),
                              L.ActivityRegularization(l2=0.01),
                              L.Flatten()])
    model.layers[0].set_weights([kernel, bias])
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1), loss="mse")
    model.fit(x, target, batch_size=4, epochs=1, shuffle=False, verbose=0)
    x64, k64, b64, t64 = (v.astype(np.float64) for v in (x, kernel, bias, target))
    pre = x64 @ k64 + b64                              # (4, 2)
    act = 2.0 * np.concatenate([pre, pre], axis=1)     # RepeatVector(2), Lambda(*2), Flatten: (4, 4)
    d_out = 2.0 * (act - t64) / act.size + 0.01 * 2.0 * act / x.shape[0]
    d_pre = 2.0 * (d_out[:, :2] + d_out[:, 2:])
    got_k, got_b = model.layers[0].get_weights()
    call = "Sequential([Input, Dense(2), RepeatVector(2), Lambda(*2), ActivityRegularization(l2=0.01), Flatten]).fit"
    assert_close(got_k, k64 - 0.1 * x64.T @ d_pre, call=call, what="kernel after one SGD step")
    assert_close(got_b, b64 - 0.1 * d_pre.sum(axis=0), call=call, what="bias after one SGD step")


def _group_norm(x: np.ndarray, groups: int, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """Channels-last group normalization: moments per (sample, group) over the group's channels
    and every spatial axis."""
    c = x.shape[-1]
    g = x.reshape(*x.shape[:-1], groups, c // groups)
    axes = tuple(range(1, x.ndim - 1)) + (x.ndim,)
    mean = g.mean(axis=axes, keepdims=True)
    var = g.var(axis=axes, keepdims=True)
    return ((g - mean) / np.sqrt(var + eps)).reshape(x.shape) * gamma + beta


@clause("keras.layer.groupnorm", ref="tf221")
def test_layers_more2_group_normalization_matches_numpy(tf, keras):
    rng = np.random.default_rng(13)
    x = (rng.standard_normal((2, 3, 4, 8)) * 3 + 1).astype(np.float32)
    gamma = rng.standard_normal(8).astype(np.float32)
    beta = rng.standard_normal(8).astype(np.float32)
    x64 = x.astype(np.float64)
    for groups, n in ((4, 4), (-1, 8), (1, 1)):
        layer = keras.layers.GroupNormalization(groups=groups)
        layer.build(x.shape)
        layer.set_weights([gamma, beta])
        call = f"GroupNormalization(groups={groups})(x of shape (2, 3, 4, 8)) with gamma and beta set"
        with tf.GradientTape() as tape:
            out = layer(x)
            loss = tf.reduce_sum(out * tf.constant(np.arange(out.shape[-1], dtype=np.float32)))
        want = _group_norm(x64, n, gamma, beta, 1e-3)
        assert_close(out, want, call=call)
        assert_equal(layer.groups, n, call=call, what="groups after build")
        g_gamma, g_beta = tape.gradient(loss, [layer.gamma, layer.beta])
        normed = (want - beta) / gamma
        w = np.arange(8)
        assert_close(g_gamma, (normed * w).sum(axis=(0, 1, 2)), call=call + "; d loss / d gamma",
                     scale=np.abs(normed * w).sum(axis=(0, 1, 2)))   # (a sum that cancels: per group it is 0)
        assert_close(g_beta, np.broadcast_to(w, want.shape).sum(axis=(0, 1, 2)), call=call + "; d loss / d beta")
    x3 = rng.standard_normal((3, 6, 5)).astype(np.float32)
    cf = keras.layers.GroupNormalization(groups=3, axis=1, center=False)
    want = np.transpose(_group_norm(np.transpose(x3, (0, 2, 1)).astype(np.float64), 3, np.ones(6), np.zeros(6), 1e-3),
                        (0, 2, 1))
    assert_close(cf(x3), want, call="GroupNormalization(groups=3, axis=1, center=False)(x of shape (3, 6, 5))")
    cfg = keras.layers.GroupNormalization(groups=2, epsilon=1e-5).get_config()
    again = keras.layers.GroupNormalization.from_config(cfg)
    assert_equal((again.groups, again.epsilon), (2, 1e-5), call="GroupNormalization.from_config(get_config())")
    with raises(ValueError, match="multiple"):
        keras.layers.GroupNormalization(groups=3).build((None, 8))
    with raises(ValueError, match="cannot be more than"):
        keras.layers.GroupNormalization(groups=16).build((None, 8))
    with raises(ValueError, match="invalid value for argument `groups`"):
        keras.layers.GroupNormalization(groups=0)


@clause("keras.layer.layernorm", ref="tf221")
def test_layers_more2_rms_and_unit_normalization_match_numpy(tf, keras):
    rng = np.random.default_rng(14)
    x = (rng.standard_normal((3, 5, 6)) * 2).astype(np.float32)
    x64 = x.astype(np.float64)
    rms = keras.layers.RMSNormalization()
    rms.build(x.shape)
    scale = rng.standard_normal(6).astype(np.float32)
    rms.set_weights([scale])
    call = "RMSNormalization()(x of shape (3, 5, 6)) with scale set"
    with tf.GradientTape() as tape:
        out = rms(x)
        loss = tf.reduce_sum(out)
    normed = x64 / np.sqrt((x64 ** 2).mean(axis=-1, keepdims=True) + 1e-6)
    assert_close(out, normed * scale, call=call)
    assert_close(tape.gradient(loss, rms.scale), normed.sum(axis=(0, 1)), call=call + "; d sum(out) / d scale")
    both = keras.layers.RMSNormalization(axis=[2, 1], epsilon=1e-3)
    want = x64 / np.sqrt((x64 ** 2).mean(axis=(1, 2), keepdims=True) + 1e-3)
    assert_close(both(x), want, call="RMSNormalization(axis=[2, 1], epsilon=1e-3)(x)")
    assert_equal(list(both.get_config()["axis"]), [1, 2], call="RMSNormalization(axis=[2, 1]).get_config()",
                 what="axis (sorted at build)")
    unit = keras.layers.UnitNormalization()
    assert_close(unit(x), x64 / np.linalg.norm(x64, axis=-1, keepdims=True), call="UnitNormalization()(x)")
    assert_close(keras.layers.UnitNormalization(axis=[1, 2])(x),
                 x64 / np.sqrt((x64 ** 2).sum(axis=(1, 2), keepdims=True)), call="UnitNormalization(axis=[1, 2])(x)")
    assert_equal(keras.layers.UnitNormalization(axis=(1,)).get_config()["axis"], [1],
                 call="UnitNormalization(axis=(1,)).get_config()", what="axis")
    assert_equal(np.asarray(unit(np.zeros((1, 3), np.float32))), np.zeros((1, 3), np.float32),
                 call="UnitNormalization()(zeros)")


@clause("keras.layer.normalization-adapt", ref="tf221")
def test_layers_more2_normalization_adapt_and_given_moments(tf, keras):
    rng = np.random.default_rng(15)
    data = (rng.standard_normal((40, 3)) * [1, 5, 0.1] + [0, 3, -2]).astype(np.float32)
    x = (rng.standard_normal((6, 3)) * 2).astype(np.float32)
    d64 = data.astype(np.float64)
    mean, var = d64.mean(axis=0), d64.var(axis=0)
    want = (x - mean) / np.sqrt(var)
    for source, label in ((data, "ndarray"), (tf.constant(data), "tensor"),
                          (tf.data.Dataset.from_tensor_slices(data).batch(7), "Dataset batches of 7"),
                          ([data[:13], data[13:]], "list of 2 batches")):
        layer = keras.layers.Normalization()
        layer.adapt(source)
        call = f"Normalization().adapt({label} of shape (40, 3))"
        assert_close(layer.adapt_mean, mean, call=call, what="adapt_mean")
        assert_close(layer.adapt_variance, var, call=call, what="adapt_variance")
        assert_close(layer(x), want, call=call + "; then called on x")
        assert_equal([w.name for w in layer.weights], ["mean", "variance", "count"], call=call, what="weight names")
    data3 = (rng.standard_normal((10, 4, 3)) * 2 + 1).astype(np.float64)
    both = keras.layers.Normalization(axis=(1, 2))
    both.adapt(data3.astype(np.float32))
    assert_close(both(data3.astype(np.float32)), (data3 - data3.mean(axis=0)) / data3.std(axis=0),
                 call="Normalization(axis=(1, 2)).adapt(x of shape (10, 4, 3))(x)")
    flat = keras.layers.Normalization(axis=None)
    flat.adapt(tf.data.Dataset.from_tensor_slices(data[:, 1]))
    assert_close(flat(x), (x - d64[:, 1].mean()) / d64[:, 1].std(),
                 call="Normalization(axis=None).adapt(Dataset of scalars)(x)")
    given = keras.layers.Normalization(mean=[1.0, 2.0, 3.0], variance=[4.0, 1.0, 0.25])
    assert_close(given(x), (x - [1, 2, 3]) / np.array([2.0, 1.0, 0.5]), call="Normalization(mean=..., variance=...)(x)")
    inv = keras.layers.Normalization(mean=2.0, variance=9.0, invert=True)
    assert_close(inv(x), 2.0 + x * 3.0, call="Normalization(mean=2.0, variance=9.0, invert=True)(x)")
    zero_var = keras.layers.Normalization(mean=0.0, variance=0.0)
    assert_close(zero_var(x), x / 1e-7, call="Normalization(mean=0, variance=0)(x): divides by epsilon 1e-7")
    cfg = given.get_config()
    assert_equal((cfg["mean"], cfg["variance"]), ([1.0, 2.0, 3.0], [4.0, 1.0, 0.25]),
                 call="Normalization(mean=..., variance=...).get_config()")
    with raises(ValueError, match="both `mean` and `variance`"):
        keras.layers.Normalization(mean=1.0)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more2_category_encoding_and_discretization(tf, keras):
    L = keras.layers
    ids = np.array([[0, 1, 1], [3, 2, 5]], np.int32)
    eye = np.eye(6, dtype=np.float32)
    assert_equal(L.CategoryEncoding(4, output_mode="one_hot")(np.array([0, 3, 2], np.int32)), eye[[0, 3, 2], :4],
                 call="CategoryEncoding(4, output_mode='one_hot')([0, 3, 2])")
    assert_equal(L.CategoryEncoding(4)(ids[:, :2]), np.array([[1, 1, 0, 0], [0, 0, 1, 1]], np.float32),
                 call="CategoryEncoding(4)([[0, 1], [3, 2]]) (multi_hot)")
    counts = eye[ids].sum(axis=1)
    assert_equal(L.CategoryEncoding(6, output_mode="count")(ids), counts, call="CategoryEncoding(6, 'count')(ids)")
    weights = np.array([[0.5, 1, 2], [1, 1, 3]], np.float32)
    assert_equal(L.CategoryEncoding(6, output_mode="count")(ids, count_weights=weights),
                 (eye[ids] * weights[..., None]).sum(axis=1), call="CategoryEncoding(6, 'count')(ids, count_weights=w)")
    assert_equal(L.CategoryEncoding(3)(np.array([[1, 7]], np.int32)), np.array([[0, 1, 0]], np.float32),
                 call="CategoryEncoding(3)([[1, 7]]): an index >= num_tokens is ignored (bincount's maxlength)")
    assert_equal(tuple(L.CategoryEncoding(4, output_mode="one_hot").compute_output_shape((None, 1))), (None, 4),
                 call="CategoryEncoding(4, 'one_hot').compute_output_shape((None, 1))")
    with raises(ValueError, match="num_tokens"):
        L.CategoryEncoding(0)
    vals = np.array([[-2.0, -1.0, -0.5], [0.0, 1.4, 1.5], [3.0, 0.5, -1.2]], np.float32)
    bounds = [-1.0, 0.0, 1.5]
    want = np.searchsorted(bounds, vals, side="right").astype(np.int32)
    disc = L.Discretization(bin_boundaries=bounds)
    assert_equal(disc(vals), want, call="Discretization(bin_boundaries=[-1, 0, 1.5])(x)")
    assert_equal(L.Discretization(bin_boundaries=bounds, output_mode="one_hot")(vals[:, 0]), eye[want[:, 0], :4],
                 call="Discretization(bin_boundaries=..., output_mode='one_hot')(x[:, 0])")
    data = np.arange(100, dtype=np.float32)
    adapted = L.Discretization(num_bins=4, epsilon=0.01)
    adapted.adapt(data)
    got = np.asarray(adapted.bin_boundaries)
    assert_true(got.shape == (3,) and np.allclose(got, [24.0, 49.0, 74.0], atol=1.0),
                f"adapt(0..99) with num_bins=4 puts the boundaries at the quartiles (about 24, 49, 74), got {got}",
                call="Discretization(num_bins=4).adapt(arange(100))")
    cfg = adapted.get_config()
    again = L.Discretization.from_config(cfg)
    assert_equal(np.asarray(again.bin_boundaries), got, call="Discretization.from_config(adapted.get_config())",
                 what="bin_boundaries")
    with raises(ValueError, match="either `num_bins` or `bin_boundaries`"):
        L.Discretization()


def _softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more2_attention_layers_match_numpy(tf, keras):
    rng = np.random.default_rng(16)
    q = rng.standard_normal((2, 3, 4)).astype(np.float32)
    v = rng.standard_normal((2, 5, 4)).astype(np.float32)
    k = rng.standard_normal((2, 5, 4)).astype(np.float32)
    q64, v64, k64 = (a.astype(np.float64) for a in (q, v, k))
    L = keras.layers
    dot = np.einsum("bqd,bkd->bqk", q64, v64)
    assert_close(L.Attention()([q, v]), _softmax(dot) @ v64, call="Attention()([q, v])")
    scaled = L.Attention(use_scale=True)
    scaled.build([q.shape, v.shape])
    scaled.set_weights([np.float32(0.7)])
    assert_close(scaled([q, v, k]), _softmax(0.7 * np.einsum("bqd,bkd->bqk", q64, k64)) @ v64,
                 call="Attention(use_scale=True, scale=0.7)([q, v, k])")
    concat = np.tanh(q64[:, :, None, :] + k64[:, None, :, :]).sum(axis=-1)
    assert_close(L.Attention(score_mode="concat")([q, v, k]), _softmax(concat) @ v64,
                 call="Attention(score_mode='concat')([q, v, k])")
    vm = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], bool)
    qm = np.array([[1, 1, 0], [1, 0, 1]], bool)
    out, scores = L.Attention()([q, v], mask=[qm, vm], return_attention_scores=True)
    want_scores = _softmax(np.where(vm[:, None, :], dot, dot - 1e9))
    assert_close(scores, want_scores, call="Attention()([q, v], mask=[q_mask, v_mask], return_attention_scores=True)",
                 what="scores")
    assert_close(out, np.where(qm[..., None], want_scores @ v64, 0.0),
                 call="Attention()([q, v], mask=[q_mask, v_mask])", what="out (masked query rows zero)")
    causal = np.tril(np.ones((3, 3), bool))
    d3 = dot[:, :, :3]
    assert_close(L.Attention()([q, v[:, :3]], use_causal_mask=True),
                 _softmax(np.where(causal, d3, d3 - 1e9)) @ v64[:, :3], call="Attention()([q, v[:, :3]], use_causal_mask=True)")
    add = L.AdditiveAttention()
    add.build([q.shape, v.shape])
    scale = np.linspace(-1, 1, 4).astype(np.float32)
    add.set_weights([scale])
    call = "AdditiveAttention()([q, v]) with scale set"
    with tf.GradientTape() as tape:
        out = add([q, v])
        loss = tf.reduce_sum(out)
    t = np.tanh(q64[:, :, None, :] + v64[:, None, :, :])          # (b, q, k, d)
    w = _softmax((t * scale).sum(axis=-1))
    assert_close(out, w @ v64, call=call)
    # d sum(w @ v) / d scale: through the scores s = Σ_d scale_d t_d, ds/dscale = t
    g_out = np.ones((2, 3, 4))
    g_w = g_out @ v64.transpose(0, 2, 1)
    g_s = w * (g_w - (g_w * w).sum(axis=-1, keepdims=True))
    assert_close(tape.gradient(loss, add.scale), (g_s[..., None] * t).sum(axis=(0, 1, 2)),
                 call=call + "; d sum(out) / d scale")
    cfg = L.AdditiveAttention(dropout=0.1).get_config()
    assert_true("score_mode" not in cfg and cfg["use_scale"] is True and cfg["dropout"] == 0.1,
                f"AdditiveAttention config: use_scale, dropout, no score_mode; got {cfg}", call="AdditiveAttention.get_config")
    inp1, inp2 = keras.Input((3, 4)), keras.Input((5, 4))
    o, s = L.Attention()([inp1, inp2], return_attention_scores=True)
    assert_equal((tuple(o.shape), tuple(s.shape)), ((None, 3, 4), (None, 3, 5)),
                 call="Attention()([Input((3, 4)), Input((5, 4))], return_attention_scores=True) shapes")
    drop = np.asarray(L.Attention(dropout=0.5, seed=3)([q, v], training=True))
    assert_true(not np.allclose(drop, _softmax(dot) @ v64, atol=1e-4), "dropout of the weights changes the output",
                call="Attention(dropout=0.5, seed=3)([q, v], training=True)")
    with raises(ValueError, match="list of inputs"):
        L.Attention()(q)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more2_depthwise1d_upsampling3d_rescaling_time_distributed(tf, keras):
    rng = np.random.default_rng(17)
    L = keras.layers
    x = rng.standard_normal((2, 7, 3)).astype(np.float32)
    dw = L.DepthwiseConv1D(3, depth_multiplier=2)
    dw.build(x.shape)
    k = rng.standard_normal((3, 3, 2)).astype(np.float32)
    bias = rng.standard_normal(6).astype(np.float32)
    dw.set_weights([k, bias])
    x64 = x.astype(np.float64)
    want = np.stack([np.einsum("btc,cm->btcm", x64[:, i:i + 5], k[i]) for i in range(3)]).sum(axis=0)
    assert_close(dw(x), want.reshape(2, 5, 6) + bias, call="DepthwiseConv1D(3, depth_multiplier=2)(x of shape (2, 7, 3))")
    assert_equal(tuple(dw.compute_output_shape((None, 7, 3))), (None, 5, 6), call="DepthwiseConv1D.compute_output_shape")
    x5 = rng.standard_normal((2, 2, 3, 2, 3)).astype(np.float32)
    up = L.UpSampling3D((1, 2, 3))
    want = np.repeat(np.repeat(x5, 2, axis=2), 3, axis=3)
    assert_equal(up(x5), want, call="UpSampling3D((1, 2, 3))(x of shape (2, 2, 3, 2, 3))")
    assert_equal(tuple(up.compute_output_shape((None, 2, 3, 2, 3))), (None, 2, 6, 6, 3),
                 call="UpSampling3D((1, 2, 3)).compute_output_shape")
    assert_equal(L.UpSampling3D(2, data_format="channels_first")(x5),
                 np.repeat(np.repeat(np.repeat(x5, 2, axis=2), 2, axis=3), 2, axis=4),
                 call="UpSampling3D(2, data_format='channels_first')(x)")
    img = rng.integers(0, 255, (2, 4, 4, 3)).astype(np.uint8)
    assert_close(L.Rescaling(1 / 255.0)(img), img / 255.0, call="Rescaling(1/255)(uint8 image)")
    assert_close(L.Rescaling([0.5, 1.0, 2.0], offset=-1.0)(img), img * np.array([0.5, 1.0, 2.0]) - 1.0,
                 call="Rescaling([0.5, 1, 2], offset=-1)(uint8 image)")
    cfg = L.Rescaling(0.5, offset=1.0).get_config()
    assert_equal((cfg["scale"], cfg["offset"]), (0.5, 1.0), call="Rescaling(0.5, offset=1.0).get_config()")
    seq = rng.standard_normal((2, 3, 4)).astype(np.float32)
    target = rng.standard_normal((2, 3, 2)).astype(np.float32)
    kernel = rng.standard_normal((4, 2)).astype(np.float32)
    model = keras.Sequential([keras.Input((3, 4)), L.TimeDistributed(L.Dense(2))])
    model.layers[0].set_weights([kernel, np.zeros(2, np.float32)])
    s64, k64 = seq.astype(np.float64), kernel.astype(np.float64)
    assert_close(model.predict(seq, verbose=0), s64 @ k64, call="Sequential([Input((3, 4)), TimeDistributed(Dense(2))])")
    paths = [w.path for w in model.layers[0].weights]
    assert_true(len(paths) == 2 and paths[0].endswith("time_distributed/dense/kernel")
                and paths[1].endswith("time_distributed/dense/bias"),
                f"the wrapped Dense's weights live under the wrapper: .../time_distributed/dense/{{kernel,bias}}, got {paths}",
                call="Sequential([Input((3, 4)), TimeDistributed(Dense(2))]).layers[0].weights")
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1), loss="mse")
    model.fit(seq, target, batch_size=2, epochs=1, shuffle=False, verbose=0)
    d_out = 2.0 * (s64 @ k64 - target) / target.size
    got_k, got_b = model.layers[0].get_weights()
    call = "Sequential([Input((3, 4)), TimeDistributed(Dense(2))]).fit(SGD(0.1), mse, one batch)"
    assert_close(got_k, k64 - 0.1 * np.einsum("bti,bto->io", s64, d_out), call=call, what="kernel after one step")
    assert_close(got_b, -0.1 * d_out.sum(axis=(0, 1)), call=call, what="bias after one step")
    again = L.TimeDistributed.from_config(model.layers[0].get_config())
    assert_equal(again.layer.units, 2, call="TimeDistributed.from_config(get_config())", what="layer.units")
    assert_true(isinstance(again, L.Wrapper), "TimeDistributed is a keras.layers.Wrapper", call="TimeDistributed")
    with raises(ValueError, match="at least 3 dimensions"):
        L.TimeDistributed(L.Dense(2)).build((None, 4))


@clause("ops.string-hash-bucket", ref="tf221")
def test_layers_more2_hash_bucket_fast_is_fingerprint64_modulo(tf):
    words = ["", "a", "hello", "a much longer string of more than sixty-four bytes, to reach FarmHash's loop!"]
    for n in (1, 7, 1000):
        got = np.asarray(tf.strings.to_hash_bucket_fast(words, n))
        fps = np.asarray(tf.fingerprint(tf.constant(words)))
        want = np.array([int.from_bytes(bytes(row.tolist()), "little") % n for row in fps], np.int64)
        assert_equal(got, want, call=f"tf.strings.to_hash_bucket_fast(words, {n}) vs tf.fingerprint(words) % {n}")
    assert_equal(tf.strings.to_hash_bucket_fast(words, 7).dtype.name, "int64", call="to_hash_bucket_fast", what="dtype")
    with raises(Exception, match="num_buckets"):
        tf.strings.to_hash_bucket_fast(words, 0)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more2_hashing_layer(tf, keras):
    L = keras.layers
    words = np.array([["A"], ["B"], ["C"], ["D"], ["E"]])
    want = np.asarray(tf.strings.to_hash_bucket_fast(words, 5))
    assert_equal(L.Hashing(5)(words), want, call="Hashing(5)(strings)")
    ints = np.array([[1, 2], [3, 44]], np.int64)
    assert_equal(L.Hashing(5)(ints), np.asarray(tf.strings.to_hash_bucket_fast(ints.astype(str), 5)),
                 call="Hashing(5)(int64): the integers' decimal strings hashed")
    masked = np.asarray(L.Hashing(3, mask_value="")(np.array([["A"], [""], ["C"]])))
    plain = np.asarray(tf.strings.to_hash_bucket_fast(np.array([["A"], ["C"]]), 2)) + 1
    assert_equal(masked, np.array([[plain[0, 0]], [0], [plain[1, 0]]]),
                 call="Hashing(3, mask_value='')(['A', '', 'C']): bin 0 for the mask, hash % 2 + 1 for the rest")
    one_hot = np.asarray(L.Hashing(4, output_mode="one_hot")(np.array([["a"], ["b"]])))
    idx = np.asarray(tf.strings.to_hash_bucket_fast(["a", "b"], 4))
    assert_equal(one_hot, np.eye(4, dtype=np.float32)[idx], call="Hashing(4, output_mode='one_hot')")
    assert_equal(L.Hashing(5).dtype, "int64", call="Hashing(5).dtype")
    assert_equal(tuple(L.Hashing(5, output_mode="count").compute_output_shape((None, 3))), (None, 5),
                 call="Hashing(5, output_mode='count').compute_output_shape((None, 3))")
    with raises(ValueError, match="num_bins"):
        L.Hashing(0)
