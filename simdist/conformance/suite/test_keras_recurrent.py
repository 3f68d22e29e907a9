"""SimpleRNN, LSTM, GRU, Bidirectional and masks — clauses keras.rnn.layers, keras.rnn.bidirectional
and keras.mask.propagation (TF 2.21 + Keras 3.15).

Expected values come from NumPy references written here (the cells' formulas in float64, a
Python loop over the steps), never from the backend.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
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
