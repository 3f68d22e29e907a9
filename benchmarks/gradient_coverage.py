"""Line and branch coverage of op gradients and autodiff by the conformance suite (simdist backend).

    python benchmarks/gradient_coverage.py run DATA [-k EXPR]       # the suite under coverage.py --branch
    python benchmarks/gradient_coverage.py report DATA [--json OUT] [--list N]

`run` runs the conformance suite on simdist (the pytest arguments of `simdist conformance`,
benchmarks/automut_coverage.py's `suite_argv`) under `coverage run --branch`, measuring
simdist/runtime/autodiff/*.py, simdist/runtime/ops/*.py and simdist/keras/{activations,
initializers,regularizers,random}.py into the data file DATA. `report` prints, per measured file,
statements and branches covered (autodiff and keras files whole; ops files over their gradient
functions only), then every gradient function not fully covered, with its missed lines and
branches (`line->dest`, dest -1 an exit). A gradient function is a function registered as an op's
gradient (`registry.registered_ops()`'s `.grad`, nested closures included, LookupError stubs
excluded) or a module-level function of an ops module whose name contains "grad" (the helpers
the rules share: unbroadcast's callers, `_reduce_grad_shape`, ...). Its lines are its `def`'s
source span. The report is sorted (deterministic for one data file).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

WHOLE = ("simdist/runtime/autodiff/*.py", "simdist/keras/activations.py", "simdist/keras/initializers.py",
         "simdist/keras/regularizers.py", "simdist/keras/random.py")
GRAD_FILES = "simdist/runtime/ops/*.py"
#: gradient functions that only raise TF's LookupError (no gradient in TF 2.21): nothing to cover
_STUBS = ("no_tf_gradient.<locals>.grad", "_none.<locals>.grad_fn", "NO_GRADIENT")


def run(data: Path, keyword: str | None) -> int:
    """The suite on simdist under coverage.py with branch measurement; returns pytest's exit status."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from automut_coverage import suite_argv
    argv = suite_argv(ROOT / "simdist" / "conformance" / "suite")
    if keyword:
        argv += ["-k", keyword]
    inc = ",".join(str(ROOT / g) for g in (*WHOLE, GRAD_FILES))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("SIMDIST_CONFORMANCE_BACKEND", None)
    cmd = [sys.executable, "-m", "coverage", "run", "--branch", f"--data-file={data}", f"--include={inc}",
           "-m", "pytest", *argv, "-W", "ignore"]
    return subprocess.run(cmd, cwd=ROOT, env=env).returncode


