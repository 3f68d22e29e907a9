"""Batches (network.Batch: a `start_group` call's transfers joining pools without a Flow each)
against the same transfers as one Flow each: identical times, events and link figures, whether
the pools hold, break and form again, or never form."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.sim import Simulator, presets


def ps_run(batching: bool, workers: int = 96, ps: int = 4, rounds: int = 4, jitter: bool = False,
           degrade: bool = False, pool_min: int = 64) -> tuple[Simulator, dict[int, float]]:
    """Workers read from every ps, compute, write back, `rounds` times, through prepared transfer
    lists (`Simulator.prepare`, as the PS coordinator issues a closure's traffic)."""
    cluster = presets.cpu_cluster(jobs={"worker": workers, "ps": ps})
    sim = Simulator(cluster, seed=0)
    sim._net.pool_min = pool_min
    sim._net.batching = batching
    W = [d.name for d in cluster.devices() if "/job:worker/" in d.name]
    P = [d.name for d in cluster.devices() if "/job:ps/" in d.name]
    rng = np.random.default_rng(7)
    sizes = (rng.integers(1, 5, size=(workers, rounds)) if jitter else np.ones((workers, rounds), int)) * 100_003
    flops = (rng.integers(1, 4, size=(workers, rounds)) if jitter else np.ones((workers, rounds), int)) * 1e7
    ends: dict[int, float] = {}
    log: list[tuple[int, int, float]] = []   # (worker, step, time) in the order the workers woke up

    def worker(i: int, w: str):
        for k in range(rounds):
            yield sim.transfers(sim.prepare([(p, w, float(sizes[i, k]), None) for p in P]))
            log.append((i, 3 * k, sim.now))
            yield sim.compute(w, float(flops[i, k]))
            log.append((i, 3 * k + 1, sim.now))
            yield sim.transfers(sim.prepare([(w, p, float(sizes[i, k]) / 2, None) for p in P]))
            log.append((i, 3 * k + 2, sim.now))
        ends[i] = sim.now

    procs = [sim.process(worker(i, w)) for i, w in enumerate(W)]
    if degrade:
        sim.degrade_link("/job:ps/replica:0/task:0/nic", bandwidth_factor=0.25, start=0.004, end=0.009)
    sim.drive(sim.all_of(procs))
    ends[-1] = log   # (compared whole: the order of the wake-ups too)
    return sim, ends


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
                                {"workers": 40, "ps": 7, "rounds": 6, "jitter": True}],
                         ids=["lockstep", "jitter", "degraded-link", "no-pools", "small-jitter"])
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

    def watching(wake) -> None:
        for it in wake._value:
            if type(it) is network.Batch:
                joined.extend(range(it.seq0, it.seq0 + len(it.paths)))
            else:
                joined.append(it.seq)
        real(wake)
    net._join = watching
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
