"""benchmarks/auto_mutants.py's pure parts: the AST operators (each mutant changes only its own
span of the file) and the seeded sampling (the same seed names the same mutants)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import automut_ops as ops  # noqa: E402

SOURCE = b'''"""Docstring 1 + 2."""
from __future__ import annotations


def f(x: int = 0, axis=-1, flag=True) -> float:
    """Doc 3 < 4."""
    if x < 2 and not flag:
        raise ValueError(f"x={x + 1}")
    y = -x * 3 / 4 - 1.0  # a comment with + and <
    y += g(x, y, key=5)
    return y if x != 0 or axis >= 1 else h(kw=False)
'''


def _by(op: str) -> list[ops.Site]:
    return [s for s in ops.sites("m.py", SOURCE) if s.op == op]


@pytest.mark.parametrize("op, pairs", [
    ("arith", [("*", "/"), ("/", "*"), ("-", "+"), ("+=", "-=")]),
    ("compare", [("<", "<="), ("!=", "=="), (">=", ">")]),
    ("boolop", [("and", "or"), ("or", "and")]),
    ("not-dropped", [("not ", "")]),
    ("neg-dropped", [("-", "")]),
    ("bool", [("True", "False"), ("False", "True")]),
    ("kwarg", [(", key=5", ""), ("kw=False", "")]),
    ("swap", [("x, y", "y, x")]),
])
def test_each_operator_finds_its_sites(op, pairs):
    got = sorted((s.old, s.new) for s in _by(op))
    assert got == sorted(pairs), f"sites of {op}: {got}, but should be {sorted(pairs)}"


def test_constants_cover_zero_one_axis_and_increment():
    got = sorted((s.line, s.old, s.new) for s in _by("constant"))
    want = sorted([(5, "0", "1"), (5, "-1", "1"), (7, "2", "3"), (9, "3", "4"), (9, "4", "5"),
                   (9, "1.0", "0.0"), (10, "5", "6"), (11, "0", "1"), (11, "1", "0")])
    assert got == want, f"constant sites {got}, but should be {want}"


def test_annotations_docstrings_raise_and_comments_are_left_alone():
    for s in ops.sites("m.py", SOURCE):
        assert s.line not in (1, 6, 8), f"{s.describe()}: a docstring or raise statement was mutated"
        assert not (s.line == 5 and s.old in ("int", "float")), f"{s.describe()}: an annotation was mutated"
        assert s.start < SOURCE.index(b"# a comment") or s.start > SOURCE.index(b"and <\n"), \
            f"{s.describe()}: a comment was mutated"


@pytest.mark.parametrize("site", ops.sites("m.py", SOURCE), ids=lambda s: f"{s.line}-{s.op}-{s.start}")
def test_a_mutant_changes_only_its_span_and_parses(site):
    out = ops.apply(SOURCE, site)
    assert out[:site.start] == SOURCE[:site.start], f"{site.describe()}: bytes before the span changed"
    assert out[site.start + len(site.new.encode()):] == SOURCE[site.end:], f"{site.describe()}: bytes after changed"
    assert out != SOURCE, f"{site.describe()}: the mutant changes nothing"
    ast.parse(out)


def test_apply_refuses_a_stale_site():
    site = _by("arith")[0]
    moved = b"#\n" + SOURCE
    with pytest.raises(ValueError, match="expected"):
        ops.apply(moved, site)


def test_default_values_are_reached_through_the_function_body():
    site = next(s for s in _by("constant") if s.line == 5 and s.old == "-1")
    assert (site.cover_from, site.cover_to) == (7, 11), \
        f"cover lines {(site.cover_from, site.cover_to)}, but should be the body (7, 11)"


def test_sampling_is_deterministic_and_seeded():
    src = (ROOT / "simdist" / "keras" / "losses" / "losses.py").read_bytes()
    every = ops.sites("simdist/keras/losses/losses.py", src)
    a = ops.sample(every, 12, 3, "p")
    b = ops.sample(list(reversed(every)), 12, 3, "p")
    c = ops.sample(every, 12, 4, "p")
    assert a == b, "the same seed and path picked different mutants (order of the candidates leaked in)"
    assert len(a) == 12 and len(set(a)) == 12, f"{len(set(a))} distinct mutants, but should be 12"
    assert a != c, "seeds 3 and 4 picked the same 12 mutants"
    assert ops.sample(every[:5], 12, 3, "p") == sorted(every[:5]), "fewer candidates than asked: all of them"


def test_tests_for_reaches_module_constants_through_their_files_tests(monkeypatch):
    """A site inside a function gets the tests of its lines; one at module level (run at import)
    every test of its file."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import auto_mutants

    src = b"K = 2\n\n\ndef f(x):\n    return x * K\n\n\ndef g(x):\n    return x + 1\n"
    every = ops.sites("p.py", src)
    cmap = {"tests": ["t_f", "t_g"], "lines": {"p.py": {"5": [0], "9": [1]}}, "imported": {"p.py": [1, 4, 8]}}
    const = next(s for s in every if s.line == 1)
    mul = next(s for s in every if s.line == 5 and s.op == "arith")
    add = next(s for s in every if s.line == 9 and s.op == "arith")
    assert auto_mutants.tests_for(mul, cmap) == ["t_f"], "the '*' of f should be reached by f's test only"
    assert auto_mutants.tests_for(add, cmap) == ["t_g"], "the '+' of g should be reached by g's test only"
    assert auto_mutants.tests_for(const, cmap) == ["t_f", "t_g"], "K = 2 (run at import) should reach every test of p.py"


def test_round_robin_spreads_the_run_order_over_files(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import auto_mutants

    items = [(ops.Site(p, i, i + 1, "arith", "+", "-", 1, 1, 1), []) for p in ("a", "b") for i in range(3)]
    items += [(ops.Site("c", 0, 1, "arith", "+", "-", 1, 1, 1), [])]
    order = [(s.path, s.start) for s, _ in auto_mutants.round_robin(items)]
    want = [("a", 0), ("b", 0), ("c", 0), ("a", 1), ("b", 1), ("a", 2), ("b", 2)]
    assert order == want, f"run order {order}, but should be {want}"


def test_the_map_measures_every_directory_the_sweep_mutates():
    """A map built for files outside the default globs measures their directories too, and is
    cached under another key than the default map (a keras-only map knows no tf.data line)."""
    import auto_mutants
    import automut_coverage

    files = ["simdist/keras/callbacks/history.py", "simdist/runtime/data/counting.py", "simdist/tf/train.py"]
    include = auto_mutants.coverage_include(files)
    assert include[:len(automut_coverage.TRAINING_INCLUDE)] == automut_coverage.TRAINING_INCLUDE, include
    assert set(include[len(automut_coverage.TRAINING_INCLUDE):]) == {"simdist/runtime/data/*", "simdist/tf/*"}, include
    assert auto_mutants.coverage_include(files[:1]) == automut_coverage.TRAINING_INCLUDE
    assert automut_coverage.map_key(include) != automut_coverage.map_key(), "the wider map reuses the default's key"
