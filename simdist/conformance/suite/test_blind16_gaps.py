"""Gaps the sixteenth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours and options no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here
with NumPy (or a Python transcription of TF's or Keras 3.15's rule), never with the backend's own
implementation of the same rule.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import statistics
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)
TOL_OPT = Tolerance(rtol=1e-4, atol=1e-5)


def _f32(*shape, seed=0, lo=-1.0, hi=1.0):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(np.float32)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


# -- layers: normalization, parameters and cropping follow their options ----------------------------------------
@clause("keras.layer.option-coverage", ref="tf221")
def test_blind16_rms_normalization_prelu_and_cropping_follow_their_options(keras, budget):
    """RMSNormalization's layer default epsilon is 1e-6 (x / sqrt(mean(x**2) + epsilon) * scale);
    PReLU's alpha has the input's shape without the batch axis, size 1 on each of `shared_axes`
    (counted on the input, batch axis 0); Cropping2D/3D drop cropping[i][0] elements at the start and
    cropping[i][1] at the end of each spatial axis (0 at an end drops nothing there)."""
    x = np.array([[1e-3, 2e-3, -1e-3, 5e-4], [0.5, -1.0, 2.0, 0.25]], np.float32)
    for kw, eps in budget([({}, 1e-6), ({"epsilon": 1e-3}, 1e-3), ({"epsilon": 1e-8}, 1e-8)]):
        layer = keras.layers.RMSNormalization(**kw)
        x64 = x.astype(np.float64)
        want = x64 / np.sqrt(np.mean(x64 ** 2, axis=-1, keepdims=True) + eps)
        assert_close(_np(layer(x)), want, call=f"RMSNormalization({kw})(x)", tolerance=TOL32)
        assert_close(layer.get_config()["epsilon"], eps, call=f"RMSNormalization({kw}).get_config()",
                     what="epsilon", tolerance=Tolerance(rtol=1e-12, atol=0))
    shape = (2, 3, 4, 5)
    xs = _f32(*shape, seed=1)
    for shared in budget([None, [1, 2], [3], 1, [1, 3]]):
        layer = keras.layers.PReLU(alpha_initializer=keras.initializers.Constant(0.25), shared_axes=shared)
        out = _np(layer(xs))
        axes = [] if shared is None else ([shared] if isinstance(shared, int) else list(shared))
        want_shape = tuple(1 if i + 1 in axes else d for i, d in enumerate(shape[1:]))
        assert_equal(tuple(layer.alpha.shape), want_shape, call=f"PReLU(shared_axes={shared}) on {shape}",
                     what="alpha.shape")
        assert_close(out, np.where(xs > 0, xs, 0.25 * xs), call=f"PReLU(shared_axes={shared})(x)", tolerance=TOL32)
    img = np.arange(2 * 5 * 6 * 2, dtype=np.float32).reshape(2, 5, 6, 2)
    vol = np.arange(1 * 4 * 5 * 6 * 1, dtype=np.float32).reshape(1, 4, 5, 6, 1)
    cases = [("Cropping2D", ((1, 0), (0, 2)), img), ("Cropping2D", ((0, 0), (1, 1)), img),
             ("Cropping2D", ((2, 1), (0, 0)), img), ("Cropping3D", ((0, 1), (1, 0), (0, 0)), vol),
             ("Cropping3D", ((1, 1), (0, 2), (3, 0)), vol)]
    for name, crop, data in budget(cases):
        index = (slice(None),) + tuple(slice(a, data.shape[i + 1] - b) for i, (a, b) in enumerate(crop)) \
            + (slice(None),)
        got = _np(getattr(keras.layers, name)(crop)(data))
        assert_equal(got.shape, data[index].shape, call=f"{name}({crop}) on {data.shape}", what="output shape")
        assert_close(got, data[index], call=f"{name}({crop})", tolerance=TOL32)


@clause("keras.layer.conv-lstm", ref="tf221")
def test_blind16_conv_lstm_unit_forget_bias_fills_the_forget_gate(keras, budget):
    """A ConvLSTM cell's bias is laid out [input, forget, candidate, output] (filters each); with
    unit_forget_bias (the default) the forget gate's slice is ones and the others come from
    bias_initializer; without it every slice comes from bias_initializer."""
    cases = [("ConvLSTM1D", (1, 2, 4, 1), True, 0.0), ("ConvLSTM1D", (1, 2, 4, 1), False, 0.5),
             ("ConvLSTM2D", (1, 2, 3, 3, 2), True, 0.25), ("ConvLSTM1D", (1, 2, 4, 1), True, -0.5)]
    for name, shape, ufb, b in budget(cases):
        filters = 3
        layer = getattr(keras.layers, name)(filters=filters, kernel_size=1, unit_forget_bias=ufb,
                                            bias_initializer=keras.initializers.Constant(b))
        layer(np.zeros(shape, np.float32))
        biases = [_np(w) for w in layer.weights if w.name == "bias"]
        want = np.full(4 * filters, b, np.float32)
        if ufb:
            want[filters:2 * filters] = 1.0
        assert_equal(len(biases), 1, call=f"{name}(unit_forget_bias={ufb}).weights", what="bias weights")
        assert_close(biases[0], want, call=f"{name}(filters=3, unit_forget_bias={ufb}, bias_initializer={b}).bias",
                     tolerance=TOL32)


@clause("keras.layer.group-query-attention", ref="tf221")
def test_blind16_group_query_attention_repeats_each_key_value_head(keras, budget):
    """GroupQueryAttention projects the key and value into num_key_value_heads heads and repeats
    each one num_query_heads // num_key_value_heads times in place (heads 0,0,1,1 — np.repeat, not
    np.tile), then runs scaled dot-product attention per query head and the output projection."""
    for heads, kv_heads, d in budget([(4, 2, 2), (6, 3, 2), (4, 1, 3), (2, 2, 2)]):
        layer = keras.layers.GroupQueryAttention(head_dim=d, num_query_heads=heads, num_key_value_heads=kv_heads)
        q = _f32(2, 3, 5, seed=2)
        v = _f32(2, 4, 5, seed=3)
        layer(q, v)
        rng = np.random.default_rng(7)
        weights = [rng.uniform(-1, 1, tuple(w.shape)).astype(np.float32) for w in layer.weights]
        layer.set_weights(weights)
        wq, bq, wk, bk, wv, bv, wo, bo = (w.astype(np.float64) for w in weights)
        assert_equal([w.shape for w in weights[:2]], [(5, heads, d), (heads, d)], call="GroupQueryAttention.weights",
                     what="query kernel and bias shapes")
        qh = np.einsum("bqm,muh->bquh", q, wq) + bq
        kh = np.repeat(np.einsum("bkm,mvh->bkvh", v, wk) + bk, heads // kv_heads, axis=2)
        vh = np.repeat(np.einsum("bkm,mvh->bkvh", v, wv) + bv, heads // kv_heads, axis=2)
        scores = np.einsum("bquh,bkuh->buqk", qh / math.sqrt(d), kh)
        p = np.exp(scores - scores.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        want = np.einsum("bquh,uhm->bqm", np.einsum("buqk,bkuh->bquh", p, vh), wo) + bo
        assert_close(_np(layer(q, v)), want,
                     call=f"GroupQueryAttention(head_dim={d}, num_query_heads={heads}, num_key_value_heads={kv_heads})",
                     tolerance=Tolerance(rtol=1e-4, atol=1e-5))


# -- initializers and constraints ---------------------------------------------------------------------------------
@clause("keras.init.distributions", ref="tf221")
def test_blind16_variance_scaling_presets_use_their_own_fan(keras, budget):
    """The uniform presets draw in +-sqrt(3 * scale / n): HeUniform scale 2 with n = fan_in,
    LecunUniform scale 1 with fan_in, GlorotUniform scale 1 with (fan_in + fan_out) / 2 (a
    convolution kernel's fans are its receptive field times its input/output channels). Over
    thousands of draws the largest |w| comes within 5% of that limit and never passes it."""
    presets = [("HeUniform", 2.0, "in"), ("LecunUniform", 1.0, "in"), ("GlorotUniform", 1.0, "avg")]
    shapes = [(400, 10), (10, 400), (3, 3, 40, 8)]
    cases = [(p, s) for s in shapes for p in presets]
    for (name, scale, mode), shape in budget(cases):
        receptive = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
        fan_in, fan_out = shape[-2] * receptive, shape[-1] * receptive
        n = fan_in if mode == "in" else (fan_in + fan_out) / 2
        limit = math.sqrt(3 * scale / n)
        w = _np(getattr(keras.initializers, name)(seed=3)(shape))
        top = float(np.max(np.abs(w)))
        call = f"{name}(seed=3)({shape})"
        assert_true(top <= limit * (1 + 1e-6), f"max |w| = {top}, but should be <= {limit}", call=call)
        assert_true(top >= 0.95 * limit, f"max |w| = {top}, but should be near {limit}", call=call)


@clause("keras.constraints", ref="tf221")
def test_blind16_min_max_norm_blends_the_clipped_norm_by_rate(keras, budget):
    """MinMaxNorm(min, max, rate, axis) rescales each slice to norm rate * clip(norm, min, max) +
    (1 - rate) * norm, i.e. w * that / (1e-7 + norm)."""
    w = np.array([[3.0, 0.0, 0.2], [4.0, 0.1, -0.1]], np.float32)
    for lo, hi, rate, axis in budget([(0.5, 1.0, 0.3, 0), (0.5, 1.0, 1.0, 0), (0.0, 2.0, 0.7, 1),
                                      (1.0, 3.0, 0.0, 0)]):
        w64 = w.astype(np.float64)
        norms = np.sqrt(np.sum(w64 ** 2, axis=axis, keepdims=True))
        desired = rate * np.clip(norms, lo, hi) + (1 - rate) * norms
        want = w64 * desired / (1e-7 + norms)
        got = keras.constraints.MinMaxNorm(min_value=lo, max_value=hi, rate=rate, axis=axis)(w)
        assert_close(_np(got), want, call=f"MinMaxNorm({lo}, {hi}, rate={rate}, axis={axis})(w)", tolerance=TOL32)


# -- optimizers' update rules, transcribed from Keras 3.15 ---------------------------------------------------------
def _run_optimizer(keras, tf, opt, init, grads):
    var = tf.Variable(np.array(init, np.float32))
    for g in grads:
        opt.apply_gradients([(tf.constant(np.array(g, np.float32)), var)])
    return _np(var)


def _adafactor(init, grads, lr=0.1, decay=-0.8, eps1=1e-30, eps2=1e-3, clip=1.0):
    x = np.array(init, np.float64)
    r = np.zeros(x.shape[:-1]) if x.ndim >= 2 else None
    c = np.zeros(x.shape[:-2] + x.shape[-1:]) if x.ndim >= 2 else None
    v = np.zeros(x.shape)
    rms = lambda a: math.sqrt(float(np.mean(np.square(a))))  # noqa: E731
    for t, g in enumerate(grads, start=1):
        g = np.array(g, np.float64)
        lr_t = min(lr, 1 / math.sqrt(t))
        alpha = max(eps2, rms(x)) * min(lr_t, 1 / math.sqrt(t))
        big_g = g ** 2 + eps1
        b2 = 1 - t ** decay
        if x.ndim >= 2:
            r = b2 * r + (1 - b2) * big_g.mean(-1)
            c = b2 * c + (1 - b2) * big_g.mean(-2)
            v = (r / r.mean(-1, keepdims=True))[..., None] * c[..., None, :]
        else:
            v = b2 * v + (1 - b2) * big_g
        u = g / np.sqrt(v)
        x = x - alpha * u / max(1.0, rms(u) / clip)
    return x


def _schedule_free_adamw(init, grads, lr, warmup, b1=0.9, b2=0.999, eps=1e-8):
    y = np.array(init, np.float64)
    z, v = y.copy(), np.zeros_like(y)
    for t, g in enumerate(grads, start=1):
        g = np.array(g, np.float64)
        lr_t = lr * min(t / warmup, 1.0) if warmup > 0 else lr
        v = v + (g * g - v) * (1 - b2)
        z = z - lr_t * g / (np.sqrt(v / (1 - b2 ** t)) + eps)
        w = 1.0 / t
        x_old = (y - (1 - b1) * z) / b1   # Keras 3.15 reads the momentum after its update
        y = (1 - b1) * z + b1 * ((1 - w) * x_old + w * z)
    return y


def _nadam(init, grads, lr, b1=0.9, b2=0.999, eps=1e-7):
    x = np.array(init, np.float64)
    m, v, prod = np.zeros_like(x), np.zeros_like(x), 1.0
    for t, g in enumerate(grads, start=1):
        g = np.array(g, np.float64)
        u_t, u_next = b1 * (1 - 0.5 * 0.96 ** t), b1 * (1 - 0.5 * 0.96 ** (t + 1))
        prod *= u_t
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        m_hat = u_next * m / (1 - prod * u_next) + (1 - u_t) * g / (1 - prod)
        x = x - m_hat * lr / (np.sqrt(v / (1 - b2 ** t)) + eps)
    return x


def _adamax(init, grads, lr, b1=0.9, b2=0.999, eps=1e-7):
    x = np.array(init, np.float64)
    m, u = np.zeros_like(x), np.zeros_like(x)
    for t, g in enumerate(grads, start=1):
        g = np.array(g, np.float64)
        m = m + (g - m) * (1 - b1)
        u = np.maximum(b2 * u, np.abs(g))
        x = x - lr * m / ((1 - b1 ** t) * (u + eps))
    return x


def _ftrl(init, grads, lr, l1=0.0, l2=0.0, shrink=0.0, beta=0.0, power=-0.5, acc0=0.1):
    x = np.array(init, np.float64)
    acc, lin = np.full_like(x, acc0), np.zeros_like(x)
    l2_reg = l2 + beta / (2.0 * lr)
    for g in grads:
        g = np.array(g, np.float64)
        new_acc = acc + g * g
        lin = lin + (g + 2 * shrink * x) - (new_acc ** -power - acc ** -power) / lr * x
        quad = new_acc ** -power / lr + 2 * l2_reg
        x = (np.clip(lin, -l1, l1) - lin) / quad
        acc = new_acc
    return x


@clause("optim.update-rules", ref="tf221")
def test_blind16_less_common_optimizers_follow_keras_update_rules(keras, tf, budget):
    """Adafactor (factored second moments for rank >= 2, relative step scaled by the variable's RMS),
    ScheduleFreeAdamW (warmup scales step t by t / warmup_steps), Nadam (the next step's momentum
    factor at t + 1), Adamax (the infinity norm of |g|), Ftrl (l2 and beta / 2lr doubled in the
    quadratic) over several steps, against NumPy transcriptions of Keras 3.15's update_step."""
    o = keras.optimizers
    g2 = [[[0.1, -0.2, 0.3], [0.4, 0.05, -0.6]], [[-0.3, 0.1, 0.2], [0.2, -0.4, 0.1]]]
    g1 = [[0.5, -0.3], [-0.2, 0.4], [0.3, 0.3]]
    cases = [
        ("Adafactor(0.1) rank 2", lambda: o.Adafactor(learning_rate=0.1), [[1., 2., 3.], [4., 5., 6.]], g2,
         lambda i, g: _adafactor(i, g)),
        ("Adafactor(0.1) rank 1", lambda: o.Adafactor(learning_rate=0.1), [1., 2.], g1, lambda i, g: _adafactor(i, g)),
        ("ScheduleFreeAdamW(0.1, warmup_steps=2)", lambda: o.ScheduleFreeAdamW(learning_rate=0.1, warmup_steps=2),
         [1., 2.], g1, lambda i, g: _schedule_free_adamw(i, g, 0.1, 2)),
        ("Nadam(0.1)", lambda: o.Nadam(learning_rate=0.1), [1., 2.], g1, lambda i, g: _nadam(i, g, 0.1)),
        ("Adamax(0.1)", lambda: o.Adamax(learning_rate=0.1), [1., 2.], [[-1.0, 0.5], [-0.5, -0.25], [0.2, -1.0]],
         lambda i, g: _adamax(i, g, 0.1)),
        ("Ftrl(0.1, l2=0.5)", lambda: o.Ftrl(learning_rate=0.1, l2_regularization_strength=0.5), [1., 2.], g1,
         lambda i, g: _ftrl(i, g, 0.1, l2=0.5)),
        ("Ftrl(0.1, l1=0.05, beta=0.3, l2_shrinkage=0.1)",
         lambda: o.Ftrl(learning_rate=0.1, l1_regularization_strength=0.05, beta=0.3,
                        l2_shrinkage_regularization_strength=0.1), [1., 2.], g1,
         lambda i, g: _ftrl(i, g, 0.1, l1=0.05, beta=0.3, shrink=0.1)),
    ]
    for name, make, init, grads, ref in budget(cases):
        got = _run_optimizer(keras, tf, make(), init, grads)
        assert_close(got, ref(init, grads), call=f"{name}: {len(grads)} apply_gradients", tolerance=TOL_OPT)


# -- gradients of inverse hyperbolic and inverse special functions -------------------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
def test_blind16_inverse_function_gradients(tf, budget):
    """d atanh = 1 / (1 - x^2), d asinh = 1 / sqrt(1 + x^2), d acosh = 1 / sqrt(x^2 - 1),
    d ndtri(p) = sqrt(2 pi) exp(ndtri(p)^2 / 2), d erfinv(x) = sqrt(pi) / 2 exp(erfinv(x)^2),
    d expm1 = exp(x) (the inverse special functions' values from Python's statistics.NormalDist)."""
    nd = statistics.NormalDist()
    cases = [
        ("atanh", tf.math.atanh, [-0.7, 0.0, 0.5, 0.9], lambda x: 1 / (1 - x * x)),
        ("asinh", tf.math.asinh, [-2.0, 0.0, 0.5, 3.0], lambda x: 1 / math.sqrt(1 + x * x)),
        ("acosh", tf.math.acosh, [1.5, 2.0, 4.0], lambda x: 1 / math.sqrt(x * x - 1)),
        ("ndtri", tf.math.ndtri, [0.1, 0.5, 0.8, 0.95],
         lambda p: math.sqrt(2 * math.pi) * math.exp(nd.inv_cdf(p) ** 2 / 2)),
        ("erfinv", tf.math.erfinv, [-0.6, 0.0, 0.3, 0.8],
         lambda x: math.sqrt(math.pi) / 2 * math.exp((nd.inv_cdf((x + 1) / 2) / math.sqrt(2)) ** 2)),
        ("expm1", tf.math.expm1, [-1.0, 0.0, 0.7], math.exp),
    ]
    for name, fn, xs, dfn in budget(cases):
        x = tf.constant(np.array(xs, np.float64))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        got = _np(tape.gradient(y, x))
        assert_close(got, np.array([dfn(v) for v in xs]), call=f"d/dx {name}(x) at {xs}",
                     tolerance=Tolerance(rtol=1e-9, atol=1e-12))


# -- losses and metrics ---------------------------------------------------------------------------------------------
@clause("keras.loss.functions", ref="tf221")
def test_blind16_msle_clips_at_epsilon_and_log_cosh_is_log_of_cosh(keras, budget):
    """MeanSquaredLogarithmicError clips y_pred and y_true at epsilon (1e-7) before log(1 + .), so
    negative values count as 0; LogCosh is mean(log(cosh(y_pred - y_true))) over the last axis, finite
    for large errors; the metrics of the same names average the same per-sample values."""
    y_true = np.array([[1.0, 2.0, -0.5], [0.0, 3.0, 0.5]], np.float32)
    y_pred = np.array([[-0.5, 1.0, 2.0], [0.25, -2.0, 30.0]], np.float32)
    t64, p64 = y_true.astype(np.float64), y_pred.astype(np.float64)
    msle = np.mean((np.log(np.maximum(p64, 1e-7) + 1) - np.log(np.maximum(t64, 1e-7) + 1)) ** 2, axis=-1)
    e = np.abs(p64 - t64)
    logcosh = np.mean(e + np.log1p(np.exp(-2 * e)) - math.log(2), axis=-1)
    cases = [("MeanSquaredLogarithmicError", msle), ("LogCosh", logcosh)]
    metric_names = {"MeanSquaredLogarithmicError": "MeanSquaredLogarithmicError", "LogCosh": "LogCoshError"}
    for name, per_sample in budget(cases):
        got = _np(getattr(keras.losses, name)()(y_true, y_pred))
        assert_close(got, per_sample.mean(), call=f"keras.losses.{name}()(y_true, y_pred)", tolerance=TOL32)
        metric = getattr(keras.metrics, metric_names[name])()
        metric.update_state(y_true, y_pred)
        assert_close(_np(metric.result()), per_sample.mean(), call=f"keras.metrics.{metric_names[name]}",
                     tolerance=TOL32)


@clause("keras.metric.iou", ref="tf221")
def test_blind16_iou_ignore_class_drops_the_labelled_samples(keras, budget):
    """IoU/MeanIoU(ignore_class=k) leave out the samples whose *label* is k (a prediction of k on
    another label still counts as a false positive of k and a false negative of the label)."""
    y_true = np.array([0, 1, 2, 0, 1, 2, 0, 1])
    y_pred = np.array([2, 1, 2, 0, 2, 0, 0, 1])

    def iou(ignore, ids):
        keep = y_true != ignore
        cm = np.zeros((3, 3))
        np.add.at(cm, (y_true[keep], y_pred[keep]), 1)
        tp = np.diag(cm)
        denom = cm.sum(0) + cm.sum(1) - tp
        vals = [tp[i] / denom[i] for i in ids if denom[i] > 0]
        return float(np.mean(vals)) if vals else 0.0

    cases = [("IoU", 2, [0, 1, 2]), ("IoU", 1, [0, 2]), ("MeanIoU", 2, None), ("MeanIoU", 0, None)]
    for name, ignore, ids in budget(cases):
        kw = {"target_class_ids": ids} if ids is not None else {}
        metric = getattr(keras.metrics, name)(num_classes=3, ignore_class=ignore, **kw)
        metric.update_state(y_true, y_pred)
        want = iou(ignore, ids if ids is not None else [0, 1, 2])
        assert_close(_np(metric.result()), want, call=f"{name}(num_classes=3, ignore_class={ignore}, {kw})",
                     tolerance=Tolerance(rtol=1e-5, atol=1e-6))


# -- preprocessing layers ---------------------------------------------------------------------------------------------
@clause("keras.layer.lookup", ref="tf221")
def test_blind16_discretization_lookup_and_hashing_bucket_at_their_edges(keras, tf, budget):
    """Discretization puts x in bucket i where boundaries[i-1] <= x < boundaries[i] (a value on a
    boundary goes up); StringLookup/IntegerLookup.adapt(max_tokens=n) keep n entries in all, the mask
    and OOV slots included (the most frequent tokens first); Hashing(num_bins, mask_value) sends the
    mask value to 0 and the others to 1 + their hash over num_bins - 1 bins."""
    bounds = [-1.0, 0.0, 1.0, 2.5]
    xs = np.array([[-2.0, -1.0, -0.5, 0.0], [0.5, 1.0, 2.5, 3.0]], np.float32)
    got = _np(keras.layers.Discretization(bin_boundaries=bounds)(xs))
    assert_equal(got.tolist(), np.searchsorted(bounds, xs, side="right").tolist(),
                 call=f"Discretization(bin_boundaries={bounds})(x)")
    words = ["a"] * 3 + ["b"] * 1 + ["c"] * 5 + ["d"] * 2 + ["e"] * 4
    counts = {w: words.count(w) for w in sorted(set(words))}
    by_freq = sorted(counts, key=lambda w: (-counts[w], w))
    cases = [("StringLookup", dict(max_tokens=4), ["[UNK]"]), ("StringLookup", dict(max_tokens=5, mask_token=""),
                                                              ["", "[UNK]"]),
             ("StringLookup", dict(max_tokens=5, num_oov_indices=2), ["[UNK]", "[UNK]"]),
             ("IntegerLookup", dict(max_tokens=4), [-1])]
    for name, kw, special in budget(cases):
        layer = getattr(keras.layers, name)(**kw)
        data = words if name == "StringLookup" else [ord(w) for w in words]
        layer.adapt(np.array(data))
        vocab = [v.decode() if isinstance(v, bytes) else (v if isinstance(v, str) else int(v))
                 for v in layer.get_vocabulary()]
        learned = by_freq if name == "StringLookup" else [ord(w) for w in by_freq]
        want = special + learned[:kw["max_tokens"] - len(special)]
        assert_equal(vocab, want, call=f"{name}({kw}).adapt({len(words)} tokens).get_vocabulary()")
        assert_equal(layer.vocabulary_size(), kw["max_tokens"], call=f"{name}({kw}).vocabulary_size()")
    values = tf.constant(["", "a", "b", "c", "d", "e", "f", "g", ""])
    for bins in budget([3, 5]):
        masked = _np(keras.layers.Hashing(num_bins=bins, mask_value="")(values)).reshape(-1)
        plain = _np(keras.layers.Hashing(num_bins=bins - 1)(values)).reshape(-1)
        want = np.where(_np(values).reshape(-1) == b"", 0, plain + 1)
        assert_equal(masked.tolist(), want.tolist(), call=f"Hashing(num_bins={bins}, mask_value='')(x)")


# -- keras.utils data tools --------------------------------------------------------------------------------------------
@clause("keras.utils.data-tools", ref="tf221")
def test_blind16_data_tools_window_split_and_pad_at_the_right_ends(keras, budget):
    """timeseries_dataset_from_array yields a window for every start i (step sequence_stride) with
    i + (sequence_length - 1) * sampling_rate < the length, the last element included;
    split_dataset's right part is the last right_size samples (even when left + right < the length);
    pad_sequences truncates 'pre' at the front (keeping the last maxlen) and 'post' at the back."""
    cases = [(10, 3, 1, 1), (10, 3, 2, 1), (12, 4, 1, 2), (9, 2, 3, 2)]
    for n, length, stride, rate in budget(cases):
        data = np.arange(n)
        ds = keras.utils.timeseries_dataset_from_array(data, None, sequence_length=length, sequence_stride=stride,
                                                       sampling_rate=rate, batch_size=None)
        got = [list(map(int, _np(w))) for w in ds]
        starts = range(0, n - (length - 1) * rate, stride)
        want = [[int(v) for v in data[i:i + length * rate:rate]] for i in starts]
        assert_equal(got, want, call=f"timeseries_dataset_from_array(arange({n}), None, sequence_length={length}, "
                                     f"sequence_stride={stride}, sampling_rate={rate}, batch_size=None)")
    for left, right in budget([(3, 4), (0.2, 0.5), (5, None), (None, 0.3)]):
        parts = keras.utils.split_dataset(np.arange(10), left_size=left, right_size=right)
        got = [[int(_np(v)) for v in p] for p in parts]
        nl = None if left is None else (round(left * 10) if isinstance(left, float) else left)
        nr = None if right is None else (round(right * 10) if isinstance(right, float) else right)
        nl = 10 - nr if nl is None else nl
        nr = 10 - nl if nr is None else nr
        want = [list(range(nl)), list(range(10 - nr, 10))]
        assert_equal(got, want, call=f"split_dataset(arange(10), left_size={left}, right_size={right})")
    seqs = [[1, 2, 3, 4, 5], [6, 7], [8]]
    for padding, truncating in budget([("pre", "pre"), ("post", "post"), ("pre", "post"), ("post", "pre")]):
        got = keras.utils.pad_sequences(seqs, maxlen=3, padding=padding, truncating=truncating).tolist()
        want = []
        for s in seqs:
            t = s[-3:] if truncating == "pre" else s[:3]
            pad = [0] * (3 - len(t))
            want.append(pad + t if padding == "pre" else t + pad)
        assert_equal(got, want, call=f"pad_sequences({seqs}, maxlen=3, padding={padding!r}, "
                                     f"truncating={truncating!r})")


# -- configs, cloning, saving, checkpoints -------------------------------------------------------------------------
@clause("optim.config-round-trip", ref="tf221")
def test_blind16_schedules_round_trip_through_their_config(keras, budget):
    """Every learning-rate schedule rebuilt by from_config(get_config()) gives the same rate at
    every step, warmup and restart options included."""
    s = keras.optimizers.schedules
    cases = [("CosineDecay(warmup)", lambda: s.CosineDecay(0.1, 10, alpha=0.1, warmup_target=1.0, warmup_steps=5)),
             ("CosineDecayRestarts", lambda: s.CosineDecayRestarts(0.5, 4, t_mul=2.0, m_mul=0.5, alpha=0.1)),
             ("ExponentialDecay", lambda: s.ExponentialDecay(0.5, 3, 0.5, staircase=True)),
             ("PolynomialDecay", lambda: s.PolynomialDecay(0.5, 4, 0.1, power=2.0, cycle=True)),
             ("InverseTimeDecay", lambda: s.InverseTimeDecay(0.5, 2, 0.5, staircase=True)),
             ("PiecewiseConstantDecay", lambda: s.PiecewiseConstantDecay([2, 5], [0.5, 0.2, 0.1]))]
    for name, make in budget(cases):
        sched = make()
        clone = type(sched).from_config(sched.get_config())
        steps = [0, 1, 3, 5, 7, 12]
        got = [float(_np(clone(t))) for t in steps]
        want = [float(_np(sched(t))) for t in steps]
        assert_close(got, want, call=f"{name}: from_config(get_config()) at steps {steps}", tolerance=TOL32)


@clause("keras.models.clone", ref="tf221")
def test_blind16_clone_model_keeps_the_frozen_state(keras, budget):
    """clone_model keeps each layer's trainable flag (a frozen model's clone has no trainable
    weights) and a Sequential model's own `trainable`; a functional clone is a new Functional
    whose own flag is True (Keras 3.15 builds it without `trainable`), though its layers stay frozen."""
    def sequential():
        return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)])

    def functional():
        x = keras.Input((3,))
        return keras.Model(x, keras.layers.Dense(1)(keras.layers.Dense(2)(x)))

    for name, make, frozen in budget([("Sequential", sequential, True), ("functional", functional, True),
                                      ("Sequential", sequential, False)]):
        model = make()
        model.trainable = not frozen
        clone = keras.models.clone_model(model)
        call = f"clone_model({name} with trainable={not frozen})"
        assert_equal(clone.trainable, model.trainable if name == "Sequential" else True, call=call,
                     what="trainable")
        assert_equal([la.trainable for la in clone.layers if la.weights],
                     [la.trainable for la in model.layers if la.weights], call=call,
                     what="the trainable flags of the layers with weights")
        assert_equal(len(clone.trainable_weights), len(model.trainable_weights), call=call,
                     what="len(trainable_weights)")


