"""A strategy's training step under the roofline cost model, and where the gradient all-reduce
starts relative to the backward pass (TF 2.21: after it, with the default single pack)."""

from __future__ import annotations

from typing import Any

import pytest

import simdist
from simdist import tf
from simdist.runtime.cost import tally
from simdist.sim import hardware
from test_training_cost import two_layer_step_spans


def _step_spans(cost_model: str, graph: bool, gpu: str = "A100") -> list[dict[str, Any]]:
    return two_layer_step_spans(graph, calls=2, gpu=gpu, cost_model=cost_model)


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "tf.function"])
def test_gradient_all_reduce_starts_after_the_backward_pass(graph: bool) -> None:
    """TF 2.21 all-reduces the gradients as one pack (CommunicationOptions.bytes_per_pack = 0:
    cross_device_utils.group_by_size returns one pack), which needs every gradient: no overlap
    with the backward pass, eager or in a tf.function (docs/simulator.md)."""
    spans = _step_spans("flops", graph)
    for r in (0, 1):
        bwd = [e for e in spans if e["name"] == f"step/backward[replica {r}]"]
        ar = [e for e in spans if e["name"] == f"all_reduce[replica {r}]"]
        assert bwd and len(ar) == len(bwd), f"replica {r}: spans {sorted({e['name'] for e in spans})}"
        for b, a in zip(bwd, ar):
            assert b["ts"] + b["dur"] <= a["ts"] + 1e-9, f"all-reduce starts before backward ends: {b}, {a}"


def _tallied(gpu: str, cost_model: str, fn: Any) -> float:
    """The FLOP tally's growth for ``fn()`` run on GPU:0 of a one-GPU ``gpu`` host."""
    simdist.configure(gpus=1, gpu=gpu, cost_model=cost_model)
    with tf.device("GPU:0"):
        args = fn(None)
        t0 = tally.flops
        fn(args)
    return tally.flops - t0


def _matmul(dtype: str, m: int = 512) -> Any:
    def fn(args: Any) -> Any:
        if args is None:
            return tf.cast(tf.ones([m, m]), dtype), tf.cast(tf.ones([m, m]), dtype)
        return tf.matmul(*args)
    return fn


@pytest.mark.parametrize("gpu, dtype, rate", [
    ("A100", "float32", 156e12 * hardware.TENSOR_EFFICIENCY),     # TF32 tensor cores (TF's default)
    ("A100", "float16", 312e12 * hardware.TENSOR_EFFICIENCY),
    ("V100", "float32", 15.7e12 * hardware.CUDA_EFFICIENCY),      # no TF32 on Volta
    ("V100", "float16", 125e12 * hardware.TENSOR_EFFICIENCY)])
# (bfloat16 tensors arrive with mixed precision, issue 27; the rates are tested in tests/sim/test_roofline.py)
def test_an_ops_tally_is_its_roofline_time_at_the_devices_rate(gpu: str, dtype: str, rate: float) -> None:
    m = 512
    flops = 2.0 * m ** 3
    # (the growth is read as a difference of the process-wide tally; its entries are whole FLOPs, so
    # the difference is exact whatever earlier tests left in it)
    got_flops = _tallied(gpu, "flops", _matmul(dtype, m))
    assert got_flops == pytest.approx(flops, rel=1e-12), f"the FLOP model tallied {got_flops}, expected {flops} FLOPs"
    got = _tallied(gpu, "roofline", _matmul(dtype, m))
    nbytes = 3 * m * m * {"float32": 4, "float16": 2, "bfloat16": 2}[dtype]
    seconds = max(flops / rate, nbytes / (hardware.GPUS[gpu].rates.memory_bandwidth * hardware.MEMORY_EFFICIENCY))
    want = float(round(seconds * hardware.GPUS[gpu].flops))   # (whole FLOPs: sim/roofline.op_charge)
    assert got == want, f"{gpu} {dtype}: tallied {got}, expected {want}"


