"""simdist-only checks of the recurrent layers: what the cost model counts for them (clause
keras.rnn.layers, its cost) and Keras's dropout masks for cells (clause keras.rnn.dropout), whose random
values are simdist's streams and so cannot be compared with TF's."""

from __future__ import annotations

import numpy as np
import pytest

import simdist
from simdist import tf
from simdist.runtime.cost import measure, tally

B, D, U = 4, 3, 5


def _lstm_flops(steps: int) -> tuple[float, float]:
    """(forward FLOPs, backward-section FLOPs) of one LSTM(U) call on (B, steps, D) and its gradient."""
    simdist.reset()
    layer = tf.keras.layers.LSTM(U, return_sequences=True)
    x = tf.constant(np.random.default_rng(0).standard_normal((B, steps, D)).astype("float32"))
    layer(x)
    back0 = tally.backward
    with tf.GradientTape() as tape:
        with measure() as m:
            y = layer(x)
        loss = tf.reduce_sum(y)
    tape.gradient(loss, layer.trainable_weights)
    return m.flops, tally.backward - back0


@pytest.mark.clause("keras.rnn.layers")
def test_every_step_is_counted_with_its_matmuls() -> None:
    f2, b2 = _lstm_flops(2)
    f4, b4 = _lstm_flops(4)
    f6, b6 = _lstm_flops(6)
    per_step = f4 - f2
    matmuls = 2 * B * (D + U) * 4 * U           # x @ kernel and h @ recurrent_kernel, 4 gates
    assert f6 - f4 == pytest.approx(per_step), \
        f"the forward FLOPs grow by {f4 - f2} from 2 to 4 steps but by {f6 - f4} from 4 to 6: each step should cost the same"
    assert per_step >= 2 * matmuls, \
        f"two more steps add {per_step} FLOPs, but their matmuls alone are {2 * matmuls}"
    elementwise = 2 * (B * 4 * U * 4 + B * U * 8)   # a generous bound on the gates' elementwise work
    assert per_step <= 2 * matmuls + elementwise + 4 * B * U * 4, \
        f"two more steps add {per_step} FLOPs, more than their matmuls ({2 * matmuls}) and elementwise work allow"
    assert b6 - b4 == pytest.approx(b4 - b2) and b4 - b2 >= 2 * 2 * matmuls, \
        f"the backward section grows by {b4 - b2} then {b6 - b4} FLOPs per 2 steps; it should be the same and at " \
        f"least the input- and weight-gradient matmuls ({4 * matmuls})"


@pytest.mark.clause("keras.rnn.layers")
def test_training_step_advances_simulated_time_with_the_sequence_length() -> None:
    """A fit step under MirroredStrategy(2) (strategy.run charges the simulated clock)."""
    times = []
    for steps in (3, 9):
        simdist.reset()
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        with tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]).scope():
            model = tf.keras.Sequential([tf.keras.Input((steps, D)), tf.keras.layers.GRU(U),
                                         tf.keras.layers.Dense(2)])
            model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
        x = np.ones((8, steps, D), np.float32)
        y = np.zeros((8, 2), np.float32)
        t0 = simdist.now()
        model.fit(x, y, batch_size=8, epochs=1, verbose=0)
        times.append(simdist.now() - t0)
    assert times[1] > times[0] > 0, f"simulated fit time {times[0]} s for 3 steps, {times[1]} s for 9: it should grow"


def _identity_rnn(**kw: object) -> object:
    layer = tf.keras.layers.SimpleRNN(D, activation=None, return_sequences=True, seed=7, **kw)
    layer(tf.zeros((B, 5, D)))
    layer.set_weights([np.eye(D, dtype="float32"), np.zeros((D, D), "float32"), np.zeros(D, "float32")])
    return layer


@pytest.mark.clause("keras.rnn.dropout")
def test_input_dropout_mask_is_the_same_at_every_step() -> None:
    simdist.reset()
    layer = _identity_rnn(dropout=0.5)
    x = tf.ones((B, 5, D))
    y = layer(x, training=True).numpy()             # output_t = x_t * mask = mask
    assert np.all((y == 0.0) | (y == 2.0)), f"a dropped-out step input is 0 or 1/(1-0.5) = 2, got {np.unique(y)}"
    assert np.all(y == y[:, :1, :]), "the input dropout mask should be the same at every step of a call"
    assert 0 < np.mean(y == 0.0) < 1, f"rate 0.5 should drop some inputs and keep some, dropped {np.mean(y == 0)}"
    np.testing.assert_array_equal(layer(x, training=False).numpy(), np.ones((B, 5, D), np.float32),
                                  err_msg="without training the inputs pass unchanged")
    y2 = layer(x, training=True).numpy()
    assert not np.array_equal(y, y2), "each call draws a new mask (the cell's SeedGenerator advances)"


