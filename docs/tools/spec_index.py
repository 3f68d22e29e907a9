"""Keep the test lists of docs/spec.md in step with the clause markers of the test suites.

Every clause of docs/spec.md has a block

    <!-- tests:reduce.partial-batch -->
    - `tests/strategies/test_reduce.py::test_partial_batch_mean` 
    <!-- /tests -->

(and, for the documentation examples, ``<!-- examples:ID --> ... <!-- /examples -->``) that this
script rewrites from what it finds in the repository:

* tests: a static scan (``ast``, nothing is imported or run) of every ``*.py`` under ``tests/``
  and ``simdist/conformance/`` for clause markers: decorators ``@pytest.mark.clause("id", ...)``,
  ``@mark.clause(...)`` or any module-level alias of ``pytest.mark.clause`` (the conformance
  suite writes ``clause = pytest.mark.clause`` then ``@clause("id", ref="tf221")``), on test
  functions, classes and methods; ``pytestmark = <marker or list of markers>`` at module or
  class level; and ``marks=`` of ``pytest.param(...)``. A ``ref=`` keyword (which reference
  the test checks: "doc", "tf221", "both") is shown after the test.
* examples: the ``# Clauses:`` line of each docs/examples/*.py header.

Usage:
    python docs/tools/spec_index.py            # rewrite docs/spec.md
    python docs/tools/spec_index.py --check    # exit 1 (with a diff) if docs/spec.md is out of date
    python docs/tools/spec_index.py --list     # print clause -> tests
"""

from __future__ import annotations

import argparse
import ast
import difflib
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "docs" / "spec.md"
SCAN_DIRS = ("tests", "simdist/conformance")
EXAMPLES_DIR = ROOT / "docs" / "examples"

