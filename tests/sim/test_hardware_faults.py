"""Hardware faults applied by the simulator for every strategy: stragglers (Simulator.slow_device)
and link degradation windows (Simulator.degrade_link), directly and through a FaultPlan given to
simdist.configure for a MirroredStrategy program written with the facade."""

from __future__ import annotations

import pytest

import simdist
from simdist import tf
from simdist.faults import FaultPlan, LinkDegradation, Straggler
from simdist.sim import Cluster, Device, Host, Simulator

RATE = 1e12
OVERHEAD = 1e-6


def one_host() -> Cluster:
    return Cluster([Host("worker", 0, cpus=[Device("CPU", 0, RATE, "1GiB", OVERHEAD)])])


def kernel_ends(sim: Simulator, starts_and_flops: list[tuple[float, float]]) -> list[float]:
    out = []
    for t, flops in starts_and_flops:
        if t > sim.now:
            sim.drive(sim.timeout(t - sim.now))
        out.append(sim.now)
        sim.drive(sim.compute("CPU:0", flops, "k"))
        out[-1] = sim.now - out[-1]
    return out


def test_straggler_window_slows_kernels_that_start_inside_it():
    sim = Simulator(one_host())
    sim.slow_device("CPU:0", 3.0, start=1.0, end=2.0)
    sim.slow_device("CPU:0", 2.0, start=1.5)           # overlapping windows multiply
    f = 1e11                                           # 0.1 s at full speed
    got = kernel_ends(sim, [(0.0, f), (1.0, f), (1.6, f), (2.5, f)])
    expected = [f / RATE + OVERHEAD, f * 3.0 / RATE + OVERHEAD, f * 6.0 / RATE + OVERHEAD, f * 2.0 / RATE + OVERHEAD]
    assert got == pytest.approx(expected, rel=1e-12), f"kernel durations {got}, expected {expected}"


def test_bad_straggler_and_window_are_refused_with_the_rule():
    sim = Simulator(one_host())
    with pytest.raises(ValueError, match=r"slowdown: expected a factor >= 1, got 0.5"):
        sim.slow_device("CPU:0", 0.5)
    with pytest.raises(ValueError, match=r"end: expected a time after start \(2.0 s\), got 1.0"):
        sim.slow_device("CPU:0", 2.0, start=2.0, end=1.0)
    with pytest.raises(ValueError, match=r"bandwidth_factor: expected a number > 0, got 0"):
        sim.degrade_link("/job:worker/replica:0/task:0/nic", bandwidth_factor=0)


def test_link_window_applies_from_start_to_end():
    c = Cluster([Host("worker", t, cpus=1) for t in range(2)], network=(1e9, 0.0))
    sim = Simulator(c)
    nic = "/job:worker/replica:0/task:1/nic"
    sim.degrade_link(nic, bandwidth_factor=0.5, start=1.0, end=3.0)
    src, dst = "/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:1/device:CPU:0"
    sim.drive(sim.transfer(src, dst, 0.5e9))                 # 0.5 s at 1 GB/s, before the window
    assert sim.now == pytest.approx(0.5, rel=1e-12), sim.now
    sim.drive(sim.timeout(0.5))
    sim.drive(sim.transfer(src, dst, 1e9))                   # from t=1: 0.5 GB/s until t=3
    assert sim.now == pytest.approx(3.0, rel=1e-12), f"expected 3.0 s (half rate in the window), got {sim.now}"
    assert sim.link_state(nic)["bandwidth"] == 1e9, sim.link_state(nic)
    sim.drive(sim.transfer(src, dst, 1e9))                   # after the window: full rate
    assert sim.now == pytest.approx(4.0, rel=1e-12), sim.now


