"""The Keras attention, recurrent and normalization layer sweep's programs (test_lsweep57.py): every layer of the three
families crossed by rule over its options (each off its default, and its default by omission), masks (a fully masked
row), return_* flags, the two code paths Keras picks between (MultiHeadAttention's and GroupedQueryAttention's
dot-product fast path and their einsum path), float32, float64 and mixed_float16, eagerly and inside a tf.function
(fit's path): the output, and the gradient of a non-uniform upstream w.r.t. every input and every trainable weight,
plus the non-trainable state a call changes (BatchNormalization's moving statistics, a stateful RNN's states,
SpectralNormalization's u), recorded bit for bit on TF 2.21.

Every weight is assigned seeded values after the layer is built (rng(layer name/weight index) arithmetic, variances and
standard deviations in [0.5, 1.5]), so no initializer's draws enter; inputs are seeded normals with exact zeros.
Contractions stay at 8 terms or fewer (feature, unit, head and sequence sizes <= 8): simdist's float32/float64 MatMul
of longer contractions is kpaths54's and ksweep55's open class, not this sweep's subject.
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, upstream, without_open
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                          reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "lsweep57_reference.json.gz")

#: recorded on this session's AVX-512 Xeon with oneDNN on: the layers' float32 products go through oneDNN there
REF = RecordedPrograms(PATH, host_dependent=("ls-",), recording_host=avx512_with_onednn,
                       recording_cpu=reference_cpu)

DTYPES = ("float32", "float64", "mixed_float16")
MODES = ("eager", "function")

#: simdist's disagreements with TF 2.21 the sweep found and this session did not fix: program -> case keys ("case" or
#: "case/field", a case "<option>:<mode>") left out of the comparison (docs/conformance.md, "Fifty-seventh session ...
#: lsweep57"). Every one is a gradient (or a float64/float16 value) a unit or a few in the last place off, where a sum's
#: order decides: (a) the RNN loop's gradients inside a tf.function (TF's while-loop gradient accumulates the per-step
#: kernel gradients in another order than simdist's) — every cell, both directions, and stateful layers; (b) GRU with
#: reset_after=False, eagerly too: the recurrent kernel's gradient (the (r * h) @ U_h product's transpose-matmul);
#: (c) ConvLSTM1D/2D's and SpectralNormalization(Conv2D)'s kernel gradients (Conv2D backprop filter sums);
#: (d) float64 attention: GroupQueryAttention's einsums and MultiHeadAttention's/Attention's in a tf.function (Eigen's
#: float64 contraction: kpaths54's and ksweep55's open class); (e) mixed_float16 MultiHeadAttention and
#: GroupQueryAttention gradients (float16 bias-gradient sums: keras.mha.values says not bit-exact); (f) GRU under
#: mixed_float16 in a tf.function (values too); (g) GRU/LSTM implementation=1's
#: gradients (the per-gate kernel slices' products). Outputs in float32 eagerly, and every normalization, agree.
OPEN: dict[str, tuple[str, ...]] = {
    'ls-attention-float64': (
        'default-causal-masks:function/g', 'scale-scores:function/g', 'scale-scores:function/y',
    ),
    'ls-convlstm': (
        '1d-dilated-nobias:eager/g', '1d-seq-same-back:eager/g', '1d-state-mask:eager/g', '1d:eager/g',
        '2d-same-strides:eager/g', '2d:eager/g',
    ),
    'ls-gqa-float64': (
        'default-scores:eager/g', 'default-scores:eager/y', 'default-scores:function/g',
        'default-scores:function/y', 'default:eager/g', 'default:eager/y', 'default:function/g',
        'default:function/y', 'einsum-qvmask:eager/g', 'einsum-qvmask:eager/y', 'einsum-qvmask:function/g',
        'einsum-qvmask:function/y', 'fast-window2:eager/g', 'fast-window2:eager/y', 'fast-window2:function/g',
        'fast-window2:function/y',
    ),
    'ls-gqa-mixed_float16': (
        'default-scores:eager/g', 'default-scores:function/g', 'default:eager/g', 'default:function/g',
        'einsum-qvmask:eager/g', 'einsum-qvmask:function/g', 'fast-window2:eager/g', 'fast-window2:function/g',
    ),
    'ls-mha-float64': (
        'default-scores:function/g', 'einsum-qvmask:function/g',
    ),
    'ls-mha-mixed_float16': (
        'default-scores:eager/g', 'default-scores:function/g', 'default:eager/g', 'default:function/g',
        'einsum-qvmask:eager/g', 'einsum-qvmask:function/g', 'fast-causal-amask:eager/g',
        'fast-causal-amask:function/g', 'fast-self-causal:eager/g', 'fast-self-causal:function/g',
    ),
    'ls-rnn-gru-before-float32': (
        'impl1-mask:eager/g', 'back-seq-mask:eager/g', 'back-seq-mask:function/g', 'bidi-concat:eager/g', 'bidi-state:eager/g',
        'cell:eager/g', 'default-mask:eager/g', 'initial-state-mask-back:eager/g', 'initial-state:eager/g',
        'masking-layer:eager/g', 'recurrent-hard:eager/g', 'relu-nobias-dropout-mask:eager/g',
        'seq-state-mask:eager/g', 'seq-state-mask:function/g', 'stacked:eager/g', 'unroll-back-mask:eager/g',
        'unroll-seq:eager/g',
    ),
    'ls-rnn-gru-float32': (
        'impl1-mask:eager/g', 'back-seq-mask:function/g', 'relu-nobias-dropout-mask:eager/g', 'seq-state-mask:function/g',
    ),
    'ls-rnn-gru-float64': (
        'back-seq-mask:function/g', 'seq-state-mask:function/g',
    ),
    'ls-rnn-gru-mixed_float16': (
        'back-seq-mask:function/g', 'back-seq-mask:function/y', 'seq-state-mask:function/g',
        'seq-state-mask:function/y',
    ),
    'ls-rnn-lstm-float32': (
        'impl1-mask:eager/g', 'back-seq-mask:function/g', 'seq-state-mask:function/g',
    ),
    'ls-rnn-simple-float32': (
        'back-seq-mask:function/g', 'seq-state-mask:function/g',
    ),
    'ls-rnn-stateful': (
        'gru-before:eager:first/g', 'gru-before:eager:second/g', 'gru-before:function:first/g',
        'gru-before:function:second/g', 'gru:function:first/g', 'gru:function:second/g', 'lstm:function:first/g',
        'lstm:function:second/g', 'simple:function:first/g', 'simple:function:second/g',
    ),
    'ls-spectral': (
        'conv-train:eager/g',
    ),
}


def program(name: str, fn: Callable[[Any, Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf, mk))), OPEN)))


def arr(name: str, shape: tuple[int, ...], scale: float = 0.7) -> np.ndarray:
    """Seeded normals of `shape` times `scale`, every seventh value an exact zero."""
    a = rng(f"ls/{name}/{shape}").standard_normal(shape) * scale
    a.ravel()[3::7] = 0.0
    return a


def _dt_name(d: Any) -> str:
    return d if isinstance(d, str) else d.name


def compute_dtype(dt: str) -> str:
    return "float16" if dt == "mixed_float16" else dt


def seed_weights(layer: Any, name: str) -> None:
    """Every floating weight of `layer` assigned seeded values (variances and standard deviations in [0.5, 1.5])."""
    for i, v in enumerate(layer.weights):
        vdt = _dt_name(v.dtype)
        if not vdt.startswith(("float", "bfloat")):
            continue
        shape = tuple(int(s) for s in v.shape)
        path = str(getattr(v, "path", v.name))
        if "variance" in path or "stddev" in path:
            a = rng(f"ls/{name}/{i}").uniform(0.5, 1.5, shape)
        else:
            a = arr(f"{name}/{i}", shape, 0.5)
        v.assign(np.asarray(a, dtype=vdt))


def tensor(tf: Any, a: Any, dt: str) -> Any:
    """An input of the layer's input dtype (mixed_float16 layers take float32 inputs, as from a float32 model)."""
    return tf.constant(np.asarray(a, "float32" if dt == "mixed_float16" else dt))


