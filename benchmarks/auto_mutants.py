"""Mechanical mutation sweep: plant AST mutants in simdist, run only the suite tests that reach them.

    python benchmarks/auto_mutants.py --files 'simdist/keras/losses/*.py' [--grad-files 'simdist/runtime/ops/*.py']
                                      [--per-file 10] [--seed 0]
                                      [--budget 3600] [--timeout 120] [--ops arith,compare,...]
                                      [--map .cache/automut/coverage-HASH.json] [--only SITE_ID,...]
                                      [--json out.json] [--markdown out.md]

1. Coverage map (benchmarks/automut_coverage.py): the simdist conformance suite runs once under
   coverage.py with each test's node id as its dynamic context; the map line -> tests is cached
   in .cache/automut/ keyed by the hash of simdist's sources (`--map` reuses an older map: suite
   modules it does not know, e.g. ones added since, then run for every mutant).
2. Mutants (benchmarks/automut_ops.py): every site of every operator in the selected files;
   `--grad-files` globs select files of which only the gradient functions are mutated; sites
   on lines no suite test runs are counted as *uncovered* (listed apart: a gap too); a site
   outside every function (a module or class constant, run once at import under whichever test
   imported the module) is reached by every test that runs a line of its file; `--per-file N`
   of the covered ones are sampled per file with a generator seeded by (seed, path).
3. Each mutant is planted in a private copy of the package (the slot machinery of
   benchmarks/mutation_score.py) and only the suite tests that cover the mutated lines run
   (`pytest -x`, hypothesis seeded, no shrinking). Verdicts as in mutation_score.py: killed (a
   test failed), crashed (exit other than 0/1: import or machinery broken), timeout, survived.
   `--budget S` stops starting new mutants after S seconds (the rest are listed as not run); the
   mutants run round-robin over the files, so an early stop still spreads over all of them.

Output: a JSON of every verdict and a markdown summary (per file: mutants, killed, survived, and
each survivor with its diff line). Exit 0 always unless the input is bad (2).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import automut_coverage   # noqa: E402
import automut_ops   # noqa: E402
import mutation_score   # noqa: E402

ROOT = automut_coverage.ROOT
SUITE_REL = "simdist/conformance/suite"

#: Restricts the suite's collected items to the node ids listed in $AUTOMUT_SELECT.
_SELECT_PLUGIN = '''"""benchmarks/auto_mutants.py: run only the suite tests that cover the mutant."""
import os


def pytest_collection_modifyitems(session, config, items):
    with open(os.environ["AUTOMUT_SELECT"], encoding="utf-8") as f:
        wanted = set(f.read().split("\\n"))
    keep = [i for i in items if i.nodeid in wanted or i.nodeid.split("::")[0] in wanted]
    drop = [i for i in items if i not in keep]
    if drop:
        config.hook.pytest_deselected(items=drop)
    items[:] = keep
'''


@dataclass
class Verdict:
    id: str
    path: str
    line: int
    op: str
    old: str
    new: str
    status: str          # killed | crashed | timeout | survived | not-run
    tests: int           # suite tests selected
    seconds: float
    detail: str          # the first failing test, or the tail of the output
    diff: str            # the mutated line, before -> after


def select_files(patterns: list[str]) -> list[str]:
    """Repository-relative .py files matching any glob (fnmatch over the relative path), sorted."""
    every = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "simdist").rglob("*.py"))
    return sorted({f for f in every for g in patterns if fnmatch.fnmatch(f, g)})


def coverage_include(files: list[str]) -> tuple[str, ...]:
    """The globs the coverage map must measure: the default training ones, plus the directory of
    every file to mutate that they miss (a map measuring only keras/ would call tf.data uncovered)."""
    extra = sorted({f.rsplit("/", 1)[0] + "/*" for f in files
                    if not any(fnmatch.fnmatch(f, g) for g in automut_coverage.TRAINING_INCLUDE)})
    return automut_coverage.TRAINING_INCLUDE + tuple(extra)


def tests_for(site: automut_ops.Site, cmap: dict) -> list[str]:
    """The suite tests that may reach `site`: those that run its lines; for a site outside every
    function (a module or class constant, run once at import, under whichever test imported the
    module first) those that run any line of its file, when a test runs its own lines at all or
    the lines ran at import."""
    per = cmap["lines"].get(site.path, {})
    idx: set[int] = set()
    for ln in range(site.cover_from, site.cover_to + 1):
        idx.update(per.get(str(ln), ()))
    imported = set(cmap["imported"].get(site.path, ()))
    if site.scope == "" and (idx or any(ln in imported for ln in range(site.cover_from, site.cover_to + 1))):
        for ids in per.values():
            idx.update(ids)
    return sorted(cmap["tests"][i] for i in idx)


def new_modules(cmap: dict) -> list[str]:
    """Suite modules the map has no test of (added after it was built): they run for every mutant."""
    known = {t.split("::")[0] for t in cmap["tests"]}
    here = sorted(p.relative_to(ROOT / "simdist" / "conformance").as_posix()
                  for p in (ROOT / SUITE_REL).glob("test_*.py"))
    return [m for m in here if m not in known]


def round_robin(chosen: list[tuple[automut_ops.Site, list[str]]]) -> list[tuple[automut_ops.Site, list[str]]]:
    """The run order: each file's first mutant, then each file's second, ... (files sorted), so a
    --budget that stops the sweep early still spreads it over every file."""
    per: dict[str, list] = {}
    for item in chosen:
        per.setdefault(item[0].path, []).append(item)
    out = []
    for k in range(max((len(v) for v in per.values()), default=0)):
        out += [per[f][k] for f in sorted(per) if k < len(per[f])]
    return out


def diff_line(source: bytes, site: automut_ops.Site) -> str:
    lines = source.decode("utf-8").splitlines()
    mutated = automut_ops.apply(source, site).decode("utf-8").splitlines()
    i = site.line - 1
    return f"{lines[i].strip()}  ->  {mutated[i].strip()}"


def _run(slot: Path, tests: list[str], seed: str, timeout: float) -> tuple[str, float, str]:
    sel = slot / "automut_select.txt"
    sel.write_text("\n".join(tests), encoding="utf-8")
    files = sorted({t.split("::")[0] for t in tests})
    suite = slot / "simdist" / "conformance"
    argv = automut_coverage.suite_argv(suite / "suite", seed)
    argv = [str(suite / f) for f in files] + argv[1:]
    cmd = [sys.executable, "-m", "pytest", *argv, "-x", "-p", "simdist_mutation_plugin", "-p", "automut_select",
           "-W", "ignore"]
    env = dict(os.environ, PYTHONPATH=str(slot), AUTOMUT_SELECT=str(sel))
    env.pop("SIMDIST_CONFORMANCE_BACKEND", None)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=slot, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - t0, f"no verdict within {timeout:.0f} s"
    dt = time.monotonic() - t0
    out = p.stdout + p.stderr
    failed = [ln for ln in out.splitlines() if ln.startswith(("FAILED", "XPASS", "ERROR"))]
    if p.returncode == 0:
        return "survived", dt, ""
    if p.returncode == 1:
        return "killed", dt, (failed[0] if failed else out.strip().splitlines()[-1])[:400]
    return "crashed", dt, (failed[0] if failed else " | ".join(out.strip().splitlines()[-3:]))[:400]


def summary_markdown(verdicts: list[Verdict], uncovered: dict[str, list[int]], import_only: dict[str, int],
                     header: str) -> str:
    out = [header, "", "| file | mutants | killed | crashed | timeout | survived | not run | uncovered lines |",
           "|---|---|---|---|---|---|---|---|"]
    files = sorted({v.path for v in verdicts} | set(uncovered))
    for f in files:
        vs = [v for v in verdicts if v.path == f]
        c = {s: sum(v.status == s for v in vs) for s in ("killed", "crashed", "timeout", "survived", "not-run")}
        out.append(f"| {f} | {len(vs)} | {c['killed']} | {c['crashed']} | {c['timeout']} | {c['survived']} | "
                   f"{c['not-run']} | {len(uncovered.get(f, []))} |")
    tot = {s: sum(v.status == s for v in verdicts) for s in ("killed", "crashed", "timeout", "survived", "not-run")}
    ran = len(verdicts) - tot["not-run"]
    det = tot["killed"] + tot["crashed"] + tot["timeout"]
    out.append(f"| **total** | {len(verdicts)} | {tot['killed']} | {tot['crashed']} | {tot['timeout']} | "
               f"{tot['survived']} | {tot['not-run']} | {sum(len(v) for v in uncovered.values())} |")
    out += ["", f"Detected {det} of {ran} run ({det / ran:.1%})." if ran else "No mutant ran.", "", "## Survivors", ""]
    for v in verdicts:
        if v.status == "survived":
            out.append(f"- `{v.id}` [{v.op}] ({v.tests} tests): `{v.diff}`")
    out += ["", "## Uncovered lines (no suite test runs them)", ""]
    for f in sorted(uncovered):
        if uncovered[f]:
            out.append(f"- {f}: {', '.join(map(str, uncovered[f]))}")
    if import_only:
        out += ["", "## Import-only sites (run at import only; not sampled)", ""]
        out += [f"- {f}: {n}" for f, n in sorted(import_only.items()) if n]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", action="append", default=[], help="glob over repo-relative paths (repeatable)")
    ap.add_argument("--grad-files", action="append", default=[],
                    help="glob: in these files mutate gradient functions only (@RegisterGradient, *grad*)")
    ap.add_argument("--per-file", type=int, default=10, help="mutants sampled per file (default 10)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", type=float, default=None, help="seconds after which no new mutant starts")
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds per mutant (default 180)")
    ap.add_argument("--ops", help="comma-separated operators (default all): " + ",".join(automut_ops.OPERATORS))
    ap.add_argument("--map", help="coverage map JSON to use instead of building/looking up the current one")
    ap.add_argument("--only", help="comma-separated site ids (path:line:op:offset) to run, ignoring sampling")
    ap.add_argument("--skip-new-modules", action="store_true",
                    help="do not run suite modules the map does not know (a 'before' sweep beside new tests)")
    ap.add_argument("--hypothesis-seed", default="0")
    ap.add_argument("--json", help="write every verdict here")
    ap.add_argument("--markdown", help="write the summary here")
    args = ap.parse_args(argv)

    ops = set(args.ops.split(",")) if args.ops else set(automut_ops.OPERATORS)
    if ops - set(automut_ops.OPERATORS):
        print(f"unknown operator(s) {sorted(ops - set(automut_ops.OPERATORS))}", file=sys.stderr)
        return 2
    files = select_files(args.files + args.grad_files)
    grad_only = set(select_files(args.grad_files)) - set(select_files(args.files))
    if not files:
        print(f"--files {args.files}: no simdist .py file matches", file=sys.stderr)
        return 2
    cmap_path = Path(args.map) if args.map else automut_coverage.build(coverage_include(files))
    cmap = automut_coverage.load(cmap_path)
    unmeasured = [f for f in files if f not in cmap["lines"] and f not in cmap["imported"]]
    if unmeasured:
        print(f"warning: the map {cmap_path.name} did not measure {len(unmeasured)} of the files (their sites count "
              f"as uncovered): {unmeasured}", file=sys.stderr, flush=True)
    extra = [] if args.skip_new_modules else new_modules(cmap)
    only = set(args.only.split(",")) if args.only else None

    chosen: list[tuple[automut_ops.Site, list[str]]] = []
    uncovered: dict[str, list[int]] = {}
    import_only: dict[str, int] = {}
    sources: dict[str, bytes] = {}
    for f in files:
        src = (ROOT / f).read_bytes()
        sources[f] = src
        imported = set(cmap["imported"].get(f, ()))
        covered, unc_lines, imp = [], set(), 0
        for s in automut_ops.sites(f, src):
            if s.op not in ops or (f in grad_only and not s.grad):
                continue
            t = tests_for(s, cmap)
            if t:
                covered.append((s, t))
            elif any(ln in imported for ln in range(s.cover_from, s.cover_to + 1)):
                imp += 1
            else:
                unc_lines.add(s.line)
        uncovered[f] = sorted(unc_lines)
        import_only[f] = imp
        if only is not None:
            chosen += [(s, t) for s, t in covered if s.id in only]
        else:
            tmap = dict(covered)
            chosen += [(s, tmap[s]) for s in automut_ops.sample([s for s, _ in covered], args.per_file, args.seed, f)]
    print(f"map {cmap_path.name}: {len(cmap['tests'])} tests; {len(files)} files, {len(chosen)} mutants; "
          f"{sum(map(len, uncovered.values()))} uncovered lines; new suite modules run for every mutant: {extra}",
          flush=True)

    verdicts: list[Verdict] = []
    tmp = Path(tempfile.mkdtemp(prefix="automut-"))
    try:
        slot = mutation_score._prepare(tmp / "slot")
        (slot / "automut_select.py").write_text(_SELECT_PLUGIN, encoding="utf-8")
        t_start = time.monotonic()
        for site, tests in round_robin(chosen):
            tests = sorted(set(tests) | set(extra))
            v = Verdict(site.id, site.path, site.line, site.op, site.old, site.new, "not-run", len(tests), 0.0, "",
                        diff_line(sources[site.path], site))
            if args.budget is None or time.monotonic() - t_start < args.budget:
                target = slot / site.path
                target.write_bytes(automut_ops.apply(sources[site.path], site))
                try:
                    v.status, v.seconds, v.detail = _run(slot, tests, args.hypothesis_seed, args.timeout)
                finally:
                    target.write_bytes(sources[site.path])
                print(f"{v.status:>9} {v.seconds:6.1f} s {len(tests):4d} tests  {site.describe()}"
                      + (f"  <- {v.detail[:160]}" if v.status in ("killed", "crashed") else ""), flush=True)
            verdicts.append(v)
        verdicts.sort(key=lambda v: (v.path, v.line, v.id))
    finally:
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)

    header = (f"# auto_mutants: {' '.join(args.files)} grad-only {' '.join(args.grad_files)}, {args.per_file} per file, seed {args.seed}, "
              f"map {cmap_path.name}")
    md = summary_markdown(verdicts, uncovered, import_only, header)
    print()
    print(md)
    if args.markdown:
        Path(args.markdown).write_text(md, encoding="utf-8")
    if args.json:
        Path(args.json).write_text(json.dumps({"files": files, "seed": args.seed, "per_file": args.per_file,
                                               "map": cmap_path.name, "uncovered": uncovered,
                                               "import_only": import_only,
                                               "verdicts": [asdict(v) for v in verdicts]}, indent=1),
                                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
