"""Training options that only show after a round trip, under a strategy, in evaluation, or with a
second global seed — clauses optim.config-round-trip, keras.loss.distribution-scaling,
keras.fit.evaluate-inference and ops.random-across-calls (TF 2.21 + Keras 3.15).

- every optimizer's config (every non-default option) survives get_config/from_config and a
  `.keras` model file, and the rebuilt optimizer takes the same steps;
- weight-regularization losses are scaled like the compiled loss under MirroredStrategy, so a
  2-replica fit ends where a one-device fit of the same global batches ends;
- evaluate (and the validation pass) runs the model in inference mode (Dropout keeps every unit,
  BatchNormalization uses its moving statistics);
- an op-seeded random op depends on the global seed too.

Expected values come from the same program on one device or from NumPy written here, never from
a hard-coded backend answer.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.repro import Program

clause = pytest.mark.clause

OPTIMIZERS = [
    ("SGD", {"learning_rate": 0.05, "momentum": 0.7, "nesterov": True}),
    ("SGD", {"learning_rate": 0.05, "momentum": 0.3, "weight_decay": 0.01, "clipnorm": 0.5}),
    ("Adam", {"learning_rate": 0.02, "beta_1": 0.6, "beta_2": 0.7, "epsilon": 1e-3, "amsgrad": True,
              "clipvalue": 0.4}),
    ("AdamW", {"learning_rate": 0.02, "weight_decay": 0.2, "beta_1": 0.5, "beta_2": 0.8, "epsilon": 1e-4,
               "global_clipnorm": 0.7}),
    ("Adagrad", {"learning_rate": 0.1, "initial_accumulator_value": 0.5, "epsilon": 1e-3}),
    ("RMSprop", {"learning_rate": 0.01, "rho": 0.7, "momentum": 0.4, "epsilon": 1e-4, "centered": True}),
]
W0 = np.array([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]], dtype=np.float32)
GRADS = [np.array([[0.3, -0.2], [0.1, 0.4], [-0.5, 0.05]], dtype=np.float32) * (k + 1) * (-1) ** k
         for k in range(3)]


def _steps(tf, opt) -> np.ndarray:
    v = tf.Variable(W0)
    for g in GRADS:
        opt.apply_gradients([(tf.constant(g), v)])
    return v.numpy()


@clause("optim.config-round-trip", ref="tf221")
@pytest.mark.parametrize("name,kw", OPTIMIZERS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(OPTIMIZERS)])
def test_optimizer_config_round_trip_takes_the_same_steps(backend, tf, name, kw):
    cls = getattr(tf.keras.optimizers, name)
    opt = cls(**kw)
    config = opt.get_config()
    call = f"{name}(**{kw}).get_config()"
    for key, want in kw.items():
        assert_close(np.float64(config[key]), np.float64(want), call=call, what=f"config[{key!r}]")
    clone = cls.from_config(config)
    assert_equal({k: clone.get_config()[k] for k in kw}, {k: config[k] for k in kw}, call=f"{name}.from_config(...)",
                 what="the rebuilt optimizer's config")
    assert_close(_steps(tf, clone), _steps(tf, cls(**kw)), call=f"3 apply_gradients steps of {name}.from_config("
                 f"{name}(**{kw}).get_config()) vs of {name}(**{kw})", what="variable after the steps")


_SAVED = """
import os
model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, use_bias=False)])
model.set_weights([w0])
model.compile(optimizer=getattr(tf.keras.optimizers, name)(**kw), loss="mse")
model.fit(x, y, batch_size=2, epochs=1, shuffle=False, verbose=0)
path = os.path.join(tmp, "m.keras")
model.save(path)
loaded = tf.keras.models.load_model(path)
opt_config = {k: loaded.optimizer.get_config()[k] for k in kw}
model.fit(x, y, batch_size=2, epochs=1, shuffle=False, verbose=0)
loaded.fit(x, y, batch_size=2, epochs=1, shuffle=False, verbose=0)
w_continued, w_loaded = model.get_weights()[0], loaded.get_weights()[0]
"""


@clause("optim.config-round-trip", ref="tf221")
@pytest.mark.parametrize("name,kw", [OPTIMIZERS[0], OPTIMIZERS[5]], ids=["SGD-nesterov", "RMSprop-centered"])
def test_a_saved_model_file_keeps_the_optimizer_options(backend, name, kw):
    rng = np.random.default_rng(11)
    x = rng.uniform(-1, 1, size=(6, 3)).astype(np.float32)
    y = rng.uniform(-1, 1, size=(6, 2)).astype(np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        ns = Program(backend, _SAVED, name=name, kw=kw, w0=W0, x=x, y=y, tmp=tmp).run()
    call = f"model.save/load_model of a model compiled with {name}(**{kw}), trained one epoch, then one more"
    assert_equal(ns["opt_config"], {k: ns["opt_config"][k] for k in kw}, call=call, what="loaded optimizer config")
    for key, want in kw.items():
        assert_close(np.float64(ns["opt_config"][key]), np.float64(want), call=call,
                     what=f"loaded optimizer config[{key!r}]")
    assert_close(ns["w_loaded"], ns["w_continued"], call=call,
                 what="kernel after the loaded model's epoch (vs the original model continuing)")


_REGULARIZED_FIT = """
strategy = backend.make_strategy(kind, n) if kind != "default" else tf.distribute.get_strategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(2, kernel_regularizer=tf.keras.regularizers.L2(0.3)),
                                 RegLayer()])
    model.set_weights([w0, np.zeros(2, np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
kernel = model.get_weights()[0]
losses = history.history["loss"]
"""


_REG_LAYER = """
class RegLayer(tf.keras.layers.Layer):
    def call(self, inputs):
        self.add_loss(0.05 * tf.reduce_mean(tf.square(inputs)))
        return inputs
"""


@clause("keras.loss.distribution-scaling", ref="tf221")
def test_added_and_regularization_losses_are_scaled_per_replica(backend):
    """fit under MirroredStrategy(2) with an L2 kernel regularizer and an add_loss term (a mean over
    the replica's batch; a sum would halve under 2 replicas, as on TF): the
    replicas' summed gradients equal the one-device gradients of the same global batches, so both
    runs end with the same kernel (the added losses, like the compiled one, are divided by
    num_replicas_in_sync)."""
    rng = np.random.default_rng(12)
    x = rng.uniform(-1, 1, size=(8, 3)).astype(np.float32)
    y = rng.uniform(-1, 1, size=(8, 2)).astype(np.float32)
    runs = {}
    for kind, n in (("default", 1), ("mirrored", 2)):
        runs[kind] = Program(backend, _REG_LAYER + _REGULARIZED_FIT, kind=kind, n=n, w0=W0, x=x, y=y).run()
    call = "fit(2 epochs of 2 batches of 4) of Dense(2, kernel_regularizer=L2(0.3)) + add_loss(0.05 mean(h^2)), SGD(0.1)"
    assert_close(runs["mirrored"]["kernel"], runs["default"]["kernel"], call=call + " under MirroredStrategy(2)",
                 what="kernel (vs one device)")
    assert_close(np.float64(runs["mirrored"]["losses"]), np.float64(runs["default"]["losses"]),
                 call=call + " under MirroredStrategy(2)", what="logged epoch losses (vs one device)")


@clause("keras.fit.evaluate-inference", ref="tf221")
def test_evaluate_runs_the_model_in_inference_mode(backend, tf):
    tf.keras.backend.clear_session()
    keras = tf.keras
    rng = np.random.default_rng(13)
    x = rng.uniform(-1, 1, size=(8, 3)).astype(np.float32)
    y = rng.uniform(-1, 1, size=(8, 2)).astype(np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, use_bias=False), keras.layers.Dropout(0.5),
                              keras.layers.BatchNormalization(momentum=0.5)])
    mean, var = np.array([0.2, -0.1], np.float32), np.array([1.5, 0.5], np.float32)
    model.set_weights([W0, np.array([1.0, 2.0], np.float32), np.array([0.1, -0.2], np.float32), mean, var])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    h = x.astype(np.float64) @ W0
    pred = (h - mean) / np.sqrt(var + 1e-3) * np.array([1.0, 2.0]) + np.array([0.1, -0.2])
    want_loss = ((pred - y) ** 2).mean()
    want_mae = np.abs(pred - y).mean()
    logs = model.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
    call = "evaluate(x, y, batch_size=4) of Dense/Dropout(0.5)/BatchNormalization with set moving statistics"
    assert_close(np.float64(logs["loss"]), want_loss, call=call, what="loss (inference: no dropout, moving stats)")
    assert_close(np.float64(logs["mae"]), want_mae, call=call, what="mae")
    assert_close(model.get_weights()[3], mean, call=call, what="moving_mean (evaluate must not update it)")
    history = model.fit(x, y, batch_size=8, epochs=1, verbose=0, validation_data=(x, y), shuffle=False)
    # the validation pass runs after the epoch's update: recompute the prediction with the new weights
    k, g, b, m, v = (np.asarray(a, np.float64) for a in model.get_weights())
    val_pred = (x.astype(np.float64) @ k - m) / np.sqrt(v + 1e-3) * g + b
    assert_close(np.float64(history.history["val_loss"][0]), ((val_pred - y) ** 2).mean(),
                 call="fit(..., validation_data=(x, y)) of the same model", what="val_loss (inference mode)")


@clause("ops.random-across-calls", ref="tf221")
def test_op_seeded_draws_depend_on_the_global_seed(backend, tf):
    def draws(global_seed: int) -> tuple[np.ndarray, np.ndarray]:
        tf.random.set_seed(global_seed)
        return (tf.random.uniform([6], seed=5).numpy(), tf.random.normal([6], seed=5).numpy())

    a1, a2, b = draws(1), draws(1), draws(2)
    call = "tf.random.set_seed(g); tf.random.uniform([6], seed=5), tf.random.normal([6], seed=5)"
    assert_close(a2[0], a1[0], call=call + " with g=1 twice", what="uniform draws (same global and op seed)")
    assert_close(a2[1], a1[1], call=call + " with g=1 twice", what="normal draws (same global and op seed)")
    assert_true(not np.allclose(a1[0], b[0]), f"uniform draws with global seeds 1 and 2 are equal: {a1[0]}",
                call=call + " with g=1 then g=2")
    assert_true(not np.allclose(a1[1], b[1]), f"normal draws with global seeds 1 and 2 are equal: {a1[1]}",
                call=call + " with g=1 then g=2")


@clause("ops.stateless-random", ref="tf221")
def test_stateless_draws_depend_on_both_seed_elements_and_truncate_at_two_sigma(backend, tf):
    call = "tf.random.stateless_uniform([8], seed=s)"
    a = tf.random.stateless_uniform([8], seed=[1, 2]).numpy()
    for other in ([1, 3], [2, 2]):
        b = tf.random.stateless_uniform([8], seed=other).numpy()
        assert_true(not np.allclose(a, b), f"seeds [1, 2] and {other} draw the same values {a}", call=call)
    t = tf.random.stateless_truncated_normal([4000], seed=[3, 4], mean=1.0, stddev=0.5).numpy()
    assert_true(np.abs(t - 1.0).max() <= 1.0 + 1e-6 and np.abs(t - 1.0).max() > 0.9,
                f"stateless_truncated_normal draws reach {np.abs(t - 1.0).max()} from the mean; TF truncates at "
                "two standard deviations (1.0 here)", call="tf.random.stateless_truncated_normal([4000], seed=[3, 4], "
                                                            "mean=1.0, stddev=0.5)")
    tf.random.set_seed(9)
    t = tf.random.truncated_normal([4000], stddev=2.0).numpy()
    assert_true(np.abs(t).max() <= 4.0 + 1e-6 and np.abs(t).max() > 3.6,
                f"truncated_normal draws reach {np.abs(t).max()}; TF truncates at two standard deviations (4.0 here)",
                call="tf.random.truncated_normal([4000], stddev=2.0)")


@clause("keras.metric.precision-recall", ref="tf221")
def test_a_prediction_equal_to_the_threshold_is_negative(backend, tf):
    """Keras counts y_pred > threshold as positive: predictions exactly at a threshold are negatives."""
    tf.keras.backend.clear_session()
    y_true = np.array([1, 0, 1, 0, 1, 1], np.float32)
    y_pred = np.array([0.5, 0.5, 0.3, 0.3, 0.9, 0.1], np.float32)
    thresholds = [0.3, 0.5]
    p = tf.keras.metrics.Precision(thresholds=thresholds)
    r = tf.keras.metrics.Recall(thresholds=thresholds)
    tp = tf.keras.metrics.TruePositives(thresholds=thresholds)
    for m in (p, r, tp):
        m.update_state(y_true, y_pred)
    pos = y_true > 0
    want_tp, want_p, want_r = [], [], []
    for t in thresholds:
        pred = y_pred > t
        want_tp.append(float((pos & pred).sum()))
        want_p.append((pos & pred).sum() / pred.sum())
        want_r.append((pos & pred).sum() / pos.sum())
    call = f"Precision/Recall/TruePositives(thresholds={thresholds}) on y_pred {y_pred.tolist()}"
    assert_close(tp.result(), np.array(want_tp), call=call, what="true positives per threshold")
    assert_close(p.result(), np.array(want_p), call=call, what="precision per threshold")
    assert_close(r.result(), np.array(want_r), call=call, what="recall per threshold")


_FREQ = """
model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, use_bias=False)])
model.set_weights([np.array([[0.5], [-1.0], [2.0]], np.float32)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
history = model.fit(x, y, batch_size=3, epochs=4, shuffle=False, verbose=0, validation_data=(x, y),
                    validation_freq=freq)
losses = history.history["loss"]
val_losses = history.history.get("val_loss", [])
"""


@clause("keras.fit.validation", ref="tf221")
@pytest.mark.parametrize("freq", [2, [1, 4]], ids=["every-2", "list"])
def test_validation_freq_counts_epochs_from_one(backend, freq):
    rng = np.random.default_rng(14)
    x = rng.uniform(-1, 1, size=(7, 3)).astype(np.float32)
    y = rng.uniform(-1, 1, size=(7, 1)).astype(np.float32)
    ns = Program(backend, _FREQ, x=x, y=y, freq=freq).run()
    epochs = [e for e in range(1, 5) if (e % freq == 0 if isinstance(freq, int) else e in freq)]
    call = f"fit(epochs=4, validation_data=..., validation_freq={freq})"
    assert_equal(len(ns["val_losses"]), len(epochs), call=call, what=f"number of val_loss entries (epochs {epochs})")


_PARTIAL = """
model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, use_bias=False)])
model.set_weights([w])
model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")
history = model.fit(x, y, batch_size=3, epochs=1, shuffle=False, verbose=0)
loss = history.history["loss"][0]
"""


@clause("keras.fit.logs", ref="tf221")
def test_the_epoch_loss_weights_each_batch_by_its_size(backend):
    """7 samples in batches of 3, 3, 1 with a zero learning rate: the logged epoch loss is the mean
    over all 7 samples (batch losses weighted by batch size), not the mean of the 3 batch losses."""
    rng = np.random.default_rng(15)
    x = rng.uniform(-1, 1, size=(7, 3)).astype(np.float32)
    y = rng.uniform(-1, 1, size=(7, 1)).astype(np.float32)
    y[6] = 5.0    # the partial batch's loss differs a lot from the others
    w = np.array([[0.5], [-1.0], [2.0]], np.float32)
    ns = Program(backend, _PARTIAL, x=x, y=y, w=w).run()
    sq = ((x.astype(np.float64) @ w - y) ** 2)[:, 0]
    assert_close(np.float64(ns["loss"]), sq.mean(), call="fit(7 samples, batch_size=3, SGD(0.0)), 1 epoch",
                 what="logged loss (the mean over the 7 samples)")
