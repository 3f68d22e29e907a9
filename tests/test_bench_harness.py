"""The PS benchmark measures this checkout's simdist, whatever the current directory and the
interpreter's path hold (an installed simdist, another checkout, or none)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def bench_ps(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """benchmarks/bench_ps.py imported with a sys.path that does not reach this checkout (as when
    the benchmark runs without PYTHONPATH), from another directory."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    here = {str(ROOT), "", "."}
    monkeypatch.setattr(sys, "path", [p for p in sys.path if os.path.abspath(p or ".") != str(ROOT) and p not in here])
    monkeypatch.chdir(tmp_path)
    sys.modules.pop("bench_ps", None)
    import bench_ps
    yield bench_ps
    sys.modules.pop("bench_ps", None)


def _checkout(module_file: str) -> Path:
    return Path(module_file).resolve().parents[1]


def test_timing_only_job_imports_this_checkout(bench_ps) -> None:
    r = bench_ps.timing_only(4, 2, 3)
    assert r["completed"] == 3, f"expected the 3 synthetic closures completed, got {r['completed']}"
    assert _checkout(r["simdist"]) == ROOT, f"timing-only job imported simdist from {r['simdist']}, expected {ROOT}"


def test_small_job_imports_this_checkout(bench_ps) -> None:
    r = bench_ps.run_job("simdist", 2)
    assert r["w00"] == 3.0, f"expected w[0,0] = 3 after the warm-up and 2 closures, got {r['w00']}"
    assert _checkout(r["simdist"]) == ROOT, f"small job imported simdist from {r['simdist']}, expected {ROOT}"
