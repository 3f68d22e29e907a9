"""The simulator's layering rules, checked on the source: one clock module owns SimPy's private
event heap and reads SimPy's private state; schedules built on the simulator (collectives, the
worker service, the PS coordinator, the scenario runner) use the engine's public API; the scenario
runner patches no coordinator method."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "simdist"


def _sources() -> list[tuple[str, str]]:
    return [(str(p.relative_to(ROOT.parent)), p.read_text()) for p in sorted(ROOT.rglob("*.py"))]


def test_only_the_clock_touches_simpys_private_heap():
    bad = [f"{name}:{text[:m.start()].count(chr(10)) + 1}: {m.group(0)}"
           for name, text in _sources() if not name.endswith("sim/clock.py")
           for m in re.finditer(r"env\._queue|\b_eid\b", text)]
    assert not bad, "SimPy's heap (env._queue, _eid) used outside simdist/sim/clock.py:\n" + "\n".join(bad)


def test_only_the_clock_reads_simpys_private_state():
    """SimPy's clock (``env._now``), its active process, and an event's private value and state
    (``PENDING``) are read in simdist/sim/clock.py only; everyone else uses `Clock.now`,
    ``env.now``, ``env.active_process`` or `clock.Signal`."""
    pat = re.compile(r"\benv\._\w+|\._now\b|\b_active_proc\b|\bPENDING\b")
    bad = [f"{name}:{text[:m.start()].count(chr(10)) + 1}: {m.group(0)}"
           for name, text in _sources() if not name.endswith("sim/clock.py")
           for m in pat.finditer(text)]
    assert not bad, "SimPy's private state used outside simdist/sim/clock.py:\n" + "\n".join(bad)


def test_the_worker_service_is_the_simulators():
    """The simulated workers and their faults (sim/workers.py, sim/preemption.py) import nothing
    above the simulator: synchronous multi-worker strategies reuse them as the PS coordinator does."""
    for mod in ("workers", "preemption"):
        text = (ROOT / "sim" / f"{mod}.py").read_text()
        ups = re.findall(r"^\s*(?:from|import) (simdist\.(?!sim\b)[\w.]+)", text, re.M)
        assert not ups, f"sim/{mod}.py imports {ups}: the worker service must not depend on the layers above"


def test_nothing_outside_the_engine_calls_its_privates():
    pat = re.compile(r"\bsim\.(_kernel|_start_flow|_wake_at|_at|_net|_closed|_pid|_tid|_collectives)\b")
    bad = [f"{name}:{text[:m.start()].count(chr(10)) + 1}: {m.group(0)}"
           for name, text in _sources() if not name.endswith("sim/engine.py")
           for m in pat.finditer(text)]
    assert not bad, "engine privates used outside simdist/sim/engine.py:\n" + "\n".join(bad)


def test_the_scenario_runner_patches_no_coordinator_method():
    text = (ROOT / "scenario" / "runner.py").read_text()
    bad = re.findall(r"coord\.\w+\s*=(?!=)", text)
    assert not bad, f"scenario/runner.py assigns coordinator attributes: {bad}"
