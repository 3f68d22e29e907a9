"""The coverage map of benchmarks/auto_mutants.py: source line -> the conformance-suite tests that run it.

The simdist suite runs once under coverage.py (`python -m coverage run`), with a pytest plugin
that switches coverage's dynamic context to each test's node id before the test runs (the
`--cov-context=test` idea of pytest-cov, without that dependency). Lines run while importing
or collecting land in the empty context. The map is cached on disk under .cache/automut/,
keyed by the hash of every simdist source file (a change anywhere can change what a test runs).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "automut"

#: Loaded into the suite's pytest by `coverage run -m pytest ... -p automut_context`.
CONTEXT_PLUGIN = '''"""benchmarks/automut_coverage.py: each test's lines under its node id."""
import coverage
import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    cov = coverage.Coverage.current()
    if cov is not None:
        cov.switch_context(item.nodeid)
    yield
    if cov is not None:
        cov.switch_context("")
'''

#: The training layer (issue 29): what coverage measures by default.
TRAINING_INCLUDE = ("simdist/keras/*", "simdist/runtime/autodiff/*", "simdist/runtime/ops/*")


def source_hash(root: Path = ROOT) -> str:
    """SHA-256 over every simdist .py file's path and bytes, in sorted path order."""
    h = hashlib.sha256()
    for p in sorted((root / "simdist").rglob("*.py")):
        h.update(p.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def suite_argv(suite_dir: Path, seed: str = "0") -> list[str]:
    """pytest arguments that run the suite on simdist as `simdist conformance` does (shared builder)."""
    import argparse

    from simdist.conformance.cli import pytest_argv

    ns = argparse.Namespace(backend="simdist", profile="default", report=None, junit=None, markdown=None,
                            xfails=None, hypothesis_seed=seed, keyword=None, max_examples=None, quiet=1,
                            pytest_args=[])
    argv = pytest_argv(ns)
    assert Path(argv[0]).name == "suite", argv[:3]
    argv[0] = str(suite_dir)
    return [a if not a.startswith("--rootdir=") else f"--rootdir={suite_dir.parent}" for a in argv]


def map_key(include: tuple[str, ...] = TRAINING_INCLUDE) -> str:
    """The map's cache key: the source hash, plus a hash of the measured globs when they are not
    the default (a map only knows the files it measured)."""
    key = source_hash()
    if tuple(include) != TRAINING_INCLUDE:
        key += "-" + hashlib.sha256("\0".join(sorted(set(include))).encode()).hexdigest()[:8]
    return key


def build(include: tuple[str, ...] = TRAINING_INCLUDE, seed: str = "0", timeout: float = 7200.0) -> Path:
    """Run the suite under coverage once, measuring the files the `include` globs match; returns
    the map's JSON path (cached by source hash and globs)."""
    key = map_key(include)
    out = CACHE / f"coverage-{key}.json"
    if out.exists():
        return out
    CACHE.mkdir(parents=True, exist_ok=True)
    data = CACHE / f"coverage-{key}.sqlite"
    with tempfile.TemporaryDirectory(prefix="automut-cov-") as tmp:
        Path(tmp, "automut_context.py").write_text(CONTEXT_PLUGIN, encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), tmp]))
        env.pop("SIMDIST_CONFORMANCE_BACKEND", None)
        inc = ",".join(str(ROOT / g) for g in include)
        cmd = [sys.executable, "-m", "coverage", "run", f"--data-file={data}", f"--include={inc}", "-m", "pytest",
               *suite_argv(ROOT / "simdist" / "conformance" / "suite", seed), "-p", "automut_context", "-W", "ignore"]
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    tail = (p.stdout + p.stderr).strip().splitlines()[-3:]
    if p.returncode != 0:
        raise SystemExit(f"the unmutated suite under coverage did not pass (exit {p.returncode}): {' | '.join(tail)}")
    out.write_text(json.dumps(to_map(data), sort_keys=True), encoding="utf-8")
    return out


def to_map(data_file: Path) -> dict:
    """{"tests": [node ids], "lines": {relpath: {line: [test indices]}}, "imported": {relpath: [lines]}}.
    `imported`: lines run only outside any test (imports, collection, module-level code)."""
    import coverage

    cd = coverage.CoverageData(basename=str(data_file))
    cd.read()
    tests = sorted(c for c in cd.measured_contexts() if c)
    index = {t: i for i, t in enumerate(tests)}
    lines: dict[str, dict[str, list[int]]] = {}
    imported: dict[str, list[int]] = {}
    for f in sorted(cd.measured_files()):
        rel = Path(f).resolve().relative_to(ROOT).as_posix()
        per: dict[str, list[int]] = {}
        only_import = []
        for ln, ctxs in sorted(cd.contexts_by_lineno(f).items()):
            ids = sorted(index[c] for c in ctxs if c)
            if ids:
                per[str(ln)] = ids
            else:
                only_import.append(ln)
        lines[rel] = per
        imported[rel] = only_import
    return {"tests": tests, "lines": lines, "imported": imported}


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))
