"""Options of the training API the suite never set before (benchmarks/suite_options.py, issue 29):
the ones with the widest use first — the recurrent layers' activations and bias, every layer's
weight and activity regularizers, the layers' initializers, a loss's dtype and the sparse
crossentropy's axis, the jacobians' unconnected_gradients, and Model's on-batch methods, predict's
steps and fit's validation_batch_size/validation_steps/initial_epoch (TF 2.21 + Keras 3.15).

One test per API family, many cases each; every expected value is computed here with NumPy (a
transcription of Keras 3.15's rule), never with the backend's own implementation of the rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.values import distinct_values as _x

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


# -- recurrent layers: activation, recurrent_activation, use_bias --------------------------------------------
_ACT = {"tanh": np.tanh, "sigmoid": lambda z: 1 / (1 + np.exp(-z)), "relu": lambda z: np.maximum(z, 0),
        "hard_sigmoid": lambda z: np.clip(z + 3.0, 0.0, 6.0) / 6.0, "linear": lambda z: z,
        "softsign": lambda z: z / (1 + np.abs(z))}


def _rnn_reference(kind, x, weights, act, rec_act, use_bias):
    """SimpleRNN / LSTM (gates i, f, c, o) / GRU (reset_after: gates z, r, h; bias rows input, recurrent)
    over the steps in float64; the last output."""
    w = [np.asarray(v, np.float64) for v in weights]
    kernel, rec = w[0], w[1]
    bias = w[2] if use_bias else None
    units = rec.shape[0]
    h = np.zeros((x.shape[0], units))
    c = np.zeros_like(h)
    a, ra = _ACT[act], _ACT[rec_act]
    for t in range(x.shape[1]):
        xt = x[:, t]
        if kind == "SimpleRNN":
            h = a(xt @ kernel + h @ rec + (bias if use_bias else 0))
        elif kind == "LSTM":
            z = xt @ kernel + h @ rec + (bias if use_bias else 0)
            i, f, cc, o = (z[:, j * units:(j + 1) * units] for j in range(4))
            c = ra(f) * c + ra(i) * a(cc)
            h = ra(o) * a(c)
        else:
            xz = xt @ kernel + (bias[0] if use_bias else 0)
            hz = h @ rec + (bias[1] if use_bias else 0)
            z = ra(xz[:, :units] + hz[:, :units])
            r = ra(xz[:, units:2 * units] + hz[:, units:2 * units])
            hh = a(xz[:, 2 * units:] + r * hz[:, 2 * units:])
            h = z * h + (1 - z) * hh
    return h


_RNN_CASES = [("SimpleRNN", "relu", "sigmoid", True), ("SimpleRNN", "softsign", "sigmoid", False),
              ("LSTM", "relu", "hard_sigmoid", True), ("LSTM", "tanh", "sigmoid", False),
              ("LSTM", "softsign", "linear", True), ("GRU", "relu", "hard_sigmoid", True),
              ("GRU", "tanh", "sigmoid", False), ("GRU", "softsign", "tanh", True)]


@clause("keras.rnn.layers", ref="tf221")
def test_options_recurrent_layers_take_their_activations_and_bias(tf, keras):
    """SimpleRNN/LSTM/GRU(activation=..., recurrent_activation=..., use_bias=...): the last output
    against a NumPy cell with the layer's weights (use_bias=False: no bias weight at all)."""
    x = _x((2, 4, 3), 0.9)
    for kind, act, rec_act, use_bias in _RNN_CASES:
        kw = {"activation": act, "use_bias": use_bias}
        if kind != "SimpleRNN":
            kw["recurrent_activation"] = rec_act
        layer = getattr(keras.layers, kind)(3, **kw)
        out = layer(tf.constant(x))
        weights = layer.get_weights()
        call = f"{kind}(3, {', '.join(f'{k}={v!r}' for k, v in kw.items())})"
        assert_equal(len(weights), 3 if use_bias else 2, call=call, what="len(get_weights())")
        assert_close(out, _rnn_reference(kind, x.astype(np.float64), weights, act, rec_act, use_bias), call=call,
                     what="last output", tolerance=TOL32)


# -- regularizers: every weight and the activity ----------------------------------------------------------
def _l1l2(l1, l2):
    return lambda w: l1 * np.abs(w).sum() + l2 * np.square(w).sum()


