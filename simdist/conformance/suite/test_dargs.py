"""tf.data.Dataset's method arguments at their edges (issue 29, dargs): each transformation of dargs_cases' table on
range(7) (the datasets' own constructors for sample_from_datasets and choose_from_datasets) with each argument of TF
2.21's signature at its edge values, one at a time (ints 0, 1, -1, 2, default + 1; required counts and sizes 0, 1,
-1, 2, 8; optional counts 1, 2, 0, -1; bools negated) — clause dataset.api-surface.

Expected: TF 2.21's recorded observation (dargs_reference), exactly: the call's or the iteration's error class, or
the cardinality and the elements. A transformation that takes an argument's edge another way than tf.data fails
here.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import dargs_cases as cases
from simdist.conformance.suite import dargs_reference as reference

clause = pytest.mark.clause


def _methods() -> list[str]:
    try:
        return sorted({v["method"] for v in reference.load()["plan"]})
    except FileNotFoundError:
        return []


def test_dargs_recording_is_current() -> None:
    """The recording was made by these rules and programs."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"dargs_reference.json.gz was made by other rules (tables {meta['tables'][:12]}, but should be "
                f"{reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`",
                call="dargs recording")


@clause("dataset.api-surface", ref="tf221")
@pytest.mark.parametrize("method", _methods())
def test_dataset_method_arguments_at_their_edges(tf, method: str) -> None:
    """Each variant of the method's arguments: the same error, or the same cardinality and elements, as TF 2.21."""
    data = reference.load()
    found = []
    for variant, want in zip(data["plan"], data["observed"]):
        if variant["method"] == method:
            got = cases.observe(tf, method, variant["kwargs"])
            if got != want:
                found.append(f"Dataset.{method}({variant['kwargs']}): {str(got)[:300]}, but should be {str(want)[:300]}")
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be):\n  " + "\n  ".join(found[:12]),
                call=f"tf.data.Dataset.{method} arguments")
