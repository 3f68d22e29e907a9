"""Gaps the seventh blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours no earlier suite test looked at closely enough for a wrong
implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug: every option value of a layer, loss,
metric, optimizer or callback against a rule computed here with NumPy (never with the backend's
own implementation of the same rule), on inputs chosen so that a wrong axis, a wrong denominator,
an off-by-one or a forgotten reset changes the result.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.repro import Program
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.values import distinct_values as _x

clause = pytest.mark.clause
TOL = Tolerance(rtol=1e-5, atol=1e-6)


def _log_softmax(z, axis=-1):
    z = np.asarray(z, np.float64)
    m = z.max(axis=axis, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(axis=axis, keepdims=True))


# -- losses: ignore_class, Keras masks, sample weights and every reduction ----------------------------------
_LOGITS = np.array([[[1.0, 2.0, 0.5], [0.0, 0.0, 0.0], [3.0, -1.0, 0.2], [0.3, 0.1, -0.4]],
                    [[0.0, 0.0, 0.0], [2.0, 2.0, 1.0], [-1.0, 0.5, 0.7], [1.5, -0.5, 0.25]]], np.float32)
_LABELS = np.array([[2, 1, 0, 1], [1, 0, 2, 2]])
_WEIGHTS = np.array([[1.0, 2.0, 3.0, 4.0], [0.5, 1.0, 1.0, 2.0]], np.float32)


def _masked_loss_rule(ce, keep, w, reduction):
    """Keras 3.15's rule for per-entry losses `ce` whose valid entries are `keep`: weighted by w,
    zero elsewhere; 'sum' sums, 'sum_over_batch_size' divides by the number of valid entries,
    'mean_with_sample_weight' by the sum of the valid entries' weights, 'none' keeps them."""
    v = np.where(keep, ce * w, 0.0)
    if reduction == "none":
        return v
    if reduction == "sum":
        return v.sum()
    if reduction == "sum_over_batch_size":
        return v.sum() / keep.sum()
    return v.sum() / np.where(keep, w, 0.0).sum()


@clause("keras.loss.option-coverage", ref="tf221")
@pytest.mark.parametrize("reduction", ["none", "sum", "sum_over_batch_size", "mean_with_sample_weight"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("keras_mask", [False, True])
@pytest.mark.parametrize("ignore_class", [None, 2])
def test_blind7_sparse_crossentropy_masks_weights_and_reductions(tf, keras, reduction, weighted, keras_mask,
                                                                 ignore_class):
    """SparseCategoricalCrossentropy(from_logits=True, ignore_class, reduction) of (2, 4) labels and
    (2, 4, 3) logits, with and without sample weights and a Keras mask on y_pred (Masking: the
    all-zero steps): an entry counts iff its label is not ignore_class and y_pred's mask keeps it;
    the others give 0 and leave every denominator."""
    ce = -np.take_along_axis(_log_softmax(_LOGITS), _LABELS[..., None], axis=-1)[..., 0]
    keep = np.ones(_LABELS.shape, bool)
    if ignore_class is not None:
        keep &= _LABELS != ignore_class
    y_pred = tf.constant(_LOGITS)
    if keras_mask:
        keep &= np.any(_LOGITS != 0.0, axis=-1)
        y_pred = keras.layers.Masking()(y_pred)
    w = _WEIGHTS.astype(np.float64) if weighted else np.ones(_LABELS.shape)
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=ignore_class,
                                                      reduction=reduction)
    got = loss(_LABELS, y_pred, sample_weight=_WEIGHTS if weighted else None)
    assert_close(got, _masked_loss_rule(ce, keep, w, reduction),
                 call=f"SparseCategoricalCrossentropy(ignore_class={ignore_class}, reduction={reduction!r})"
                      f"(y, logits{' with a Keras mask' if keras_mask else ''}"
                      f"{', sample_weight' if weighted else ''})",
                 what="the loss over the entries both masks keep", tolerance=TOL)



@clause("keras.loss.option-coverage", ref="tf221")
@pytest.mark.parametrize("from_logits", [True, False])
def test_blind7_sparse_crossentropy_function_zeroes_ignored_entries(tf, keras, from_logits):
    """keras.losses.sparse_categorical_crossentropy(y, p, ignore_class=2) (the function, no reduction):
    0 at every entry labelled 2, the crossentropy elsewhere."""
    logp = _log_softmax(_LOGITS)
    p = _LOGITS if from_logits else np.exp(logp).astype(np.float32)
    ce = -np.take_along_axis(logp, _LABELS[..., None], axis=-1)[..., 0]
    got = keras.losses.sparse_categorical_crossentropy(_LABELS, tf.constant(p), from_logits=from_logits,
                                                       ignore_class=2)
    assert_close(got, np.where(_LABELS == 2, 0.0, ce), call=f"sparse_categorical_crossentropy(y, p, "
                 f"from_logits={from_logits}, ignore_class=2)", what="0 where ignored, the crossentropy elsewhere",
                 tolerance=Tolerance(rtol=1e-5, atol=1e-5))

# -- metrics: masks with sample weights, weighted RMSE, resets, top_k, the XAtY family -----------------------
_MX = np.array([[[1.0, 2.0], [0.0, 0.0], [3.0, -1.0]], [[0.0, 0.0], [2.0, 2.0], [-1.0, 0.5]]], np.float32)
_MY = np.array([[[1.0, 1.5], [0.5, 1.0], [2.0, 1.0]], [[1.0, -1.0], [1.0, 3.0], [0.0, 0.0]]], np.float32)
_MW = np.array([[0.5, 1.0, 1.5], [2.0, 0.25, 1.0]], np.float32)
_PER_SAMPLE = {  # metric name -> (factory, per-entry value over the last axis)
    "mean_squared_error": (lambda k: k.metrics.MeanSquaredError(), lambda y, p: ((y - p) ** 2).mean(-1)),
    "mean_absolute_error": (lambda k: k.metrics.MeanAbsoluteError(), lambda y, p: np.abs(y - p).mean(-1)),
    "root_mean_squared_error": (lambda k: k.metrics.RootMeanSquaredError(), lambda y, p: ((y - p) ** 2).mean(-1)),
}


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("keras_mask", [False, True])
@pytest.mark.parametrize("name", list(_PER_SAMPLE))
def test_blind7_regression_metrics_weigh_by_sample_weight_and_mask(tf, keras, name, weighted, keras_mask):
    """MSE/MAE/RMSE metrics over two update_state calls, with per-step sample weights and/or a Keras
    mask on y_pred: the weighted mean of the per-entry values (the mean over the last axis) over the
    entries the mask keeps (RMSE: the square root of that mean of the squared errors, over every
    entry: its squared error carries no mask)."""
    make, per = _PER_SAMPLE[name]
    # (RootMeanSquaredError reads no mask: the squared error it averages carries none, in Keras too)
    keep = np.any(_MX != 0, axis=-1) if keras_mask and name != "root_mean_squared_error" else np.ones(_MW.shape, bool)
    w = _MW.astype(np.float64) if weighted else np.ones(_MW.shape)
    vals = per(_MY.astype(np.float64), _MX.astype(np.float64))
    ww = w * keep
    want = (vals * ww).sum() / ww.sum()
    want = np.sqrt(want) if name == "root_mean_squared_error" else want
    m = make(keras)
    for half in (slice(0, 1), slice(1, 2)):
        y_pred = tf.constant(_MX[half])
        if keras_mask:
            y_pred = keras.layers.Masking()(y_pred)
        m.update_state(_MY[half], y_pred, sample_weight=_MW[half] if weighted else None)
    assert_close(m.result(), want, call=f"{name}.update_state(y, y_pred{' (masked)' if keras_mask else ''}"
                 f"{', sample_weight' if weighted else ''}) twice", what="the weighted mean over kept entries",
                 tolerance=TOL)


_PY_TRUE = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 0], np.float32)
_PY_PRED = np.array([0.93, 0.61, 0.37, 0.72, 0.12, 0.46, 0.58, 0.83, 0.21, 0.33], np.float32)