def test_an_elementwise_op_is_charged_by_its_bytes() -> None:
    def add(args: Any) -> Any:
        return (tf.ones([1 << 20]), tf.ones([1 << 20])) if args is None else tf.add(*args)
    got = _tallied("A100-40GB", "roofline", add)
    seconds = 3 * 4 * (1 << 20) / (1555e9 * hardware.MEMORY_EFFICIENCY)
    want = float(round(seconds * hardware.GPUS["A100-40GB"].flops))
    assert got == want, f"an A100 add of 2 x 4 MiB: tallied {got}, expected {want} (its bytes' time, whole FLOPs)"


def test_cpu_ops_keep_their_flops_under_the_roofline() -> None:
    simdist.configure(gpus=1, cost_model="roofline")
    with tf.device("CPU:0"):
        a = tf.ones([64, 64])
        t0 = tally.flops
        tf.matmul(a, a)
    assert tally.flops - t0 == 2.0 * 64 ** 3
    simdist.configure()
    from simdist.runtime import cost
    assert cost.roofline is None, "configure() without a cost model goes back to the FLOP tally"


def test_a_recorded_step_replays_the_roofline_time_of_the_eager_step() -> None:
    eager = _step_spans("roofline", False)
    graph = _step_spans("roofline", True)
    for name in ("step/forward[replica 0]", "step/backward[replica 1]"):
        e = [s["dur"] for s in eager if s["name"] == name]
        g = [s["dur"] for s in graph if s["name"] == name]
        assert e and e == g, f"{name}: eager {e}, tf.function {g}"
    flops = _step_spans("flops", False)
    assert [s["dur"] for s in flops if s["name"] == "step/backward[replica 0]"] != \
        [s["dur"] for s in eager if s["name"] == "step/backward[replica 0]"], "the roofline changed nothing"


@pytest.mark.parametrize("gpus, gpu, want", [(0, "A100", "flops"), (2, "A100", "roofline"), (1, "V100", "roofline"),
                                             (4, "H200", "roofline")])
def test_configure_defaults_to_the_scenarios_rule(gpus: int, gpu: str, want: str) -> None:
    """`simdist.configure` without a cost model: roofline on a GPU preset (datasheet rates), flops
    on a CPU-only machine, as a scenario's default; the op tally charges accordingly."""
    simdist.configure(gpus=gpus, gpu=gpu)
    assert simdist.cost_model() == want, f"configure(gpus={gpus}, gpu={gpu!r}): {simdist.cost_model()}, but should be {want}"
    from simdist.runtime import cost
    assert (cost.roofline is not None) == (want == "roofline"), f"the tally's per-op charge installed: {cost.roofline}"
    if gpus:
        default = _tallied(gpu, "roofline", _matmul("float32"))
        simdist.configure(gpus=gpus, gpu=gpu)
        with tf.device("GPU:0"):
            args = _matmul("float32")(None)
            t0 = tally.flops
            _matmul("float32")(args)
        got = tally.flops - t0
        assert got == default, f"default tallied {got}, explicit roofline {default}"
    simdist.configure(gpus=gpus, gpu=gpu, cost_model="flops")
    assert simdist.cost_model() == "flops", "cost_model='flops' stays selectable"
    simdist.configure()


def test_a_cluster_without_rates_keeps_flops_and_reconfigure_rederives() -> None:
    from simdist import session
    from simdist.sim import presets
    from simdist.sim.topology import Cluster, Device, Host
    own = Cluster([Host(job="localhost", task=0, cpus=[Device("CPU", 0)], gpus=[Device("GPU", 0, flops=1e12)])])
    simdist.configure(cluster=own)
    assert simdist.cost_model() == "flops", f"GPUs given only a FLOP/s figure: {simdist.cost_model()}, but should be flops"
    session.reconfigure(presets.gpu_host(gpus=2), seed=0)
    assert simdist.cost_model() == "roofline", "a default cost model is re-derived for the new cluster"
    simdist.configure(cost_model="flops")
    session.reconfigure(presets.gpu_host(gpus=2), seed=0)
    assert simdist.cost_model() == "flops", "an asked-for cost model is kept by reconfigure"
    simdist.configure()
