"""Keras layer behaviour the suite never executed before the fifteenth session (docs/conformance.md,
"Fifteenth session: suite coverage of Keras layers, losses and metrics"): the argument errors of
the layers people train (convolutions, Dense, Embedding, ReLU, Dropout, Input, the normalizations,
recurrent layers, MultiHeadAttention), Embedding's initial `weights` and float ids, Softmax with a
float mask, transposed convolutions' "same" and channels-first shapes, BatchNormalization's batch
renormalization without gamma/beta, recurrent layers' single-tensor initial state and float or 3-D
masks, MultiHeadAttention's int `attention_axes`, and the keras.activations functions (TF 2.21 +
Keras 3.15).

Expected values are computed here with NumPy from Keras 3.15's formulas (keras/src/layers/,
keras/src/activations/), never with the backend's implementation.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _f32(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _shape(t) -> tuple:
    return tuple(None if d is None else int(d) for d in t.shape)


@clause("keras.layer.conv-family.arguments", ref="tf221")
def test_cov14c_conv_argument_errors(keras, tf):
    """Conv2D/Conv1D/Conv2DTranspose refuse filters <= 0, groups <= 0, filters not divisible by
    groups, a 0 in kernel_size or strides, strides > 1 with dilation_rate > 1 (ValueError when
    constructed), input channels not divisible by groups (ValueError when built), and `kernel`
    before build (AttributeError)."""
    L = keras.layers
    cases = [
        ("Conv2D(0, 3)", lambda: L.Conv2D(0, 3), "strictly positive"),
        ("Conv2D(4, 3, groups=0)", lambda: L.Conv2D(4, 3, groups=0), "positive integer"),
        ("Conv2D(3, 3, groups=2)", lambda: L.Conv2D(3, 3, groups=2), "divisible by the number of groups"),
        ("Conv2D(4, (0, 3))", lambda: L.Conv2D(4, (0, 3)), "kernel_size"),
        ("Conv1D(4, 3, strides=0)", lambda: L.Conv1D(4, 3, strides=0), "strides"),
        ("Conv2D(4, 3, strides=2, dilation_rate=2)", lambda: L.Conv2D(4, 3, strides=2, dilation_rate=2),
         "dilation_rate > 1"),
        ("Conv2DTranspose(0, 3)", lambda: L.Conv2DTranspose(0, 3), "strictly positive"),
        ("Conv2DTranspose(4, (3, 0))", lambda: L.Conv2DTranspose(4, (3, 0)), "kernel_size"),
        ("Conv2DTranspose(4, 3, strides=(1, 0))", lambda: L.Conv2DTranspose(4, 3, strides=(1, 0)), "strides"),
        ("Conv2DTranspose(4, 3, strides=2, dilation_rate=2)",
         lambda: L.Conv2DTranspose(4, 3, strides=2, dilation_rate=2), "dilation_rate > 1"),
    ]
    for call, make, match in cases:
        with raises(ValueError, match=match, call=call):
            make()
    layer = L.Conv2D(4, 3, groups=2)
    with raises(AttributeError, match="build the layer", call="Conv2D(4, 3).kernel before build"):
        _ = layer.kernel
    with raises(ValueError, match="input channels must be evenly divisible",
                call="Conv2D(4, 3, groups=2) on 3 input channels"):
        layer(np.zeros((1, 5, 5, 3), np.float32))
    with raises(ValueError, match="zero or negative", call="Conv2D(2, 5) on a 3x3 image"):
        L.Conv2D(2, 5)(np.zeros((1, 3, 3, 1), np.float32))


@clause("keras.layer.conv-family.symbolic", ref="tf221")
def test_cov14c_conv_transpose_same_and_channels_first_shapes(keras):
    """Conv*Transpose output length: "same" gives input * stride (no output_padding), "valid"
    (input - 1) * stride + kernel; channels_first keeps the channels on axis 1 (symbolic shapes,
    Keras's compute_conv_transpose_output_shape)."""
    cases = [
        (lambda: keras.layers.Conv2DTranspose(3, 3, strides=2, padding="same"), (5, 7, 2), (None, 10, 14, 3)),
        (lambda: keras.layers.Conv2DTranspose(3, 3, strides=2, padding="valid"), (5, 7, 2), (None, 11, 15, 3)),
        (lambda: keras.layers.Conv1DTranspose(2, 4, strides=3, padding="same"), (6, 2), (None, 18, 2)),
        (lambda: keras.layers.Conv2DTranspose(3, 2, strides=2, padding="same", data_format="channels_first"),
         (2, 5, 4), (None, 3, 10, 8)),
        (lambda: keras.layers.Conv1DTranspose(4, 3, strides=2, padding="valid", data_format="channels_first"),
         (2, 6), (None, 4, 13)),
    ]
    for i, (make, in_shape, expected) in enumerate(cases):
        layer = make()
        out = layer(keras.Input(in_shape))
        call = f"{type(layer).__name__}(strides={layer.strides}, padding={layer.padding!r}, " \
               f"data_format={layer.data_format!r}) on Input({in_shape})"
        assert_equal(_shape(out), expected, call=call, what="output shape")
        assert_equal(tuple(layer.compute_output_shape((None,) + in_shape)), expected, call=call,
                     what="compute_output_shape")


@clause("keras.layer.option-coverage", ref="tf221")
def test_cov14c_dense_embedding_arguments_initial_weights_and_float_ids(keras):
    """Dense(units <= 0) and Embedding(input_dim/output_dim not a positive int) are ValueErrors;
    `kernel`/`embeddings` before build are AttributeErrors; Embedding(weights=w) (an array or a
    one-element list) starts from w; float ids are cast to int32 and gather the same rows."""
    with raises(ValueError, match="units", call="Dense(0)"):
        keras.layers.Dense(0)
    with raises(AttributeError, call="Dense(2).kernel before build"):
        _ = keras.layers.Dense(2).kernel
    for call, make in [("Embedding(0, 2)", lambda: keras.layers.Embedding(0, 2)),
                       ("Embedding(3, -1)", lambda: keras.layers.Embedding(3, -1)),
                       ("Embedding(3.0, 2)", lambda: keras.layers.Embedding(3.0, 2))]:
        with raises(ValueError, match="must be a positive integer", call=call):
            make()
    w = np.arange(8, dtype=np.float32).reshape(4, 2) / 4
    ids = np.array([[3, 0], [1, 1]], np.int32)
    for form, weights in (("array", w), ("[array]", [w])):
        layer = keras.layers.Embedding(4, 2, weights=weights)
        call = f"Embedding(4, 2, weights={form})"
        assert_close(np.asarray(layer.embeddings), w, call=call, what="embeddings", tolerance=TOL32)
        assert_close(np.asarray(layer(ids)), w[ids], call=call + "(ids)", what="out", tolerance=TOL32)
        assert_close(np.asarray(layer(ids.astype(np.float32) + 0.75)), w[ids], call=call + "(float ids + 0.75)",
                     what="out (ids cast to int32)", tolerance=TOL32)
    with raises(AttributeError, call="Embedding(4, 2).embeddings before build"):
        _ = keras.layers.Embedding(4, 2).embeddings


@clause("keras.layer.option-coverage", ref="tf221")
def test_cov14c_relu_softmax_dropout_input_arguments(keras):
    """ReLU refuses a negative max_value, negative_slope or threshold; Softmax with a float mask
    keeps the entries whose mask is above 0.5... as TF's Keras computes it; Dropout refuses a rate
    outside [0, 1] and a noise_shape that is a string, not iterable or holds a non-int;
    keras.Input refuses shape with batch_shape, batch_size with batch_shape, and neither."""
    for call, kwargs, match in [("ReLU(max_value=-1.0)", {"max_value": -1.0}, "max_value"),
                                ("ReLU(negative_slope=-0.1)", {"negative_slope": -0.1}, "negative_slope"),
                                ("ReLU(threshold=-1.0)", {"threshold": -1.0}, "threshold")]:
        with raises(ValueError, match=match, call=call):
            keras.layers.ReLU(**kwargs)
    cfg = keras.layers.ReLU(max_value=6.0, negative_slope=0.1, threshold=0.5).get_config()
    assert_equal({k: float(cfg[k]) for k in ("max_value", "negative_slope", "threshold")},
                 {"max_value": 6.0, "negative_slope": 0.1, "threshold": 0.5}, call="ReLU(6, 0.1, 0.5).get_config()",
                 what="config")
    x = np.array([[1.0, 2.0, 3.0, 0.5]], np.float32)
    mask_f = np.array([[1.0, 0.0, 1.0, 1.0]], np.float32)
    out = np.asarray(keras.layers.Softmax()(x, mask=mask_f))
    keep = mask_f > 0.5
    e = np.where(keep, np.exp(x - x[keep].max()), 0.0)
    assert_close(out, e / e.sum(), call="Softmax()(x, mask=float 0/1 mask)", what="out", tolerance=TOL32)
    for call, make, match in [
            ("Dropout(1.5)", lambda: keras.layers.Dropout(1.5), "rate"),
            ("Dropout(0.5, noise_shape='ab')", lambda: keras.layers.Dropout(0.5, noise_shape="ab"), "noise_shape"),
            ("Dropout(0.5, noise_shape=3)", lambda: keras.layers.Dropout(0.5, noise_shape=3), "noise_shape"),
            ("Dropout(0.5, noise_shape=(None, 1.5))", lambda: keras.layers.Dropout(0.5, noise_shape=(None, 1.5)),
             "noise_shape")]:
        with raises(ValueError, match=match, call=call):
            make()
    for call, kwargs, match in [("Input(shape=(2,), batch_shape=(1, 2))", {"shape": (2,), "batch_shape": (1, 2)},
                                 "both `shape` and `batch_shape`"),
                                ("Input(batch_size=1, batch_shape=(1, 2))", {"batch_size": 1, "batch_shape": (1, 2)},
                                 "both `batch_size` and `batch_shape`"),
                                ("Input()", {}, "must pass a `shape`")]:
        with raises(ValueError, match=match, call=call):
            keras.Input(**kwargs)


@clause("keras.layer.batchnorm", ref="tf221")
def test_cov14c_normalization_argument_errors(keras):
    """LayerNormalization(axis="a") is a TypeError; an axis out of the input's rank, for
    LayerNormalization and BatchNormalization, an IndexError when built (TF 2.21); BatchNormalization refuses
    unknown renorm_clipping keys, rmax < rmin and dmax < 0, and a mask whose rank is not the
    input's minus one; GroupNormalization refuses an unknown channel dimension."""
    with raises(TypeError, match="axis", call="LayerNormalization(axis='a')"):
        keras.layers.LayerNormalization(axis="a")
    # (TF 2.21 + Keras 3.15: build indexes the shape first, so an IndexError, not the ValueError of
    # compute_output_shape)
    with raises(IndexError, call="LayerNormalization(axis=3) on Input((4,))"):
        keras.layers.LayerNormalization(axis=3)(keras.Input((4,)))
    with raises(IndexError, call="BatchNormalization(axis=2) on Input((4,))"):
        keras.layers.BatchNormalization(axis=2)(keras.Input((4,)))
    for call, clip, match in [("renorm_clipping={'bad': 1}", {"bad": 1.0}, "invalid keys"),
                              ("renorm_clipping={'rmax': 1, 'rmin': 2}", {"rmax": 1.0, "rmin": 2.0}, "rmax should"),
                              ("renorm_clipping={'dmax': -1}", {"dmax": -1.0}, "dmax should")]:
        with raises(ValueError, match=match, call=f"BatchNormalization(renorm=True, {call})"):
            keras.layers.BatchNormalization(renorm=True, renorm_clipping=clip)
    bn = keras.layers.BatchNormalization()
    x = _f32(2, 3, 4)
    with raises(ValueError, match="one dimension less", call="BatchNormalization()(x (2, 3, 4), mask (2, 3, 4))"):
        bn(x, training=True, mask=np.ones((2, 3, 4), bool))
    with raises(ValueError, match="defined dimension", call="GroupNormalization(groups=2) on Input((3, None))"):
        keras.layers.GroupNormalization(groups=2)(keras.Input((3, None)))


@clause("keras.layer.batchnorm", ref="tf221")
def test_cov14c_batchnorm_renorm_without_gamma_beta(keras):
    """BatchNormalization(renorm=True, center=False, scale=False) in training: out =
    (x - mean)/sqrt(var + eps) * r + d with r = clip(sqrt(var + eps)/renorm_stddev, rmin, rmax)
    and d = clip((mean - renorm_mean)/renorm_stddev, -dmax, dmax) (Keras 3.15's batch
    renormalization, r and d standing in for gamma and beta); the moving statistics move as
    moving_mean*m + mean*(1 - m), moving_stddev*m + stddev*(1 - m), variance = stddev^2 - eps."""
    eps, m = 1e-3, 0.9
    clip = {"rmin": 0.8, "rmax": 1.2, "dmax": 0.3}
    x = (np.arange(12, dtype=np.float32).reshape(4, 3) * np.float32([0.5, 2.0, 0.1]) - np.float32([0.0, 9.0, 0.6])
         ).astype(np.float32)
    layer = keras.layers.BatchNormalization(renorm=True, renorm_clipping=clip, momentum=m, renorm_momentum=m,
                                            epsilon=eps, center=False, scale=False)
    out = np.asarray(layer(x, training=True))
    xd = x.astype(np.float64)
    mean, var = xd.mean(0), xd.var(0)
    std = np.sqrt(var + eps)
    r = np.clip(std / 1.0, clip["rmin"], clip["rmax"])
    d = np.clip(mean / 1.0, -clip["dmax"], clip["dmax"])
    call = f"BatchNormalization(renorm=True, renorm_clipping={clip}, center=False, scale=False)(x, training=True)"
    assert_close(out, (xd - mean) / std * r + d, call=call, what="out", tolerance=TOL32)
    new_std = 1.0 * m + std * (1 - m)
    assert_close(np.asarray(layer.moving_mean), mean * (1 - m), call=call, what="moving_mean", tolerance=TOL32)
    assert_close(np.asarray(layer.moving_variance), np.maximum(new_std ** 2 - eps, 0.0), call=call,
                 what="moving_variance", tolerance=TOL32)
    infer = np.asarray(layer(x, training=False))
    expected = (xd - mean * (1 - m)) / np.sqrt(np.maximum(new_std ** 2 - eps, 0.0) + eps)
    assert_close(infer, expected, call=call + ", then training=False", what="out", tolerance=TOL32)


def _simple_rnn_numpy(x, kernel, rec, bias, mask=None, h0=None):
    h = np.zeros((x.shape[0], kernel.shape[1])) if h0 is None else h0.astype(np.float64)
    outs = []
    for t in range(x.shape[1]):
        new = np.tanh(x[:, t] @ kernel + h @ rec + bias)
        if mask is not None:
            new = np.where(mask[:, t:t + 1], new, h)
        h = new
        outs.append(h)
    return np.stack(outs, 1), h


@clause("keras.rnn.layers", ref="tf221")
def test_cov14c_rnn_initial_state_tensor_and_float_masks(keras):
    """A recurrent layer takes `initial_state` as one tensor as well as a list; a float mask
    (nonzero: keep) and a 3-D (batch, steps, 1) mask act as the boolean mask: masked steps carry
    the previous state and output (NumPy SimpleRNN recurrence)."""
    x = _f32(2, 4, 3, seed=2)
    h0 = _f32(2, 2, seed=3)
    layer = keras.layers.SimpleRNN(2, return_sequences=True)
    layer(x)
    kernel, rec, bias = (np.asarray(w, np.float64) for w in layer.get_weights())
    single = np.asarray(layer(x, initial_state=h0))
    listed = np.asarray(layer(x, initial_state=[h0]))
    expected, _ = _simple_rnn_numpy(x.astype(np.float64), kernel, rec, bias, h0=h0)
    assert_close(single, expected, call="SimpleRNN(2, return_sequences=True)(x, initial_state=h0)", what="out",
                 tolerance=TOL32)
    assert_close(listed, expected, call="SimpleRNN(2, return_sequences=True)(x, initial_state=[h0])", what="out",
                 tolerance=TOL32)
    mask = np.array([[True, True, False, True], [True, False, False, True]])
    expected, _ = _simple_rnn_numpy(x.astype(np.float64), kernel, rec, bias, mask=mask)
    for form, m in (("float", mask.astype(np.float32)), ("3-D bool", mask[..., None])):
        got = np.asarray(layer(x, mask=m))
        assert_close(got, expected, call=f"SimpleRNN(2, return_sequences=True)(x, mask={form})", what="out",
                     tolerance=TOL32)


@clause("keras.rnn.arguments", ref="tf221")
def test_cov14c_rnn_argument_errors(keras):
    """RNN refuses a cell without `call` or `state_size`; a stateful layer refuses another batch
    size than the one it was built for; LSTM(use_cudnn=True) on a CPU-only TF is a ValueError."""

    class NoCall:
        state_size = 2

    class NoStateSize:
        def call(self, inputs, states):
            return inputs, states

    with raises(ValueError, match="call", call="RNN(cell without call)"):
        keras.layers.RNN(NoCall())
    with raises(ValueError, match="state_size", call="RNN(cell without state_size)"):
        keras.layers.RNN(NoStateSize())
    stateful = keras.layers.SimpleRNN(2, stateful=True)
    stateful(_f32(2, 3, 1))
    with raises(ValueError, match="stateful", call="SimpleRNN(stateful=True) built on batch 2, called on batch 3"):
        stateful(_f32(3, 3, 1))
    with raises(ValueError, match="cuDNN", call="LSTM(2, use_cudnn=True)(x) on CPU"):
        keras.layers.LSTM(2, use_cudnn=True)(_f32(2, 3, 1))


@clause("keras.layer.option-coverage", ref="tf221")
def test_cov14c_multi_head_attention_int_axes_and_errors(keras):
    """MultiHeadAttention(attention_axes=1) equals attention_axes=(1,) (the same weights);
    a value whose inner dims differ from the key's is a ValueError."""
    q = _f32(2, 3, 4, seed=5)
    v = _f32(2, 5, 4, seed=6)
    a = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3, attention_axes=1)
    b = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3, attention_axes=(1,))
    out_a = np.asarray(a(q, v))
    b(q, v)
    b.set_weights(a.get_weights())
    assert_close(out_a, np.asarray(b(q, v)), call="MultiHeadAttention(attention_axes=1) vs attention_axes=(1,)",
                 what="out", tolerance=TOL32)
    default = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
    default(q, v)
    default.set_weights(a.get_weights())
    assert_close(np.asarray(default(q, v)), out_a, call="MultiHeadAttention() vs attention_axes=1 on rank-3 inputs",
                 what="out", tolerance=TOL32)
    with raises(ValueError, match="except the last one", call="MultiHeadAttention()(q, value (2, 5, 4), key (2, 6, 4))"):
        keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)(q, v, key=_f32(2, 6, 4))


