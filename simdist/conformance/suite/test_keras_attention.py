"""MultiHeadAttention — clauses keras.mha.values, .masks, .config, .arguments and .distributed
(TF 2.21 + Keras 3.15).

Expected values come from a NumPy reference written here (the projections as einsums, the
scaled logits, the masked softmax, the output projection, in float64), never from the backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.repro import Program

clause = pytest.mark.clause

HEADS, KEY_DIM = 2, 4


def _w(shape: tuple, k: int) -> np.ndarray:
    n = int(np.prod(shape))
    return ((np.arange(n, dtype=np.float32).reshape(shape) * (k + 3)) % 11 - 5.0) / 10.0


def _x(shape: tuple, k: int) -> np.ndarray:
    """Varied values in [-1, 1] (k must not be 4 mod 13: then every value is -1)."""
    assert (2 * k + 5) % 13, f"_x(k={k}) would be constant"
    n = int(np.prod(shape))
    return ((np.arange(n, dtype=np.float32).reshape(shape) * (2 * k + 5)) % 13 - 6.0) / 6.0


def _weights(q_dim: int, v_dim: int, k_dim: int, out_dim: int) -> list[np.ndarray]:
    """query kernel/bias, key kernel/bias, value kernel/bias, attention_output kernel/bias."""
    return [_w((q_dim, HEADS, KEY_DIM), 0), _w((HEADS, KEY_DIM), 1), _w((k_dim, HEADS, KEY_DIM), 2),
            _w((HEADS, KEY_DIM), 3), _w((v_dim, HEADS, KEY_DIM), 4), _w((HEADS, KEY_DIM), 5),
            _w((HEADS, KEY_DIM, out_dim), 6), _w((out_dim,), 7)]


def _mha_ref(q: np.ndarray, v: np.ndarray, k: np.ndarray, w: list[np.ndarray],
             mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Output (B, T, D) and scores (B, N, T, S); mask (B, T, S), False = not attended."""
    wq, bq, wk, bk, wv, bv, wo, bo = (a.astype(np.float64) for a in w)
    qp = np.einsum("btd,dnh->btnh", q, wq) + bq
    kp = np.einsum("bsd,dnh->bsnh", k, wk) + bk
    vp = np.einsum("bsd,dnh->bsnh", v, wv) + bv
    logits = np.einsum("btnh,bsnh->bnts", qp, kp) / np.sqrt(KEY_DIM)
    if mask is not None:
        logits = np.where(mask[:, None], logits, -np.inf)
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    scores = e / e.sum(axis=-1, keepdims=True)
    ctx = np.einsum("bnts,bsnh->btnh", scores, vp)
    return np.einsum("btnh,nhd->btd", ctx, wo) + bo, scores


_PROGRAM = """
layer = tf.keras.layers.MultiHeadAttention(heads, key_dim, **kwargs)
args = [tf.constant(q), tf.constant(v)]
extra = dict(call, key=tf.constant(k)) if k is not None else dict(call)
if mask is not None:
    extra["attention_mask"] = tf.constant(mask)
layer(*args, **extra)
layer.set_weights(weights)
out = layer(*args, **extra)
y, scores = (out[0].numpy(), out[1].numpy()) if isinstance(out, tuple) else (out.numpy(), None)
names = [w.path.split("/", 1)[1] for w in layer.weights]
"""


def _run(backend, q, v, k=None, mask=None, call=None, kwargs=None, out_dim=None):
    weights = _weights(q.shape[-1], v.shape[-1], (k if k is not None else v).shape[-1], out_dim or q.shape[-1])
    return Program(backend, _PROGRAM, heads=HEADS, key_dim=KEY_DIM, kwargs=kwargs or {}, q=q, v=v, k=k, mask=mask,
                   call=call or {}, weights=weights).run(), weights


@clause("keras.mha.values", ref="tf221")
@pytest.mark.parametrize("scores", [False, True], ids=["dot-product-path", "softmax-layer-path"])
def test_mha_self_attention_values(backend, scores):
    """Without scores the layer takes the dot_product_attention path, with them the Softmax
    layer's: the same values."""
    q = _x((2, 5, 8), 0)
    ns, w = _run(backend, q, q, call={"return_attention_scores": True} if scores else {})
    call = f"MultiHeadAttention({HEADS}, {KEY_DIM})(q, q, return_attention_scores={scores})"
    assert_equal(ns["names"], ["query/kernel", "query/bias", "key/kernel", "key/bias", "value/kernel", "value/bias",
                               "attention_output/kernel", "attention_output/bias"], call=call, what="weight paths")
    want_y, want_s = _mha_ref(q, q, q, w)
    assert_close(ns["y"], want_y, call=call, what="y")
    if scores:
        assert_close(ns["scores"], want_s, call=call, what="attention scores")


