"""Transfers: latency + bytes/bandwidth, processor sharing on one link, max-min fairness on routes."""

from __future__ import annotations

import pytest

from simdist.sim import Cluster, Host, Simulator

REL = 1e-12
BW = 10e9      # bytes/s
LAT = 5e-6     # s


def pcie_host():
    """One host, one CPU, one GPU; the GPU's PCIe link has bandwidth BW and latency LAT."""
    return Cluster([Host(cpus=1, gpus=1, pcie=(BW, LAT))])


def star(n_hosts, latency=LAT):
    """n CPU hosts on a network of BW per NIC per direction and `latency` host-to-host."""
    return Cluster([Host("worker", t) for t in range(n_hosts)], network=(BW, latency))


def cpu(t):
    return f"/job:worker/replica:0/task:{t}/device:CPU:0"


def finish_times(sim, events):
    """Run the simulation and record when each event fired."""
    out = [None] * len(events)
    for i, ev in enumerate(events):
        ev.callbacks.append(lambda _e, i=i: out.__setitem__(i, sim.now))
    sim.run()
    return out


def test_one_transfer_is_latency_plus_bytes_over_bandwidth():
    sim = Simulator(pcie_host())
    B = 64 * 2**20
    sim.drive(sim.transfer("/cpu:0", "/gpu:0", B, "h2d"))
    expected = LAT + B / BW
    assert sim.now == pytest.approx(expected, rel=REL), f"expected {expected}, got {sim.now}"


@pytest.mark.parametrize("k", [2, 3, 8])
def test_k_concurrent_transfers_share_one_link(k):
    sim = Simulator(pcie_host())
    B = 4 * 2**20
    evs = [sim.transfer("/cpu:0", "/gpu:0", B, f"t{i}") for i in range(k)]
    got = finish_times(sim, evs)
    expected = LAT + k * B / BW
    for i, t in enumerate(got):
        assert t == pytest.approx(expected, rel=REL), f"transfer {i} of {k}: expected {expected}, got {t}"


def test_opposite_directions_do_not_share():
    sim = Simulator(pcie_host())
    B = 2**20
    got = finish_times(sim, [sim.transfer("/cpu:0", "/gpu:0", B), sim.transfer("/gpu:0", "/cpu:0", B)])
    expected = LAT + B / BW
    assert got == [pytest.approx(expected, rel=REL)] * 2, f"full duplex: expected both at {expected}, got {got}"


def test_processor_sharing_with_staggered_start():
    """A (2 MB) starts at 0, B (1 MB) joins at t1: both run at BW/2 until B finishes, then A at BW."""
    sim = Simulator(pcie_host())
    a_bytes, b_bytes, t1 = 2e6, 1e6, 50e-6
    done = {}

    def proc():
        ev_a = sim.transfer("/cpu:0", "/gpu:0", a_bytes, "A")
        ev_a.callbacks.append(lambda _e: done.__setitem__("A", sim.now))
        yield sim.timeout(t1)
        ev_b = sim.transfer("/cpu:0", "/gpu:0", b_bytes, "B")
        ev_b.callbacks.append(lambda _e: done.__setitem__("B", sim.now))
        yield sim.all_of([ev_a, ev_b])

    sim.drive(proc())
    # A flows from LAT; B joins at t1 + LAT. A has sent BW*t1 by then.
    a_left = a_bytes - BW * t1
    b_end = t1 + LAT + b_bytes / (BW / 2)
    a_end = b_end + (a_left - b_bytes) / BW
    assert done["B"] == pytest.approx(b_end, rel=1e-9), f"B: expected {b_end}, got {done['B']}"
    assert done["A"] == pytest.approx(a_end, rel=1e-9), f"A: expected {a_end}, got {done['A']}"