def _selu(x):
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    return scale * np.where(x > 0, x, alpha * (np.exp(x) - 1))


@clause("keras.layer.option-coverage", ref="tf221")
def test_cov14c_activation_functions_and_get(keras):
    """keras.activations relu6, selu, silu, softplus, exponential and log_softmax(axis) against
    their NumPy formulas; activations.get of an unknown name or a non-callable is a ValueError,
    of a config dict the function; serialize names the function."""
    x = np.array([[-7.0, -1.5, -0.25, 0.0], [0.5, 2.0, 6.5, 9.0]], np.float32)
    xd = x.astype(np.float64)
    act = keras.activations
    lse0 = np.log(np.exp(xd).sum(0, keepdims=True))
    for name, fn, expected in [
            ("relu6", act.relu6, np.clip(xd, 0, 6)),
            ("selu", act.selu, _selu(xd)),
            ("silu", act.silu, xd / (1 + np.exp(-xd))),
            ("softplus", act.softplus, np.log1p(np.exp(xd))),
            ("exponential", act.exponential, np.exp(xd)),
            ("log_softmax(axis=0)", lambda t: act.log_softmax(t, axis=0), xd - lse0)]:
        assert_close(np.asarray(fn(x)), expected, call=f"keras.activations.{name}(x)", what="out", tolerance=TOL32)
    with raises(ValueError, match="Could not interpret", call="activations.get('no_such_activation')"):
        act.get("no_such_activation")
    with raises(ValueError, match="Could not interpret", call="activations.get(3)"):
        act.get(3)
    fn = act.get({"class_name": "function", "config": "relu6", "module": "keras.activations",
                  "registered_name": None})
    assert_close(np.asarray(fn(x)), np.clip(xd, 0, 6), call="activations.get(relu6 config dict)(x)", what="out",
                 tolerance=TOL32)
    assert_equal(act.serialize(act.get("selu")), "selu", call="activations.serialize(get('selu'))", what="name")


