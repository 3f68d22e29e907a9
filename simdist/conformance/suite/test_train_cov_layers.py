"""Keras layers with their options: weight shapes, forward pass and gradients against a NumPy
transcription — clause keras.layer.option-coverage (TF 2.21 + Keras 3.15).

Each case builds a layer, sets its weights (in `layer.weights` order) to fixed values, and
differentiates sum(layer(x) * r) with respect to x and every trainable weight. The forward
references transcribe keras-team/keras v3.15 (keras/src/layers/core/dense.py,
convolutional/base_conv.py + the TF backend's conv (TF's SAME padding: the extra pad after),
normalization/batch_normalization.py (biased batch variance; moving = moving * momentum +
batch * (1 - momentum)), normalization/layer_normalization.py, regularization/dropout.py,
core/embedding.py, rnn/lstm.py (gates i, f, c, o), rnn/gru.py (gates z, r, h; reset_after),
attention/multi_head_attention.py (einsum projections, query scaled by 1/sqrt(key_dim))).
The expected gradients are central differences of those NumPy forwards (float64), never the
backend's.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, assert_type_name
from simdist.conformance.repro import Program

clause = pytest.mark.clause
_rng = np.random.default_rng(2929)


def _f(*shape, scale=1.0):
    return (_rng.standard_normal(shape) * scale).astype(np.float32)


def _sig(x):
    return 1.0 / (1.0 + np.exp(-x))


def _act(name, x):
    return {None: x, "relu": np.maximum(x, 0), "tanh": np.tanh(x), "sigmoid": _sig(x)}[name]


# -- NumPy forwards ------------------------------------------------------------------------------------------
def dense(x, w, kw):
    y = x @ w[0] + (w[1] if kw.get("use_bias", True) else 0)
    return _act(kw.get("activation"), y)


def _pads(n, k, s, d, padding):
    eff = (k - 1) * d + 1
    if padding == "valid":
        return 0, 0
    if padding == "causal":
        return eff - 1, 0
    out = math.ceil(n / s)
    total = max((out - 1) * s + eff - n, 0)
    return total // 2, total - total // 2


def conv(x, w, kw):
    """Channels-last convolution of rank len(kernel_size) with strides, dilation, padding, groups."""
    k = w[0]
    nd = k.ndim - 2
    strides = kw.get("strides", 1)
    dil = kw.get("dilation_rate", 1)
    strides = (strides,) * nd if isinstance(strides, int) else strides
    dil = (dil,) * nd if isinstance(dil, int) else dil
    pads = [_pads(x.shape[1 + i], k.shape[i], strides[i], dil[i], kw.get("padding", "valid")) for i in range(nd)]
    xp = np.pad(x, [(0, 0)] + pads + [(0, 0)])
    groups = kw.get("groups", 1)
    cin_g, cout = k.shape[-2], k.shape[-1]
    cout_g = cout // groups
    outs = [(xp.shape[1 + i] - (k.shape[i] - 1) * dil[i] - 1) // strides[i] + 1 for i in range(nd)]
    y = np.zeros((x.shape[0], *outs, cout))
    for pos in np.ndindex(*outs):
        for g in range(groups):
            acc = 0.0
            for kpos in np.ndindex(*k.shape[:nd]):
                idx = tuple(pos[i] * strides[i] + kpos[i] * dil[i] for i in range(nd))
                patch = xp[(slice(None),) + idx + (slice(g * cin_g, (g + 1) * cin_g),)]
                acc = acc + patch @ k[kpos][:, g * cout_g:(g + 1) * cout_g]
            y[(slice(None),) + pos + (slice(g * cout_g, (g + 1) * cout_g),)] = acc
    if kw.get("use_bias", True):
        y = y + w[1]
    return _act(kw.get("activation"), y)


def batchnorm(x, w, kw, training):
    eps = kw.get("epsilon", 1e-3)
    i = 0
    gamma = w[i] if kw.get("scale", True) else 1.0
    i += kw.get("scale", True)
    beta = w[i] if kw.get("center", True) else 0.0
    i += kw.get("center", True)
    mm, mv = w[i], w[i + 1]
    axes = tuple(range(x.ndim - 1))
    mean, var = (x.mean(axes), x.var(axes)) if training else (mm, mv)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def layernorm(x, w, kw):
    eps = kw.get("epsilon", 1e-3)
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    y = (x - mean) / np.sqrt(var + eps)
    i = 0
    if kw.get("scale", True):
        y = y * w[0]
        i = 1
    if kw.get("center", True):
        y = y + w[i]
    return y


def _scan(x, kw, step, state):
    seq = x[:, ::-1] if kw.get("go_backwards") else x
    outs = []
    for t in range(seq.shape[1]):
        h, state = step(seq[:, t], state)
        outs.append(h)
    return np.stack(outs, 1) if kw.get("return_sequences") else outs[-1]


def lstm(x, w, kw):
    k, r, b = w
    u = r.shape[0]

    def step(xt, st):
        h, c = st
        z = xt @ k + h @ r + b
        i, f, g, o = _sig(z[:, :u]), _sig(z[:, u:2 * u]), np.tanh(z[:, 2 * u:3 * u]), _sig(z[:, 3 * u:])
        c = f * c + i * g
        h = o * np.tanh(c)
        return h, (h, c)
    z0 = np.zeros((x.shape[0], u))
    return _scan(x, kw, step, (z0, z0))


def gru(x, w, kw):
    k, r, b = w
    u = r.shape[0]
    after = kw.get("reset_after", True)
    b_in, b_rec = (b[0], b[1]) if after else (b, np.zeros_like(b))

    def step(xt, h):
        xz = xt @ k + b_in
        if after:
            hr = h @ r + b_rec
            z, rr = _sig(xz[:, :u] + hr[:, :u]), _sig(xz[:, u:2 * u] + hr[:, u:2 * u])
            hh = np.tanh(xz[:, 2 * u:] + rr * hr[:, 2 * u:])
        else:
            z = _sig(xz[:, :u] + h @ r[:, :u])
            rr = _sig(xz[:, u:2 * u] + h @ r[:, u:2 * u])
            hh = np.tanh(xz[:, 2 * u:] + (rr * h) @ r[:, 2 * u:])
        h = z * h + (1 - z) * hh
        return h, h
    return _scan(x, kw, step, np.zeros((x.shape[0], u)))


def mha(x, w, kw):
    q_k, q_b, k_k, k_b, v_k, v_b, o_k, o_b = w
    q = np.einsum("btd,dhk->bthk", x, q_k) + q_b
    key = np.einsum("btd,dhk->bthk", x, k_k) + k_b
    v = np.einsum("btd,dhk->bthk", x, v_k) + v_b
    q = q / np.sqrt(kw["key_dim"])
    s = np.einsum("bshk,bthk->bhts", key, q)
    s = np.exp(s - s.max(-1, keepdims=True))
    a = s / s.sum(-1, keepdims=True)
    o = np.einsum("bhts,bshk->bthk", a, v)
    return np.einsum("bthk,hkd->btd", o, o_k) + o_b


# (id, layer class, kwargs, x, the weights' shapes, forward, call kwargs)
X2 = _f(3, 4)
X1D = _f(2, 7, 4)
X2D = _f(2, 5, 6, 4)
XSEQ = _f(2, 3, 2)
CASES = [
    ("dense", "Dense", {"units": 3}, X2, [(4, 3), (3,)], dense, {}),
    ("dense-relu-nobias", "Dense", {"units": 3, "activation": "relu", "use_bias": False}, X2, [(4, 3)], dense, {}),
    ("dense-tanh", "Dense", {"units": 2, "activation": "tanh"}, X2, [(4, 2), (2,)], dense, {}),
    ("conv1d-valid", "Conv1D", {"filters": 3, "kernel_size": 3}, X1D, [(3, 4, 3), (3,)], conv, {}),
    ("conv1d-same-stride2", "Conv1D", {"filters": 3, "kernel_size": 3, "strides": 2, "padding": "same"}, X1D,
     [(3, 4, 3), (3,)], conv, {}),
    ("conv1d-causal-dilation2", "Conv1D", {"filters": 2, "kernel_size": 2, "dilation_rate": 2, "padding": "causal"},
     X1D, [(2, 4, 2), (2,)], conv, {}),
    ("conv1d-groups2", "Conv1D", {"filters": 4, "kernel_size": 2, "groups": 2}, X1D, [(2, 2, 4), (4,)], conv, {}),
    ("conv2d-valid", "Conv2D", {"filters": 2, "kernel_size": (2, 3)}, X2D, [(2, 3, 4, 2), (2,)], conv, {}),
    ("conv2d-same-strides", "Conv2D", {"filters": 2, "kernel_size": 3, "strides": (2, 2), "padding": "same"}, X2D,
     [(3, 3, 4, 2), (2,)], conv, {}),
    ("conv2d-same-even-kernel", "Conv2D", {"filters": 2, "kernel_size": 2, "padding": "same"}, X2D,
     [(2, 2, 4, 2), (2,)], conv, {}),
    ("conv2d-dilation", "Conv2D", {"filters": 2, "kernel_size": 2, "dilation_rate": (2, 1), "activation": "relu"},
     X2D, [(2, 2, 4, 2), (2,)], conv, {}),
    ("conv2d-groups", "Conv2D", {"filters": 4, "kernel_size": 2, "groups": 2, "use_bias": False}, X2D,
     [(2, 2, 2, 4)], conv, {}),
    ("layernorm", "LayerNormalization", {}, X2, [(4,), (4,)], layernorm, {}),
    ("layernorm-eps-noscale", "LayerNormalization", {"epsilon": 0.5, "scale": False}, X2, [(4,)], layernorm, {}),
    ("layernorm-nocenter", "LayerNormalization", {"center": False}, X1D, [(4,)], layernorm, {}),
    ("lstm", "LSTM", {"units": 3}, XSEQ, [(2, 12), (3, 12), (12,)], lstm, {}),
    ("lstm-seq-backwards", "LSTM", {"units": 3, "return_sequences": True, "go_backwards": True}, XSEQ,
     [(2, 12), (3, 12), (12,)], lstm, {}),
    ("gru", "GRU", {"units": 3}, XSEQ, [(2, 9), (3, 9), (2, 9)], gru, {}),
    ("gru-no-reset-after-seq", "GRU", {"units": 3, "reset_after": False, "return_sequences": True}, XSEQ,
     [(2, 9), (3, 9), (9,)], gru, {}),
    ("gru-backwards", "GRU", {"units": 2, "go_backwards": True, "return_sequences": True}, XSEQ,
     [(2, 6), (2, 6), (2, 6)], gru, {}),
    ("mha", "MultiHeadAttention", {"num_heads": 2, "key_dim": 3}, _f(2, 3, 4),
     [(4, 2, 3), (2, 3), (4, 2, 3), (2, 3), (4, 2, 3), (2, 3), (2, 3, 4), (4,)], mha, {}),
]
BN_CASES = [("bn-train", {}, True), ("bn-infer", {}, False), ("bn-train-momentum-eps", {"momentum": 0.5, "epsilon": 0.1}, True),
            ("bn-infer-noscale", {"scale": False}, False), ("bn-train-nocenter", {"center": False, "momentum": 0.8}, True)]


def numeric_grad(f, x, h=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, dn = x.copy(), x.copy()
        up[i] += h
        dn[i] -= h
        g[i] = (f(up) - f(dn)) / (2 * h)
    return g


HARNESS = """
layer = getattr(tf.keras.layers, cls)(**kw)
xt = tf.constant(x)
if cls == "MultiHeadAttention":
    layer(xt, xt)
