"""One callback instance in two fits (issue 29, kreuse): every EarlyStopping, ReduceLROnPlateau, ModelCheckpoint and
LearningRateScheduler setting of harden19b's grids, the callback built once and used in the fits of two fresh models
(kreuse_cases) — clauses keras.callback.early-stopping, keras.callback.reduce-lr-on-plateau,
keras.callback.model-checkpoint, keras.fit.callbacks.

Expected: TF 2.21's recorded observation (kreuse_reference), exactly: each fit's History, each epoch's lr and
weight, the callback's state after both fits and the files written. Keras resets EarlyStopping's and
ReduceLROnPlateau's wait, best and counters at the start of every fit and keeps ModelCheckpoint's best across
fits; a callback that keeps what Keras resets, or resets what it keeps, fails here.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden19b_callbacks as cb19
from simdist.conformance.suite import kreuse_cases as cases
from simdist.conformance.suite import kreuse_reference as reference
from simdist.conformance.suite.harden16_observe import differences

clause = pytest.mark.clause


def test_kreuse_recording_is_current() -> None:
    """The recording was made from these cases and this program."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"kreuse_reference.json.gz was made by other rules (tables {meta['tables'][:12]}, but should be "
                f"{reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`",
                call="kreuse recording")


def _check(tf, kind: str, tmp_path) -> None:
    want = reference.load()["observed"]
    names = [n for n in cases.cases() if cb19.CALLBACK_CASES[n]["kind"] == kind]
    assert_true(len(names) > 0, f"no {kind} cases", call="kreuse")
    problems = []
    for name in names:
        tf.keras.backend.clear_session()
        d = tmp_path / name
        d.mkdir()
        got = cases.observe(tf, name, str(d))
        problems += [f"[{name}: {cb19.CALLBACK_CASES[name].get('kw')}] {p}"
                     for p in differences(got, want[name], rtol=0.0, atol=0.0)[:6]]
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:24]), call=f"one {kind} callback in two fits")


@clause("keras.callback.early-stopping", ref="tf221")
def test_early_stopping_reused_in_a_second_fit(tf, tmp_path):
    """EarlyStopping used in two fits: the second stops where the first did (its state reset at train begin)."""
    _check(tf, "early_stopping", tmp_path)


@clause("keras.callback.reduce-lr-on-plateau", ref="tf221")
def test_reduce_lr_on_plateau_reused_in_a_second_fit(tf, tmp_path):
    """ReduceLROnPlateau used in two fits: each epoch's lr as TF, its wait, best and cooldown reset per fit."""
    _check(tf, "reduce_lr", tmp_path)


@clause("keras.callback.model-checkpoint", ref="tf221")
def test_model_checkpoint_reused_in_a_second_fit(tf, tmp_path):
    """ModelCheckpoint used in two fits: its best kept across them, the files written as TF."""
    _check(tf, "checkpoint", tmp_path)


@clause("keras.fit.callbacks", ref="tf221")
def test_learning_rate_scheduler_reused_in_a_second_fit(tf, tmp_path):
    """LearningRateScheduler used in two fits: each epoch's lr as TF."""
    _check(tf, "scheduler", tmp_path)
