"""All-reduce schedules against their closed forms (see simdist/sim/collectives.py)."""

from __future__ import annotations

import pytest

from simdist.sim import Cluster, Device, Host, Simulator, presets

BW = 10e9
LAT = 20e-6
FLOPS = 1e11
OVERHEAD = 3e-6


def ring_of_hosts(n, flops=FLOPS):
    """n single-CPU hosts on a uniform network: ring i -> i+1 uses NIC i out and NIC i+1 in only."""
    return Cluster([Host("worker", t, cpus=[Device("CPU", 0, flops, "64GiB", OVERHEAD)]) for t in range(n)],
                   network=(BW, LAT))


def cpus(n):
    return [f"/job:worker/replica:0/task:{t}/device:CPU:0" for t in range(n)]


def ring_time(n, nbytes, bw, lat, flops, overhead):
    """launch + 2(N-1) steps of (latency + (B/N)/bw) + (N-1) reductions of B/N/4 FLOPs."""
    chunk = nbytes / n
    return overhead + 2 * (n - 1) * (lat + chunk / bw) + (n - 1) * (chunk / 4) / flops


@pytest.mark.parametrize("n", [2, 3, 4, 8])
def test_ring_all_reduce_closed_form(n):
    sim = Simulator(ring_of_hosts(n))
    B = 64 * 2**20
    sim.drive(sim.all_reduce(cpus(n), B, "ring"))
    expected = ring_time(n, B, BW, LAT, FLOPS, OVERHEAD)
    assert sim.now == pytest.approx(expected, rel=1e-12), f"N={n}: expected {expected}, got {sim.now}"
    m = sim.metrics()
    nic0 = m["links"]["/job:worker/replica:0/task:0/nic"]
    # every rank sends and receives 2(N-1) chunks of B/N
    assert nic0["transfers"] == 2 * 2 * (n - 1), nic0
    assert nic0["bytes"] == pytest.approx(2 * 2 * (n - 1) * B / n, rel=1e-12), nic0
    assert m["transfers"]["count"] == n * 2 * (n - 1), m["transfers"]


def test_ring_on_nvlink_host_uses_preset_figures():
    c = presets.gpu_host(gpus=8)
    h = c.hosts[0]
    gpus = [d.name for d in h.gpus]
    sim = Simulator(c)
    B = 256 * 2**20
    sim.drive(sim.all_reduce(gpus, B))
    nv = h.nvlink[0]
    g = h.gpus[0]
    expected = ring_time(8, B, nv.bandwidth, 2 * nv.latency, g.flops, g.launch_overhead)
    assert sim.now == pytest.approx(expected, rel=1e-12), f"expected {expected}, got {sim.now}"


def test_ring_bus_bandwidth_approaches_link_bandwidth():
    """nccl-tests: busbw = (B / t) * 2(n-1)/n must approach the link bandwidth for large B
    (on GPU-class devices, where the reduction arithmetic is negligible next to the transfer)."""
    n, B = 8, 2**30
    sim = Simulator(ring_of_hosts(n, flops=100e12))
    sim.drive(sim.all_reduce(cpus(n), B))
    busbw = B / sim.now * 2 * (n - 1) / n
    assert 0.99 * BW < busbw <= BW, f"busbw {busbw:.4g} B/s should be within 1% below the link's {BW:.4g} B/s"


@pytest.mark.parametrize("n", [2, 3, 8])
def test_ring_all_gather_is_n_minus_1_steps_without_arithmetic(n):
    """A ring all-gather of B bytes (B/N from each rank): N-1 steps of one B/N chunk per rank and no
    reduction kernel, half the transfers of a ring all-reduce (it used to be charged as one)."""
    sim = Simulator(ring_of_hosts(n))
    B = 64 * 2**20
    sim.drive(sim.all_gather(cpus(n), B))
    expected = OVERHEAD + (n - 1) * (LAT + (B / n) / BW)
    assert sim.now == pytest.approx(expected, rel=1e-12), f"N={n}: expected {expected}, got {sim.now}"
    m = sim.metrics()
    assert m["transfers"]["count"] == n * (n - 1), m["transfers"]
    assert m["collectives"] == {"all_gather": 1}, m["collectives"]
    kernels = {d: v["kernels"] for d, v in m["devices"].items()}
    assert set(kernels.values()) == {1}, f"one collective kernel per rank and no reduction, got {kernels}"


