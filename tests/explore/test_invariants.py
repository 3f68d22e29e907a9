"""The built-in invariants fail on broken accounting and unresolved RemoteValues (they are not
tautologies), runs are stopped at their limits, user checks report what they return."""

from __future__ import annotations

import copy
import time

import pytest
from scenario_helpers import ROOT

from simdist.explore import invariants as inv
from simdist.explore.limits import LimitExceeded, watch
from simdist.explore.plans import base_events
from simdist.explore.worker import Job, PlanSpec, run_plan
from simdist.runtime import errors
from simdist.scenario import load

PLANTED = ROOT / "scenarios/planted/ps_planted_violation.toml"


@pytest.fixture(scope="module")
def ps_run():
    """A real PS run with a recovered ps failure and a preemption: its metrics and closure report."""
    from simdist.scenario.runner import run
    sc = load(PLANTED, [("faults.ps_failures", [{"ps": 0, "at_time": 2.0, "downtime": 0.5}]),
                        ("faults.preemptions", [{"worker": 1, "at_time": 1.0, "downtime": 1.0}])], quick=False)
    seen = {}
    res = run(sc, observe=lambda ctx, m: seen.update(report=ctx.coord.closure_report()))
    return res.metrics, seen["report"]


def test_a_real_run_keeps_them(ps_run):
    metrics, report = ps_run
    s = metrics["summary"]
    assert s["recoveries"] == 1 and s["retries"] == 1 and s["closures_failed"] + s["closures_cancelled"] > 0
    assert inv.accounting(metrics, 200) == [] and inv.remote_values(report) == [] and inv.run_error(metrics) is None


def test_accounting_fails_when_a_function_is_lost_or_applied_twice(ps_run):
    metrics, _ = ps_run
    twice = copy.deepcopy(metrics)
    twice["coordinator"]["closures"]["completed"] += 1
    twice["coordinator"]["closures"]["scheduled"] += 1
    c, r = metrics["coordinator"]["closures"]["completed"], metrics["summary"]["redone_closures"]
    assert c == 200 + r
    assert inv.accounting(twice, 200) == [
        f"closures_completed {c + 1} != steps_completed 200 + redone_closures {r}: a function was applied more than "
        "once"]
    lost = copy.deepcopy(metrics)
    lost["coordinator"]["closures"]["pending"] = 2
    lost["coordinator"]["retries"] = 5
    msgs = inv.accounting(lost, 200)
    assert msgs[0] == "2 function(s) never ended (still queued or running when the run ended)"
    assert "retries 5 > preemptions 1" in msgs[2] and len(msgs) == 3
    short = copy.deepcopy(metrics)
    short["summary"]["steps_completed"] = 199
    assert inv.accounting(short, 200)[0] == "the run completed but steps_completed = 199 != training.steps = 200"


def test_remote_values_fail_on_unresolved_or_undocumented_outcomes():
    cancelled = errors.CancelledError(None, None, "The corresponding function is cancelled. Please reschedule "
                                                  "the function.")
    ok = [(1, "completed", 1, "READY", None), (2, "failed", 1, "READY", errors.UnavailableError(None, None, "ps down")),
          (3, "cancelled", 0, "READY", cancelled)]
    assert inv.remote_values(ok) == []
    bad = [(4, "queued", 0, "NOT_READY", None), (5, "failed", 1, "READY", KeyError("x")),
           (6, "cancelled", 0, "READY", errors.CancelledError(None, None, "went away")), (7, "completed", 0, "READY", None),
           (8, "failed", 1, "READY", None)]
    assert inv.remote_values(bad) == [
        "function #4 (queued, 0 attempt(s)): its RemoteValue is NOT_READY, never resolved",
        "function #5 (failed, 1 attempt(s)): failed with KeyError: 'x', not a tf.errors error",
        "function #6 (cancelled, 0 attempt(s)): CancelledError with an undocumented message 'went away'",
        "function #7 (completed, 0 attempt(s)): completed without ever running",
        "function #8 (failed, 1 attempt(s)): failed without an error"]


def test_run_errors_documented_or_not():
    assert inv.run_error({"status": "failed", "error": "UnavailableError: ps 1 failed"}) is None
    assert inv.run_error({"status": "failed", "error": "RunFailure: more than 100 ps failures"}) is None
    assert inv.run_error({"status": "failed", "error": "SimulationStalled: nothing left"}) == \
        "deadlock: SimulationStalled: nothing left"
    assert inv.run_error({"status": "failed", "error": "KeyError: 'x'"}) == \
        "failed with an undocumented error: KeyError: 'x'"


def test_the_watchdog_stops_a_run_past_its_simulated_or_wall_time_limit():
    clock = [0.0]
    with pytest.raises(LimitExceeded):
        with watch(60.0, 100.0, clock=lambda: clock[0]) as w:
            t0 = time.monotonic()
            while time.monotonic() - t0 < 30:      # a simulation whose clock runs away
                clock[0] += 1e-3
    assert w.reason is not None and w.reason.startswith("simulated clock passed the limit of 100 s")
    with pytest.raises(LimitExceeded):
        with watch(0.2, 1e9, clock=lambda: 5.0) as w2:
            t0 = time.monotonic()
            while time.monotonic() - t0 < 30:
                pass
    assert w2.reason == "did not end within the wall-time limit of 0.2 s (simulated clock at 5 s)"
    with watch(10.0, 1.0, clock=lambda: 0.5) as w3:
        pass
    assert w3.reason is None


def _job(**kw) -> Job:
    sc = load(PLANTED, quick=True)
    return Job(sc.text, sc.file, tuple(sc.overrides), sc.seed, base_events(sc.config), "keep",
               sc.config["training"]["steps"], **kw)


def test_a_run_past_the_simulated_time_limit_breaks_ends():
    row, _ = run_plan(_job(max_simulated_time=0.5), PlanSpec(1, ()))
    assert row["violations"][0]["invariant"] == "ends"
    assert "past the simulated-time limit of 0.5 s" in row["violations"][0]["message"] or \
        "simulated clock passed the limit of 0.5 s" in row["violations"][0]["message"]


def test_user_checks_report_what_they_return(tmp_path):
    mod = tmp_path / "tmpchecks_explore.py"
    mod.write_text("def fine(m, v): return None\n"
                   "def says(m, v): return f\"{len(v)} variables, {m['summary']['retries']} retries\"\n"
                   "def false(m, v): return False\n"
                   "def asserts(m, v): assert m['status'] == 'failed', 'status is ' + m['status']\n"
                   "def crashes(m, v): return 1 / 0\n")
    job = _job(checks=tuple(f"tmpchecks_explore:{n}" for n in ("fine", "says", "false", "asserts", "crashes")),
               search=(str(tmp_path),))
    row, _ = run_plan(job, PlanSpec(1, ()))
    assert [(v["invariant"], v["message"]) for v in row["violations"]] == [
        ("check: tmpchecks_explore:says", "2 variables, 0 retries"),
        ("check: tmpchecks_explore:false", "returned False"),
        ("check: tmpchecks_explore:asserts", "status is ok"),
        ("check: tmpchecks_explore:crashes", "the check raised ZeroDivisionError: division by zero (at "
                                             f"{tmp_path / 'tmpchecks_explore.py'}:5)")]
    with pytest.raises(inv.CheckError, match="module 'nope_not_a_module' cannot be found"):
        inv.load_check("nope_not_a_module:f")
