"""Keras callbacks' bookkeeping the suite never ran before the fourteenth session's coverage audit
— clauses keras.callback.option-coverage, keras.callback.model-checkpoint and
keras.backup-and-restore.resume (TF 2.21 + Keras 3.15).

LearningRateScheduler's one-argument schedules, its float check and messages; ModelCheckpoint's
argument errors, batch-frequency saves and their file names, save_best_only without its monitor,
filepath format errors; BackupAndRestore's argument errors, unbuilt models, double_checkpoint's
fallback and delete_checkpoint; CallbackList's flattening, default callbacks and unbalanced
hooks; the monitor callbacks' unknown modes, missing monitors and verbose messages. Hooks are
driven with scripted logs (or a tiny fit), so each expectation follows from Keras 3.15's source
(keras/src/callbacks/*.py), worked out in the comments, never from the backend under test.
"""

from __future__ import annotations

import os
import tempfile
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_same, raises

clause = pytest.mark.clause


def _model(keras, lr: float = 0.5):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, use_bias=False)])
    model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse")
    model.set_weights([np.ones((2, 1), np.float32)])
    return model


def _fit(model, callbacks, epochs: int = 3):
    x = np.ones((4, 2), np.float32)
    y = np.zeros((4, 1), np.float32)
    return model.fit(x, y, batch_size=2, epochs=epochs, verbose=0, shuffle=False, callbacks=callbacks)


@clause("keras.callback.option-coverage", ref="tf221")
def test_cov13_callbacks_learning_rate_scheduler(keras, capsys):
    """learning_rate_scheduler.py: `schedule(epoch, lr)`, falling back to `schedule(epoch)` on
    TypeError; a non-float result is ValueError; the rate is logged as `learning_rate` at each
    epoch's end (read back from the optimizer: float32); verbose prints one line per epoch."""
    f32 = lambda v: float(np.float32(v))   # noqa: E731 - the optimizer's learning_rate variable is float32
    h = _fit(_model(keras), [keras.callbacks.LearningRateScheduler(lambda epoch: 0.1 / (epoch + 1))])
    assert_same(h.history["learning_rate"], [f32(0.1), f32(0.05), f32(0.1 / 3)],
                 call="LearningRateScheduler(lambda epoch: 0.1 / (epoch + 1)) history")
    model = _model(keras, lr=0.5)
    h = _fit(model, [keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5, verbose=1)])
    out = capsys.readouterr().out
    assert_same(h.history["learning_rate"], [0.25, 0.125, 0.0625],
                 call="LearningRateScheduler(lambda epoch, lr: lr * 0.5) from 0.5")
    assert_same([line for line in out.splitlines() if "LearningRateScheduler" in line],
                 [f"Epoch {e}: LearningRateScheduler setting learning rate to {lr}." for e, lr in
                  ((1, 0.25), (2, 0.125), (3, 0.0625))], call="LearningRateScheduler(verbose=1) messages")
    with raises(ValueError, match="should be a float", call="schedule returning the int 1"):
        _fit(_model(keras), [keras.callbacks.LearningRateScheduler(lambda epoch: 1)], epochs=1)


@clause("keras.callback.model-checkpoint", ref="tf221")
def test_cov13_callbacks_model_checkpoint_arguments_and_batch_saves(keras):
    """model_checkpoint.py: save_freq other than "epoch" or an int, a weights-only path not
    ending in .weights.h5, a model path not ending in .keras are ValueError; with save_freq=2
    over 3 batches per epoch the count runs across epochs (a batch index <= the last seen
    starts a new epoch: it adds batch + 1), saving after batches 2 and 4 and 6 of the run, each
    file named with epoch + 1 and batch + 1; a format key the logs lack is KeyError."""
    d = tempfile.mkdtemp()
    MC = keras.callbacks.ModelCheckpoint
    for call, kw in (("save_freq='bad'", dict(filepath=os.path.join(d, "m.keras"), save_freq="bad")),
                     ("weights-only to m.keras", dict(filepath=os.path.join(d, "m.keras"), save_weights_only=True)),
                     ("model to m.txt", dict(filepath=os.path.join(d, "m.txt")))):
        with raises(ValueError, call=f"ModelCheckpoint({call})"):
            MC(**kw)
    x = np.ones((6, 2), np.float32)
    y = np.zeros((6, 1), np.float32)
    pattern = os.path.join(d, "w.{epoch:02d}-{batch:02d}.weights.h5")
    _model(keras).fit(x, y, batch_size=2, epochs=2, verbose=0, shuffle=False,
                      callbacks=[MC(pattern, save_weights_only=True, save_freq=2)])
    assert_same(sorted(f for f in os.listdir(d) if f.startswith("w.")),
                 ["w.01-02.weights.h5", "w.02-01.weights.h5", "w.02-03.weights.h5"],
                 call="ModelCheckpoint(save_freq=2), 2 epochs of 3 batches: files")
    with raises(KeyError, match="Failed to format this callback filepath", call="filepath '{nope}.weights.h5'"):
        _fit(_model(keras), [MC(os.path.join(d, "{nope}.weights.h5"), save_weights_only=True)], epochs=1)