def gradient_spans() -> dict[str, list[tuple[str, int, int]]]:
    """{relative file: [(qualified name, first line, last line)]} of the gradient functions, sorted."""
    import simdist.tf  # noqa: F401 - registers every op
    from simdist.runtime.ops import registry
    spans: dict[str, set[tuple[str, int, int]]] = {}

    def add(fn: Any) -> None:
        fn = inspect.unwrap(getattr(fn, "func", fn))
        code = getattr(fn, "__code__", None)
        if code is None or fn.__qualname__ in _STUBS:
            return
        try:
            rel = Path(code.co_filename).resolve().relative_to(ROOT).as_posix()
        except ValueError:
            return
        if not rel.startswith("simdist/runtime/ops/"):
            return
        lines, first = inspect.getsourcelines(fn)
        spans.setdefault(rel, set()).add((fn.__qualname__, first, first + len(lines) - 1))

    for op in registry.registered_ops():
        if callable(op.grad) and op.grad is not registry.NO_GRADIENT:
            add(op.grad)
    for path in sorted((ROOT / "simdist/runtime/ops").glob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and "grad" in node.name.lower():
                spans.setdefault(rel, set()).add((node.name, node.lineno, node.end_lineno or node.lineno))
    # one span per function (a registered closure and its factory's def may both be listed: keep both,
    # overlapping spans are counted once per file below)
    out = {}
    for k, v in sorted(spans.items()):   # a decorated def is listed from its decorator and its def line: once
        best: dict[tuple[str, int], tuple[str, int, int]] = {}
        for s in sorted(v, key=lambda s: (s[1], s[0])):
            best.setdefault((s[0], s[2]), s)
        out[k] = sorted(best.values(), key=lambda s: (s[1], s[0]))
    return out


def _analysis(cov: Any, path: Path) -> tuple[set[int], set[int], set[tuple[int, int]], set[tuple[int, int]]]:
    """(statements, missing statements, branch arcs, missing branch arcs) of one file."""
    a = cov._analyze(str(path))
    branches = {(src, dst) for src, dsts in a.executed_branch_arcs().items() for dst in dsts}
    missing_br = {(src, dst) for src, dsts in a.missing_branch_arcs().items() for dst in dsts}
    return set(a.statements), set(a.missing), branches | missing_br, missing_br


def report(data: Path) -> dict:
    """{"files": {rel: {...}}, "functions": [...]} of one coverage data file."""
    import coverage
    cov = coverage.Coverage(data_file=str(data))
    cov.load()
    measured = {Path(f).resolve().relative_to(ROOT).as_posix() for f in cov.get_data().measured_files()}
    files: dict[str, dict] = {}
    functions: list[dict] = []
    for pattern in WHOLE:
        for path in sorted(ROOT.glob(pattern)):
            rel = path.relative_to(ROOT).as_posix()
            if rel not in measured:
                continue
            st, miss, br, mbr = _analysis(cov, path)
            files[rel] = {"statements": len(st), "covered": len(st - miss), "branches": len(br),
                          "branches_covered": len(br - mbr)}
    for rel, spans in gradient_spans().items():
        path = ROOT / rel
        if rel not in measured:
            st, miss, br, mbr = set(), set(), set(), set()
            a_st = {ln for _, lo, hi in spans for ln in range(lo, hi + 1)}
            st, miss = a_st, a_st
        else:
            st, miss, br, mbr = _analysis(cov, path)
        text = path.read_text(encoding="utf-8").splitlines()
        in_any = {ln for _, lo, hi in spans for ln in range(lo, hi + 1)}
        fst, fbr = st & in_any, {b for b in br if b[0] in in_any}
        files[rel] = {"statements": len(fst), "covered": len(fst - miss), "branches": len(fbr),
                      "branches_covered": len(fbr - mbr), "gradient_functions": len(spans)}
        for name, lo, hi in spans:
            span = set(range(lo, hi + 1))
            s, b = st & span, {x for x in br if x[0] in span}
            def_line = next((ln for ln in range(lo, hi + 1) if text[ln - 1].lstrip().startswith("def ")), lo)
            functions.append({"file": rel, "function": name, "line": lo, "statements": len(s),
                              "ran": bool({ln for ln in s - miss if ln > def_line}),
                              "missing_lines": sorted(s & miss), "branches": len(b),
                              "missing_branches": sorted(b & mbr)})
    return {"files": dict(sorted(files.items())), "functions": functions}


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}%" if b else "-"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("command", choices=("run", "report"))
    p.add_argument("data", type=Path)
    p.add_argument("-k", dest="keyword")
    p.add_argument("--json", type=Path)
    p.add_argument("--list", type=int, default=400, help="at most this many partly covered functions listed")
    ns = p.parse_args(argv)
    if ns.command == "run":
        return run(ns.data.resolve(), ns.keyword)
    rep = report(ns.data.resolve())
    if ns.json:
        ns.json.write_text(json.dumps(rep, indent=1, sort_keys=True), encoding="utf-8")
    print(f"{'file':48} {'stmts':>7} {'lines':>7} {'branches':>9} {'branch%':>8} {'grad fns':>8}")
    for rel, f in rep["files"].items():
        print(f"{rel:48} {f['statements']:7} {_pct(f['covered'], f['statements']):>7} {f['branches']:9} "
              f"{_pct(f['branches_covered'], f['branches']):>8} {f.get('gradient_functions', ''):>8}")
    fns = rep["functions"]
    full = [f for f in fns if not f["missing_lines"] and not f["missing_branches"]]
    never = [f for f in fns if not f["ran"]]
    print(f"\ngradient functions: {len(fns)}; fully covered {len(full)}; never run {len(never)}; "
          f"partly {len(fns) - len(full) - len(never)}")
    partly = [f for f in fns if f not in full]
    for f in partly[:ns.list]:
        if not f["ran"]:
            print(f"  {f['file'].rsplit('/', 1)[1]}:{f['line']} {f['function']}: never run")
            continue
        mb = " ".join(f"{a}->{b}" for a, b in f["missing_branches"])
        print(f"  {f['file'].rsplit('/', 1)[1]}:{f['line']} {f['function']}: lines {f['missing_lines']} "
              f"branches {mb}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