def _rates(num_thresholds):
    """Keras's XAtY thresholds (0, (i + 1) / (n - 1) ..., 1) and the rates at each: a prediction is
    positive at t iff it is > t (no prediction here sits on a threshold)."""
    n = num_thresholds
    ts = np.array([0.5]) if n == 1 else np.array([0.0] + [(i + 1) / (n - 1) for i in range(n - 2)] + [1.0])
    pos = _PY_PRED[None, :].astype(np.float64) > ts[:, None]
    t = _PY_TRUE[None, :] == 1
    tp, fp = (pos & t).sum(1), (pos & ~t).sum(1)
    fn, tn = (~pos & t).sum(1), (~pos & ~t).sum(1)
    div = lambda a, b: np.where(b > 0, a / np.maximum(b, 1), 0.0)  # noqa: E731 - divide_no_nan
    rec = div(tp, tp + fn)
    return {"sensitivity": rec, "recall": rec, "specificity": div(tn, tn + fp), "precision": div(tp, tp + fp)}


_AT = {  # class -> (constrained rate, dependent rate)
    "SensitivityAtSpecificity": ("specificity", "sensitivity"),
    "SpecificityAtSensitivity": ("sensitivity", "specificity"),
    "PrecisionAtRecall": ("recall", "precision"),
    "RecallAtPrecision": ("precision", "recall"),
}


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("num_thresholds", [3, 5, 11])
@pytest.mark.parametrize("name", list(_AT))
def test_blind7_x_at_y_metrics_take_the_best_threshold_meeting_the_constraint(tf, keras, name, num_thresholds):
    """SensitivityAtSpecificity & co. with few thresholds (their `thresholds` attribute: evenly spaced
    from 0 to 1; their spacing matters) and every target the
    data reaches exactly (a rate equal to the target meets it, >=) plus targets between them: the
    largest dependent rate over the thresholds whose constrained rate is >= the target, else 0."""
    constrained, dependent = _AT[name]
    rates = _rates(num_thresholds)
    want_ts = [0.0] + [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)] + [1.0]
    assert_close(np.asarray(getattr(keras.metrics, name)(0.5, num_thresholds=num_thresholds).thresholds), want_ts,
                 call=f"{name}(0.5, num_thresholds={num_thresholds}).thresholds", what="0, (i + 1) / (n - 1) ..., 1")
    targets = sorted({float(v) for v in rates[constrained] if 0.0 < v <= 1.0} | {0.3, 0.55, 0.9})
    for target in targets:
        ok = rates[constrained] >= target - 1e-12
        want = max(float(np.max(np.where(ok, rates[dependent], 0.0))), 0.0)
        m = getattr(keras.metrics, name)(target, num_thresholds=num_thresholds)
        m.update_state(_PY_TRUE[:6], _PY_PRED[:6])
        m.update_state(_PY_TRUE[6:], _PY_PRED[6:])
        assert_close(m.result(), want, call=f"{name}({target}, num_thresholds={num_thresholds})",
                     what=f"the best {dependent} with {constrained} >= {target}", tolerance=TOL)


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("kind", ["Precision", "Recall"])
@pytest.mark.parametrize("top_k,thresholds,class_id", [(None, None, None), (None, [0.3, 0.5, 0.7], None),
                                                       (1, None, None), (2, None, None), (2, 0.3, None),
                                                       (None, None, 2), (2, None, 1)])
