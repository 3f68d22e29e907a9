"""The checkpoint sweep (fifty-sixth session, cksweep56): tf.train.Checkpoint and the optimizers' state crossed by
rule, every observation compared with TF 2.21's recorded one.

Each Keras optimizer (SGD plain, with momentum and Nesterov; Adam plain, amsgrad and with EMA; AdamW plain and
amsgrad; RMSprop plain, centered, centered with momentum; Adagrad, Adadelta, Adamax, Nadam, Ftrl with every
regularization, Lion, Adafactor; LossScaleOptimizer over SGD and Adam) after 0, 1 and 3 steps on a named Keras
model: saved with tf.train.Checkpoint, the file's keys and shapes (tf.train.list_variables), restored into a fresh
model and optimizer built before the restore and into one built after it (deferred restoration), the restore
status's assertions before and after the build, the restored weights, slots and iterations and one more step on
both, by their bits. Checkpoints of variables (float32, float64, float16, int64) and tf.Modules: save / write /
read / restore, save_counter, the prefixes returned, the statuses (assert_consumed, assert_existing_objects_matched,
assert_nontrivial_match, expect_partial) and the classes of their errors, tf.train.load_checkpoint's reader.
tf.train.CheckpointManager (max_to_keep 1, 2, None; checkpoint_name; step_counter with checkpoint_interval;
init_fn; restore_or_initialize; checkpoint_number) after six saves. Checkpoints saved under MirroredStrategy (two
CPUs) restored under OneDeviceStrategy and the reverse, every replica's copy. Expected results are TF 2.21's
(`python -m simdist.conformance.suite.test_cksweep56 --record` rewrites cksweep56_reference.json.gz), recorded on an
Intel Xeon with AVX-512 and oneDNN on; paths are relative to each program's temporary directory."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.cksweep56_cases import MANAGERS, OPTIMIZERS, REF, STEPS

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("optim.state-round-trip")
@pytest.mark.parametrize("name", _ids("ck-opt-"))
def test_cksweep56_optimizer_state_round_trip(backend: Any, name: str) -> None:
    """An optimizer after 0, 1 or 3 steps saved with its model, restored into fresh objects built before and after
    the restore: keys, statuses, weights, slots, iterations and one more step, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("checkpoint.restore-status")
@pytest.mark.parametrize("name", _ids("ck-api-"))
def test_cksweep56_checkpoint_api(backend: Any, name: str) -> None:
    """save / write / read / restore of variables and modules: prefixes, save_counter, keys, the reader's maps and
    values, every status assertion and error class, deferred restoration, as TF 2.21."""
    _check(backend, name)


@pytest.mark.clause("checkpoint.manager")
@pytest.mark.parametrize("name", _ids("ck-mgr-"))
def test_cksweep56_checkpoint_manager(backend: Any, name: str) -> None:
    """A CheckpointManager of each option after six saves: save's returns, checkpoints, latest_checkpoint, the
    state file, restore_or_initialize of a fresh manager, as TF 2.21."""
    _check(backend, name)


@pytest.mark.clause("pch.deferred-restore")
@pytest.mark.parametrize("name", _ids("ck-dist-"))
def test_cksweep56_checkpoints_across_strategies(backend: Any, name: str) -> None:
    """A model and optimizer trained under one strategy, restored under another (MirroredStrategy over two CPUs,
    OneDeviceStrategy): keys, statuses, values and every replica's copy, TF 2.21's bits."""
    _check(backend, name)


assert len(_ids("ck-opt-")) == len(OPTIMIZERS) * len(STEPS) and len(_ids("ck-mgr-")) == len(MANAGERS)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
