"""SimpleRNN, LSTM, GRU, Bidirectional and masks — clauses keras.rnn.layers, keras.rnn.bidirectional,
keras.mask.propagation, keras.rnn.dropout, .config, .symbolic, .arguments, .fit and .weight-files
(TF 2.21 + Keras 3.15).

Expected values come from NumPy references written here (the cells' formulas in float64, a
Python loop over the steps), never from the backend.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.repro import Program

clause = pytest.mark.clause

SEQ = (np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3) % 7 - 3.0) / 4.0          # (2, 5, 3)


def _no_uid(path: str) -> str:
    """A weight path without the layer names' uid suffixes ("lstm_3/..." -> "lstm/...")."""
    return re.sub(r"_\d+(?=/)", "", path)


def _w(shape: tuple, k: int) -> np.ndarray:
    n = int(np.prod(shape))
    return ((np.arange(n, dtype=np.float32).reshape(shape) * (k + 3)) % 11 - 5.0) / 10.0


def _sig(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


def _lstm_ref(x: np.ndarray, k: np.ndarray, r: np.ndarray, b: np.ndarray, backwards: bool) -> np.ndarray:
    n, steps, _ = x.shape
    u = r.shape[0]
    h, c = np.zeros((n, u)), np.zeros((n, u))
    out = []
    for t in (range(steps - 1, -1, -1) if backwards else range(steps)):
        z = x[:, t].astype(np.float64) @ k + h @ r + b
        i, f, g, o = _sig(z[:, :u]), _sig(z[:, u:2 * u]), np.tanh(z[:, 2 * u:3 * u]), _sig(z[:, 3 * u:])
        c = f * c + i * g
        h = o * np.tanh(c)
        out.append(h)
    return np.stack(out, axis=1)


def _gru_ref(x: np.ndarray, k: np.ndarray, r: np.ndarray, b: np.ndarray, reset_after: bool) -> np.ndarray:
    n, steps, _ = x.shape
    u = r.shape[0]
    h = np.zeros((n, u))
    bi, br = (b[0], b[1]) if reset_after else (b, np.zeros(3 * u))
    for t in range(steps):
        xz = x[:, t].astype(np.float64) @ k + bi
        if reset_after:
            hr = h @ r + br
            z, rr = _sig(xz[:, :u] + hr[:, :u]), _sig(xz[:, u:2 * u] + hr[:, u:2 * u])
            hh = np.tanh(xz[:, 2 * u:] + rr * hr[:, 2 * u:])
        else:
            hr = h @ r[:, :2 * u]
            z, rr = _sig(xz[:, :u] + hr[:, :u]), _sig(xz[:, u:2 * u] + hr[:, u:])
            hh = np.tanh(xz[:, 2 * u:] + (rr * h) @ r[:, 2 * u:])
        h = z * h + (1 - z) * hh
    return h


def _simple_ref(x: np.ndarray, k: np.ndarray, r: np.ndarray, b: np.ndarray, mask: np.ndarray | None = None,
                zero_output: bool = False) -> np.ndarray:
    """SimpleRNN(tanh) over the steps; a masked step keeps the state and repeats the last output
    (zeros before the first kept step, or always zeros with zero_output)."""
    n, steps, _ = x.shape
    h = np.zeros((n, r.shape[0]))
    prev = np.zeros_like(h)
    out = []
    for t in range(steps):
        new = np.tanh(x[:, t].astype(np.float64) @ k + b + h @ r)
        if mask is not None:
            keep = mask[:, t][:, None]
            new_out = np.where(keep, new, 0.0 if zero_output else prev)
            h = np.where(keep, new, h)
            prev = new_out
            out.append(new_out)
        else:
            h = new
            out.append(new)
    return np.stack(out, axis=1)


_PROGRAM = """
layer = build()
layer(tf.constant(x))
layer.set_weights(weights)
out = layer(tf.constant(x))
y = [o.numpy() for o in out] if isinstance(out, (list, tuple)) else out.numpy()
names = [w.path for w in layer.weights]
"""


@clause("keras.rnn.layers", ref="tf221")
@pytest.mark.parametrize("backwards", [False, True])
def test_lstm_sequences_follow_the_cell_formulas(backend, backwards):
    k, r, b = _w((3, 8), 0), _w((2, 8), 1), _w((8,), 2)
    ns = Program(backend, "build = lambda: tf.keras.layers.LSTM(2, return_sequences=True, return_state=True, "
                 "go_backwards=backwards)\n" + _PROGRAM, x=SEQ, weights=[k, r, b], backwards=backwards).run()
    call = f"LSTM(2, return_sequences=True, return_state=True, go_backwards={backwards})(x)"
    assert_equal([_no_uid(p) for p in ns["names"]], ["lstm/lstm_cell/kernel", "lstm/lstm_cell/recurrent_kernel", "lstm/lstm_cell/bias"],
                 call=call, what="weight paths")
    want = _lstm_ref(SEQ, k, r, b, backwards)
    assert_close(ns["y"][0], want, call=call, what="sequences (in the order read)")
    assert_close(ns["y"][1], want[:, -1], call=call, what="final h")


@clause("keras.rnn.layers", ref="tf221")
@pytest.mark.parametrize("reset_after", [True, False])
def test_gru_reset_after_and_before(backend, reset_after):
    k, r = _w((3, 6), 3), _w((2, 6), 4)
    b = _w((2, 6), 5) if reset_after else _w((6,), 5)
    ns = Program(backend, "build = lambda: tf.keras.layers.GRU(2, reset_after=reset_after)\n" + _PROGRAM,
                 x=SEQ, weights=[k, r, b], reset_after=reset_after).run()
    assert_close(ns["y"], _gru_ref(SEQ, k, r, b, reset_after), call=f"GRU(2, reset_after={reset_after})(x)",
                 what="y")


@clause("keras.mask.propagation", ref="tf221")
def test_embedding_mask_skips_padded_steps(backend):
    tokens = np.array([[0, 3, 1, 0, 0], [2, 2, 4, 1, 3]], dtype=np.int32)
    table = _w((5, 3), 6)
    k, r, b = _w((3, 2), 7), _w((2, 2), 8), _w((2,), 9)
    ns = Program(backend, """
model = tf.keras.Sequential([tf.keras.Input((5,), dtype="int32"), tf.keras.layers.Embedding(5, 3, mask_zero=True),
                             tf.keras.layers.SimpleRNN(2, return_sequences=True)])
model.set_weights(weights)
y = model(tf.constant(tokens)).numpy()
""", tokens=tokens, weights=[table, k, r, b]).run()
    want = _simple_ref(table[tokens], k, r, b, mask=tokens != 0)
    assert_close(ns["y"], want, call="Embedding(5, 3, mask_zero=True) -> SimpleRNN(2, return_sequences=True)",
                 what="y (masked steps repeat the last output, zeros before the first)")


@clause("keras.rnn.bidirectional", ref="tf221")
def test_bidirectional_concat_and_masked_zeros(backend):
    kf, rf, bf = _w((3, 2), 10), _w((2, 2), 11), _w((2,), 12)
    kb, rb, bb = _w((3, 2), 13), _w((2, 2), 14), _w((2,), 15)
    mask = np.array([[True, True, True, False, False], [True] * 5])
    ns = Program(backend, """
layer = tf.keras.layers.Bidirectional(tf.keras.layers.SimpleRNN(2, return_sequences=True))
layer(tf.constant(x))
layer.set_weights(weights)
y = layer(tf.constant(x), mask=tf.constant(mask)).numpy()
names = [w.path for w in layer.weights]
""", x=SEQ, weights=[kf, rf, bf, kb, rb, bb], mask=mask).run()
    call = "Bidirectional(SimpleRNN(2, return_sequences=True))(x, mask=mask)"
    assert_equal(_no_uid(ns["names"][0]), "bidirectional/forward_simple_rnn/simple_rnn_cell/kernel", call=call,
                 what="first weight path")
    fwd = _simple_ref(SEQ, kf, rf, bf, mask=mask, zero_output=True)
    bwd = _simple_ref(SEQ[:, ::-1], kb, rb, bb, mask=mask[:, ::-1], zero_output=True)[:, ::-1]
    assert_close(ns["y"], np.concatenate([fwd, bwd], axis=-1), call=call,
                 what="y (forward, then backward flipped to time order; masked steps zero)")


@clause("keras.rnn.dropout", ref="tf221")
def test_input_dropout_mask_is_shared_by_the_steps(backend):
    """An identity SimpleRNN (kernel I, recurrent kernel 0, no activation) on ones outputs the
    input dropout mask at every step: the same mask at each step of a call, 0 or 1/(1-rate)."""
    ns = Program(backend, """
layer = tf.keras.layers.SimpleRNN(3, activation=None, dropout=0.5, return_sequences=True, seed=7)
layer(tf.zeros((4, 5, 3)))
layer.set_weights([np.eye(3, dtype="float32"), np.zeros((3, 3), "float32"), np.zeros(3, "float32")])
train = layer(tf.ones((4, 5, 3)), training=True).numpy()
infer = layer(tf.ones((4, 5, 3)), training=False).numpy()
""").run()
    call = "SimpleRNN(3, activation=None, dropout=0.5, return_sequences=True)(ones, training=True)"
    train = ns["train"]
    assert_equal(bool(np.all((train == 0.0) | (train == 2.0))), True, call=call, what="every value is 0 or 2")
    assert_equal(bool(np.all(train == train[:, :1, :])), True, call=call, what="the same mask at every step")
    assert_close(ns["infer"], np.ones((4, 5, 3)), call=call.replace("True", "False"), what="y without training")


@clause("keras.rnn.config", ref="tf221")
def test_config_round_trip(backend):
    ns = Program(backend, """
layer = tf.keras.layers.LSTM(4, go_backwards=True, unit_forget_bias=False, return_state=True, seed=3)
config = layer.get_config()
keys = sorted(k for k in config if k != "name")
again = type(layer).from_config(config).get_config() == config
cell = tf.keras.layers.RNN(tf.keras.layers.GRUCell(2)).get_config()["cell"]["class_name"]
bi = tf.keras.layers.Bidirectional(tf.keras.layers.GRU(2)).get_config()
bi_names = (bi["layer"]["config"]["name"], bi["backward_layer"]["config"]["go_backwards"])
""").run()
    want = sorted(["activation", "activity_regularizer", "bias_constraint", "bias_initializer", "bias_regularizer",
                   "dropout", "dtype", "go_backwards", "kernel_constraint", "kernel_initializer",
                   "kernel_regularizer", "recurrent_activation", "recurrent_constraint", "recurrent_dropout",
                   "recurrent_initializer", "recurrent_regularizer", "return_sequences", "return_state", "seed",
                   "stateful", "trainable", "unit_forget_bias", "units", "unroll", "use_bias",
                   "zero_output_for_mask"])
    call = "LSTM(4, go_backwards=True, unit_forget_bias=False, return_state=True, seed=3).get_config()"
    assert_equal(ns["keys"], want, call=call, what="config keys")
    assert_equal(ns["again"], True, call=call, what="from_config(get_config()) == get_config()")
    assert_equal(ns["cell"], "GRUCell", call="RNN(GRUCell(2)).get_config()['cell']", what="class_name")
    assert_equal(_no_uid(ns["bi_names"][0] + "/")[:-1], "forward_gru", call="Bidirectional(GRU(2)).get_config()",
                 what="layer name")
    assert_equal(ns["bi_names"][1], True, call="Bidirectional(GRU(2)).get_config()", what="backward go_backwards")


@clause("keras.rnn.symbolic", ref="tf221")
def test_symbolic_output_shapes(backend):
    ns = Program(backend, """
seq = tf.keras.Input((7, 2))
layers = tf.keras.layers
shapes = [[tuple(o.shape) for o in layers.LSTM(3, return_sequences=True, return_state=True)(seq)],
          [tuple(layers.GRU(5)(seq).shape)],
          [tuple(o.shape) for o in layers.Bidirectional(layers.LSTM(3, return_state=True), merge_mode=None)(seq)],
          [tuple(layers.Bidirectional(layers.SimpleRNN(3, return_sequences=True))(seq).shape)]]
""").run()
    want = [[(None, 7, 3), (None, 3), (None, 3)], [(None, 5)], [(None, 3)] * 6, [(None, 7, 6)]]
    assert_equal(ns["shapes"], want, call="LSTM/GRU/Bidirectional on keras.Input((7, 2))", what="shapes")


@clause("keras.rnn.arguments", ref="tf221")
@pytest.mark.parametrize("source,error,match", [
    ("tf.keras.layers.LSTM(0)", ValueError, "expected a positive integer, got 0"),
    ("tf.keras.layers.GRU(2, use_cudnn='yes')", ValueError, "use_cudnn"),
    ("tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2), merge_mode='max')", ValueError, "Invalid merge mode"),
    ("tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2), backward_layer=tf.keras.layers.LSTM(2))", ValueError,
     "different `go_backwards`"),
    ("tf.keras.layers.SimpleRNN(2)(tf.ones([2, 3]))", ValueError, "expected ndim=3, found ndim=2"),
])
def test_argument_errors(backend, source, error, match):
    with raises(error, match=match, call=source):
        Program(backend, source).run()


_FIT_PROGRAM = """
strategy = backend.make_strategy(kind, n)
layers = tf.keras.layers
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((6,), dtype="int32"), layers.Embedding(9, 3, mask_zero=True),
                                 layers.Bidirectional(layers.GRU(2)), layers.Dense(2)])
    model.set_weights(weights)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
losses = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0).history["loss"]
"""


@clause("keras.rnn.fit", ref="tf221")
def test_fit_under_mirrored_matches_one_device(backend):
    """A masked recurrent model has no batch statistics: a Mirrored(2) step is the one-device
    step over the global batch, so the losses agree."""
    rng = np.random.default_rng(11)
    x = rng.integers(1, 9, (16, 6)).astype(np.int32)
    for i in range(16):
        x[i, 1 + i % 5:] = 0
    y = (np.arange(16) % 2).astype(np.int32)
    shapes = [(9, 3), (3, 6), (2, 6), (2, 6), (3, 6), (2, 6), (2, 6), (4, 2), (2,)]
    weights = [(rng.standard_normal(s) * 0.5).astype(np.float32) for s in shapes]
    one = Program(backend, _FIT_PROGRAM, kind="default", n=1, x=x, y=y, weights=weights).run()["losses"]
    two = Program(backend, _FIT_PROGRAM, kind="mirrored", n=2, x=x, y=y, weights=weights).run()["losses"]
    assert_close(two, one, call="fit of Embedding(mask_zero=True)/Bidirectional(GRU)/Dense under Mirrored(2)",
                 what="History losses (one device's as reference)")


_LOOP_PROGRAM = """
cluster = backend.make_ps_cluster(workers=2, ps=1) if kind == "pss" else None
strategy = tf.distribute.get_strategy() if cluster is None else cluster.strategy
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((5, 3)), tf.keras.layers.LSTM(3), tf.keras.layers.Dense(2)])
    model.set_weights(weights)
    opt = tf.keras.optimizers.SGD(0.1)

def replica(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(xb, training=True) - yb))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss

@tf.function
def step(xb, yb):
    return strategy.run(replica, args=(xb, yb))

losses = []
for k in range(0, 16, 8):
    xb, yb = tf.constant(x[k:k + 8]), tf.constant(y[k:k + 8])
    if cluster is None:
        losses.append(float(step(xb, yb)))
    else:
        rv = cluster.coordinator.schedule(step, args=(xb, yb))
        cluster.coordinator.join()
        losses.append(float(rv.fetch()))
after = [w.numpy() for w in model.weights]
"""


@clause("keras.rnn.pss", ref="tf221")
@pytest.mark.requires("multi_worker")
def test_custom_loop_under_pss_matches_the_default_strategy(backend):
    """An LSTM model made under ParameterServerStrategy (weights on the ps) trained by steps a
    ClusterCoordinator schedules (each joined) follows the default strategy's loop."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((16, 5, 3)).astype(np.float32)
    y = rng.standard_normal((16, 2)).astype(np.float32)
    weights = [(rng.standard_normal(s) * 0.5).astype(np.float32) for s in [(3, 12), (3, 12), (12,), (3, 2), (2,)]]
    one = Program(backend, _LOOP_PROGRAM, kind="default", x=x, y=y, weights=weights).run()
    ps = Program(backend, _LOOP_PROGRAM, kind="pss", x=x, y=y, weights=weights).run()
    assert_close(ps["losses"], one["losses"], call="custom loop of LSTM/Dense under PSS (2 workers, 1 ps)",
                 what="per-step losses (the default strategy's as reference)")
    for i, (a, b) in enumerate(zip(ps["after"], one["after"])):
        assert_close(a, b, call="custom loop of LSTM/Dense under PSS", what=f"weight {i} after 2 steps")


@clause("keras.rnn.weight-files", ref="tf221")
def test_weight_file_round_trip(backend, tmp_path):
    ns = Program(backend, """
def make():
    return tf.keras.Sequential([tf.keras.Input((5, 3)), tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2)),
                                tf.keras.layers.Dense(1)])
