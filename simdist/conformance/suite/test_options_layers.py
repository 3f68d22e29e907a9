"""Layer options the suite never set before (benchmarks/suite_options.py, issue 29, second pass):
every weight's constraint, the remaining weight/activity regularizers and initializers, the
recurrent cells wrapped in `RNN` with their options and dropouts, the recurrent layers' state
options (stateful, unroll, go_backwards, return_state, initial_state, mask), MultiHeadAttention
without bias and with its gate, SeparableConv1D's geometry, the 1-D pooling layers' data formats,
bilinear UpSampling2D, Softmax's mask and the `weights=` arguments (TF 2.21 + Keras 3.15).

Grouped in tables so each test builds many small layers; every expected value is a NumPy
transcription of Keras 3.15's rule computed here, or a relation that must hold.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.values import distinct_values as _x

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _wname(v) -> str:
    return v.name.split("/")[-1].split(":")[0]


_SIG = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731
_ACT = {"tanh": np.tanh, "sigmoid": _SIG, "relu": lambda z: np.maximum(z, 0),
        "hard_sigmoid": lambda z: np.clip(z + 3.0, 0.0, 6.0) / 6.0, "linear": lambda z: z,
        "softsign": lambda z: z / (1 + np.abs(z))}


def _layer_table(k):
    """(label, make(options), input, call) for every layer family with weights."""
    x2, x3, x4 = _x((4, 3)), _x((2, 5, 3)), _x((2, 5, 5, 2))
    ids = np.array([[1, 3, 0], [2, 2, 4]])
    L = k.layers
    rows = []

    def add(label, make, x, call=None):
        rows.append((label, make, x, call))
    add("Dense", lambda o: L.Dense(2, **o), x2)
    add("Conv1D", lambda o: L.Conv1D(2, 2, **o), x3)
    add("Conv2D", lambda o: L.Conv2D(2, 2, **o), x4)
    add("DepthwiseConv2D", lambda o: L.DepthwiseConv2D(2, **o), x4)
    add("SeparableConv1D", lambda o: L.SeparableConv1D(2, 2, **o), x3)
    add("SeparableConv2D", lambda o: L.SeparableConv2D(2, 2, **o), x4)
    add("Embedding", lambda o: L.Embedding(5, 2, **o), ids)
    add("EinsumDense", lambda o: L.EinsumDense("ab,bc->ac", output_shape=2, bias_axes="c", **o), x2)
    add("LayerNormalization", lambda o: L.LayerNormalization(**o), x3)
    add("BatchNormalization", lambda o: L.BatchNormalization(**o), x2)
    add("SimpleRNN", lambda o: L.SimpleRNN(2, **o), x3)
    add("GRU", lambda o: L.GRU(2, **o), x3)
    add("LSTM", lambda o: L.LSTM(2, **o), x3)
    add("RNN(SimpleRNNCell)", lambda o: L.RNN(L.SimpleRNNCell(2, **o)), x3)
    add("RNN(GRUCell)", lambda o: L.RNN(L.GRUCell(2, **o)), x3)
    add("RNN(LSTMCell)", lambda o: L.RNN(L.LSTMCell(2, **o)), x3)
    add("MultiHeadAttention", lambda o: L.MultiHeadAttention(2, 3, **o), x3, lambda layer, t: layer(t, t))
    return rows


# weight name -> the option names that target it, per layer family
_TARGETS = {
    "Dense": ("kernel", "bias"), "Conv1D": ("kernel", "bias"), "Conv2D": ("kernel", "bias"),
    "DepthwiseConv2D": ("kernel:depthwise", "bias"), "SeparableConv1D": ("depthwise_kernel:depthwise",
                                                                          "pointwise_kernel:pointwise", "bias"),
    "SeparableConv2D": ("depthwise_kernel:depthwise", "pointwise_kernel:pointwise", "bias"),
    "Embedding": ("embeddings",), "EinsumDense": ("kernel", "bias"), "LayerNormalization": ("beta", "gamma"),
    "BatchNormalization": ("beta", "gamma"), "SimpleRNN": ("kernel", "recurrent_kernel:recurrent", "bias"),
    "GRU": ("kernel", "recurrent_kernel:recurrent", "bias"), "LSTM": ("kernel", "recurrent_kernel:recurrent", "bias"),
    "RNN(SimpleRNNCell)": ("kernel", "recurrent_kernel:recurrent", "bias"),
    "RNN(GRUCell)": ("kernel", "recurrent_kernel:recurrent", "bias"),
    "RNN(LSTMCell)": ("kernel", "recurrent_kernel:recurrent", "bias"), "MultiHeadAttention": ("kernel", "bias"),
}


def _targets(label):
    """(weight name, option prefix) pairs of a layer family."""
    return [(t.split(":")[0], t.split(":")[-1]) for t in _TARGETS[label]]


def _run(tf, layer, x, call):
    t = tf.constant(x)
    return call(layer, t) if call is not None else layer(t)


# -- constraints ---------------------------------------------------------------------------------------------
@clause("optim.option-coverage", ref="tf221")
def test_options_every_weight_constraint_applies_after_the_update(tf, keras):
    """`<weight>_constraint=c` of every layer (and recurrent cell): after `SGD(0.5).apply` with
    gradients of ones, the constrained weight is c(w - 0.5) and every other weight w - 0.5 (Keras
    applies `variable.constraint` after the update step). Each case clips to its own bound."""
    i = 0
    for label, make, x, call in _layer_table(keras):
        for wname, opt in _targets(label):
            i += 1
            bound = 0.05 + 0.01 * i
            layer = make({f"{opt}_constraint": (lambda w, b=bound: tf.clip_by_value(w, -b, b))})
            _run(tf, layer, x, call)
            before = [np.asarray(v, np.float64) for v in layer.trainable_weights]
            keras.optimizers.SGD(0.5).apply([tf.ones(v.shape) for v in layer.trainable_weights],
                                            layer.trainable_weights)
            hit = 0
            for v, w0 in zip(layer.trainable_weights, before):
                want = w0 - 0.5
                if _wname(v) == wname:
                    hit += 1
                    want = np.clip(want, -bound, bound)
                assert_close(v, want, call=f"{label}({opt}_constraint=clip(+-{bound:.2f})) after SGD(0.5) step "
                             "with gradients of ones", what=f"weight {v.name}", tolerance=TOL32)
            assert_true(hit > 0, f"{label}: no trainable weight named {wname!r} among "
                        f"{[v.name for v in layer.trainable_weights]}")


def _mha_activity(q, layer, reg):
    """MultiHeadAttention passes activity_regularizer to its four EinsumDense sublayers only: the
    query, key and value projections and the output projection (whose output is the layer's) each
    add reg(out) / batch; the layer itself adds nothing more."""
    W = {"/".join(v.path.split("/")[-2:]): np.asarray(v, np.float64) for v in layer.weights}
    proj = [np.einsum("btd,dnh->btnh", q, W[f"{n}/kernel"]) + W[f"{n}/bias"] for n in ("query", "key", "value")]
    out = _mha(q, q, W, 2, True, False)
    return (sum(reg(p) for p in proj) + reg(out)) / q.shape[0]


# -- regularizers --------------------------------------------------------------------------------------------
def _l1l2(l1, l2):
    return lambda w: l1 * np.abs(w).sum() + l2 * np.square(w).sum()


@clause("keras.reg.layer-losses", ref="tf221")
def test_options_every_layer_regularizer_adds_its_penalty(tf, keras):
    """`<weight>_regularizer` of every layer and cell adds reg(weight) to `layer.losses` (summed over
    every weight of that name: MultiHeadAttention's four kernels); `activity_regularizer` adds
    reg(output) / batch size (MultiHeadAttention: each of its projections' outputs instead) (SimpleRNN: nothing, Keras 3.15 does not pass it on). Biases start at
    ones so a bias penalty is not zero."""
    i = 0
    for label, make, x, call in _layer_table(keras):
        targets = _targets(label) + ([] if label.startswith(("RNN(", "Embedding")) else [("", "activity")])
        for wname, opt in targets:
            i += 1
            l1, l2 = 0.01 * (i % 7 + 1), 0.02 * (i % 3 + 1)
            reg = keras.regularizers.L1L2(l1=l1, l2=l2)
            opts = {f"{opt}_regularizer": reg}
            if wname == "bias":
                opts["bias_initializer"] = "ones"
            layer = make(opts)
            out = _run(tf, layer, x, call)
            if opt == "activity" and label == "SimpleRNN":
                expect = 0.0            # Keras 3.15's SimpleRNN takes activity_regularizer and drops it
            elif opt == "activity" and label == "MultiHeadAttention":
                expect = _mha_activity(x.astype(np.float64), layer, _l1l2(l1, l2))
            elif opt == "activity":
                o = np.asarray(out, np.float64)
                expect = _l1l2(l1, l2)(o) / o.shape[0]
            else:
                ws = [np.asarray(v, np.float64) for v in layer.weights if _wname(v) == wname]
                assert_true(len(ws) > 0, f"{label}: no weight named {wname!r}")
                expect = sum(_l1l2(l1, l2)(w) for w in ws)
            got = sum(float(np.asarray(v)) for v in layer.losses)
            assert_close(got, expect, call=f"{label}({opt}_regularizer=L1L2(l1={l1:.2f}, l2={l2:.2f}))",
                         what="sum(layer.losses)", tolerance=Tolerance(rtol=1e-5, atol=1e-7))


# -- initializers --------------------------------------------------------------------------------------------
@clause("keras.init.layer-defaults", ref="tf221")
def test_options_remaining_initializer_arguments_reach_their_weights(tf, keras):
    """Every `*_initializer` argument of the layers and cells the first pass left out fills its own
    weight (a constant per weight); LSTMCell(unit_forget_bias=True) puts ones on the forget gate's
    quarter of the bias whatever bias_initializer gives, False leaves the initializer's values."""
    k = keras
    c = k.initializers.Constant
    L = k.layers
    x3 = _x((2, 5, 3))
    cases = [
        ("MultiHeadAttention", L.MultiHeadAttention(2, 3, kernel_initializer=c(0.3), bias_initializer=c(-0.4)),
         lambda lay, t: lay(t, t), {"kernel": 0.3, "bias": -0.4}),
        ("EinsumDense", L.EinsumDense("abc,cd->abd", output_shape=(5, 2), bias_axes="d", bias_initializer=c(0.6)),
         None, {"bias": 0.6}),
        ("SeparableConv1D", L.SeparableConv1D(2, 2, depthwise_initializer=c(0.2), pointwise_initializer=c(-0.3),
                                              bias_initializer=c(0.7)), None,
         {"depthwise_kernel": 0.2, "pointwise_kernel": -0.3, "bias": 0.7}),
        ("SeparableConv2D", L.SeparableConv2D(2, 2, depthwise_initializer=c(-0.2), pointwise_initializer=c(0.35),
                                              bias_initializer=c(-0.7)), "4d",
         {"depthwise_kernel": -0.2, "pointwise_kernel": 0.35, "bias": -0.7}),
        ("SimpleRNN", L.SimpleRNN(2, kernel_initializer=c(0.11), recurrent_initializer=c(-0.12),
                                  bias_initializer=c(0.13)), None,
         {"kernel": 0.11, "recurrent_kernel": -0.12, "bias": 0.13}),
        ("RNN(SimpleRNNCell)", L.RNN(L.SimpleRNNCell(2, kernel_initializer=c(0.21), recurrent_initializer=c(-0.22),
                                                     bias_initializer=c(0.23))), None,
         {"kernel": 0.21, "recurrent_kernel": -0.22, "bias": 0.23}),
        ("RNN(GRUCell)", L.RNN(L.GRUCell(2, kernel_initializer=c(0.31), recurrent_initializer=c(-0.32),
                                         bias_initializer=c(0.33))), None,
         {"kernel": 0.31, "recurrent_kernel": -0.32, "bias": 0.33}),
        ("RNN(LSTMCell)", L.RNN(L.LSTMCell(2, kernel_initializer=c(0.41), recurrent_initializer=c(-0.42),
                                           bias_initializer=c(0.43), unit_forget_bias=False)), None,
         {"kernel": 0.41, "recurrent_kernel": -0.42, "bias": 0.43}),
    ]
    for name, layer, how, want in cases:
        x = _x((2, 5, 5, 2)) if how == "4d" else x3
        _run(tf, layer, x, how if callable(how) else None)
        for v in layer.weights:
            if _wname(v) in want:
                assert_close(v, np.full(tuple(v.shape), want[_wname(v)]), call=f"{name}({_wname(v)} initializer "
                             f"Constant({want[_wname(v)]}))", what=v.name, tolerance=Tolerance(rtol=0, atol=1e-7))
        missing = set(want) - {_wname(v) for v in layer.weights}
        assert_true(not missing, f"{name}: no weights named {sorted(missing)} among {[v.name for v in layer.weights]}")
    for ufb in (True, False):
        layer = L.RNN(L.LSTMCell(3, bias_initializer=c(0.25), unit_forget_bias=ufb))
        layer(tf.constant(x3))
        bias = next(np.asarray(v) for v in layer.weights if _wname(v) == "bias")
        want = np.full(12, 0.25)
        if ufb:
            want[3:6] = 1.0
        assert_close(bias, want, call=f"LSTMCell(3, bias_initializer=Constant(0.25), unit_forget_bias={ufb})",
                     what="bias (gates i, f, c, o)", tolerance=Tolerance(rtol=0, atol=1e-7))


# -- recurrent cells and layers ------------------------------------------------------------------------------
def _cell_step(kind, xt, states, w, act, rec_act, use_bias, reset_after=True):
    """One step of SimpleRNN/GRU/LSTM cells in float64 (Keras 3.15's gate orders)."""
    kernel, rec = w[0], w[1]
    bias = w[2] if use_bias else None
    a, ra = _ACT[act], _ACT[rec_act]
    h = states[0]
    u = rec.shape[0]
    if kind == "SimpleRNN":
        h = a(xt @ kernel + h @ rec + (bias if use_bias else 0))
        return h, [h]
    if kind == "LSTM":
        c = states[1]
        z = xt @ kernel + h @ rec + (bias if use_bias else 0)
        i, f, cc, o = (z[:, j * u:(j + 1) * u] for j in range(4))
        c = ra(f) * c + ra(i) * a(cc)
        h = ra(o) * a(c)
        return h, [h, c]
    if reset_after:
        xz = xt @ kernel + (bias[0] if use_bias else 0)
        hz = h @ rec + (bias[1] if use_bias else 0)
        z = ra(xz[:, :u] + hz[:, :u])
        r = ra(xz[:, u:2 * u] + hz[:, u:2 * u])
        hh = a(xz[:, 2 * u:] + r * hz[:, 2 * u:])
    else:
        xz = xt @ kernel + (bias if use_bias else 0)
        z = ra(xz[:, :u] + h @ rec[:, :u])
        r = ra(xz[:, u:2 * u] + h @ rec[:, u:2 * u])
        hh = a(xz[:, 2 * u:] + (r * h) @ rec[:, 2 * u:])
    h = z * h + (1 - z) * hh
    return h, [h]


def _rnn(kind, x, w, states, mask=None, backwards=False, act="tanh", rec_act="sigmoid", use_bias=True,
         reset_after=True):
    """The loop: outputs per processed step (a masked step carries output and states), final states."""
    w = [np.asarray(v, np.float64) for v in w]
    states = [np.asarray(s, np.float64) for s in states]
    steps = list(range(x.shape[1]))[::-1] if backwards else list(range(x.shape[1]))
    outs = []
    prev = np.zeros_like(states[0])
    for t in steps:
        h, new = _cell_step(kind, x[:, t].astype(np.float64), states, w, act, rec_act, use_bias, reset_after)
        if mask is not None:
            keep = mask[:, t:t + 1]
            h = np.where(keep, h, prev)
            new = [np.where(keep, n, s) for n, s in zip(new, states)]
        states, prev = new, h
        outs.append(h)
    return np.stack(outs, 1), states


_CELL_CASES = [("SimpleRNN", {"activation": "relu", "use_bias": False}),
               ("SimpleRNN", {"activation": "softsign"}),
               ("GRU", {"activation": "relu", "recurrent_activation": "hard_sigmoid", "reset_after": False}),
               ("GRU", {"activation": "softsign", "use_bias": False}),
               ("LSTM", {"activation": "relu", "recurrent_activation": "hard_sigmoid"}),
               ("LSTM", {"activation": "softsign", "recurrent_activation": "tanh", "use_bias": False})]


@clause("keras.rnn.layers", ref="tf221")
def test_options_recurrent_cells_in_rnn_take_their_options(tf, keras):
    """RNN(SimpleRNNCell/GRUCell/LSTMCell(activation, recurrent_activation, use_bias, reset_after))
    and the cell called on one step (`cell(x_t, states, training=True)` without dropout) against
    the NumPy cells; GRUCell(reset_after=False) applies the reset gate before the recurrent matmul
    and has a 1-D bias."""
    x = _x((2, 4, 3), 0.9)
    h0 = _x((2, 3), 0.4)
    for kind, opts in _CELL_CASES:
        cell = getattr(keras.layers, f"{kind}Cell")(3, **opts)
        layer = keras.layers.RNN(cell, return_sequences=True)
        out = layer(tf.constant(x))
        w = cell.get_weights()
        kw = dict(act=opts.get("activation", "tanh"), rec_act=opts.get("recurrent_activation", "sigmoid"),
                  use_bias=opts.get("use_bias", True), reset_after=opts.get("reset_after", True))
        zeros = [np.zeros((2, 3))] * (2 if kind == "LSTM" else 1)
        want, _ = _rnn(kind, x, w, zeros, **kw)
        call = f"RNN({kind}Cell(3, {opts}), return_sequences=True)"
        assert_equal(len(w), 3 if kw["use_bias"] else 2, call=call, what="len(cell.get_weights())")
        if kind == "GRU" and kw["use_bias"]:
            assert_equal(np.asarray(w[2]).shape, (9,) if not kw["reset_after"] else (2, 9), call=call,
                         what="bias.shape")
        assert_close(out, want, call=call, what="outputs", tolerance=TOL32)
        states = [tf.constant(h0)] + ([tf.constant(h0 * 0.5)] if kind == "LSTM" else [])
        y, new = cell(tf.constant(x[:, 0]), states, training=True)
        wy, wn = _cell_step(kind, x[:, 0].astype(np.float64), [h0.astype(np.float64), h0 * 0.5],
                            [np.asarray(v, np.float64) for v in w], kw["act"], kw["rec_act"], kw["use_bias"],
                            kw["reset_after"])
        assert_close([np.asarray(y)] + [np.asarray(s) for s in new], [wy] + wn,
                     call=f"{kind}Cell(3, {opts})(x_t, states, training=True)", what="[output, *states]",
                     tolerance=TOL32)


@clause("keras.rnn.layers", ref="tf221")
def test_options_recurrent_cell_dropouts(tf, keras):
    """Cells' dropout / recurrent_dropout (with a seed): with training=True SimpleRNNCell(linear,
    kernel I, recurrent 0) gives x·m with every m in {0, 1/(1-rate)} and some of each (the
    recurrent mask likewise on the state, kernel 0 and recurrent I); with training=False every cell
    is the undropped cell; two cells of the same seed drop the same entries; RNN(cell) passes
    `training` on (training=False: the undropped loop)."""
    L = keras.layers
    x = _x((4, 6), 1.0) + 2.0               # no zeros
    h = _x((4, 6), 0.5) + 1.5
    eye, zero = np.eye(6, dtype=np.float32), np.zeros((6, 6), np.float32)
    for which, weights, src in (("dropout", [eye, zero], x), ("recurrent_dropout", [zero, eye], h)):
        for rate in (0.25, 0.5):
            outs = []
            for _ in range(2):
                cell = L.SimpleRNNCell(6, activation="linear", use_bias=False, seed=7, **{which: rate})
                cell.build((None, 6))
                cell.set_weights(weights)
                out, _ = cell(tf.constant(x), [tf.constant(h)], training=True)
                outs.append(np.asarray(out, np.float64))
            call = f"SimpleRNNCell(6, linear, {which}={rate}, seed=7)(x, [h], training=True)"
            ratio = outs[0] / src
            scale = 1 / (1 - rate)
            on = np.isclose(ratio, scale, rtol=1e-5)
            off = np.isclose(ratio, 0.0, atol=1e-6)
            assert_true(bool(np.all(on | off)), f"{call}: out/src has entries {sorted(set(np.round(ratio, 4).ravel()))}"
                        f", but each should be 0 or {scale}")
            assert_true(bool(on.any() and off.any()), f"{call}: {int(off.sum())} of 24 entries dropped, but a "
                        f"rate of {rate} should drop some and keep some")
            assert_close(outs[1], outs[0], call=call + " twice, same seed", what="out",
                         tolerance=Tolerance(rtol=0, atol=0))
            cell = L.SimpleRNNCell(6, activation="linear", use_bias=False, seed=7, **{which: rate})
            cell.build((None, 6))
            cell.set_weights(weights)
            out, _ = cell(tf.constant(x), [tf.constant(h)], training=False)
            assert_close(out, src, call=call.replace("True", "False"), what="out", tolerance=TOL32)
    xs = _x((2, 4, 3), 0.9)
    for kind in ("SimpleRNN", "GRU", "LSTM"):
        cell = getattr(L, f"{kind}Cell")(3, dropout=0.5, recurrent_dropout=0.5, seed=3)
        layer = L.RNN(cell, return_sequences=True)
        out = layer(tf.constant(xs), training=False)
        zeros = [np.zeros((2, 3))] * (2 if kind == "LSTM" else 1)
        want, _ = _rnn(kind, xs, cell.get_weights(), zeros)
        assert_close(out, want, call=f"RNN({kind}Cell(3, dropout=0.5, recurrent_dropout=0.5, seed=3))(x, "
                     "training=False)", what="outputs", tolerance=TOL32)
        dropped = np.asarray(layer(tf.constant(xs), training=True), np.float64)
        assert_true(not np.allclose(dropped, want, rtol=1e-3, atol=1e-4),
                    f"RNN({kind}Cell(3, dropout=0.5, recurrent_dropout=0.5))(x, training=True) equals the undropped "
                    "loop, but half the inputs and states should be dropped")


@clause("keras.rnn.layers", ref="tf221")
def test_options_recurrent_layers_state_options(tf, keras):
    """SimpleRNN/GRU/LSTM/RNN(cell) with initial_state, mask, go_backwards, return_state, unroll,
    use_cudnn=False and stateful (the second call starts from the first's final states;
    reset_states() starts from zeros again), against the NumPy loop."""
    L = keras.layers
    x = _x((2, 4, 3), 0.9)
    x2 = _x((2, 4, 3), 0.6)[::-1].copy()
    mask = np.array([[True, False, True, True], [True, True, False, False]])
    h0 = _x((2, 2), 0.5) + 0.1
    c0 = _x((2, 2), 0.3)[::-1].copy()
    makers = {"SimpleRNN": lambda **o: L.SimpleRNN(2, **o), "GRU": lambda **o: L.GRU(2, **o),
              "LSTM": lambda **o: L.LSTM(2, **o),
              "RNN(GRUCell)": lambda **o: L.RNN(L.GRUCell(2), **o)}
    for label, make in makers.items():
        kind = label.replace("RNN(", "").replace("Cell)", "")
        init = [h0, c0] if kind == "LSTM" else [h0]
        for opts, use_mask in (({"go_backwards": True, "unroll": True}, True), ({"unroll": True}, False),
                               ({"go_backwards": True}, False)):
            if kind == "LSTM":
                opts = dict(opts, use_cudnn=False)
            layer = make(return_sequences=True, return_state=True, **opts)
            kwargs = {"initial_state": [tf.constant(s) for s in init]}
            if use_mask:
                kwargs["mask"] = tf.constant(mask)
            got = layer(tf.constant(x), **kwargs)
            seq, states = got[0], got[1:]
            wseq, wstates = _rnn(kind, x, layer.get_weights(), init, mask if use_mask else None,
                                 backwards=opts.get("go_backwards", False))
            call = f"{label}(2, return_sequences=True, return_state=True, {opts})(x, initial_state" + \
                   (", mask)" if use_mask else ")")
            assert_close(seq, wseq, call=call, what="sequence", tolerance=TOL32)
            assert_close([np.asarray(s) for s in states], wstates, call=call, what="states", tolerance=TOL32)
        layer = make(stateful=True)
        first = layer(tf.constant(x))
        second = layer(tf.constant(x2))
        zeros = [np.zeros((2, 2))] * len(init)
        w = layer.get_weights()
        o1, s1 = _rnn(kind, x, w, zeros)
        o2, _ = _rnn(kind, x2, w, s1)
        assert_close([np.asarray(first), np.asarray(second)], [o1[:, -1], o2[:, -1]],
                     call=f"{label}(2, stateful=True): two calls", what="[first, second] last outputs",
                     tolerance=TOL32)
        layer.reset_states()
        assert_close(layer(tf.constant(x2)), _rnn(kind, x2, w, zeros)[0][:, -1],
                     call=f"{label}(2, stateful=True) after reset_states()", what="last output", tolerance=TOL32)


@clause("keras.rnn.layers", ref="tf221")
def test_options_bidirectional_weights_initial_state_and_training(tf, keras):
    """Bidirectional(LSTM, weights=[forward..., backward...]) ignores the weights (Keras 3.15 parks
    them on an attribute nothing reads); initial_state=[forward h, c, backward h, c] starts each direction from its pair; training=False
    leaves a dropout-carrying layer undropped (concat merge: forward last, backward last)."""
    L = keras.layers
    x = _x((2, 4, 3), 0.9)
    fw = [_x((3, 8), 0.3), _x((2, 8), 0.2)[::-1].copy(), _x((8,), 0.1)]
    bw = [_x((3, 8), 0.25)[::-1].copy(), _x((2, 8), 0.15), _x((8,), 0.05)[::-1].copy()]
    states = [_x((2, 2), 0.5) + 0.1, _x((2, 2), 0.3), _x((2, 2), 0.2)[::-1].copy(), _x((2, 2), 0.4) - 0.1]
    layer = L.Bidirectional(L.LSTM(2, dropout=0.5, recurrent_dropout=0.5, seed=1), weights=fw + bw)
    out = layer(tf.constant(x), initial_state=[tf.constant(s) for s in states], training=False)
    got_w = [np.asarray(w) for w in layer.get_weights()]
    same = [i for i, (g, w) in enumerate(zip(got_w, fw + bw)) if g.shape == w.shape and np.array_equal(g, w)]
    assert_true(len(got_w) == 6 and not same, f"Bidirectional(LSTM(2), weights=fw + bw): weights {same} equal the "
                "given ones, but Keras 3.15 ignores `weights` (it sets an `initial_weights` attribute nothing reads)")
    fw, bw = got_w[:3], got_w[3:]
    f, _ = _rnn("LSTM", x, fw, states[:2])
    b, _ = _rnn("LSTM", x, bw, states[2:], backwards=True)
    assert_close(out, np.concatenate([f[:, -1], b[:, -1]], -1), call="Bidirectional(LSTM(2, dropout=0.5, "
                 "recurrent_dropout=0.5), weights=...)(x, initial_state=[hf, cf, hb, cb], training=False)",
                 what="out", tolerance=TOL32)
    emb = np.array([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]], np.float32)
    e = L.Embedding(3, 2, weights=emb)
    got = e(tf.constant(np.array([[2, 0, 1]])))
    assert_close(got, emb[[2, 0, 1]][None], call="Embedding(3, 2, weights=emb)([[2, 0, 1]])", tolerance=TOL32)


# -- MultiHeadAttention: use_bias, use_gate, flash_attention, training ----------------------------------------
def _mha(q, v, W, heads, use_bias, use_gate):
    """Keras 3.15's MultiHeadAttention in float64 (self-attention when q is v). W by path suffix."""
    def proj(x, name):
        y = np.einsum("btd,dnh->btnh", x, W[f"{name}/kernel"])
        return y + W[f"{name}/bias"] if use_bias else y
    qp, kp, vp = proj(q, "query"), proj(v, "key"), proj(v, "value")
    kd = qp.shape[-1]
    s = np.einsum("bsnh,btnh->bnts", kp, qp / np.sqrt(kd))
    s = np.exp(s - s.max(-1, keepdims=True))
    s = s / s.sum(-1, keepdims=True)
    o = np.einsum("bnts,bsnh->btnh", s, vp)
    if use_gate:
        o = o * _SIG(proj(q, "gate"))
    out = np.einsum("btnh,nhd->btd", o, W["attention_output/kernel"])
    return out + W["attention_output/bias"] if use_bias else out


@clause("keras.layer.option-coverage", ref="tf221")
def test_options_attention_without_bias_with_gate_and_inference_dropout(tf, keras):
    """MultiHeadAttention(use_bias=False): no bias weights; use_gate=True: a sigmoid gate
    (an EinsumDense of the query) multiplies the heads' outputs before the output projection;
    flash_attention=False and dropout with training=False give the plain attention."""
    q = _x((2, 4, 3), 0.8)
    for use_bias, use_gate in ((False, False), (True, True), (False, True)):
        layer = keras.layers.MultiHeadAttention(2, 3, use_bias=use_bias, use_gate=use_gate, flash_attention=False,
                                                dropout=0.5, seed=5, kernel_initializer=keras.initializers.RandomNormal(
                                                    stddev=0.5, seed=11), bias_initializer="ones")
        out = layer(tf.constant(q), tf.constant(q), training=False)
        W = {}
        for v in layer.weights:
            parts = v.path.split("/")
            W["/".join(parts[-2:])] = np.asarray(v, np.float64)
        call = f"MultiHeadAttention(2, 3, use_bias={use_bias}, use_gate={use_gate}, dropout=0.5)(q, q, training=False)"
        n_bias = sum(1 for k in W if k.endswith("/bias"))
        assert_equal(n_bias, (5 if use_gate else 4) if use_bias else 0, call=call, what="number of bias weights")
        assert_equal(sum(1 for k in W if k.endswith("/kernel")), 5 if use_gate else 4, call=call,
                     what="number of kernels")
        assert_close(out, _mha(q.astype(np.float64), q.astype(np.float64), W, 2, use_bias, use_gate), call=call,
                     what="out", tolerance=TOL32)
    ed = keras.layers.EinsumDense("abc,cd->abd", output_shape=(4, 2), bias_axes="d")
    plain = np.asarray(ed(tf.constant(q)))
    assert_close(ed(tf.constant(q), training=True), plain, call="EinsumDense(...)(x, training=True)",
                 what="out (training does not change a dense projection)", tolerance=Tolerance(rtol=0, atol=0))


# -- convolutions and pooling: data formats, strides, keepdims ------------------------------------------------
def _sepconv1d(x, dk, pk, stride, padding):
    """NWC x; depthwise (k, in, dm) then pointwise (1, in*dm, f), in float64; TF's SAME padding."""
    n, length, cin = x.shape
    ks, _, dm = dk.shape
    if padding == "same":
        out = -(-length // stride)
        total = max((out - 1) * stride + ks - length, 0)
        x = np.pad(x, ((0, 0), (total // 2, total - total // 2), (0, 0)))
    out_len = (x.shape[1] - ks) // stride + 1
    dw = np.stack([sum((x[:, t * stride + j][:, :, None] * dk[j][None]).reshape(n, cin * dm) for j in range(ks))
                   for t in range(out_len)], 1)
    return dw @ pk[0]


@clause("keras.layer.option-coverage", ref="tf221")
def test_options_one_dimensional_layers_take_their_formats(tf, keras, onednn_float32):
    """SeparableConv1D(strides, padding, data_format, activation, use_bias) and Conv1D(data_format=
    'channels_first', use_bias=False) against NumPy; GlobalAveragePooling1D/GlobalMaxPooling1D
    with data_format='channels_first' reduce the last axis, keepdims keeps it as 1."""
    L = keras.layers
    x = _x((2, 9, 3), 1.1)
    dk = _x((3, 3, 2), 0.7)[::-1].copy()
    pk = _x((1, 6, 4), 0.5) + 0.05
    b = np.array([0.1, -0.2, 0.3, -0.05], np.float32)
    for stride, padding, fmt, use_bias in ((2, "same", "channels_first", True), (1, "valid", "channels_first", False),
                                           (2, "valid", "channels_last", False)):
        xin = x if fmt == "channels_last" else np.ascontiguousarray(np.transpose(x, (0, 2, 1)))
        layer = L.SeparableConv1D(4, 3, strides=stride, padding=padding, data_format=fmt, activation="relu",
                                  use_bias=use_bias, depth_multiplier=2)
        layer.build((None,) + xin.shape[1:])
        layer.set_weights([dk, pk, b] if use_bias else [dk, pk])
        got = np.asarray(layer(tf.constant(xin)))
        got = got if fmt == "channels_last" else np.transpose(got, (0, 2, 1))
        want = np.maximum(_sepconv1d(x.astype(np.float64), dk.astype(np.float64), pk.astype(np.float64), stride,
                                     padding) + (b if use_bias else 0), 0)
        assert_close(got, want, call=f"SeparableConv1D(4, 3, strides={stride}, padding={padding!r}, data_format="
                     f"{fmt!r}, activation='relu', use_bias={use_bias}, depth_multiplier=2)", tolerance=TOL32)
    k = _x((2, 3, 4), 0.6)
    conv = L.Conv1D(4, 2, data_format="channels_first", use_bias=False)
    xt = np.ascontiguousarray(np.transpose(x, (0, 2, 1)))
    conv.build((None, 3, 9))
    assert_equal(len(conv.weights), 1, call="Conv1D(4, 2, use_bias=False)", what="len(weights)")
    conv.set_weights([k])
    want = np.stack([x[:, t] @ k[0] + x[:, t + 1] @ k[1] for t in range(8)], 1)
    assert_close(np.transpose(np.asarray(conv(tf.constant(xt))), (0, 2, 1)), want,
                 call="Conv1D(4, 2, data_format='channels_first', use_bias=False)", tolerance=TOL32)
    for keep in (False, True):
        got = L.GlobalMaxPooling1D(data_format="channels_first", keepdims=keep)(tf.constant(xt))
        assert_close(got, x.max(1)[:, :, None] if keep else x.max(1),
                     call=f"GlobalMaxPooling1D(data_format='channels_first', keepdims={keep})", tolerance=TOL32)
        got = L.GlobalMaxPooling1D(keepdims=keep)(tf.constant(x))
        assert_close(got, x.max(1)[:, None] if keep else x.max(1), call=f"GlobalMaxPooling1D(keepdims={keep})",
                     tolerance=TOL32)
    got = L.GlobalAveragePooling1D(data_format="channels_first")(tf.constant(xt))
    assert_close(got, x.mean(1), call="GlobalAveragePooling1D(data_format='channels_first')", tolerance=TOL32)


def _bilinear_axis(n_in, n_out):
    """tf.image.resize bilinear (half-pixel centres) along one axis: (n_out, n_in) weights."""
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        src = (o + 0.5) * n_in / n_out - 0.5
        lo = int(np.floor(src))
        frac = src - lo
        lo_c, hi_c = min(max(lo, 0), n_in - 1), min(max(lo + 1, 0), n_in - 1)
        m[o, lo_c] += 1 - frac
        m[o, hi_c] += frac
    return m


@clause("keras.layer.option-coverage", ref="tf221")
def test_options_upsampling_bilinear_and_softmax_mask(tf, keras):
    """UpSampling2D(size, interpolation='bilinear') is tf.image.resize's bilinear with half-pixel
    centres (NumPy: a separable interpolation matrix per axis); Softmax()(x, mask) normalises over
    the unmasked entries and gives 0 at masked ones (all masked: zeros)."""
    x = _x((2, 3, 4, 2), 1.3)
    for size in ((2, 2), (3, 2)):
        got = keras.layers.UpSampling2D(size=size, interpolation="bilinear")(tf.constant(x))
        mh, mw = _bilinear_axis(3, 3 * size[0]), _bilinear_axis(4, 4 * size[1])
        want = np.einsum("ph,qw,nhwc->npqc", mh, mw, x.astype(np.float64))
        assert_close(got, want, call=f"UpSampling2D(size={size}, interpolation='bilinear')", tolerance=TOL32)
    z = _x((3, 5), 2.0)
    mask = np.array([[True, False, True, True, False], [False] * 5, [True] * 5])
    got = keras.layers.Softmax()(tf.constant(z), mask=tf.constant(mask))
    e = np.where(mask, np.exp(z - z.max(-1, keepdims=True)), 0.0)
    s = e.sum(-1, keepdims=True)
    want = np.divide(e, s, out=np.zeros_like(e), where=s > 0)
    assert_close(got, want, call="Softmax()(x, mask=m) (row 1 all masked)", tolerance=TOL32)


@clause("keras.layer.option-coverage", ref="tf221")
def test_options_batch_renormalization(tf, keras):
    """BatchNormalization(renorm=True, renorm_clipping, renorm_momentum) with training=True: the
    batch is normalised with its own moments, then x·r + d with r = σ_B / σ_renorm clipped to
    [rmin, rmax] and d = (μ_B − μ_renorm) / σ_renorm clipped to ±dmax (σ_renorm floored at √ε),
    before gamma and beta; then renorm_mean/renorm_stddev move by renorm_momentum and
    moving_mean/moving_stddev by momentum, moving_variance = relu(stddev² − ε). training=False uses
    the moving statistics. Three batches, every state checked after each (Keras 3.15's rule)."""
    eps, mom, rmom = 1e-3, 0.9, 0.8
    clip = {"rmax": 1.5, "rmin": 0.5, "dmax": 0.3}
    layer = keras.layers.BatchNormalization(renorm=True, renorm_clipping=clip, renorm_momentum=rmom, momentum=mom,
                                            epsilon=eps, gamma_initializer=keras.initializers.Constant(1.5),
                                            beta_initializer=keras.initializers.Constant(-0.25))
    rm, rs = np.zeros(3), np.ones(3)
    mm, ms = np.zeros(3), np.ones(3)
    for step in range(3):
        x = (_x((6, 3), 1.5 + step) + 0.7 * step).astype(np.float32)
        out = layer(tf.constant(x), training=True)
        xd = x.astype(np.float64)
        mu, var = xd.mean(0), xd.var(0)
        sd = np.sqrt(var + eps)
        rsd = np.maximum(rs, np.sqrt(eps))
        r = np.clip(sd / rsd, clip["rmin"], clip["rmax"])
        d = np.clip((mu - rm) / rsd, -clip["dmax"], clip["dmax"])
        want = (xd - mu) / np.sqrt(var + eps) * (r * 1.5) + (d * 1.5 - 0.25)
        call = f"BatchNormalization(renorm=True, renorm_clipping={clip}, renorm_momentum={rmom}) batch {step}"
        assert_close(out, want, call=call, what="out (training=True)", tolerance=TOL32)
        rm, rs = rm * rmom + mu * (1 - rmom), rs * rmom + sd * (1 - rmom)
        mm, ms = mm * mom + mu * (1 - mom), ms * mom + sd * (1 - mom)
        state = {_wname(v): np.asarray(v) for v in layer.weights}
        for name, value in (("renorm_mean", rm), ("renorm_stddev", rs), ("moving_mean", mm), ("moving_stddev", ms),
                            ("moving_variance", np.maximum(ms * ms - eps, 0))):
            assert_close(state[name], value, call=call, what=name, tolerance=TOL32)
    x = _x((4, 3), 0.8)
    assert_close(layer(tf.constant(x), training=False), (x - mm) / np.sqrt(np.maximum(ms * ms - eps, 0) + eps) * 1.5
                 - 0.25, call="BatchNormalization(renorm=True)(x, training=False)", what="out", tolerance=TOL32)
