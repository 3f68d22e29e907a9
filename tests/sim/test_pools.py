"""Pools (per-channel virtual time, simdist/sim/network.py) against per-flow progressive filling:
the same results, and no re-rating of unrelated flows once a large component is pooled."""

from __future__ import annotations

import numpy as np
import pytest

import simdist.sim.network as network
import simdist.sim.sharing as sharing
from simdist.sim import Simulator, presets

NEVER = 10**9   # pool_min that keeps every flow on per-flow rating (the reference)


def ps_run(pool_min: int, workers: int = 96, ps: int = 4, rounds: int = 4, jitter: bool = False,
           degrade: bool = False) -> tuple[Simulator, dict[int, float]]:
    """Workers read from every ps, compute, write back, `rounds` times (PS training's traffic)."""
    cluster = presets.cpu_cluster(jobs={"worker": workers, "ps": ps})
    sim = Simulator(cluster, seed=0)
    sim._net.pool_min = pool_min
    W = [d.name for d in cluster.devices() if "/job:worker/" in d.name]
    P = [d.name for d in cluster.devices() if "/job:ps/" in d.name]
    rng = np.random.default_rng(7)
    sizes = (rng.integers(1, 5, size=(workers, rounds)) if jitter else np.ones((workers, rounds), int)) * 100_003
    flops = (rng.integers(1, 4, size=(workers, rounds)) if jitter else np.ones((workers, rounds), int)) * 1e7
    ends: dict[int, float] = {}

    def worker(i: int, w: str):
        for k in range(rounds):
            yield sim.transfers([(p, w, float(sizes[i, k]), None) for p in P])
            yield sim.compute(w, float(flops[i, k]))
            yield sim.transfers([(w, p, float(sizes[i, k]) / 2, None) for p in P])
        ends[i] = sim.now

    procs = [sim.process(worker(i, w)) for i, w in enumerate(W)]
    if degrade:
        sim.degrade_link("/job:ps/replica:0/task:0/nic", bandwidth_factor=0.25, start=0.004, end=0.009)
    sim.drive(sim.all_of(procs))
    return sim, ends


def _compare(ref: tuple[Simulator, dict], got: tuple[Simulator, dict], rel: float) -> None:
    (a, ea), (b, eb) = ref, got
    worst = max(abs(ea[i] - eb[i]) / ea[i] for i in ea)
    assert worst <= rel, f"worker end times differ by {worst:.3g} relative (allowed {rel:g})"
    ma, mb = a.metrics()["links"], b.metrics()["links"]
    for k in ma:
        assert (ma[k]["bytes"], ma[k]["transfers"]) == (mb[k]["bytes"], mb[k]["transfers"]), (k, ma[k], mb[k])
        assert mb[k]["busy_s"] == pytest.approx(ma[k]["busy_s"], rel=rel, abs=1e-15), (k, ma[k], mb[k])


def test_lockstep_rounds_pool_and_give_the_same_times():
    ref = ps_run(NEVER)
    got = ps_run(64)
    net = got[0]._net
    assert net.pools and net.dissolved == 0, f"pools {len(net.pools)}, dissolved {net.dissolved}: expected pooling"
    _compare(ref, got, 1e-12)


def test_desynchronised_workers_give_the_same_times():
    """Jittered sizes and compute: pools form, break (a ps with few readers is no longer every
    flow's bottleneck) and form again; finish times agree with per-flow filling to rounding."""
    ref = ps_run(NEVER, jitter=True)
    got = ps_run(64, jitter=True)
    assert got[0]._net.dissolved > 0, "expected the pooled rule to break at least once on this workload"
    _compare(ref, got, 1e-9)


def test_a_link_window_on_a_pooled_link_gives_the_same_times():
    _compare(ps_run(NEVER, degrade=True), ps_run(64, degrade=True), 1e-9)


def test_pooled_rounds_need_no_progressive_filling(monkeypatch):
    """Once the lockstep workload is pooled, flows join and leave their pools without any
    re-rating of other flows: progressive filling runs only for the rounds before pooling."""
    calls: list[int] = []
    real = sharing.fill

    def counting(chans, on, *a):
        calls.append(sum(len(on[c]) for c in chans))
        return real(chans, on, *a)

    monkeypatch.setattr(sharing, "fill", counting)
    ps_run(64, rounds=2)
    first = len(calls)
    calls.clear()
    ps_run(64, rounds=12)
    assert len(calls) == first, (f"{first} fillings for 2 rounds but {len(calls)} for 12: pooled rounds "
                                 "should re-rate nothing")


def test_pool_min_is_respected():
    sim, _ = ps_run(network.POOL_MIN * 10, workers=8)
    assert not sim._net.pools, "a component below pool_min must stay on per-flow rating"