@clause("keras.init.distributions", ref="tf221")
def test_cov14c_initializer_argument_errors_and_untruncated_normal(keras):
    """VarianceScaling refuses scale <= 0, an unknown mode or distribution, a non-int seed;
    distribution="normal" is read as "truncated_normal"; "untruncated_normal" draws N(0, scale/fan)
    (values beyond 2 std occur, which truncated_normal never gives); Identity needs 2-D,
    Orthogonal at least 2-D; initializers.get refuses an unknown name."""
    I = keras.initializers
    for call, make, match in [("VarianceScaling(scale=0.0)", lambda: I.VarianceScaling(scale=0.0), "scale"),
                              ("VarianceScaling(mode='fan')", lambda: I.VarianceScaling(mode="fan"), "mode"),
                              ("VarianceScaling(distribution='cauchy')",
                               lambda: I.VarianceScaling(distribution="cauchy"), "distribution"),
                              ("VarianceScaling(seed='a')", lambda: I.VarianceScaling(seed="a"), "seed"),
                              ("initializers.get('no_such_init')", lambda: I.get("no_such_init"), "Could not interpret")]:
        with raises(ValueError, match=match, call=call):
            make()
    assert_equal(I.VarianceScaling(distribution="normal").get_config()["distribution"], "truncated_normal",
                 call="VarianceScaling(distribution='normal').get_config()", what="distribution")
    with raises(ValueError, match="2D", call="Identity()((2, 2, 2))"):
        I.Identity()((2, 2, 2))
    with raises(ValueError, match="two-dimensional", call="Orthogonal()((4,))"):
        I.Orthogonal(seed=1)((4,))
    fan_in = 100
    w = np.asarray(I.VarianceScaling(scale=2.0, mode="fan_in", distribution="untruncated_normal", seed=7)(
        (fan_in, 400)), np.float64)
    std = math.sqrt(2.0 / fan_in)
    call = "VarianceScaling(2.0, 'fan_in', 'untruncated_normal', seed=7)((100, 400))"
    assert_close(w.std(), std, call=call, what="std", tolerance=Tolerance(rtol=0.03, atol=0.0))
    assert_true(np.abs(w).max() > 2.5 * std, f"max |w| = {np.abs(w).max():.4g}, but should exceed 2.5 std "
                f"({2.5 * std:.4g}): an untruncated normal of 40000 draws", call=call)


