"""Gaps the eighth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): options and behaviours no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug: gradients of ops under a signed
upstream gradient or a non-default option (offsets, SAME-padded 3-D windows, non-symmetric
matrices), a tape's reset, a random Generator's ranges, frozen and masked BatchNormalization,
attention masks on every axis, initializer fans, dilations of 1-D separable convolutions, the
order of returned states, dropout masks across calls, metric options, weighted metrics through
save and load, sparse optimizer slots with repeated rows, weight-decay exclusions by name, a
loss-scale optimizer's changing scale, fit's data options and callbacks driven epoch by epoch.
Every expected value is computed here with NumPy (or a Python transcription of Keras 3.15's
rule), never with the backend's own implementation of the same rule.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.values import distinct_values as _x, grid as _grid

clause = pytest.mark.clause
TOL = Tolerance(rtol=1e-5, atol=1e-6)
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


# -- op gradients under options the gradient table leaves at their defaults -------------------------------
_CLS_X = np.array([[0.3, -1.2, 0.8, 2.0, -0.5], [1.1, 0.4, -0.9, 0.0, 0.6]])
_CLS_W = np.array([[1.0, -2.0, 0.5, -0.7, 1.5], [-0.3, 0.8, -1.1, 2.0, -0.4]])


def _cumulative_logsumexp_grad(x, w, axis, reverse):
    """d/dx of sum(w * log(cumsum(exp(x)))) (inclusive), by the chain rule in float64."""
    x, w = np.moveaxis(x, axis, -1), np.moveaxis(w, axis, -1)
    if reverse:
        x, w = x[..., ::-1], w[..., ::-1]
    out = np.log(np.cumsum(np.exp(x), axis=-1))
    n = x.shape[-1]
    g = np.zeros_like(x)
    for j in range(n):
        g[..., j] = sum(w[..., i] * np.exp(x[..., j] - out[..., i]) for i in range(j, n))
    if reverse:
        g = g[..., ::-1]
    return np.moveaxis(g, -1, axis)


def _cumulative_logsumexp_gradient_with_signed_upstream(tf, axis, reverse):
    """The gradient of sum(w * cumulative_logsumexp(x, axis, reverse)) with weights of both signs:
    the upstream gradient's negative part enters with its sign (TF carries both parts in log space)."""
    x = tf.constant(_CLS_X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.constant(_CLS_W) * tf.math.cumulative_logsumexp(x, axis=axis, reverse=reverse))
    assert_close(tape.gradient(y, x), _cumulative_logsumexp_grad(_CLS_X, _CLS_W, axis, reverse),
                 call=f"d/dx sum(w * cumulative_logsumexp(x, axis={axis}, reverse={reverse}))", what="dx",
                 tolerance=TOL)

@clause("autodiff.op-gradients", ref="tf221")
def test_blind8_cumulative_logsumexp_gradient_with_signed_upstream(tf, budget):
    for case in budget(_grid(("axis", [0, 1]), ("reverse", [False, True]))):
        _cumulative_logsumexp_gradient_with_signed_upstream(tf, **case)


def _slogdet_gradient_is_the_inverse_transposed(tf, batched):
    """d log|det A| / dA = inv(A)^T, for non-symmetric matrices of either determinant sign."""
    a = np.array([[[2.0, 1.0, 0.5], [-1.0, 3.0, 0.2], [0.4, -2.0, 1.5]],
                  [[0.5, 2.0, -1.0], [1.5, -0.3, 0.7], [-0.6, 1.2, 0.9]]])
    a = a if batched else a[1]
    x = tf.constant(a)
    with tf.GradientTape() as tape:
        tape.watch(x)
        _, logabsdet = tf.linalg.slogdet(x)
        y = tf.reduce_sum(logabsdet)
    assert_close(tape.gradient(y, x), np.swapaxes(np.linalg.inv(a), -1, -2),
                 call=f"d/dA log|det A| (A of shape {a.shape})", what="dA", tolerance=TOL)

@clause("autodiff.op-gradients", ref="tf221")
def test_blind8_slogdet_gradient_is_the_inverse_transposed(tf, budget):
    for case in budget(_grid(("batched", [False, True]))):
        _slogdet_gradient_is_the_inverse_transposed(tf, **case)