@clause("keras.reg.layer-losses", ref="tf221")
def test_options_every_weight_regularizer_adds_its_penalty(tf, keras):
    """A layer's kernel/bias/recurrent/depthwise/pointwise/embeddings/beta/gamma regularizers each
    add reg(weight) to `layer.losses` once the layer is called; an activity regularizer adds
    reg(output) / batch size (Keras 3.15). Each case sets one regularizer, with its own factors."""
    k = keras
    x2, x3, x4 = _x((4, 3)), _x((2, 5, 3)), _x((2, 5, 5, 2))
    ids = np.array([[1, 3, 0], [2, 2, 4]])
    cases = [
        ("Dense(bias)", lambda r: k.layers.Dense(2, bias_regularizer=r, bias_initializer="ones"), x2, "bias"),
        ("Dense(kernel)", lambda r: k.layers.Dense(2, kernel_regularizer=r), x2, "kernel"),
        ("Dense(activity)", lambda r: k.layers.Dense(2, activity_regularizer=r), x2, "activity"),
        ("Conv1D(bias)", lambda r: k.layers.Conv1D(2, 2, bias_regularizer=r, bias_initializer="ones"), x3, "bias"),
        ("Conv1D(kernel)", lambda r: k.layers.Conv1D(2, 2, kernel_regularizer=r), x3, "kernel"),
        ("Conv2D(bias)", lambda r: k.layers.Conv2D(2, 2, bias_regularizer=r, bias_initializer="ones"), x4, "bias"),
        ("Conv2D(activity)", lambda r: k.layers.Conv2D(2, 2, activity_regularizer=r), x4, "activity"),
        ("DepthwiseConv2D(depthwise)", lambda r: k.layers.DepthwiseConv2D(2, depthwise_regularizer=r), x4, "kernel"),
        ("SeparableConv2D(pointwise)", lambda r: k.layers.SeparableConv2D(2, 2, pointwise_regularizer=r), x4,
         "pointwise_kernel"),
        ("Embedding", lambda r: k.layers.Embedding(5, 2, embeddings_regularizer=r), ids, "embeddings"),
        ("LSTM(recurrent)", lambda r: k.layers.LSTM(2, recurrent_regularizer=r), x3, "recurrent_kernel"),
        ("GRU(kernel)", lambda r: k.layers.GRU(2, kernel_regularizer=r), x3, "kernel"),
        ("LayerNormalization(gamma)", lambda r: k.layers.LayerNormalization(gamma_regularizer=r), x3, "gamma"),
        ("BatchNormalization(beta)", lambda r: k.layers.BatchNormalization(beta_regularizer=r,
                                                                           beta_initializer="ones"), x2, "beta"),
    ]
    for i, (name, make, x, target) in enumerate(cases):
        l1, l2 = 0.01 * (i + 1), 0.03 * (i % 3 + 1)
        layer = make(k.regularizers.L1L2(l1=l1, l2=l2))
        out = np.asarray(layer(tf.constant(x)), np.float64)
        if target == "activity":
            expect = _l1l2(l1, l2)(out) / x.shape[0]
        else:
            w = next(np.asarray(v, np.float64) for v in layer.weights if v.name.split("/")[-1].split(":")[0] == target)
            expect = _l1l2(l1, l2)(w)
        got = sum(float(np.asarray(v)) for v in layer.losses)
        assert_close(got, expect, call=f"{name} with L1L2(l1={l1:.2f}, l2={l2:.2f})", what="sum(layer.losses)",
                     tolerance=Tolerance(rtol=1e-5, atol=1e-7))


