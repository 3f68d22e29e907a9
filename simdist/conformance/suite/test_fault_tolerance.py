"""Synchronous fault tolerance on one worker: `tf.keras.callbacks.BackupAndRestore` and
`tf.distribute.experimental.PreemptionCheckpointHandler` — clauses keras.backup-and-restore.resume,
pch.local-save-step, pch.deferred-restore, pch.errors, pch.grace-period (TF 2.21 + Keras 3.15).

The expected values are properties, never the backend's own numbers: an interrupted and resumed
fit ends where an uninterrupted one does; a job restored from the handler's checkpoint has the run
count and values the handler saved. A termination signal comes from `termination_watcher_fn`,
which TF polls from a thread once a second: the loops here run until the handler acts (sleeping
10 ms a step once the signal is on) and check what it did, not at which step.
"""

from __future__ import annotations

import json
import os
import time

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises

clause = pytest.mark.clause

X = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(8, 3)
Y = (X @ np.array([[0.5], [-1.0], [0.25]], dtype=np.float32) + 0.1).astype(np.float32)
W0 = [np.array([[0.1], [0.2], [-0.3]], dtype=np.float32), np.zeros(1, np.float32)]
MAX_RUNS = 1000   # at 10 ms a run after the signal: 10 s for TF's once-a-second watcher thread


class _Exit(Exception):
    """What the tests' exit_fn raises (a real job's would sys.exit)."""


def _model(keras):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.1, momentum=0.9), loss="mse")
    model.set_weights(W0)
    return model


@clause("keras.backup-and-restore.resume", ref="both")
def test_interrupted_fit_resumes_at_the_backed_up_epoch(backend, keras, tmp_path):
    backup = str(tmp_path / "backup")

    class Interrupt(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            if epoch == 4:
                raise RuntimeError("Interrupting!")

    fit = dict(x=X, y=Y, epochs=10, batch_size=2, verbose=0, shuffle=False)
    call = "fit(epochs=10, callbacks=[BackupAndRestore(dir), <raises at epoch 4>]), then fit again"
    model = _model(keras)
    with raises(RuntimeError, match="Interrupting", call=call):
        model.fit(callbacks=[keras.callbacks.BackupAndRestore(backup), Interrupt()], **fit)
    assert_equal(sorted(os.listdir(backup)), ["latest.weights.h5", "training_metadata.json"], call=call,
                 what="backup files after the interruption")
    with open(os.path.join(backup, "training_metadata.json")) as f:
        assert_equal(json.loads(f.read()), {"epoch": 4, "batch": 0}, call=call, what="training_metadata.json")
    resumed = _model(keras)
    resumed.set_weights([w + 1.0 for w in W0])   # a restarted job: the backup must win
    history = resumed.fit(callbacks=[keras.callbacks.BackupAndRestore(backup)], **fit)
    # the docstring: "Only 6 more epochs are run, since first training got interrupted at zero-indexed epoch 4"
    assert_equal(len(history.history["loss"]), 6, call=call, what="epochs the resumed fit ran")
    assert_true(not os.path.exists(backup), "the backup directory should be deleted when training completes",
                call=call)
    plain = _model(keras)
    plain.fit(**fit)
    for i, (g, w) in enumerate(zip(resumed.get_weights(), plain.get_weights())):
        assert_close(g, w, call=call, what=f"weight {i} after resuming (vs an uninterrupted fit)")


def _handler_job(tf, keras, ckpt_dir, config_kw, flag):
    """A model, optimizer, step counter, checkpoint and handler (restored from ckpt_dir)."""
    model = _model(keras)
    opt = model.optimizer
    step = tf.Variable(0, dtype=tf.int64)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=opt, step=step)
    config = tf.distribute.experimental.TerminationConfig(termination_watcher_fn=lambda: flag["on"], **config_kw)
    handler = tf.distribute.experimental.PreemptionCheckpointHandler(None, checkpoint, ckpt_dir, config)

    def train_step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(X[:4]) - Y[:4]))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        step.assign_add(1)
        return loss

    return model, step, handler, train_step


