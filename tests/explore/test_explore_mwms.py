"""`simdist explore` and `simdist sweep` on a multi_worker_mirrored scenario: plans draw
preemptions of hosts at a time, every built-in invariant (no lost or doubly applied step, restores
that bring back the saved state) holds, and a metric predicate over the new metrics can be kept."""

from __future__ import annotations

import json

from scenario_helpers import cli

MW = """
[scenario]
name = "mw-explore"
seed = 2
[cluster]
preset = "gpu_cluster"
hosts = 3
gpus_per_host = 2
gpu_flops = "1TFLOPS"
[strategy]
kind = "multi_worker_mirrored"
collectives = "analytic"
restart = { delay = 2.0 }
[model]
flops_per_example = "100GFLOP"
global_batch = 12
[[model.variables]]
name = "w"
shape = [100_000]
[training]
steps = 30
checkpoint_every = 5
checkpoint_bandwidth = 1000000
grace_period = 0.5
[explore]
plans = 8
determinism_sample = 1
invariants = ["restore_mismatches == 0", "steps_redone <= 30"]
[explore.preemptions]
rate = 2.0
downtime = [0.0, 2.0]
"""


def test_explore_draws_host_preemptions_and_keeps_every_invariant(tmp_path):
    f = tmp_path / "mw.toml"
    f.write_text(MW)
    out = tmp_path / "ex"
    code, stdout, err = cli("explore", str(f), "--no-progress", "--executor", "serial", "--out", str(out))
    assert code == 0, (stdout, err)
    manifest = json.loads((out / "explore.json").read_text())
    assert all(v == 0 for v in manifest["broken"].values()), manifest["broken"]
    rows = [json.loads(line) for line in (out / "plans.jsonl").read_text().splitlines()]
    pre = [e for r in rows for e in r["events"] if e["kind"] == "preemptions"]
    assert pre, "no plan drew a preemption"
    assert all("at_time" in e and "at_closure" not in e and 0 <= e["worker"] < 3 for e in pre), pre


def test_sweep_over_the_checkpoint_interval(tmp_path):
    f = tmp_path / "mw.toml"
    f.write_text(MW + '\n[faults.preemption_process]\nmtbf = "3s"\ndowntime = 0\n')
    out = tmp_path / "sw"
    code, stdout, err = cli("sweep", str(f), "--seeds", "0..1", "--param", "training.checkpoint_every=2,10",
                            "--out", str(out), "--no-progress")
    assert code == 0, (stdout, err)
    rows = [json.loads(line) for line in (out / "runs.jsonl").read_text().splitlines()]
    assert len(rows) == 4 and all(r["status"] == "ok" for r in rows), rows
    for r in rows:
        m = r["metrics"]
        assert m["steps_applied"] == m["steps_completed"] + m["steps_redone"] and m["steps_completed"] == 30, m