# -- initializers given by option --------------------------------------------------------------------------
@clause("keras.init.layer-defaults", ref="tf221")
def test_options_initializer_arguments_reach_their_weights(tf, keras):
    """Every `*_initializer` argument initialises its own weight (constants that differ per weight,
    so a weight initialised from another argument shows)."""
    k = keras
    c = k.initializers.Constant
    cases = [
        ("BatchNormalization", k.layers.BatchNormalization(beta_initializer=c(0.5), gamma_initializer=c(2.0),
                                                            moving_mean_initializer=c(-1.0),
                                                            moving_variance_initializer=c(3.0)), (None, 3),
         {"beta": 0.5, "gamma": 2.0, "moving_mean": -1.0, "moving_variance": 3.0}),
        ("LayerNormalization", k.layers.LayerNormalization(beta_initializer=c(0.25), gamma_initializer=c(-1.5)),
         (None, 4), {"beta": 0.25, "gamma": -1.5}),
        ("Conv1D", k.layers.Conv1D(2, 3, kernel_initializer=c(0.1), bias_initializer=c(-0.2)), (None, 6, 2),
         {"kernel": 0.1, "bias": -0.2}),
        ("Conv2D", k.layers.Conv2D(2, 2, kernel_initializer=c(0.3), bias_initializer=c(0.4)), (None, 4, 4, 1),
         {"kernel": 0.3, "bias": 0.4}),
        ("DepthwiseConv2D", k.layers.DepthwiseConv2D(2, depthwise_initializer=c(0.7), bias_initializer=c(0.8)),
         (None, 4, 4, 2), {"kernel": 0.7, "bias": 0.8}),
        ("LSTM", k.layers.LSTM(2, kernel_initializer=c(0.05), recurrent_initializer=c(-0.05),
                               bias_initializer=c(0.5), unit_forget_bias=False), (None, 3, 2),
         {"kernel": 0.05, "recurrent_kernel": -0.05, "bias": 0.5}),
        ("GRU", k.layers.GRU(2, kernel_initializer=c(0.15), recurrent_initializer=c(-0.25),
                             bias_initializer=c(0.35)), (None, 3, 2),
         {"kernel": 0.15, "recurrent_kernel": -0.25, "bias": 0.35}),
    ]
    for name, layer, shape, want in cases:
        layer.build(shape)
        got = {v.name.split("/")[-1].split(":")[0]: np.asarray(v) for v in layer.weights}
        for wname, value in want.items():
            assert_true(wname in got, f"{name}: no weight named {wname!r} among {sorted(got)}")
            assert_close(got[wname], np.full(got[wname].shape, value), call=f"{name}({wname}_initializer="
                         f"Constant({value}))", what=wname, tolerance=Tolerance(rtol=0, atol=1e-7))


# -- losses: dtype, the sparse crossentropy's axis, the functions' label_smoothing --------------------------
def _log_softmax(z, axis=-1):
    z = np.asarray(z, np.float64)
    m = z.max(axis=axis, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(axis=axis, keepdims=True))


@clause("keras.loss.option-coverage", ref="tf221")
def test_options_loss_dtype_axis_and_function_smoothing(tf, keras):
    """Loss(dtype="float64") computes and returns float64; the sparse crossentropy's axis=1 is
    refused (ValueError, as Keras's TF backend); the function forms' label_smoothing: categorical
    over the classes, binary towards 0.5."""
    k = keras
    z = _x((3, 4), 1.7).astype(np.float64)
    y = np.array([2, 0, 3])
    onehot = np.eye(4)[y]
    ce = -_log_softmax(z)[np.arange(3), y]
    for cls, args, ytrue in ((k.losses.CategoricalCrossentropy, {"from_logits": True}, onehot),
                             (k.losses.SparseCategoricalCrossentropy, {"from_logits": True}, y)):
        got = cls(dtype="float64", **args)(ytrue, tf.constant(z))
        assert_true(got.dtype == tf.float64, f"{cls.__name__}(dtype='float64')(...).dtype={got.dtype}, but should be "
                    "float64")
        assert_close(got, ce.mean(), call=f"{cls.__name__}(dtype='float64')", what="loss",
                     tolerance=Tolerance(rtol=1e-12, atol=1e-12))
    got = k.losses.MeanSquaredError(dtype="float64")(z[:, :2], tf.constant(z[:, 2:]))
    assert_true(got.dtype == tf.float64, f"MeanSquaredError(dtype='float64')(...).dtype={got.dtype}")
    # TF 2.21 (Keras's TF backend): the sparse crossentropy refuses any axis but -1
    z3 = _x((2, 4, 3), 1.3)
    y3 = np.array([[0, 3, 1], [2, 2, 0]])
    for make in (lambda: k.losses.SparseCategoricalCrossentropy(from_logits=True, axis=1)(y3, tf.constant(z3)),
                 lambda: k.losses.sparse_categorical_crossentropy(y3, tf.constant(z3), from_logits=True, axis=1)):
        try:
            make()
        except ValueError as e:
            assert_true("Only axis=-1" in str(e), f"sparse crossentropy with axis=1 raised ValueError({e}), but the "
                        "message should say 'Only axis=-1 is currently supported'")
        else:
            assert_true(False, "sparse crossentropy with axis=1 ran, but TF 2.21 raises ValueError "
                        "('Only axis=-1 is currently supported')")
    for s in (0.1, 0.3):
        t = onehot * (1 - s) + s / 4
        got = k.losses.categorical_crossentropy(onehot, tf.constant(z), from_logits=True, label_smoothing=s)
        assert_close(got, -(t * _log_softmax(z)).sum(-1), call=f"categorical_crossentropy(label_smoothing={s})",
                     what="losses", tolerance=TOL32)
        yb = (z > 0).astype(np.float64)
        tb = yb * (1 - s) + 0.5 * s
        bce = np.maximum(z, 0) - z * tb + np.log1p(np.exp(-np.abs(z)))
        got = k.losses.binary_crossentropy(yb, tf.constant(z), from_logits=True, label_smoothing=s)
        assert_close(got, bce.mean(-1), call=f"binary_crossentropy(label_smoothing={s})", what="losses",
                     tolerance=TOL32)