def test_blind7_precision_recall_top_k_thresholds_class_id_and_reset(tf, keras, kind, top_k, thresholds, class_id):
    """Precision/Recall of (4, 3) multi-label predictions, mostly below 0.5: with top_k, only each
    row's k largest may be positive and the default threshold is -inf (every top-k prediction is
    positive); with thresholds, positive iff > t; with class_id only that column counts. After
    reset_state the next update counts alone (every accumulator is zeroed)."""
    y = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]], np.float32)
    p = np.array([[0.45, 0.2, 0.35], [0.1, 0.4, 0.28], [0.6, 0.25, 0.15], [0.32, 0.05, 0.42]], np.float32)
    ts = np.atleast_1d(np.asarray(thresholds if thresholds is not None else (-np.inf if top_k else 0.5)))
    keep = np.ones(p.shape, bool)
    if top_k:
        order = np.argsort(-p, axis=1)[:, :top_k]
        keep = np.zeros(p.shape, bool)
        np.put_along_axis(keep, order, True, axis=1)
    cols = slice(None) if class_id is None else slice(class_id, class_id + 1)

    def rule(y, p, keep):
        y, p, keep = y[:, cols] == 1, p[:, cols].astype(np.float64), keep[:, cols]
        out = []
        for t in ts:
            pos = keep & (p > t)
            tp = (pos & y).sum()
            other = (pos & ~y).sum() if kind == "Precision" else (~pos & y).sum()
            out.append(tp / (tp + other) if tp + other else 0.0)
        return np.array(out) if thresholds is not None and np.ndim(thresholds) else np.array(out[0])

    m = getattr(keras.metrics, kind)(thresholds=thresholds, top_k=top_k, class_id=class_id)
    call = f"{kind}(thresholds={thresholds}, top_k={top_k}, class_id={class_id})"
    m.update_state(y, p)
    assert_close(m.result(), rule(y, p, keep), call=call, what="tp / (tp + fp|fn)", tolerance=TOL)
    m.reset_state()
    y2, p2 = y[::-1].copy(), p[:, ::-1].copy()
    keep2 = keep[:, ::-1] if top_k else keep
    m.update_state(y2, p2)
    assert_close(m.result(), rule(y2, p2, keep2), call=call + " after reset_state()",
                 what="the second update's value alone", tolerance=TOL)


# -- second derivatives of the elementwise functions ----------------------------------------------------------
def _sig(x):
    return 1.0 / (1.0 + np.exp(-x))


