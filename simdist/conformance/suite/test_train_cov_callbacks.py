"""Callbacks and their options, driven epoch by epoch with scripted logs, and fit's History —
clause keras.callback.option-coverage (TF 2.21 + Keras 3.15).

The expected epochs, learning rates and weights come from a Python transcription of
keras-team/keras v3.15: keras/src/callbacks/monitor_callback.py (`_set_monitor_op`: "auto" is
"min" for a loss, `min_delta` negated for "min"; `_is_improvement`), early_stopping.py
(`on_train_begin` resets `best` to None; `on_epoch_end`: wait, baseline, restore_best_weights,
start_from_epoch, "epoch > 0"), reduce_lr_on_plateau.py (`on_epoch_end`: cooldown, wait,
`_reduce_optimizer_lr` with min_lr), model_checkpoint.py (`_should_save_model`: save_best_only,
initial_value_threshold) and learning_rate_scheduler.py (`on_epoch_begin`: schedule(epoch, lr)).
Each epoch the test writes the epoch number into the kernel, so the weights a callback restores
or saves name the epoch they come from.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.repro import Program

clause = pytest.mark.clause

LOSSES = [1.0, 0.8, 0.79, 0.85, 0.7, 0.71, 0.72, 0.73, 0.69, 0.9]
ACCS = [0.5, 0.6, 0.55, 0.6, 0.58, 0.61, 0.7, 0.69, 0.69, 0.68]

DRIVER = """
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
cb = getattr(tf.keras.callbacks, cls)(**kw)
cb.set_model(model)
cb.on_train_begin()
stopped_at, lrs, seen = None, [], []
for epoch, value in enumerate(values):
    cb.on_epoch_begin(epoch)
    model.layers[0].kernel.assign(np.full((2, 1), float(epoch), np.float32))
    cb.on_epoch_end(epoch, {monitor: value})
    seen.append(epoch)
    lrs.append(float(model.optimizer.learning_rate.numpy()))
    if model.stop_training:
        stopped_at = epoch
        break
cb.on_train_end()
kernel_epoch = float(model.layers[0].kernel.numpy()[0, 0])
"""


def _better(mode: str, min_delta: float, current: float, best: float | None) -> bool:
    if best is None:
        return True
    return current - min_delta < best if mode == "min" else current - min_delta > best


def early_stopping(values, patience=0, min_delta=0.0, mode="min", baseline=None, restore_best_weights=False,
                   start_from_epoch=0):
    """(the epoch that stopped training or None, the epoch whose weights the model ends with)."""
    md = -abs(min_delta) if mode == "min" else abs(min_delta)
    best, wait, best_epoch, best_weights = None, 0, 0, None
    last = None
    for epoch, current in enumerate(values):
        last = epoch
        if epoch < start_from_epoch:
            continue
        if restore_best_weights and best_weights is None:
            best_weights, best_epoch = epoch, epoch
        wait += 1
        if _better(mode, md, current, best):
            best, best_epoch = current, epoch
            if restore_best_weights:
                best_weights = epoch
            if baseline is None or _better(mode, md, current, baseline):
                wait = 0
            continue
        if wait >= patience and epoch > 0:
            return epoch, (best_weights if restore_best_weights and best_weights is not None else epoch)
    return None, (best_weights if restore_best_weights and best_weights is not None else last)


ES_CASES = [({}, LOSSES, "val_loss"), ({"patience": 2}, LOSSES, "val_loss"),
            ({"patience": 2, "min_delta": 0.05}, LOSSES, "val_loss"),
            ({"patience": 1, "restore_best_weights": True}, LOSSES, "val_loss"),
            ({"patience": 3, "restore_best_weights": True}, LOSSES, "val_loss"),
            ({"patience": 2, "baseline": 0.75}, LOSSES, "val_loss"),
            ({"patience": 1, "start_from_epoch": 3}, LOSSES, "val_loss"),
            ({"patience": 1, "start_from_epoch": 3, "restore_best_weights": True}, LOSSES, "val_loss"),
            ({"patience": 1, "mode": "max", "monitor": "val_accuracy"}, ACCS, "val_accuracy"),
            ({"patience": 2, "mode": "max", "monitor": "val_accuracy", "min_delta": 0.02,
              "restore_best_weights": True}, ACCS, "val_accuracy")]


@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("kw,values,monitor", ES_CASES, ids=[str(i) for i in range(len(ES_CASES))])
def test_early_stopping_options(backend, kw, values, monitor):
    ns = Program(backend, DRIVER, cls="EarlyStopping", kw=kw, values=values, monitor=monitor).run()
    ref_kw = {k: v for k, v in kw.items() if k != "monitor"}
    stop, weights_epoch = early_stopping(values, **ref_kw)
    call = f"EarlyStopping({kw}) on {monitor} = {values}"
    assert_equal(ns["stopped_at"], stop, call=call, what="the epoch that set model.stop_training")
    assert_equal(ns["kernel_epoch"], float(weights_epoch), call=call,
                 what="the epoch whose weights the model holds after on_train_end")


def reduce_lr(values, lr0, factor=0.1, patience=10, min_delta=1e-4, cooldown=0, min_lr=0.0, mode="min"):
    """The learning rate after each epoch's on_epoch_end."""
    md = -abs(min_delta) if mode == "min" else abs(min_delta)
    best, wait, cool, lr, out = None, 0, 0, np.float32(lr0), []
    for current in values:
        if cool > 0:
            cool -= 1
            wait = 0
        if _better(mode, md, current, best):
            best, wait = current, 0
        elif not cool > 0:
            wait += 1
            if wait >= patience:
                if float(lr) > np.float32(min_lr):
                    lr = np.float32(max(float(lr) * factor, min_lr))
                    cool, wait = cooldown, 0
        out.append(float(lr))
    return out