# -- jacobians: unconnected_gradients ------------------------------------------------------------------------
@clause("autodiff.jacobian", ref="tf221")
def test_options_jacobians_unconnected_gradients(tf):
    """jacobian(unconnected_gradients=ZERO) gives zeros of shape target + source for a source the
    target does not use (NONE: None); batch_jacobian gives zeros either way (TF 2.21's pfor); the
    connected source's jacobians are their formulas."""
    x = tf.constant(_x((2, 3), dtype=np.float64))
    u = tf.constant(_x((2, 3), 0.5, dtype=np.float64))
    for mode in ("zero", "none"):
        ug = tf.UnconnectedGradients.ZERO if mode == "zero" else tf.UnconnectedGradients.NONE
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, u])
            y = x * x
        jx, ju = tape.jacobian(y, [x, u], unconnected_gradients=ug)
        bx, bu = (tape.batch_jacobian(y, x, unconnected_gradients=ug),
                  tape.batch_jacobian(y, u, unconnected_gradients=ug))
        xv = np.asarray(x)
        full = np.zeros((2, 3, 2, 3))
        for i in range(2):
            for j in range(3):
                full[i, j, i, j] = 2 * xv[i, j]
        assert_close(jx, full, call=f"jacobian(x*x, x, unconnected_gradients={mode.upper()})", what="d/dx",
                     tolerance=Tolerance(rtol=1e-12, atol=0))
        assert_close(bx, np.stack([np.diag(2 * xv[i]) for i in range(2)]),
                     call=f"batch_jacobian(x*x, x, unconnected_gradients={mode.upper()})", what="d/dx",
                     tolerance=Tolerance(rtol=1e-12, atol=0))
        # TF 2.21: batch_jacobian's pfor gives zeros for an unconnected source whatever the option
        assert_close(bu, np.zeros((2, 3, 3)), call=f"batch_jacobian(x*x, u, unconnected_gradients={mode.upper()})",
                     what="d/du")
        if mode == "zero":
            assert_close(ju, np.zeros((2, 3, 2, 3)), call="jacobian(x*x, u, unconnected_gradients=ZERO)", what="d/du")
        else:
            assert_true(ju is None, f"jacobian(x*x, [x, u])[1] = {ju}, but should be None (unconnected_gradients=NONE)")


# -- Model: on-batch methods, predict(steps), fit's validation options and initial_epoch ----------------------
_W = (np.array([[0.5], [-1.0], [0.25]], np.float32), np.array([0.1], np.float32))
_FX = _x((12, 3), 1.4)
_FY = (np.arange(12, dtype=np.float32) % 3 - 1.0).reshape(12, 1)


def _model(keras, lr=0.0):
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    m.set_weights(list(_W))
    m.compile(optimizer=keras.optimizers.SGD(lr), loss="mse", metrics=[keras.metrics.MeanAbsoluteError(name="mae")])
    return m


def _err(x=_FX, y=_FY):
    return (x.astype(np.float64) @ _W[0].astype(np.float64) + 0.1 - y)[:, 0]