@pytest.mark.clause("keras.rnn.dropout")
def test_dropout_masks_repeat_from_the_seed() -> None:
    outs = []
    for _ in range(2):
        simdist.reset()
        layer = _identity_rnn(dropout=0.3)
        outs.append(layer(tf.ones((B, 5, D)), training=True).numpy())
    np.testing.assert_array_equal(outs[0], outs[1], err_msg="the same seed should give the same dropout mask")


@pytest.mark.clause("keras.rnn.dropout")
def test_recurrent_dropout_uses_split_gates_and_trains() -> None:
    simdist.reset()
    layer = tf.keras.layers.LSTM(3, recurrent_dropout=0.4, dropout=0.2, seed=1)
    assert layer.cell.implementation == 1, "recurrent_dropout forces Keras's implementation 1 (one kernel slice per gate)"
    x = tf.constant(np.random.default_rng(1).standard_normal((B, 4, D)).astype("float32"))
    with tf.GradientTape() as tape:
        y = layer(x, training=True)
        loss = tf.reduce_sum(y * y)
    grads = tape.gradient(loss, layer.trainable_weights)
    assert all(g is not None and np.all(np.isfinite(tf.convert_to_tensor(g).numpy())) for g in grads), \
        "every weight should get a finite gradient through the dropped-out steps"
    assert not np.allclose(y.numpy(), layer(x, training=False).numpy()), "training=True should apply the masks"


@pytest.mark.clause("keras.rnn.arguments")
def test_stateful_needs_a_static_batch_size() -> None:
    """Keras 3.15's RNN.build: stateful=True with a dynamic batch size is ValueError (the state
    variables need it); with Input(batch_shape=...) the layer builds its "rnn_state" variables
    outside the weights."""
    layer = tf.keras.layers.LSTM(2, stateful=True)
    with pytest.raises(ValueError, match="batch size must be static"):
        tf.keras.Sequential([tf.keras.Input((4, 3)), layer])
    layer = tf.keras.layers.LSTM(2, stateful=True)
    tf.keras.Sequential([tf.keras.Input(batch_shape=(5, 4, 3)), layer])
    assert [tuple(v.shape) for v in layer.states] == [(5, 2), (5, 2)], [v.shape for v in layer.states]
    assert len(layer.weights) == 3, f"the state variables should not be weights: {[v.name for v in layer.weights]}"


def _gpu_lstm_tally(cost_model: str, steps: int) -> float:
    """What one LSTM(U) call on (B, steps, D) adds to the tally on a simulated A100."""
    simdist.configure(gpus=1, cost_model=cost_model)
    try:
        with tf.device("GPU:0"):
            layer = tf.keras.layers.LSTM(U, return_sequences=True)
            x = tf.constant(np.ones((B, steps, D), np.float32))
            layer(x)
            with measure() as m:
                layer(x)
        return m.flops
    finally:
        simdist.configure()


@pytest.mark.clause("keras.rnn.layers")
def test_roofline_charges_each_step_by_its_bytes() -> None:
    """Under the roofline cost model the steps' small kernels are memory bound: each op is charged
    its bytes' time (expressed in the tally as time x peak FLOP/s), far above its FLOPs, and each
    step again costs the same."""
    flops = _gpu_lstm_tally("flops", 4)
    roof2, roof4, roof6 = (_gpu_lstm_tally("roofline", n) for n in (2, 4, 6))
    assert roof6 - roof4 == pytest.approx(roof4 - roof2), \
        f"roofline tally grows by {roof4 - roof2} then {roof6 - roof4} per 2 steps: each step should cost the same"
    assert roof4 > 10 * flops, \
        f"the roofline tally of 4 steps ({roof4}) should far exceed their {flops} FLOPs (tiny memory-bound kernels)"