def test_max_min_fairness_across_links():
    """f1..f3: hosts 1,2,3 -> host 0 share host 0's NIC-in (BW/3 each). f4: host 1 -> host 2 shares
    host 1's NIC-out with f1, so max-min gives it BW - BW/3 = 2BW/3 (a per-link bottleneck rule
    would give BW/2). When f1..f3 end at 3B/BW, f4 (4B) has sent 2B and finishes the rest at BW."""
    sim = Simulator(star(4))
    B = 1e6
    evs = [sim.transfer(cpu(i), cpu(0), B, f"f{i}") for i in (1, 2, 3)]
    evs.append(sim.transfer(cpu(1), cpu(2), 4 * B, "f4"))
    got = finish_times(sim, evs)
    exp = [LAT + 3 * B / BW] * 3 + [LAT + 5 * B / BW]
    for name, t, e in zip(["f1", "f2", "f3", "f4"], got, exp):
        assert t == pytest.approx(e, rel=1e-9), f"{name}: expected {e}, got {t}"


def test_route_latency_and_bottleneck_across_hosts():
    """GPU on host 0 -> GPU on host 1 crosses PCIe (fast) and the NICs (slow): latency adds up,
    the NIC is the bottleneck."""
    pcie, nic = 25e9, 12.5e9
    c = Cluster([Host("worker", t, gpus=1, pcie=(pcie, "2us")) for t in range(2)], network=(nic, "10us"))
    sim = Simulator(c)
    B = 8e6
    sim.drive(sim.transfer("/job:worker/task:0/device:GPU:0", "/job:worker/task:1/device:GPU:0", B))
    expected = 2e-6 + 10e-6 + 2e-6 + B / nic
    assert sim.now == pytest.approx(expected, rel=REL), f"expected {expected}, got {sim.now}"


def test_same_device_and_zero_bytes():
    sim = Simulator(pcie_host())
    sim.drive(sim.transfer("/gpu:0", "/gpu:0", 1e9))
    assert sim.now == 0.0, f"same device: expected 0, got {sim.now}"
    sim.drive(sim.transfer("/cpu:0", "/gpu:0", 0))
    assert sim.now == pytest.approx(LAT, rel=REL), f"zero bytes: expected latency {LAT}, got {sim.now}"
    with pytest.raises(ValueError, match=r"transfer\('x'\)\.nbytes: expected a number >= 0, got -1"):
        sim.transfer("/cpu:0", "/gpu:0", -1, "x")


def test_link_metrics():
    sim = Simulator(pcie_host())
    B = 1e6
    sim.drive(sim.all_of([sim.transfer("/cpu:0", "/gpu:0", B) for _ in range(2)]))
    m = sim.metrics()["links"]["/job:localhost/replica:0/task:0/pcie:GPU:0"]
    busy = 2 * B / BW  # the latency phase does not occupy the link
    assert m["bytes"] == 2 * B and m["transfers"] == 2, m
    assert m["busy_s"] == pytest.approx(busy, rel=REL), f"busy_s: expected {busy}, got {m['busy_s']}"
    assert m["busy_fraction"] == pytest.approx(busy / (LAT + busy), rel=REL), m


def test_set_link_rerates_flows_in_flight():
    """B bytes at BW; at t1 the link drops to BW/10: the rest goes at BW/10. A later transfer sees
    the new latency; restoring the figures restores the closed form."""
    sim = Simulator(pcie_host())
    link = "/job:localhost/replica:0/task:0/pcie:GPU:0"
    B, t1 = 1e6, 40e-6

    def proc():
        ev = sim.transfer("/cpu:0", "/gpu:0", B)
        yield sim.timeout(t1)
        sim.set_link(link, bandwidth=BW / 10, latency="50us")
        yield ev

    sim.drive(proc())
    sent = BW * (t1 - LAT)
    expected = t1 + (B - sent) / (BW / 10)
    assert sim.now == pytest.approx(expected, rel=1e-12), f"expected {expected}, got {sim.now}"
    assert sim.link_state(link) == {"bandwidth": BW / 10, "latency": 50e-6}
    assert sim.cluster.link(link).bandwidth == BW, "the Cluster's Link keeps its nominal figures"
    t2 = sim.now
    sim.drive(sim.transfer("/cpu:0", "/gpu:0", B))
    assert sim.now - t2 == pytest.approx(50e-6 + B / (BW / 10), rel=1e-12)
    sim.set_link(link, bandwidth=BW, latency=LAT)
    t3 = sim.now
    sim.drive(sim.transfer("/cpu:0", "/gpu:0", B))
    assert sim.now - t3 == pytest.approx(LAT + B / BW, rel=1e-12)
    with pytest.raises(KeyError, match="unknown link 'nope'"):
        sim.set_link("nope", bandwidth=1)
    with pytest.raises(ValueError, match=r"set_link\('/job:localhost/replica:0/task:0/pcie:GPU:0'\)\.bandwidth: must be > 0"):
        sim.set_link(link, bandwidth=0)


