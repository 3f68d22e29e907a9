"""The run estimate counts what listed faults add (issue 28's last gap): the steps or PS functions
a preemption or ps failure makes the run redo, at the run's own cost per step; stragglers and
degraded links add simulated time only, not simulator work. `simdist explore`'s guard rail
checks the scenario with the most work a drawn plan can add."""

from __future__ import annotations

from pathlib import Path

import pytest

from scenario_helpers import ROOT, cli, write
from simdist.scenario.build import build_cluster
from simdist.scenario.estimate import estimate
from simdist.scenario.estimate_faults import worst_plan
from simdist.scenario.loader import load

MWMS = ROOT / "scenarios/train_mwms_preemption.toml"   # 1500 steps, checkpoint_every 100, grace 30 s
PS = ROOT / "scenarios/ps_failure_checkpoint.toml"     # 3000 functions, checkpoint_every 200, restore_checkpoint


def _estimate(path: Path, *params: str) -> dict:
    sc = load(path, list(params))
    return estimate(sc, build_cluster(sc))


def _preemptions(n: int) -> str:
    return "faults.preemptions=[" + ", ".join(f"{{worker = {i}, at_time = {100.0 * (i + 1)}, downtime = 60.0}}"
                                              for i in range(n)) + "]"


NO_GRACE = "training.grace_period=0.0"


def _ratio(a: dict, b: dict, key: str) -> tuple[float, float]:
    return (a[key][0] / b[key][0], a[key][1] / b[key][1])


def test_mwms_preemptions_without_grace_add_redone_steps_in_proportion() -> None:
    base = _estimate(MWMS, NO_GRACE)
    assert base["redo"] == (0.0, 0.0) and base["faults"] == {}, (base["redo"], base["faults"])
    for n in (1, 3, 6):
        e = _estimate(MWMS, NO_GRACE, _preemptions(n))
        # each preemption redoes the steps since the last checkpoint: half of 100 on average, 100 at worst
        assert e["redo"] == (50.0 * n, 100.0 * n), f"redo={e['redo']}, but should be {(50.0 * n, 100.0 * n)} [{n} preemptions]"
        want = (1 + 50.0 * n / 1500, 1 + 100.0 * n / 1500)
        for key in ("wall_s", "events"):
            got = _ratio(e, base, key)
            assert got == pytest.approx(want, rel=1e-12), f"{key} ratio={got}, but should be {want} [{n} preemptions]"
        assert e["memory_bytes"] == base["memory_bytes"], "a redone step replaces the one it redoes: no memory"
        assert e["faults"] == {"preemptions": n}


def test_mwms_preemptions_with_a_grace_period_redo_nothing() -> None:
    base = _estimate(MWMS)
    e = _estimate(MWMS, _preemptions(3))
    assert e["redo"] == (0.0, 0.0) and e["wall_s"] == base["wall_s"], (e["redo"], e["wall_s"], base["wall_s"])


def test_stragglers_and_links_add_simulated_time_not_simulator_work() -> None:
    # measured (estimate_faults' docstring): a replica 4x slower for the whole run quadruples the
    # simulated time and leaves the CPU time of the run as it was
    base = _estimate(MWMS, NO_GRACE)
    e = _estimate(MWMS, NO_GRACE, "faults.stragglers=[{worker = 0, slowdown = 4.0, start = 0.0}]",
                  'faults.links=[{link = "task:0/nic", bandwidth_factor = 0.1, start = 0.0}]')
    assert e["wall_s"] == base["wall_s"] and e["events"] == base["events"], (e["wall_s"], base["wall_s"])
    assert e["faults"] == {"stragglers": 1, "links": 1}


def test_a_ps_failure_with_restore_redoes_functions_since_the_checkpoint() -> None:
    e = _estimate(PS)   # the file's one ps failure, restore_checkpoint, checkpoint_every 200
    assert e["redo"] == (100.0, 200.0), e["redo"]
    fail = _estimate(PS, 'faults.recovery.on_ps_failure="fail"')
    assert fail["redo"] == (0.0, 0.0), f"redo={fail['redo']}, but should be (0, 0): the run ends at the failure"
    pre = _estimate(PS, "faults.ps_failures=[]", "faults.preemptions=[{worker = 0, at_time = 10.0, downtime = 5.0}]")
    assert pre["redo"] == (1.0, 1.0), f"redo={pre['redo']}, but should be (1, 1): the function in flight is retried"


def test_worst_plan_takes_the_costliest_kinds_within_their_caps() -> None:
    sc = load(PS, [])
    rates = {"preemptions": 1.0, "ps_failures": 1.0, "stragglers": 0.5, "links": 0.5}
    w = worst_plan(sc, rates, {"preemptions": 4, "ps_failures": 1, "stragglers": 4, "links": 4}, 4)
    assert w == {"steps": (100.0 + 3, 200.0 + 3), "faults": {"ps_failures": 1, "preemptions": 3}}, w
    none = worst_plan(sc, {"preemptions": 0.0, "ps_failures": 0.0, "stragglers": 1.0, "links": 1.0}, {}, 4)
    assert none == {"steps": (0.0, 0.0), "faults": {}}, none


def test_explore_refuses_when_a_plans_faults_would_pass_the_time_limit(tmp_path) -> None:
    text = MWMS.read_text(encoding="utf-8").replace('grace_period = "30s"', 'grace_period = "0s"')
    assert 'grace_period = "0s"' in text
    path = write(tmp_path, text)
    sc = load(path, [])
    base = estimate(sc, build_cluster(sc))["wall_s"][0]
    # explore's defaults for multi_worker_mirrored: preemptions at rate 1, at most 4 events a plan:
    # the worst plan redoes 4 x 50 steps on average, 4 x 100 at worst, on top of 1500
    limit = base * (1 + 100 / 1500)   # above the fault-free run, below it with the worst plan's faults
    out = tmp_path / "e"
    code, so, err = cli("explore", str(path), "--plans", "2", "--executor", "serial", "--time-limit",
                        f"{limit:.6g}s", "--out", str(out), "--no-progress")
    assert code == 2, f"exit {code}, but should be 2 (refused)\n{so}\n{err}"
    assert "with the most a plan's faults can add (4 preemptions: 200 to 400 steps redone)" in err, err
    assert "more than the --time-limit of" in err, err
    assert not out.exists(), "a refused exploration should write nothing"
