"""Every differential module's TF golden (tests/goldens/) is current: recorded from the module's
present source and imports, by the installed TF release. A stale golden is not an error in a
developer's run (`tf_workers.spawn` asks live TF for every case and records it again), but it
costs the whole module's live TF run on every run and rewrites a tracked file, so a commit must
carry the re-recorded golden: CI runs from a clean checkout, where it has to be current."""

from __future__ import annotations

from pathlib import Path

import pytest

import tf_workers

HERE = Path(__file__).resolve().parent
GOLDEN_MODULES = sorted(p for p in HERE.rglob("test_*_tf.py")
                        if "tf_workers.tf_or_golden(__file__)" in p.read_text(encoding="utf-8"))


def test_there_are_golden_modules() -> None:
    assert len(GOLDEN_MODULES) >= 70, f"found {len(GOLDEN_MODULES)} modules with a TF golden, expected the " \
        f"~80 differential modules: has the marker `tf_workers.tf_or_golden(__file__)` changed?"


@pytest.mark.skipif(not tf_workers.HAS_TF, reason="without TensorFlow a stale golden skips its own module")
def test_every_golden_is_current() -> None:
    stale = [f"{p.relative_to(HERE.parent)}: {why}" for p in GOLDEN_MODULES
             if (why := tf_workers.golden_state(str(p))) is not None]
    assert not stale, "stale TF goldens (each costs a full live TF run of its module on every test run): " \
        "re-record with `python -m pytest <module> --tf-live all` and commit tests/goldens/:\n  " + "\n  ".join(stale)


@pytest.mark.skipif(not tf_workers.HAS_TF, reason="the record is checked where TensorFlow is installed")
def test_conformance_tf_record_is_current() -> None:
    """tests/goldens/conformance-tensorflow.json holds every conformance-suite module at its current
    stamp, so CI runs only a slice of the suite against TF (tests/conformance/tf_suite_record.py)."""
    import sys
    sys.path.insert(0, str(HERE / "conformance"))
    import tf_suite_record
    stale = tf_suite_record.stale(tf_suite_record.load(), tf_suite_record.stamps())
    assert not stale, (f"{len(stale)} conformance-suite module(s) changed since their last run against TF "
                       f"(each runs live against TF on every test run until recorded): record with `python -m "
                       f"pytest tests/conformance/test_conformance_reports.py -k tensorflow --tf-live all` and commit "
                       f"tests/goldens/conformance-tensorflow.json:\n  " + "\n  ".join(stale[:20]))