a = make()
a.set_weights([w * 0.5 for w in weights])
a.save_weights(path)
b = make()
b.load_weights(path)
same = bool(np.array_equal(a(tf.constant(x)).numpy(), b(tf.constant(x)).numpy()))
import h5py
names = []
with h5py.File(path, "r") as f:
    f.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) else None)
""", path=str(tmp_path / "m.weights.h5"), x=SEQ,
                 weights=[_w(s, i) for i, s in enumerate([(3, 8), (2, 8), (8,), (3, 8), (2, 8), (8,), (4, 1), (1,)])]).run()
    call = "Sequential([Input((5, 3)), Bidirectional(LSTM(2)), Dense(1)]).save_weights / load_weights"
    assert_equal(ns["same"], True, call=call, what="outputs after loading")
    assert_equal(ns["names"][0], "layers/bidirectional/backward_layer/cell/vars/0", call=call, what="first dataset")


@clause("keras.mask.propagation", ref="tf221")
def test_mask_attribute_and_attention_keeps_the_query_mask(backend):
    """`output._keras_mask` is the mask Keras attached (Embedding(mask_zero=True): ids != 0); a
    MultiHeadAttention called on a masked query supports masking (no warning) and its output keeps
    the query's mask; a plain tensor has no `_keras_mask`."""
    ids = np.array([[3, 5, 0, 0], [2, 0, 0, 0]], dtype=np.int32)
    ns = Program(backend, """
import warnings
x = tf.keras.layers.Embedding(8, 4, mask_zero=True)(tf.constant(ids))
embedding_mask = x._keras_mask.numpy()
mha = tf.keras.layers.MultiHeadAttention(2, 3)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y = mha(x, x)
warned = [str(w.message) for w in caught if "mask" in str(w.message)]
attention_mask = y._keras_mask.numpy()
supports = mha.supports_masking
plain_has_mask = hasattr(tf.constant([1.0]), "_keras_mask")
""", ids=ids).run()
    assert_equal(ns["embedding_mask"], ids != 0, call="Embedding(8, 4, mask_zero=True)(ids)._keras_mask")
    assert_equal([ns["supports"], ns["warned"]], [True, []],
                 call="MultiHeadAttention(2, 3)(x, x) on a masked x", what="[supports_masking, mask warnings]")
    assert_equal(ns["attention_mask"], ids != 0, call="MultiHeadAttention(2, 3)(x, x)._keras_mask",
                 what="mask (the query's)")
    assert_equal(ns["plain_has_mask"], False, call="hasattr(tf.constant([1.0]), '_keras_mask')")
