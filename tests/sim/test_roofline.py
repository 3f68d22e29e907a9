"""The roofline cost model (sim/roofline.py): per-precision rates, the memory bound, and the
FLOP-only model left as it was."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simdist.sim import hardware, presets, roofline
from simdist.sim.engine import Simulator
from simdist.sim.roofline import Kernel
from simdist.sim.topology import Cluster, Device, Host

A100 = hardware.GPUS["A100-40GB"].rates
V100 = hardware.GPUS["V100"].rates


def _run(sim: Simulator, *kernels: Kernel) -> float:
    for k in kernels:
        sim.drive(sim.compute_kernel("GPU:0", k))
    return sim.now


def test_compute_bound_kernel_takes_flops_over_the_precision_rate():
    k = Kernel(1e12, 1e3, "float16", "matmul")
    want = 1e12 / (312e12 * hardware.TENSOR_EFFICIENCY)
    assert roofline.kernel_seconds(A100, k) == pytest.approx(want, rel=1e-12)


def test_memory_bound_kernel_takes_bytes_over_bandwidth():
    k = Kernel(1e6, 1e9, "float32", "elementwise")
    want = 1e9 / (1555e9 * hardware.MEMORY_EFFICIENCY)
    got = roofline.kernel_seconds(A100, k)
    assert got == pytest.approx(want, rel=1e-12), (got, want)
    assert got > 1e6 / roofline.rate(A100, "float32", "elementwise")


def test_precision_changes_the_rate():
    r16 = roofline.rate(A100, "float16", "matmul")
    rbf = roofline.rate(A100, "bfloat16", "matmul")
    rtf32 = roofline.rate(A100, "float32", "matmul")
    r32 = roofline.rate(A100, "float32", "matmul", tf32=False)
    r64 = roofline.rate(A100, "float64", "matmul")
    assert r16 == rbf == 312e12 * hardware.TENSOR_EFFICIENCY
    assert rtf32 == 156e12 * hardware.TENSOR_EFFICIENCY, "float32 matmul runs on TF32 tensor cores (TF default)"
    assert r32 == 19.5e12 * hardware.CUDA_EFFICIENCY
    assert r64 == 9.7e12 * hardware.CUDA_EFFICIENCY
    # V100: no TF32 and no BF16 tensor cores
    assert roofline.rate(V100, "float32", "matmul") == 15.7e12 * hardware.CUDA_EFFICIENCY
    assert roofline.rate(V100, "bfloat16", "matmul") == 15.7e12 * hardware.CUDA_EFFICIENCY
    assert roofline.rate(V100, "float16", "matmul") == 125e12 * hardware.TENSOR_EFFICIENCY
    # elementwise work never uses tensor cores
    assert roofline.rate(A100, "float16", "elementwise") == 19.5e12 * hardware.CUDA_EFFICIENCY


def test_grouped_convolutions_run_on_cuda_cores_at_their_own_efficiency():
    """kind="grouped": the CUDA cores' FP16 peak (whitepapers' "FP16 non-Tensor") for float16, FP32
    otherwise (TF32 is no help), FP64 for float64, x GROUPED_EFFICIENCY; never the tensor cores."""
    g = hardware.GROUPED_EFFICIENCY
    for rates, fp16, fp32, fp64 in ((A100, 78e12, 19.5e12, 9.7e12), (V100, 31.4e12, 15.7e12, 7.8e12),
                                    (hardware.GPUS["H100"].rates, 133.8e12, 67e12, 34e12)):
        got = [roofline.rate(rates, dt, "grouped") for dt in ("float16", "float32", "bfloat16", "float64")]
        assert got == [fp16 * g, fp32 * g, fp32 * g, fp64 * g], f"grouped rates {got}, but should be " \
            f"{[fp16 * g, fp32 * g, fp32 * g, fp64 * g]} ({rates})"
        assert got[0] < roofline.rate(rates, "float16", "matmul"), "a grouped conv is slower than a dense one"
    k = Kernel(1e9, 1e3, "float16", "grouped")
    assert roofline.kernel_seconds(A100, k) == pytest.approx(1e9 / (78e12 * g), rel=1e-12)
    k = Kernel(1e6, 1e9, "float16", "grouped")   # memory-bound: its bytes' time, as any kernel
    assert roofline.kernel_seconds(A100, k) == pytest.approx(1e9 / (1555e9 * hardware.MEMORY_EFFICIENCY), rel=1e-12)


def test_simulator_charges_roofline_time_plus_launch_overhead():
    sim = Simulator(presets.gpu_host(1, "A100-40GB"), cost_model="roofline")
    k16 = Kernel(1e12, 0.0, "float16")
    t16 = _run(sim, k16)
    lo = sim.device("GPU:0").launch_overhead
    assert t16 == pytest.approx(roofline.kernel_seconds(A100, k16) + lo, rel=1e-9)
    sim32 = Simulator(presets.gpu_host(1, "A100-40GB"), cost_model="roofline")
    t32 = _run(sim32, Kernel(1e12, 0.0, "float32"))
    assert (t32 - lo) == pytest.approx(2 * (t16 - lo), rel=1e-9), "TF32 is half the FP16 tensor rate on A100"
    off = Simulator(presets.gpu_host(1, "A100-40GB"), cost_model="roofline", tf32=False)
    assert _run(off, Kernel(1e12, 0.0, "float32")) - lo == pytest.approx(1e12 / (19.5e12 * hardware.CUDA_EFFICIENCY))


def test_flops_model_charges_the_kernels_flops_as_compute_does():
    a = Simulator(presets.gpu_host(1, "V100"))
    b = Simulator(presets.gpu_host(1, "V100"))
    ta = _run(a, Kernel(3e12, 5e9, "float16"), Kernel(1e9, 1e10, "float32", "elementwise"))
    b.drive(b.compute("GPU:0", 3e12))
    b.drive(b.compute("GPU:0", 1e9))
    assert a.cost_model == "flops" and ta == b.now


def test_device_without_rates_is_timed_by_its_flops():
    d = Device("GPU", 0, flops="100TFLOPS")
    assert d.rates is None
    sim = Simulator(Cluster([Host(gpus=[d])]), cost_model="roofline")
    t = _run(sim, Kernel(1e12, 1e12, "float16"))
    assert t == pytest.approx(1e12 / 100e12 + d.launch_overhead)
    assert Device("GPU", 0).rates is hardware.GPUS["A100"].rates, "a default GPU is the preset A100"
    assert Device("CPU", 0).rates is None


@pytest.mark.parametrize("bad, match", [
    (dict(flops=-1.0), "Kernel.flops"), (dict(flops=1.0, bytes=float("nan")), "Kernel.bytes"),
    (dict(flops=1.0, kind="conv"), "Kernel.kind"), (dict(flops=1.0, dtype="float8"), "Kernel.dtype")])
def test_bad_kernels_are_refused(bad, match):
    with pytest.raises(ValueError, match=match):
        Kernel(**bad)


def test_unknown_cost_model_is_refused():
    with pytest.raises(ValueError, match="Simulator.cost_model: unknown cost model 'exact'"):
        Simulator(presets.gpu_host(1), cost_model="exact")
    import simdist
    with pytest.raises(ValueError, match=r"configure\(cost_model=...\)"):
        simdist.configure(gpus=1, cost_model="Roofline")


def test_scenario_records_its_cost_model_and_roofline_is_byte_identical_to_the_default():
    # (a GPU scenario's default is the roofline: docs/scenarios.md "Cost model and collectives")
    from simdist.scenario.loader import load
    from simdist.scenario.runner import run
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "scenarios" / "mirrored_allreduce.toml"
    default = run(load(path, quick=True)).metrics
    explicit = run(load(path, quick=True, overrides=[("cluster.cost_model", "roofline")])).metrics
    flops = run(load(path, quick=True, overrides=[("cluster.cost_model", "flops")])).metrics
    assert default["scenario"]["cost_model"] == "roofline" and flops["scenario"]["cost_model"] == "flops", \
        f"cost models {default['scenario']['cost_model']} / {flops['scenario']['cost_model']}, but should be " \
        "roofline (default) / flops (explicit)"
    strip = lambda m: json.dumps({**m, "digest": None, "scenario": {**m["scenario"], "overrides": {}, "digest": None}},
                                 sort_keys=True)
    assert strip(default) == strip(explicit), "an explicit roofline cost model must not change the metrics"
    assert flops["summary"]["simulated_time_s"] != default["summary"]["simulated_time_s"]


def test_a_gpu_flops_override_is_timed_by_its_flops_under_the_roofline():
    """A scenario that sets cluster.gpu_flops gives up the datasheet rates: both models agree."""
    from pathlib import Path
    from simdist.scenario.loader import load
    from simdist.scenario.runner import run
    path = Path(__file__).resolve().parents[2] / "scenarios" / "mirrored_allreduce.toml"
    times = [run(load(path, quick=True, overrides=[("cluster.gpu_flops", "100TFLOPS"), ("cluster.cost_model", m)]))
             .metrics["summary"]["simulated_time_s"] for m in ("flops", "roofline")]
    assert times[0] == times[1], f"gpu_flops override: flops model {times[0]}, roofline {times[1]}"


def _step_flops(tf, start: float) -> float:
    """The tally's reading of a small float16/float32 step on GPU:0 begun with the tally at ``start``."""
    from simdist.runtime import cost
    cost.tally.flops = start
    with tf.device("/GPU:0"), cost.measure() as m:
        x = tf.constant(np.linspace(-1.0, 1.0, 48 * 40).reshape(48, 40), dtype=tf.float16)
        w = tf.constant(np.linspace(0.5, -0.5, 40 * 24).reshape(40, 24), dtype=tf.float16)
        y = tf.nn.softmax(tf.cast(tf.matmul(x, w), tf.float32) + 0.1)
        tf.reduce_sum(y * y)
    return m.flops


def test_roofline_tally_readings_do_not_depend_on_what_ran_before():
    """Regression (train_transformer.toml gave other last bits in a fresh process): the roofline's
    per-op charges are whole FLOPs, so a reading of the tally (a section, a replica's phase, a
    recorded graph) is exact and the same whatever the tally held before (earlier runs)."""
    import simdist
    from simdist import tf
    from simdist.runtime import cost
    saved = cost.tally.flops
    simdist.configure(gpus=1, cost_model="roofline")
    try:
        got = {start: _step_flops(tf, start) for start in (0.0, 1e12 + 0.375, 3.3e13 + 0.7)}
    finally:
        cost.tally.flops = saved
        simdist.reset()
    first = got[0.0]
    for start, fl in got.items():
        assert fl == first, f"the step read {fl!r} FLOPs from a tally at {start!r}, but {first!r} from 0 [roofline]"
    assert first > 0 and first == int(first), f"a roofline step's FLOPs {first!r}, but should be a whole number"