@clause("keras.rnn.bidirectional", ref="tf221")
def test_cov14c_bidirectional_merge_modes_and_states(keras):
    """Bidirectional(SimpleRNN(return_sequences=True)) merges the forward outputs with the
    backward layer's outputs reversed in time: "sum" adds, "ave" averages, "mul" multiplies, None
    returns both; return_state appends the forward then the backward final states; a
    get_config/from_config copy with the same weights gives the same output; a non-layer is
    refused (ValueError)."""
    x = _f32(2, 4, 3, seed=8)
    xd = x.astype(np.float64)
    combine = {"sum": lambda a, b: a + b, "ave": lambda a, b: (a + b) / 2, "mul": lambda a, b: a * b}
    for mode in ("sum", "ave", "mul", None):
        bi = keras.layers.Bidirectional(keras.layers.SimpleRNN(2, return_sequences=True), merge_mode=mode)
        out = bi(x)
        fw = [np.asarray(w, np.float64) for w in bi.forward_layer.get_weights()]
        bw = [np.asarray(w, np.float64) for w in bi.backward_layer.get_weights()]
        yf, _ = _simple_rnn_numpy(xd, *fw)
        yb, _ = _simple_rnn_numpy(xd[:, ::-1], *bw)
        yb = yb[:, ::-1]
        call = f"Bidirectional(SimpleRNN(2, return_sequences=True), merge_mode={mode!r})(x)"
        if mode is None:
            assert_equal(len(out), 2, call=call, what="len(out)")
            assert_close(np.asarray(out[0]), yf, call=call, what="out[0] (forward)", tolerance=TOL32)
            assert_close(np.asarray(out[1]), yb, call=call, what="out[1] (backward, re-reversed)", tolerance=TOL32)
        else:
            assert_close(np.asarray(out), combine[mode](yf, yb), call=call, what="out", tolerance=TOL32)
    bi = keras.layers.Bidirectional(keras.layers.SimpleRNN(2, return_state=True), merge_mode="sum")
    out, hf, hb = bi(x)
    fw = [np.asarray(w, np.float64) for w in bi.forward_layer.get_weights()]
    bw = [np.asarray(w, np.float64) for w in bi.backward_layer.get_weights()]
    _, ef = _simple_rnn_numpy(xd, *fw)
    _, eb = _simple_rnn_numpy(xd[:, ::-1], *bw)
    call = "Bidirectional(SimpleRNN(2, return_state=True), merge_mode='sum')(x)"
    assert_close(np.asarray(out), ef + eb, call=call, what="out", tolerance=TOL32)
    assert_close(np.asarray(hf), ef, call=call, what="forward state", tolerance=TOL32)
    assert_close(np.asarray(hb), eb, call=call, what="backward state", tolerance=TOL32)
    copy = keras.layers.Bidirectional.from_config(bi.get_config())
    copy(x)
    copy.set_weights(bi.get_weights())
    got = copy(x)
    assert_close(np.asarray(got[0]), ef + eb, call=call + ", from_config(get_config())", what="out", tolerance=TOL32)
    with raises(ValueError, match="Layer", call="Bidirectional(3)"):
        keras.layers.Bidirectional(3)