_SELU_A, _SELU_S = 1.6732632423543772, 1.0507009873554805
SECOND = {  # name -> (f(tf, x), f'(x), f''(x)) with NumPy closed forms
    "sigmoid": (lambda tf, x: tf.sigmoid(x), lambda x: _sig(x) * (1 - _sig(x)),
                lambda x: _sig(x) * (1 - _sig(x)) * (1 - 2 * _sig(x))),
    "tanh": (lambda tf, x: tf.tanh(x), lambda x: 1 - np.tanh(x) ** 2, lambda x: -2 * np.tanh(x) * (1 - np.tanh(x) ** 2)),
    "softplus": (lambda tf, x: tf.math.softplus(x), _sig, lambda x: _sig(x) * (1 - _sig(x))),
    "log_sigmoid": (lambda tf, x: tf.math.log_sigmoid(x), lambda x: 1 - _sig(x), lambda x: -_sig(x) * (1 - _sig(x))),
    "silu": (lambda tf, x: tf.nn.silu(x), lambda x: _sig(x) * (1 + x * (1 - _sig(x))),
             lambda x: _sig(x) * (1 - _sig(x)) * (2 + x * (1 - 2 * _sig(x)))),
    "elu": (lambda tf, x: tf.nn.elu(x), lambda x: np.where(x > 0, 1.0, np.exp(x)),
            lambda x: np.where(x > 0, 0.0, np.exp(x))),
    "selu": (lambda tf, x: tf.nn.selu(x), lambda x: np.where(x > 0, _SELU_S, _SELU_S * _SELU_A * np.exp(x)),
             lambda x: np.where(x > 0, 0.0, _SELU_S * _SELU_A * np.exp(x))),
    "exp": (lambda tf, x: tf.exp(x), np.exp, np.exp),
    "square": (lambda tf, x: tf.square(x), lambda x: 2 * x, lambda x: 2 + 0 * x),
    "sin": (lambda tf, x: tf.sin(x), np.cos, lambda x: -np.sin(x)),
    "log_abs": (lambda tf, x: tf.math.log(tf.abs(x)), lambda x: 1 / x, lambda x: -1 / x ** 2),
    "reciprocal": (lambda tf, x: tf.math.reciprocal(x), lambda x: -1 / x ** 2, lambda x: 2 / x ** 3),
    "sqrt_abs": (lambda tf, x: tf.sqrt(tf.abs(x)), lambda x: np.sign(x) * 0.5 / np.sqrt(np.abs(x)),
                 lambda x: -0.25 * np.abs(x) ** -1.5),
    "rsqrt_abs": (lambda tf, x: tf.math.rsqrt(tf.abs(x)), lambda x: -0.5 * np.sign(x) * np.abs(x) ** -1.5,
                  lambda x: 0.75 * np.abs(x) ** -2.5),
}


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("name", list(SECOND))
def test_blind7_second_derivatives_of_elementwise_functions(tf, name):
    """Nested tapes over y = sum(c * f(x)) (float64, x of both signs away from 0, c watched): the outer
    gradient of sum(R * dy/dx) is R * c * f''(x) with respect to x and R * f'(x) with respect to c, so
    both inputs of the first derivative's own gradient (TF's SigmoidGrad, TanhGrad, ... kernels) are
    checked against closed forms."""
    f, d1, d2 = SECOND[name]
    xv = np.array([[-2.1, -0.7, -0.15], [0.2, 0.9, 1.8]])
    cv = np.array([[0.5, -1.25, 2.0], [1.5, 0.75, -0.6]])
    r = np.array([[1.0, -0.5, 0.25], [2.0, 1.5, -1.0]])
    x, c = tf.constant(xv), tf.constant(cv)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([x, c])
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(c * f(tf, x))
        g = inner.gradient(y, x)
        z = tf.reduce_sum(tf.constant(r) * g)
    gx, gc = outer.gradient(z, [x, c])
    call = f"outer.gradient(sum(R * inner.gradient(sum(c * {name}(x)), x)), [x, c])"
    assert_close(g, cv * d1(xv), call=f"inner.gradient(sum(c * {name}(x)), x)", what="c * f'(x)", tolerance=TOL)
    assert_close(gx, r * cv * d2(xv), call=call, what="R * c * f''(x)", tolerance=TOL)
    assert_close(gc, r * d1(xv), call=call, what="R * f'(x)", tolerance=TOL)


# -- tf.custom_gradient with several variables -----------------------------------------------------------------
_CUSTOM_VARS = """
a = tf.Variable([1.0, 2.0], name="a")
b = tf.Variable([[0.5], [-1.5]], name="b")
c = tf.Variable(3.0, name="c")

@tf.custom_gradient
def f(x):
    y = tf.reduce_sum(x * a) + tf.reduce_sum(b) * c

    def grad(up, variables):
        gv = [tf.ones_like(v) * scale[v.name.split(":")[0]] * up for v in variables]
        return up * 10.0 * tf.ones_like(x), gv
    return y, grad

x = tf.constant([0.25, -0.75])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = f(x)
ga, gb, gc, gx = tape.gradient(y, [a, b, c, x])
grads = {"a": ga.numpy(), "b": gb.numpy(), "c": gc.numpy(), "x": gx.numpy()}
"""


@clause("autodiff.custom-gradient", ref="tf221")
def test_blind7_custom_gradient_pairs_each_variable_with_its_gradient(backend):
    """tf.custom_gradient reading three variables of different shapes: the grad_fn's `variables`
    list holds them and the gradient it returns at position i belongs to variables[i] (each filled
    with its own marker value here), whatever order the tape is asked for them in."""
    ns = Program(backend, _CUSTOM_VARS, scale={"a": 2.0, "b": 3.0, "c": 5.0}).run()
    want = {"a": np.full(2, 2.0), "b": np.full((2, 1), 3.0), "c": np.array(5.0), "x": np.full(2, 10.0)}
    for k, w in want.items():
        assert_close(ns["grads"][k], w, call="tape.gradient(f(x), [a, b, c, x]) with a custom gradient",
                     what=f"the gradient of {k}")


# -- Keras layers: Dropout's noise_shape, Flatten(channels_first), Softmax over several axes, regularizers ------
@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("noise_shape", [(None, 1, None), (None, 1, 6), (8, 1, 6), (None, 5, 1), (1, None, None),
                                         (None, None, None)])
