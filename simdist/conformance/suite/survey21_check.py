"""The comparison every ``test_survey21_*.py`` test makes: each case of its family run on the backend
under test against TF 2.21's recorded output (survey21_reference), the case's source hash checked."""

from __future__ import annotations

from typing import Any, Callable

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import survey21_cases as cases
from simdist.conformance.suite import survey21_reference as reference


def check_cases(tf: Any, family: str, names: list[str], budget: Callable[[list[Any]], list[Any]]) -> None:
    """Run the named cases of the family and fail listing every difference from TF's recording."""
    data = reference.load()["cases"]
    found: list[str] = []
    table = [(n, f) for n, f in cases.FAMILIES[family] if n in names]
    assert_true(len(table) == len(names), f"cases {names} of {family}: only {[n for n, _ in table]} exist", call=family)
    for name, fn in budget(table):
        key = f"{family}/{name}"
        rec = data.get(key)
        if rec is None or rec["hash"] != reference.case_hash(fn):
            found.append(f"{key}: the recording is stale (re-record with `{reference.RECORD_COMMAND}`)")
            continue
        got = reference.observe(tf, fn)
        found += [f"{key}{d}" for d in reference.differences(got, rec["observed"])][:3]
    assert_true(not found, f"{len(found)} differences from TF 2.21: " + "; ".join(found[:6]),
                call=f"{family} cases {', '.join(names)}")
