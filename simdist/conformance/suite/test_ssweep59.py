"""The saving sweep (fifty-ninth session, ssweep59; ssweep59_cases.py): every tf.train.Checkpoint load-status method
(assert_consumed, assert_existing_objects_matched, assert_nontrivial_match, run_restore_ops, expect_partial: "ok" or
the error's class and its message's key phrase) after each kind of restore — immediate, deferred (variables, modules,
Keras layers built later, optimizer slots made by a later step), partial (objects extra on either side), mismatched
shapes and dtypes, a restore over a restore, read beside restore, CheckpointManager's latest and an empty directory;
Keras `.keras` files of Sequential, functional and subclassed models saved mid-training (iterations, slots, the next
step), compile=False, custom objects, safe_mode; `.weights.h5` files (skip_mismatch, differently built models);
get_weights/set_weights order; get_config/from_config of layers off their defaults; the base Layer's
save_own_variables/load_own_variables. Expected results are TF 2.21's, recorded on an AVX-512 Xeon with oneDNN on
(`python -m simdist.conformance.suite.test_ssweep59 --record` rewrites ssweep59_reference.json.gz); the `.keras`
files' training programs are host-dependent (float32 Dense products)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.ssweep59_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("checkpoint.restore-status")
@pytest.mark.parametrize("name", _ids("ss-st-"))
def test_ssweep59_load_statuses(backend: Any, name: str) -> None:
    """Each load-status method after each kind of restore (immediate, deferred, partial, mismatched, twice,
    CheckpointManager's latest), the values restored, as TF 2.21."""
    _check(backend, name)


@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("name", _ids("ss-keras-file-") + _ids("ss-keras-safe-"))
def test_ssweep59_keras_files(backend: Any, name: str) -> None:
    """A model saved to a .keras file mid-training and loaded (iterations, slots, the next step; compile=False;
    custom objects; safe_mode), TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.model.save-weights")
@pytest.mark.parametrize("name", _ids("ss-keras-weights-h5"))
def test_ssweep59_weights_files(backend: Any, name: str) -> None:
    """save_weights / load_weights of .weights.h5 files into the same, differently built and functional models,
    skip_mismatch both ways, as TF 2.21."""
    _check(backend, name)


@pytest.mark.clause("keras.model.weights-order")
@pytest.mark.parametrize("name", _ids("ss-keras-weights-order") + _ids("ss-keras-own-"))
def test_ssweep59_weights_order(backend: Any, name: str) -> None:
    """get_weights/set_weights order with frozen and non-trainable weights; the base Layer's
    save_own_variables/load_own_variables, as TF 2.21."""
    _check(backend, name)


@pytest.mark.clause("keras.model.config")
@pytest.mark.parametrize("name", _ids("ss-keras-config"))
def test_ssweep59_layer_configs(backend: Any, name: str) -> None:
    """get_config of layers with options off their defaults and the from_config round trip, as TF 2.21."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