@clause("keras.callback.model-checkpoint", ref="tf221")
def test_cov13_callbacks_model_checkpoint_best_only_messages(keras, capsys):
    """save_best_only with the monitor absent from the logs warns and saves every epoch; with it,
    verbose=1 prints whether the monitor improved (best formatted with 5 decimals, "None" before
    the first value) and where the model goes."""
    d = tempfile.mkdtemp()
    model = _model(keras)
    path = os.path.join(d, "b{epoch}.weights.h5")
    cb = keras.callbacks.ModelCheckpoint(path, monitor="val_loss", save_best_only=True, save_weights_only=True)
    cb.set_model(model)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for epoch in range(2):
            cb.on_epoch_begin(epoch)
            cb.on_epoch_end(epoch, {"loss": 1.0})
    assert_same([sorted(f for f in os.listdir(d)), any("val_loss available" in str(w.message) for w in caught)],
                 [["b1.weights.h5", "b2.weights.h5"], True], call="save_best_only without val_loss in the logs")
    capsys.readouterr()
    cb = keras.callbacks.ModelCheckpoint(os.path.join(d, "v.weights.h5"), monitor="loss", save_best_only=True,
                                         save_weights_only=True, verbose=1)
    cb.set_model(model)
    for epoch, loss in enumerate((0.5, 0.75, 0.25)):
        cb.on_epoch_begin(epoch)
        cb.on_epoch_end(epoch, {"loss": loss})
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.strip()]
    target = os.path.join(d, "v.weights.h5")
    assert_same(lines, [f"Epoch 1: loss improved from None to 0.50000, saving model to {target}",
                         f"Epoch 1: finished saving model to {target}",
                         "Epoch 2: loss did not improve from 0.50000",
                         f"Epoch 3: loss improved from 0.50000 to 0.25000, saving model to {target}",
                         f"Epoch 3: finished saving model to {target}"],
                 call="ModelCheckpoint(monitor='loss', save_best_only=True, verbose=1) on losses 0.5, 0.75, 0.25")


@clause("keras.backup-and-restore.resume", ref="tf221")
def test_cov13_callbacks_backup_and_restore_bookkeeping(keras):
    """backup_and_restore.py: an empty backup_dir and a save_freq other than "epoch"/int are
    ValueError; an unbuilt model is ValueError at on_train_begin; double_checkpoint keeps the
    previous backup as ".bkp" and restores from it when the latest weights file cannot be read;
    delete_checkpoint (default True) removes the directory at on_train_end, False keeps it."""
    BR = keras.callbacks.BackupAndRestore
    with raises(ValueError, match="Empty `backup_dir`", call="BackupAndRestore('')"):
        BR("")
    with raises(ValueError, match="save_freq", call="BackupAndRestore(dir, save_freq='bad')"):
        BR(tempfile.mkdtemp(), save_freq="bad")
    unbuilt = keras.Sequential([keras.layers.Dense(1)])
    cb = BR(tempfile.mkdtemp())
    cb.set_model(unbuilt)
    with raises(ValueError, match="must be built", call="BackupAndRestore.on_train_begin with an unbuilt model"):
        cb.on_train_begin()
    d = os.path.join(tempfile.mkdtemp(), "backup")
    model = _model(keras)
    cb = BR(d, double_checkpoint=True, delete_checkpoint=False)
    cb.set_model(model)
    model.set_weights([np.full((2, 1), 2.0, np.float32)])
    cb.on_epoch_end(0)
    model.set_weights([np.full((2, 1), 3.0, np.float32)])
    cb.on_epoch_end(1)
    assert_same(sorted(os.listdir(d)), ["latest.weights.h5", "latest.weights.h5.bkp", "training_metadata.json",
                                         "training_metadata.json.bkp"], call="double_checkpoint after two epochs")
    with open(os.path.join(d, "latest.weights.h5"), "wb") as f:
        f.write(b"not a weights file")
    model.set_weights([np.zeros((2, 1), np.float32)])
    again = BR(d, double_checkpoint=True, delete_checkpoint=False)
    again.set_model(model)
    again.on_train_begin()
    assert_same(model.get_weights()[0].ravel().tolist(), [2.0, 2.0],
                 call="on_train_begin with a damaged latest backup: the .bkp weights")
    again.on_train_end()
    assert_same(os.path.isdir(d), True, call="delete_checkpoint=False: backup_dir after on_train_end")
    BR(d).on_train_end()
    assert_same(os.path.exists(d), False, call="delete_checkpoint=True: backup_dir after on_train_end")