def _avg_pool3d_grad(shape, w, k, s, padding):
    """The gradient of sum(w * avg_pool3d(x)) at x of `shape` (N, D, H, W, C): each window's weight
    shared among its in-bounds cells (SAME pads after, as TF: total max((o-1)s + k - n, 0), half before)."""
    n, dims, c = shape[0], shape[1:4], shape[4]
    outs, pads = [], []
    for d in dims:
        o = -(-d // s) if padding == "SAME" else (d - k) // s + 1
        outs.append(o)
        pads.append(max((o - 1) * s + k - d, 0) // 2 if padding == "SAME" else 0)
    g = np.zeros(shape)
    for idx in np.ndindex(*outs):
        ranges = []
        for i, o_i in enumerate(idx):
            start = o_i * s - pads[i]
            ranges.append(range(max(start, 0), min(start + k, dims[i])))
        count = len(ranges[0]) * len(ranges[1]) * len(ranges[2])
        for a in ranges[0]:
            for b in ranges[1]:
                for cc in ranges[2]:
                    g[:, a, b, cc, :] += w[:, idx[0], idx[1], idx[2], :] / count
    return g


def _avg_pool3d_gradient_counts_the_in_bounds_cells(tf, k, s, padding):
    """avg_pool3d's gradient: a window at a SAME-padded edge averages (and so shares its gradient
    among) only the cells inside the input."""
    shape = (1, 3, 5, 4, 2)
    x = tf.constant(_x(shape))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.avg_pool3d(x, ksize=k, strides=s, padding=padding)
        w = _x(tuple(y.shape.as_list()), scale=1.3) + 2.0
        total = tf.reduce_sum(y * tf.constant(w))
    assert_close(tape.gradient(total, x), _avg_pool3d_grad(shape, w.astype(np.float64), k, s, padding),
                 call=f"d/dx sum(w * avg_pool3d(x, ksize={k}, strides={s}, padding={padding!r}))", what="dx",
                 tolerance=TOL32)

@clause("autodiff.op-gradients", ref="tf221")
def test_blind8_avg_pool3d_gradient_counts_the_in_bounds_cells(tf, budget):
    for case in budget(_grid(("k,s,padding", [(2, 2, "SAME"), (3, 2, "SAME"), (2, 1, "VALID")]))):
        _avg_pool3d_gradient_counts_the_in_bounds_cells(tf, **case)


def _diag_part_gradient_lands_on_its_own_diagonal(tf, k):
    """tf.linalg.diag_part(x, k): the gradient goes back to the k-th diagonal it read."""
    a = _x((3, 4), dtype=np.float64)
    rows = [(i, i + k) for i in range(3) if 0 <= i + k < 4]
    w = np.arange(1.0, len(rows) + 1.0) * np.where(np.arange(len(rows)) % 2 == 0, 1.0, -1.0)
    expect = np.zeros((3, 4))
    for (i, j), wi in zip(rows, w):
        expect[i, j] = wi
    x = tf.constant(a)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.linalg.diag_part(x, k=k) * tf.constant(w))
    assert_close(tape.gradient(y, x), expect, call=f"d/dx sum(w * diag_part(x, k={k}))", what="dx", tolerance=TOL)

@clause("autodiff.op-gradients", ref="tf221")
def test_blind8_diag_part_gradient_lands_on_its_own_diagonal(tf, budget):
    for case in budget(_grid(("k", [1, -1, 2, -2]))):
        _diag_part_gradient_lands_on_its_own_diagonal(tf, **case)


def _tape_reset_forgets_records_and_watches(tf, persistent):
    """After tape.reset() only what ran after the reset is differentiated: a product computed before
    counts as a constant, and a tensor watched before is no longer watched (its gradient is None);
    variables read after the reset are watched again."""
    x = tf.Variable(2.0)
    c = tf.constant(5.0)
    with tf.GradientTape(persistent=persistent) as tape:
        tape.watch(c)
        y1 = x * x * c
        tape.reset()
        y2 = 3.0 * x
        total = y1 + y2
    gx, gc = tape.gradient(total, [x, c])
    assert_close(gx, 3.0, call="tape.reset() between x*x*c and 3*x; d(total)/dx", what="dx", tolerance=TOL)
    assert_true(gc is None, f"d(total)/dc = {gc}, but should be None: c was watched before tape.reset() only")

@clause("autodiff.stop-recording", ref="tf221")
def test_blind8_tape_reset_forgets_records_and_watches(tf, budget):
    for case in budget(_grid(("persistent", [False, True]))):
        _tape_reset_forgets_records_and_watches(tf, **case)


# -- tf.random.Generator: ranges and parameters --------------------------------------------------------------
@clause("ops.random-generator", ref="tf221")
def test_blind8_generator_draws_respect_their_parameters(tf):
    """Generator.uniform(minval, maxval) lies in [minval, maxval); normal and truncated_normal
    have the mean and stddev asked for (truncated within 2 stddev); make_seeds(n) is [2, n] int64
    with the keys in row 0 and zeros in row 1."""
    g = tf.random.Generator.from_seed(1234)
    u = np.asarray(g.uniform([4000], minval=-3.0, maxval=-1.0))
    assert_true(u.min() >= -3.0 and u.max() < -1.0, f"uniform(minval=-3, maxval=-1) drew values in "
                f"[{u.min()}, {u.max()}], but should lie in [-3, -1)")
    assert_close(u.mean(), -2.0, call="uniform(minval=-3, maxval=-1).mean() over 4000 draws",
                 tolerance=Tolerance(rtol=0, atol=0.06))
    ui = np.asarray(g.uniform([4000], minval=5, maxval=9, dtype=tf.int64))
    assert_equal(sorted(set(ui.tolist())), [5, 6, 7, 8], call="uniform(minval=5, maxval=9, int64) values")
    t = np.asarray(g.truncated_normal([4000], mean=5.0, stddev=0.5), np.float64)
    assert_true(t.min() >= 4.0 and t.max() <= 6.0, f"truncated_normal(mean=5, stddev=0.5) drew values in "
                f"[{t.min()}, {t.max()}], but should lie within 2 stddev of the mean, [4, 6]")
    assert_close(t.mean(), 5.0, call="truncated_normal(mean=5, stddev=0.5).mean()",
                 tolerance=Tolerance(rtol=0, atol=0.03))
    nrm = np.asarray(g.normal([4000], mean=-1.0, stddev=3.0), np.float64)
    assert_close([nrm.mean(), nrm.std()], [-1.0, 3.0], call="normal(mean=-1, stddev=3): mean and std of 4000",
                 tolerance=Tolerance(rtol=0, atol=0.2))
    seeds = g.make_seeds(4)
    s = np.asarray(seeds)
    assert_equal(s.shape, (2, 4), call="make_seeds(4).shape")
    assert_true(seeds.dtype == tf.int64, f"make_seeds(4).dtype={seeds.dtype}, but should be int64")
    assert_equal(s[1].tolist(), [0, 0, 0, 0], call="make_seeds(4)[1] (TF: the second row is zeros)")
    assert_true(len(set(s[0].tolist())) == 4, f"make_seeds(4)[0]={s[0].tolist()}: 4 different keys expected")


# -- BatchNormalization: frozen, masked ------------------------------------------------------------------------
_BN_W = [np.array([1.5, 0.5, 2.0], np.float32), np.array([0.1, -0.2, 0.3], np.float32),
         np.array([0.5, -1.0, 0.2], np.float32), np.array([2.0, 0.5, 1.5], np.float32)]


def _frozen_batchnorm_runs_in_inference_mode(tf, keras, trainable):
    """BatchNormalization(trainable=False) called with training=True normalises by its moving
    statistics and leaves them alone (Keras 3: `training and self.trainable`); trainable, it uses
    the batch's (population variance) and moves the statistics by 1 - momentum."""
    x = _x((6, 3), scale=2.0) + np.array([0.3, -0.5, 1.0], np.float32)
    bn = keras.layers.BatchNormalization(momentum=0.9, epsilon=1e-3)
    bn.build((None, 3))
    bn.set_weights(_BN_W)
    bn.trainable = trainable
    y = bn(tf.constant(x), training=True)
    gamma, beta, mm, mv = (w.astype(np.float64) for w in _BN_W)
    xd = x.astype(np.float64)
    if trainable:
        mean, var = xd.mean(0), xd.var(0)
        new_mm, new_mv = mm * 0.9 + mean * 0.1, mv * 0.9 + var * 0.1
    else:
        mean, var, new_mm, new_mv = mm, mv, mm, mv
    call = f"BatchNormalization(momentum=0.9, trainable={trainable})(x, training=True)"
    assert_close(y, (xd - mean) / np.sqrt(var + 1e-3) * gamma + beta, call=call, what="y", tolerance=TOL32)
    w = bn.get_weights()
    assert_close(w[2], new_mm, call=call, what="moving_mean after", tolerance=TOL32)
    assert_close(w[3], new_mv, call=call, what="moving_variance after", tolerance=TOL32)

@clause("keras.layer.batchnorm", ref="tf221")
def test_blind8_frozen_batchnorm_runs_in_inference_mode(tf, keras, budget):
    for case in budget(_grid(("trainable", [True, False]))):
        _frozen_batchnorm_runs_in_inference_mode(tf, keras, **case)


def _masked_batchnorm_moments_count_only_unmasked_entries(tf, keras, axis):
    """BatchNormalization(x, mask=...) in training: the mean and the variance are sums over the
    unmasked positions divided by their count (+ Keras's epsilon 1e-7); every position, masked or
    not, is normalised by them."""
    x = _x((2, 4, 3), scale=2.0) + np.array([0.5, -1.0, 2.0], np.float32)
    if axis == 1:
        x = np.ascontiguousarray(np.swapaxes(x, 1, 2))       # (2, 3, 4): features on axis 1
    mask = np.array([[True, True, False, True], [False, True, True, False]])
    bn = keras.layers.BatchNormalization(axis=axis, momentum=0.5, epsilon=1e-3)
    y = bn(tf.constant(x), training=True, mask=tf.constant(mask if axis == -1 else mask[:, :3]))
    xd = x.astype(np.float64)
    if axis == -1:
        m = np.broadcast_to(mask[..., None], x.shape)
        red = (0, 1)
    else:
        m = np.broadcast_to(mask[:, :3, None], x.shape)
        red = (0, 2)
    count = m.sum(axis=red, keepdims=True)
    mean = np.where(m, xd, 0).sum(axis=red, keepdims=True) / (count + 1e-7)
    var = np.where(m, (xd - mean) ** 2, 0).sum(axis=red, keepdims=True) / (count + 1e-7)
    call = f"BatchNormalization(axis={axis})(x, training=True, mask=...)"
    assert_close(y, (xd - mean) / np.sqrt(var + 1e-3), call=call, what="y", tolerance=TOL32)
    assert_close(bn.moving_variance, 0.5 * 1.0 + 0.5 * var.reshape(-1), call=call, what="moving_variance",
                 tolerance=TOL32)

@clause("keras.layer.batchnorm", ref="tf221")
def test_blind8_masked_batchnorm_moments_count_only_unmasked_entries(tf, keras, budget):
    for case in budget(_grid(("axis", [-1, 1]))):
        _masked_batchnorm_moments_count_only_unmasked_entries(tf, keras, **case)


# -- MultiHeadAttention: value/key/query masks and sliding windows --------------------------------------------
def _mha_reference(weights, query, value, key, keep, key_dim):
    """Keras's MultiHeadAttention forward in NumPy: EinsumDense projections, scores / sqrt(key_dim),
    masked positions at a large negative before the softmax over the keys, the output projection."""
    wq, bq, wk, bk, wv, bv, wo, bo = (np.asarray(w, np.float64) for w in weights)
    q = np.einsum("btd,dnh->btnh", query, wq) + bq
    k = np.einsum("bsd,dnh->bsnh", key, wk) + bk
    v = np.einsum("bsd,dnh->bsnh", value, wv) + bv
    scores = np.einsum("btnh,bsnh->bnts", q, k) / np.sqrt(key_dim)
    scores = np.where(keep[:, None], scores, -1e9)
    p = np.exp(scores - scores.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    p = np.where(keep[:, None], p, 0.0)     # Keras's masked Softmax multiplies by the mask: a hidden row is 0
    out = np.einsum("bnts,bsnh->btnh", p, v)
    return np.einsum("btnh,nhd->btd", out, wo) + bo, p


_MHA_CASES = [("value_mask", True), ("key_mask", False), ("query_keras_mask_and_value_mask", True),
              ("query_mask_argument_ignored", False), ("window1", True), ("window2_value_mask", False)]


def _attention_masks_hide_keys_on_their_own_axis(tf, keras, case, scores):
    """A value (or key) mask hides key columns, a query's Keras mask hides query rows (a fully
    hidden row's scores are all 0: Keras's masked Softmax multiplies by the mask), sliding_window=w keeps |t - s| < w; T != S where the mask shapes
    allow, so a mask on the wrong axis cannot broadcast into the right answer. (TF 2.21: a
    `query_mask=` argument is ignored; the query's own Keras mask replaces it.)"""
    window = {"window1": 1, "window2_value_mask": 2}.get(case)
    t_len, s_len = (4, 4) if window else (3, 5)
    query = _x((2, t_len, 4), scale=0.8)
    value = _x((2, s_len, 4), scale=1.1)[:, ::-1].copy()
    key = _x((2, s_len, 4), scale=0.6) + 0.25 if case == "key_mask" else value
    vmask = np.array([[True, False, True, True, False][:s_len], [False, True, True, False, True][:s_len]])
    qmask = np.array([[True, False, True][:t_len], [True, True, False][:t_len]])
    keep = np.ones((2, t_len, s_len), bool)
    kwargs = {}
    q_in = tf.constant(query)
    if case in ("value_mask", "query_keras_mask_and_value_mask", "window2_value_mask"):
        kwargs["value_mask"] = tf.constant(vmask)
        keep &= vmask[:, None, :]
    if case == "key_mask":
        kwargs["key"], kwargs["key_mask"] = tf.constant(key), tf.constant(vmask)
        keep &= vmask[:, None, :]
    if case == "query_keras_mask_and_value_mask":
        query = np.where(qmask[..., None], query, 0.0).astype(np.float32)
        q_in = keras.layers.Masking(mask_value=0.0)(tf.constant(query))
        keep &= qmask[:, :, None]
    if case == "query_mask_argument_ignored":
        kwargs["query_mask"] = tf.constant(qmask)
    if window:
        keep &= np.abs(np.arange(t_len)[:, None] - np.arange(s_len)[None, :]) < window
    mha = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3, sliding_window=window)
    got = mha(q_in, tf.constant(value), return_attention_scores=scores, **kwargs)
    out, probs = _mha_reference(mha.get_weights(), query.astype(np.float64), value.astype(np.float64),
                                np.asarray(key, np.float64), keep, 3)
    call = f"MultiHeadAttention(num_heads=2, key_dim=3, sliding_window={window})(q, v, {sorted(kwargs)}) [{case}]"
    if scores:
        assert_close(got[1], probs, call=call, what="attention_scores", tolerance=Tolerance(rtol=1e-4, atol=1e-6))
        got = got[0]
    assert_close(got, out, call=call, what="output", tolerance=Tolerance(rtol=1e-4, atol=1e-5))

@clause("keras.mha.masks", ref="tf221")
def test_blind8_attention_masks_hide_keys_on_their_own_axis(tf, keras, budget):
    for case in budget(_grid(("case,scores", _MHA_CASES))):
        _attention_masks_hide_keys_on_their_own_axis(tf, keras, **case)


# -- EinsumDense and SeparableConv1D options ----------------------------------------------------------------
def _einsum_dense_gives_its_initializer_the_equations_fans(tf, keras, mode, equation, out_shape, fans):
    """EinsumDense's VarianceScaling kernel initializer takes fan_in from the kernel's input axes and
    fan_out from its output axes (uniform: |w| <= sqrt(3 * scale / fan), and 10^4 draws reach
    within 10% of that limit)."""
    in_shape = (None, 20) if equation == "ab,bc->ac" else ((None, 5, 20) if equation == "abc,cde->abde"
                                                          else (None, 5, 20))
    init = keras.initializers.VarianceScaling(scale=2.0, mode=mode, distribution="uniform", seed=7)
    layer = keras.layers.EinsumDense(equation, output_shape=out_shape, kernel_initializer=init)
    layer.build(in_shape)
    w = np.asarray(layer.kernel)
    limit = np.sqrt(3 * 2.0 / (fans[0] if mode == "fan_in" else fans[1]))
    got = float(np.abs(w).max())
    assert_true(0.9 * limit <= got <= limit * (1 + 1e-6),
                f"EinsumDense({equation!r}, output_shape={out_shape}) with VarianceScaling(mode={mode!r}): "
                f"max|kernel|={got:.4f}, but should be within [0.9, 1] x {limit:.4f} (fan_in, fan_out = {fans})")

@clause("keras.layer.option-coverage", ref="tf221")
def test_blind8_einsum_dense_gives_its_initializer_the_equations_fans(tf, keras, budget):
    for case in budget(_grid(("mode", ["fan_in", "fan_out"]), ("equation,out_shape,fans", [("ab,bc->ac", 600, (20, 600)),
                                                     ("abc,cde->abde", (5, 30, 20), (20, 600)),
                                                     ("abc,bcd->ad", 30, (100, 30))]))):
        _einsum_dense_gives_its_initializer_the_equations_fans(tf, keras, **case)


def _separable_conv1d(x, dk, pk, bias, dilation, padding):
    """Depthwise (channel c, multiplier m -> output channel c * dm + m) then pointwise, in float64."""
    n, length, cin = x.shape
    k, _, dm = dk.shape
    span = (k - 1) * dilation
    if padding == "same":
        left = span // 2
        x = np.pad(x, ((0, 0), (left, span - left), (0, 0)))
    out_len = x.shape[1] - span
    d = np.zeros((n, out_len, cin * dm))
    for t in range(out_len):
        for c in range(cin):
            for m in range(dm):
                d[:, t, c * dm + m] = sum(x[:, t + j * dilation, c] * dk[j, c, m] for j in range(k))
    return d @ pk[0] + bias


def _separable_conv1d_dilates_its_steps(tf, keras, dilation, padding):
    """SeparableConv1D(filters=3, kernel_size=3, dilation_rate=d, depth_multiplier=2, padding) on
    (1, 10, 2) inputs, against a NumPy depthwise-then-pointwise convolution with the layer's weights."""
    layer = keras.layers.SeparableConv1D(3, 3, dilation_rate=dilation, depth_multiplier=2, padding=padding)
    layer.build((None, 10, 2))
    dk, pk, b = _x((3, 2, 2), 0.9), _x((1, 4, 3), 0.7) + 0.1, np.array([0.1, -0.2, 0.3], np.float32)
    layer.set_weights([dk, pk, b])
    x = _x((1, 10, 2), 1.3)
    got = layer(tf.constant(x))
    assert_close(got, _separable_conv1d(x.astype(np.float64), dk.astype(np.float64), pk.astype(np.float64), b,
                                        dilation, padding),
                 call=f"SeparableConv1D(3, 3, dilation_rate={dilation}, depth_multiplier=2, padding={padding!r})",
                 what="out", tolerance=TOL32)

@clause("keras.layer.depthwise-separable", ref="tf221")
def test_blind8_separable_conv1d_dilates_its_steps(tf, keras, budget):
    for case in budget(_grid(("dilation", [1, 2, 3]), ("padding", ["valid", "same"]))):
        _separable_conv1d_dilates_its_steps(tf, keras, **case)


# -- recurrent layers: the order of returned states, dropout masks across calls --------------------------------
def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _lstm_reference(x, kernel, rec, bias):
    """Keras's LSTM cell over the steps (gates i, f, c, o), float64: every h and the last c."""
    units = rec.shape[0]
    h, c = np.zeros((x.shape[0], units)), np.zeros((x.shape[0], units))
    hs = []
    for t in range(x.shape[1]):
        z = x[:, t] @ kernel + h @ rec + bias
        i, f, cc, o = (z[:, j * units:(j + 1) * units] for j in range(4))
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(cc)
        h = _sigmoid(o) * np.tanh(c)
        hs.append(h)
    return np.stack(hs, 1), h, c


def _lstm_returns_h_then_c(tf, keras, return_sequences, go_backwards):
    """LSTM(return_state=True) returns (output, h, c): h is the last output, c the cell state
    (NumPy LSTM with the layer's weights); a GRU's one state is its last output."""
    x = _x((2, 4, 3), 0.9)
    lstm = keras.layers.LSTM(2, return_state=True, return_sequences=return_sequences, go_backwards=go_backwards)
    out, h, c = lstm(tf.constant(x))
    kernel, rec, bias = (np.asarray(w, np.float64) for w in lstm.get_weights())
    xs = x[:, ::-1] if go_backwards else x
    seq, h_ref, c_ref = _lstm_reference(xs.astype(np.float64), kernel, rec, bias)
    call = f"LSTM(2, return_state=True, return_sequences={return_sequences}, go_backwards={go_backwards})"
    assert_close(out, seq if return_sequences else h_ref, call=call, what="output", tolerance=TOL32)
    assert_close(h, h_ref, call=call, what="states[0] (h)", tolerance=TOL32)
    assert_close(c, c_ref, call=call, what="states[1] (c)", tolerance=TOL32)
    gru = keras.layers.GRU(2, return_state=True, return_sequences=return_sequences)
    gout, gstate = gru(tf.constant(x))
    last = np.asarray(gout)[:, -1] if return_sequences else np.asarray(gout)
    assert_close(gstate, last, call=f"GRU(2, return_state=True, return_sequences={return_sequences})",
                 what="state (the last output)", tolerance=TOL)

@clause("keras.rnn.layers", ref="tf221")
def test_blind8_lstm_returns_h_then_c(tf, keras, budget):
    for case in budget(_grid(("return_sequences,go_backwards", [(False, False), (True, True)]))):
        _lstm_returns_h_then_c(tf, keras, **case)


def _recurrent_dropout_masks_are_drawn_per_call(tf, keras, layer):
    """A recurrent layer with dropout draws new masks at each call in training (the masks of one
    call are cleared when it ends), so two training calls on the same input differ; inference
    calls use no dropout and agree."""
    rnn = getattr(keras.layers, layer)(4, dropout=0.5, recurrent_dropout=0.5, seed=3)
    x = tf.constant(_x((3, 5, 2)) + 1.0)
    a, b = np.asarray(rnn(x, training=True)), np.asarray(rnn(x, training=True))
    assert_true(np.abs(a - b).max() > 1e-4, f"{layer}(dropout=0.5, recurrent_dropout=0.5): two training calls "
                f"gave the same output {a.tolist()}: the dropout masks should be drawn again for each call")
    c, d = np.asarray(rnn(x, training=False)), np.asarray(rnn(x, training=False))
    assert_close(c, d, call=f"{layer}(dropout=0.5)(x, training=False) twice", what="out", tolerance=TOL)

@clause("keras.rnn.dropout", ref="tf221")
def test_blind8_recurrent_dropout_masks_are_drawn_per_call(tf, keras, budget):
    for case in budget(_grid(("layer", ["SimpleRNN", "LSTM", "GRU"]))):
        _recurrent_dropout_masks_are_drawn_per_call(tf, keras, **case)


# -- metrics ------------------------------------------------------------------------------------------------
_SC_LOGITS = np.array([[1.0, 2.0, 0.5], [0.0, 0.3, 0.0], [3.0, -1.0, 0.2], [0.3, 0.1, -0.4], [0.7, -0.2, 1.9]],
                      np.float32)
_SC_Y = np.array([2, 1, 0, 2, 1])


def _sparse_crossentropy_metric_ignores_its_class(tf, keras, ignore_class):
    """metrics.SparseCategoricalCrossentropy(from_logits=True, ignore_class=k): entries labelled k
    add 0 but still count in the mean (TF 2.21: the sum over the other entries over all entries)."""
    z = _SC_LOGITS.astype(np.float64)
    ce = -(z - np.log(np.exp(z).sum(-1, keepdims=True)))[np.arange(5), _SC_Y]
    keep = np.ones(5, bool) if ignore_class is None else _SC_Y != ignore_class
    m = keras.metrics.SparseCategoricalCrossentropy(from_logits=True, ignore_class=ignore_class)
    m.update_state(_SC_Y, tf.constant(_SC_LOGITS))
    assert_close(m.result(), np.where(keep, ce, 0.0).sum() / 5,
                 call=f"metrics.SparseCategoricalCrossentropy(ignore_class={ignore_class})", what="result()",
                 tolerance=TOL)

@clause("keras.metric.option-coverage", ref="tf221")
def test_blind8_sparse_crossentropy_metric_ignores_its_class(tf, keras, budget):
    for case in budget(_grid(("ignore_class", [None, 2, 1]))):
        _sparse_crossentropy_metric_ignores_its_class(tf, keras, **case)


def _sparse_top_k_from_sorted_ids_reads_the_first_k_ids(tf, keras, k):
    """SparseTopKCategoricalAccuracy(k, from_sorted_ids=True): y_pred holds class ids sorted by
    score; a sample counts when its label is among the first k."""
    ids = np.array([[2, 0, 1, 3], [1, 2, 0, 3], [3, 1, 2, 0], [0, 3, 1, 2]], np.int32)
    y = np.array([0, 0, 2, 2])
    m = keras.metrics.SparseTopKCategoricalAccuracy(k=k, from_sorted_ids=True)
    m.update_state(y, tf.constant(ids))
    expect = np.mean([y[i] in ids[i, :k] for i in range(4)])
    assert_close(m.result(), expect, call=f"SparseTopKCategoricalAccuracy(k={k}, from_sorted_ids=True)",
                 what="result()", tolerance=TOL)

@clause("keras.metric.top-k", ref="tf221")
def test_blind8_sparse_top_k_from_sorted_ids_reads_the_first_k_ids(tf, keras, budget):
    for case in budget(_grid(("k", [1, 2, 3]))):
        _sparse_top_k_from_sorted_ids_reads_the_first_k_ids(tf, keras, **case)


def _linear_model(keras, weights=(np.array([[0.5], [-1.0], [0.25]], np.float32), np.array([0.1], np.float32))):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.set_weights(list(weights))
    return model


_FX = _x((10, 3), 1.4)
_FY = (np.arange(10, dtype=np.float32) % 3 - 1.0).reshape(10, 1)


def _residuals():
    return (_FX.astype(np.float64) @ np.array([[0.5], [-1.0], [0.25]]) + 0.1 - _FY)[:, 0]


@clause("keras.compile.loss-weights", ref="tf221")
def test_blind8_weighted_metrics_take_the_sample_weights_through_save_and_load(tf, keras):
    """compile(metrics=[...], weighted_metrics=[...]): evaluate with sample_weight weighs only the
    weighted metrics (the loss always); a .keras file keeps both lists, so the loaded model's
    evaluate gives the same numbers."""
    w = np.array([1.0, 0.0, 2.0, 0.5, 1.0, 3.0, 0.25, 1.0, 0.0, 2.0], np.float32)
    e = _residuals()
    expect = {"loss": float((w * e ** 2).sum() / 10), "mae_plain": float(np.abs(e).mean()),
              "mae_weighted": float((w * np.abs(e)).sum() / w.sum())}
    model = _linear_model(keras)
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse",
                  metrics=[keras.metrics.MeanAbsoluteError(name="mae_plain")],
                  weighted_metrics=[keras.metrics.MeanAbsoluteError(name="mae_weighted")])
    got = model.evaluate(_FX, _FY, sample_weight=w, batch_size=10, verbose=0, return_dict=True)
    for name, value in expect.items():
        assert_close(got[name], value, call="evaluate(x, y, sample_weight=w)", what=f"logs[{name!r}]", tolerance=TOL)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.keras")
        model.save(path)
        loaded = keras.models.load_model(path)
    got = loaded.evaluate(_FX, _FY, sample_weight=w, batch_size=10, verbose=0, return_dict=True)
    for name, value in expect.items():
        assert_close(got[name], value, call="load_model(path).evaluate(x, y, sample_weight=w)", what=f"logs[{name!r}]",
                     tolerance=TOL)


