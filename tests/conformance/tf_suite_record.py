"""Which conformance-suite modules CI runs against real TensorFlow, from a record of the last full run.

The suite's run against TF 2.21 checks the suite, not simdist: it shows that each test's expectation is
what TF does. TF's answers do not change while a module and what it uses stay the same, so CI needs to
run live only the modules that changed since the record (tests/goldens/conformance-tensorflow.json:
each module's source stamp and its outcome counts from the last run that covered it), plus a bounded
slice of the unchanged ones, as the differential goldens do (docs/architecture.md, "Where the tests
live"). `python -m pytest tests/conformance/test_conformance_reports.py --tf-live all` runs every
module and rewrites the record; `python tests/conformance/tf_suite_record.py record [MODULE ...]` runs only the
named (by default the stale) modules against TF and records them, and `... merge` resolves a git merge conflict in the
record by keeping, per module, the side holding its current stamp; a stale record fails tests/test_goldens_current.py's companion check
(test_conformance_tf_record_is_current) so the record is kept with the suite.

A module's stamp covers its source, the suite modules it imports (test modules and the suite's
helper modules, such as a recorded reference's reader, followed transitively) and the suite's data files a
helper names (its `.json.gz` recording), every file of simdist/conformance outside the suite directory and
the suite's conftest and `__init__` (the plugin, the assertions and tolerances, the TF backend adapter, TF's
known-deviation file, the training grid: a change there re-runs everything) but the clause table, the
report's and matrix's formatting and the other backends' known-deviation files (simdist.txt: a TF run never
reads it), and the installed TF and Keras releases. (Until 2026-12-01 every suite
helper was in the shared part, so a new helper family made every module stale.)
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "simdist" / "conformance"
SUITE = CONFORMANCE / "suite"
RECORD = ROOT / "tests" / "goldens" / "conformance-tensorflow.json"
_SOURCES = (".py", ".txt", ".gz", ".json", ".toml")   # (not caches, not build products)
# files that cannot change what a test does against TF: the clause table's ids and texts (a marker
# naming a clause that is gone fails the simdist run's collection too), the report's and the matrix's
# formatting; leaving them out keeps a new clause from re-running the whole suite against TF
_NOT_OUTCOMES = ("clauses.py", "report.py", "matrix.py")
# About one unchanged module in SLICE_EVERY runs live anyway (8 until 2026-12-01: 187 s, the longest test; 16 until
# 2026-12-02, when the default run reached 918 s). Which ones is fixed by the module's name (`in_slice`), not by its
# place in the sorted list: a positional slice moved whenever a module was added, so each new module changed what
# the default run paid (on 2026-12-05 it moved onto test_rargs.py, 148 s of CPU for the slice; the name-fixed slice
# of that day's 313 modules, 9 modules, took 24 s).
SLICE_EVERY = 32
_IMPORT = re.compile(r"^\s*(?:from\s+(?:simdist\.conformance\.suite\.|\.)?(test_\w+)\s+import|import\s+(test_\w+))", re.M)
# `from simdist.conformance.suite import a as x, b` and `from simdist.conformance.suite.a import f`
_FROM_SUITE = re.compile(r"^[ \t]*from[ \t]+simdist\.conformance\.suite(?:\.(\w+))?[ \t]+import[ \t]+(\([^)]*\)|[\w \t,]+)", re.M)
_DATA_NAME = re.compile(r"[\"']([\w.-]+\.(?:json\.gz|json|txt|gz))[\"']")
_SHARED_SUITE = ("conftest.py", "__init__.py")


def modules() -> list[str]:
    """The suite's test modules, by file name, sorted."""
    return sorted(p.name for p in SUITE.glob("test_*.py"))


def _releases() -> str:
    import importlib.metadata as md
    out = []
    for dist in ("tensorflow-cpu", "tensorflow", "keras"):
        try:
            out.append(f"{dist}=={md.version(dist)}")
        except md.PackageNotFoundError:
            pass
    return ",".join(out)