@clause("keras.saving.keras-file", ref="tf221")
def test_blind16_load_model_recompiles_with_the_saved_compile_arguments(keras, budget):
    """A .keras file's compile_config carries steps_per_execution: load_model recompiles with it."""
    for spe in budget([3, 1, 2]):
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse", steps_per_execution=spe)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "m.keras")
            model.save(path)
            loaded = keras.models.load_model(path)
        assert_equal(loaded.steps_per_execution, spe, call=f"load_model(a model compiled with steps_per_execution={spe})",
                     what="steps_per_execution")


@clause("checkpoint.save-counter", ref="tf221")
def test_blind16_checkpoint_manager_counts_numbered_saves(tf, budget):
    """CheckpointManager.save advances the checkpoint's save_counter whether or not a
    checkpoint_number is given; an unnumbered save is named after the counter."""
    for numbers in budget([[5, None], [None, 9, None], [7, 8]]):
        ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
        with tempfile.TemporaryDirectory() as d:
            manager = tf.train.CheckpointManager(ckpt, d, max_to_keep=5)
            names = []
            for i, number in enumerate(numbers, start=1):
                path = manager.save(checkpoint_number=number)
                names.append(os.path.basename(path))
                assert_equal(int(_np(ckpt.save_counter)), i, call=f"manager.save(checkpoint_number=...) x{i} of "
                             f"{numbers}", what="save_counter")
        want = [f"ckpt-{n if n is not None else i}" for i, n in enumerate(numbers, start=1)]
        assert_equal(names, want, call=f"CheckpointManager.save with checkpoint_number in {numbers}",
                     what="checkpoint names")