# -- optimizers: sparse slots with repeated rows, weight-decay exclusions, loss scaling ------------------------
_EMB0 = _x((5, 2), 0.8)
_IDS = np.array([1, 1, 3, 1])
_COEF = np.array([[0.5, -1.0], [1.5, 0.25], [-0.75, 2.0], [1.0, 1.0]], np.float32)


def _sparse_step_reference(name):
    """One step on the rows an Embedding gathered [1, 1, 3, 1] with per-occurrence gradients: slot
    updates square each occurrence (Keras's sparse square) and add them up."""
    s1 = np.zeros((5, 2))
    s2 = np.zeros((5, 2))
    for i, r in enumerate(_IDS):
        s1[r] += _COEF[i]
        s2[r] += _COEF[i].astype(np.float64) ** 2
    e = _EMB0.astype(np.float64)
    if name == "Adagrad":
        acc = 0.1 + s2
        return e - 0.1 * s1 / np.sqrt(acc + 1e-7)
    if name == "RMSprop":
        v = 0.1 * s2
        return e - 0.1 * s1 / np.sqrt(v + 1e-7)
    m, v = 0.1 * s1, 0.001 * s2                                    # Adam, t = 1
    alpha = 0.1 * np.sqrt(1 - 0.999) / (1 - 0.9)
    return e - m * alpha / (np.sqrt(v) + 1e-7)