def test_blind7_dropout_noise_shape_none_means_the_input_size(tf, keras, noise_shape):
    """Dropout(0.5, noise_shape)(ones(8, 5, 6), training=True): every output is 0 or 2; along an axis
    whose noise_shape entry is 1 the mask is the same, along one whose entry is None (the input's
    size) or the size itself it varies (8 rows or 5 or 6 slices all equal would be a broadcast)."""
    out = np.asarray(keras.layers.Dropout(0.5, noise_shape=noise_shape, seed=7)(tf.ones((8, 5, 6)), training=True))
    call = f"Dropout(0.5, noise_shape={noise_shape}, seed=7)(ones((8, 5, 6)), training=True)"
    assert_true(bool(np.all((out == 0.0) | (out == 2.0))), f"outputs {np.unique(out)}, but should be 0 or 2", call=call)
    for axis, d in enumerate(noise_shape):
        first = np.take(out, [0], axis=axis)
        same = bool(np.all(out == first))
        assert_equal(same, d == 1, call=call,
                     what=f"whether the mask is constant along axis {axis} (noise_shape entry {d})")


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 4), (2, 3, 4, 5), (2, 2, 3, 4, 3)])
def test_blind7_flatten_channels_first_moves_the_channels_last_first(tf, keras, shape):
    """Flatten(data_format='channels_first') of (batch, C, ...): the channels-last flattening of the
    input with its axis 1 moved last, for every rank (rank 3 cannot tell a permutation from its
    inverse; ranks 4 and 5 can)."""
    x = _x(shape)
    want = np.moveaxis(x, 1, -1).reshape(shape[0], -1) if len(shape) > 2 else x
    assert_close(keras.layers.Flatten(data_format="channels_first")(tf.constant(x)), want,
                 call=f"Flatten('channels_first')(x{shape})", what="moveaxis(x, 1, -1) flattened")
    assert_close(keras.layers.Flatten()(tf.constant(x)), x.reshape(shape[0], -1), call=f"Flatten()(x{shape})",
                 what="x flattened")


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("axis", [-1, 1, 2, (1, 2), (2, 3), (1, 3), (1, 2, 3), [3]])
def test_blind7_softmax_layer_normalises_over_every_axis_given(tf, keras, axis):
    """keras.layers.Softmax(axis) of a (2, 3, 4, 5) input: exp(x) / sum(exp(x)) over all the axes
    given (a tuple or list), each slice over them summing to 1."""
    x = _x((2, 3, 4, 5), 2.0).astype(np.float64)
    axes = tuple(np.atleast_1d(axis).tolist())
    e = np.exp(x - x.max(axis=axes, keepdims=True))
    want = e / e.sum(axis=axes, keepdims=True)
    assert_close(keras.layers.Softmax(axis=axis)(tf.constant(x.astype(np.float32))), want,
                 call=f"Softmax(axis={axis})(x(2, 3, 4, 5))", what=f"the softmax over axes {axes}", tolerance=TOL)


_W = np.array([[0.5, -1.0, 2.0, 0.25], [1.5, 0.75, -0.5, -2.0], [-0.3, 0.6, 1.2, 0.9]], np.float32)


def _orthogonal(w, factor, mode):
    """factor * 0.5 * sum|off-diagonal of the Gram matrix of the unit rows (columns)| / pairs."""
    v = w.astype(np.float64)
    v = v / np.linalg.norm(v, axis=1 if mode == "rows" else 0, keepdims=True)
    g = v @ v.T if mode == "rows" else v.T @ v
    n = g.shape[0]
    return factor * 0.5 * np.abs(g * (1 - np.eye(n))).sum() / (n * (n - 1) / 2)


REGULARIZERS = {
    "l1": (lambda k: k.regularizers.L1(0.3), lambda w: 0.3 * np.abs(w).sum()),
    "l2": (lambda k: k.regularizers.L2(0.2), lambda w: 0.2 * (w ** 2).sum()),
    "l1l2": (lambda k: k.regularizers.L1L2(l1=0.1, l2=0.4), lambda w: 0.1 * np.abs(w).sum() + 0.4 * (w ** 2).sum()),
    "l1l2_l1_only": (lambda k: k.regularizers.L1L2(l1=0.05), lambda w: 0.05 * np.abs(w).sum()),
    "l1l2_l2_only": (lambda k: k.regularizers.L1L2(l2=0.7), lambda w: 0.7 * (w ** 2).sum()),
    "orthogonal_rows": (lambda k: k.regularizers.OrthogonalRegularizer(0.2, mode="rows"),
                        lambda w: _orthogonal(w, 0.2, "rows")),
    "orthogonal_columns": (lambda k: k.regularizers.OrthogonalRegularizer(0.3, mode="columns"),
                           lambda w: _orthogonal(w, 0.3, "columns")),
}


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("name", list(REGULARIZERS))
def test_blind7_regularizers_apply_each_factor_to_its_own_term(tf, keras, name):
    """Every regularizer on a non-square matrix whose rows and columns have different norms: L1, L2,
    L1L2 with different factors (each term its own factor), OrthogonalRegularizer over rows and over
    columns; the penalty a Dense kernel with that regularizer adds to `layer.losses` is the same."""
    make, rule = REGULARIZERS[name]
    reg = make(keras)
    want = rule(_W.astype(np.float64))
    assert_close(reg(tf.constant(_W)), want, call=f"{name}(W(3, 4))", what="the penalty", tolerance=TOL)
    layer = keras.layers.Dense(4, kernel_regularizer=reg, kernel_initializer=keras.initializers.Constant(_W))
    layer(tf.ones((1, 3)))
    assert_close(layer.losses[0], want, call=f"Dense(4, kernel_regularizer={name}).losses", what="the penalty",
                 tolerance=TOL)


