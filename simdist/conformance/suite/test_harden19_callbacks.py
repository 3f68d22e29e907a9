"""harden19b (issue 29): every built-in callback in fit over option grids, by enumeration.

A scripted loss (harden19b_callbacks: one weight, loss w**2, SGD's lr deciding whether the loss
drops, holds or rises) makes every decision exact: EarlyStopping (24 settings: monitor x mode x
patience with min_delta, baseline, restore_best_weights and start_from_epoch rotating),
ReduceLROnPlateau (18: factor x patience x cooldown with min_lr, min_delta, mode, monitor),
LearningRateScheduler (one and two arguments, verbose, initial_epoch), ModelCheckpoint (filepath
formatting with {epoch}, {batch} and {loss}, save_best_only with each mode, save_weights_only,
.keras files, save_freq in batches, initial_value_threshold), CSVLogger (separators, append over
two fits), TerminateOnNaN (at a batch, at an epoch, never), BackupAndRestore (save_freq "epoch" and
in batches, double_checkpoint, delete_checkpoint; interrupted, then resumed), LambdaCallback with
every hook as a keyword, History and ProgbarLogger's text (timings masked). Recorded: History,
each epoch's lr and weight, the callback's state, the files written and their contents (CSV text,
checkpoint names, the weights loaded back), what was printed -- all as TF 2.21 + Keras 3.15
(harden19b_reference.json.gz).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden19b_callbacks as callbacks
from simdist.conformance.suite import harden19b_reference as reference
from simdist.conformance.suite.harden16_observe import differences

clause = pytest.mark.clause


def _check(tf, kind, budget, tmp_path):
    want = reference.load()["callbacks"]
    names = [n for n in sorted(callbacks.CALLBACK_CASES) if callbacks.CALLBACK_CASES[n]["kind"] in kind]
    assert_true(len(names) > 0, f"no {kind} cases", call="harden19b_callbacks")
    problems = []
    for name in budget(names):
        tf.keras.backend.clear_session()
        d = tmp_path / name
        d.mkdir()
        got = callbacks.observe_callback(tf, name, str(d))
        problems += [f"[{name}: {callbacks.CALLBACK_CASES[name].get('kw')}] {p}"
                     for p in differences(got, want[name], rtol=0.0, atol=0.0)[:6]]
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:24]), call=f"fit with {'/'.join(kind)} callbacks")


@clause("keras.callback.early-stopping", ref="tf221")
def test_harden19_callbacks_early_stopping_grid(tf, budget, tmp_path):
    """EarlyStopping: the epoch training stops at, best, best_epoch, wait and the weights left
    (restored or not) as TF, for every setting."""
    _check(tf, ("early_stopping",), budget, tmp_path)


@clause("keras.callback.reduce-lr-on-plateau", ref="tf221")
def test_harden19_callbacks_reduce_lr_on_plateau_grid(tf, budget, tmp_path):
    """ReduceLROnPlateau: each epoch's lr (History's learning_rate), wait, best and the cooldown
    counter as TF, for every setting."""
    _check(tf, ("reduce_lr",), budget, tmp_path)


@clause("keras.callback.model-checkpoint", ref="tf221")
def test_harden19_callbacks_model_checkpoint_grid(tf, budget, tmp_path):
    """ModelCheckpoint: the files written (names formatted from epoch, batch and loss) and the
    weights (and, for .keras, the optimizer's iterations and lr) each holds, as TF."""
    _check(tf, ("checkpoint",), budget, tmp_path)


@clause("keras.callback.csv-logger", ref="tf221")
def test_harden19_callbacks_csv_logger_grid(tf, budget, tmp_path):
    """CSVLogger: the file's text over two fits (appended or written over; each separator) as TF."""
    _check(tf, ("csv",), budget, tmp_path)


@clause("keras.callback.terminate-on-nan", ref="tf221")
def test_harden19_callbacks_terminate_on_nan(tf, budget, tmp_path):
    """TerminateOnNaN: the batch training stops after, History and the weight left as TF."""
    _check(tf, ("nan",), budget, tmp_path)


@clause("keras.backup-and-restore.resume", ref="tf221")
def test_harden19_callbacks_backup_and_restore_grid(tf, budget, tmp_path):
    """BackupAndRestore: the files after an interrupted fit and after the resumed one, the epochs
    the resumed fit runs, its History, iterations and weight, as TF."""
    _check(tf, ("backup",), budget, tmp_path)


@clause("keras.fit.callbacks", ref="tf221")
def test_harden19_callbacks_scheduler_lambda_history_progbar(tf, budget, tmp_path):
    """LearningRateScheduler (what verbose prints), LambdaCallback with all fourteen hooks as
    keywords through fit/evaluate/predict, History (params, model.history) and ProgbarLogger's
    text as TF."""
    _check(tf, ("scheduler", "lambda", "history", "progbar"), budget, tmp_path)