@clause("keras.callback.option-coverage", ref="tf221")
def test_cov13_callbacks_callback_list(keras):
    """callback_list.py: nested callback lists are flattened (tree.flatten), a History or
    ProgbarLogger given is used instead of adding one, `model.history` is the list's History,
    on_batch_begin/end reach every callback, and an `on_*_end` without its begin is ValueError."""
    seen = []

    class Rec(keras.callbacks.Callback):
        def __init__(self, tag):
            super().__init__()
            self.tag = tag

        def on_batch_begin(self, batch, logs=None):
            seen.append((self.tag, "begin", batch))

        def on_batch_end(self, batch, logs=None):
            seen.append((self.tag, "end", batch, sorted((logs or {}).items())))

    model = _model(keras)
    history = keras.callbacks.History()
    progbar = keras.callbacks.ProgbarLogger()
    cbs = keras.callbacks.CallbackList([Rec("a"), [Rec("b"), history], progbar], add_history=True,
                                       add_progbar=True, model=model)
    assert_same([type(c).__name__ for c in cbs.callbacks], ["Rec", "Rec", "History", "ProgbarLogger"],
                 call="CallbackList([a, [b, History], ProgbarLogger], add_history, add_progbar).callbacks")
    assert_same(model.history is history, True, call="model.history is the given History")
    cbs.on_batch_begin(0)
    cbs.on_batch_end(0, {"loss": np.float32(0.5)})
    assert_same(seen, [("a", "begin", 0), ("b", "begin", 0), ("a", "end", 0, [("loss", 0.5)]),
                        ("b", "end", 0, [("loss", 0.5)])], call="on_batch_begin/on_batch_end(logs)")
    bare = keras.callbacks.CallbackList([Rec("c")])
    assert_same(len(bare.callbacks), 1, call="CallbackList([c]) without defaults")
    with raises(ValueError, match="without corresponding", call="CallbackList.on_test_end() without on_test_begin"):
        bare.on_test_end()


@clause("keras.callback.option-coverage", ref="tf221")
def test_cov13_callbacks_monitor_fallbacks(keras, capsys):
    """An unknown mode warns and falls back to "auto"; "auto" on a metric whose direction Keras
    cannot tell is ValueError; EarlyStopping and ReduceLROnPlateau with their monitor absent warn
    and change nothing; their verbose messages name the epoch (EarlyStopping's at on_train_end:
    the stopping epoch + 1; ReduceLROnPlateau's the new rate)."""
    model = _model(keras, lr=0.5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        es = keras.callbacks.EarlyStopping(monitor="loss", mode="sideways")
    assert_same([es.mode, any("unknown" in str(w.message) for w in caught)], ["auto", True],
                 call="EarlyStopping(mode='sideways')")
    odd = keras.callbacks.EarlyStopping(monitor="my_score")
    odd.set_model(model)
    odd.on_train_begin()
    with raises(ValueError, match="automatically determine", call="EarlyStopping(monitor='my_score') on_epoch_end"):
        odd.on_epoch_end(0, {"my_score": 1.0})
    es = keras.callbacks.EarlyStopping(monitor="val_loss", patience=0)
    es.set_model(model)
    es.on_train_begin()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        es.on_epoch_end(0, {"loss": 1.0})
        es.on_epoch_end(1, {"loss": 1.0})
    assert_same([bool(getattr(model, "stop_training", False)), any("val_loss" in str(w.message) for w in caught)],
                 [False, True], call="EarlyStopping(monitor='val_loss') without val_loss")
    rl = keras.callbacks.ReduceLROnPlateau(monitor="val_loss", patience=0)
    rl.set_model(model)
    rl.on_train_begin()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rl.on_epoch_end(0, {"loss": 1.0})
    assert_same([float(np.asarray(model.optimizer.learning_rate)), any("val_loss" in str(w.message) for w in caught)],
                 [0.5, True], call="ReduceLROnPlateau(monitor='val_loss') without val_loss")
    capsys.readouterr()
    es = keras.callbacks.EarlyStopping(monitor="loss", patience=1, verbose=1)
    es.set_model(model)
    es.on_train_begin()
    for epoch, loss in enumerate((1.0, 2.0)):   # epoch 1: wait 1 >= patience and epoch > 0: stops
        es.on_epoch_end(epoch, {"loss": loss})
    es.on_train_end()
    rl = keras.callbacks.ReduceLROnPlateau(monitor="loss", patience=1, factor=0.5, verbose=1)
    rl.set_model(model)
    rl.on_train_begin()
    for epoch, loss in enumerate((1.0, 2.0)):
        rl.on_epoch_end(epoch, {"loss": loss})
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.strip()]
    assert_same(lines, ["Epoch 2: early stopping", "Epoch 2: ReduceLROnPlateau reducing learning rate to 0.25."],
                 call="EarlyStopping(patience=1, verbose=1) on losses 1, 2; ReduceLROnPlateau(patience=1, "
                      "verbose=1) on losses 1, 2")
