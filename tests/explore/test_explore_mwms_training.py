"""`simdist explore` on a multi_worker_mirrored scenario that trains a zoo model: plans draw host
preemptions at a time and every built-in invariant holds (no lost or doubly applied step, every
restore brings back exactly the saved weights and optimizer state)."""

from __future__ import annotations

import json

from scenario_helpers import cli

MWT = """
[scenario]
name = "mwt-explore"
seed = 1
[cluster]
preset = "gpu_cluster"
hosts = 2
gpus_per_host = 2
gpu = "A100"
[strategy]
kind = "multi_worker_mirrored"
restart = { delay = "1ms" }
[model]
zoo = "mlp"
hidden = [16]
[data]
dataset = "digits"
batch_size = 64
[training]
steps = 20
eval_every = 10
checkpoint_every = 5
checkpoint_bandwidth = "200MB/s"
[explore]
plans = 3
determinism_sample = 1
window = [0.0, 0.003]
invariants = ["restore_mismatches == 0"]
[explore.preemptions]
rate = 2.0
downtime = [0.0, 0.001]
"""


def test_explore_on_a_training_mwms_scenario_keeps_every_invariant(tmp_path):
    f = tmp_path / "mwt.toml"
    f.write_text(MWT)
    out = tmp_path / "ex"
    code, stdout, err = cli("explore", str(f), "--no-progress", "--executor", "serial", "--out", str(out))
    assert code == 0, (stdout, err)
    manifest = json.loads((out / "explore.json").read_text())
    assert all(v == 0 for v in manifest["broken"].values()), manifest["broken"]
    rows = [json.loads(line) for line in (out / "plans.jsonl").read_text().splitlines()]
    pre = [e for r in rows for e in r["events"] if e["kind"] == "preemptions"]
    assert pre, "no plan drew a preemption"
