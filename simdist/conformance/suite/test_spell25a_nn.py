"""Spelling sweep 25 (issue 29): tf.nn's rules through every spelling of the call.

- normalization: tf.nn.batch_normalization with offset/scale None or explicit zeros/ones, positional or
  keyword, keras.ops.batch_normalization on another axis, and keras.layers.BatchNormalization(center=False,
  scale=False) at inference, against NumPy's (x - mean) / sqrt(var + eps) * scale + offset;
- softmax/log_softmax on every axis, positive and negative, of rank-3 and rank-4 inputs, as tf.nn, tf.math,
  keras.ops, keras.activations and keras.layers.Softmax spell them, float32 and float16 logits large
  enough (up to 15) that a float16 exp overflows, against NumPy's max-shifted float64 transcription;
- pooling: 1-D pooling by rank (tf.nn.max_pool/avg_pool of a rank-3 input), tf.nn.max_pool1d/avg_pool1d,
  tf.nn.pool with and without strides, and keras MaxPooling1D/AveragePooling1D, windows and strides given
  as ints and lists, VALID and SAME, against NumPy's sliding windows (SAME averages over the in-bounds
  elements);
- dropout's rate as a Python float, a 0-d tensor and a NumPy scalar (the same mask for the same seeds, the
  kept values x / (1 - rate));
- cross-entropies through tf.nn, keras.losses' functions, classes, get(), deserialize and from_config, and
  keras.ops, with one-hot, soft, int and float labels, from logits and from probabilities;
- moments through tf.nn.moments, weighted_moments and keras.ops.moments on positive and negative axes, and
  BatchNormalization's training-mode math; depthwise and separable convolutions through tf.nn, keras.ops and
  the Keras layers.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=2e-5, atol=2e-6)
TOL16 = Tolerance(rtol=4e-3, atol=4e-3)

_X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75], [-2.0, 3.0, 1.0], [0.0, 1.25, -0.5]], np.float32)
_MEAN = np.array([0.25, 0.75, -0.5], np.float32)
_VAR = np.array([0.5, 2.0, 0.1], np.float32)
_OFF = np.array([1.0, -0.5, 0.25], np.float32)
_SCALE = np.array([2.0, 0.5, -1.5], np.float32)
EPS = 1e-3


def _bn(x, mean, var, off, scale, eps=EPS):
    x, mean, var = (np.asarray(v, np.float64) for v in (x, mean, var))
    y = (x - mean) / np.sqrt(var + eps)
    y = y * (1.0 if scale is None else np.asarray(scale, np.float64))
    return y + (0.0 if off is None else np.asarray(off, np.float64))


@clause("ops.nn-statistics")
def test_spell25a_batch_normalization_every_spelling(tf, keras):
    """tf.nn.batch_normalization(x, mean, var, offset, scale, eps) with offset and scale each None or given
    (zeros/ones and other values), positionally and by keyword; keras.ops.batch_normalization(axis=-1 and
    axis=0 of the transposed input); keras.layers.BatchNormalization with center/scale off and on at
    inference with set moving statistics: all equal NumPy's (x - mean) / sqrt(var + eps) * scale + offset."""
    x, m, v = tf.constant(_X), tf.constant(_MEAN), tf.constant(_VAR)
    for oname, off in (("None", None), ("zeros", np.zeros(3, np.float32)), ("values", _OFF)):
        for sname, scale in (("None", None), ("ones", np.ones(3, np.float32)), ("values", _SCALE)):
            want = _bn(_X, _MEAN, _VAR, off, scale)
            o = None if off is None else tf.constant(off)
            s = None if scale is None else tf.constant(scale)
            call = f"tf.nn.batch_normalization(offset={oname}, scale={sname})"
            assert_close(tf.nn.batch_normalization(x, m, v, o, s, EPS), want, tolerance=TOL, call=call + " positional")
            assert_close(tf.nn.batch_normalization(x=x, mean=m, variance=v, offset=o, scale=s, variance_epsilon=EPS),
                         want, tolerance=TOL, call=call + " by keyword")
            kops = keras.ops.batch_normalization(x, m, v, axis=-1, offset=o, scale=s, epsilon=EPS)
            assert_close(kops, want, tolerance=TOL, call=f"keras.ops.batch_normalization(axis=-1, offset={oname}, "
                         f"scale={sname})")
            kops0 = keras.ops.batch_normalization(tf.transpose(x), m, v, axis=0, offset=o, scale=s, epsilon=EPS)
            assert_close(kops0, want.T, tolerance=TOL, call=f"keras.ops.batch_normalization(x.T, axis=0, "
                         f"offset={oname}, scale={sname})")
    for center in (False, True):
        for scale_on in (False, True):
            layer = keras.layers.BatchNormalization(center=center, scale=scale_on, epsilon=EPS)
            layer.build((None, 3))
            weights = ([_SCALE] if scale_on else []) + ([_OFF] if center else []) + [_MEAN, _VAR]
            layer.set_weights(weights)
            want = _bn(_X, _MEAN, _VAR, _OFF if center else None, _SCALE if scale_on else None)
            assert_close(layer(x, training=False), want, tolerance=TOL,
                         call=f"keras.layers.BatchNormalization(center={center}, scale={scale_on}) at inference")