def _shared_digest() -> bytes:
    digest = hashlib.sha256(_releases().encode())
    for path in sorted(p for p in CONFORMANCE.rglob("*") if p.is_file() and p.suffix in _SOURCES
                       and not any(part == "__pycache__" or part.startswith(".") for part in p.parts)
                       and not (p.parent == SUITE and p.name not in _SHARED_SUITE)
                       and not (p.parent == CONFORMANCE and p.name in _NOT_OUTCOMES)
                       and not (p.parent.name == "xfails" and p.name != "tensorflow.txt")):
        digest.update(path.relative_to(CONFORMANCE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.digest()


def _closure(name: str, sources: dict[str, bytes]) -> list[str]:
    """The suite files module `name` uses, itself first, in the order they are found."""
    seen: list[str] = []
    todo = [name]
    while todo:
        cur = todo.pop(0)
        if cur in seen or cur not in sources:
            continue
        seen.append(cur)
        if cur.endswith(".py"):
            todo.extend(_uses(sources[cur].decode()))
    return seen


def suite_sources() -> dict[str, bytes]:
    """The suite directory's files a module's stamp may take: test modules, helpers and recordings."""
    # (a recorder, `*_record.py`, is a script a person runs to write a recording; no test runs it, and the
    # recording it writes is in the stamp of every module that reads it)
    return {p.name: p.read_bytes() for p in sorted(SUITE.iterdir())
            if p.is_file() and p.suffix in _SOURCES and p.name not in _SHARED_SUITE
            and not p.name.endswith("_record.py")}


def stamps() -> dict[str, str]:
    """Each suite module's stamp (see the module docstring)."""
    sources = suite_sources()
    closures = {name: _closure(name, sources) for name in modules()}
    reached = {f for files in closures.values() for f in files}
    # a suite file no test module is seen to use (imported some way _uses does not read, or used by
    # name at run time) may still change what a test does: it counts for every module
    unreached = sorted(f for f in sources if f not in reached)
    shared_digest = hashlib.sha256(_shared_digest())
    for f in unreached:
        shared_digest.update(f.encode() + b"\0" + sources[f] + b"\0")
    shared = shared_digest.digest()
    out = {}
    for name, files in closures.items():
        digest = hashlib.sha256(shared)
        for cur in files:
            digest.update(cur.encode() + b"\0" + sources[cur] + b"\0")
        out[name] = digest.hexdigest()
    return out


def _uses(text: str) -> list[str]:
    """The suite files a suite module's source uses: the modules it imports from the suite, and the
    data files it names."""
    used = {f"{a or b}.py" for a, b in _IMPORT.findall(text)}
    for sub, names in _FROM_SUITE.findall(text):
        if sub:
            used.add(f"{sub}.py")
        else:
            used.update(f"{n.split()[0]}.py" for n in names.strip("()").replace("\n", " ").split(",") if n.strip())
    used.update(_DATA_NAME.findall(text))
    return sorted(used)


def load() -> dict[str, Any]:
    return json.loads(RECORD.read_text()) if RECORD.exists() else {}


def stale(record: dict[str, Any], current: dict[str, str]) -> list[str]:
    """The modules the record does not hold at their current stamp."""
    return [m for m in sorted(current) if record.get(m, {}).get("stamp") != current[m]]


def live_selection(record: dict[str, Any], current: dict[str, str], mode: str) -> list[str]:
    """The modules to run against TF: every one (mode "all"), none ("none"), or the stale ones and
    the unchanged ones `in_slice` picks, about one in SLICE_EVERY ("slice")."""
    if mode == "all":
        return sorted(current)
    if mode == "none":
        return []
    old = stale(record, current)
    return sorted(old + [m for m in sorted(current) if m not in old and in_slice(m)])


def in_slice(module: str) -> bool:
    """Whether an unchanged module runs live in the slice: fixed by its name, so adding a module leaves the others'
    membership alone."""
    return int(hashlib.sha256(module.encode()).hexdigest(), 16) % SLICE_EVERY == 0


def outcomes(report: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Outcome counts per module of a suite report."""
    out: dict[str, dict[str, int]] = {}
    for test in report["tests"]:
        counts = out.setdefault(test["nodeid"].split("::")[0].rsplit("/", 1)[-1], {})
        counts[test["outcome"]] = counts.get(test["outcome"], 0) + 1
    return out


def update(record: dict[str, Any], current: dict[str, str], ran: list[str], report: dict[str, Any]) -> dict[str, Any]:
    """The record with the modules of a passing run at their current stamps (and modules that no
    longer exist dropped; a module added while the run went on, absent from `current`, keeps its entry)."""
    counts = outcomes(report)
    new = {m: v for m, v in record.items() if m in current or (SUITE / m).is_file()}
    for m in ran:
        new[m] = {"stamp": current[m], "outcomes": dict(sorted(counts.get(m, {}).items()))}
    return dict(sorted(new.items()))


def save(record: dict[str, Any]) -> None:
    RECORD.parent.mkdir(exist_ok=True)
    RECORD.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


def record_modules(names: list[str]) -> int:
    """Run `names` (suite module file names; every stale one if none is given) against real TF under the "ci" profile
    and, if the run passes, bring their record entries to the current stamps. Returns the run's exit code."""
    import subprocess
    import sys
    import tempfile
    current = stamps()
    names = sorted(names or stale(load(), current))
    unknown = [n for n in names if n not in current]
    if unknown:
        raise SystemExit(f"not suite modules: {unknown} (names are file names under {SUITE.relative_to(ROOT)})")
    if not names:
        print("the record is current: nothing to run")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        ignore = [f"--ignore={SUITE / m}" for m in sorted(current) if m not in names]
        code = subprocess.call([sys.executable, "-m", "simdist", "conformance", "--backend", "tensorflow", "--profile",
                                "ci", "--report", str(report), "-q", "--", *ignore], cwd=tmp)
        if code != 0:
            print(f"the TF run exited {code}: the record is left as it was")
            return code
        data = json.loads(report.read_text())
    save(update(load(), current, names, data))   # (the stamps the run saw: a module edited meanwhile stays stale)
    print(f"recorded {len(names)} module(s): {', '.join(names)}")
    return 0


def merge_conflict() -> None:
    """Resolve a merge conflict in the record: per module, the side (ours or theirs, from git's index stages) whose
    entry holds the module's current stamp; modules neither side holds current are left out (stale: record them)."""
    import subprocess
    rel = RECORD.relative_to(ROOT).as_posix()
    sides = [json.loads(subprocess.run(["git", "show", f":{stage}:{rel}"], cwd=ROOT, capture_output=True, text=True,
                                       check=True).stdout) for stage in (2, 3)]
    current = stamps()
    out = {m: side[m] for m in current for side in reversed(sides) if side.get(m, {}).get("stamp") == current[m]}
    save(dict(sorted(out.items())))
    left = stale(out, current)
    print(f"merged: {len(out)} current entries; stale, to record: {left or 'none'}")


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="The suite's TF record: `record [MODULE ...]` runs modules (default: the "
                                             "stale ones) against TF and records them; `merge` resolves a git merge "
                                             "conflict in the record; `stale` lists the stale modules.")
    ap.add_argument("command", choices=("record", "merge", "stale"))
    ap.add_argument("modules", nargs="*")
    a = ap.parse_args()
    if a.command == "record":
        raise SystemExit(record_modules(a.modules))
    if a.command == "merge":
        merge_conflict()
    else:
        print("\n".join(stale(load(), stamps())) or "none stale")