# -- optimizers: Nesterov, Adagrad's initial accumulator, gradient accumulation, EMA ----------------------------
_V0 = np.array([1.0, -2.0, 0.5], np.float32)
_GRADS = [np.array([0.5, -1.0, 2.0], np.float32), np.array([-0.25, 0.75, 1.0], np.float32),
          np.array([1.5, 0.5, -0.5], np.float32), np.array([0.2, -0.4, 0.6], np.float32),
          np.array([-1.0, 0.3, 0.1], np.float32), np.array([0.7, 0.7, -0.9], np.float32)]


def _np_sgd(lr, momentum=0.0, nesterov=False):
    def step(v, g, s):
        if not momentum:
            return v - lr * g
        s["m"] = momentum * s.get("m", 0.0) - lr * g
        return v + (momentum * s["m"] - lr * g if nesterov else s["m"])
    return step


def _np_adagrad(lr, init, eps=1e-7):
    def step(v, g, s):
        s["acc"] = s.get("acc", init) + g * g
        return v - lr * g / np.sqrt(s["acc"] + eps)
    return step


def _np_run(step, grads, accumulate=None, ema=None, overwrite=None):
    """The variable after each gradient (and, with `ema`, the moving average), Keras 3.15's order:
    update (every `accumulate`-th apply, with the mean of the accumulated gradients), then the
    average (momentum 0 at the first apply), then every `overwrite`-th apply the variable takes it."""
    v, s, acc, avg = _V0.astype(np.float64), {}, np.zeros(3), None
    for i, g in enumerate(grads):
        g = g.astype(np.float64)
        if accumulate:
            if (i + 1) % accumulate == 0:
                v = step(v, (acc + g) / accumulate, s)
                acc = np.zeros(3)
            else:
                acc = acc + g
        else:
            v = step(v, g, s)
        if ema is not None:
            m = 0.0 if i == 0 else ema
            avg = v.copy() if avg is None else avg
            avg = m * avg + (1 - m) * v
            if overwrite and (i + 1) % overwrite == 0:
                v = avg.copy()
    return v, avg


OPTIMIZERS = {
    "sgd_momentum": (lambda k: k.optimizers.SGD(0.1, momentum=0.9), _np_sgd(0.1, 0.9), {}),
    "sgd_nesterov": (lambda k: k.optimizers.SGD(0.1, momentum=0.9, nesterov=True), _np_sgd(0.1, 0.9, True), {}),
    "sgd_nesterov_half": (lambda k: k.optimizers.SGD(0.05, momentum=0.5, nesterov=True), _np_sgd(0.05, 0.5, True), {}),
    "adagrad_default": (lambda k: k.optimizers.Adagrad(0.1), _np_adagrad(0.1, 0.1), {}),
    "adagrad_initial_0.5": (lambda k: k.optimizers.Adagrad(0.1, initial_accumulator_value=0.5),
                            _np_adagrad(0.1, 0.5), {}),
    "adagrad_initial_0.01": (lambda k: k.optimizers.Adagrad(0.2, initial_accumulator_value=0.01),
                             _np_adagrad(0.2, 0.01), {}),
    "sgd_accumulate_2": (lambda k: k.optimizers.SGD(0.1, gradient_accumulation_steps=2), _np_sgd(0.1),
                         {"accumulate": 2}),
    "sgd_momentum_accumulate_3": (lambda k: k.optimizers.SGD(0.1, momentum=0.5, gradient_accumulation_steps=3),
                                  _np_sgd(0.1, 0.5), {"accumulate": 3}),
    "sgd_ema": (lambda k: k.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.8), _np_sgd(0.1), {"ema": 0.8}),
    "sgd_ema_overwrite_2": (lambda k: k.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.6, ema_overwrite_frequency=2),
                            _np_sgd(0.1), {"ema": 0.6, "overwrite": 2}),
}


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("name", list(OPTIMIZERS))
def test_blind7_optimizer_options_over_six_steps(tf, keras, name):
    """Six apply_gradients of different gradients to one variable, each option against a NumPy
    transcription of Keras 3.15's update rule: Nesterov's lookahead (momentum * m - lr * g),
    Adagrad's accumulator starting at initial_accumulator_value, gradient accumulation (an update
    every k-th apply with the mean of the k gradients, the current one included), and EMA (the
    average copies the variable at the first apply, then m * avg + (1 - m) * var; with
    ema_overwrite_frequency the variable takes the average every so many applies;
    finalize_variable_values leaves the variable at the average)."""
    make, step, kw = OPTIMIZERS[name]
    want_v, want_avg = _np_run(step, _GRADS, **kw)
    v = tf.Variable(_V0)
    opt = make(keras)
    for g in _GRADS:
        opt.apply_gradients([(tf.constant(g), v)])
    assert_close(v, want_v, call=f"{name}: 6 x apply_gradients", what="the variable", tolerance=TOL)
    if want_avg is not None:
        opt.finalize_variable_values([v])
        assert_close(v, want_avg, call=f"{name}: finalize_variable_values after 6 steps",
                     what="the moving average", tolerance=TOL)


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("boundaries,values", [([3], [1.0, 0.5]), ([2, 5], [1.0, 0.5, 0.1]),
                                               ([1, 3, 6], [0.9, 0.7, 0.4, 0.2]),
                                               ([2, 4, 6, 8], [5.0, 4.0, 3.0, 2.0, 1.0])])