def _np_log_softmax(x, axis):
    x = np.asarray(x, np.float64)
    z = x - x.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


@clause("nn.softmax-eigen")
def test_spell25a_softmax_and_log_softmax_on_every_axis_and_spelling(tf, keras):
    """softmax and log_softmax of a (2, 3, 4) and a (2, 2, 3, 2) input on every axis, positive and negative,
    through tf.nn, tf.math, keras.ops, keras.activations and keras.layers.Softmax (softmax only), in float32
    and in float16 with logits up to 15 (exp(15) overflows float16): NumPy's max-shifted float64 values."""
    rng = np.random.default_rng(25)
    failures = []
    for shape in ((2, 3, 4), (2, 2, 3, 2)):
        base = rng.uniform(-15.0, 15.0, size=shape)
        for dtype in ("float32", "float16"):
            xv = base.astype(dtype)
            x = tf.constant(xv)
            tol = TOL16 if dtype == "float16" else TOL
            for axis in range(-len(shape), len(shape)):
                lsm = _np_log_softmax(xv, axis)
                spellings = {
                    "tf.nn.log_softmax": (lambda: tf.nn.log_softmax(x, axis=axis), lsm),
                    "tf.math.log_softmax": (lambda: tf.math.log_softmax(x, axis), lsm),
                    "keras.ops.log_softmax": (lambda: keras.ops.log_softmax(x, axis=axis), lsm),
                    "keras.activations.log_softmax": (lambda: keras.activations.log_softmax(x, axis=axis), lsm),
                    "tf.nn.softmax": (lambda: tf.nn.softmax(x, axis=axis), np.exp(lsm)),
                    "tf.math.softmax": (lambda: tf.math.softmax(x, axis), np.exp(lsm)),
                    "keras.ops.softmax": (lambda: keras.ops.softmax(x, axis=axis), np.exp(lsm)),
                    "keras.activations.softmax": (lambda: keras.activations.softmax(x, axis=axis), np.exp(lsm)),
                    "keras.layers.Softmax": (lambda: keras.layers.Softmax(axis=axis)(x), np.exp(lsm)),
                }
                for name, (fn, want) in spellings.items():
                    got = to_numpy(fn()).astype(np.float64)
                    ok = got.shape == want.shape and np.allclose(got, want, rtol=tol.rtol, atol=tol.atol)
                    if not ok:
                        failures.append(f"{name}(x {dtype} {shape}, axis={axis}): {got.ravel()[:4]}, but should be "
                                        f"{want.ravel()[:4]}")
    assert_true(not failures, f"{len(failures)} spellings differ from NumPy: " + "; ".join(failures[:4]),
                call="softmax/log_softmax axis spellings")