# -- fit loop: progress bar, steps_per_execution and LambdaCallback hooks -------------------------------------------
def _small_model(keras, spe=1):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer="sgd", loss="mse", steps_per_execution=spe)
    return model


@clause("keras.fit.progress-bar", ref="tf221")
def test_blind16_progress_bar_prints_epoch_lines_only_for_several_epochs(keras, budget):
    """fit(verbose=1 or 2) prints an 'Epoch i/n' line before each epoch only when epochs > 1."""
    x, y = np.ones((4, 2), np.float32), np.ones((4, 1), np.float32)
    for epochs, verbose in budget([(1, 2), (2, 2), (1, 1), (3, 1)]):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            _small_model(keras).fit(x, y, epochs=epochs, verbose=verbose)
        text = buf.getvalue()
        got = [line.strip() for line in text.replace("\r", "\n").splitlines() if line.strip().startswith("Epoch ")]
        want = [f"Epoch {i}/{epochs}" for i in range(1, epochs + 1)] if epochs > 1 else []
        assert_equal(got, want, call=f"fit(epochs={epochs}, verbose={verbose})", what="'Epoch i/n' lines")


@clause("keras.fit.callback-hooks", ref="tf221")
def test_blind16_batch_hooks_with_steps_per_execution_and_lambda_callback_hooks(keras, budget):
    """With steps_per_execution k, fit/evaluate/predict call the batch-begin hooks with the first
    step of each execution (0, k, 2k, ...) and the batch-end hooks with its last (k - 1, 2k - 1, ...);
    LambdaCallback takes any hook as a keyword argument (on_test_begin, on_predict_batch_end, ...)."""
    x, y = np.ones((8, 2), np.float32), np.ones((8, 1), np.float32)
    for k in budget([2, 4, 1]):
        rec = {h: [] for h in ("train_begin", "train_end", "test_begin", "test_end", "predict_begin", "predict_end")}
        cb = keras.callbacks.LambdaCallback(
            on_train_batch_begin=lambda b, logs: rec["train_begin"].append(b),
            on_train_batch_end=lambda b, logs: rec["train_end"].append(b),
            on_test_batch_begin=lambda b, logs: rec["test_begin"].append(b),
            on_test_batch_end=lambda b, logs: rec["test_end"].append(b),
            on_predict_batch_begin=lambda b, logs: rec["predict_begin"].append(b),
            on_predict_batch_end=lambda b, logs: rec["predict_end"].append(b))
        model = _small_model(keras, spe=k)
        model.fit(x, y, batch_size=1, epochs=1, verbose=0, callbacks=[cb])
        model.evaluate(x, y, batch_size=1, verbose=0, callbacks=[cb])
        model.predict(x, batch_size=1, verbose=0, callbacks=[cb])
        begins, ends = list(range(0, 8, k)), list(range(k - 1, 8, k))
        for hook in ("train", "test", "predict"):
            assert_equal(rec[f"{hook}_begin"], begins, call=f"steps_per_execution={k}, 8 batches",
                         what=f"on_{hook}_batch_begin indices")
            assert_equal(rec[f"{hook}_end"], ends, call=f"steps_per_execution={k}, 8 batches",
                         what=f"on_{hook}_batch_end indices")
    seen = []
    hooks = ["on_test_begin", "on_test_end", "on_predict_begin", "on_predict_end", "on_test_batch_end"]
    cb = keras.callbacks.LambdaCallback(**{h: (lambda h: lambda *a, **kw: seen.append(h))(h) for h in hooks})
    model = _small_model(keras)
    model.evaluate(x, y, batch_size=8, verbose=0, callbacks=[cb])
    model.predict(x, batch_size=8, verbose=0, callbacks=[cb])
    assert_equal(seen, ["on_test_begin", "on_test_batch_end", "on_test_end", "on_predict_begin", "on_predict_end"],
                 call=f"LambdaCallback({', '.join(hooks)}) through evaluate and predict", what="hooks called")


