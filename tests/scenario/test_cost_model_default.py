"""The scenario default cost model and all-reduce (docs/scenarios.md "Cost model and collectives"):
roofline compute and NCCL's model on GPU clusters, the FLOP-only model and the simulated ring
where they cannot be modelled otherwise, the FLOP-only model selectable, and every run's metrics
saying which it used."""

from __future__ import annotations

import math

from scenario_helpers import TINY

from simdist.scenario import loads
from simdist.scenario.runner import run
from simdist.sim import roofline

# (TINY on a CPU parameter-server cluster)
PS = (TINY.replace('name = "tiny"', 'name = "tiny-ps"')
      .replace('preset = "gpu_host"\ngpus = 2', 'preset = "cpu_cluster"\njobs = {chief = 1, worker = 2, ps = 1}')
      .replace('kind = "mirrored"', 'kind = "parameter_server"'))
assert PS.count("parameter_server") == 1 and "cpu_cluster" in PS, "scenario_helpers.TINY changed: rewrite PS"


LINK_FAULT = TINY + """
[[faults.links]]
link = "nvlink:GPU:0"
start = "0s"
bandwidth_factor = 0.5
"""


def _metrics(text: str, overrides: list[tuple[str, object]] | None = None) -> dict:
    m = run(loads(text, "s.toml", overrides or [])).metrics
    assert m["status"] == "ok", m["error"]
    return m


def _used(m: dict) -> tuple[str, str | None]:
    return m["scenario"]["cost_model"], m["scenario"]["all_reduce"]


def test_gpu_scenario_defaults_to_roofline_and_nccl():
    m = _metrics(TINY)
    assert _used(m) == ("roofline", "nccl"), f"cost model, all-reduce = {_used(m)}, but should be roofline, nccl"
    assert m["collectives"].get("nccl", 0) == 3, f"collectives={m['collectives']}, but should be 3 nccl all-reduces"


def test_default_is_exactly_the_explicit_validated_model():
    got, want = _metrics(TINY), _metrics(TINY, [("cluster.cost_model", "roofline"), ("strategy.all_reduce", "nccl")])
    for key in ("summary", "steps", "collectives", "devices"):
        assert got[key] == want[key], f"{key}: default {got[key]}, but explicit roofline + nccl gives {want[key]}"


def test_flops_stays_selectable_and_changes_compute_only():
    ring_flops = _metrics(TINY, [("cluster.cost_model", "flops"), ("strategy.all_reduce", "ring")])
    ring_roof = _metrics(TINY, [("strategy.all_reduce", "ring")])
    assert _used(ring_flops) == ("flops", "ring") and _used(ring_roof) == ("roofline", "ring"), \
        f"{_used(ring_flops)} / {_used(ring_roof)}, but should be (flops, ring) / (roofline, ring)"
    a, b = ring_flops["steps"], ring_roof["steps"]
    assert math.isclose(a["communication_s"], b["communication_s"], rel_tol=1e-9), \
        f"communication_s={b['communication_s']} under roofline, but the same ring gives {a['communication_s']} " \
        "under flops: only compute may change with the cost model"
    # A100, float32 matmul: FLOP-only charges 0.5 x 312 TFLOPS, the roofline TF32 (156) x TENSOR_EFFICIENCY
    assert b["compute_s"] > a["compute_s"] * 1.5, \
        f"compute_s={b['compute_s']} under roofline, but should be well above flops' {a['compute_s']} " \
        f"(TF32 at {roofline.hardware.TENSOR_EFFICIENCY} of 156 TFLOPS against 156 TFLOPS)"


def test_link_fault_keeps_the_simulated_ring():
    m = _metrics(LINK_FAULT)
    assert _used(m) == ("roofline", "ring"), \
        f"{_used(m)}, but a link fault should keep the link-level ring (the NCCL model loads no link)"


def test_cpu_cluster_and_gpu_flops_override_keep_flops():
    m = _metrics(PS)
    assert _used(m) == ("flops", None), f"{_used(m)}, but a CPU-only parameter-server run should be (flops, None)"
    m = _metrics(TINY, [("cluster.gpu_flops", 100e12)])
    assert _used(m) == ("flops", "nccl"), f"{_used(m)}, but gpu_flops (no datasheet rates) should time by FLOPs"


def test_cpu_replicas_keep_the_ring():
    cpu = TINY.replace('kind = "mirrored"', 'kind = "mirrored"\ndevices = ["CPU:0"]')
    m = _metrics(cpu)
    assert m["scenario"]["all_reduce"] == "ring", f"all_reduce={m['scenario']['all_reduce']}, but CPU replicas " \
        "have no NCCL: ring"


def test_a_mirrored_training_model_keeps_the_ring_and_refuses_nccl():
    import pytest

    from simdist.scenario.errors import ScenarioError
    zoo = TINY.replace('flops_per_example = "1GFLOP"\nglobal_batch = 8\nexample_bytes = "4KiB"\n\n'
                       '[[model.variables]]\nname = "w"\nshape = [1024, 1024]\n',
                       'zoo = "mlp"\n\n[data]\ndataset = "digits"\nbatch_size = 32\n')
    sc = loads(zoo, "s.toml")
    assert sc.plan["all_reduce"] == "ring", f"all_reduce={sc.plan['all_reduce']}, but a mirrored training model " \
        "runs the facade's MirroredStrategy (NcclAllReduce timed as the ring)"
    with pytest.raises(ScenarioError, match=r"strategy\.all_reduce.*nccl is not available"):
        loads(zoo, "s.toml", [("strategy.all_reduce", "nccl")])


def test_run_prints_the_cost_model_and_all_reduce(tmp_path):
    from scenario_helpers import cli, write
    code, out, err = cli("run", str(write(tmp_path, TINY)), "--out", str(tmp_path / "o"), "--no-progress")
    assert code == 0, err
    head = out.splitlines()[0]
    assert head.endswith("cost model roofline  all-reduce nccl"), \
        f"header {head!r}, but should end with the cost model and all-reduce the run used"