def _np_pool(x, k, s, padding, kind):
    """1-D pooling of (batch, width, channels) x: windows of k, stride s; SAME pads as TF (the extra on the
    right) and averages over the in-bounds elements."""
    w = x.shape[1]
    if padding == "VALID":
        out_w, before = (w - k) // s + 1, 0
    else:
        out_w = -(-w // s)
        before = max((out_w - 1) * s + k - w, 0) // 2
    outs = []
    for o in range(out_w):
        lo = o * s - before
        win = x[:, max(lo, 0):min(lo + k, w), :].astype(np.float64)
        outs.append(win.max(axis=1) if kind == "MAX" else win.mean(axis=1))
    return np.stack(outs, axis=1)


@clause("ops.nn-composites")
def test_spell25a_one_d_pooling_every_spelling(tf, keras):
    """1-D max and average pooling of a (2, 9, 2) input, window 3 and strides 1 and 2 (VALID and SAME):
    tf.nn.max_pool/avg_pool by rank (ksize and strides as ints and as lists), tf.nn.max_pool1d/avg_pool1d,
    tf.nn.pool (strides given, and strides=None meaning 1), keras MaxPooling1D/AveragePooling1D: NumPy's
    sliding windows."""
    xv = (np.arange(36, dtype=np.float32).reshape(2, 9, 2) * 7 % 11 - 5.0) / 2.0
    x = tf.constant(xv)
    for kind in ("MAX", "AVG"):
        generic = tf.nn.max_pool if kind == "MAX" else tf.nn.avg_pool
        one_d = tf.nn.max_pool1d if kind == "MAX" else tf.nn.avg_pool1d
        layer = keras.layers.MaxPooling1D if kind == "MAX" else keras.layers.AveragePooling1D
        for s in (1, 2):
            for padding in ("VALID", "SAME"):
                want = _np_pool(xv, 3, s, padding, kind)
                spellings = {
                    f"tf.nn.{kind.lower()}_pool(rank 3, 3, {s})": lambda: generic(x, 3, s, padding),
                    f"tf.nn.{kind.lower()}_pool(rank 3, [3], [{s}])": lambda: generic(x, [3], [s], padding),
                    f"tf.nn.{kind.lower()}_pool1d(3, {s})": lambda: one_d(x, 3, s, padding),
                    f"tf.nn.pool([3], {kind!r}, strides=[{s}])": lambda: tf.nn.pool(x, [3], kind, strides=[s],
                                                                                    padding=padding),
                    f"keras {layer.__name__}(3, strides={s})": lambda: layer(3, strides=s, padding=padding.lower())(x),
                }
                if s == 1:
                    spellings[f"tf.nn.pool([3], {kind!r}) strides=None"] = lambda: tf.nn.pool(x, [3], kind,
                                                                                               padding=padding)
                for name, fn in spellings.items():
                    assert_close(fn(), want, tolerance=TOL, call=f"{name}, padding={padding}")


@clause("nn.dropout-seeding")
def test_spell25a_dropout_rate_spellings_share_one_mask(tf):
    """tf.nn.dropout(x, rate, seed=3) under the global seed 5, rate 0.4 as a Python float, a 0-d float32
    tensor and a NumPy float32 scalar: the same mask for each (the seeds decide it), every kept value
    x / (1 - rate), about 1 - rate of the 600 values kept."""
    xv = (np.arange(600, dtype=np.float32).reshape(20, 30) % 17 + 1.0) / 4.0
    x = tf.constant(xv)
    masks = {}
    for name, rate in (("python float", 0.4), ("0-d tensor", tf.constant(0.4)), ("numpy float32", np.float32(0.4))):
        tf.random.set_seed(5)
        out = to_numpy(tf.nn.dropout(x, rate, seed=3)).astype(np.float64)
        kept = out != 0
        call = f"tf.nn.dropout(x, rate={name} 0.4, seed=3)"
        assert_close(out[kept], xv[kept] / (1 - 0.4), tolerance=TOL, what="kept values", call=call)
        frac = kept.mean()
        assert_true(0.5 < frac < 0.7, f"kept fraction {frac:.3f}, but should be about 0.6", call=call)
        masks[name] = kept
    for name, m in masks.items():
        assert_equal(m, masks["python float"], what="mask", call=f"tf.nn.dropout rate as {name} vs a Python float")


def _np_xent(labels_onehot, logits, axis=-1):
    return -(labels_onehot * _np_log_softmax(logits, axis)).sum(axis=axis)


def _np_sigmoid_xent(labels, logits):
    x, z = np.asarray(logits, np.float64), np.asarray(labels, np.float64)
    return np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x)))