def _sparse_slots_square_each_repeated_row(tf, keras, name):
    """An Embedding's gradient (IndexedSlices with row 1 three times): the squared-gradient slots of
    Adagrad, RMSprop and Adam add the square of each occurrence, not the square of their sum."""
    opt = {"Adagrad": lambda: keras.optimizers.Adagrad(0.1, initial_accumulator_value=0.1),
           "RMSprop": lambda: keras.optimizers.RMSprop(0.1, rho=0.9),
           "Adam": lambda: keras.optimizers.Adam(0.1)}[name]()
    emb = keras.layers.Embedding(5, 2)
    emb.build()
    emb.set_weights([_EMB0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(emb(tf.constant(_IDS)) * tf.constant(_COEF))
    grads = tape.gradient(loss, emb.trainable_variables)
    opt.apply_gradients(zip(grads, emb.trainable_variables))
    assert_close(emb.get_weights()[0], _sparse_step_reference(name),
                 call=f"{name}: one step on Embedding rows [1, 1, 3, 1]", what="embeddings", tolerance=TOL32)

@clause("optim.sparse-updates", ref="tf221")
def test_blind8_sparse_slots_square_each_repeated_row(tf, keras, budget):
    for case in budget(_grid(("name", ["Adagrad", "RMSprop", "Adam"]))):
        _sparse_slots_square_each_repeated_row(tf, keras, **case)


def _weight_decay_exclusions_match_anywhere_in_the_name(tf, keras, pattern, excluded):
    """exclude_from_weight_decay(var_names=[p]) skips every variable whose name contains p
    (re.search), wherever in the name."""
    names = ("kernel", "recurrent_kernel", "my_bias")
    init = {n: np.array([1.0, -2.0], np.float32) * (i + 1) for i, n in enumerate(names)}
    vs = [keras.Variable(init[n], name=n) for n in names]
    opt = keras.optimizers.SGD(learning_rate=0.1, weight_decay=0.5)
    opt.exclude_from_weight_decay(var_names=[pattern])
    opt.apply_gradients([(tf.zeros([2]), v) for v in vs])
    for n, v in zip(names, vs):
        want = init[n] if n in excluded else init[n] * (1 - 0.1 * 0.5)
        assert_close(v, want, call=f"SGD(weight_decay=0.5).exclude_from_weight_decay(var_names=[{pattern!r}])",
                     what=f"{n} after a zero-gradient step", tolerance=TOL)

@clause("optim.option-coverage", ref="tf221")
def test_blind8_weight_decay_exclusions_match_anywhere_in_the_name(tf, keras, budget):
    for case in budget(_grid(("pattern,excluded", [("kernel", ("kernel", "recurrent_kernel")), ("bias", ("my_bias",)),
                                              ("rec", ("recurrent_kernel",)), ("nel", ("kernel", "recurrent_kernel"))]))):
        _weight_decay_exclusions_match_anywhere_in_the_name(tf, keras, **case)


def _loss_scale_optimizer_unscales_by_the_current_scale(tf, keras, growth_steps):
    """LossScaleOptimizer(SGD(0.1), initial_scale=4, dynamic_growth_steps=g): the scale doubles after
    every g finite steps, and each step divides the gradients of the scaled loss by the scale of
    that step, so the weights follow plain SGD: w <- 0.8 w for loss sum(w^2)."""
    w = keras.Variable(np.array([1.0, -2.0], np.float32))
    opt = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.1), initial_scale=4.0,
                                             dynamic_growth_steps=growth_steps)
    expect, scale = np.array([1.0, -2.0]), 4.0
    for step in range(5):
        with tf.GradientTape() as tape:
            scaled = opt.scale_loss(tf.reduce_sum(tf.square(w)))
        opt.apply_gradients(zip(tape.gradient(scaled, [w]), [w]))
        expect = expect * 0.8
        scale = scale * 2 if (step + 1) % growth_steps == 0 else scale
        call = f"LossScaleOptimizer(SGD(0.1), initial_scale=4, dynamic_growth_steps={growth_steps}), step {step + 1}"
        assert_close(w, expect, call=call, what="w", tolerance=TOL32)
        assert_close(opt.dynamic_scale, scale, call=call, what="dynamic_scale", tolerance=TOL)

