"""Keras's identifier lookup (issue 29, kget): `get` of tf.keras.activations, initializers, losses, metrics,
optimizers, regularizers and constraints, asked for every public name of the module on
TF 2.21 as written, lower-cased, in snake_case, upper-cased and as a config dict (kget_cases.identifiers) —
clauses keras.loss.get, keras.metric.get, keras.reg.get, keras.config.globals.

Expected: TF 2.21's recorded answer (kget_reference), exactly: the class, function or object's class each lookup
returns (and serialize's class_name of a looked-up object), or the error class. A lookup that is case-sensitive
where Keras is not, misses an alias, resolves a name to another thing or accepts what Keras refuses fails here.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import kget_cases as cases
from simdist.conformance.suite import kget_reference as reference

clause = pytest.mark.clause
_CLAUSE = {"losses": "keras.loss.get", "metrics": "keras.metric.get", "regularizers": "keras.reg.get",
           "constraints": "keras.reg.get"}


def test_kget_recording_is_current() -> None:
    """The recording was made by this program."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"kget_reference.json.gz was made by other rules (tables {meta['tables'][:12]}, but should be "
                f"{reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`",
                call="kget recording")


def _params() -> list:
    try:
        modules = reference.load()["plan"]
    except FileNotFoundError:
        return []
    return [pytest.param(m, marks=pytest.mark.clause(_CLAUSE.get(m, "keras.config.globals"), ref="tf221"), id=m)
            for m in sorted(modules)]


@pytest.mark.parametrize("module", _params())
def test_lookup_by_every_spelling(tf, module: str) -> None:
    """get of every public name of the module, in every spelling: as TF 2.21 answers."""
    data = reference.load()
    found = []
    for name in data["plan"][module]:
        for ident, want in zip(cases.identifiers(name), data["observed"][module][name]):
            got = cases.observe(tf, module, ident)
            if got != want:
                found.append(f"{module}.get({ident!r}): {got}, but should be {want}")
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be):\n  " + "\n  ".join(found[:20]),
                call=f"keras.{module} lookup")