@clause("nn.loss-formulas")
def test_spell25a_cross_entropies_every_spelling(tf, keras):
    """Per-example cross-entropies of one batch through tf.nn (softmax_cross_entropy_with_logits with one-hot
    and soft labels, sparse_softmax_cross_entropy_with_logits with int32/int64 labels,
    sigmoid_cross_entropy_with_logits), keras.losses' functions, classes (reduction=None), get() of the string,
    deserialize and from_config(get_config()), keras.ops, and from_logits=False on softmax/sigmoid
    probabilities: all equal NumPy's -sum(p log softmax(z)) and max(z, 0) - z y + log1p(exp(-|z|))."""
    rng = np.random.default_rng(2525)
    z = rng.uniform(-4.0, 4.0, size=(5, 4)).astype(np.float32)
    cls = np.array([3, 0, 2, 2, 1])
    onehot = np.eye(4, dtype=np.float32)[cls]
    soft = rng.uniform(0.1, 1.0, size=(5, 4)).astype(np.float32)
    soft /= soft.sum(-1, keepdims=True)
    yb = rng.uniform(0.0, 1.0, size=(5, 4)).astype(np.float32)
    zt, p, sig = tf.constant(z), tf.nn.softmax(tf.constant(z)), tf.sigmoid(tf.constant(z))
    want_cce, want_soft, want_bce = _np_xent(onehot, z), _np_xent(soft, z), _np_sigmoid_xent(yb, z)
    L = keras.losses

    def classes(name, **kw):
        c = getattr(L, name)(reduction=None, **kw)
        return {f"{name}(reduction=None)": c, f"deserialize(serialize({name}))": L.deserialize(L.serialize(c)),
                f"{name}.from_config(get_config())": getattr(L, name).from_config(c.get_config())}

    cases = [
        ("tf.nn.softmax_cross_entropy_with_logits(one-hot)",
         tf.nn.softmax_cross_entropy_with_logits(labels=onehot, logits=zt), want_cce),
        ("tf.nn.softmax_cross_entropy_with_logits(soft)",
         tf.nn.softmax_cross_entropy_with_logits(labels=soft, logits=zt), want_soft),
        ("tf.nn.sparse_softmax_cross_entropy_with_logits(int32)",
         tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant(cls, tf.int32), logits=zt), want_cce),
        ("tf.nn.sparse_softmax_cross_entropy_with_logits(int64)",
         tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant(cls, tf.int64), logits=zt), want_cce),
        ("tf.nn.sigmoid_cross_entropy_with_logits", tf.reduce_mean(
            tf.nn.sigmoid_cross_entropy_with_logits(labels=yb, logits=zt), -1), want_bce.mean(-1)),
        ("keras.losses.categorical_crossentropy(from_logits)",
         L.categorical_crossentropy(onehot, zt, from_logits=True), want_cce),
        ("keras.losses.categorical_crossentropy(probabilities)", L.categorical_crossentropy(soft, p), want_soft),
        ("keras.losses.get('categorical_crossentropy')(probabilities)",
         L.get("categorical_crossentropy")(onehot, p), want_cce),
        ("keras.losses.sparse_categorical_crossentropy(int labels, from_logits)",
         L.sparse_categorical_crossentropy(cls, zt, from_logits=True), want_cce),
        ("keras.losses.sparse_categorical_crossentropy(float labels, probabilities)",
         L.sparse_categorical_crossentropy(cls.astype(np.float32), p), want_cce),
        ("keras.losses.get('sparse_categorical_crossentropy')",
         L.get("sparse_categorical_crossentropy")(cls, p), want_cce),
        ("keras.losses.binary_crossentropy(from_logits)", L.binary_crossentropy(yb, zt, from_logits=True),
         want_bce.mean(-1)),
        ("keras.losses.binary_crossentropy(probabilities)", L.binary_crossentropy(yb, sig), want_bce.mean(-1)),
        ("keras.losses.get('binary_crossentropy')", L.get("binary_crossentropy")(yb, sig), want_bce.mean(-1)),
        ("keras.ops.categorical_crossentropy(from_logits)",
         keras.ops.categorical_crossentropy(onehot, zt, from_logits=True), want_cce),
        ("keras.ops.sparse_categorical_crossentropy(from_logits)",
         keras.ops.sparse_categorical_crossentropy(cls, zt, from_logits=True), want_cce),
        ("keras.ops.binary_crossentropy(from_logits)",
         keras.ops.binary_crossentropy(yb, zt, from_logits=True), want_bce),
    ]
    for name, c in classes("CategoricalCrossentropy", from_logits=True).items():
        cases.append((name, c(onehot, zt), want_cce))
    for name, c in classes("SparseCategoricalCrossentropy", from_logits=True).items():
        cases.append((name, c(cls, zt), want_cce))
    for name, c in classes("BinaryCrossentropy", from_logits=True).items():
        cases.append((name, c(yb, zt), want_bce.mean(-1)))
    tol = Tolerance(rtol=1e-4, atol=1e-5)   # (keras clips probabilities to [eps, 1 - eps])
    for name, got, want in cases:
        assert_close(got, want, tolerance=tol, call=name)