@clause("keras.mixed-precision.loss-scale", ref="tf221")
def test_blind8_loss_scale_optimizer_unscales_by_the_current_scale(tf, keras, budget):
    for case in budget(_grid(("growth_steps", [1, 2]))):
        _loss_scale_optimizer_unscales_by_the_current_scale(tf, keras, **case)


# -- fit's data: validation_split, class_weight, evaluate's batch weighting ------------------------------------
def _compiled(keras):
    model = _linear_model(keras)
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse")
    return model


def _validation_split_takes_the_floor_complement(tf, keras, split):
    """fit(validation_split=f) trains on the first floor(n * (1 - f)) samples and validates on the
    rest (n = 10: 0.25 -> 7 + 3, 0.35 -> 6 + 4); with a learning rate of 0 the logged losses are the
    two parts' mean squared errors."""
    e2 = _residuals() ** 2
    cut = int(np.floor(10 * (1 - split)))
    hist = _compiled(keras).fit(_FX, _FY, validation_split=split, batch_size=16, epochs=1, shuffle=False, verbose=0)
    assert_close([hist.history["loss"][0], hist.history["val_loss"][0]], [e2[:cut].mean(), e2[cut:].mean()],
                 call=f"fit(x[10], validation_split={split})", what="[loss, val_loss]", tolerance=TOL)

