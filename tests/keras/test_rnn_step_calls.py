"""simdist-only checks of the recurrent loop's fast path (clause keras.rnn.layers): after the
first step, Keras's own cells run `call` directly instead of Layer.__call__, and the step masks
are expanded once per call. The values must be bit for bit those of the plain path, which a
subclass of the cell (run through Layer.__call__ at every step) still takes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import simdist
from simdist import tf
from simdist.keras.layers import rnn_cells

B, T, D, U = 3, 6, 4, 5


class _PlainLSTMCell(rnn_cells.LSTMCell):
    """LSTMCell under another class: the loop calls it through Layer.__call__ at every step."""


class _PlainGRUCell(rnn_cells.GRUCell):
    """GRUCell under another class (see _PlainLSTMCell)."""


class _PlainSimpleRNNCell(rnn_cells.SimpleRNNCell):
    """SimpleRNNCell under another class (see _PlainLSTMCell)."""


_PLAIN = {"LSTMCell": _PlainLSTMCell, "GRUCell": _PlainGRUCell, "SimpleRNNCell": _PlainSimpleRNNCell}


def _run(cell: Any, x: np.ndarray, mask: np.ndarray, weights: list[np.ndarray], training: bool) -> list[np.ndarray]:
    layer = tf.keras.layers.RNN(cell, return_sequences=True, return_state=True)
    xt = tf.constant(x)
    layer(xt, mask=tf.constant(mask))
    layer.set_weights(weights)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        outs = layer(xt, mask=tf.constant(mask), training=training)
        loss = tf.add_n([tf.reduce_sum(o * o) for o in outs])
    grads = tape.gradient(loss, [xt] + list(layer.trainable_weights))
    return [np.asarray(o) for o in outs] + [np.asarray(g) for g in grads]


@pytest.mark.clause("keras.rnn.layers")
@pytest.mark.parametrize("name,kwargs", [("LSTMCell", {}), ("GRUCell", {"reset_after": False}),
                                         ("SimpleRNNCell", {}), ("LSTMCell", {"dropout": 0.3, "seed": 4}),
                                         ("GRUCell", {"recurrent_dropout": 0.25, "seed": 2})])
def test_direct_cell_calls_give_the_plain_loop_values_bit_for_bit(name: str, kwargs: dict) -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((B, T, D)).astype("float32")
    mask = np.ones((B, T), bool)
    mask[0, -2:] = False
    mask[1, :2] = False
    results = []
    for cls in (getattr(rnn_cells, name), _PLAIN[name]):
        simdist.reset()
        cell = cls(U, **kwargs)
        if not results:
            weights = [(rng.standard_normal(tuple(w.shape)) * 0.5).astype("float32")
                       for w in _probe_weights(getattr(rnn_cells, name), kwargs)]
        results.append(_run(cell, x, mask, weights, training=bool(kwargs)))
    fast, plain = results
    assert len(fast) == len(plain), f"{name}: {len(fast)} results on the fast path, {len(plain)} on the plain one"
    for i, (a, b) in enumerate(zip(fast, plain)):
        assert a.dtype == b.dtype and np.array_equal(a, b), \
            f"{name}{kwargs} result {i}: fast path {a.ravel()[:4].tolist()}..., plain path {b.ravel()[:4].tolist()}... " \
            f"(max diff {float(np.max(np.abs(a - b))):.3g}): they should be bit for bit equal"


def _probe_weights(cls: type, kwargs: dict) -> list[Any]:
    layer = tf.keras.layers.RNN(cls(U, **kwargs))
    layer(tf.zeros((B, T, D)))
    return list(layer.weights)


@pytest.mark.clause("keras.rnn.layers")
def test_keras_cells_go_through_layer_call_once_per_sequence(monkeypatch: Any) -> None:
    """The fast path is taken: LSTMCell.__call__ runs at the first step only; a subclass at every step."""
    calls: dict[str, int] = {}
    original = tf.keras.layers.Layer.__call__

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls[type(self).__name__] = calls.get(type(self).__name__, 0) + 1
        return original(self, *args, **kwargs)

    x = tf.constant(np.ones((B, T, D), "float32"))
    built = [tf.keras.layers.RNN(rnn_cells.LSTMCell(U)), tf.keras.layers.RNN(_PlainLSTMCell(U))]
    for layer in built:
        layer(x)
    monkeypatch.setattr(tf.keras.layers.Layer, "__call__", counting)
    for layer in built:
        layer(x)
    assert calls.get("LSTMCell") == 1, f"LSTMCell.__call__ ran {calls.get('LSTMCell')} times over {T} steps, " \
                                       "but should run once (the first step)"
    assert calls.get("_PlainLSTMCell") == T, f"a subclass's __call__ ran {calls.get('_PlainLSTMCell')} times, " \
                                             f"but should run at each of the {T} steps"
