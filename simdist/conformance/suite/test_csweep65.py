"""Checkpoint restore statuses and build states, by rule (sixty-fifth session, csweep65; csweep65_cases.py).

tf.train.Checkpoint's restore and read crossed by what was saved (nothing, a tf.Variable, a keras.Variable, a list
and a dict of variables, a tf.Module with a child, a nested Checkpoint, a built model, a compiled model trained by
fit, an optimizer alone before and after a step, a model and its optimizer before and after a step; by write and by
save) × the restoring side (an empty Checkpoint, another name, a variable of another shape at the saved object's
path, the same structure, an extra variable, fewer variables or a narrower layer, the unbuilt form: a Sequential
without an input, an optimizer not built, a variable assigned after the restore) × the status API (assert_consumed,
assert_existing_objects_matched, assert_nontrivial_match, expect_partial, run_restore_ops, initialize_or_restore, the
status's class), with the values restored and, after a later build, the values and assertions again; paths None,
missing, a directory, an empty directory's latest; Model.load_weights of a missing file, another suffix and a TF
checkpoint prefix; a compiled model's optimizer reached by its two paths; the order in which a restore meeting a
value of another shape assigns the others; CheckpointManager by option value; list_variables / load_variable of each
saved kind. Expected results are TF 2.21's (`python -m simdist.conformance.suite.test_csweep65 --record` rewrites
csweep65_reference.json.gz), recorded on an Intel Xeon with AVX-512 and oneDNN on; nothing host-dependent."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.csweep65_cases import MANAGER_OPTIONS, REF, SAVED

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("checkpoint.restore-status")
@pytest.mark.parametrize("name", _ids("c-restore-"))
def test_csweep65_restore_status_by_saved_and_restoring_state(backend: Any, name: str) -> None:
    """One saved kind restored and read into each restoring state: every status method, the status's class, the
    values restored, and after a later build the values and assertions: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("checkpoint.restore-status")
@pytest.mark.parametrize("name", ["c-paths", "c-optimizer-paths", "c-refusal-order"])
def test_csweep65_paths_optimizer_paths_and_refusals(backend: Any, name: str) -> None:
    """Paths None/missing/a directory, load_weights' refusals; a compiled model's optimizer by its two paths and
    alone, then a step; the values a shape refusal leaves: TF 2.21's classes, phrases and values."""
    _check(backend, name)


@pytest.mark.clause("checkpoint.manager")
@pytest.mark.parametrize("name", _ids("c-manager-"))
def test_csweep65_checkpoint_manager_by_option(backend: Any, name: str) -> None:
    """CheckpointManager under one option (max_to_keep None/0/1/2/-1, hours, an interval with and without a step
    counter, a name, init_fn, numbered and unchecked saves): its lists and latest after each save, a reopened
    manager's restore_or_initialize and saves: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("checkpoint.latest")
def test_csweep65_readers_of_each_saved_kind(backend: Any) -> None:
    """tf.train.list_variables (names and shapes, TF's order) and load_variable of each saved kind's checkpoint
    (an optimizer's `_trainable_variables` included): TF 2.21's."""
    _check(backend, "c-reader")


assert len(_ids("c-restore-")) == len(SAVED) and len(_ids("c-manager-")) == len(MANAGER_OPTIONS)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