@pytest.mark.parametrize("n", [2, 3, 8])
def test_ring_reduce_scatter_is_n_minus_1_reducing_steps(n):
    """A ring reduce-scatter of B bytes (each rank ends with its B/N of the sum): N-1 steps of one B/N chunk per
    rank, each reducing the chunk it receives (B/N/4 FLOPs), where the all-gather of the same B does no arithmetic."""
    sim = Simulator(ring_of_hosts(n))
    B = 64 * 2**20
    sim.drive(sim.reduce_scatter(cpus(n), B))
    expected = OVERHEAD + (n - 1) * (LAT + (B / n) / BW) + (n - 1) * (B / n / 4) / FLOPS
    assert sim.now == pytest.approx(expected, rel=1e-12), f"N={n}: expected {expected}, got {sim.now}"
    m = sim.metrics()
    assert m["transfers"]["count"] == n * (n - 1), m["transfers"]
    assert m["collectives"] == {"reduce_scatter": 1}, m["collectives"]
    analytic = Simulator(ring_of_hosts(n), collectives="analytic")
    analytic.drive(analytic.reduce_scatter(cpus(n), B))
    assert analytic.now == sim.now, f"analytic {analytic.now} != chunked {sim.now} [reduce_scatter, N={n}]"


def test_reduce_to_one_closed_form():
    n = 4
    sim = Simulator(ring_of_hosts(n))
    B = 8 * 2**20
    sim.drive(sim.all_reduce(cpus(n), B, algorithm="reduce_to_one"))
    # N-1 flows into root's NIC (BW/(N-1) each), reduce (N-1)*B/4 FLOPs, N-1 flows out of it.
    expected = OVERHEAD + 2 * (LAT + (n - 1) * B / BW) + (n - 1) * B / 4 / FLOPS
    assert sim.now == pytest.approx(expected, rel=1e-12), f"expected {expected}, got {sim.now}"


def test_trivial_collectives_take_no_time():
    sim = Simulator(ring_of_hosts(2))
    sim.drive(sim.all_reduce(cpus(1), 2**20))
    sim.drive(sim.all_reduce(cpus(2), 0))
    assert sim.now == 0.0, f"one rank / zero bytes: expected 0, got {sim.now}"


def test_bad_arguments():
    sim = Simulator(ring_of_hosts(2))
    with pytest.raises(ValueError) as e:
        sim.all_reduce(cpus(2), 10, algorithm="butterfly")
    assert str(e.value) == ("all_reduce.algorithm: unknown algorithm 'butterfly'; known algorithms: "
                            "'hierarchical', 'reduce_to_one', 'ring', 'tree', 'nccl', "
                            "'nccl:<algorithm>[:<protocol>]'"), str(e.value)
    with pytest.raises(ValueError, match=r"all_reduce\.nbytes: expected a number >= 0, got -3"):
        sim.all_reduce(cpus(2), -3)
    with pytest.raises(KeyError, match="unknown device"):
        sim.all_reduce(["/job:worker/task:9/device:CPU:0"], 10)


def test_a_set_of_devices_is_sorted_into_cluster_order():
    n = 5
    a = Simulator(ring_of_hosts(n), trace=None)
    a.drive(a.all_reduce(set(cpus(n)), 2**20))
    b = Simulator(ring_of_hosts(n))
    b.drive(b.all_reduce(cpus(n), 2**20))
    assert a.metrics() == b.metrics(), "a set of devices must give the same schedule as the sorted list"


def test_collective_shares_device_queue_with_kernels():
    """A kernel queued before the collective delays that rank's launch, and so the whole ring."""
    n = 3
    sim = Simulator(ring_of_hosts(n))
    B = 3e6
    busy = 1e-3
    sim.compute(cpus(n)[1], busy * FLOPS, "long kernel", overhead=False)
    sim.drive(sim.all_reduce(cpus(n), B))
    # rank 1 launches at busy + OVERHEAD, others at OVERHEAD; a ring is limited by its slowest rank's start.
    expected = busy + ring_time(n, B, BW, LAT, FLOPS, OVERHEAD)
    assert sim.now == pytest.approx(expected, rel=1e-12), f"expected {expected}, got {sim.now}"


def test_ranks_sharing_a_device():
    """Two ranks on one device (logical devices of one physical CPU) exchange chunks for free and
    queue their kernels on the same device: a 2-rank ring on one device is two launches and two
    reductions of B/2/4 FLOPs, one after the other."""
    sim = Simulator(ring_of_hosts(1))
    B = 4e6
    sim.drive(sim.all_reduce(cpus(1) * 2, B))
    expected = 2 * OVERHEAD + 2 * (B / 2 / 4) / FLOPS
    assert sim.now == pytest.approx(expected, rel=1e-12), f"expected {expected}, got {sim.now}"