@clause("ops.nn-statistics")
def test_spell25a_moments_every_spelling_and_batchnorm_training(tf, keras):
    """Mean and (biased) variance of a (4, 3, 2) input over axes [0], [0, 1], [-1] and [-3, -2]: tf.nn.moments
    (keepdims both ways, axes as a list and a tuple), tf.nn.weighted_moments with unit weights, keras.ops.moments;
    and keras.layers.BatchNormalization(training=True) normalizes with the batch's moments over every axis but
    the last and moves its moving statistics by momentum 0.9 (Keras 3 moves the moving variance by the biased
    batch variance): all NumPy."""
    rng = np.random.default_rng(77)
    xv = rng.uniform(-3.0, 3.0, size=(4, 3, 2)).astype(np.float32)
    x = tf.constant(xv)
    for axes in ([0], [0, 1], [-1], [-3, -2]):
        for keep in (False, True):
            mean = xv.astype(np.float64).mean(tuple(axes), keepdims=keep)
            var = xv.astype(np.float64).var(tuple(axes), keepdims=keep)
            spellings = {
                "tf.nn.moments(list)": lambda: tf.nn.moments(x, axes, keepdims=keep),
                "tf.nn.moments(tuple)": lambda: tf.nn.moments(x, tuple(axes), keepdims=keep),
                "tf.nn.weighted_moments(ones)": lambda: tf.nn.weighted_moments(x, axes, tf.ones_like(x), keepdims=keep),
                "keras.ops.moments": lambda: keras.ops.moments(x, axes, keepdims=keep),
            }
            for name, fn in spellings.items():
                m, v = fn()
                call = f"{name}(x (4, 3, 2), axes={axes}, keepdims={keep})"
                assert_close(m, mean, tolerance=TOL, what="mean", call=call)
                assert_close(v, var, tolerance=TOL, what="variance", call=call)
    layer = keras.layers.BatchNormalization(momentum=0.9, epsilon=EPS)
    out = layer(x, training=True)
    mean, var = xv.astype(np.float64).mean((0, 1)), xv.astype(np.float64).var((0, 1))
    assert_close(out, (xv - mean) / np.sqrt(var + EPS), tolerance=TOL,
                 call="keras.layers.BatchNormalization()(x (4, 3, 2), training=True)")
    assert_close(layer.moving_mean, 0.1 * mean, tolerance=TOL, what="moving_mean",
                 call="BatchNormalization(momentum=0.9) after one training call")
    assert_close(layer.moving_variance, 0.9 + 0.1 * var, tolerance=TOL, what="moving_variance",
                 call="BatchNormalization(momentum=0.9) after one training call")


