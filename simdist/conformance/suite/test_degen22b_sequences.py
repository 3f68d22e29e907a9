"""Degeneracy audit 22 (area degen22b): recurrent layers under masks with False steps, and attention
with key_dim != value_dim (Keras 3.15 on TF 2.21).

The suite's recurrent layers ran without a mask or with masks whose False steps only trail, with
return_state and go_backwards mostly at their defaults: there a masked step that still updates the
state, or a state not held, gives the same outputs. Its MultiHeadAttention cases had key_dim ==
value_dim and query, key and value of one width, where a value projection sized by key_dim passes.
Expected values are NumPy transcriptions of Keras's cells (SimpleRNN: tanh(x W + h U + b); LSTM: gates
i, f, c, o of x W + h U + b; GRU with reset_after: z, r from the summed projections, the candidate
tanh(x_h + r (h U_h + b_h))) and of keras/src/backend/tensorflow/rnn.py's masked loop (a masked step
keeps the states and repeats the previous output, zeros before the first; go_backwards reads the
steps last to first and returns the outputs in that order), and of MultiHeadAttention's einsums
(softmax((q / sqrt(key_dim)) k^T) v, heads projected by "abc,cde->abde", merged by "abcd,cde->abe").
Weights are set by set_weights from fixed arrays.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=2e-5, atol=2e-5)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def _sig(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _fill(shape: tuple, k: int) -> np.ndarray:
    n = int(np.prod(shape))
    return (((np.arange(n) * (3 + 2 * k)) % 13 - 6) / 10.0).reshape(shape).astype(np.float32)


def _cell(kind: str, w: list[np.ndarray], units: int):
    """The step (x, states) -> (output, states) of a Keras cell with weights w (float64)."""
    if kind == "SimpleRNN":
        k, u, b = w
        return lambda x, s: ((lambda h: (h, [h]))(np.tanh(x @ k + s[0] @ u + b)))
    if kind == "LSTM":
        k, u, b = w

        def lstm(x, s):
            z = x @ k + s[0] @ u + b
            i, f, c, o = (z[:, j * units:(j + 1) * units] for j in range(4))
            c_new = _sig(f) * s[1] + _sig(i) * np.tanh(c)
            h = _sig(o) * np.tanh(c_new)
            return h, [h, c_new]
        return lstm
    k, u, b = w                                    # GRU, reset_after=True: bias [2, 3 units]

    def gru(x, s):
        mx = x @ k + b[0]
        mi = s[0] @ u + b[1]
        xz, xr, xh = (mx[:, j * units:(j + 1) * units] for j in range(3))
        rz, rr, rh = (mi[:, j * units:(j + 1) * units] for j in range(3))
        z, r = _sig(xz + rz), _sig(xr + rr)
        h = z * s[0] + (1 - z) * np.tanh(xh + r * rh)
        return h, [h]
    return gru


def rnn_ref(kind: str, w: list[np.ndarray], units: int, x: np.ndarray, mask: np.ndarray, backwards: bool):
    step = _cell(kind, [a.astype(np.float64) for a in w], units)
    b, t = x.shape[:2]
    states = [np.zeros((b, units))] * (2 if kind == "LSTM" else 1)
    prev = np.zeros((b, units))
    outs = []
    for i in (range(t - 1, -1, -1) if backwards else range(t)):
        out, new = step(x[:, i].astype(np.float64), states)
        m = mask[:, i][:, None]
        out = np.where(m, out, prev)
        states = [np.where(m, n, s) for n, s in zip(new, states)]
        prev = out
        outs.append(out)
    return np.stack(outs, 1), states


#: masks over 4 steps of a batch of 3: a False step leading, in the middle, trailing, and all True
MASK = np.array([[False, True, True, True], [True, False, True, False], [True, True, True, True]])


@clause("keras.rnn.layers", ref="tf221")
def test_degen22b_sequences_recurrent_layers_hold_state_at_masked_steps(keras, budget):
    """SimpleRNN, LSTM and GRU (return_sequences and return_state), forwards and go_backwards, with a
    mask whose False steps lead, sit between True ones and trail: the outputs at every step and the
    final states against the masked loop transcribed."""
    units, feat = 2, 3
    x = _fill((3, 4, feat), 1)
    for kind in budget(["LSTM", "SimpleRNN", "GRU"]):
        for backwards in (False, True):
            layer = getattr(keras.layers, kind)(units, return_sequences=True, return_state=True,
                                                go_backwards=backwards)
            layer.build((3, 4, feat))
            w = [_fill(a.shape, i + 2) for i, a in enumerate(layer.get_weights())]
            layer.set_weights(w)
            got = layer(x, mask=MASK)
            want_seq, want_states = rnn_ref(kind, w, units, x, MASK, backwards)
            call = f"{kind}({units}, return_sequences=True, return_state=True, go_backwards={backwards})(x, mask)"
            assert_close(_np(got[0]).astype(np.float64), want_seq, call=call, what="sequences", tolerance=TOL)
            for j, (g, s) in enumerate(zip(got[1:], want_states)):
                assert_close(_np(g).astype(np.float64), s, call=call, what=f"state {j}", tolerance=TOL)


def mha_ref(w: list[np.ndarray], q: np.ndarray, v: np.ndarray, key_dim: int) -> np.ndarray:
    qk, qb, kk, kb, vk, vb, ok, ob = [a.astype(np.float64) for a in w]
    qh = np.einsum("abc,cde->abde", q, qk) + qb
    kh = np.einsum("abc,cde->abde", v, kk) + kb
    vh = np.einsum("abc,cde->abde", v, vk) + vb
    scores = np.einsum("aecd,abcd->acbe", kh, qh / np.sqrt(key_dim))
    scores = np.exp(scores - scores.max(-1, keepdims=True))
    probs = scores / scores.sum(-1, keepdims=True)
    ctx = np.einsum("acbe,aecd->abcd", probs, vh)
    return np.einsum("abcd,cde->abe", ctx, ok) + ob


@clause("keras.mha.values", ref="tf221")
def test_degen22b_sequences_attention_with_key_dim_unlike_value_dim(keras, budget):
    """MultiHeadAttention(num_heads=2, key_dim=3, value_dim=5) (and value_dim=2, output_shape=4) on a
    query of 2 steps x 6 and a value of 4 steps x 5 (no two of the widths equal): the weight shapes,
    compute_output_shape and the values against the einsums transcribed."""
    q = _fill((2, 2, 6), 1).astype(np.float64)
    v = _fill((2, 4, 5), 2).astype(np.float64)
    for value_dim, out_shape in budget([(5, None), (2, 4)]):
        layer = keras.layers.MultiHeadAttention(2, key_dim=3, value_dim=value_dim, output_shape=out_shape)
        layer.build((2, 2, 6), (2, 4, 5))
        out_w = out_shape or 6
        want_shapes = [(6, 2, 3), (2, 3), (5, 2, 3), (2, 3), (5, 2, value_dim), (2, value_dim),
                       (2, value_dim, out_w), (out_w,)]
        call = f"MultiHeadAttention(2, key_dim=3, value_dim={value_dim}, output_shape={out_shape})"
        assert_equal([tuple(a.shape) for a in layer.get_weights()], want_shapes, call=call, what="weight shapes")
        w = [_fill(s, i + 3) for i, s in enumerate(want_shapes)]
        layer.set_weights(w)
        got = layer(q.astype(np.float32), v.astype(np.float32))
        assert_equal(tuple(_np(got).shape), (2, 2, out_w), call=call, what="shape")
        assert_equal(tuple(layer.compute_output_shape((2, 2, 6), (2, 4, 5))), (2, 2, out_w), call=call,
                     what="compute_output_shape")
        assert_close(_np(got).astype(np.float64), mha_ref(w, q, v, 3), call=call, tolerance=TOL)