@clause("keras.layer.option-coverage", ref="tf221")
def test_cov14c_merge_layers_broadcasting_dtypes_and_errors(keras):
    """Add/Multiply broadcast size-1 dims of the non-batch axes (symbolic shapes and values);
    keras.layers.add/average/concatenate apply their layers; Add of float16 and float32 computes
    in float32; Add of incompatible shapes, of one tensor, of different batch sizes and Subtract
    of three inputs are ValueErrors; Concatenate refuses mismatched non-axis dims."""
    a = _f32(2, 3, 1, seed=9)
    b = _f32(2, 1, 4, seed=10)
    out = keras.layers.Add()([keras.Input((3, 1)), keras.Input((1, 4))])
    assert_equal(_shape(out), (None, 3, 4), call="Add()([Input((3, 1)), Input((1, 4))])", what="shape")
    assert_close(np.asarray(keras.layers.Multiply()([a, b])), a * b, call="Multiply()([(2, 3, 1), (2, 1, 4)])",
                 what="out", tolerance=TOL32)
    c = _f32(2, 3, seed=11)
    d = _f32(2, 3, seed=12)
    assert_close(np.asarray(keras.layers.add([c, d])), c + d, call="keras.layers.add([c, d])", what="out",
                 tolerance=TOL32)
    assert_close(np.asarray(keras.layers.average([c, d])), (c + d) / 2, call="keras.layers.average([c, d])",
                 what="out", tolerance=TOL32)
    assert_close(np.asarray(keras.layers.concatenate([c, d], axis=0)), np.concatenate([c, d], 0),
                 call="keras.layers.concatenate([c, d], axis=0)", what="out", tolerance=TOL32)
    mixed = keras.layers.Add()([c.astype(np.float16), d])
    assert_equal(str(np.asarray(mixed).dtype), "float32", call="Add()([float16, float32])", what="dtype")
    assert_close(np.asarray(mixed), c.astype(np.float16).astype(np.float32) + d, call="Add()([float16, float32])",
                 what="out", tolerance=TOL32)
    for call, make, match in [
            ("Add()([Input((3,)), Input((4,))])",
             lambda: keras.layers.Add()([keras.Input((3,)), keras.Input((4,))]), "incompatible shapes"),
            ("Add()(Input((3,)))", lambda: keras.layers.Add()(keras.Input((3,))), "list"),
            ("Add()([(2, 3), (3, 3)])",
             lambda: keras.layers.Add()([keras.Input((3,), batch_size=2), keras.Input((3,), batch_size=3)]),
             "batch sizes"),
            ("Subtract()([c, c, c])", lambda: keras.layers.Subtract()([c, c, c]), "exactly 2 inputs"),
            ("Concatenate()([Input((2, 3)), Input((4, 3))])",
             lambda: keras.layers.Concatenate()([keras.Input((2, 3)), keras.Input((4, 3))]), "matching shapes")]:
        with raises(ValueError, match=match, call=call):
            make()


