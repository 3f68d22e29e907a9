"""Callback paths the suite never executed before the twenty-third session (docs/conformance.md,
"Twenty-third session: suite coverage of Keras"): SwapEMAWeights over a LossScaleOptimizer whose
inner optimizer keeps the EMA, and ModelCheckpoint's verbose messages when it saves every epoch
(TF 2.21 + Keras 3.15).

Expected values are computed here with NumPy from Keras 3.15's rules (keras/src/optimizers/
base_optimizer.py `_update_model_variables_moving_average`, callbacks/swap_ema_weights.py,
callbacks/model_checkpoint.py), never with the backend's implementation.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=2e-5, atol=2e-6)
X = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 1.0], [2.0, 1.0, -1.0], [-0.5, 0.5, 1.5]], dtype=np.float32)
Y = np.array([[1.0], [0.0], [2.0], [-1.0]], np.float32)


def _sgd_ema(steps_x, steps_y, w, lr, momentum):
    """Keras 3.15 SGD(lr, use_ema=True, ema_momentum) on mean((x w - y)^2) per batch, float64: the
    weights after each step and the moving average (the first step's average is the weights)."""
    w, avg, out = w.astype(np.float64), None, []
    for i, (x, y) in enumerate(zip(steps_x, steps_y)):
        x64, y64 = x.astype(np.float64), y.astype(np.float64)
        grad = 2.0 * x64.T @ (x64 @ w - y64) / len(x)
        w = w - lr * grad
        m = 0.0 if i == 0 else momentum
        avg = w.copy() if avg is None else m * avg + (1 - m) * w
        out.append((w.copy(), avg.copy()))
    return out


@clause("keras.callbacks.swap-ema-weights", ref="tf221")
def test_cov23a_swap_ema_weights_through_a_loss_scale_optimizer(keras):
    """SwapEMAWeights(swap_on_epoch=True) with LossScaleOptimizer(SGD(use_ema=True)) finds the EMA
    on the inner optimizer: a callback after it sees the moving averages in the model at each epoch's
    end and the trained weights again at the next epoch's begin; after fit the model holds the
    averages (finalize); the loss scale does not change the SGD steps."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, use_bias=False, kernel_initializer="ones")])
    inner = keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5)
    model.compile(optimizer=keras.mixed_precision.LossScaleOptimizer(inner), loss="mse")
    seen = {}

    class Record(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            seen[("begin", epoch)] = np.asarray(self.model.get_weights()[0], np.float64)

        def on_epoch_end(self, epoch, logs=None):
            seen[("end", epoch)] = np.asarray(self.model.get_weights()[0], np.float64)

    model.fit(X, Y, epochs=2, batch_size=2, shuffle=False, verbose=0,
              callbacks=[keras.callbacks.SwapEMAWeights(swap_on_epoch=True), Record()])
    steps = _sgd_ema([X[:2], X[2:]] * 2, [Y[:2], Y[2:]] * 2, np.ones((3, 1)), 0.1, 0.5)
    call = "fit 2 epochs of 2 steps, LossScaleOptimizer(SGD(0.1, use_ema=True, ema_momentum=0.5)), SwapEMAWeights"
    assert_close(seen[("end", 0)], steps[1][1], tolerance=TOL, call=call, what="weights at epoch 0's end (EMA)")
    assert_close(seen[("begin", 1)], steps[1][0], tolerance=TOL, call=call,
                 what="weights at epoch 1's begin (trained, swapped back)")
    assert_close(seen[("end", 1)], steps[3][1], tolerance=TOL, call=call, what="weights at epoch 1's end (EMA)")
    assert_close(model.get_weights()[0], steps[3][1], tolerance=TOL, call=call, what="weights after fit")


@clause("keras.callback.model-checkpoint", ref="tf221")
def test_cov23a_model_checkpoint_verbose_messages(keras):
    """ModelCheckpoint(verbose=1) saving every epoch prints "\\nEpoch {n}: saving model to {path}"
    before and "\\nEpoch {n}: finished saving model to {path}" after each save (1-based epochs,
    the path formatted with the epoch)."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    with tempfile.TemporaryDirectory() as d:
        pattern = os.path.join(d, "w{epoch}.weights.h5")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            model.fit(X, Y, epochs=2, batch_size=2, verbose=0, shuffle=False, callbacks=[
                keras.callbacks.ModelCheckpoint(pattern, save_weights_only=True, verbose=1)])
        want = "".join(f"\nEpoch {e}: saving model to {pattern.format(epoch=e)}\n"
                       f"\nEpoch {e}: finished saving model to {pattern.format(epoch=e)}\n" for e in (1, 2))
        call = "fit(epochs=2, callbacks=[ModelCheckpoint('w{epoch}.weights.h5', save_weights_only=True, verbose=1)])"
        assert_equal(out.getvalue(), want, call=call, what="printed messages")
        assert_equal(sorted(os.listdir(d)), ["w1.weights.h5", "w2.weights.h5"], call=call, what="files written")