def test_transfers_group_ends_with_its_last_transfer():
    """`transfers` starts several transfers at once and fires when the last arrives: the same
    time as `all_of` over single transfers, with the same link metrics."""
    moves = [(cpu(0), cpu(1), 3 * 2**20, "a"), (cpu(0), cpu(2), 2**20, "b"), (cpu(3), cpu(1), 2**20, "c")]
    ref = Simulator(star(4))
    ref.drive(ref.all_of([ref.transfer(s, d, b, n) for s, d, b, n in moves]))
    sim = Simulator(star(4))
    sim.drive(sim.transfers(moves))
    assert sim.now == pytest.approx(ref.now, rel=REL), f"group ended at {sim.now}, but all_of at {ref.now}"
    assert sim.metrics()["links"] == ref.metrics()["links"], "link metrics differ between transfers() and all_of"
    sim.drive(sim.transfers([(cpu(0), cpu(0), 1e9, "same host")]))
    assert sim.now == pytest.approx(ref.now, rel=REL), f"a same-device group must take no time, ended at {sim.now}"
    with pytest.raises(ValueError, match=r"transfer\('x'\)\.nbytes: expected a number >= 0, got -1"):
        sim.transfers([(cpu(0), cpu(1), -1, "x")])


def test_compute_then_transfers_is_compute_then_transfers():
    """`compute_then_transfers` books the kernel now and starts the transfers at its end: the
    same end time, device and link metrics as yielding `compute` then `transfers`; a gate that
    says no at the kernel's end sends nothing."""
    moves = [(cpu(0), cpu(1), 2**20, "a"), (cpu(0), cpu(2), 2**19, "b")]

    def two_steps(sim):
        yield sim.compute(cpu(0), 4e9, "k")
        yield sim.transfers(moves)
    ref = Simulator(star(3))
    ref.drive(ref.env.process(two_steps(ref)))
    sim = Simulator(star(3))
    sim.drive(sim.compute_then_transfers(cpu(0), 4e9, "k", moves))
    assert sim.now == ref.now, f"ended at {sim.now}, but compute then transfers ends at {ref.now}"
    got, want = sim.metrics(), ref.metrics()
    assert got.pop("events") < want.pop("events"), "compute_then_transfers should need fewer events"
    assert got == want, f"metrics={got}, but compute then transfers gives {want}"
    gated = Simulator(star(3))
    gated.compute_then_transfers(cpu(0), 4e9, "k", moves, gate=lambda: False)
    gated.run()
    assert gated.metrics()["links"] == Simulator(star(3)).metrics()["links"], \
        f"links={gated.metrics()['links']}, but a closed gate should send nothing"


def test_prepared_transfers_are_the_same_transfers():
    """`transfers(sim.prepare(moves))` starts the same transfers as `transfers(moves)`, again each
    time; `prepare` checks sizes once, with transfer's message."""
    moves = [(cpu(0), cpu(1), 3 * 2**20, "a"), (cpu(0), cpu(2), 2**20, "b"), (cpu(3), cpu(3), 2**20, "same")]
    ref = Simulator(star(4))
    sim = Simulator(star(4))
    prepared = sim.prepare(moves)
    for _ in range(2):
        ref.drive(ref.transfers(moves))
        sim.drive(sim.transfers(prepared))
    assert sim.now == ref.now, f"prepared transfers ended at {sim.now}, but plain ones at {ref.now}"
    assert sim.metrics() == ref.metrics(), "metrics differ between prepared and plain transfers"
    with pytest.raises(ValueError, match=r"transfer\('x'\)\.nbytes: expected a number >= 0, got nan"):
        sim.prepare([(cpu(0), cpu(1), float("nan"), "x")])