def _flat(y: Any) -> list[Any]:
    if isinstance(y, (list, tuple)):
        out: list[Any] = []
        for e in y:
            out.extend(_flat(e))
        return out
    return [] if y is None else [y]


def run(tf: Any, layer: Any, call: Callable[..., Any], xs: list[Any], mode: str, name: str,
        state: Callable[[], Any] | None = None) -> Any:
    """call(*xs)'s outputs and the gradients of a non-uniform upstream w.r.t. xs and layer's trainable weights, in
    `mode` (eager or inside a tf.function); `state()` after the call (moving statistics, RNN states) if given."""
    def body(*vs: Any) -> Any:
        with tf.GradientTape() as t:
            for v in vs:
                t.watch(v)
            ys = _flat(call(*vs))
        ups = [upstream(tf, f"{name}/{i}", tuple(y.shape), y.dtype.name) if y.dtype.is_floating else None
               for i, y in enumerate(ys)]
        fys = [y for y, u in zip(ys, ups) if u is not None]
        grads = t.gradient(fys, list(vs) + list(layer.trainable_weights),
                           output_gradients=[u for u in ups if u is not None])
        return ys, grads

    def go() -> Any:
        f = body if mode == "eager" else tf.function(body)
        ys, grads = f(*xs)
        out = {"y": [bits(y) for y in ys], "dtype": [y.dtype.name for y in ys],
               "g": [None if d is None else bits(tf.convert_to_tensor(d)) for d in grads]}
        if state is not None:
            out["state"] = [bits(s) for s in _flat(state())]
        return out
    return error(go)


def built(tf: Any, make: Callable[[], Any], call: Callable[..., Any], xs: list[Any], name: str) -> Any:
    """A fresh layer, built by one inference call, every weight then seeded."""
    layer = make()
    call(layer, *xs)
    seed_weights(layer, name)
    return layer