@clause("keras.fit.data", ref="tf221")
def test_options_model_methods_take_weights_steps_and_validation_options(tf, keras):
    """train_on_batch/test_on_batch(sample_weight=w, return_dict=True): the weighted loss (sum of
    w e^2 over the batch size) and the unweighted metric, as a dict (else a list, loss first);
    predict(steps=2, batch_size=5) returns the first 10 rows; fit(validation_batch_size=3,
    validation_steps=2) validates on the first 6 validation samples; fit(initial_epoch=2, epochs=4)
    runs epochs 2 and 3."""
    e = _err()
    w = np.array([1, 0, 2, 0.5, 1, 3, 0.25, 1, 0, 2, 1, 1], np.float32)
    m = _model(keras)
    for method in ("test_on_batch", "train_on_batch"):
        got = getattr(m, method)(_FX, _FY, sample_weight=w, return_dict=True)
        assert_true(isinstance(got, dict), f"{method}(return_dict=True) returned {type(got).__name__}, not a dict")
        assert_close([got["loss"], got["mae"]], [(w * e ** 2).sum() / 12, np.abs(e).mean()],
                     call=f"{method}(x, y, sample_weight=w, return_dict=True)", what="[loss, mae]", tolerance=TOL32)
        lst = getattr(m, method)(_FX, _FY)
        assert_close(lst, [(e ** 2).mean(), np.abs(e).mean()], call=f"{method}(x, y)", what="[loss, mae]",
                     tolerance=TOL32)
    pred = m.predict(_FX, steps=2, batch_size=5, verbose=0)
    assert_close(pred, (_FX[:10].astype(np.float64) @ _W[0] + 0.1), call="predict(x[12], batch_size=5, steps=2)",
                 what="out", tolerance=TOL32)
    vx, vy = _x((9, 3), 0.7), (np.arange(9, dtype=np.float32) % 2).reshape(9, 1)
    hist = m.fit(_FX, _FY, validation_data=(vx, vy), validation_batch_size=3, validation_steps=2, batch_size=12,
                 epochs=1, verbose=0, shuffle=False)
    assert_close(hist.history["val_loss"][0], (_err(vx, vy)[:6] ** 2).mean(),
                 call="fit(validation_batch_size=3, validation_steps=2) over 9 validation samples",
                 what="val_loss", tolerance=TOL32)
    epochs = []
    cb = keras.callbacks.LambdaCallback(on_epoch_begin=lambda epoch, logs: epochs.append(epoch))
    hist = m.fit(_FX, _FY, initial_epoch=2, epochs=4, batch_size=12, verbose=0, callbacks=[cb])
    assert_equal(epochs, [2, 3], call="fit(initial_epoch=2, epochs=4)", what="the epochs run")
    assert_equal(len(hist.history["loss"]), 2, call="fit(initial_epoch=2, epochs=4)", what="len(history['loss'])")


