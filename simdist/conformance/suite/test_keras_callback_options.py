"""The options of Keras's monitoring callbacks, driven epoch by epoch with scripted logs — clauses
keras.callback.monitor, keras.callback.early-stopping, keras.callback.model-checkpoint and
keras.callback.reduce-lr-on-plateau (TF 2.21 + Keras 3.15).

Each callback gets a small compiled model (`set_model`) and its hooks are called with logs
written here, so every decision (improvement or not, wait counters, cooldown, which epochs save,
which weights are restored) follows from Keras 3.15's rules (keras/src/callbacks/
monitor_callback.py, early_stopping.py, model_checkpoint.py, reduce_lr_on_plateau.py), worked
out by hand in the comments, never from the backend under test.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal

clause = pytest.mark.clause


def _model(keras, lr: float = 0.8):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, use_bias=False)])
    model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse", metrics=["accuracy"])
    return model


def _set(model, value: float) -> None:
    model.set_weights([np.full((2, 1), value, np.float32)])


def _weight(model) -> float:
    return float(model.get_weights()[0][0, 0])


def _early_stopping_run(keras, losses: list[float], **kw) -> tuple[list[int], int, float]:
    """Feed `losses` epoch by epoch (the weights set to the epoch's index first); the epochs after
    which stop_training was set, the stopped_epoch, the weight left after on_train_end."""
    model = _model(keras)
    cb = keras.callbacks.EarlyStopping(monitor="loss", **kw)
    cb.set_model(model)
    cb.on_train_begin()
    stops = []
    for epoch, loss in enumerate(losses):
        _set(model, float(epoch))
        model.stop_training = False
        cb.on_epoch_end(epoch, {"loss": loss})
        if model.stop_training:
            stops.append(epoch)
            break
    cb.on_train_end()
    return stops, int(cb.stopped_epoch), _weight(model)


@clause("keras.callback.monitor", ref="tf221")
def test_min_delta_is_subtracted_in_the_monitors_direction(backend, keras):
    # mode min: an improvement is loss + min_delta < best (Keras negates min_delta for `less`).
    # losses 1.0, 0.95, 0.92: neither later loss beats 1.0 by 0.1, so wait 1, 2 -> stop at epoch 2.
    stops, stopped, _ = _early_stopping_run(keras, [1.0, 0.95, 0.92, 0.5], min_delta=0.1, patience=2)
    call = "EarlyStopping(monitor='loss', min_delta=0.1, patience=2) on losses 1.0, 0.95, 0.92, 0.5"
    assert_equal(stops, [2], call=call, what="epochs after which stop_training is set")
    assert_equal(stopped, 2, call=call, what="stopped_epoch")
    # mode max on an accuracy: an improvement is acc - min_delta > best: 0.5, 0.55, 0.58 -> stop at 2;
    # then 0.5, 0.65 improves (reset), 0.7, 0.72 do not -> stop at epoch 3.
    model = _model(keras)
    for accs, want in (([0.5, 0.55, 0.58, 0.9], [2]), ([0.5, 0.65, 0.7, 0.72, 0.9], [3])):
        cb = keras.callbacks.EarlyStopping(monitor="accuracy", mode="max", min_delta=0.1, patience=2)
        cb.set_model(model)
        cb.on_train_begin()
        stops = []
        for epoch, acc in enumerate(accs):
            model.stop_training = False
            cb.on_epoch_end(epoch, {"accuracy": acc})
            if model.stop_training:
                stops.append(epoch)
                break
        assert_equal(stops, want, call=f"EarlyStopping(monitor='accuracy', mode='max', min_delta=0.1, patience=2) "
                                        f"on {accs}", what="epochs after which stop_training is set")


@clause("keras.callback.monitor", ref="tf221")
def test_auto_mode_maximises_an_accuracy(backend, keras):
    # mode auto: `accuracy` is a compiled metric whose direction is up, so a higher value improves:
    # 0.5, 0.6 (better), 0.55, 0.52 -> wait 1, 2 -> stop at epoch 3 (a min-mode callback would
    # stop at epoch 2: 0.6 and 0.55 are not below 0.5). The metrics must exist (built by a first
    # evaluate, as fit does before the first epoch ends); before that Keras cannot tell.
    model = _model(keras)
    model.evaluate(np.ones((2, 2), np.float32), np.ones((2, 1), np.float32), verbose=0)
    cb = keras.callbacks.EarlyStopping(monitor="accuracy", patience=2)
    cb.set_model(model)
    cb.on_train_begin()
    stops = []
    for epoch, acc in enumerate([0.5, 0.6, 0.55, 0.52, 0.9]):
        model.stop_training = False
        cb.on_epoch_end(epoch, {"accuracy": acc})
        if model.stop_training:
            stops.append(epoch)
            break
    assert_equal(stops, [3], call="EarlyStopping(monitor='accuracy', patience=2) (mode auto) on 0.5, 0.6, 0.55, "
                                   "0.52", what="epochs after which stop_training is set")


@clause("keras.callback.early-stopping", ref="tf221")
def test_restore_best_weights_restores_the_best_epochs(backend, keras):
    # weights = the epoch's index; best loss at epoch 1; epochs 2, 3 do not improve -> stop at 3,
    # and on_train_end restores epoch 1's weights
    stops, stopped, w = _early_stopping_run(keras, [1.0, 0.5, 0.7, 0.8, 0.1], patience=2,
                                            restore_best_weights=True)
    call = "EarlyStopping(monitor='loss', patience=2, restore_best_weights=True) on losses 1.0, 0.5, 0.7, 0.8"
    assert_equal(stops, [3], call=call, what="epochs after which stop_training is set")
    assert_equal(stopped, 3, call=call, what="stopped_epoch")
    assert_close(w, 1.0, call=call, what="the weight restored at the end (epoch 1's, the best)")
    # without restore_best_weights the last weights stay
    _, _, w = _early_stopping_run(keras, [1.0, 0.5, 0.7, 0.8, 0.1], patience=2)
    assert_close(w, 3.0, call=call.replace(", restore_best_weights=True", ""), what="the weight left at the end")
    # restore_best_weights also restores when training ends without stopping early (Keras 3)
    stops, _, w = _early_stopping_run(keras, [1.0, 0.4, 0.7], patience=5, restore_best_weights=True)
    assert_equal(stops, [], call="EarlyStopping(patience=5, restore_best_weights=True), 3 epochs",
                 what="epochs after which stop_training is set")
    assert_close(w, 1.0, call="EarlyStopping(patience=5, restore_best_weights=True) on losses 1.0, 0.4, 0.7",
                 what="the weight restored at the end of training (epoch 1's)")


@clause("keras.callback.early-stopping", ref="tf221")
def test_baseline_and_start_from_epoch(backend, keras):
    # baseline 0.5: an improvement that does not beat the baseline keeps the wait growing (it only
    # skips the stop check): 0.9, 0.8 improve (wait 1, 2), 0.85 does not (wait 3 >= 2) -> stop at
    # epoch 2; without a baseline the improvements reset the wait -> stop at epoch 3
    losses = [0.9, 0.8, 0.85, 0.85, 0.85]
    stops, _, _ = _early_stopping_run(keras, losses, patience=2, baseline=0.5)
    assert_equal(stops, [2], call=f"EarlyStopping(monitor='loss', patience=2, baseline=0.5) on {losses}",
                 what="epochs after which stop_training is set")
    stops, _, _ = _early_stopping_run(keras, losses, patience=2)
    assert_equal(stops, [3], call=f"EarlyStopping(monitor='loss', patience=2) on {losses}",
                 what="epochs after which stop_training is set")
    # start_from_epoch 2: epochs 0, 1 are ignored; epoch 2 sets best, 3 and 4 wait -> stop at 4
    stops, _, _ = _early_stopping_run(keras, [1.0, 1.0, 1.0, 1.0, 1.0, 1.0], patience=2, start_from_epoch=2)
    assert_equal(stops, [4], call="EarlyStopping(monitor='loss', patience=2, start_from_epoch=2), flat loss",
                 what="epochs after which stop_training is set")


def _checkpoint_run(keras, values: list[float], **kw) -> list[str]:
    """ModelCheckpoint(save_weights_only=True, filepath w{epoch}.weights.h5) fed val_loss `values`;
    the files it wrote, sorted."""
    model = _model(keras)
    with tempfile.TemporaryDirectory() as d:
        cb = keras.callbacks.ModelCheckpoint(os.path.join(d, "w{epoch}.weights.h5"), save_weights_only=True, **kw)
        cb.set_model(model)
        cb.on_train_begin()
        for epoch, v in enumerate(values):
            cb.on_epoch_begin(epoch)
            cb.on_epoch_end(epoch, {"val_loss": v, "loss": v})
        return sorted(os.listdir(d))


@clause("keras.callback.model-checkpoint", ref="tf221")
def test_save_best_only_saves_the_improving_epochs(backend, keras):
    # {epoch} is the 1-based epoch; val_loss 1.0 (saved), 0.8 (saved), 0.9 (not), 0.7 (saved)
    call = "ModelCheckpoint('w{epoch}.weights.h5', save_weights_only=True, save_best_only=True) on val_loss"
    files = _checkpoint_run(keras, [1.0, 0.8, 0.9, 0.7], save_best_only=True)
    assert_equal(files, ["w1.weights.h5", "w2.weights.h5", "w4.weights.h5"], call=call + " 1.0, 0.8, 0.9, 0.7",
                 what="files written")
    files = _checkpoint_run(keras, [1.0, 0.8, 0.9, 0.7])
    assert_equal(files, ["w1.weights.h5", "w2.weights.h5", "w3.weights.h5", "w4.weights.h5"],
                 call=call.replace(", save_best_only=True", ""), what="files written")
    # mode max: the highest value is best; initial_value_threshold: the value to beat first
    files = _checkpoint_run(keras, [1.0, 0.8, 1.2, 1.1], save_best_only=True, mode="max")
    assert_equal(files, ["w1.weights.h5", "w3.weights.h5"], call=call + " 1.0, 0.8, 1.2, 1.1 (mode='max')",
                 what="files written")
    files = _checkpoint_run(keras, [1.0, 0.8, 0.9, 0.7], save_best_only=True, initial_value_threshold=0.85)
    assert_equal(files, ["w2.weights.h5", "w4.weights.h5"],
                 call=call + " 1.0, 0.8, 0.9, 0.7 (initial_value_threshold=0.85)", what="files written")


@clause("keras.callback.model-checkpoint", ref="tf221")
def test_integer_save_freq_counts_batches(backend, keras):
    # save_freq=2: the batches seen since the last save reach 2 after batches 1 and 3 of epoch 0,
    # and (the count carrying over) after batches 0, 2 and 4 of epoch 1 (5 batches per epoch);
    # {epoch} and {batch} are both 1-based in the file name
    model = _model(keras)
    with tempfile.TemporaryDirectory() as d:
        cb = keras.callbacks.ModelCheckpoint(os.path.join(d, "w{epoch}-{batch}.weights.h5"), save_weights_only=True,
                                             save_freq=2)
        cb.set_model(model)
        cb.on_train_begin()
        for epoch in range(2):
            cb.on_epoch_begin(epoch)
            for batch in range(5):
                cb.on_train_batch_end(batch, {"loss": 1.0})
            cb.on_epoch_end(epoch, {"loss": 1.0})
        files = sorted(os.listdir(d))
    assert_equal(files, ["w1-2.weights.h5", "w1-4.weights.h5", "w2-1.weights.h5", "w2-3.weights.h5",
                         "w2-5.weights.h5"],
                 call="ModelCheckpoint('w{epoch}-{batch}.weights.h5', save_freq=2), 2 epochs of 5 batches",
                 what="files written")


def _plateau_lrs(keras, losses: list[float], **kw) -> list[float]:
    model = _model(keras, 0.8)
    cb = keras.callbacks.ReduceLROnPlateau(monitor="loss", **kw)
    cb.set_model(model)
    cb.on_train_begin()
    out = []
    for epoch, loss in enumerate(losses):
        cb.on_epoch_end(epoch, {"loss": loss})
        out.append(float(np.float32(model.optimizer.learning_rate)))
    return out


@clause("keras.callback.reduce-lr-on-plateau", ref="tf221")
def test_reduce_lr_without_cooldown_waits_patience_again(backend, keras):
    # cooldown 0 (the default): after a reduction the wait restarts from 0, so with patience 2 a
    # flat loss reduces at epochs 2, 4, 6 (not at every epoch after the first reduction)
    lrs = _plateau_lrs(keras, [1.0] * 7, factor=0.5, patience=2)
    call = "ReduceLROnPlateau(monitor='loss', factor=0.5, patience=2), 7 flat epochs"
    assert_close(np.float32(lrs), np.float32([0.8, 0.8, 0.4, 0.4, 0.2, 0.2, 0.1]), call=call,
                 what="learning rate after each epoch")
    # min_delta 0.1 (mode min): 0.95 and 0.92 do not improve on 1.0 -> reduce at epoch 2;
    # 0.85 improves (< 1.0 - 0.1): wait 0
    lrs = _plateau_lrs(keras, [1.0, 0.95, 0.92, 0.85, 0.84], factor=0.5, patience=2, min_delta=0.1)
    assert_close(np.float32(lrs), np.float32([0.8, 0.8, 0.4, 0.4, 0.4]),
                 call="ReduceLROnPlateau(factor=0.5, patience=2, min_delta=0.1) on 1.0, 0.95, 0.92, 0.85, 0.84",
                 what="learning rate after each epoch")
