"""The callbacks, logs and saving sweep (fifty-sixth session, csweep56; csweep56_cases.py): every built-in Keras
callback (History, ProgbarLogger verbose 1 and 2, EarlyStopping, ReduceLROnPlateau, LearningRateScheduler,
ModelCheckpoint, CSVLogger, TerminateOnNaN, LambdaCallback, BackupAndRestore, SwapEMAWeights) with each option off
its default, through fit's paths (validation_data/validation_split/validation_freq, initial_epoch, steps_per_epoch,
sample_weight/class_weight), evaluate and predict: each hook's logs (keys and values' bits), History, the epoch a run
stops at, the lr per epoch, the printed text, the files after each epoch and their contents; then .keras and
.weights.h5 round trips and get_weights/set_weights, compared with TF 2.21's recorded results (`python -m
simdist.conformance.suite.test_csweep56 --record` rewrites csweep56_reference.json.gz; recorded on an AVX-512 Xeon
with oneDNN on, every program host-dependent)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.csweep56_cases import (CKPT_CASES, ES_CASES, FIT_CASES, PROGBAR_CASES, REF,
                                                     RLR_CASES)

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("keras.fit.logs")
@pytest.mark.parametrize("name", _ids("cs-fit-") + _ids("cs-lambda-"))
def test_csweep56_hook_logs_through_fit_evaluate_predict(backend: Any, name: str) -> None:
    """fit over each of its paths, then evaluate (a list and return_dict) and predict: every hook's index and logs
    (keys, values' bits), History and its params, the weights and iterations: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("keras.fit.progress-bar")
@pytest.mark.parametrize("name", _ids("cs-progbar-"))
def test_csweep56_progress_bar_text(backend: Any, name: str) -> None:
    """ProgbarLogger's printed lines (verbose 1 and 2; 3 and 10 steps; negative, tiny and huge values; with
    validation) of fit, evaluate and predict, timings masked: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("keras.callback.monitor")
@pytest.mark.parametrize("name", _ids("cs-es-") + _ids("cs-rlr-") + _ids("cs-sched-"))
def test_csweep56_monitors_and_schedules(backend: Any, name: str) -> None:
    """EarlyStopping (monitor, min_delta, patience, mode, baseline, restore_best_weights, start_from_epoch),
    ReduceLROnPlateau (factor, patience, cooldown, min_lr, min_delta, mode) and LearningRateScheduler (one- and
    two-argument functions, NumPy, tensor, int and string returns, initial_epoch, verbose): the epoch a run stops at,
    the lr per epoch, the callback's state, printed text: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("keras.callback.option-coverage")
@pytest.mark.parametrize("name", _ids("cs-ckpt-") + _ids("cs-csv-") + _ids("cs-nan-") + _ids("cs-backup-")
                         + _ids("cs-ema-"))
def test_csweep56_files_and_state_callbacks(backend: Any, name: str) -> None:
    """ModelCheckpoint (save_best_only, save_weights_only, save_freq, name templates, mode, initial threshold, bad
    suffixes), CSVLogger (separator, append), TerminateOnNaN, BackupAndRestore (save_freq, delete_checkpoint, an
    interrupted run resumed) and SwapEMAWeights: the files after each epoch, their contents loaded back: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("name", _ids("cs-save-") + _ids("cs-weights-"))
def test_csweep56_saving_round_trips(backend: Any, name: str) -> None:
    """model.save(.keras)/load_model (the archive's members, weights', slots' and iterations' bits, compile config,
    training continued), save_weights/load_weights with a built and an unbuilt optimizer, bad suffixes, and
    get_weights/set_weights' order and error messages: TF 2.21's."""
    _check(backend, name)


assert len(_ids("cs-fit-")) == len(FIT_CASES) and len(_ids("cs-progbar-")) == len(PROGBAR_CASES)
assert len(_ids("cs-es-")) == len(ES_CASES) and len(_ids("cs-rlr-")) == len(RLR_CASES)
assert len(_ids("cs-ckpt-")) == len(CKPT_CASES)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