def test_overlapping_link_windows_compose():
    """Two windows on one link overlap: while both are active the link runs at the nominal
    bandwidth times both factors (latency likewise); when the first ends the second still holds
    (it used to restore the nominal figures while the other window was still active)."""
    nominal_lat = 1e-6
    c = Cluster([Host("worker", t, cpus=1) for t in range(2)], network=(1e9, nominal_lat))
    sim = Simulator(c)
    nic = "/job:worker/replica:0/task:1/nic"
    lat0 = sim.link_state(nic)["latency"]
    sim.degrade_link(nic, bandwidth_factor=0.5, latency_factor=2.0, start=1.0, end=3.0)
    sim.degrade_link(nic, bandwidth_factor=0.5, latency_factor=3.0, start=2.0, end=4.0)
    seen = []
    for t in (0.5, 1.5, 2.5, 3.5, 4.5):
        sim.drive(sim.timeout(t - sim.now))
        seen.append((sim.link_state(nic)["bandwidth"], sim.link_state(nic)["latency"]))
    expected = [(1e9, lat0), (0.5e9, lat0 * 2.0), (0.25e9, lat0 * 2.0 * 3.0), (0.5e9, lat0 * 3.0), (1e9, lat0)]
    assert seen == expected, f"link (bandwidth, latency) at t=0.5/1.5/2.5/3.5/4.5: got {seen}, expected {expected}"

    # A transfer across the windows: 1 GB from t=1 (0.5 GB/s), 0.25 GB/s from t=2, 0.5 GB/s from t=3.
    sim2 = Simulator(Cluster([Host("worker", t, cpus=1) for t in range(2)], network=(1e9, 0.0)))
    sim2.degrade_link(nic, bandwidth_factor=0.5, start=1.0, end=3.0)
    sim2.degrade_link(nic, bandwidth_factor=0.5, start=2.0, end=4.0)
    sim2.drive(sim2.timeout(1.0))
    src, dst = "/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:1/device:CPU:0"
    sim2.drive(sim2.transfer(src, dst, 1e9))
    assert sim2.now == pytest.approx(3.5, rel=1e-12), \
        f"expected the transfer to end at 3.5 s (0.5 + 0.25 GB sent by t=3, the rest at 0.5 GB/s), got {sim2.now}"


def _mirrored_busy(faults: FaultPlan | None) -> dict[str, float]:
    simdist.configure(gpus=2, faults=faults, seed=0)
    try:
        strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])

        @simdist.sim.flops(4e12)
        def step(x):
            return x * 2.0

        strategy.run(step, args=(tf.constant(1.0),))
        m = simdist.session.simulator().metrics()["devices"]
        return {d.split("device:")[1]: v["busy_s"] for d, v in m.items() if "GPU" in d}
    finally:
        simdist.reset()


def test_straggler_reaches_a_mirrored_program_written_with_the_facade():
    """A FaultPlan's straggler slows the replica's kernels of a MirroredStrategy run: the strategy
    never sees the plan, the simulator applies it (it used to be ParameterServer-only)."""
    base = _mirrored_busy(None)
    slow = _mirrored_busy(FaultPlan(stragglers=[Straggler(worker=None, slowdown=3.0, device="GPU:1")]))
    assert slow["GPU:0"] == base["GPU:0"], f"GPU:0 is not straggling: {slow} vs {base}"
    overhead = simdist.sim.hardware.GPUS["A100"].launch_overhead
    flop_time = base["GPU:1"] - overhead
    assert slow["GPU:1"] == pytest.approx(3.0 * flop_time + overhead, rel=1e-9), \
        f"GPU:1 busy {slow['GPU:1']} s, expected 3x its FLOP time {flop_time} s + overhead (base {base})"


def test_fault_plan_naming_a_missing_device_or_link_is_refused_at_configure():
    with pytest.raises(ValueError, match=r"FaultPlan.stragglers\[0\]: unknown device 'GPU:7'"):
        simdist.configure(gpus=2, faults=FaultPlan(stragglers=[Straggler(worker=None, slowdown=2.0, device="GPU:7")]))
    with pytest.raises(ValueError, match=r"no host /job:worker/replica:0/task:3"):
        simdist.configure(gpus=2, faults=FaultPlan(stragglers=[Straggler(worker=3, slowdown=2.0)]))
    with pytest.raises(ValueError, match=r"FaultPlan.links\[0\].link='nope' is not a link of the cluster"):
        simdist.configure(gpus=2, faults=FaultPlan(links=[LinkDegradation(link="nope", bandwidth_factor=0.5)]))
    simdist.reset()