@clause("keras.fit.validation", ref="tf221")
def test_blind8_validation_split_takes_the_floor_complement(tf, keras, budget):
    for case in budget(_grid(("split", [0.25, 0.35, 0.5]))):
        _validation_split_takes_the_floor_complement(tf, keras, **case)


def _class_weight_maps_binary_targets_and_defaults_to_one(tf, keras, source, y_shape):
    """fit(class_weight={1: 3.0}) with 0/1 targets of shape (n, 1) or (n,): a sample of class c
    weighs class_weight.get(c, 1.0) (class 0, absent, weighs 1), from arrays or a dataset."""
    y = np.array([0, 1, 1, 0, 1, 0, 0, 1, 1, 0], np.float32)
    yy = y.reshape(10, 1) if y_shape == "column" else y
    e2 = _residuals() ** 2 if y_shape == "column" else None
    if e2 is None:
        e2 = ((_FX.astype(np.float64) @ np.array([0.5, -1.0, 0.25]) + 0.1) - y) ** 2
    else:
        e2 = ((_FX.astype(np.float64) @ np.array([[0.5], [-1.0], [0.25]]) + 0.1)[:, 0] - y) ** 2
    weights = np.where(y == 1, 3.0, 1.0)
    model = _compiled(keras)
    if source == "arrays":
        hist = model.fit(_FX, yy, class_weight={1: 3.0}, batch_size=10, epochs=1, shuffle=False, verbose=0)
    else:
        ds = tf.data.Dataset.from_tensor_slices((_FX, yy)).batch(10)
        hist = model.fit(ds, class_weight={1: 3.0}, epochs=1, verbose=0)
    assert_close(hist.history["loss"][0], (weights * e2).sum() / 10,
                 call=f"fit({source}, y of shape {yy.shape}, class_weight={{1: 3.0}})", what="loss", tolerance=TOL)