@clause("keras.layer.option-coverage", ref="tf221")
def test_cov14c_reshape_flatten_and_lambda(keras):
    """Reshape infers one -1 and refuses two, a dim below -1 and a size change; Flatten of a
    rank-1 input gives (batch, 1) and with data_format="channels_first" moves channels last
    first; Lambda passes `arguments`, honours `output_shape` (tuple or callable) and `mask`, and its
    get_config names a module-level function, the arguments and the output shape."""
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    assert_close(np.asarray(keras.layers.Reshape((-1, 6))(x)), x.reshape(2, 2, 6), call="Reshape((-1, 6))",
                 what="out", tolerance=TOL32)
    for call, make, match in [("Reshape((-1, -1))", lambda: keras.layers.Reshape((-1, -1))(x), "at most one"),
                              ("Reshape((-2, 12))", lambda: keras.layers.Reshape((-2, 12))(x), "non-negative"),
                              ("Reshape((5, 5))", lambda: keras.layers.Reshape((5, 5))(x), "total size")]:
        with raises(ValueError, match=match, call=call):
            make()
    assert_equal(_shape(keras.layers.Flatten()(keras.Input((), batch_size=4))), (4, 1),
                 call="Flatten()(Input(shape=(), batch_size=4))", what="shape")
    img = np.arange(2 * 2 * 3 * 2, dtype=np.float32).reshape(2, 2, 3, 2)
    assert_close(np.asarray(keras.layers.Flatten(data_format="channels_first")(img)),
                 np.transpose(img, (0, 2, 3, 1)).reshape(2, -1), call="Flatten(data_format='channels_first')",
                 what="out", tolerance=TOL32)
    with raises(ValueError, match="data_format", call="Flatten(data_format='NHWC')"):
        keras.layers.Flatten(data_format="NHWC")
    scaled = keras.layers.Lambda(np_scale_last, arguments={"k": 3.0}, output_shape=(3, 4))
    assert_close(np.asarray(scaled(x)), x * 3.0, call="Lambda(scale, arguments={'k': 3.0})(x)", what="out",
                 tolerance=TOL32)
    assert_equal(_shape(scaled(keras.Input((3, 4)))), (None, 3, 4), call="Lambda(output_shape=(3, 4))", what="shape")
    flat = keras.layers.Lambda(np_sum_last, output_shape=lambda s: s[:-1])
    assert_equal(_shape(flat(keras.Input((3, 4)))), (None, 3), call="Lambda(sum, output_shape=callable)",
                 what="shape")
    masked = keras.layers.Lambda(np_sum_last, mask=lambda inputs, mask: mask)
    m = np.array([True, False])
    assert_equal(np.asarray(masked.compute_mask(x, m)).tolist(), [True, False], call="Lambda(mask=callable)",
                 what="compute_mask")
    cfg = scaled.get_config()
    got = {"function": {k: cfg["function"].get(k) for k in ("class_name", "config")},
           "arguments": cfg["arguments"], "output_shape": tuple(cfg["output_shape"])}
    assert_equal(got, {"function": {"class_name": "function", "config": "np_scale_last"}, "arguments": {"k": 3.0},
                       "output_shape": (3, 4)}, call="Lambda(np_scale_last, arguments, output_shape).get_config()",
                 what="config")


def np_scale_last(x, k=1.0):
    return x * k


def np_sum_last(x):
    return x[..., 0] + x[..., 1] + x[..., 2] + x[..., 3]


