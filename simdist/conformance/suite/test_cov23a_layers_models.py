"""Layer and model paths the suite never executed before the twenty-third session (docs/conformance.md,
"Twenty-third session: suite coverage of Keras"): user-written RNN cells (the Keras guide's
MinimalRNNCell: `state_size` only, no `output_size`, no `get_initial_state`) in RNN and stacked,
Sequential.pop with and without rebuild and an unbuilt Sequential's shapes, Concatenate of inputs
of unknown length along the axis, Lambda's output-shape inference, and a functional model's
`output`/`operations` (TF 2.21 + Keras 3.15).

Expected values are computed here with NumPy from Keras 3.15's rules (keras/src/layers/rnn/rnn.py,
stacked_rnn_cells.py, models/sequential.py, layers/merging/concatenate.py, layers/core/lambda_layer.py)
from the weights the backend reports, never with the backend's implementation.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=2e-5, atol=2e-6)


def _f32(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, shape).astype(np.float32)


def _shape(t) -> tuple:
    return tuple(None if d is None else int(d) for d in t.shape)


def _cell_classes(keras, tf):
    """The Keras RNN guide's MinimalRNNCell (one state, `state_size` an int) and a two-state cell
    whose second state is wider and that declares no `output_size`."""

    class MinimalRNNCell(keras.layers.Layer):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.state_size = units

        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="uniform", name="kernel")
            self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), initializer="uniform",
                                                    name="recurrent_kernel")

        def call(self, inputs, states):
            h = tf.matmul(inputs, self.kernel) + tf.matmul(states[0], self.recurrent_kernel)
            return h, [h]

    class TwoStateCell(keras.layers.Layer):
        """h = x K + h0; c = [h, c0[:, :units]] (state 2 is twice as wide); output h."""

        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.state_size = [units, 2 * units]

        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="uniform", name="kernel")

        def call(self, inputs, states):
            h0, c0 = states
            h = tf.matmul(inputs, self.kernel) + h0
            c = tf.concat([h, c0[:, : self.units]], axis=-1)
            return h, [h, c]

    return MinimalRNNCell, TwoStateCell


def _minimal_rnn(x, k, u, h0=None):
    """NumPy recurrence of MinimalRNNCell over x (batch, time, features); the outputs per step."""
    h = np.zeros((x.shape[0], k.shape[1])) if h0 is None else h0
    outs = []
    for t in range(x.shape[1]):
        h = x[:, t].astype(np.float64) @ k + h @ u
        outs.append(h)
    return np.stack(outs, axis=1)


@clause("keras.rnn.layers", ref="tf221")
def test_cov23a_user_rnn_cell_without_output_size_or_initial_state(keras, tf):
    """RNN(cell) of a cell with only `state_size`: the output size is `state_size[0]` (the first
    state's size, for a list state_size too), the initial state is zeros of each state's size
    (RNN.get_initial_state without the cell's), return_sequences/return_state give the outputs per
    step and the final states; the values follow the cell's recurrence from zero states."""
    MinimalRNNCell, TwoStateCell = _cell_classes(keras, tf)
    x = _f32(2, 4, 3, seed=1)
    inputs = keras.Input((4, 3))
    layer = keras.layers.RNN(MinimalRNNCell(5), return_sequences=True, return_state=True)
    seq, state = layer(inputs)
    call = "RNN(MinimalRNNCell(5), return_sequences=True, return_state=True) on Input((4, 3))"
    assert_equal([_shape(seq), _shape(state)], [(None, 4, 5), (None, 5)], call=call, what="symbolic shapes")
    model = keras.Model(inputs, [seq, state])
    k, u = (np.asarray(w, np.float64) for w in model.get_weights())
    got_seq, got_state = model.predict(x, verbose=0)
    want = _minimal_rnn(x, k, u)
    assert_close(got_seq, want, tolerance=TOL, call=call, what="outputs per step")
    assert_close(got_state, want[:, -1], tolerance=TOL, call=call, what="final state")
    assert_equal(tuple(layer.compute_output_shape((None, 4, 3))[0]), (None, 4, 5), call=call,
                 what="compute_output_shape (sequences)")

    two = keras.layers.RNN(TwoStateCell(3), return_state=True)
    call = "RNN(TwoStateCell(3)) (state_size [3, 6], no output_size), return_state=True"
    out, h, c = two(keras.Input((4, 3)))
    assert_equal([_shape(out), _shape(h), _shape(c)], [(None, 3), (None, 3), (None, 6)], call=call,
                 what="symbolic shapes (output, state 1, state 2)")
    assert_equal(tuple(two.compute_output_shape((None, 4, 3))[0]), (None, 3), call=call,
                 what="compute_output_shape (output)")
    got_out, got_h, got_c = (np.asarray(v) for v in two(x))
    kk = np.asarray(two.get_weights()[0], np.float64)
    hh, cc = np.zeros((2, 3)), np.zeros((2, 6))
    for t in range(4):
        hh = x[:, t].astype(np.float64) @ kk + hh
        cc = np.concatenate([hh, cc[:, :3]], axis=-1)
    assert_close(got_out, hh, tolerance=TOL, call=call, what="output")
    assert_close(got_c, cc, tolerance=TOL, call=call, what="final second state")


@clause("keras.layer.stacked-rnn-cells", ref="tf221")
def test_cov23a_stacked_user_cells(keras, tf):
    """RNN([cell_a, cell_b]) wraps the cells in StackedRNNCells: its output size is the last cell's
    (its state_size when it has no output_size), its initial state zeros per cell, and each step
    feeds cell_a's output to cell_b."""
    MinimalRNNCell, _ = _cell_classes(keras, tf)
    x = _f32(3, 4, 2, seed=2)
    inputs = keras.Input((4, 2))
    layer = keras.layers.RNN([MinimalRNNCell(4), MinimalRNNCell(2)], return_state=True)
    out, s1, s2 = layer(inputs)
    call = "RNN([MinimalRNNCell(4), MinimalRNNCell(2)], return_state=True) on Input((4, 2))"
    assert_equal([_shape(out), _shape(s1), _shape(s2)], [(None, 2), (None, 4), (None, 2)], call=call,
                 what="symbolic shapes (output, cell 1 state, cell 2 state)")
    assert_equal(layer.cell.output_size, 2, call=call, what="StackedRNNCells.output_size")
    model = keras.Model(inputs, [out, s1])
    k1, u1, k2, u2 = (np.asarray(w, np.float64) for w in model.get_weights())
    got_out, got_s1 = model.predict(x, verbose=0)
    first = _minimal_rnn(x, k1, u1)
    second = _minimal_rnn(first, k2, u2)
    assert_close(got_s1, first[:, -1], tolerance=TOL, call=call, what="cell 1's final state")
    assert_close(got_out, second[:, -1], tolerance=TOL, call=call, what="output (cell 2's last)")


@clause("keras.model.weights-order", ref="tf221")
def test_cov23a_sequential_pop_rebuild_and_unbuilt_shapes(keras):
    """Sequential.pop() removes the last layer and rebuilds (the output shape is the new last
    layer's); pop(rebuild=False) leaves the model unbuilt, so `output_shape` is an AttributeError
    until it is called or built again; compute_output_shape of an unbuilt Sequential follows its
    layers."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="d1"), keras.layers.Dense(2, name="d2"),
                              keras.layers.Dense(5, name="d3")])
    popped = model.pop()
    call = "Sequential([Input((3,)), Dense(4), Dense(2), Dense(5)]).pop()"
    assert_equal(popped.name, "d3", call=call, what="popped layer")
    assert_equal(tuple(model.output_shape), (None, 2), call=call, what="output_shape")
    x = _f32(2, 3, seed=3)
    w = [np.asarray(v, np.float64) for v in model.get_weights()]
    assert_close(model(x), (x @ w[0] + w[1]) @ w[2] + w[3], tolerance=TOL, call=call, what="model(x)")
    popped = model.pop(rebuild=False)
    call += ".pop(rebuild=False)"
    assert_equal([popped.name, [l.name for l in model.layers]], ["d2", ["d1"]], call=call,
                 what="popped layer, layers")
    with raises(AttributeError, call=call + ": output_shape"):
        _ = model.output_shape
    model.build((None, 3))
    assert_equal(tuple(model.output_shape), (None, 4), call=call + ", build((None, 3))", what="output_shape")
    assert_close(model(x), x @ w[0] + w[1], tolerance=TOL, call=call + ", build((None, 3))", what="model(x)")

    lazy = keras.Sequential([keras.layers.Dense(6), keras.layers.Dense(2)])
    call = "Sequential([Dense(6), Dense(2)]) without Input"
    assert_equal(tuple(lazy.compute_output_shape((None, 7))), (None, 2), call=call, what="compute_output_shape")
    with raises(AttributeError, call=call + ": output_shape"):
        _ = lazy.output_shape


@clause("keras.layer.option-coverage", ref="tf221")
def test_cov23a_concatenate_of_unknown_lengths(keras):
    """Concatenate(axis=1) of a (None, 3)-per-example input and a (4, 3) one: the symbolic length
    along the axis is None when any input's is (Concatenate.compute_output_shape); the values are
    the inputs joined along the axis."""
    a, b = keras.Input((None, 3)), keras.Input((4, 3))
    layer = keras.layers.Concatenate(axis=1)
    out = layer([a, b])
    call = "Concatenate(axis=1)([Input((None, 3)), Input((4, 3))])"
    assert_equal(_shape(out), (None, None, 3), call=call, what="symbolic shape")
    assert_equal(tuple(layer.compute_output_shape([(None, 4, 3), (None, None, 3)])), (None, None, 3), call=call,
                 what="compute_output_shape, unknown length second")
    assert_equal(tuple(layer.compute_output_shape([(None, 2, 3), (None, 4, 3)])), (None, 6, 3), call=call,
                 what="compute_output_shape, known lengths")
    model = keras.Model([a, b], out)
    xa, xb = _f32(2, 2, 3, seed=4), _f32(2, 4, 3, seed=5)
    assert_close(model.predict([xa, xb], verbose=0), np.concatenate([xa, xb], axis=1), call=call, what="values")


def _twice(x):
    return x * 2.0


@clause("keras.layer.option-coverage", ref="tf221")
def test_cov23a_lambda_infers_its_output_shape(keras, tf):
    """Lambda without `output_shape`: compute_output_shape runs the function on symbolic inputs
    (a list of shapes for a list input); a function that fails on them is a NotImplementedError
    asking for `output_shape`."""
    call = "Lambda(lambda x: tf.concat([x, x], -1)).compute_output_shape((None, 3))"
    assert_equal(tuple(keras.layers.Lambda(lambda x: tf.concat([x, x], -1)).compute_output_shape((None, 3))),
                 (None, 6), call=call, what="output shape")
    pair = keras.layers.Lambda(lambda xs: xs[0] * xs[1][:, :1])
    assert_equal(tuple(pair.compute_output_shape([(None, 3), (None, 2)])), (None, 3),
                 call="Lambda(xs[0] * xs[1][:, :1]).compute_output_shape([(None, 3), (None, 2)])",
                 what="output shape")

    def needs_rank_3(x):
        return tf.transpose(x, [0, 2, 1])

    with raises(NotImplementedError, match="output_shape",
                call="Lambda(transpose [0, 2, 1]).compute_output_shape((None, 3))"):
        keras.layers.Lambda(needs_rank_3).compute_output_shape((None, 3))
