"""The weights each layer starts from, by its default initializers and options — clause
keras.init.layer-defaults (TF 2.21 + Keras 3.15).

Random initial values cannot be compared across backends, so the checks are the laws each
default initializer obeys (constants exactly; uniform draws inside their bounds; orthogonal
matrices orthonormal) and the layout options give them (LSTM's unit_forget_bias puts ones on the
forget gate's block, the second of i, f, c, o; GRU's reset_after doubles the bias rows), from
Keras 3.15's layer sources, never from the backend under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause

U = 3   # units of the recurrent layers
X = np.linspace(-1.0, 1.0, 2 * 4 * 5, dtype=np.float32).reshape(2, 4, 5)


def _np(v) -> np.ndarray:
    return np.asarray(v.numpy() if hasattr(v, "numpy") else v, dtype=np.float64)


@clause("keras.init.layer-defaults", ref="tf221")
@pytest.mark.parametrize("unit_forget_bias", [True, False])
def test_lstm_bias_starts_with_ones_on_the_forget_gate(backend, keras, unit_forget_bias):
    layer = keras.layers.LSTM(U, unit_forget_bias=unit_forget_bias)
    layer(X)
    bias = _np(layer.cell.bias)
    want = np.concatenate([np.zeros(U), np.ones(U) if unit_forget_bias else np.zeros(U), np.zeros(2 * U)])
    call = f"LSTM({U}, unit_forget_bias={unit_forget_bias}) built on (2, 4, 5)"
    assert_equal(bias.shape, (4 * U,), call=call, what="bias.shape")
    assert_close(bias, want, call=call, what="initial bias (gates i, f, c, o)")
    # with bias_initializer="ones" the forget block is ones + ... : Keras concatenates
    # init(units), ones(units), init(2*units), so every entry is 1
    layer = keras.layers.LSTM(U, unit_forget_bias=unit_forget_bias, bias_initializer="ones")
    layer(X)
    assert_close(_np(layer.cell.bias), np.ones(4 * U), call=call.replace(")", ", bias_initializer='ones')", 1),
                 what="initial bias")


@clause("keras.init.layer-defaults", ref="tf221")
@pytest.mark.parametrize("kind", ["SimpleRNN", "LSTM", "GRU"])
def test_recurrent_kernels_start_orthogonal(backend, keras, kind):
    layer = getattr(keras.layers, kind)(U)
    layer(X)
    gates = {"SimpleRNN": 1, "LSTM": 4, "GRU": 3}[kind]
    rk = _np(layer.cell.recurrent_kernel)
    k = _np(layer.cell.kernel)
    call = f"{kind}({U}) built on (2, 4, 5)"
    assert_equal(rk.shape, (U, gates * U), call=call, what="recurrent_kernel.shape")
    # Orthogonal() on a (U, g*U) matrix: orthonormal rows (the wide case)
    assert_close(rk @ rk.T, np.eye(U), tolerance=Tolerance(rtol=0.0, atol=1e-5), call=call, what="recurrent_kernel @ recurrent_kernel.T")
    limit = np.sqrt(6.0 / (5 + gates * U))
    assert_true(np.abs(k).max() <= limit + 1e-7, f"kernel entries up to {np.abs(k).max()}, beyond glorot_uniform's "
                f"±{limit}", call=call)
    if kind != "SimpleRNN":
        bias = _np(layer.cell.bias)
        want_shape = (2, 3 * U) if kind == "GRU" else (4 * U,)   # GRU: reset_after=True by default
        assert_equal(bias.shape, want_shape, call=call, what="bias.shape")
    gru = keras.layers.GRU(U, reset_after=False)
    gru(X)
    assert_equal(_np(gru.cell.bias).shape, (3 * U,), call=f"GRU({U}, reset_after=False)", what="bias.shape")
    assert_close(_np(gru.cell.bias), np.zeros(3 * U), call=f"GRU({U}, reset_after=False)", what="initial bias")


@clause("keras.init.layer-defaults", ref="tf221")
def test_normalization_dense_and_embedding_defaults(backend, keras):
    x = X.reshape(8, 5)
    bn = keras.layers.BatchNormalization()
    bn.build(x.shape)
    for name, want in (("gamma", 1.0), ("beta", 0.0), ("moving_mean", 0.0), ("moving_variance", 1.0)):
        assert_close(_np(getattr(bn, name)), np.full(5, want), call="BatchNormalization() built on (8, 5)",
                     what=f"initial {name}")
    ln = keras.layers.LayerNormalization()
    ln.build(x.shape)
    assert_close(_np(ln.gamma), np.ones(5), call="LayerNormalization() built on (8, 5)", what="initial gamma")
    assert_close(_np(ln.beta), np.zeros(5), call="LayerNormalization() built on (8, 5)", what="initial beta")
    dense = keras.layers.Dense(7)
    dense.build(x.shape)
    limit = np.sqrt(6.0 / (5 + 7))
    kernel = _np(dense.kernel)
    assert_true(np.abs(kernel).max() <= limit + 1e-7 and np.abs(kernel).max() > limit / 4,
                f"Dense kernel entries up to {np.abs(kernel).max()}, glorot_uniform draws in ±{limit}",
                call="Dense(7) built on (8, 5)")
    assert_close(_np(dense.bias), np.zeros(7), call="Dense(7) built on (8, 5)", what="initial bias")
    emb = keras.layers.Embedding(50, 4)
    emb.build((None,))
    table = _np(emb.embeddings)
    assert_true(np.abs(table).max() <= 0.05 + 1e-7 and np.abs(table).max() > 0.03,
                f"Embedding table entries up to {np.abs(table).max()}, uniform draws in ±0.05",
                call="Embedding(50, 4) built")