CLAUSE_ID = re.compile(r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$")
INDEX_ROW = re.compile(r"^\|\s*`([a-z0-9.-]+)`\s*\|", re.M)
BLOCK = re.compile(r"<!-- (tests|examples):([a-z0-9.-]+) -->\n?(.*?)<!-- /\1 -->", re.S)
INDEX_START, INDEX_END = "<!-- clause-index -->", "<!-- /clause-index -->"


@dataclass(frozen=True, order=True)
class Marked:
    """One test (or example) carrying one clause marker."""
    path: str           # relative to the repository root, POSIX separators
    test: str           # "test_x", "TestY::test_x"; "" for an example program
    clause: str
    ref: str = ""
    line: int = 0

    @property
    def nodeid(self) -> str:
        return f"{self.path}::{self.test}" if self.test else self.path


# -- scanning ----------------------------------------------------------------------------------

def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else ""
    return ""


class _Scanner:
    def __init__(self, tree: ast.Module, path: str):
        self.path = path
        self.aliases = {"pytest.mark.clause", "mark.clause"}
        for node in tree.body:   # module-level `clause = pytest.mark.clause`
            if isinstance(node, ast.Assign) and _dotted(node.value) in self.aliases:
                self.aliases.update(_dotted(t) for t in node.targets if _dotted(t))
        self.tree = tree
        self.found: list[Marked] = []
        self.errors: list[str] = []

    def _clauses_in(self, expr: ast.AST) -> list[tuple[str, str, int]]:
        """(clause id, ref, line) of every clause marker call inside `expr`."""
        out = []
        for node in ast.walk(expr):
            if isinstance(node, ast.Call) and _dotted(node.func) in self.aliases:
                if not node.args or not isinstance(node.args[0], ast.Constant) or not isinstance(node.args[0].value, str):
                    self.errors.append(f"{self.path}:{node.lineno}: clause marker without a literal id")
                    continue
                ref = ""
                for kw in node.keywords:
                    if kw.arg == "ref" and isinstance(kw.value, ast.Constant):
                        ref = str(kw.value.value)
                out.append((node.args[0].value, ref, node.lineno))
        return out

    def _param_marks(self, fn: ast.AST) -> list[tuple[str, str, int]]:
        """Clause markers given to pytest.param(..., marks=...) in the decorators of `fn`."""
        out = []
        for dec in getattr(fn, "decorator_list", []):
            for node in ast.walk(dec):
                if isinstance(node, ast.Call) and _dotted(node.func).endswith("param"):
                    for kw in node.keywords:
                        if kw.arg == "marks":
                            out.extend(self._clauses_in(kw.value))
        return out

    @staticmethod
    def _pytestmark(body: list[ast.stmt]) -> list[ast.AST]:
        return [n.value for n in body if isinstance(n, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in n.targets)]

    def _direct(self, fn: ast.AST) -> list[tuple[str, str, int]]:
        found = []
        for dec in fn.decorator_list:
            # a decorator that IS a clause marker (not one nested in pytest.param's marks)
            if isinstance(dec, ast.Call) and _dotted(dec.func) in self.aliases:
                found.extend(self._clauses_in(dec))
        return found + self._param_marks(fn)

    def scan(self) -> list[Marked]:
        module_marks = [m for e in self._pytestmark(self.tree.body) for m in self._clauses_in(e)]
        for node in self.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                self._add(node.name, module_marks + self._direct(node))
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                class_marks = module_marks + self._direct(node) + \
                    [m for e in self._pytestmark(node.body) for m in self._clauses_in(e)]
                for sub in node.body:
                    if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and sub.name.startswith("test"):
                        self._add(f"{node.name}::{sub.name}", class_marks + self._direct(sub))
        return self.found

    def _add(self, test: str, marks: list[tuple[str, str, int]]) -> None:
        seen = set()
        for cid, ref, line in marks:
            if (cid, ref) in seen:
                continue
            seen.add((cid, ref))
            self.found.append(Marked(self.path, test, cid, ref, line))


def scan_tests(root: Path = ROOT) -> tuple[list[Marked], list[str]]:
    found, errors = [], []
    for d in SCAN_DIRS:
        for p in sorted((root / d).rglob("*.py")):
            if "__pycache__" in p.parts:
                continue
            rel = p.relative_to(root).as_posix()
            try:
                tree = ast.parse(p.read_text(encoding="utf-8"), filename=rel)
            except SyntaxError as e:
                errors.append(f"{rel}: cannot parse: {e}")
                continue
            sc = _Scanner(tree, rel)
            found.extend(sc.scan())
            errors.extend(sc.errors)
    return sorted(found), errors


def scan_examples(root: Path = ROOT) -> list[Marked]:
    """Clauses named in the `# Clauses:` header line(s) of docs/examples/*.py."""
    out = []
    for p in sorted((root / "docs" / "examples").glob("*.py")):
        if p.name.startswith("_"):
            continue
        lines = p.read_text(encoding="utf-8").splitlines()
        text = ""
        for i, line in enumerate(lines):
            if line.startswith("# Clauses:"):
                text = line[len("# Clauses:"):]
                for cont in lines[i + 1:]:          # continuation lines "#   more, ids."
                    if not cont.startswith("#   "):
                        break
                    text += " " + cont[1:]
                break
        for raw in re.split(r"[,\s]+", text):
            cid = raw.strip().rstrip(".").strip("()")
            if CLAUSE_ID.match(cid) and ("." in cid or "-" in cid):
                out.append(Marked(p.relative_to(root).as_posix(), "", cid))
    return sorted(set(out))


# -- spec.md -----------------------------------------------------------------------------------

def embedded_ids(spec_text: str) -> list[str]:
    """The clause list embedded in docs/spec.md: the rows of its clause index table."""
    if INDEX_START not in spec_text or INDEX_END not in spec_text:
        raise ValueError(f"docs/spec.md has no {INDEX_START} ... {INDEX_END} section")
    table = spec_text.split(INDEX_START, 1)[1].split(INDEX_END, 1)[0]
    return INDEX_ROW.findall(table)


def blocks(spec_text: str, kind: str) -> list[str]:
    return [m.group(2) for m in BLOCK.finditer(spec_text) if m.group(1) == kind]


def render_block(kind: str, cid: str, items: list[Marked]) -> str:
    if not items:
        body = "- _none yet_\n" if kind == "tests" else "- _none_\n"
    else:
        lines = []
        for m in items:
            suffix = f" ({m.ref})" if m.ref else ""
            lines.append(f"- `{m.nodeid}`{suffix}\n")
        body = "".join(lines)
    return f"<!-- {kind}:{cid} -->\n{body}<!-- /{kind} -->"


def render(spec_text: str, tests: list[Marked], examples: list[Marked]) -> str:
    by = {"tests": {}, "examples": {}}
    for kind, items in (("tests", tests), ("examples", examples)):
        for m in items:
            by[kind].setdefault(m.clause, []).append(m)

    def sub(m: re.Match) -> str:
        kind, cid = m.group(1), m.group(2)
        return render_block(kind, cid, by[kind].get(cid, []))

    return BLOCK.sub(sub, spec_text)


@dataclass
class Report:
    new_text: str
    problems: list[str]


def check(root: Path = ROOT, spec_path: Path = SPEC) -> Report:
    """The spec as it should be, and every inconsistency between it and the repository."""
    text = spec_path.read_text(encoding="utf-8")
    tests, errors = scan_tests(root)
    examples = scan_examples(root)
    problems = list(errors)
    ids = embedded_ids(text)
    idset = set(ids)
    if len(ids) != len(idset):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        problems.append(f"clause index lists {dup} more than once")
    for kind in ("tests", "examples"):
        have = blocks(text, kind)
        for cid in sorted(idset - set(have)):
            problems.append(f"clause {cid}: no <!-- {kind}:{cid} --> block in docs/spec.md")
        for cid in sorted(set(have) - idset):
            problems.append(f"<!-- {kind}:{cid} --> block for a clause not in the clause index")
        for cid in sorted({c for c in have if have.count(c) > 1}):
            problems.append(f"clause {cid}: more than one <!-- {kind}:{cid} --> block")
    for m in tests:
        if m.clause not in idset:
            problems.append(f"{m.nodeid} (line {m.line}): marker names unknown clause {m.clause!r}")
    for m in examples:
        if m.clause not in idset:
            problems.append(f"{m.nodeid}: header names unknown clause {m.clause!r}")
    for cid in ids:
        if not any(m.clause == cid for m in tests):
            problems.append(f"clause {cid}: no test carries its marker")
    return Report(render(text, tests, examples), problems)


def shared_clause_ids(path: Path) -> list[str]:
    """Clause IDs of the project's reference list (../shared/reference/clauses.md)."""
    return re.findall(r"^- `([a-z0-9.-]+)` —", path.read_text(encoding="utf-8"), re.M)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="do not write; exit 1 if docs/spec.md is out of date")
    ap.add_argument("--list", action="store_true", help="print clause -> tests and exit")
    ap.add_argument("--spec", type=Path, default=SPEC)
    args = ap.parse_args(argv)

    if args.list:
        tests, errors = scan_tests()
        for e in errors:
            print("error:", e, file=sys.stderr)
        by: dict[str, list[Marked]] = {}
        for m in tests:
            by.setdefault(m.clause, []).append(m)
        for cid in sorted(by):
            print(cid)
            for m in by[cid]:
                print("   ", m.nodeid, f"({m.ref})" if m.ref else "")
        return 0

    rep = check(spec_path=args.spec)
    old = args.spec.read_text(encoding="utf-8")
    for p in rep.problems:
        print("problem:", p, file=sys.stderr)
    if args.check:
        if rep.new_text != old:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), rep.new_text.splitlines(True),
                                                       "docs/spec.md", "docs/spec.md (regenerated)"))
            print("docs/spec.md is out of date: run python docs/tools/spec_index.py", file=sys.stderr)
            return 1
        return 1 if rep.problems else 0
    if rep.new_text != old:
        args.spec.write_text(rep.new_text, encoding="utf-8")
        print(f"rewrote {args.spec.relative_to(ROOT) if args.spec.is_relative_to(ROOT) else args.spec}")
    return 1 if rep.problems else 0


if __name__ == "__main__":
    sys.exit(main())