else:
    layer(xt)
shapes = [tuple(v.shape) for v in layer.weights]
trainable = [any(v is t for t in layer.trainable_weights) for v in layer.weights]
if len(weights) == len(layer.weights):
    layer.set_weights(weights)
with tf.GradientTape() as tape:
    tape.watch(xt)
    out = layer(xt, xt, **call_kw) if cls == "MultiHeadAttention" else layer(xt, **call_kw)
    objective = tf.reduce_sum(out * tf.constant(r))
grads = tape.gradient(objective, [xt] + list(layer.trainable_weights))
out = out.numpy()
grads = [g.numpy() for g in grads]
after = [v.numpy() for v in layer.weights]
"""


def _check(backend, cls, kw, x, shapes, forward, call_kw):
    weights = [_f(*s, scale=0.5) for s in shapes]
    y = forward(x.astype(np.float64), [w.astype(np.float64) for w in weights], kw)
    r = (np.arange(y.size).reshape(y.shape) % 5 - 2).astype(np.float32) / 2
    ns = Program(backend, HARNESS, cls=cls, kw=kw, x=x, weights=weights, r=r, call_kw=call_kw).run()
    call = f"tf.keras.layers.{cls}({kw})(x{', ' + str(call_kw) if call_kw else ''})"
    assert_equal(ns["shapes"], shapes, call=call, what="[w.shape for w in layer.weights]")
    assert_close(ns["out"], y, call=call, what="the output", scale=float(np.max(np.abs(y))))
    w64 = [w.astype(np.float64) for w in weights]
    obj = lambda xx, ww: float(np.sum(forward(xx, ww, kw) * r))  # noqa: E731
    gx = numeric_grad(lambda xx: obj(xx, w64), x.astype(np.float64))
    assert_close(ns["grads"][0], gx, call=call, what="d(sum(out * r))/dx", scale=float(np.max(np.abs(gx))))
    assert_equal(sum(ns["trainable"]), len(ns["grads"]) - 1, call=call,
                 what="the trainable weights found among layer.weights")
    assert_true(sum(ns["trainable"]) == len(shapes), f"{call}: {sum(ns['trainable'])} of {len(shapes)} weights "
                "are trainable, but every weight of this layer should be", call=call)
    j = 1
    for i, tr in enumerate(ns["trainable"]):
        if not tr:
            continue

        def f(wi, i=i):
            ww = list(w64)
            ww[i] = wi
            return obj(x.astype(np.float64), ww)
        gw = numeric_grad(f, w64[i])
        assert_close(ns["grads"][j], gw, call=call, what=f"d(sum(out * r))/d(layer.weights[{i}])",
                     scale=float(np.max(np.abs(gw))))
        j += 1
    return ns, weights


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_layer_forward_and_gradients(backend, case):
    _, cls, kw, x, shapes, forward, call_kw = case
    _check(backend, cls, kw, x, shapes, forward, call_kw)


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("case", BN_CASES, ids=[c[0] for c in BN_CASES])
def test_batchnorm_training_and_inference(backend, case):
    """BatchNormalization: batch statistics and moving-average updates with training=True, the
    moving statistics with training=False; gamma/beta present as center/scale say."""
    _, kw, training = case
    shapes = [(4,)] * (int(kw.get("scale", True)) + int(kw.get("center", True)) + 2)
    x = X1D
    # the moving variance must be positive: set the weights explicitly
    weights = [_f(4, scale=0.5) for _ in shapes]
    weights[-1] = np.abs(weights[-1]) + 0.5
    y = batchnorm(x.astype(np.float64), [w.astype(np.float64) for w in weights], kw, training)
    r = (np.arange(y.size).reshape(y.shape) % 5 - 2).astype(np.float32) / 2
    ns = Program(backend, HARNESS, cls="BatchNormalization", kw=kw, x=x, weights=weights, r=r,
                 call_kw={"training": training}).run()
    call = f"tf.keras.layers.BatchNormalization({kw})(x, training={training})"
    assert_equal(ns["shapes"], shapes, call=call, what="[w.shape for w in layer.weights]")
    assert_close(ns["out"], y, call=call, what="the output", scale=float(np.max(np.abs(y))))
    w64 = [w.astype(np.float64) for w in weights]
    gx = numeric_grad(lambda xx: float(np.sum(batchnorm(xx, w64, kw, training) * r)), x.astype(np.float64))
    assert_close(ns["grads"][0], gx, call=call, what="d(sum(out * r))/dx", scale=float(np.max(np.abs(gx))))
    mom = kw.get("momentum", 0.99)
    mm, mv = w64[-2], w64[-1]
    if training:
        x64 = x.astype(np.float64)
        mm = mm * mom + x64.mean((0, 1)) * (1 - mom)
        mv = mv * mom + x64.var((0, 1)) * (1 - mom)
    assert_close(ns["after"][-2], mm, call=call, what="moving_mean after the call")
    assert_close(ns["after"][-1], mv, call=call, what="moving_variance after the call")


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("rate", [0.25, 0.5])
def test_dropout_identity_and_scaling(backend, rate):
    """Dropout(rate): training=False is the identity (gradient 1); training=True keeps an entry as
    x / (1 - rate) or zeroes it, and the gradient is the same mask / (1 - rate)."""
    x = np.abs(_f(6, 5)) + 0.5
    ns = Program(backend, """
