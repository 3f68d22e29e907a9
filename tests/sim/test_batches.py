"""Batches (network.Batch: a `start_group` call's transfers joining pools without a Flow each)
against the same transfers as one Flow each: identical times, events and link figures, whether
the pools hold, break and form again, or never form."""

from __future__ import annotations

from typing import Any

import pytest
import simtest_workloads

from simdist.sim import Simulator


def ps_run(batching: bool, pool_min: int = 64, **kw: Any) -> tuple[Simulator, dict[int, Any]]:
    """The PS rounds through prepared lists; the wake-up log under key -1 (compared whole)."""
    sim, ends, log = simtest_workloads.ps_rounds(pool_min, batching=batching, prepared=True, **kw)
    return sim, {**ends, -1: log}


def _same(ref: tuple[Simulator, dict], got: tuple[Simulator, dict]) -> None:
    (a, ea), (b, eb) = ref, got
    diff = {i: (ea[i], eb[i]) for i in ea if i >= 0 and ea[i] != eb[i]}
    assert not diff, f"worker end times differ (one Flow each, batches): {list(diff.items())[:3]}"
    first = next((j for j, (x, y) in enumerate(zip(ea[-1], eb[-1])) if x != y), None)
    assert first is None and len(ea[-1]) == len(eb[-1]), (
        f"the workers woke up in another order from wake-up {first}: "
        f"{ea[-1][first:first + 3] if first is not None else ''} vs {eb[-1][first:first + 3] if first is not None else ''}")
    ma, mb = a.metrics(), b.metrics()
    assert ma == mb, "metrics differ: " + ", ".join(k for k in ma if ma[k] != mb[k])


@pytest.mark.parametrize("kw", [{}, {"jitter": True}, {"degrade": True}, {"pool_min": 10**9},
                                {"workers": 40, "ps": 7, "rounds": 6, "jitter": True},
                                {"pod_size": 16},
                                {"pod_size": 8, "ps": 20, "workers": 60, "pool_min": 16}],
                         ids=["lockstep", "jitter", "degraded-link", "no-pools", "small-jitter", "pods",
                              "pods-ps-spread"])
def test_batches_give_identical_results(kw: dict) -> None:
    ref = ps_run(False, **kw)
    got = ps_run(True, **kw)
    _same(ref, got)


def _one_more_round(sim: Simulator, w: str):
    P = [d.name for d in sim.cluster.devices() if "/job:ps/" in d.name]
    yield sim.transfers(sim.prepare([(p, w, 100_003.0, None) for p in P]))


def test_dissolved_pools_give_their_flows_back_in_join_order() -> None:
    """Mid-round of a pooled lockstep run (batch members in the pools), a link change dissolves
    the pools: each channel's dict lists its flows in the order they joined it, as if they had
    stayed in it (the order the per-flow re-rating visits them in). The join order is observed
    independently, by watching the join events."""
    import simdist.sim.network as network
    sim, _ = ps_run(True, rounds=2)
    net = sim._net
    joined: list[int] = []
    real = net._join
    push = net._push

    def watching(wake) -> None:
        for it in wake._value:
            if type(it) is network.Batch:
                joined.extend(range(it.seq0, it.seq0 + len(it.paths)))
            else:
                joined.append(it.seq)
        real(wake)

    def pushing(t, event, *a) -> None:   # (join events watched as queued: the network's methods
        if type(event) is network.Wake and event.callbacks == [real]:   # are fixed when compiled)
            event.callbacks = [watching]
        push(t, event, *a)
    net._push = pushing
    W = [d.name for d in sim.cluster.devices() if "/job:worker/" in d.name]
    procs = [sim.process(_one_more_round(sim, w)) for w in W]
    sim.drive(sim.timeout(1e-4))
    entries = [node[2][k:k + 2] for pool in net.pools.values() for node in pool.heap for k in range(0, len(node[2]), 2)]
    members = [e for e in entries if type(e[0]) is network.Batch and e[1] is not None]
    assert net.pooling and members and len(members) == len(entries), (
        f"expected pooled batch members only, got {len(members)} of {len(entries)} pool entries")
    sim.set_link("/job:ps/replica:0/task:1/nic", bandwidth="10Gbps")
    assert not net.pooling, "expected the link change to dissolve the pools"
    rank = {seq: k for k, seq in enumerate(joined)}
    for c, d in enumerate(net.on):
        order = list(d)
        assert order == sorted(order, key=rank.__getitem__), (
            f"channel {c}: flows {order[:5]}... not in their join order {sorted(order, key=rank.__getitem__)[:5]}...")
    assert sum(map(len, net.on)) >= len(members)
    sim.drive(sim.all_of(procs))
