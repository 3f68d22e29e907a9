"""The training fuzzer's kfuzz46 classes against Keras 3.15 on TF 2.21 (tests/fuzz_train; clause keras.fit.distributed-step).

Keras 3.15's TF trainer keeps Keras 2's `model.compiled_loss(y, y_pred, sample_weight, regularization_losses)` and
`model.compiled_metrics.update_state(y, y_pred, sample_weight)` as shims (keras/src/backend/tensorflow/trainer.py,
"Backwards compatibility shims"), so a custom train_step written for Keras 2 trains: compiled_loss is
`compute_loss(x=None, y, y_pred, sample_weight)` (the model's own losses added there, `regularization_losses`
ignored), and compiled_metrics updates EVERY metric of `self.metrics`, a `Mean` (the loss tracker among them) with
y_pred itself, so the logged "loss" is the mean of the predictions. simdist had neither (AttributeError). A custom
train_step with metrics of its own listed by a `metrics` property is checked beside it. Each case returns fit's
history, the weights, evaluate's dict and the model's metric names."""

from __future__ import annotations

import os
import re
import warnings
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


_TF_MIRRORED: list[Any] = []


def _setup(tf: Any, replicas: int) -> Any:
    simdist_side = "simdist" in tf.__name__
    if simdist_side:   # (TF's worker splits its CPU before TF initialises: _tf_worker)
        import simdist
        simdist.reset()
        tf_programs.four_cpus(tf)
    if replicas == 1:
        return tf.distribute.get_strategy()
    if simdist_side:
        return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])
    # (TF 2.21: one MirroredStrategy per worker process, as test_kfuzz45_tf.py explains)
    if not _TF_MIRRORED:
        _TF_MIRRORED.append(tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)]))
    return _TF_MIRRORED[0]


def _data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact inputs, targets and sample weights (multiples of 1/8)."""
    x = ((np.arange(24, dtype=np.float32).reshape(8, 3) % 5 - 2) / 8).astype(np.float32)
    y = ((np.arange(16, dtype=np.float32).reshape(8, 2) % 3 - 1) / 8).astype(np.float32)
    sw = np.array([1, 2, 1, 0, 1, 1, 2, 1], dtype=np.float32) / 2
    return x, y, sw


def _model_class(tf: Any, form: str) -> Any:
    keras = tf.keras
    if form == "compiled":
        class Compiled(keras.Model):
            def train_step(self, data):
                x, y, sample_weight = keras.utils.unpack_x_y_sample_weight(data)
                with tf.GradientTape() as tape:
                    y_pred = self(x, training=True)
                    loss = self.compiled_loss(y, y_pred, sample_weight, regularization_losses=self.losses)
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
                self.compiled_metrics.update_state(y, y_pred, sample_weight)
                return {m.name: m.result() for m in self.metrics}
        return Compiled

    class Trackers(keras.Model):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.loss_tracker = keras.metrics.Mean(name="loss")
            self.err_metric = keras.metrics.MeanSquaredError(name="err")

        @property
        def metrics(self):
            return [self.loss_tracker, self.err_metric]

        def train_step(self, data):
            x, y, sample_weight = keras.utils.unpack_x_y_sample_weight(data)
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            self.loss_tracker.update_state(loss)
            self.err_metric.update_state(y, y_pred, sample_weight=sample_weight)
            return {m.name: m.result() for m in self.metrics}
    return Trackers


def _fit(form: str, replicas: int, weighted: bool, eager: bool) -> Callable:
    """A Dense(3, relu) + Dense(2) model with an L2 kernel regularizer, compiled with MSE and MAE, fit two epochs
    of 8 by 4s by the custom train_step: the history, the weights, evaluate's dict and the metric names."""
    def case(tf: Any) -> Any:
        keras = tf.keras
        strategy = _setup(tf, replicas)
        init = keras.initializers.Constant(0.25)
        with strategy.scope():
            inp = keras.Input((3,))
            h = keras.layers.Dense(3, activation="relu", kernel_initializer="ones", bias_initializer=init)(inp)
            out = keras.layers.Dense(2, kernel_initializer=init, kernel_regularizer=keras.regularizers.L2(0.05))(h)
            model = _model_class(tf, form)(inp, out)
            model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"], run_eagerly=eager)
        x, y, sw = _data()
        kw = {"sample_weight": sw} if weighted else {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                hist = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False, **kw)
                ev = model.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
            except Exception as e:  # noqa: BLE001 - the error class is the observable
                return ["error", type(e).__name__, str(e)[:200]]
        return ([sorted(hist.history)] + [np.asarray(hist.history[k], dtype=np.float64) for k in sorted(hist.history)]
                + [np.asarray(w) for w in model.get_weights()]
                + [sorted(ev), np.asarray([ev[k] for k in sorted(ev)], dtype=np.float64)]
                + [[m.name for m in model.metrics]])
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for form in ("compiled", "trackers"):
        for replicas in (1, 2):
            for weighted in (True, False):
                out[f"custom_step/{form} replicas={replicas} sample_weight={weighted}"] = \
                    _fit(form, replicas, weighted, False)
        out[f"custom_step/{form} replicas=1 sample_weight=True run_eagerly"] = _fit(form, 1, True, True)
    return out


_AUTO_NAME = re.compile(r"(functional_|input_layer_|sgd_|compiled_|trackers_)_?\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.fixture(scope="module", autouse=True)
def _fresh_keras_session_after() -> Any:
    yield
    from simdist import tf
    tf.keras.backend.clear_session()


@pytest.mark.clause("keras.fit.distributed-step")
def test_a_keras_2_custom_step_trains_through_the_compiled_loss_and_metrics_shims(
        tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("custom_step/"))


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    tf_programs.four_cpus(tf)   # (MirroredStrategy needs the logical CPUs before TF initialises)
    return TABLE.tf_worker(indices)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
