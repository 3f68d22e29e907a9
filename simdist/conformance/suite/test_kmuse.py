"""Keras metrics used as people use them (issue 29, kmuse): every metric of harden19's table called as a function
twice (the second time weighted), its result, reset_state and another call; the stateless API on a fresh instance
(stateless_update_state twice, stateless_result, the state, stateless_reset_state, the instance's variables
untouched); and from_config(get_config()) updated once — clause keras.metric.option-coverage.

Expected: TF 2.21's recorded observation of each metric (kmuse_reference): every value in order, or the error class
and what came before it.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import kmuse_cases as cases
from simdist.conformance.suite import kmuse_reference as reference

clause = pytest.mark.clause


def _metrics() -> list[str]:
    try:
        return list(reference.load()["plan"])
    except FileNotFoundError:
        return []


def test_kmuse_recording_is_current() -> None:
    """The recording was made by this program and these tables."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"kmuse_reference.json.gz was made by other rules (tables {meta['tables'][:12]}, but should be "
                f"{reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`", call="kmuse recording")


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("metric", _metrics())
def test_metric_use_protocol(tf, metric: str) -> None:
    """The metric's call, reset, stateless and config paths as on TF 2.21."""
    data = reference.load()
    want = data["observed"][data["plan"].index(metric)]
    found = reference.differences(cases.observe(tf, metric), want)
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be):\n  " + "\n  ".join(found[:10]),
                call=f"keras.metrics.{metric} used as a function, reset, stateless, from_config")