@clause("keras.layer.call", ref="tf221")
def test_cov14c_layer_base_api_errors(keras):
    """The base Layer refuses a name containing "/", unknown keyword arguments and a non-bool
    trainable; add_weight takes shape, initializer, dtype positionally (a name first is refused,
    a shape given twice too); count_params before build and set_weights of a wrong shape are
    ValueErrors; `input` of a layer never called is an AttributeError; a frozen layer lists all
    its weights as non-trainable."""
    for call, make, match in [("Dense(2, name='a/b')", lambda: keras.layers.Dense(2, name="a/b"), "/"),
                              ("Dense(2, foo=1)", lambda: keras.layers.Dense(2, foo=1), "foo"),
                              ("Dense(2, trainable='yes')", lambda: keras.layers.Dense(2, trainable="yes"), "trainable")]:
        with raises(ValueError, match=match, call=call):
            make()

    class Scale(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight((input_shape[-1],), "ones", "float32")

        def call(self, x):
            return x * self.w

    layer = Scale()
    with raises(ValueError, match="isn't built", call="Scale().count_params() before build"):
        layer.count_params()
    x = _f32(2, 3, seed=13)
    assert_close(np.asarray(layer(x)), x, call="add_weight((3,), 'ones', 'float32') positionally", what="out",
                 tolerance=TOL32)
    assert_equal(layer.count_params(), 3, call="Scale built on (2, 3)", what="count_params()")
    with raises(ValueError, match="name", call="add_weight('w', (3,))"):
        layer.add_weight("w", (3,))
    with raises(ValueError, match="shape", call="add_weight((3,), shape=(3,))"):
        layer.add_weight((3,), shape=(3,))
    with raises(ValueError, match="not compatible", call="Scale.set_weights([(4,)])"):
        layer.set_weights([np.ones(4, np.float32)])
    with raises(AttributeError, match="never been called", call="Dense(2).input"):
        _ = keras.layers.Dense(2).input
    dense = keras.layers.Dense(2)
    dense(x)
    dense.trainable = False
    assert_equal([w.name for w in dense.non_trainable_weights], ["kernel", "bias"], call="Dense frozen",
                 what="non_trainable_weights names")
    assert_equal(len(dense.trainable_weights), 0, call="Dense frozen", what="len(trainable_weights)")


@clause("keras.layer.option-coverage", ref="tf221")
def test_cov14c_einsum_dense_ellipsis_and_errors(keras):
    """EinsumDense with a left ellipsis ("...b,bc->...c") and a right one ("ab...,bc->ac...")
    keeps the elided dims; kernel and bias match NumPy's einsum; an equation without "->", an
    output dim missing from input and kernel, and a bias dim outside the output are
    ValueErrors."""
    x = _f32(2, 3, 4, seed=14)
    left = keras.layers.EinsumDense("...b,bc->...c", output_shape=5, bias_axes="c")
    out = np.asarray(left(x))
    k, bias = (np.asarray(w, np.float64) for w in left.get_weights())
    assert_close(out, np.einsum("...b,bc->...c", x.astype(np.float64), k) + bias,
                 call="EinsumDense('...b,bc->...c', 5, bias_axes='c')", what="out", tolerance=TOL32)
    right = keras.layers.EinsumDense("ab...,bc->ac...", output_shape=(5, None))
    y = _f32(2, 3, 4, seed=15)
    out = np.asarray(right(y))
    (k,) = (np.asarray(w, np.float64) for w in right.get_weights())
    assert_close(out, np.einsum("ab...,bc->ac...", y.astype(np.float64), k),
                 call="EinsumDense('ab...,bc->ac...', (5, None))", what="out", tolerance=TOL32)
    for call, make, match in [
            ("EinsumDense('ab,bc', 4)", lambda: keras.layers.EinsumDense("ab,bc", 4)(x[:, 0]), "Invalid einsum"),
            ("EinsumDense('ab,bc->ad', 4)", lambda: keras.layers.EinsumDense("ab,bc->ad", 4)(x[:, 0]),
             "no corresponding"),
            ("EinsumDense('ab,bc->ac', 4, bias_axes='b')",
             lambda: keras.layers.EinsumDense("ab,bc->ac", 4, bias_axes="b")(x[:, 0]), "Bias dimension")]:
        with raises(ValueError, match=match, call=call):
            make()


@clause("keras.layer.option-coverage", ref="tf221")
def test_cov14c_dot_layer_axes_and_errors(keras):
    """Dot(axes) is a batched tensordot: an int axes contracts that axis of both, a negative one
    counts from the end, rank-4 inputs keep their middle dims; Dot(normalize=True) gives cosine
    similarities; bad axes (a string, three elements, floats), axis 0, mismatched contracted
    dims and not two inputs are errors."""
    a = _f32(2, 3, 4, seed=16)
    b = _f32(2, 5, 4, seed=17)
    ad, bd = a.astype(np.float64), b.astype(np.float64)
    assert_close(np.asarray(keras.layers.Dot(axes=-1)([a, b])), np.einsum("nik,njk->nij", ad, bd),
                 call="Dot(axes=-1)([(2, 3, 4), (2, 5, 4)])", what="out", tolerance=TOL32)
    assert_close(np.asarray(keras.layers.Dot(axes=2)([a, b])), np.einsum("nik,njk->nij", ad, bd),
                 call="Dot(axes=2)", what="out", tolerance=TOL32)
    c = _f32(2, 3, 2, 4, seed=18)
    d = _f32(2, 4, 5, seed=19)
    assert_close(np.asarray(keras.layers.Dot(axes=(3, 1))([c, d])),
                 np.einsum("nabk,nkj->nabj", c.astype(np.float64), d.astype(np.float64)),
                 call="Dot(axes=(3, 1))([(2, 3, 2, 4), (2, 4, 5)])", what="out", tolerance=TOL32)
    u = _f32(2, 4, seed=20)
    v = _f32(2, 4, seed=21)
    cos = (u * v).sum(-1) / np.linalg.norm(u, axis=-1) / np.linalg.norm(v, axis=-1)
    assert_close(np.asarray(keras.layers.Dot(axes=1, normalize=True)([u, v])), cos[:, None],
                 call="Dot(axes=1, normalize=True)", what="out", tolerance=TOL32)
    with raises(TypeError, match="axes", call="Dot(axes='x')"):
        keras.layers.Dot(axes="x")
    for call, make, match in [("Dot(axes=(1, 2, 3))", lambda: keras.layers.Dot(axes=(1, 2, 3)), "two elements"),
                              ("Dot(axes=(1.0, 2.0))", lambda: keras.layers.Dot(axes=(1.0, 2.0)), "integers"),
                              ("Dot(axes=0)([u, v])", lambda: keras.layers.Dot(axes=0)([u, v]), "axis 0|batch"),
                              ("Dot(axes=1)([(2, 3, 4), (2, 5, 4)])", lambda: keras.layers.Dot(axes=1)([a, b]),
                               "Incompatible|Cannot do batch_dot"),
                              ("Dot(axes=1)([u])", lambda: keras.layers.Dot(axes=1)([u]), "2 inputs")]:
        with raises(ValueError, match=match, call=call):
            make()


@clause("keras.layer.option-coverage", ref="tf221")
def test_cov14c_input_spec_and_time_distributed(keras):
    """A layer's InputSpec refuses an input above max_ndim, of another dtype or with another
    static dim (ValueError naming the layer); TimeDistributed passes each step's slice of a
    (batch, steps) mask to a layer whose call takes `mask`, refuses a 1-D mask or one whose
    first two dims differ from the input's, and refuses a non-layer."""

    class Spec(keras.layers.Layer):
        def __init__(self, spec, **kwargs):
            super().__init__(**kwargs)
            self.input_spec = spec

        def call(self, x):
            return x

    IS = keras.layers.InputSpec
    for call, spec, value, match in [
            ("InputSpec(max_ndim=2), (2, 3, 1)", IS(max_ndim=2), np.zeros((2, 3, 1), np.float32), "max_ndim"),
            ("InputSpec(dtype='float32'), int32", IS(dtype="float32"), np.zeros((2, 3), np.int32), "dtype"),
            ("InputSpec(shape=(None, 3)), (2, 4)", IS(shape=(None, 3)), np.zeros((2, 4), np.float32), "shape")]:
        with raises(ValueError, match=match, call=call):
            Spec(spec)(value)

    class MaskScale(keras.layers.Layer):
        def call(self, x, mask=None):
            return x * keras.ops.expand_dims(keras.ops.cast(mask, x.dtype), -1)

    x = _f32(2, 3, 4, seed=22)
    mask = np.array([[True, False, True], [False, True, True]])
    td = keras.layers.TimeDistributed(MaskScale())
    assert_close(np.asarray(td(x, mask=mask)), x * mask[..., None], call="TimeDistributed(MaskScale())(x, mask)",
                 what="out", tolerance=TOL32)
    with raises(ValueError, match="at least 2D", call="TimeDistributed(MaskScale())(x, mask (2,))"):
        td(x, mask=np.array([True, False]))
    with raises(ValueError, match="incompatible", call="TimeDistributed(MaskScale())(x (2, 3, 4), mask (2, 4))"):
        td(x, mask=np.ones((2, 4), bool))
    with raises(ValueError, match="Layer", call="TimeDistributed(3)"):
        keras.layers.TimeDistributed(3)


@clause("keras.layer.stacked-rnn-cells", ref="tf221")
def test_cov14c_stacked_cells_output_size_and_errors(keras, tf):
    """StackedRNNCells' output_size is the last cell's output_size, else its state_size (the
    first entry of a list); RNN over two SimpleRNNCells stacked gives the NumPy recurrence of the
    second cell fed by the first; a cell without `call` or `state_size` is refused."""
    cells = [keras.layers.SimpleRNNCell(3), keras.layers.SimpleRNNCell(2)]
    stacked = keras.layers.StackedRNNCells(cells)
    assert_equal(int(stacked.output_size), 2, call="StackedRNNCells([SimpleRNNCell(3), SimpleRNNCell(2)])",
                 what="output_size")
    rnn = keras.layers.RNN(stacked, return_sequences=True)
    x = _f32(2, 4, 3, seed=23)
    out = np.asarray(rnn(x))
    w = [np.asarray(v, np.float64) for v in rnn.get_weights()]
    h1, _ = _simple_rnn_numpy(x.astype(np.float64), *w[:3])
    h2, _ = _simple_rnn_numpy(h1, *w[3:])
    assert_close(out, h2, call="RNN(StackedRNNCells([SimpleRNNCell(3), SimpleRNNCell(2)]))", what="out",
                 tolerance=TOL32)

    class OnlyState:
        state_size = [4, 5]

        def call(self, inputs, states):
            return inputs, states

    class NoState:
        def call(self, inputs, states):
            return inputs, states

    assert_equal(int(keras.layers.StackedRNNCells([OnlyState()]).output_size), 4,
                 call="StackedRNNCells([cell with state_size=[4, 5], no output_size])", what="output_size")
    with raises(ValueError, match="call", call="StackedRNNCells([object()])"):
        keras.layers.StackedRNNCells([object()])
    with raises(ValueError, match="state_size", call="StackedRNNCells([cell without state_size])"):
        keras.layers.StackedRNNCells([NoState()])


@clause("keras.layer.option-coverage", ref="tf221")
def test_cov14c_group_norm_noise_and_conv_configs(keras):
    """GroupNormalization(scale=False) has only beta and normalizes each group over its channels
    and positions; AlphaDropout(noise_shape) refuses a None entry when it draws and passes the
    input through at inference; Depthwise/SeparableConv get_config/from_config copies compute
    the same outputs."""
    x = _f32(2, 5, 4, seed=24)
    gn = keras.layers.GroupNormalization(groups=2, scale=False, epsilon=1e-3)
    out = np.asarray(gn(x))
    assert_equal([v.name for v in gn.weights], ["beta"], call="GroupNormalization(2, scale=False)", what="weights")
    g = x.astype(np.float64).reshape(2, 5, 2, 2)
    mean = g.mean(axis=(1, 3), keepdims=True)
    var = g.var(axis=(1, 3), keepdims=True)
    assert_close(out, ((g - mean) / np.sqrt(var + 1e-3)).reshape(2, 5, 4), call="GroupNormalization(2, scale=False)",
                 what="out", tolerance=TOL32)
    assert_equal(tuple(gn.compute_output_shape((None, 5, 4))), (None, 5, 4), call="GroupNormalization",
                 what="compute_output_shape")
    ad = keras.layers.AlphaDropout(0.5, noise_shape=(None, 1, 4), seed=1)
    assert_close(np.asarray(ad(x, training=False)), x, call="AlphaDropout(0.5)(x, training=False)", what="out",
                 tolerance=TOL32)
    with raises((ValueError, TypeError), call="AlphaDropout(0.5, noise_shape=(None, 1, 4))(x, training=True)"):
        ad(x, training=True)
    img = _f32(1, 5, 5, 2, seed=25)
    for make in (lambda: keras.layers.DepthwiseConv2D(3, depth_multiplier=2, padding="same"),
                 lambda: keras.layers.SeparableConv2D(3, 3, depth_multiplier=2),
                 lambda: keras.layers.DepthwiseConv1D(2, strides=2)):
        layer = make()
        data = img if "2D" in type(layer).__name__ else img[:, 0]
        out = np.asarray(layer(data))
        copy = type(layer).from_config(layer.get_config())
        copy(data)
        copy.set_weights(layer.get_weights())
        assert_close(np.asarray(copy(data)), out, call=f"{type(layer).__name__}.from_config(get_config())",
                     what="out", tolerance=TOL32)
