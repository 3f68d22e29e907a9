"""The worked third-party backend of docs/conformance.md, for real: the example package under
examples/partial_backend is pip-installed (into a temporary directory) and the suite runs it by
its entry point name, `--backend partial`, with the xfail file the package ships."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "partial_backend"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("site")
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                           "--no-index", "--target", str(target), str(EXAMPLE)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"pip install of {EXAMPLE} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    eps = list(target.glob("simdist_partial_backend-*.dist-info/entry_points.txt"))
    assert eps and "partial = partial_backend.backend:PartialBackend" in eps[0].read_text(), \
        f"no simdist.backends entry point installed in {target}: {[p.name for p in target.iterdir()]}"
    return target


SUITE = ROOT / "simdist" / "conformance" / "suite"


def _bounded_modules() -> list[str]:
    """The suite modules the example's xfail file names, and one that needs a capability the
    example lacks: every assertion below is decided by them, in a few of the suite's minutes."""
    named = re.findall(r"^(test_\w+\.py)::", (EXAMPLE / "partial_backend" / "xfails.txt").read_text(), flags=re.M)
    return sorted(set(named) | {"test_multi_worker_mirrored.py"})


# The whole suite takes minutes (each of the default run's four full-suite runs is one of its longest
# tests); the default run takes the modules that decide the assertions, `-m slow` the whole suite.
@pytest.mark.parametrize("scope", ["bounded", pytest.param("whole", marks=pytest.mark.slow)])
def test_partial_backend_runs_by_its_entry_point_name(installed, tmp_path, scope):
    report = tmp_path / "partial.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(installed), str(ROOT)]))
    keep = _bounded_modules()
    assert len(keep) >= 5 and all((SUITE / m).exists() for m in keep), f"bounded selection {keep}"
    ignore = [f"--ignore={p}" for p in sorted(SUITE.glob("test_*.py")) if p.name not in keep] if scope == "bounded" else []
    proc = subprocess.run([sys.executable, "-m", "simdist", "conformance", "--backend", "partial",
                           "--report", str(report), "--profile", "ci", "--hypothesis-seed", "7", "-q",
                           *(["--", *ignore] if ignore else [])],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert report.exists(), proc.stdout[-3000:] + proc.stderr[-3000:]
    r = json.loads(report.read_text())
    assert proc.returncode == 0, f"`simdist conformance --backend partial` exited {proc.returncode}:\n{proc.stdout[-5000:]}"
    assert r["backend"]["name"] == "partial" and r["backend"]["spec"] == "partial", r["backend"]
    assert Path(r["xfail_file"]).name == "xfails.txt" and "partial_backend" in r["xfail_file"], (
        f"the run used xfail file {r['xfail_file']!r}, but should use the one the package ships")
    counts = r["summary"]["tests"]
    assert counts.get("failed", 0) == 0 and counts.get("passed", 0) > 100, counts
    xfailed = [t for t in r["tests"] if t["outcome"] == "xfailed"]
    gather = [t for t in xfailed if "Strategy.gather is not implemented yet" in t["message"]]
    assert len(gather) >= 9, f"expected the missing Strategy.gather to show as known deviations, got {len(gather)}"
    skips = {t["message"] for t in r["tests"] if t["outcome"] == "skipped"}
    assert any("no CentralStorageStrategy" in s for s in skips), sorted(skips)[:10]
    assert any("lacks capability multi_worker" in s for s in skips), sorted(skips)[:10]
    assert r["unused_xfails"] == [], f"stale entries in the example's xfail file: {r['unused_xfails']}"