RLR_CASES = [{"patience": 1, "factor": 0.5}, {"patience": 2, "factor": 0.5},
             {"patience": 1, "factor": 0.5, "min_delta": 0.05},
             {"patience": 1, "factor": 0.5, "cooldown": 2},
             {"patience": 1, "factor": 0.1, "min_lr": 0.005},
             {"patience": 1, "factor": 0.5, "mode": "max", "monitor": "val_accuracy"}]


@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("kw", RLR_CASES, ids=[str(i) for i in range(len(RLR_CASES))])
def test_reduce_lr_on_plateau_options(backend, kw):
    monitor = kw.get("monitor", "val_loss")
    values = ACCS if monitor == "val_accuracy" else LOSSES
    ns = Program(backend, DRIVER, cls="ReduceLROnPlateau", kw=kw, values=values, monitor=monitor).run()
    ref = reduce_lr(values, 0.1, **{k: v for k, v in kw.items() if k != "monitor"})
    call = f"ReduceLROnPlateau({kw}) on {monitor} = {values}, SGD(0.1)"
    assert_close(ns["lrs"], ref, call=call, what="the learning rate after each epoch")


def checkpoints(values, save_best_only, initial_value_threshold=None):
    best, saved = initial_value_threshold, []
    for epoch, current in enumerate(values):
        if not save_best_only or _better("min", 0.0, current, best):
            if save_best_only:
                best = current
            saved.append(epoch)
    return saved


MC_CASES = [{"save_best_only": False, "save_weights_only": True},
            {"save_best_only": True, "save_weights_only": True},
            {"save_best_only": True, "save_weights_only": True, "initial_value_threshold": 0.75},
            {"save_best_only": True, "save_weights_only": False}]


