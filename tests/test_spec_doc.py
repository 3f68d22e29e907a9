"""docs/spec.md stays in step with the repository.

* its generated Examples/Tests blocks equal what docs/tools/spec_index.py would write now
  (run ``python docs/tools/spec_index.py`` to update them);
* every clause marker in tests/ and simdist/conformance/, and every ``# Clauses:`` line of
  docs/examples, names a clause of the spec's own clause index; every clause of the index has
  its section, its blocks and at least one test;
* the index lists exactly the clauses of the conformance suite's catalog
  (simdist/conformance/clauses.py);
* when the project's reference list ../shared/reference/clauses.md is present (it is not part
  of this repository, so a clean checkout skips that test), the index lists every one of its IDs
  (and may add clauses of its own, which the catalog must hold too).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "docs" / "spec.md"
SHARED_CLAUSES = ROOT.parent / "shared" / "reference" / "clauses.md"


def _load_spec_index():
    spec = importlib.util.spec_from_file_location("spec_index", ROOT / "docs" / "tools" / "spec_index.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules["spec_index"] = mod   # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


spec_index = _load_spec_index()


@pytest.fixture(scope="module")
def report():
    return spec_index.check(ROOT, SPEC)


@pytest.fixture(scope="module")
def spec_text():
    return SPEC.read_text(encoding="utf-8")


def test_generated_blocks_are_current(report, spec_text):
    if report.new_text != spec_text:
        import difflib
        diff = "".join(difflib.unified_diff(spec_text.splitlines(True), report.new_text.splitlines(True),
                                            "docs/spec.md", "regenerated", n=1))
        pytest.fail("docs/spec.md is out of date with the clause markers; run "
                    "`python docs/tools/spec_index.py`:\n" + diff[:6000])


def test_markers_and_sections_agree_with_the_clause_index(report):
    assert not report.problems, "\n".join(report.problems)


def test_every_clause_section_is_complete(spec_text):
    ids = spec_index.embedded_ids(spec_text)
    assert ids, "the clause index is empty"
    sections = re.split(r"^### ", spec_text, flags=re.M)[1:]
    by_id = {}
    for s in sections:
        m = re.match(r"`([a-z0-9.-]+)`\n", s)
        assert m, f"a clause section heading must be ### `clause.id`: {s[:60]!r}"
        by_id[m.group(1)] = s
    assert list(by_id) == ids, "clause sections must follow the index, one each, in its order"
    for cid, s in by_id.items():
        for part in ("**Rule.**", "**TF 2.21.**", "**simdist.**", f"<!-- tests:{cid} -->",
                     f"<!-- examples:{cid} -->"):
            assert part in s, f"clause {cid}: section lacks {part}"


def test_index_matches_the_conformance_catalog(spec_text):
    from simdist.conformance.clauses import CLAUSES
    ids = spec_index.embedded_ids(spec_text)
    assert set(ids) == set(CLAUSES), (
        f"in docs/spec.md only: {sorted(set(ids) - set(CLAUSES))}; "
        f"in simdist/conformance/clauses.py only: {sorted(set(CLAUSES) - set(ids))}")


@pytest.mark.skipif(not SHARED_CLAUSES.exists(), reason=f"{SHARED_CLAUSES} is not present (not part of this repo)")
def test_index_covers_the_reference_clause_list(spec_text):
    ids = spec_index.embedded_ids(spec_text)
    ref = spec_index.shared_clause_ids(SHARED_CLAUSES)
    assert ref, f"no clause IDs found in {SHARED_CLAUSES}"
    # every reference clause is in the spec; the spec may add clauses of its own (behaviour the
    # project ships beyond the reference list: training, Keras, ops), each in the catalog too
    assert set(ref) <= set(ids), f"missing from docs/spec.md: {sorted(set(ref) - set(ids))}"


def test_scanner_finds_every_marker_form(tmp_path):
    """The static scan sees decorators, aliases, pytestmark (module and class) and param marks."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "simdist" / "conformance").mkdir(parents=True)
    (tmp_path / "tests" / "test_forms.py").write_text('''
import pytest
from pytest import mark
clause = pytest.mark.clause
pytestmark = [pytest.mark.tf, pytest.mark.clause("mod.wide")]

@pytest.mark.clause("a.direct")
def test_direct(): pass

@clause("b.alias", ref="tf221")
@mark.clause("c.mark")
def test_alias(): pass

class TestGroup:
    pytestmark = clause("d.class")
    @clause("e.method", ref="doc")
    def test_m(self): pass

@pytest.mark.parametrize("x", [pytest.param(1, marks=clause("f.param")), 2])
def test_param(x): pass

def helper():  # not a test: ignored
    pass
''')
    found, errors = spec_index.scan_tests(tmp_path)
    assert not errors
    got = {(m.test, m.clause, m.ref) for m in found}
    assert got == {
        ("test_direct", "mod.wide", ""), ("test_direct", "a.direct", ""),
        ("test_alias", "mod.wide", ""), ("test_alias", "b.alias", "tf221"), ("test_alias", "c.mark", ""),
        ("TestGroup::test_m", "mod.wide", ""), ("TestGroup::test_m", "d.class", ""),
        ("TestGroup::test_m", "e.method", "doc"),
        ("test_param", "mod.wide", ""), ("test_param", "f.param", ""),
    }
