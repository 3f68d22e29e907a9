"""More Keras layers — LeakyReLU, ELU, PReLU, Identity, Permute, Cropping1D, MaxPooling1D, AveragePooling1D, Subtract, Multiply, Maximum, Minimum: values,
config round trips, and a Sequential fit through LeakyReLU — clause
keras.layer.forward-and-gradients (TF 2.21 + Keras 3.15).

Expected values come from NumPy transcriptions of keras/src/layers/... written here, never from
the backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises

clause = pytest.mark.clause

RNG = np.random.default_rng(7)
X = RNG.standard_normal((4, 3)).astype(np.float32)
Y = RNG.standard_normal((4, 3)).astype(np.float32)
Z = RNG.standard_normal((4, 1, 3)).astype(np.float32)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more_activation_layers_match_numpy(keras):
    x = np.concatenate([X, np.zeros((1, 3), np.float32)])
    assert_close(keras.layers.LeakyReLU()(x), np.where(x >= 0, x, np.float32(0.3) * x), call="LeakyReLU()(x)")
    assert_close(keras.layers.LeakyReLU(negative_slope=0.05)(x), np.where(x >= 0, x, np.float32(0.05) * x),
                 call="LeakyReLU(negative_slope=0.05)(x)")
    assert_close(keras.layers.ELU()(x), np.where(x > 0, x, np.expm1(x)), call="ELU()(x)")
    assert_close(keras.layers.ELU(alpha=0.5)(x), np.where(x > 0, x, np.float32(0.5) * np.expm1(x)),
                 call="ELU(alpha=0.5)(x)")
    assert_equal(keras.layers.Identity()(x), x, call="Identity()(x)")
    with raises(ValueError, match="negative_slope"):
        keras.layers.LeakyReLU(negative_slope=-0.1)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more_merging_layers_match_numpy(keras):
    L = keras.layers
    assert_close(L.Subtract()([X, Y]), X - Y, call="Subtract()([x, y])")
    assert_close(L.Multiply()([X, Y, X]), X * Y * X, call="Multiply()([x, y, x])")
    assert_close(L.Maximum()([X, Y]), np.maximum(X, Y), call="Maximum()([x, y])")
    assert_close(L.Minimum()([X, Y, -X]), np.minimum(np.minimum(X, Y), -X), call="Minimum()([x, y, -x])")
    assert_close(L.multiply([X, Z]), X[:, None, :] * Z, call="multiply([(4,3), (4,1,3)])")
    assert_close(L.subtract([Z, X]), Z - X[:, None, :], call="subtract([(4,1,3), (4,3)])")
    assert_close(L.maximum([X, Y]), np.maximum(X, Y), call="maximum([x, y])")
    assert_close(L.minimum([X, Y]), np.minimum(X, Y), call="minimum([x, y])")
    with raises(ValueError, match="exactly 2 inputs"):
        L.Subtract()([X, Y, X])


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more_config_round_trip(keras):
    L = keras.layers
    leaky = L.LeakyReLU(negative_slope=0.15, name="lr")
    cfg = leaky.get_config()
    assert_equal(cfg["negative_slope"], 0.15, call="LeakyReLU(0.15).get_config()", what="negative_slope")
    again = L.LeakyReLU.from_config(cfg)
    assert_close(again(X), leaky(X), call="LeakyReLU.from_config(get_config())(x)")
    elu = L.ELU(alpha=0.5)
    assert_equal(elu.get_config()["alpha"], 0.5, call="ELU(alpha=0.5).get_config()", what="alpha")
    assert_close(L.ELU.from_config(elu.get_config())(X), np.where(X > 0, X, np.float32(0.5) * np.expm1(X)),
                 call="ELU.from_config(ELU(alpha=0.5).get_config())(x)")
    for cls in (L.Identity, L.Subtract, L.Multiply, L.Maximum, L.Minimum):
        layer = cls(name="m")
        assert_equal(cls.from_config(layer.get_config()).name, "m", call=f"{cls.__name__}.from_config", what="name")
    assert_equal(L.LeakyReLU().name, "leaky_re_lu", call="LeakyReLU()", what="name")


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more_leaky_relu_in_sequential_fit(keras):
    rng = np.random.default_rng(11)
    kernel = rng.standard_normal((3, 2)).astype(np.float32)
    bias = np.array([0.1, -0.2], np.float32)
    target = rng.standard_normal((4, 2)).astype(np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.LeakyReLU(0.2)])
    model.layers[0].set_weights([kernel, bias])
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1), loss="mse")
    model.fit(X, target, batch_size=4, epochs=1, shuffle=False, verbose=0)
    x64, k64, b64, t64 = (a.astype(np.float64) for a in (X, kernel, bias, target))
    pre = x64 @ k64 + b64
    out = np.where(pre >= 0, pre, 0.2 * pre)
    d_out = 2.0 * (out - t64) / out.size
    d_pre = d_out * np.where(pre >= 0, 1.0, 0.2)
    call = "Sequential([Input, Dense(2), LeakyReLU(0.2)]).fit(SGD(0.1), mse, one batch)"
    got_k, got_b = model.layers[0].get_weights()
    assert_close(got_k, k64 - 0.1 * x64.T @ d_pre, call=call, what="kernel after one step")
    assert_close(got_b, b64 - 0.1 * d_pre.sum(axis=0), call=call, what="bias after one step")


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more_prelu_values_and_one_sgd_step(tf, keras):
    x = np.arange(-12, 12, dtype=np.float32).reshape(2, 3, 4) / 4
    alpha0 = np.linspace(0.1, 0.4, 4, dtype=np.float32).reshape(1, 4)
    layer = keras.layers.PReLU(shared_axes=[1])
    layer.build((None, 3, 4))
    assert_equal(tuple(layer.alpha.shape), (1, 4), call="PReLU(shared_axes=[1]).build((None, 3, 4))",
                 what="alpha.shape")
    layer.alpha.assign(alpha0)
    call = "PReLU(shared_axes=[1])(x) with alpha set"
    pos, negpart = np.maximum(x, 0), np.maximum(-x, 0)
    with tf.GradientTape() as tape:
        out = layer(x)
        loss = tf.reduce_sum(out * out)
    assert_close(out, pos - alpha0 * negpart, call=call)
    grad = tape.gradient(loss, layer.trainable_variables)
    opt = keras.optimizers.SGD(learning_rate=0.01)
    opt.apply_gradients(zip(grad, layer.trainable_variables))
    out64 = pos.astype(np.float64) - alpha0.astype(np.float64) * negpart
    d_alpha = (2.0 * out64 * -negpart).sum(axis=(0, 1)).reshape(1, 4)
    assert_close(layer.alpha, alpha0 - 0.01 * d_alpha, call=call + "; SGD(0.01) step on sum(out**2)",
                 what="alpha after one step")
    cfg = layer.get_config()
    assert_equal(cfg["shared_axes"], [1], call="PReLU(shared_axes=[1]).get_config()", what="shared_axes")
    assert_equal(keras.layers.PReLU.from_config(cfg).shared_axes, [1], call="PReLU.from_config", what="shared_axes")


def _windows(x: np.ndarray, size: int, stride: int, padding: str) -> list[np.ndarray]:
    """The (batch, window, channels) windows of a channels-last 1-D pooling, in-bounds elements only
    (TF's SAME padding puts total // 2 on the left, total = max((out - 1) * stride + size - steps, 0))."""
    steps = x.shape[1]
    if padding == "valid":
        out, left = (steps - size) // stride + 1, 0
    else:
        out = -(-steps // stride)
        left = max((out - 1) * stride + size - steps, 0) // 2
    return [x[:, max(i * stride - left, 0):min(i * stride - left + size, steps), :] for i in range(out)]


@clause("keras.layer.pooling.window", ref="tf221")
def test_layers_more_pooling_1d_matches_numpy(keras):
    x = np.random.default_rng(3).standard_normal((2, 7, 3)).astype(np.float32)
    L = keras.layers
    for cls, reduce, name in ((L.MaxPooling1D, np.max, "max"), (L.AveragePooling1D, np.mean, "mean")):
        for size, stride, padding in ((2, None, "valid"), (3, 2, "same"), (3, 1, "valid"), (2, 3, "same")):
            call = f"{cls.__name__}(pool_size={size}, strides={stride}, padding={padding!r})(x of shape (2, 7, 3))"
            expected = np.stack([reduce(w, axis=1) for w in _windows(x, size, stride or size, padding)], axis=1)
            assert_close(cls(pool_size=size, strides=stride, padding=padding)(x), expected, call=call)
    xcf = np.transpose(x, (0, 2, 1))
    expected = np.transpose(np.stack([w.max(axis=1) for w in _windows(x, 2, 2, "valid")], axis=1), (0, 2, 1))
    assert_close(L.MaxPool1D(data_format="channels_first")(xcf), expected, call="MaxPool1D(data_format=channels_first)")
    layer = L.AvgPool1D(3, strides=2, padding="same")
    cfg = layer.get_config()
    for key, want in (("pool_size", (3,)), ("strides", (2,)), ("padding", "same")):
        assert_equal(cfg[key], want, call="AvgPool1D(3, strides=2, padding='same').get_config()", what=key)
    assert_equal(tuple(L.AvgPool1D.from_config(cfg).compute_output_shape((None, 7, 3))), (None, 4, 3),
                 call="AvgPool1D.from_config(cfg).compute_output_shape((None, 7, 3))")


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more_permute_matches_numpy(keras):
    x = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    for dims in ((2, 1, 3), (3, 1, 2), (1, 2, 3)):
        layer = keras.layers.Permute(dims)
        call = f"Permute({dims})(x of shape (2, 3, 4, 5))"
        assert_equal(layer(x), np.transpose(x, (0,) + dims), call=call)
        assert_equal(tuple(layer.compute_output_shape((None, 3, 4, 5))), (None,) + tuple((3, 4, 5)[d - 1] for d in dims),
                     call=f"Permute({dims}).compute_output_shape((None, 3, 4, 5))")
        assert_equal(tuple(keras.layers.Permute.from_config(layer.get_config()).dims), dims,
                     call=f"Permute.from_config(Permute({dims}).get_config())", what="dims")
    with raises(ValueError, match="consecutive"):
        keras.layers.Permute((0, 1))
    with raises(ValueError):
        keras.layers.Permute((2, 1))(x)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_layers_more_cropping1d_matches_numpy(keras):
    x = np.arange(2 * 6 * 3, dtype=np.float32).reshape(2, 6, 3)
    for cropping, (a, b) in ((None, (1, 1)), (2, (2, 2)), ((0, 3), (0, 3)), ((4, 0), (4, 0))):
        layer = keras.layers.Cropping1D() if cropping is None else keras.layers.Cropping1D(cropping)
        call = f"Cropping1D({'' if cropping is None else cropping})(x of shape (2, 6, 3))"
        assert_equal(layer(x), x[:, a:6 - b, :], call=call)
        assert_equal(tuple(layer.compute_output_shape((None, 6, 3))), (None, 6 - a - b, 3), call=call,
                     what="compute_output_shape")
        assert_equal(tuple(keras.layers.Cropping1D.from_config(layer.get_config()).cropping), (a, b), call=call,
                     what="from_config(get_config()).cropping")
    with raises(ValueError, match="smaller than the input length"):
        keras.layers.Cropping1D(3)(x)
    # inside a model with an unknown batch size
    model = keras.Sequential([keras.Input((6, 3)), keras.layers.Cropping1D((1, 2))])
    assert_equal(model.predict(x, verbose=0), x[:, 1:4, :], call="Sequential([Input((6, 3)), Cropping1D((1, 2))]).predict")
