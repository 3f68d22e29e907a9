"""Gaps the fourteenth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours and options no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here
with NumPy (or a Python transcription of TF's or Keras 3.15's rule), never with the backend's own
implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _f32(*shape, seed=0, lo=-1.0, hi=1.0):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(np.float32)


def _dense_model(keras, w, b):
    """Sequential([Input((k,)), Dense(1)]) with kernel w (k, 1) and bias b (1,), compiled with SGD/mse."""
    model = keras.Sequential([keras.Input((w.shape[0],)), keras.layers.Dense(1)])
    model.layers[-1].set_weights([w, b])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    return model


# -- fit / evaluate / predict: a callback's stop flag ends the loop after the batch that set it ----------------
@clause("keras.fit.callback-hooks", ref="tf221")
def test_blind14_a_callbacks_stop_flag_ends_fit_evaluate_and_predict_after_its_batch(keras, budget):
    """A callback setting model.stop_training (fit), model.stop_evaluating (evaluate) or
    model.stop_predicting (predict) in a batch-end hook ends the loop after that batch: evaluate's
    results are the metrics over the batches run, predict returns the rows of the batches run, fit
    trains no further batch. The flags are reset when each loop starts."""
    x, y = _f32(10, 3, seed=1), _f32(10, 1, seed=2)
    w, b = _f32(3, 1, seed=3), np.array([0.25], np.float32)
    pred = x.astype(np.float64) @ w.astype(np.float64) + 0.25

    class Stop(keras.callbacks.Callback):
        def __init__(self, after, flag):
            super().__init__()
            self.after, self.flag, self.seen = after, flag, []

        def _end(self, batch):
            self.seen.append(batch)
            if batch == self.after:
                setattr(self.model, self.flag, True)

        def on_test_batch_end(self, batch, logs=None):
            if self.flag == "stop_evaluating":
                self._end(batch)

        def on_predict_batch_end(self, batch, logs=None):
            if self.flag == "stop_predicting":
                self._end(batch)

        def on_train_batch_end(self, batch, logs=None):
            if self.flag == "stop_training":
                self._end(batch)

    for after in budget([1, 0, 3]):
        model = _dense_model(keras, w, b)
        stop = Stop(after, "stop_evaluating")
        got = model.evaluate(x, y, batch_size=2, verbose=0, callbacks=[stop])
        n = 2 * (after + 1)
        want = float(np.mean((pred[:n] - y[:n]) ** 2))
        call = f"evaluate(10 rows, batch_size=2) with a callback setting stop_evaluating after batch {after}"
        assert_equal(stop.seen, list(range(after + 1)), call=call, what="test batches run")
        assert_close(got, want, call=call, what="loss (mean over the batches run)", tolerance=TOL32)
        again = model.evaluate(x, y, batch_size=2, verbose=0)
        assert_close(again, float(np.mean((pred - y) ** 2)), call="a second evaluate without the callback",
                     what="loss over all 10 rows (the flag reset)", tolerance=TOL32)

        stop = Stop(after, "stop_predicting")
        out = model.predict(x, batch_size=2, verbose=0, callbacks=[stop])
        call = f"predict(10 rows, batch_size=2) with a callback setting stop_predicting after batch {after}"
        assert_equal(stop.seen, list(range(after + 1)), call=call, what="predict batches run")
        assert_close(out, pred[:n], call=call, what="the rows predicted", tolerance=TOL32)

        stop = Stop(after, "stop_training")
        model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0, callbacks=[stop])
        call = f"fit(10 rows, batch_size=2, epochs=2) with a callback setting stop_training after batch {after}"
        assert_equal(stop.seen, list(range(after + 1)), call=call, what="train batches run")
        assert_equal(int(model.optimizer.iterations.numpy()), after + 1, call=call, what="optimizer.iterations")


# -- count_params: every weight, trainable or not ----------------------------------------------------------------
@clause("keras.model.weights-order", ref="tf221")
def test_blind14_count_params_counts_trainable_and_non_trainable_weights(keras, budget):
    """Layer.count_params() and Model.count_params() count the scalars of every weight: the
    non-trainable ones (BatchNormalization's moving statistics) and those of frozen layers too."""
    cases = [("dense", 4, 3, False, False), ("batchnorm", 5, 2, True, False), ("frozen", 3, 6, True, True)]
    for name, k, units, bn, freeze in budget(cases):
        keras.backend.clear_session()
        layers = [keras.layers.Dense(units)]
        if bn:
            layers.append(keras.layers.BatchNormalization())
        model = keras.Sequential([keras.Input((k,))] + layers)
        if freeze:
            model.layers[0].trainable = False
        dense, bn_params = k * units + units, 4 * units if bn else 0
        call = f"Sequential([Input(({k},)), Dense({units})" + (", BatchNormalization()" if bn else "") + "])" + \
            (" with the Dense frozen" if freeze else "")
        assert_equal(model.layers[0].count_params(), dense, call=call, what="Dense.count_params()")
        if bn:
            assert_equal(model.layers[1].count_params(), bn_params, call=call,
                         what="BatchNormalization.count_params() (gamma, beta, moving mean and variance)")
        assert_equal(model.count_params(), dense + bn_params, call=call, what="model.count_params()")
        trainable = (0 if freeze else dense) + (2 * units if bn else 0)
        assert_equal(sum(int(np.prod(v.shape)) for v in model.trainable_weights), trainable, call=call,
                     what="scalars in model.trainable_weights")
