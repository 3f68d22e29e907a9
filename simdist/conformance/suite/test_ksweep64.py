"""Checkpoints restored by a side in another build state (sixty-fourth session, ksweep64; ksweep64_cases.py).

A compiled Sequential trained by fit (SGD with momentum, Adam, centered RMSprop with momentum) is saved by
tf.train.Checkpoint(model=...), tf.train.Checkpoint(model=..., optimizer=...), save_weights (.weights.h5) and
model.save (.keras), and restored into a fresh model: built and compiled with its optimizer unbuilt, compiled with
the optimizer built, a Sequential without an input shape, uncompiled (compiled after the restore), and driven by a
custom loop's apply_gradients; then trained one step more. Partial restores (model-only checkpoints into a compiled
model, model and optimizer into a model alone, an extra layer, the optimizer alone) by restore and read with every
assertion; variables of another dtype or shape; deferred layer builds; save/write/read and save_counter;
CheckpointManager with the optimizer's iterations as step counter (checkpoint_interval), keep_checkpoint_every_n_hours,
checkpoint_name, restore_or_initialize into an unbuilt optimizer; list_variables / load_variable keys of functional,
nested and Embedding models and of compiled optimizers before and after their build; strategies crossed
(MirroredStrategy over two CPUs, OneDeviceStrategy, the default) with fit on the restored side. Expected results are
TF 2.21's (`python -m simdist.conformance.suite.test_ksweep64 --record` rewrites ksweep64_reference.json.gz),
recorded on an Intel Xeon with AVX-512 and oneDNN on; paths are relative to each program's temporary directory."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.ksweep64_cases import OPTIMIZERS, REF, SAVES

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("pch.deferred-restore")
@pytest.mark.parametrize("name", [n for n in _ids("k-restore-") if "-ck_" in n])
def test_ksweep64_checkpoint_into_each_build_state(backend: Any, name: str) -> None:
    """A trained compiled model's tf.train.Checkpoint restored into a model in each build state, then one more
    step: keys, statuses before and after, weights, iterations, slots and learning rate, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.model.save-weights")
@pytest.mark.parametrize("name", [n for n in _ids("k-restore-") if "-ck_" not in n])
def test_ksweep64_weight_files_into_each_build_state(backend: Any, name: str) -> None:
    """save_weights / model.save files loaded by load_weights into a model in each build state (an unbuilt
    optimizer skipped, an unbuilt Sequential refused), then one more step: TF 2.21's values and error classes."""
    _check(backend, name)


@pytest.mark.clause("checkpoint.restore-status")
@pytest.mark.parametrize("name", _ids("k-partial"))
def test_ksweep64_partial_and_mismatched_restores(backend: Any, name: str) -> None:
    """Partial restores by restore and read, every assertion before and after the step, mismatched dtypes and
    shapes (error classes), deferred layer builds, save/write counters, latest_checkpoint: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("checkpoint.manager")
@pytest.mark.parametrize("name", _ids("k-manager"))
def test_ksweep64_manager_of_a_compiled_model(backend: Any, name: str) -> None:
    """CheckpointManager over fit epochs (the optimizer's iterations as step counter, hours, names), its lists
    and files, restore_or_initialize into an unbuilt optimizer and the interval after it: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("optim.state-round-trip")
@pytest.mark.parametrize("name", _ids("k-keys"))
def test_ksweep64_keys_of_keras_models_and_optimizers(backend: Any, name: str) -> None:
    """list_variables / load_variable of functional, nested, Embedding and BatchNormalization models and of
    compiled optimizers unbuilt and trained, restored into a fresh compiled model and trained on: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("keras.fit.first-batch-build")
@pytest.mark.parametrize("name", _ids("k-dist-"))
def test_ksweep64_restores_across_strategies(backend: Any, name: str) -> None:
    """A model trained under one strategy restored under another into a compiled model (optimizer unbuilt;
    Sequential unbuilt: fit's first-batch build under a captured strategy refuses) and fit: TF 2.21's."""
    _check(backend, name)


assert len(_ids("k-restore-")) == len(OPTIMIZERS) * len(SAVES)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