layer = tf.keras.layers.Dropout(rate, seed=3)
xt = tf.constant(x)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(xt)
    off = layer(xt, training=False)
    on = layer(xt, training=True)
g_off = tape.gradient(off, xt).numpy()
g_on = tape.gradient(on, xt).numpy()
off, on = off.numpy(), on.numpy()
""", rate=rate, x=x).run()
    call = f"tf.keras.layers.Dropout({rate})(x, training=...)"
    assert_close(ns["off"], x, call=call, what="the output with training=False")
    assert_close(ns["g_off"], np.ones_like(x), call=call, what="the gradient with training=False")
    on = np.asarray(ns["on"], np.float64)
    kept = on != 0
    assert_close(on[kept], x.astype(np.float64)[kept] / (1 - rate), call=call,
                 what="the kept entries with training=True (x / (1 - rate))")
    assert_true(0 < kept.sum() < kept.size, f"{call}: {kept.sum()} of {kept.size} entries kept, but a rate of "
                f"{rate} over {kept.size} entries should keep some and drop some", call=call)
    assert_close(ns["g_on"], kept / (1 - rate), call=call, what="the gradient with training=True (mask / (1 - rate))")


@clause("keras.layer.option-coverage", ref="tf221")
def test_embedding_lookup_and_sparse_gradient(backend):
    """Embedding(6, 3): the rows of the table; the gradient of the table is an IndexedSlices whose
    dense form sums the upstream rows of repeated ids."""
    ids = np.array([[1, 4, 1], [0, 1, 5]], np.int32)
    table = _f(6, 3)
    r = _f(2, 3, 3)
    ns = Program(backend, """