@clause("keras.fit.callbacks", ref="tf221")
def test_blind16_callback_hooks_get_batch_logs_by_keyword_and_epoch_logs_by_position(keras, budget):
    """fit/evaluate/predict call a callback's batch hooks as hook(batch, logs=logs) and its epoch and
    begin/end hooks as hook(epoch, logs) / hook(logs): a batch hook taking **kwargs receives `logs`,
    an epoch or begin/end hook may name its logs parameter anything."""
    calls = []

    class Recorder(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, **kwargs):
            calls.append(("on_train_batch_end", batch, sorted(kwargs)))

        def on_test_batch_begin(self, batch, **kwargs):
            calls.append(("on_test_batch_begin", batch, sorted(kwargs)))

        def on_predict_batch_end(self, batch, **kwargs):
            calls.append(("on_predict_batch_end", batch, sorted(kwargs)))

        def on_epoch_end(self, epoch, epoch_logs):
            calls.append(("on_epoch_end", epoch, sorted(epoch_logs)))

        def on_train_begin(self, state):
            calls.append(("on_train_begin", None, sorted(state or {})))

        def on_test_end(self, final):
            calls.append(("on_test_end", None, sorted(final)))

    x, y = np.ones((4, 2), np.float32), np.ones((4, 1), np.float32)
    model = _small_model(keras)
    for method in budget(["fit", "evaluate", "predict"]):
        calls.clear()
        if method == "fit":
            model.fit(x, y, batch_size=2, epochs=1, verbose=0, callbacks=[Recorder()])
            want = [("on_train_begin", None, []), ("on_train_batch_end", 0, ["logs"]),
                    ("on_train_batch_end", 1, ["logs"]), ("on_epoch_end", 0, ["loss"])]
        elif method == "evaluate":
            model.evaluate(x, y, batch_size=2, verbose=0, callbacks=[Recorder()])
            want = [("on_test_batch_begin", 0, ["logs"]), ("on_test_batch_begin", 1, ["logs"]),
                    ("on_test_end", None, ["loss"])]
        else:
            model.predict(x, batch_size=2, verbose=0, callbacks=[Recorder()])
            want = [("on_predict_batch_end", 0, ["logs"]), ("on_predict_batch_end", 1, ["logs"])]
        assert_equal(calls, want, call=f"model.{method}(callbacks=[a Callback with **kwargs batch hooks and "
                                       "renamed logs parameters])", what="hook calls (hook, index, arguments)")
