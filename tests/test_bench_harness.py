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


def test_benchmarks_say_which_simulator_build_they_measure(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every benchmark prints whether the simulator ran compiled or as pure Python (and why): the
    same answer simdist.sim._native gives in this checkout."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import default_env
    from simdist.sim import _native

    state = _native.state()
    said = default_env.simulator_build()
    want = ("compiled (mypyc)" if state["compiled"] else "pure Python") + ": "
    assert said.startswith(want), f"simulator_build()={said!r}, but should start with {want!r} ({state})"
    monkeypatch.setenv("SIMDIST_PURE_PYTHON", "1")
    said = default_env.simulator_build()
    if state["compiled"] or "no compiled build" not in state["reason"]:
        # (and the oneDNN-order FMA kernels, which the same variable makes pure: benchmarks/default_env.py)
        assert said == ("pure Python: SIMDIST_PURE_PYTHON is set; oneDNN-order FMA kernels pure Python: "
                        "SIMDIST_PURE_PYTHON is set"), \
            f"with SIMDIST_PURE_PYTHON=1, simulator_build()={said!r}, but should say pure Python (the simulator and " \
            "the FMA kernels) because it is set"
    else:
        assert said.startswith("pure Python"), f"with no build, simulator_build()={said!r}, but should say pure Python"
