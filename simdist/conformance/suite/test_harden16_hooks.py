"""harden16 (issue 29): callback hooks and their logs, by enumeration of fit's options.

A recording callback implements every hook of keras.callbacks.Callback and keeps, in order, each
call's hook, its epoch or batch argument and a copy of its logs (keys and values), and at each
epoch end how many epochs History holds (History runs after the user's callbacks). Each case
(validation_data, validation_split, validation_freq, initial_epoch, steps_per_epoch over a
repeated dataset, two dict outputs with loss_weights and per-output metrics, class_weight,
sample_weight) runs fit, then evaluate and predict with the same callback, and compares the whole
sequence, the params the callback got, History's history/epoch/params and evaluate's dict with
what TF 2.21 + Keras 3.15 recorded for the same program (harden16_reference.json.gz, written by
``python -m simdist.conformance.suite.harden16_record``; seeded weights, unshuffled batches).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden16_observe as observe
from simdist.conformance.suite import harden16_reference as reference

clause = pytest.mark.clause


def _compare(area, name, got):
    want = reference.load()[area][name]
    problems = observe.differences(got, want)
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:20]), call=f"harden16 {area} case {name!r}")


@clause("keras.fit.callback-hooks", ref="tf221")
def test_harden16_recording_is_current():
    """The recording was made from the case tables of this checkout (else re-record)."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == observe.case_tables_hash(),
                f"harden16 reference data is stale (recorded from tables {meta['tables'][:12]}, these are "
                f"{observe.case_tables_hash()[:12]}): re-run `{reference.RECORD_COMMAND}`")


@clause("keras.fit.callback-hooks", ref="tf221")
@pytest.mark.parametrize("name", sorted(observe.HOOK_CASES))
def test_harden16_every_hook_in_order_with_its_logs(tf, name):
    """fit/evaluate/predict call each hook in TF's order with TF's arguments and logs (keys and
    values); History holds TF's history, epochs and params, and is not yet updated when a user
    callback's on_epoch_end runs."""
    tf.keras.backend.clear_session()
    _compare("hooks", name, observe.observe_hooks(tf, name))


@clause("keras.fit.callback-hooks", ref="tf221")
def test_harden16_progbar_logger_runs_after_the_users_callbacks(keras):
    """fit(verbose=1 or 2) appends ProgbarLogger after the user's callbacks: what it prints at an
    epoch's begin and end follows what a user callback prints there, as in TF."""
    for verbose in observe.PROGBAR_VERBOSITY:
        _compare("progbar", str(verbose), observe.observe_progbar_order(keras, verbose))