# -- tf.nn / tf.math options: axes, keepdims, exclusive/reverse scans, dilations, paddings, dtypes ------------
def _softmax(z, axis):
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _conv1d(x, k, stride, dilation, padding):
    """NWC x, (width, in, out) k, in float64 (TF's SAME: pad total max((o-1)s + span + 1 - n, 0), half before)."""
    n, length, _ = x.shape
    span = (k.shape[0] - 1) * dilation
    if padding == "SAME":
        out = -(-length // stride)
        total = max((out - 1) * stride + span + 1 - length, 0)
        x = np.pad(x, ((0, 0), (total // 2, total - total // 2), (0, 0)))
    out_len = (x.shape[1] - span - 1) // stride + 1
    return np.stack([sum(x[:, t * stride + j * dilation] @ k[j] for j in range(k.shape[0]))
                     for t in range(out_len)], 1)


@clause("autodiff.op-gradients", ref="tf221")
def test_options_nn_and_math_axes_keepdims_and_scans(tf):
    """softmax/log_softmax over axis 0 and 1 (values and gradients of sum(w * out)); reductions with
    axis and keepdims (min, prod, logsumexp, euclidean_norm, variance, std, count_nonzero with a
    dtype, argmin with output_type); cumprod exclusive/reverse (values and gradient); moments with
    keepdims; l2_normalize's epsilon floor."""
    x = _x((2, 3, 4), 1.3, np.float64) + 0.05
    w = _x((2, 3, 4), 0.7, np.float64)[::-1].copy()
    xt, wt = tf.constant(x), tf.constant(w)
    tol = Tolerance(rtol=1e-10, atol=1e-12)
    for axis in (0, 1, -1):
        s = _softmax(x, axis)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(xt)
            ys, yl = tf.nn.softmax(xt, axis=axis), tf.nn.log_softmax(xt, axis=axis)
            ts, tl = tf.reduce_sum(ys * wt), tf.reduce_sum(yl * wt)
        assert_close(ys, s, call=f"softmax(x, axis={axis})", tolerance=tol)
        assert_close(yl, np.log(s), call=f"log_softmax(x, axis={axis})", tolerance=tol)
        assert_close(tape.gradient(ts, xt), s * (w - (w * s).sum(axis, keepdims=True)),
                     call=f"d/dx sum(w * softmax(x, axis={axis}))", tolerance=tol)
        assert_close(tape.gradient(tl, xt), w - s * w.sum(axis, keepdims=True),
                     call=f"d/dx sum(w * log_softmax(x, axis={axis}))", tolerance=tol)
    for axis, keep in (((0, 2), True), (1, True), (None, True), (-1, False)):
        checks = {"reduce_min": np.min(x, axis=axis, keepdims=keep), "reduce_prod": np.prod(x, axis=axis, keepdims=keep),
                  "reduce_logsumexp": np.log(np.exp(x).sum(axis=axis, keepdims=keep)),
                  "reduce_euclidean_norm": np.sqrt((x ** 2).sum(axis=axis, keepdims=keep)),
                  "reduce_variance": np.var(x, axis=axis, keepdims=keep), "reduce_std": np.std(x, axis=axis, keepdims=keep)}
        for name, want in checks.items():
            assert_close(getattr(tf.math, name)(xt, axis=axis, keepdims=keep), want,
                         call=f"tf.math.{name}(x, axis={axis}, keepdims={keep})", tolerance=tol)
        cnt = tf.math.count_nonzero(tf.constant(np.round(x)), axis=axis, keepdims=keep, dtype=tf.int32)
        assert_true(cnt.dtype == tf.int32, f"count_nonzero(..., dtype=int32).dtype={cnt.dtype}")
        assert_equal(np.asarray(cnt).tolist(), np.count_nonzero(np.round(x), axis=axis, keepdims=keep).tolist(),
                     call=f"count_nonzero(round(x), axis={axis}, keepdims={keep}, dtype=int32)")
    am = tf.math.argmin(xt, axis=1, output_type=tf.int32)
    assert_true(am.dtype == tf.int32, f"argmin(..., output_type=int32).dtype={am.dtype}")
    assert_equal(np.asarray(am).tolist(), np.argmin(x, axis=1).tolist(), call="argmin(x, axis=1, output_type=int32)")
    for exclusive in (False, True):
        for reverse in (False, True):
            xs = np.flip(x, 2) if reverse else x
            cp = np.cumprod(xs, axis=2)
            if exclusive:
                cp = np.concatenate([np.ones_like(cp[..., :1]), cp[..., :-1]], axis=2)
            cp = np.flip(cp, 2) if reverse else cp
            with tf.GradientTape() as tape:
                tape.watch(xt)
                y = tf.math.cumprod(xt, axis=2, exclusive=exclusive, reverse=reverse)
                total = tf.reduce_sum(y * wt)
            call = f"cumprod(x, axis=2, exclusive={exclusive}, reverse={reverse})"
            assert_close(y, cp, call=call, tolerance=tol)
            g = np.zeros_like(x)                      # d/dx_j sum_i w_i P_i = sum over products containing x_j of w P / x_j
            n = x.shape[2]
            for i in range(n):
                for j in range(n):
                    later = j > i if reverse else j < i
                    inside = later or (j == i and not exclusive)
                    if inside:
                        g[..., j] += w[..., i] * cp[..., i] / x[..., j]
            assert_close(tape.gradient(total, xt), g, call=f"d/dx sum(w * {call})", tolerance=Tolerance(1e-9, 1e-10))
    mean, var = tf.nn.moments(xt, axes=[0, 2], keepdims=True)
    assert_close([np.asarray(mean), np.asarray(var)], [x.mean((0, 2), keepdims=True), x.var((0, 2), keepdims=True)],
                 call="moments(x, axes=[0, 2], keepdims=True)", tolerance=tol)
    small = np.array([[0.01, -0.02], [3.0, 4.0]])
    assert_close(tf.nn.l2_normalize(tf.constant(small), axis=1, epsilon=0.01),
                 small / np.sqrt(np.maximum((small ** 2).sum(1, keepdims=True), 0.01)),
                 call="l2_normalize(x, axis=1, epsilon=0.01)", tolerance=tol)


@clause("autodiff.op-gradients", ref="tf221")
def test_options_convolutions_with_dilations_strides_and_paddings(tf, onednn_float32):
    """conv1d(dilations=d), convolution(strides, padding, dilations) and conv2d_transpose(padding=
    "VALID", strides=2) against NumPy, with the gradient of conv1d's input (the transposed map). In
    float32: TF 2.21's CPU kernels refuse the float64 input gradient of a dilated convolution."""
    x = _x((2, 9, 2), 1.1).astype(np.float64)
    k = _x((3, 2, 3), 0.8)[::-1].astype(np.float64)
    tol = Tolerance(rtol=2e-5, atol=2e-6)
    for stride, dilation, padding in ((1, 2, "VALID"), (1, 3, "SAME"), (2, 1, "SAME"), (2, 1, "VALID")):
        want = _conv1d(x, k, stride, dilation, padding)
        xt = tf.constant(x.astype(np.float32))
        with tf.GradientTape() as tape:
            tape.watch(xt)
            if stride == 1:
                y = tf.nn.conv1d(xt, tf.constant(k.astype(np.float32)), stride=1, padding=padding, dilations=dilation)
            else:
                y = tf.nn.convolution(xt, tf.constant(k.astype(np.float32)), strides=stride, padding=padding,
                                      dilations=dilation)
            wt = _x(tuple(y.shape.as_list()), 0.9)
            total = tf.reduce_sum(y * tf.constant(wt))
        wt = wt.astype(np.float64)
        call = f"conv1d/convolution(x, k, stride={stride}, padding={padding!r}, dilations={dilation})"
        assert_close(y, want, call=call, tolerance=tol)
        span = (k.shape[0] - 1) * dilation          # the input gradient: each output's weight spread back
        g = np.zeros_like(x)
        pad_before = 0
        if padding == "SAME":
            out = -(-x.shape[1] // stride)
            pad_before = max((out - 1) * stride + span + 1 - x.shape[1], 0) // 2
        for t in range(want.shape[1]):
            for j in range(k.shape[0]):
                pos = t * stride + j * dilation - pad_before
                if 0 <= pos < x.shape[1]:
                    g[:, pos] += wt[:, t] @ k[j].T
        assert_close(tape.gradient(total, xt), g, call=f"d/dx sum(w * {call})", tolerance=tol)
    # conv2d_transpose, VALID, stride 2: each input pixel adds its kernel-weighted patch at 2 * position
    xi = _x((1, 3, 2, 2), 1.0, np.float64)
    kk = _x((3, 2, 4, 2), 0.6, np.float64)     # (h, w, out_channels, in_channels)
    oh, ow = (3 - 1) * 2 + 3, (2 - 1) * 2 + 2
    want = np.zeros((1, oh, ow, 4))
    for i in range(3):
        for j in range(2):
            want[0, 2 * i:2 * i + 3, 2 * j:2 * j + 2] += np.einsum("hwoc,c->hwo", kk, xi[0, i, j])
    got = tf.nn.conv2d_transpose(tf.constant(xi), tf.constant(kk), output_shape=[1, oh, ow, 4], strides=2,
                                 padding="VALID")
    assert_close(got, want, call=f"conv2d_transpose(x(1,3,2,2), k(3,2,4,2), output_shape=[1,{oh},{ow},4], strides=2, "
                 "padding='VALID')", tolerance=tol)


# -- depthwise/separable convolutions' strides, paddings, dilations, data formats, use_bias ------------------
def _depthwise2d(x, k, stride, dilation, padding):
    """NHWC x, (kh, kw, in, dm) k in float64; output channel c * dm + m; TF's SAME padding."""
    n, h, w, cin = x.shape
    kh, kw, _, dm = k.shape
    pads = []
    for size, ks in ((h, kh), (w, kw)):
        span = (ks - 1) * dilation
        out = -(-size // stride) if padding == "same" else (size - span - 1) // stride + 1
        total = max((out - 1) * stride + span + 1 - size, 0) if padding == "same" else 0
        pads.append((out, total // 2, total - total // 2))
    xp = np.pad(x, ((0, 0), pads[0][1:], pads[1][1:], (0, 0)))
    y = np.zeros((n, pads[0][0], pads[1][0], cin * dm))
    for i in range(pads[0][0]):
        for j in range(pads[1][0]):
            for a in range(kh):
                for b in range(kw):
                    px = xp[:, i * stride + a * dilation, j * stride + b * dilation]       # (n, cin)
                    y[:, i, j] += (px[:, :, None] * k[a, b][None]).reshape(n, cin * dm)
    return y


_DW_CASES = [(2, 1, "same", "channels_last", True), (1, 2, "valid", "channels_last", False),
             (1, 1, "same", "channels_first", True), (2, 1, "valid", "channels_first", False)]


@clause("keras.layer.depthwise-separable", ref="tf221")
def test_options_depthwise_and_separable_convolutions_take_every_geometry_option(tf, keras):
    """DepthwiseConv2D and SeparableConv2D(strides, padding, dilation_rate, data_format, use_bias,
    activation) on a (2, 5, 6, 2) input (channels last, or its transpose) against NumPy."""
    x = _x((2, 5, 6, 2), 1.2)
    dk = _x((3, 2, 2, 2), 0.8)[::-1].copy()
    pk = _x((1, 1, 4, 3), 0.6) + 0.05
    for stride, dilation, padding, fmt, use_bias in _DW_CASES:
        xin = x if fmt == "channels_last" else np.ascontiguousarray(np.transpose(x, (0, 3, 1, 2)))
        shape = (None,) + xin.shape[1:]
        dw = _depthwise2d(x.astype(np.float64), dk.astype(np.float64), stride, dilation, padding)
        opts = dict(strides=stride, padding=padding, dilation_rate=dilation, data_format=fmt, use_bias=use_bias,
                    activation="relu")
        layer = keras.layers.DepthwiseConv2D((3, 2), depth_multiplier=2, **opts)
        layer.build(shape)
        b = np.array([0.1, -0.2, 0.3, -0.4], np.float32)
        layer.set_weights([dk, b] if use_bias else [dk])
        want = np.maximum(dw + (b if use_bias else 0), 0)
        got = np.asarray(layer(tf.constant(xin)))
        got = got if fmt == "channels_last" else np.transpose(got, (0, 2, 3, 1))
        assert_close(got, want, call=f"DepthwiseConv2D((3, 2), depth_multiplier=2, {opts})", what="out",
                     tolerance=TOL32)
        sep = keras.layers.SeparableConv2D(3, (3, 2), depth_multiplier=2, **opts)
        sep.build(shape)
        sb = np.array([0.05, -0.1, 0.2], np.float32)
        sep.set_weights([dk, pk, sb] if use_bias else [dk, pk])
        want = np.maximum(dw @ pk[0, 0].astype(np.float64) + (sb if use_bias else 0), 0)
        got = np.asarray(sep(tf.constant(xin)))
        got = got if fmt == "channels_last" else np.transpose(got, (0, 2, 3, 1))
        assert_close(got, want, call=f"SeparableConv2D(3, (3, 2), depth_multiplier=2, {opts})", what="out",
                     tolerance=TOL32)


# -- recurrent layers' initial_state and mask; EinsumDense's bias_axes and activation ------------------------
def _lstm_masked(x, weights, h, c, mask):
    kernel, rec, bias = (np.asarray(v, np.float64) for v in weights)
    units = rec.shape[0]
    sig = _ACT["sigmoid"]
    for t in range(x.shape[1]):
        z = x[:, t] @ kernel + h @ rec + bias
        i, f, cc, o = (z[:, j * units:(j + 1) * units] for j in range(4))
        c_new = sig(f) * c + sig(i) * np.tanh(cc)
        h_new = sig(o) * np.tanh(c_new)
        keep = mask[:, t:t + 1]
        h, c = np.where(keep, h_new, h), np.where(keep, c_new, c)
    return h, c


@clause("keras.rnn.layers", ref="tf221")
@clause("keras.layer.option-coverage", ref="tf221")
def test_options_recurrent_initial_state_and_mask_and_einsum_bias_axes(tf, keras):
    """LSTM(x, initial_state=[h0, c0], mask=m): the loop starts from the given states and a masked
    step carries them (NumPy LSTM); EinsumDense(bias_axes, activation) adds a bias of the bias axes'
    shape before the activation."""
    x = _x((2, 4, 3), 0.9)
    h0, c0 = _x((2, 2), 0.5) + 0.1, _x((2, 2), 0.3)[::-1].copy()
    mask = np.array([[True, False, True, True], [True, True, False, False]])
    lstm = keras.layers.LSTM(2, return_state=True)
    for use_mask in (False, True):
        kwargs = {"initial_state": [tf.constant(h0), tf.constant(c0)]}
        if use_mask:
            kwargs["mask"] = tf.constant(mask)
        out, h, c = lstm(tf.constant(x), **kwargs)
        hr, cr = _lstm_masked(x.astype(np.float64), lstm.get_weights(), h0.astype(np.float64), c0.astype(np.float64),
                              mask if use_mask else np.ones_like(mask))
        call = f"LSTM(2, return_state=True)(x, initial_state=[h0, c0]{', mask=m' if use_mask else ''})"
        assert_close([np.asarray(h), np.asarray(c)], [hr, cr], call=call, what="[h, c]", tolerance=TOL32)
    xe = _x((2, 5, 3), 1.1)
    for bias_axes, bshape in (("d", (4,)), ("bd", (5, 4))):
        layer = keras.layers.EinsumDense("abc,cd->abd", output_shape=(5, 4), bias_axes=bias_axes, activation="relu")
        layer.build((None, 5, 3))
        k = _x((3, 4), 0.7)
        b = _x(bshape, 0.4)
        layer.set_weights([k, b])
        want = np.maximum(xe.astype(np.float64) @ k + b, 0)
        assert_close(layer(tf.constant(xe)), want, call=f"EinsumDense('abc,cd->abd', (5, 4), bias_axes={bias_axes!r}, "
                     "activation='relu')", what="out", tolerance=TOL32)