def _np_depthwise(x, f, stride, mult):
    """VALID depthwise conv of NHWC x with filter (kh, kw, c, mult): out channel c * mult + m."""
    b, h, w, c = x.shape
    kh, kw = f.shape[:2]
    oh, ow = (h - kh) // stride + 1, (w - kw) // stride + 1
    out = np.zeros((b, oh, ow, c * mult))
    for i in range(oh):
        for j in range(ow):
            win = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw, :].astype(np.float64)
            for m in range(mult):
                out[:, i, j, m::mult] = np.einsum("bhwc,hwc->bc", win, f[:, :, :, m])
    return out


@clause("keras.layer.depthwise-separable")
def test_spell25a_depthwise_and_separable_conv_every_spelling(tf, keras):
    """A VALID depthwise convolution of a (2, 5, 4, 3) input with a (2, 3, 3, 2) filter, strides 1 and 2:
    tf.nn.depthwise_conv2d (strides as a 4-list), keras.layers.DepthwiseConv2D with that kernel and no bias,
    keras.ops.depthwise_conv; and tf.nn.separable_conv2d / keras.layers.SeparableConv2D with a (1, 1, 6, 4)
    pointwise filter: NumPy's sums over each window (the pointwise a matmul of the depthwise result)."""
    rng = np.random.default_rng(5)
    xv = rng.uniform(-1, 1, size=(2, 5, 4, 3)).astype(np.float32)
    fv = rng.uniform(-1, 1, size=(2, 3, 3, 2)).astype(np.float32)
    pv = rng.uniform(-1, 1, size=(1, 1, 6, 4)).astype(np.float32)
    x = tf.constant(xv)
    for s in (1, 2):
        want = _np_depthwise(xv, fv, s, 2)
        dw = keras.layers.DepthwiseConv2D((2, 3), strides=s, depth_multiplier=2, use_bias=False)
        dw.build((None, 5, 4, 3))
        dw.set_weights([fv])
        sp = keras.layers.SeparableConv2D(4, (2, 3), strides=s, depth_multiplier=2, use_bias=False)
        sp.build((None, 5, 4, 3))
        sp.set_weights([fv, pv])
        spellings = {
            "tf.nn.depthwise_conv2d": (tf.nn.depthwise_conv2d(x, fv, [1, s, s, 1], "VALID"), want),
            "keras.layers.DepthwiseConv2D": (dw(x), want),
            "keras.ops.depthwise_conv": (keras.ops.depthwise_conv(x, fv, strides=s, padding="valid"), want),
            "tf.nn.separable_conv2d": (tf.nn.separable_conv2d(x, fv, pv, [1, s, s, 1], "VALID"), want @ pv[0, 0]),
            "keras.layers.SeparableConv2D": (sp(x), want @ pv[0, 0]),
        }
        for name, (got, w) in spellings.items():
            assert_close(got, w, tolerance=TOL, call=f"{name}(strides={s}, VALID)")