def test_blind7_piecewise_constant_decay_takes_each_interval_its_value(tf, keras, boundaries, values):
    """PiecewiseConstantDecay(boundaries, values) at every step 0..last boundary + 2: values[0] up to
    and including boundaries[0], values[i] for boundaries[i-1] < step <= boundaries[i], values[-1] after
    the last boundary (1 to 4 boundaries: every middle interval its own value)."""
    sched = keras.optimizers.schedules.PiecewiseConstantDecay(boundaries, values)
    for step in range(boundaries[-1] + 3):
        i = int(np.searchsorted(boundaries, step, side="left"))
        assert_close(sched(tf.constant(step, tf.int64)), values[i],
                     call=f"PiecewiseConstantDecay({boundaries}, {values})({step})", what=f"values[{i}]")


# -- callbacks: TerminateOnNaN on inf, ReduceLROnPlateau's cooldown ---------------------------------------------
@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("bad", ["nan", "inf"])
def test_blind7_terminate_on_nan_stops_on_nan_and_on_inf(tf, keras, bad):
    """TerminateOnNaN: the batch whose loss is NaN or infinite is the last one fit runs (the 3rd of
    4 here, in the first of 3 epochs): one epoch in the history and the optimizer's 3 iterations."""
    x = np.ones((8, 1), np.float32)
    y = np.zeros((8, 1), np.float32)
    y[4] = np.nan if bad == "nan" else 3e38
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse")
    hist = model.fit(x, y, batch_size=2, epochs=3, shuffle=False, verbose=0,
                     callbacks=[keras.callbacks.TerminateOnNaN()])
    call = f"fit(epochs=3, callbacks=[TerminateOnNaN()]) with a {bad} loss in batch 3"
    assert_equal(len(hist.history["loss"]), 1, call=call, what="epochs run")
    assert_equal(int(model.optimizer.iterations.numpy()), 3, call=call, what="optimizer.iterations")


def _np_plateau(losses, lr, factor, patience, cooldown, min_delta=1e-4, min_lr=0.0):
    """Keras 3.15's ReduceLROnPlateau (mode min) over a sequence of monitored values: the learning
    rate each epoch ends with."""
    best, wait, cd, out = np.inf, 0, 0, []
    for cur in losses:
        if cd > 0:
            cd -= 1
            wait = 0
        if cur < best - min_delta:
            best, wait = cur, 0
        elif cd == 0:
            wait += 1
            if wait >= patience and lr > min_lr:
                lr = max(lr * factor, min_lr)
                cd, wait = cooldown, 0
        out.append(lr)
    return out


@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("patience,cooldown", [(1, 0), (1, 2), (2, 1), (1, 3), (3, 2)])
def test_blind7_reduce_lr_on_plateau_waits_out_its_cooldown(tf, keras, patience, cooldown):
    """ReduceLROnPlateau(factor=0.5, patience, cooldown) fed val_loss values that improve, then stall
    for many epochs: the learning rate after each epoch follows Keras's rule, the cooldown epochs
    counting no patience after each reduction."""
    losses = [1.0, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.5, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6]
    want = _np_plateau(losses, 1.0, 0.5, patience, cooldown)
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(1.0), loss="mse")
    cb = keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.5, patience=patience, cooldown=cooldown)
    cb.set_model(model)
    cb.on_train_begin()
    got = []
    for epoch, cur in enumerate(losses):
        cb.on_epoch_end(epoch, {"val_loss": cur})
        got.append(float(np.asarray(model.optimizer.learning_rate)))
    assert_close(np.array(got), np.array(want), call=f"ReduceLROnPlateau(factor=0.5, patience={patience}, "
                 f"cooldown={cooldown}) over val_loss {losses}", what="the learning rate after each epoch")