@clause("pch.local-save-step", ref="both")
def test_handler_saves_one_run_after_the_signal_and_restores_it(backend, tf, keras, tmp_path):
    ckpt_dir = str(tmp_path / "ckpt")
    flag = {"on": False}
    exits = []
    call = "PreemptionCheckpointHandler(None, checkpoint, dir, TerminationConfig(watcher, exit_fn)).run(step)"

    def exit_fn():
        exits.append((int(handler.total_run_calls), int(step.numpy()), [np.array(w) for w in model.get_weights()]))
        raise _Exit()

    model, step, handler, train_step = _handler_job(tf, keras, ckpt_dir, {"exit_fn": exit_fn}, flag)
    assert_equal(int(handler.total_run_calls), 0, call=call, what="total_run_calls of a new job")
    with raises(_Exit, call=call):
        for i in range(MAX_RUNS):
            handler.run(train_step)
            if i == 2:
                flag["on"] = True
            elif i > 2:
                time.sleep(0.01)
    runs, steps, weights = exits[0]
    assert_equal(len(exits), 1, call=call, what="exit_fn calls")
    assert_true(runs >= 4, f"exit_fn was called at run count {runs}, but the signal came after run 3: the save "
                           "is at the run after the one that saw it", call=call)
    assert_equal(steps, runs, call=call, what="steps trained when exit_fn ran (the saving run does not train)")
    # a restarted job restores what the handler saved
    model2, step2, handler2, _ = _handler_job(tf, keras, ckpt_dir, {"exit_fn": lambda: None}, {"on": False})
    assert_equal(int(handler2.total_run_calls), runs, call=call, what="total_run_calls restored")
    assert_equal(int(step2.numpy()), runs, call=call, what="step variable restored")
    for i, (g, w) in enumerate(zip(model2.get_weights(), weights)):
        assert_close(g, w, call=call, what=f"restored weight {i}")


@clause("pch.grace-period", ref="tf221")
def test_a_long_grace_period_saves_and_trains_on(backend, tf, keras, tmp_path):
    flag = {"on": False}
    saves, exits = [], []
    call = "TerminationConfig(grace_period=10000, save_fn=...): the signal, then runs"
    model, step, handler, train_step = _handler_job(
        tf, keras, str(tmp_path / "ckpt"),
        {"grace_period": 10000, "exit_fn": lambda: exits.append(1),
         "save_fn": lambda: saves.append(int(handler.total_run_calls))}, flag)
    for i in range(MAX_RUNS):
        handler.run(train_step)
        if i == 2:
            flag["on"] = True
        if saves and int(handler.total_run_calls) >= saves[0] + 5:
            break
        if i > 2:
            time.sleep(0.01)
    assert_equal(len(saves), 1, call=call, what="saves (one at the agreed step, the final one is hours away)")
    assert_equal(exits, [], call=call, what="exit_fn calls during the grace period")
    assert_true(saves[0] >= 4, f"saved at run count {saves[0]}, before the signal could be seen", call=call)


@clause("pch.deferred-restore", ref="tf221")
def test_restore_into_an_unbuilt_optimizer_keeps_its_momentum(backend, tf, keras, tmp_path):
    call = "Checkpoint(model, optimizer).restore(path) before the optimizer's first step"
    model = _model(keras)
    opt = model.optimizer

    def step(m, o):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(m(X) - Y))
        o.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))

    step(model, opt)
    step(model, opt)
    path = tf.train.Checkpoint(model=model, optimizer=opt).write(str(tmp_path / "c"))
    step(model, opt)
    fresh = _model(keras)
    tf.train.Checkpoint(model=fresh, optimizer=fresh.optimizer).restore(path)
    step(fresh, fresh.optimizer)
    for i, (g, w) in enumerate(zip(fresh.get_weights(), model.get_weights())):
        assert_close(g, w, call=call, what=f"weight {i} one step after the restore (vs training on)")
    assert_equal(int(np.asarray(fresh.optimizer.iterations)), 3, call=call, what="optimizer.iterations")


@clause("pch.errors", ref="tf221")
def test_handler_argument_errors(backend, tf, tmp_path):
    pch = tf.distribute.experimental.PreemptionCheckpointHandler
    with raises(TypeError, match="missing 2 required positional arguments: 'op' and 'message'",
                call="PreemptionCheckpointHandler(None, tf.train.Checkpoint(...)) without checkpoint_dir"):
        pch(None, tf.train.Checkpoint(v=tf.Variable(1.0)))
    spec = tf.train.ClusterSpec({"worker": ["localhost:1"], "ps": ["localhost:2"]})
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(spec, task_type="worker", task_id=0)
    with raises(NotImplementedError, match="ParameterServerStrategy",
                call="PreemptionCheckpointHandler(<resolver of a cluster with ps>, checkpoint, dir)"):
        pch(resolver, tf.train.Checkpoint(), str(tmp_path))