def sweep(tf: Any, cases: dict[str, tuple[Callable[[], Any], Callable[..., Any], list[Any]]],
          state: Callable[[Any], Any] | None = None, reset: Callable[[Any], None] | None = None,
          dt: str = "float32", keep: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every case (make, call, inputs) eagerly, each on a fresh layer; the `keep` cases also inside a tf.function.
    Other dtypes than float32 run only the `keep` cases (the budget: the options are crossed in float32, the dtypes
    on the cases where a dtype's rule shows: masks, scores, the fast path)."""
    out: dict[str, Any] = {}
    for key, (make, call, xs) in cases.items():
        if dt != "float32" and key not in keep:
            continue
        for mode in (MODES if key in keep else ("eager",)):
            def one(make: Any = make, call: Any = call, xs: Any = xs, mode: str = mode, key: str = key) -> Any:
                layer = built(tf, make, call, xs, key)
                if reset is not None:
                    reset(layer)
                return run(tf, layer, lambda *vs: call(layer, *vs), xs, mode, key,
                           None if state is None else lambda: state(layer))
            out[f"{key}:{mode}"] = error(one)
    return out


# -- 1. Attention and AdditiveAttention -----------------------------------------------------------------------------
B, TQ, TV, D = 2, 4, 3, 5
QMASK = [[True, True, False, True], [True, True, True, True]]
VMASK = [[True, False, True], [False, False, False]]   # the second row fully masked


def _attention_cases(tf: Any, dt: str, additive: bool) -> dict[str, Any]:
    L = tf.keras.layers
    q, v, k = (tensor(tf, arr(f"att{additive}{n}", s), dt) for n, s in (("q", (B, TQ, D)), ("v", (B, TV, D)),
                                                                          ("k", (B, TV, D))))
    qm, vm = tf.constant(QMASK), tf.constant(VMASK)

    def mk(**kw: Any) -> Callable[[], Any]:
        if additive:
            return lambda: L.AdditiveAttention(dtype=dt, name="ls_additive", **kw)
        return lambda: L.Attention(dtype=dt, name="ls_attention", **kw)
    opts: dict[str, dict[str, Any]] = {"default": {}, "scale": {"use_scale": not additive}}
    if not additive:
        opts["concat-scale"] = {"score_mode": "concat", "use_scale": True, "dropout": 0.0}
    cases: dict[str, Any] = {}
    for o, kw in opts.items():
        cases[f"{o}"] = (mk(**kw), lambda l, q, v: l([q, v]), [q, v])
        cases[f"{o}-key"] = (mk(**kw), lambda l, q, v, k: l([q, v, k]), [q, v, k])
        cases[f"{o}-masks"] = (mk(**kw), lambda l, q, v: l([q, v], mask=[qm, vm]), [q, v])
        cases[f"{o}-causal-masks"] = (mk(**kw), lambda l, q, v, k: l([q, v, k], mask=[qm, vm], use_causal_mask=True),
                                      [q, v, k])
        cases[f"{o}-scores"] = (mk(**kw), lambda l, q, v: l([q, v], mask=[qm, vm], return_attention_scores=True),
                                [q, v])
        cases[f"{o}-scores-causal"] = (mk(**kw), lambda l, q, v: l([q, v], return_attention_scores=True,
                                                                   use_causal_mask=True), [q, v])
    return cases


#: the cases run in every dtype and inside a tf.function too
ATT_KEEP = ("default-causal-masks", "scale-scores", "concat-scale-scores-causal")

for _dt in DTYPES:
    def _att(tf: Any, mk: Any, dt: str = _dt) -> Any:
        return sweep(tf, _attention_cases(tf, dt, False), dt=dt, keep=ATT_KEEP)

    def _add(tf: Any, mk: Any, dt: str = _dt) -> Any:
        return sweep(tf, _attention_cases(tf, dt, True), dt=dt, keep=ATT_KEEP)
    program(f"ls-attention-{_dt}", _att)
    program(f"ls-additive-{_dt}", _add)


# -- 2. MultiHeadAttention: the fast path (ops.dot_product_attention) and the einsum path ------------------------------
def _mha_cases(tf: Any, dt: str) -> dict[str, Any]:
    L = tf.keras.layers
    q = tensor(tf, arr("mhaq", (B, TQ, D)), dt)
    v = tensor(tf, arr("mhav", (B, TV, 6)), dt)
    k = tensor(tf, arr("mhak", (B, TV, 4)), dt)
    q4 = tensor(tf, arr("mhaq4", (B, 2, 3, D)), dt)
    v4 = tensor(tf, arr("mhav4", (B, 2, 3, 6)), dt)
    am = tf.constant([[[True, False, True], [True, True, True], [False, False, False], [False, True, True]],
                      [[True, True, False], [False, True, False], [True, True, True], [True, False, False]]])
    qm, vm = tf.constant(QMASK), tf.constant([[True, False, True], [True, True, False]])

    def mk(**kw: Any) -> Callable[[], Any]:
        kw.setdefault("num_heads", 2)
        kw.setdefault("key_dim", 3)
        return lambda: L.MultiHeadAttention(dtype=dt, name="ls_mha", **kw)
    c: dict[str, Any] = {}
    #: the options: the fast path unless dropout > 0 or scores are returned or the projected query is not 4-D
    for o, kw in {"default": {}, "heads1": {"num_heads": 1, "key_dim": 8}, "heads4-vdim": {"num_heads": 4, "key_dim": 2,
                  "value_dim": 4, "output_shape": 7}, "outtuple-nobias": {"output_shape": (2, 3), "use_bias": False},
                  "dropout-infer": {"dropout": 0.25}}.items():
        c[o] = (mk(**kw), lambda l, q, v: l(q, v, training=False), [q, v])
        c[f"{o}-scores"] = (mk(**kw), lambda l, q, v: l(q, v, return_attention_scores=True, training=False), [q, v])
    for path, kw in (("fast", {}), ("einsum", {"return_attention_scores": True})):
        c[f"{path}-key"] = (mk(), lambda l, q, v, k, kw=kw: l(q, v, key=k, **kw), [q, v, k])
        c[f"{path}-amask"] = (mk(), lambda l, q, v, kw=kw: l(q, v, attention_mask=am, **kw), [q, v])
        c[f"{path}-causal-amask"] = (mk(), lambda l, q, v, kw=kw: l(q, v, attention_mask=am, use_causal_mask=True,
                                                                    **kw), [q, v])
        c[f"{path}-qvmask"] = (mk(), lambda l, q, v, kw=kw: l(q, v, query_mask=qm, value_mask=vm, **kw), [q, v])
        c[f"{path}-kmask"] = (mk(), lambda l, q, v, k, kw=kw: l(q, v, key=k, key_mask=vm, value_mask=vm, **kw),
                              [q, v, k])
        c[f"{path}-self-causal"] = (mk(), lambda l, q, kw=kw: l(q, q, use_causal_mask=True, **kw), [q])
    #: attention over other axes: the projected query is 5-D, the einsum path
    for o, axes in (("axes12", (1, 2)), ("axes1", 1)):
        c[o] = (mk(attention_axes=axes), lambda l, q, v: l(q, v), [q4, v4])
        c[f"{o}-scores"] = (mk(attention_axes=axes), lambda l, q, v: l(q, v, return_attention_scores=True), [q4, v4])
    return c


def _gqa_cases(tf: Any, dt: str) -> dict[str, Any]:
    L = tf.keras.layers
    q = tensor(tf, arr("gqaq", (B, TQ, D)), dt)
    v = tensor(tf, arr("gqav", (B, TV, 6)), dt)
    k = tensor(tf, arr("gqak", (B, TV, 4)), dt)
    qq = tensor(tf, arr("gqaqq", (B, 6, D)), dt)
    km = tf.constant([[False, True, True], [True, False, True]])
    am = tf.constant([[[True, False, True]] * 2 + [[False, False, False]] * 2,
                      [[True, True, False], [True, True, True], [False, True, True], [True, False, False]]])
    qm, vm = tf.constant(QMASK), tf.constant([[True, False, True], [True, True, False]])

    def mk(**kw: Any) -> Callable[[], Any]:
        kw.setdefault("head_dim", 3)
        kw.setdefault("num_query_heads", 4)
        kw.setdefault("num_key_value_heads", 2)
        return lambda: L.GroupQueryAttention(dtype=dt, name="ls_gqa", **kw)
    c: dict[str, Any] = {}
    for o, kw in {"default": {}, "kv1-nobias": {"num_key_value_heads": 1, "use_bias": False},
                  "kv4-gate": {"num_key_value_heads": 4, "use_gate": True}, "dropout-infer": {"dropout": 0.25}}.items():
        c[o] = (mk(**kw), lambda l, q, v: l(q, v, training=False), [q, v])
        c[f"{o}-scores"] = (mk(**kw), lambda l, q, v: l(q, v, return_attention_scores=True, training=False), [q, v])
    for path, kw in (("fast", {}), ("einsum", {"return_attention_scores": True})):
        c[f"{path}-key"] = (mk(), lambda l, q, v, k, kw=kw: l(q, v, key=k, **kw), [q, v, k])
        c[f"{path}-amask"] = (mk(), lambda l, q, v, kw=kw: l(q, v, attention_mask=am, **kw), [q, v])
        c[f"{path}-qvmask"] = (mk(), lambda l, q, v, kw=kw: l(q, v, query_mask=qm, value_mask=vm, **kw), [q, v])
        c[f"{path}-kmask"] = (mk(), lambda l, q, v, k, kw=kw: l(q, v, key=k, key_mask=km, value_mask=vm, **kw),
                              [q, v, k])
        c[f"{path}-window2"] = (mk(sliding_window=2), lambda l, q, kw=kw: l(q, q, use_causal_mask=True, **kw), [qq])
        c[f"{path}-window2-nocausal"] = (mk(sliding_window=2), lambda l, q, kw=kw: l(q, q, **kw), [qq])
    return c


#: the cases run in every dtype and inside a tf.function too: each path with a mask, the causal masks
MHA_KEEP = ("default", "default-scores", "fast-causal-amask", "einsum-qvmask", "fast-self-causal", "fast-window2")

for _dt in DTYPES:
    def _mha(tf: Any, mk: Any, dt: str = _dt) -> Any:
        return sweep(tf, _mha_cases(tf, dt), dt=dt, keep=MHA_KEEP)

    def _gqa(tf: Any, mk: Any, dt: str = _dt) -> Any:
        return sweep(tf, _gqa_cases(tf, dt), dt=dt, keep=MHA_KEEP)
    program(f"ls-mha-{_dt}", _mha)
    program(f"ls-gqa-{_dt}", _gqa)


# -- 3. recurrent layers: SimpleRNN, GRU (reset_after both), LSTM, their cells in RNN, Bidirectional, ConvLSTM -------
RB, RT, RF, RU = 3, 5, 4, 3
#: a mask with a fully masked row (the third), a row masked at its start and one masked at its end
RMASK = [[True, True, True, False, False], [False, True, True, True, True], [False] * 5]
RECURRENT = ("simple", "gru", "gru-before", "lstm")


def _rnn_layer(L: Any, kind: str, dt: str, **kw: Any) -> Any:
    if kind == "simple":
        return L.SimpleRNN(RU, dtype=dt, name="ls_simple", **kw)
    if kind == "gru":
        return L.GRU(RU, dtype=dt, name="ls_gru", **kw)
    if kind == "gru-before":
        return L.GRU(RU, reset_after=False, dtype=dt, name="ls_gru", **kw)
    return L.LSTM(RU, dtype=dt, name="ls_lstm", **kw)


def _rnn_cell(L: Any, kind: str, dt: str, i: int = 0, **kw: Any) -> Any:
    if kind == "simple":
        return L.SimpleRNNCell(RU, dtype=dt, name=f"ls_simple_cell{i}", **kw)
    if kind.startswith("gru"):
        return L.GRUCell(RU, reset_after=kind == "gru", dtype=dt, name=f"ls_gru_cell{i}", **kw)
    return L.LSTMCell(RU, dtype=dt, name=f"ls_lstm_cell{i}", **kw)


def _rnn_cases(tf: Any, kind: str, dt: str) -> dict[str, Any]:
    L = tf.keras.layers
    x = tensor(tf, arr(f"rnnx{kind}", (RB, RT, RF)), dt)
    m = tf.constant(RMASK)
    nstates = 2 if kind == "lstm" else 1
    h0 = [tensor(tf, arr(f"rnnh{kind}{i}", (RB, RU)), dt) for i in range(nstates)]

    def mk(**kw: Any) -> Callable[[], Any]:
        return lambda: _rnn_layer(L, kind, dt, **kw)
    c: dict[str, Any] = {}
    for o, kw in {"default": {}, "seq-state": {"return_sequences": True, "return_state": True},
                  "back-seq": {"go_backwards": True, "return_sequences": True},
                  "unroll-back": {"unroll": True, "go_backwards": True, "return_state": True},
                  "relu-nobias-dropout": {"activation": "relu", "use_bias": False, "dropout": 0.3,
                                          "recurrent_dropout": 0.2, "return_sequences": True}}.items():
        c[f"{o}-mask"] = (mk(**kw), lambda l, x: l(x, mask=m, training=False), [x])
    c["unroll-seq"] = (mk(unroll=True, return_sequences=True), lambda l, x: l(x), [x])
    if kind == "lstm":
        c["unit-forget-bias-off"] = (mk(unit_forget_bias=False, recurrent_activation="hard_sigmoid"),
                                     lambda l, x: l(x), [x])
    if kind != "simple":
        c["impl1-mask"] = (mk(implementation=1, return_sequences=True), lambda l, x: l(x, mask=m), [x])
    if kind.startswith("gru"):
        c["recurrent-hard"] = (mk(recurrent_activation="hard_sigmoid", return_sequences=True), lambda l, x: l(x), [x])
    c["initial-state"] = (mk(return_sequences=True, return_state=True),
                          lambda l, x, *h: l(x, initial_state=list(h)), [x] + h0)
    c["initial-state-mask-back"] = (mk(return_state=True, go_backwards=True),
                                    lambda l, x, *h: l(x, initial_state=list(h), mask=m), [x] + h0)
    c["masking-layer"] = (lambda: tf.keras.Sequential([L.Masking(0.0, name="ls_masking"), _rnn_layer(
        L, kind, dt, return_sequences=True)], name="ls_masked_seq"), lambda l, x: l(x), [_zero_rows(tf, x)])
    c["cell"] = (lambda: L.RNN(_rnn_cell(L, kind, dt), return_sequences=True, name="ls_rnn"), lambda l, x: l(x, mask=m),
                 [x])
    c["stacked"] = (lambda: L.RNN([_rnn_cell(L, kind, dt, 0), _rnn_cell(L, kind, dt, 1)], return_sequences=True,
                                  return_state=True, name="ls_rnn"), lambda l, x: l(x, mask=m), [x])
    for merge in (("concat", "sum", "mul", "ave", None) if kind == "gru" else ("concat",)):
        c[f"bidi-{merge}"] = (lambda merge=merge: L.Bidirectional(_rnn_layer(L, kind, dt, return_sequences=True),
                                                                  merge_mode=merge, name="ls_bidi"),
                              lambda l, x: l(x, mask=m), [x])
    c["bidi-state"] = (lambda: L.Bidirectional(_rnn_layer(L, kind, dt, return_state=True), name="ls_bidi"),
                       lambda l, x: l(x), [x])
    return c


#: the cases run in every dtype and inside a tf.function too
RNN_KEEP = ("seq-state-mask", "back-seq-mask")


def _zero_rows(tf: Any, x: Any) -> Any:
    """x with whole time steps zero (Masking's masked steps): row 0's steps 3-4, row 1's step 0, all of row 2."""
    keep = np.asarray(RMASK, "float64")[:, :, None]
    return x * tf.constant(keep, x.dtype)


for _kind in RECURRENT:
    for _dt in DTYPES:
        def _rnn(tf: Any, mk: Any, kind: str = _kind, dt: str = _dt) -> Any:
            return sweep(tf, _rnn_cases(tf, kind, dt), dt=dt, keep=RNN_KEEP)
        if _dt != "float32" and _kind != "gru":
            continue   # float64 and mixed_float16: GRU's cases (the other cells share the loop and its casts)
        program(f"ls-rnn-{_kind}-{_dt}", _rnn)


def _stateful(tf: Any, mk: Any) -> Any:
    """A stateful layer over two calls (the second starts from the first's states), then reset_states."""
    out = {}
    for kind in RECURRENT:
        for mode in MODES:
            def one(kind: str = kind, mode: str = mode) -> Any:
                L = tf.keras.layers
                x1 = tf.constant(arr(f"stf1{kind}", (RB, RT, RF)).astype("float32"))
                x2 = tf.constant(arr(f"stf2{kind}", (RB, RT, RF)).astype("float32"))
                layer = _rnn_layer(L, kind, "float32", stateful=True, return_sequences=True)
                layer(x1)
                seed_weights(layer, f"stateful{kind}")
                layer.reset_states()
                r1 = run(tf, layer, lambda x: layer(x), [x1], mode, f"stf1{kind}", lambda: layer.states)
                r2 = run(tf, layer, lambda x: layer(x), [x2], mode, f"stf2{kind}", lambda: layer.states)
                layer.reset_states()
                return r1, r2, {"reset": [bits(s) for s in _flat(layer.states)]}
            r = error(one)
            for i, part in enumerate(("first", "second", "reset")):
                out[f"{kind}:{mode}:{part}"] = r if isinstance(r, str) else r[i]
    return out


program("ls-rnn-stateful", _stateful)


def _conv_lstm(tf: Any, mk: Any) -> Any:
    L = tf.keras.layers
    x1 = tf.constant(arr("clstm1", (2, 3, 5, 2)).astype("float32"))
    x2 = tf.constant(arr("clstm2", (1, 3, 4, 3, 2)).astype("float32"))
    m = tf.constant([[True, True, False], [False, True, True]])
    return sweep(tf, {
        "1d": (lambda: L.ConvLSTM1D(2, 2, name="ls_convlstm1d"), lambda l, x: l(x), [x1]),
        "1d-seq-same-back": (lambda: L.ConvLSTM1D(2, 3, padding="same", return_sequences=True, go_backwards=True,
                                                  name="ls_convlstm1d"), lambda l, x: l(x), [x1]),
        "1d-state-mask": (lambda: L.ConvLSTM1D(2, 2, return_state=True, name="ls_convlstm1d"),
                          lambda l, x: l(x, mask=m), [x1]),
        "1d-dilated-nobias": (lambda: L.ConvLSTM1D(2, 2, dilation_rate=2, use_bias=False, unit_forget_bias=False,
                                                   name="ls_convlstm1d"), lambda l, x: l(x), [x1]),
        "2d": (lambda: L.ConvLSTM2D(2, (2, 2), return_sequences=True, name="ls_convlstm2d"), lambda l, x: l(x), [x2]),
        "2d-same-strides": (lambda: L.ConvLSTM2D(2, (2, 2), strides=(2, 1), padding="same", name="ls_convlstm2d"),
                            lambda l, x: l(x), [x2]),
    })


program("ls-convlstm", _conv_lstm)


# -- 4. normalization layers ------------------------------------------------------------------------------------------
def _bn_state(layer: Any) -> Any:
    return [w for w in layer.non_trainable_weights]


def _norm_cases(tf: Any, dt: str) -> dict[str, Any]:
    L = tf.keras.layers
    x = tensor(tf, arr("normx", (4, 3, 6), 1.3) + 0.4, dt)
    x4 = tensor(tf, arr("normx4", (2, 3, 2, 4), 1.1) - 0.3, dt)
    c: dict[str, Any] = {}
    for o, kw in {"ln": {}, "ln-axis1-eps": {"axis": 1, "epsilon": 0.1}, "ln-axes-rev": {"axis": [-1, 1]},
                  "ln-nocenter": {"center": False}, "ln-noscale": {"scale": False},
                  "ln-rms-axes": {"rms_scaling": True, "axis": [1, 2]}}.items():
        c[o] = (lambda kw=kw: L.LayerNormalization(dtype=dt, name="ls_ln", **kw), lambda l, x: l(x), [x])
    c["ln-4d-axis1"] = (lambda: L.LayerNormalization(axis=(1, 3), dtype=dt, name="ls_ln"), lambda l, x: l(x), [x4])
    for o, kw in {"rms": {}, "rms-axis1": {"axis": 1}, "rms-eps": {"epsilon": 0.3}}.items():
        c[o] = (lambda kw=kw: L.RMSNormalization(dtype=dt, name="ls_rms", **kw), lambda l, x: l(x), [x])
    for o, kw in {"gn": {"groups": 3}, "gn-1": {"groups": 1}, "gn-6-noscale": {"groups": 6, "scale": False},
                  "gn-axis1": {"groups": 3, "axis": 1}, "gn-nocenter-eps": {"groups": 2, "center": False, "epsilon": 0.2},
                  "gn-default": {}}.items():
        c[o] = (lambda kw=kw: L.GroupNormalization(dtype=dt, name="ls_gn", **kw), lambda l, x: l(x), [x])
    c["gn-instance"] = (lambda: L.GroupNormalization(groups=-1, dtype=dt, name="ls_gn"), lambda l, x: l(x), [x])
    c["gn-4d"] = (lambda: L.GroupNormalization(groups=2, dtype=dt, name="ls_gn"), lambda l, x: l(x), [x4])
    for o, kw in {"unit": {}, "unit-axis1": {"axis": 1}, "unit-axes": {"axis": [1, 2]}}.items():
        c[o] = (lambda kw=kw: L.UnitNormalization(dtype=dt, name="ls_unit", **kw), lambda l, x: l(x), [x])
    c["unit-tiny"] = (lambda: L.UnitNormalization(dtype=dt, name="ls_unit"), lambda l, x: l(x * 1e-7), [x])
    c["unit-zero-row"] = (lambda: L.UnitNormalization(dtype=dt, name="ls_unit"), lambda l, x: l(x * 0.0), [x])
    return c


def _bn_cases(tf: Any, dt: str) -> dict[str, Any]:
    L = tf.keras.layers
    x = tensor(tf, arr("bnx", (4, 3, 6), 1.3) + 0.4, dt)
    x4 = tensor(tf, arr("bnx4", (2, 3, 2, 4), 1.1) - 0.3, dt)
    m = tf.constant([[True, False, True], [True, True, True], [False, False, False], [True, True, False]])
    c: dict[str, Any] = {}
    for o, kw in {"default": {}, "momentum-eps": {"momentum": 0.5, "epsilon": 0.25},
                  "nocenter": {"center": False}, "noscale-axis1": {"scale": False, "axis": 1},
                  "renorm": {"renorm": True, "renorm_momentum": 0.7},
                  "renorm-clip": {"renorm": True, "renorm_clipping": {"rmax": 1.2, "rmin": 0.9, "dmax": 0.1}}}.items():
        for training in (True, False):
            c[f"{o}-{training}"] = (lambda kw=kw: L.BatchNormalization(dtype=dt, name="ls_bn", **kw),
                                    lambda l, x, training=training: l(x, training=training), [x])
    c["mask-True"] = (lambda: L.BatchNormalization(dtype=dt, name="ls_bn"), lambda l, x: l(x, training=True, mask=m),
                      [x])
    c["4d-axis1-True"] = (lambda: L.BatchNormalization(axis=1, dtype=dt, name="ls_bn"),
                          lambda l, x: l(x, training=True), [x4])
    c["4d-axes-True"] = (lambda: L.BatchNormalization(axis=[1, 3], dtype=dt, name="ls_bn"),
                         lambda l, x: l(x, training=True), [x4])
    return c


#: the cases run in every dtype and inside a tf.function too
NORM_KEEP = ("ln-axes-rev", "ln-rms-axes", "rms", "gn", "unit-axes", "default-True", "default-False", "mask-True",
             "renorm-True")

for _dt in DTYPES:
    def _norm(tf: Any, mk: Any, dt: str = _dt) -> Any:
        return sweep(tf, _norm_cases(tf, dt), dt=dt, keep=NORM_KEEP)

    def _bn(tf: Any, mk: Any, dt: str = _dt) -> Any:
        return sweep(tf, _bn_cases(tf, dt), state=_bn_state, dt=dt, keep=NORM_KEEP)
    program(f"ls-norm-{_dt}", _norm)
    program(f"ls-bn-{_dt}", _bn)


def _bn_sync(tf: Any, mk: Any) -> Any:
    """BatchNormalization(synchronized=True) and False under MirroredStrategy: each replica's output, the
    all-reduced moving statistics after one training call on a per-replica batch."""
    strategy = mk()
    out = {}
    for sync in (True, False):
        def one(sync: bool = sync) -> Any:
            with strategy.scope():
                layer = tf.keras.layers.BatchNormalization(synchronized=sync, momentum=0.5, name="ls_bn_sync")
                layer.build((None, 3, 4))
            seed_weights(layer, f"bnsync{sync}")
            x = arr(f"bnsync{sync}", (4, 3, 4), 1.2).astype("float32") + 0.2
            ds = tf.data.Dataset.from_tensor_slices(x).batch(4)
            dist = strategy.experimental_distribute_dataset(ds)

            @tf.function
            def step(xb: Any) -> Any:
                def fn(xr: Any) -> Any:
                    with tf.GradientTape() as t:
                        y = layer(xr, training=True)
                        loss = tf.reduce_sum(y * y * tf.constant(arr("bnsyncup", (3, 4)), tf.float32))
                    return y, t.gradient(loss, layer.trainable_weights)
                return strategy.run(fn, args=(xb,))
            y, g = step(next(iter(dist)))
            return {"y": [bits(t) for t in strategy.experimental_local_results(y)],
                    "g": [[bits(t) for t in strategy.experimental_local_results(d)] for d in g],
                    "state": [bits(w) for w in layer.non_trainable_weights]}
        out[f"sync{sync}"] = error(one)
    return out


program("ls-bn-sync", _bn_sync)


# -- 5. the Normalization preprocessing layer and SpectralNormalization ------------------------------------------------
def _normalization(tf: Any, mk: Any) -> Any:
    L = tf.keras.layers
    data = (arr("nrmdata", (6, 2, 3), 1.5) + 0.7).astype("float32")
    x = tf.constant(arr("nrmx", (3, 2, 3), 1.2).astype("float32"))
    const_col = data.copy()
    const_col[:, :, 1] = 2.5   # a constant feature: variance 0, the epsilon floor
    out: dict[str, Any] = {}
    cases = {
        "adapt": (dict(), data), "adapt-axis-tuple": (dict(axis=(1, 2)), data), "adapt-axis-none": (dict(axis=None), data),
        "adapt-axis1": (dict(axis=1), data), "adapt-const": (dict(), const_col),
        "adapt-invert": (dict(invert=True), data), "adapt-dataset": (dict(), "dataset"),
        "given": (dict(mean=0.5, variance=2.0), None), "given-list": (dict(mean=[0.1, -0.2, 0.3],
                                                                          variance=[1.0, 0.25, 4.0]), None),
        "given-zero-var": (dict(mean=[0.1, -0.2, 0.3], variance=[1.0, 0.0, 1e-9]), None),
        "given-invert": (dict(mean=[0.1, -0.2, 0.3], variance=[1.0, 0.25, 4.0], invert=True), None),
        "given-axis-none": (dict(axis=None, mean=0.25, variance=3.0), None),
        "given-axis-tuple": (dict(axis=(1, 2), mean=arr("nrmmean", (2, 3)), variance=1.0 + arr("nrmvar", (2, 3)) ** 2),
                             None),
        "given-axis1": (dict(axis=1, mean=[0.5, -1.0], variance=[2.0, 0.5]), None),
    }
    for key, (kw, src) in cases.items():
        for mode in MODES:
            def one(kw: Any = kw, src: Any = src, mode: str = mode) -> Any:
                layer = L.Normalization(name="ls_normalization", **kw)
                if isinstance(src, str):
                    layer.adapt(tf.data.Dataset.from_tensor_slices(data).batch(4))
                elif src is not None:
                    layer.adapt(src)
                r = run(tf, layer, lambda v: layer(v), [x], mode, f"nrm{key}")
                r["stats"] = [bits(w) for w in layer.weights] if layer.weights else None
                return r
            out[f"{key}:{mode}"] = error(one)
    return out


program("ls-normalization", _normalization)


def _spectral(tf: Any, mk: Any) -> Any:
    L = tf.keras.layers
    x = tf.constant(arr("spx", (3, 5)).astype("float32"))
    xc = tf.constant(arr("spxc", (1, 4, 4, 2)).astype("float32"))

    def state(l: Any) -> Any:
        return [w for w in l.non_trainable_weights]
    return sweep(tf, {
        "dense-train": (lambda: L.SpectralNormalization(L.Dense(4, name="ls_sp_dense"), name="ls_spectral"),
                        lambda l, x: l(x, training=True), [x]),
        "dense-infer": (lambda: L.SpectralNormalization(L.Dense(4, name="ls_sp_dense"), name="ls_spectral"),
                        lambda l, x: l(x, training=False), [x]),
        "dense-iter3": (lambda: L.SpectralNormalization(L.Dense(4, name="ls_sp_dense"), power_iterations=3,
                                                        name="ls_spectral"), lambda l, x: l(x, training=True), [x]),
        "conv-train": (lambda: L.SpectralNormalization(L.Conv2D(3, 2, name="ls_sp_conv"), name="ls_spectral"),
                       lambda l, x: l(x, training=True), [xc]),
    }, state=state)


program("ls-spectral", _spectral)
