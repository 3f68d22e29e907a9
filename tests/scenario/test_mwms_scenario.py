"""multi_worker_mirrored scenarios: validation, the synchronous fault semantics (stop at the
collective, restart policies, checkpoint policies, grace-period saves), the lost-work accounting,
the timeline, explore's invariants and determinism across processes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from scenario_helpers import ROOT

from simdist.scenario import loads
from simdist.scenario.errors import ScenarioError
from simdist.scenario.metrics import validate_metrics
from simdist.scenario.runner import run

BASE = """
[scenario]
name = "mw"
seed = 3
[cluster]
preset = "gpu_cluster"
hosts = 2
gpus_per_host = 2
gpu_flops = "1TFLOPS"
[strategy]
kind = "multi_worker_mirrored"
collectives = "analytic"
[model]
flops_per_example = "500GFLOP"
global_batch = 8
[[model.variables]]
name = "w"
shape = [1_000_000]
[training]
steps = 40
checkpoint_every = 10
checkpoint_bandwidth = 1000000
"""


def _run(extra: str = "", overrides: list | None = None, seed: int | None = None) -> dict:
    m = run(loads(BASE + extra, "mw.toml", overrides or []), seed).metrics
    assert validate_metrics(m) == [], validate_metrics(m)
    return m


def _issues(text: str) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as e:
        loads(text, "mw.toml", [])
    return [(i.path, i.message) for i in e.value.issues]


# ------------------------------------------------------------------------------------------ validation
@pytest.mark.parametrize("extra,path,words", [
    ("[faults]\npreemptions = [{worker = 2, at_time = 5.0, downtime = 1.0}]\n", "faults.preemptions[0].worker",
     "does not exist"),
    ("[faults]\npreemptions = [{worker = 0, at_closure = 5, downtime = 1.0}]\n", "faults.preemptions[0].at_closure",
     "at_time"),
    ("[faults.preemption_process]\nmtbf = \"10s\"\ndowntime = 0\nworkers = [3]\n",
     "faults.preemption_process.workers[0]", "does not exist"),
    ("[faults]\nps_failures = [{ps = 0, at_time = 5.0}]\n", "faults.ps_failures", "parameter_server"),
])
def test_bad_faults_name_the_key(extra, path, words):
    got = _issues(BASE + extra)
    assert any(p == path and words in msg for p, msg in got), f"issues {got}, but should name {path} ({words})"


def test_mwms_needs_a_gpu_cluster_and_its_keys_belong_to_it():
    got = _issues(BASE.replace('preset = "gpu_cluster"\nhosts = 2\ngpus_per_host = 2', 'preset = "gpu_host"\ngpus = 2'))
    assert any(p == "strategy.kind" and "gpu_cluster" in m for p, m in got), got
    mirrored = BASE.replace('kind = "multi_worker_mirrored"', 'kind = "mirrored"')
    got = _issues(mirrored.replace("checkpoint_every = 10", "checkpoint_every = 10\ngrace_period = \"30s\""))
    assert any(p == "training.grace_period" and "multi_worker_mirrored" in m for p, m in got), got
    got = _issues(mirrored.replace('collectives = "analytic"', 'collectives = "analytic"\nrestart = {delay = 5}'))
    assert any(p == "strategy.restart" for p, _ in got), got
    got = _issues(BASE.replace('collectives = "analytic"', 'collectives = "analytic"\nrestart = {workers = "some"}'))
    assert any(p == "strategy.restart.workers" and '"all"' in m for p, m in got), got


# ------------------------------------------------------------------------------------------ semantics
def test_fault_free_job_times_like_mirrored_over_the_same_hosts():
    mw = _run()["summary"]
    mirrored = BASE.replace('kind = "multi_worker_mirrored"', 'kind = "mirrored"')
    mi = run(loads(mirrored, "mi.toml", [])).metrics["summary"]
    for k in ("step_time_mean_s", "checkpoint_time_s", "simulated_time_s", "bytes_transferred"):
        assert mw[k] == pytest.approx(mi[k], rel=1e-9), f"{k}={mw[k]}, but mirrored on the same cluster gives {mi[k]}"
    assert (mw["restarts"], mw["steps_redone"], mw["steps_applied"], mw["checkpoints"]) == (0, 0, 40, 4)


def _clean_step() -> tuple[float, float]:
    s = _run()["summary"]
    return s["step_time_mean_s"], s["time_checkpointing_s"] / s["checkpoints"]


def test_a_preemption_rolls_back_to_the_last_checkpoint_and_the_time_adds_up():
    step, save = _clean_step()
    t = 15.5 * step + save        # during step 16 (after the checkpoint at step 10)
    m = _run(f"[faults]\npreemptions = [{{worker = 1, at_time = {t!r}, downtime = 7.0}}]\n"
             "[strategy.restart]\ndelay = 11.0\n")
    s = m["summary"]
    assert (s["restarts"], s["preemptions"], s["steps_redone"]) == (1, 1, 5), \
        f"restarts/preemptions/steps_redone = {s['restarts']}/{s['preemptions']}/{s['steps_redone']}, but should " \
        "be 1/1/5 (steps 11..15 applied after the step-10 checkpoint are redone)"
    assert s["steps_applied"] == s["steps_completed"] + s["steps_redone"] == 45
    kept = 40 * step
    assert s["simulated_time_s"] == pytest.approx(kept + s["time_checkpointing_s"] + s["time_lost_restart_s"],
                                                  rel=1e-9), "simulated time != kept steps + saves + lost to restarts"
    # lost: steps 11..16 (16 stops at its collective, before its all-reduce), wait for the replacement
    # (7 s after the kill), the 11 s delay, and the restore (the save's bytes read back)
    assert s["time_lost_restart_s"] > 5 * step + 7.0 + 11.0 + save * 0.99
    kinds = [f["kind"] for f in m["faults"]]
    assert {"preemption", "restart", "restore", "checkpoint"} <= set(kinds), kinds


def test_restart_policies_all_vs_lost():
    step, save = _clean_step()
    t = 15.5 * step + save
    fault = f"[faults]\npreemptions = [{{worker = 1, at_time = {t!r}, downtime = 0.0}}]\n"
    out = {}
    for workers in ("all", "lost"):
        out[workers] = _run(f'[strategy.restart]\ndelay = 30.0\ndetection = 10.0\nworkers = "{workers}"\n' + fault)
    a, b = out["all"]["summary"], out["lost"]["summary"]
    # all: resume = stop + delay; lost: the lost worker restarts at its kill: resume = max(stop, kill + delay)
    stop_minus_kill = a["time_lost_restart_s"] - b["time_lost_restart_s"]
    assert 10.0 < stop_minus_kill < 10.0 + step, \
        f"'lost' saved {stop_minus_kill} s over 'all', but should save the detection (10 s) + the rest of the step"
    far = fault.replace("downtime = 0.0", "downtime = 500.0")
    a2 = _run('[strategy.restart]\ndelay = 30.0\ndetection = 10.0\nworkers = "all"\n' + far)["summary"]
    b2 = _run('[strategy.restart]\ndelay = 30.0\ndetection = 10.0\nworkers = "lost"\n' + far)["summary"]
    assert a2["simulated_time_s"] == b2["simulated_time_s"], "with a slow replacement both policies resume at ready + delay"


def test_grace_period_saves_lose_no_step_unless_the_save_outlasts_it():
    step, save = _clean_step()
    t = 15.5 * step + save
    fault = f"[faults]\npreemptions = [{{worker = 0, at_time = {t!r}, downtime = 3.0}}]\n"
    ok = _run(fault, [("training.grace_period", 2 * step + 2 * save)])["summary"]
    assert (ok["preemption_checkpoints"], ok["steps_redone"], ok["restarts"]) == (1, 0, 1), ok
    late = _run(fault, [("training.grace_period", step)])["summary"]   # killed before the save ends
    assert late["preemption_checkpoints"] == 0 and late["steps_redone"] == 6, late
    # the saved job waits for the kill (notice + grace) and the replacement (3 s), restores the step-16
    # checkpoint (the save's bytes read back) and runs the 24 steps left, saving at steps 20, 30 and 40
    grace = 2 * step + 2 * save
    want = t + grace + 3.0 + save + 24 * step + 3 * save
    assert ok["simulated_time_s"] == pytest.approx(want, rel=1e-3), \
        f"simulated_time_s={ok['simulated_time_s']}, but should be {want} (kill + replacement + restore + 24 steps + 3 saves)"


def test_checkpoint_interval_in_simulated_seconds():
    step, _ = _clean_step()
    s = _run("", [("training.checkpoint_every", 0), ("training.checkpoint_interval", 7.5 * step)])["summary"]
    assert s["checkpoints"] == 40 // 8, f"{s['checkpoints']} checkpoints, but every 8th step ends >= 7.5 steps later"


def test_too_many_restarts_fail_the_run_with_the_rule():
    m = _run('[strategy.restart]\nmax_restarts = 2\n[faults.preemption_process]\nmtbf = "5s"\ndowntime = 0\n')
    assert m["status"] == "failed" and "max_restarts = 2" in m["error"], m["error"]
    assert m["summary"]["restarts"] == 3


def test_restore_mismatch_is_counted_and_breaks_the_accounting_invariant(monkeypatch):
    from simdist.explore.invariants import accounting
    from simdist.scenario import mwms_run
    fault = "[faults]\npreemptions = [{worker = 0, at_time = 30.0, downtime = 0.0}]\n"
    good = _run(fault)
    assert accounting(good, 40) == []
    monkeypatch.setattr(mwms_run._FlopJob, "snapshot", lambda self: self.step_count + 1)   # a wrong restore
    bad = _run(fault)
    assert bad["summary"]["restore_mismatches"] == 1
    assert any("restore" in p for p in accounting(bad, 40)), accounting(bad, 40)


# ------------------------------------------------------------------------------------------ the shipped job
SHIPPED = ROOT / "scenarios" / "train_mwms_preemption.toml"


def _digest_in_fresh_process(args: list[str]) -> str:
    code = ("import sys, json; from simdist.scenario import load; from simdist.scenario.runner import run; "
            "m = run(load(sys.argv[1], quick=sys.argv[2] == 'quick')).metrics; print(m['digest']); "
            "print(json.dumps(m['summary']))")
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": args[-1], "PATH": "/usr/bin:/bin"})
    return out.stdout


def test_shipped_job_quick_is_byte_identical_across_processes():
    a = _digest_in_fresh_process([str(SHIPPED), "quick", "1"])
    b = _digest_in_fresh_process([str(SHIPPED), "quick", "2"])
    assert a == b, f"two processes gave different metrics:\n{a}\n{b}"
    s = json.loads(a.splitlines()[1])
    assert s["preemptions"] >= 1 and s["preemption_checkpoints"] >= 1, s


@pytest.mark.slow
def test_shipped_job_full_is_byte_identical_across_processes():
    a = _digest_in_fresh_process([str(SHIPPED), "full", "1"])
    b = _digest_in_fresh_process([str(SHIPPED), "full", "2"])
    assert a == b, f"two processes gave different metrics:\n{a}\n{b}"
    s = json.loads(a.splitlines()[1])
    assert s["steps_completed"] == 1500 and s["restarts"] >= 1, s


# ------------------------------------------------------------------------------------ timeout_seconds
STRAGGLER = "[faults]\nstragglers = [{worker = 3, slowdown = 3.0, start = 2.0, end = 4.0}]\n"


def _timeout(t: str) -> str:
    return BASE.replace('collectives = "analytic"', f'collectives = "analytic"\ntimeout_seconds = "{t}"')


@pytest.mark.clause("mwms.collective-timeout")
def test_a_straggler_later_than_the_timeout_restarts_the_job():
    """Replica 3 computes 3x slower for 2 s (its step's compute ends ~2 s after the others'):
    with timeout_seconds 0.5 that step's all-reduce times out on every worker and the job
    restarts from its last checkpoint; with 5 s (or none) the job only waits for it."""
    from simdist.scenario.runner import run as run_sc
    got = {}
    for t in ("0.5s", "5s", None):
        text = (_timeout(t) if t else BASE) + STRAGGLER
        got[t] = run_sc(loads(text, "mw.toml", []), None).metrics["summary"]
    short, long_, none = got["0.5s"], got["5s"], got[None]
    assert short["collective_timeouts"] >= 1 and short["restarts"] == short["collective_timeouts"], \
        f"timeout 0.5 s: {short['collective_timeouts']} timeouts, {short['restarts']} restarts, but the straggler's " \
        "step should time out and restart the job"
    assert short["steps_completed"] == 40 and short["steps_redone"] > 0, short
    assert long_["collective_timeouts"] == none["collective_timeouts"] == 0 and \
        long_["simulated_time_s"] == none["simulated_time_s"], \
        f"a 5 s timeout should change nothing: {long_['simulated_time_s']} vs {none['simulated_time_s']}"
    assert short["simulated_time_s"] > none["simulated_time_s"], "the timed-out step and the redone ones cost time"


@pytest.mark.clause("mwms.collective-timeout")
def test_a_lost_worker_stops_the_job_after_the_shorter_of_timeout_and_heartbeat():
    lost = "[faults]\npreemptions = [{worker = 1, at_time = 5.0, downtime = 1.0}]\n"
    both = _timeout("2s").replace('kind = "multi_worker_mirrored"',
                                  'kind = "multi_worker_mirrored"\nrestart = {detection = "10s"}') + lost
    heartbeat_2s = BASE.replace('kind = "multi_worker_mirrored"',
                                'kind = "multi_worker_mirrored"\nrestart = {detection = "2s"}') + lost
    a, b = _run_text(both), _run_text(heartbeat_2s)
    assert a["simulated_time_s"] == b["simulated_time_s"] and a["restarts"] == b["restarts"] == 1, \
        f"detection 10 s + timeout 2 s took {a['simulated_time_s']}s, detection 2 s alone {b['simulated_time_s']}s: " \
        "the job should stop after the shorter (the timeout)"


def _run_text(text: str) -> dict:
    from simdist.scenario.runner import run as run_sc
    return run_sc(loads(text, "mw.toml", []), None).metrics["summary"]