layer = tf.keras.layers.Embedding(6, 3)
layer.build((None, 3))
layer.set_weights([table])
with tf.GradientTape() as tape:
    out = layer(tf.constant(ids))
    objective = tf.reduce_sum(out * tf.constant(r))
grad = tape.gradient(objective, layer.trainable_weights)[0]
dense_grad = tf.convert_to_tensor(grad).numpy()
shape = tuple(layer.weights[0].shape)
out = out.numpy()
""", ids=ids, table=table, r=r).run()
    call = "tf.keras.layers.Embedding(6, 3)(ids) with repeated ids"
    assert_equal(ns["shape"], (6, 3), call=call, what="embeddings.shape")
    assert_close(ns["out"], table[ids], call=call, what="the output")
    assert_type_name(ns["grad"], "IndexedSlices", call=call, what="the gradient of the embeddings")
    want = np.zeros((6, 3))
    np.add.at(want, ids.reshape(-1), r.reshape(-1, 3).astype(np.float64))
    assert_close(ns["dense_grad"], want, call=call, what="the dense gradient (repeated ids summed)")


# -- default initializers (keras/src/initializers; the layers' defaults) ------------------------------------
def _glorot_limit(shape):
    """keras/src/initializers/random_initializers.py compute_fans: a kernel's receptive field
    multiplies both fans."""
    rf = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return math.sqrt(6.0 / (shape[-2] * rf + shape[-1] * rf))


INITS = [("Dense", {"units": 40}, (None, 30), ["glorot", "zeros"]),
         ("Conv1D", {"filters": 8, "kernel_size": 3}, (None, 9, 6), ["glorot", "zeros"]),
         ("Conv2D", {"filters": 8, "kernel_size": (2, 3)}, (None, 6, 6, 5), ["glorot", "zeros"]),
         ("Embedding", {"input_dim": 30, "output_dim": 8}, (None, 4), ["uniform0.05"]),
         ("BatchNormalization", {}, (None, 7), ["ones", "zeros", "zeros", "ones"]),
         ("LayerNormalization", {}, (None, 7), ["ones", "zeros"]),
         ("LSTM", {"units": 6}, (None, 3, 10), ["glorot", "orthogonal", "forget-bias"]),
         ("LSTM", {"units": 6, "unit_forget_bias": False}, (None, 3, 10), ["glorot", "orthogonal", "zeros"]),
         ("GRU", {"units": 6}, (None, 3, 10), ["glorot", "orthogonal", "zeros"])]


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("cls,kw,shape,rules", INITS, ids=[f"{c}-{i}" for i, (c, *_) in enumerate(INITS)])
def test_default_initializers(backend, cls, kw, shape, rules):
    """Each weight's default initializer, by properties the random streams do not change: zeros and
    ones exactly; glorot_uniform within ±sqrt(6 / (fan_in + fan_out)) and spread over it; Embedding's
    uniform within ±0.05; the recurrent kernels orthogonal (R Rᵀ = I); LSTM's unit_forget_bias (ones
    on the forget gate's quarter of the bias)."""
    ns = Program(backend, """
layer = getattr(tf.keras.layers, cls)(**kw)
layer.build(shape)
values = [v.numpy() for v in layer.weights]
""", cls=cls, kw=kw, shape=shape).run()
    call = f"tf.keras.layers.{cls}({kw}).build({shape})"
    vals = [np.asarray(v, np.float64) for v in ns["values"]]
    assert_equal(len(vals), len(rules), call=call, what="len(layer.weights)")
    for i, (v, rule) in enumerate(zip(vals, rules)):
        what = f"layer.weights[{i}] ({rule})"
        if rule in ("zeros", "ones"):
            assert_close(v, np.full(v.shape, 0.0 if rule == "zeros" else 1.0), call=call, what=what)
        elif rule == "forget-bias":
            u = v.shape[0] // 4
            assert_close(v, np.r_[np.zeros(u), np.ones(u), np.zeros(2 * u)], call=call, what=what)
        elif rule == "orthogonal":
            assert_close(v @ v.T, np.eye(v.shape[0]), call=call, what=what + ": R @ R.T", scale=1.0)
        else:
            limit = 0.05 if rule == "uniform0.05" else _glorot_limit(v.shape)
            top = float(np.max(np.abs(v)))
            assert_true(0.8 * limit < top <= limit * (1 + 1e-6),
                        f"{call}: max |{what}| = {top:.6g}, but the values should fill ±{limit:.6g} "
                        f"({v.size} draws)", call=call)