@clause("keras.mha.values", ref="tf221")
def test_mha_cross_attention_with_a_key(backend):
    q, v, k = _x((2, 5, 6), 1), _x((2, 4, 3), 2), _x((2, 4, 7), 3)
    ns, w = _run(backend, q, v, k=k)
    assert_close(ns["y"], _mha_ref(q, v, k, w)[0], call=f"MultiHeadAttention({HEADS}, {KEY_DIM})(q, v, key=k)",
                 what="y (the query's last dimension)")


@clause("keras.mha.masks", ref="tf221")
@pytest.mark.parametrize("causal,with_mask", [(True, False), (False, True), (True, True)],
                         ids=["causal", "attention-mask", "causal-and-mask"])
def test_mha_masks_combine_with_logical_and(backend, causal, with_mask):
    q = _x((2, 5, 8), 6)   # (not k=4: 2k + 5 = 13 makes _x constant, and a constant query hides any mask)
    mask = (np.arange(2 * 5 * 5).reshape(2, 5, 5) * 7 % 5 != 1) if with_mask else None
    if mask is not None:
        mask[..., 0] = True                                   # (every query attends somewhere)
    ns, w = _run(backend, q, q, mask=mask, call={"use_causal_mask": True} if causal else {})
    full = np.ones((2, 5, 5), bool) if mask is None else mask
    if causal:
        full = full & (np.arange(5)[None, :, None] >= np.arange(5)[None, None, :])
    call = f"MultiHeadAttention({HEADS}, {KEY_DIM})(q, q, attention_mask={with_mask}, use_causal_mask={causal})"
    assert_close(ns["y"], _mha_ref(q, q, q, w, full)[0], call=call, what="y (masked keys get no weight)")


@clause("keras.mha.masks", ref="tf221")
def test_mha_masked_scores_are_zero(backend):
    q = _x((2, 4, 8), 5)
    ns, w = _run(backend, q, q, call={"use_causal_mask": True, "return_attention_scores": True})
    causal = np.broadcast_to(np.arange(4)[:, None] >= np.arange(4)[None, :], (2, 4, 4))
    call = f"MultiHeadAttention({HEADS}, {KEY_DIM})(q, q, use_causal_mask=True, return_attention_scores=True)"
    assert_close(ns["scores"], _mha_ref(q, q, q, w, causal)[1], call=call, what="scores (0 above the diagonal)")


@clause("keras.mha.config", ref="tf221")
def test_mha_config_round_trip_and_symbolic_shapes(backend):
    ns = Program(backend, """
layer = tf.keras.layers.MultiHeadAttention(2, 4, value_dim=3, dropout=0.1, output_shape=6, attention_axes=(1,))
config = layer.get_config()
keys = sorted(k for k in config if k != "name")
again = type(layer).from_config(config).get_config() == config
picked = (config["num_heads"], config["key_dim"], config["value_dim"], config["dropout"], config["output_shape"])
q, v = tf.keras.Input((5, 8)), tf.keras.Input((4, 6))
y, s = tf.keras.layers.MultiHeadAttention(2, 4, output_shape=3)(q, v, return_attention_scores=True)
shapes = [tuple(y.shape), tuple(s.shape)]
default_value_dim = tf.keras.layers.MultiHeadAttention(2, 4).get_config()["value_dim"]
""").run()
    call = "MultiHeadAttention(2, 4, value_dim=3, dropout=0.1, output_shape=6, attention_axes=(1,)).get_config()"
    want = sorted(["activity_regularizer", "attention_axes", "bias_constraint", "bias_initializer", "bias_regularizer",
                   "dropout", "dtype", "kernel_constraint", "kernel_initializer", "kernel_regularizer", "key_dim",
                   "num_heads", "output_shape", "seed", "sliding_window", "trainable", "use_bias", "use_gate",
                   "value_dim"])
    assert_equal(ns["keys"], want, call=call, what="config keys")
    assert_equal(ns["again"], True, call=call, what="from_config(get_config()) == get_config()")
    assert_equal(list(ns["picked"]), [2, 4, 3, 0.1, (6,)], call=call,
                 what="num_heads, key_dim, value_dim, dropout, output_shape")
    assert_equal(ns["default_value_dim"], 4, call="MultiHeadAttention(2, 4).get_config()['value_dim']",
                 what="value_dim (key_dim when not given)")
    # Keras 3.15's compute_output_shape gives the scores (batch, heads, T, T) even when S != T.
    assert_equal(ns["shapes"], [(None, 5, 3), (None, 2, 5, 5)],
                 call="MultiHeadAttention(2, 4, output_shape=3)(Input((5, 8)), Input((4, 6)), "
                      "return_attention_scores=True)", what="symbolic shapes")