@clause("keras.fit.data", ref="tf221")
def test_blind8_class_weight_maps_binary_targets_and_defaults_to_one(tf, keras, budget):
    for case in budget(_grid(("source", ["arrays", "dataset"]), ("y_shape", ["column", "flat"]))):
        _class_weight_maps_binary_targets_and_defaults_to_one(tf, keras, **case)


def _evaluate_weighs_each_batch_by_its_size(tf, keras, batch_size):
    """evaluate(batch_size=b) over 10 samples: the loss is the mean over the samples (each batch's
    mean weighted by its size, the partial last batch included), not the mean of the batch means."""
    e2 = _residuals() ** 2
    got = _compiled(keras).evaluate(_FX, _FY, batch_size=batch_size, verbose=0)
    assert_close(got, e2.mean(), call=f"evaluate(x[10], batch_size={batch_size})", what="loss", tolerance=TOL)

@clause("keras.fit.data", ref="tf221")
def test_blind8_evaluate_weighs_each_batch_by_its_size(tf, keras, budget):
    for case in budget(_grid(("batch_size", [3, 4, 10]))):
        _evaluate_weighs_each_batch_by_its_size(tf, keras, **case)


# -- callbacks driven epoch by epoch -------------------------------------------------------------------------
def _early_stopping_rule(losses, patience, baseline):
    """Keras 3.15's EarlyStopping.on_epoch_end for mode "min", min_delta 0: the epoch it stops at."""
    wait, best = 0, None
    for epoch, cur in enumerate(losses):
        wait += 1
        if best is None or cur < best:
            best = cur
            if baseline is None or cur < baseline:
                wait = 0
            continue
        if wait >= patience and epoch > 0:
            return epoch
    return None