@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("kw", MC_CASES, ids=[str(i) for i in range(len(MC_CASES))])
def test_model_checkpoint_saves_the_chosen_epochs(backend, kw, tmp_path):
    """ModelCheckpoint(filepath with {epoch}) writes one file per saved epoch; a fixed filepath ends
    with the last saved epoch's weights (read back into a fresh model)."""
    ext = ".weights.h5" if kw["save_weights_only"] else ".keras"
    per_epoch = str(tmp_path / ("ep{epoch:02d}" + ext))
    fixed = str(tmp_path / ("last" + ext))
    ns = Program(backend, DRIVER + """
import os
files = sorted(os.listdir(folder))
cb2 = tf.keras.callbacks.ModelCheckpoint(fixed, monitor=monitor, **options)
cb2.set_model(model)
cb2.on_train_begin()
for epoch, value in enumerate(values):
    cb2.on_epoch_begin(epoch)
    model.layers[0].kernel.assign(np.full((2, 1), float(epoch), np.float32))
    cb2.on_epoch_end(epoch, {monitor: value})
fresh = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
if fixed.endswith(".keras"):
    fresh = tf.keras.models.load_model(fixed)
else:
    fresh.load_weights(fixed)
restored_epoch = float(fresh.layers[0].kernel.numpy()[0, 0])
""", cls="ModelCheckpoint", kw=dict(kw, filepath=per_epoch), values=LOSSES, monitor="val_loss",
        folder=str(tmp_path), fixed=fixed, options=kw).run()
    saved = checkpoints(LOSSES, kw["save_best_only"], kw.get("initial_value_threshold"))
    call = f"ModelCheckpoint(filepath, {kw}) on val_loss = {LOSSES}"
    assert_equal(ns["files"], [f"ep{e + 1:02d}{ext}" for e in saved], call=call, what="the files written")
    assert_equal(ns["restored_epoch"], float(saved[-1]), call=call,
                 what="the epoch whose weights a fixed filepath holds at the end")


@clause("keras.callback.option-coverage", ref="tf221")
def test_learning_rate_scheduler_sets_each_epochs_rate(backend):
    ns = Program(backend, """
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
cb = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch % 2 else lr + 0.01 * epoch)
cb.set_model(model)
lrs = []
for epoch in range(6):
    cb.on_epoch_begin(epoch)
    lrs.append(float(model.optimizer.learning_rate.numpy()))
    logs = {"loss": 1.0}   # Keras replaces an empty logs dict (`logs or {}`) by a new one
    cb.on_epoch_end(epoch, logs)
logged = logs["learning_rate"]
""").run()
    lr, ref = 0.1, []
    for epoch in range(6):
        lr = float(np.float32(lr * 0.5 if epoch % 2 else lr + 0.01 * epoch))
        ref.append(lr)
    call = "LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch % 2 else lr + 0.01 * epoch), SGD(0.1)"
    assert_close(ns["lrs"], ref, call=call, what="the learning rate set at each epoch's begin")
    assert_close(ns["logged"], ref[-1], call=call, what="logs['learning_rate'] at the last epoch's end")


X = np.linspace(-1.0, 1.0, 20, dtype=np.float32).reshape(10, 2)
Y = (X @ np.array([[1.5], [-0.5]], dtype=np.float32) + 0.25).astype(np.float32)
XV, YV = X[:4] * 0.5, Y[:4] + 0.1


SW = np.array([1.0, 0.5, 2.0, 0.0, 1.5, 1.0, 0.25, 3.0, 1.0, 0.5], dtype=np.float32)


def fit_reference(lr: float, epochs: int, batch: int, schedule=None, sw=None):
    """Linear model, MSE, SGD, shuffle=False: the History of Keras's fit (loss: each batch's
    sum_over_batch_size loss (weighted by sample_weight) averaged with the batch sizes as weights;
    mae: the compiled metric over every sample of the epoch, unweighted (`metrics`, unlike
    `weighted_metrics`, ignore sample_weight);
    val_loss/val_mae: after the epoch)."""
    w = np.zeros((2, 1))
    b = np.zeros(1)
    hist = {"loss": [], "mae": [], "val_loss": [], "val_mae": [], "lrs": []}
    for epoch in range(epochs):
        if schedule:
            lr = schedule(epoch, lr)
        hist["lrs"].append(lr)
        tot, n, mae_num, mae_den = 0.0, 0, 0.0, 0.0
        for s in range(0, len(X), batch):
            x, y = X[s:s + batch].astype(np.float64), Y[s:s + batch].astype(np.float64)
            sw_b = np.ones(len(x)) if sw is None else sw[s:s + batch].astype(np.float64)
            err = x @ w + b - y
            per = np.mean(err ** 2, axis=1)
            tot += float(np.sum(per * sw_b) / len(x)) * len(x)
            n += len(x)
            mae_num += float(np.sum(np.mean(np.abs(err), axis=1)))   # compile's `metrics` ignore
            mae_den += len(x)                                             # sample_weight (weighted_metrics)
            d = 2 * err * sw_b[:, None] / err.size
            w = w - lr * (x.T @ d)
            b = b - lr * np.sum(d, axis=0)
        hist["loss"].append(tot / n)
        hist["mae"].append(mae_num / mae_den)
        verr = XV @ w + b - YV
        hist["val_loss"].append(float(np.mean(verr ** 2)))
        hist["val_mae"].append(float(np.mean(np.abs(verr))))
    return hist, w


