"""Scenarios at scale: data parallel over a gpu_cluster (pods), the one-host GPU limit, the
dry-run estimate and progress within a long step."""

from __future__ import annotations

import subprocess
import sys

import pytest
from scenario_helpers import ROOT

from simdist.scenario import ScenarioError, load, loads
from simdist.scenario.build import build_cluster
from simdist.scenario.estimate import estimate
from simdist.scenario.runner import run
from simdist.scenario.schema import MAX_GPUS_PER_HOST as SCHEMA_MAX
from simdist.sim import presets, topology

DP = """
[scenario]
name = "dp"

[cluster]
preset = "gpu_cluster"
hosts = 4
gpus_per_host = 8
network = "200Gbps"
pod_size = 2
oversubscription = 2.0

[strategy]
kind = "mirrored"
all_reduce = "ring"

[model]
flops_per_example = "1GFLOP"
global_batch = 256
example_bytes = "1KiB"

[[model.variables]]
name = "w"
shape = [10_000_000]

[training]
steps = 2
"""

ONE_HOST = """
[scenario]
name = "big-host"

[cluster]
preset = "gpu_host"
gpus = 32

[strategy]
kind = "mirrored"

[model]
flops_per_example = "1GFLOP"
global_batch = 256

[[model.variables]]
name = "w"
shape = [1000]

[training]
steps = 1
"""


def test_data_parallel_spans_hosts_and_pods():
    sc = loads(DP, "dp.toml")
    assert sc.plan["replicas"] == 32, sc.plan
    m = run(sc).metrics
    assert m["status"] == "ok", m["error"]
    uplinks = {k: v for k, v in m["links"].items() if "uplink:pod" in k}
    assert sorted(uplinks) == ["/job:worker/replica:0/task:0/uplink:pod0", "/job:worker/replica:0/task:2/uplink:pod1"]
    assert all(v["bytes"] > 0 for v in uplinks.values()), f"the ring crosses pods: {uplinks}"
    busy = [v["busy_fraction"] for k, v in m["devices"].items() if "GPU" in k]
    assert len(busy) == 32 and min(busy) > 0, busy


def test_hierarchical_beats_a_flat_ring_across_an_oversubscribed_spine():
    ring = run(loads(DP, "dp.toml")).metrics["summary"]["step_time_mean_s"]
    hier = run(loads(DP, "dp.toml", [("strategy.all_reduce", "hierarchical")])).metrics["summary"]["step_time_mean_s"]
    assert hier < ring, f"hierarchical {hier} s vs ring {ring} s per step"


def test_one_host_with_more_gpus_than_a_real_machine_is_refused_with_the_way_out():
    with pytest.raises(ScenarioError) as e:
        loads(ONE_HOST, "big.toml")
    msg = str(e.value)
    assert "cluster.gpus: 32 GPUs on one host (rule: at most 16 GPUs per host" in msg, msg
    assert 'cluster.preset = "gpu_cluster" with hosts = 4 and gpus_per_host = 8' in msg, msg
    assert "cluster.max_gpus_per_host = 32" in msg, msg
    sc = loads(ONE_HOST + "", "big.toml", [("cluster.max_gpus_per_host", 32)])
    assert len(build_cluster(sc).hosts[0].gpus) == 32


def test_the_simulator_refuses_such_a_host_too_and_says_how_to_lift_it():
    with pytest.raises(ValueError, match=r"64 GPUs on one host, but the limit is 16 .*presets.gpu_cluster\(hosts=8, "
                                         r"gpus_per_host=8\).*Host\(\.\.\., max_gpus=64\)"):
        presets.gpu_host(gpus=64)
    assert len(presets.make_gpu_host(gpus=64, max_gpus=64).gpus) == 64
    assert SCHEMA_MAX == topology.MAX_GPUS_PER_HOST, "scenario validation and the simulator must agree on the limit"


@pytest.mark.parametrize("name", ["mirrored_allreduce", "ps_embedding"])
def test_dry_run_estimate_brackets_the_events_of_the_run(name):
    sc = load(ROOT / f"scenarios/{name}.toml", quick=True)
    e = estimate(sc, build_cluster(sc))
    events = run(sc).metrics["events"]
    lo, hi = e["events"]
    assert lo / 3 <= events <= hi * 3, f"{name}: estimated {lo}-{hi} events, the run took {events}"
    assert 50 << 20 < e["memory_bytes"] < 1 << 30, e


def test_dry_run_prints_the_estimate():
    out = subprocess.run([sys.executable, "-m", "simdist", "run", str(ROOT / "scenarios/mirrored_allreduce.toml"),
                          "--dry-run"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "estimate" in out.stdout and "events" in out.stdout and "peak memory" in out.stdout, out.stdout
    assert "ring all-reduce, chunked: 112 chunk transfers per step" in out.stdout, out.stdout


def test_a_long_step_reports_progress_within_it(monkeypatch):
    import simdist.sim.engine as engine
    monkeypatch.setattr(engine, "PROGRESS_EVERY", 1000)   # (65,536 in use: a step this small would not show)
    sc = loads(DP, "dp.toml", [("cluster.hosts", 16), ("strategy.collectives", "chunked"), ("training.steps", 1)])
    seen: list[int] = []
    res = run(sc, detail=seen.append)
    assert res.status == "ok", res.error
    assert seen and seen == sorted(seen), f"progress within the 128-GPU chunked step: {seen}"
    assert run(sc).metrics == res.metrics, "reporting progress must not change the run"