def _early_stopping_baseline_keeps_the_wait_running(tf, keras, baseline, losses):
    """EarlyStopping(monitor="loss", patience=2, baseline=b): an improvement resets the wait only
    when it also beats the baseline; stopping needs an epoch without improvement."""
    model = _linear_model(keras)
    es = keras.callbacks.EarlyStopping(monitor="loss", patience=2, baseline=baseline)
    es.set_model(model)
    model.stop_training = False
    es.on_train_begin()
    stopped = None
    for epoch, cur in enumerate(losses):
        es.on_epoch_begin(epoch)
        es.on_epoch_end(epoch, {"loss": cur})
        if model.stop_training:
            stopped = epoch
            break
    assert_equal(stopped, _early_stopping_rule(losses, 2, baseline),
                 call=f"EarlyStopping(monitor='loss', patience=2, baseline={baseline}) over losses {losses}",
                 what="the epoch it stops at")

@clause("keras.callback.early-stopping", ref="tf221")
def test_blind8_early_stopping_baseline_keeps_the_wait_running(tf, keras, budget):
    for case in budget(_grid(("baseline", [None, 0.5, 0.85]), ("losses", [(1.0, 0.9, 0.95, 0.97, 0.99, 0.99), (1.0, 0.8, 0.9, 0.9, 0.9, 0.9),
                                    (1.0, 0.6, 0.7, 0.4, 0.45, 0.5)]))):
        _early_stopping_baseline_keeps_the_wait_running(tf, keras, **case)


def _checkpoint_initial_value_threshold_is_the_first_best(tf, keras, threshold):
    """ModelCheckpoint(save_best_only=True, initial_value_threshold=t): an epoch is saved only when
    it beats the best so far, which starts at t."""
    losses = (0.8, 0.6, 0.4, 0.5, 0.3)
    best, saved_expected = threshold, []
    for epoch, cur in enumerate(losses):
        if best is None or cur < best:
            best = cur
            saved_expected.append(epoch + 1)
    model = _linear_model(keras)
    with tempfile.TemporaryDirectory() as d:
        mc = keras.callbacks.ModelCheckpoint(os.path.join(d, "w{epoch}.weights.h5"), monitor="loss",
                                             save_best_only=True, save_weights_only=True,
                                             initial_value_threshold=threshold)
        mc.set_model(model)
        mc.on_train_begin()
        for epoch, cur in enumerate(losses):
            mc.on_epoch_begin(epoch)
            mc.on_epoch_end(epoch, {"loss": cur})
        saved = sorted(int(f[1:].split(".")[0]) for f in os.listdir(d))
    assert_equal(saved, saved_expected, call=f"ModelCheckpoint(save_best_only=True, initial_value_threshold="
                 f"{threshold}) over losses {losses}", what="the epochs saved")

@clause("keras.callback.model-checkpoint", ref="tf221")
def test_blind8_checkpoint_initial_value_threshold_is_the_first_best(tf, keras, budget):
    for case in budget(_grid(("threshold", [None, 0.5, 0.35]))):
        _checkpoint_initial_value_threshold_is_the_first_best(tf, keras, **case)


@clause("keras.fit.callback-hooks", ref="tf221")
def test_blind8_lambda_callback_hooks_run_at_their_moments(tf, keras):
    """LambdaCallback(on_train_batch_begin=f, on_train_batch_end=g): f sees each batch before its
    step, g after it with the batch's logs (the loss)."""
    begins, ends = [], []
    cb = keras.callbacks.LambdaCallback(
        on_train_batch_begin=lambda batch, logs: begins.append(batch),
        on_train_batch_end=lambda batch, logs: ends.append((batch, sorted((logs or {}).keys()))))
    _compiled(keras).fit(_FX, _FY, batch_size=4, epochs=1, shuffle=False, verbose=0, callbacks=[cb])
    assert_equal(begins, [0, 1, 2], call="LambdaCallback(on_train_batch_begin=...) over 3 batches", what="batches")
    assert_equal(ends, [(0, ["loss"]), (1, ["loss"]), (2, ["loss"])],
                 call="LambdaCallback(on_train_batch_end=...) over 3 batches", what="(batch, logs keys)")