@clause("keras.mha.arguments", ref="tf221")
@pytest.mark.parametrize("source,match", [
    ("tf.keras.layers.MultiHeadAttention(0, 2)", "`num_heads`, expected a positive integer. Received: num_heads=0"),
    ("tf.keras.layers.MultiHeadAttention(2, 2.5)", "`key_dim`, expected a positive integer. Received: key_dim=2.5"),
    ("tf.keras.layers.MultiHeadAttention(2, 4, value_dim=-1)",
     "`value_dim`, expected a positive integer or `None`. Received: value_dim=-1"),
    ("tf.keras.layers.MultiHeadAttention(2, 4, attention_axes='x')", "`attention_axes` must be an int, list, or tuple"),
    ("tf.keras.layers.MultiHeadAttention(2, 4)(tf.ones((2, 5, 8)), tf.ones((2, 4, 8)), key=tf.ones((2, 3, 8)))",
     r"All dimensions of `value` and `key`, except the last one, must be equal. Received: "
     r"value_shape=\(2, 4, 8\) and key_shape=\(2, 3, 8\)"),
])
def test_mha_argument_errors(backend, source, match):
    with raises(ValueError, match=match if "\\(" in match else match.replace("(", r"\(").replace(")", r"\)"),
                call=source):
        Program(backend, source).run()


_FIT_PROGRAM = """
strategy = backend.make_strategy(kind, n)
layers = tf.keras.layers
with strategy.scope():
    inp = tf.keras.Input((5, 3))
    h = layers.Dense(8)(inp)
    a = layers.MultiHeadAttention(2, 4)(h, h, use_causal_mask=causal)
    h = layers.LayerNormalization()(layers.Add()([h, a]))
    model = tf.keras.Model(inp, layers.Dense(3)(layers.GlobalAveragePooling1D()(h)))
    model.set_weights(weights)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
losses = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0).history["loss"]
after = [w.numpy() if hasattr(w, "numpy") else np.asarray(w) for w in model.get_weights()]
"""


@clause("keras.mha.distributed", ref="tf221")
@pytest.mark.parametrize("kind,causal", [("mirrored", False), ("mirrored", True), ("central_storage", False)])
def test_mha_fit_under_strategies_matches_one_device(backend, kind, causal):
    """An attention model has no batch statistics: a 2-replica step is the one-device step over
    the global batch, so the weights after agree, and under MirroredStrategy the History losses
    too (CentralStorageStrategy's loss tracker is an AggregatingVariable merged by SUM, clause
    keras.metric.central-storage, so its History is not the one-device loss)."""
    rng = np.random.default_rng(17)
    x = rng.standard_normal((16, 5, 3)).astype(np.float32)
    y = (np.arange(16) % 3).astype(np.int32)
    shapes = [(3, 8), (8,), (8, 2, 4), (2, 4), (8, 2, 4), (2, 4), (8, 2, 4), (2, 4), (2, 4, 8), (8,), (8,), (8,),
              (8, 3), (3,)]
    weights = [(rng.standard_normal(s) * 0.5).astype(np.float32) for s in shapes]
    weights[10] = 1.0 + 0.1 * weights[10]                                          # LayerNormalization gamma
    one = Program(backend, _FIT_PROGRAM, kind="default", n=1, x=x, y=y, weights=weights, causal=causal).run()
    two = Program(backend, _FIT_PROGRAM, kind=kind, n=2, x=x, y=y, weights=weights, causal=causal).run()
    call = f"fit of Dense/MultiHeadAttention(use_causal_mask={causal})/Add/LayerNormalization/Dense under {kind}(2)"
    for i, (a, b) in enumerate(zip(two["after"], one["after"])):
        assert_close(a, b, call=call, what=f"weight {i} after fit (one device's as reference)")
    if kind == "mirrored":   # (CentralStorage's loss tracker merges by SUM: clause keras.metric.central-storage)
        assert_close(two["losses"], one["losses"], call=call, what="History losses (one device's as reference)")
