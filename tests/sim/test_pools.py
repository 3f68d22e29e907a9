"""Pools (per-channel virtual time, simdist/sim/network.py) against per-flow progressive filling:
the same results, and no re-rating of unrelated flows once a large component is pooled."""

from __future__ import annotations

from typing import Any

import pytest
import simtest_workloads

import simdist.sim.network as network
import simdist.sim.sharing as sharing
from simdist.sim import Simulator

NEVER = 10**9   # pool_min that keeps every flow on per-flow rating (the reference)


def ps_run(pool_min: int, **kw: Any) -> tuple[Simulator, dict[int, float]]:
    """The PS rounds (simtest_workloads.ps_rounds) with this pool threshold."""
    sim, ends, _ = simtest_workloads.ps_rounds(pool_min, **kw)
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


def fillings(sim: Simulator) -> int:
    """Progressive fillings run so far: each re-rating (``flushes``) takes one mark round for its
    component, each filling one more (`Network._fill`). (Counted, not spied on: a compiled build
    calls `sharing.fill` directly, past any monkeypatch.)"""
    return sim._net._round - sim._net.flushes


def test_pooled_rounds_need_no_progressive_filling():
    """Once the lockstep workload is pooled, flows join and leave their pools without any
    re-rating of other flows: progressive filling runs only for the rounds before pooling."""
    first = fillings(ps_run(64, rounds=2)[0])
    assert first > 0, "expected progressive filling in the rounds before pooling"
    later = fillings(ps_run(64, rounds=12)[0])
    assert later == first, (f"{first} fillings for 2 rounds but {later} for 12: pooled rounds "
                            "should re-rate nothing")
    never = fillings(ps_run(NEVER, rounds=12)[0])
    assert never > first, f"without pools 12 rounds should fill more often than 2 ({never} vs {first})"


def test_pool_min_is_respected():
    sim, _ = ps_run(network.POOL_MIN * 10, workers=8)
    assert not sim._net.pools, "a component below pool_min must stay on per-flow rating"