FIT_VARIANTS = ["plain", "scheduler", "sample_weight"]


@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("variant", FIT_VARIANTS)
def test_fit_history_values(backend, variant):
    """fit(batch_size=4 over 10 samples, shuffle=False, validation_data, metrics=["mae"]): History's
    loss is the epoch's batch losses (with sample_weight when given) weighted by batch size (4, 4,
    2), mae the metric over every sample seen (unweighted), val_* after the epoch; with a
    LearningRateScheduler, history["learning_rate"]."""
    ns = Program(backend, """
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="zeros")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
cbs = [tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5)] if variant == "scheduler" else []
history = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, validation_data=(xv, yv), verbose=0, callbacks=cbs,
                    sample_weight=sw if variant == "sample_weight" else None)
h = {k: list(v) for k, v in history.history.items()}
epochs = list(history.epoch)
kernel = model.layers[0].kernel.numpy()
""", x=X, y=Y, xv=XV, yv=YV, variant=variant, sw=SW).run()
    ref, w = fit_reference(0.1, 3, 4, (lambda e, lr: lr * 0.5) if variant == "scheduler" else None,
                           SW if variant == "sample_weight" else None)
    call = f"fit(x, y, batch_size=4, epochs=3, shuffle=False, validation_data, metrics=['mae']) [{variant}]"
    assert_equal(ns["epochs"], [0, 1, 2], call=call, what="history.epoch")
    for key in ("loss", "mae", "val_loss", "val_mae"):
        assert_close(ns["h"][key], ref[key], call=call, what=f"history[{key!r}]")
    if variant == "scheduler":
        assert_close(ns["h"]["learning_rate"], ref["lrs"], call=call, what="history['learning_rate']")
    assert_close(ns["kernel"], w, call=call, what="the kernel after fit")


@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("append", [False, True])
def test_csv_logger_rows(backend, append, tmp_path):
    """CSVLogger(separator=";", append=...): a header "epoch" + the sorted log keys, then one row per
    epoch; append=True keeps an earlier run's rows and writes no second header."""
    path = str(tmp_path / "log.csv")
    ns = Program(backend, """
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
for run in range(2):
    cb = tf.keras.callbacks.CSVLogger(path, separator=";", append=append)
    cb.set_model(model)
    cb.on_train_begin()
    for epoch, value in enumerate(values):
        cb.on_epoch_end(epoch, {"val_loss": value, "loss": value * 2})
    cb.on_train_end()
with open(path) as f:
    lines = f.read().splitlines()
""", path=path, values=[1.5, 0.25], append=append).run()
    rows = [f"{e};{v * 2!r};{v!r}" for e, v in enumerate([1.5, 0.25])]
    want = (["epoch;loss;val_loss"] + rows + rows) if append else (["epoch;loss;val_loss"] + rows)
    call = f"CSVLogger(path, separator=';', append={append}) over two runs of 2 epochs"
    assert_equal(ns["lines"], want, call=call, what="the file's lines")


@clause("keras.callback.option-coverage", ref="tf221")
def test_terminate_on_nan_stops_at_the_batch(backend):
    """TerminateOnNaN: a batch whose logs hold a NaN or infinite loss sets model.stop_training."""
    ns = Program(backend, """
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
cb = tf.keras.callbacks.TerminateOnNaN()
cb.set_model(model)
stopped = []
for batch, loss in enumerate([1.0, 0.5, float("inf"), float("nan")]):
    model.stop_training = False
    cb.on_batch_end(batch, {"loss": loss})
    stopped.append(bool(model.stop_training))
""").run()
    assert_equal(ns["stopped"], [False, False, True, True], call="TerminateOnNaN().on_batch_end(batch, {'loss': ...})",
                 what="model.stop_training after each batch (losses 1.0, 0.5, inf, nan)")
