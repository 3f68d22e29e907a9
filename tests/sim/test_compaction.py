"""Shortcuts in the network's re-rating change nothing but cost: compacting superseded timers out
of the queue, scanning small components instead of a heap, remembering small components' rates."""

from __future__ import annotations

import pytest

import simdist.sim.network as network
import simdist.sim.sharing as sharing
from simdist.sim import Simulator, presets


def contended_run() -> dict:
    """Many flows of different sizes through shared NICs: every start/finish re-rates the rest."""
    cluster = presets.cpu_cluster(jobs={"worker": 8, "ps": 2})
    sim = Simulator(cluster, seed=0)
    workers = [d.name for d in cluster.devices() if "/job:worker/" in d.name]
    ps = [d.name for d in cluster.devices() if "/job:ps/" in d.name]

    def worker(i: int, w: str):
        for k in range(6):
            yield sim.all_of([sim.transfer(p, w, (1 + i + k) * 1_000_003) for p in ps])
            yield sim.compute(w, 1e8 * (1 + i % 3))
            yield sim.all_of([sim.transfer(w, p, (2 + k) * 700_001) for p in ps])

    sim.drive(sim.all_of([sim.process(worker(i, w)) for i, w in enumerate(workers)]))
    return {"now": sim.now, "metrics": sim.metrics()}


def test_compaction_keeps_results_identical(monkeypatch):
    plain = contended_run()
    monkeypatch.setattr(network, "_COMPACT_AT", 5)
    compacted = contended_run()
    assert compacted["now"] == plain["now"], (compacted["now"], plain["now"])
    assert compacted["metrics"]["links"] == plain["metrics"]["links"]
    assert compacted["metrics"]["devices"] == plain["metrics"]["devices"]


def test_scanned_and_heap_filling_give_identical_rates(monkeypatch):
    """Small components are filled by scanning for the bottleneck, large ones with a heap; the
    two must choose the same bottlenecks and do the same arithmetic, so the whole run — every
    finish time, hence the end time and each link's busy time — is bit-for-bit the same."""
    monkeypatch.setattr(sharing, "SCAN_MAX", 0)
    heap = contended_run()
    monkeypatch.setattr(sharing, "SCAN_MAX", 10**9)
    scan = contended_run()
    assert scan["now"] == heap["now"], f"end time {scan['now']!r} by scanning, but {heap['now']!r} with the heap"
    assert scan["metrics"]["links"] == heap["metrics"]["links"], "link metrics differ between scan and heap filling"


def test_superseded_timers_are_counted_out_when_they_fire():
    """Each re-rating leaves the old completion timer in the queue; when it fires (a no-op) it
    must leave the count that triggers compaction, or a long run would compact on every timer."""
    cluster = presets.cpu_cluster(jobs={"worker": 2, "ps": 2})
    sim = Simulator(cluster, seed=0)
    ps = [d.name for d in cluster.devices() if "/job:ps/" in d.name]
    w = [d.name for d in cluster.devices() if "/job:worker/" in d.name][0]
    for _ in range(50):   # a big and a small read share the worker's NIC: the big one is re-rated
        sim.drive(sim.transfers([(ps[0], w, 1 << 18, "big"), (ps[1], w, 1 << 10, "small")]))
    sim.run()   # drain: the last round's superseded timer fires after the round ended
    net = sim._net
    assert net.flushes >= 100, f"expected >= 2 re-ratings per round, got {net.flushes} for 50 rounds"
    assert net.stale == 0, f"{net.stale} superseded timers still counted after the queue drained (should be 0)"


def test_remembered_component_rates_equal_computed_ones(monkeypatch):
    """Small components' rates are remembered by their routes; with the memo off (every
    component filled afresh) the run must be bit-for-bit the same."""
    memo = contended_run()
    monkeypatch.setattr(network, "_MEMO_FLOWS", 1)
    fresh = contended_run()
    assert memo["now"] == fresh["now"], f"end time {memo['now']!r} with the memo, but {fresh['now']!r} without"
    assert memo["metrics"]["links"] == fresh["metrics"]["links"], "link metrics differ with and without the memo"


def test_set_link_forgets_remembered_rates():
    """After set_link halves a NIC, a component seen before must get rates for the new capacity,
    not the remembered ones: two equal transfers sharing the NIC take twice as long."""
    cluster = presets.cpu_cluster(jobs={"worker": 1, "ps": 2})
    sim = Simulator(cluster, seed=0)
    ps = [d.name for d in cluster.devices() if "/job:ps/" in d.name]
    w = [d.name for d in cluster.devices() if "/job:worker/" in d.name][0]
    moves = [(ps[0], w, 1 << 24, "a"), (ps[1], w, 1 << 24, "b")]
    t0 = sim.now
    sim.drive(sim.transfers(moves))
    before = sim.now - t0
    nic = [ln.name for ln in cluster.links if ln.name.startswith("/job:worker/")][0]
    sim.set_link(nic, bandwidth=sim.link_state(nic)["bandwidth"] / 2)
    t1 = sim.now
    sim.drive(sim.transfers(moves))
    after = sim.now - t1
    lat = cluster.path(ps[0], w).latency
    assert (after - lat) == pytest.approx(2 * (before - lat), rel=1e-9), (
        f"bandwidth time after halving the NIC: {after - lat!r}s, but should be 2 x {before - lat!r}s")