# -- predict with steps_per_execution, evaluate under MirroredStrategy, weight files with non-trainable state ---
@clause("keras.fit.data", ref="tf221")
@pytest.mark.parametrize("steps_per_execution,n", [(1, 10), (2, 10), (3, 10), (4, 7), (5, 10)])
def test_blind7_predict_with_steps_per_execution_returns_every_sample(tf, keras, steps_per_execution, n):
    """predict(x, batch_size=2) of a model compiled with steps_per_execution=k: one row per sample,
    in order, whether or not the number of batches is a multiple of k (the last group may be short);
    evaluate over the same data gives the mean loss over every sample."""
    x = _x((n, 3))
    w = np.array([[0.5], [-1.0], [2.0]], np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, use_bias=False,
                                                                    kernel_initializer=keras.initializers.Constant(w))])
    model.compile(optimizer="sgd", loss="mse", steps_per_execution=steps_per_execution)
    call = f"predict(x({n}, 3), batch_size=2) with steps_per_execution={steps_per_execution}"
    pred = model.predict(x, batch_size=2, verbose=0)
    assert_close(pred, x.astype(np.float64) @ w, call=call, what="x @ w, one row per sample")
    loss = model.evaluate(x, np.zeros((n, 1), np.float32), batch_size=2, verbose=0)
    assert_close(loss, np.mean((x.astype(np.float64) @ w) ** 2), call=call.replace("predict", "evaluate"),
                 what="the mean squared output over every sample")


_MIRRORED_EVALUATE = """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(
        1, kernel_initializer=tf.keras.initializers.Constant(w), bias_initializer="ones")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse", metrics=["mae"])
evaluated = model.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
history = model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False).history
"""


@clause("keras.fit.data", ref="tf221")
def test_blind7_evaluate_under_mirrored_strategy_reports_the_global_mean_loss(backend):
    """A model built under MirroredStrategy(2): evaluate's loss and fit's epoch loss (learning rate 0,
    so the weights stay) are the mean squared error over every sample, as on one device (each
    replica scales its loss by 1/2 for the gradient sum; the reported loss undoes it)."""
    x = _x((12, 3))
    w = np.array([[0.5], [-1.0], [2.0]], np.float32)
    y = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(12, 1)
    ns = Program(backend, _MIRRORED_EVALUATE, x=x, y=y, w=w).run()
    err = x.astype(np.float64) @ w + 1.0 - y
    call = "MirroredStrategy(2): model.evaluate(x, y, batch_size=4) / fit(..., SGD(0.0))"
    assert_close(ns["evaluated"]["loss"], np.mean(err ** 2), call=call, what="evaluate's loss")
    assert_close(ns["evaluated"]["mae"], np.mean(np.abs(err)), call=call, what="evaluate's mae")
    assert_close(ns["history"]["loss"][0], np.mean(err ** 2), call=call, what="fit's epoch loss")


@clause("keras.model.save-weights", ref="tf221")
def test_blind7_weight_files_keep_non_trainable_state(tf, keras):
    """save_weights / load_weights of a model with BatchNormalization after fit: the moving mean and
    variance (non-trainable) come back with the trainable weights, so inference outputs are equal."""
    x = _x((16, 3), 3.0) + 1.5
    y = np.ones((16, 1), np.float32)

    def make():
        m = keras.Sequential([keras.Input((3,)), keras.layers.BatchNormalization(momentum=0.5), keras.layers.Dense(1)])
        m.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
        return m

    a = make()
    a.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.weights.h5")
        a.save_weights(path)
        b = make()
        b.load_weights(path)
    call = "save_weights / load_weights of Sequential([BatchNormalization, Dense]) after fit"
    for wa, wb in zip(a.layers[0].weights, b.layers[0].weights):
        assert_close(wb, wa, call=call, what=f"BatchNormalization weight {wa.name}")
    assert_close(b.predict(x, verbose=0), a.predict(x, verbose=0), call=call, what="the restored model's predictions")



@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("kind", ["Mean", "Sum"])
def test_blind7_mean_and_sum_of_masked_values_weigh_by_the_mask(tf, keras, kind, weighted):
    """keras.metrics.Mean/Sum of values carrying a Keras mask (Embedding(mask_zero=True): index 0 is
    masked, its nonzero row still there) with per-step sample weights: each step weighs mask * weight
    (Mean: Σ v·w·mask / Σ w·mask of the per-step means over the last axis; Sum: Σ of the per-step
    sums · w · mask); without sample weights Keras 3.15 reads no mask (the plain mean / sum of every
    value)."""
    table = np.array([[1.5, -0.5], [1.0, 2.0], [3.0, -1.0], [-2.0, 0.5]], np.float32)
    idx = np.array([[1, 0, 2], [0, 3, 2]])
    keep = idx != 0
    x = table[idx].astype(np.float64)
    w = _MW.astype(np.float64) * keep
    if kind == "Mean":
        want = (x.mean(-1) * w).sum() / w.sum() if weighted else x.mean()
    else:
        want = (x.sum(-1) * w).sum() if weighted else x.sum()
    emb = keras.layers.Embedding(4, 2, mask_zero=True, embeddings_initializer=keras.initializers.Constant(table))
    m = getattr(keras.metrics, kind)()
    m.update_state(emb(tf.constant(idx)), sample_weight=_MW if weighted else None)
    assert_close(m.result(), want, call=f"{kind}().update_state(Embedding(mask_zero=True)(idx)"
                 f"{', sample_weight' if weighted else ''})",
                 what="the mask-weighted value" if weighted else "the unmasked value", tolerance=TOL)
