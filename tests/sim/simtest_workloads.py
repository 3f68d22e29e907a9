"""Workloads for the determinism and trace tests (module-level, so a fresh process can import them)."""

from __future__ import annotations

import io
from typing import Any

import numpy as np

from simdist.sim import Simulator, presets
from simdist.sim.topology import Cluster

_counter = [0]


def training_steps(seed: int = 0, hosts: int = 2, gpus: int = 4, steps: int = 2, trace: bool = True) -> Simulator:
    """A strategy-like run: per step, each replica computes (seeded jitter), the gradients are
    ring-all-reduced, the host copies a batch in; memory is allocated for weights."""
    cluster = presets.gpu_cluster(hosts=hosts, gpus_per_host=gpus, network="100Gbps")
    sim = Simulator(cluster, seed=seed, trace=io.BytesIO() if trace else None)
    devs = [d.name for d in cluster.devices() if d.kind == "GPU"]
    jitter = sim.rng("jitter")
    for d in devs:
        sim.allocate(d, "1GiB", "weights")
    for k in range(steps):
        with sim.step(f"step {k}"):
            fwd = [sim.compute(d, 1e12 * (1 + 0.1 * jitter.random()), "run", replica=i) for i, d in enumerate(devs)]
            sim.drive(sim.all_of(fwd))
            sim.drive(sim.all_reduce(devs, 64 * 2**20, name="grads"))
            copies = [sim.transfer(f"/job:worker/replica:0/task:{i // gpus}/device:CPU:0", d, 4 * 2**20)
                      for i, d in enumerate(devs)]
            sim.drive(sim.all_of(copies))
    return sim


def set_of_devices(seed: int = 0) -> Simulator:
    """Hands the engine a *set* of device names (hash-order dependent); the engine must sort it."""
    cluster = presets.gpu_cluster(hosts=2, gpus_per_host=4)
    sim = Simulator(cluster, seed=seed, trace=io.BytesIO())
    devs = {d.name for d in cluster.devices() if d.kind == "GPU"}
    sim.drive(sim.all_reduce(devs, 8 * 2**20, name="grads"))
    sim.drive(sim.all_reduce(devs, 8 * 2**20, algorithm="reduce_to_one", name="grads2"))
    return sim


def user_set_order(seed: int = 0) -> Simulator:
    """Control: the *user* issues transfers of different sizes in set order, which the engine must
    respect (program order), so the result depends on PYTHONHASHSEED."""
    cluster = presets.gpu_cluster(hosts=1, gpus_per_host=8)
    sim = Simulator(cluster, seed=seed, trace=io.BytesIO())
    devs = {d.name for d in cluster.devices() if d.kind == "GPU"}
    evs = [sim.transfer("/cpu:0", d, (i + 1) * 2**20, f"copy {i}") for i, d in enumerate(devs)]
    sim.drive(sim.all_of(evs))
    return sim


def global_counter(seed: int = 0) -> dict:
    """Deliberately nondeterministic: depends on how often it was called."""
    _counter[0] += 1
    sim = Simulator(presets.cpu_host(), seed=seed)
    sim.drive(sim.compute("/cpu:0", 1e9 * _counter[0], "work"))
    return sim.metrics()


def trace_bytes(name: str) -> bytes:
    sim = globals()[name]()
    sim.close()
    return sim.trace.getvalue()


def ps_rounds(pool_min: int = 64, batching: bool = True, prepared: bool = False, workers: int = 96, ps: int = 4,
              rounds: int = 4, jitter: bool = False, degrade: bool = False, pod_size: int = 0
              ) -> tuple[Simulator, dict[int, float], list[tuple[int, int, float]]]:
    """PS training's traffic for the network model's tests: workers read from every ps, compute,
    write back, `rounds` times; through prepared transfer lists (`Simulator.prepare`, as the PS
    coordinator issues a closure's traffic) when `prepared`. Returns the simulator, each worker's
    end time, and (worker, step, time) in the order the workers woke up. With `pod_size`, the
    hosts are in pods of that many behind 2:1 oversubscribed uplinks (routes of 2 and 4 links)."""
    cluster = presets.cpu_cluster(jobs={"worker": workers, "ps": ps})
    if pod_size:
        cluster = Cluster(cluster.hosts, pod_size=pod_size, oversubscription=2.0)
    sim = Simulator(cluster, seed=0)
    sim._net.pool_min = pool_min
    sim._net.batching = batching
    W = [d.name for d in cluster.devices() if "/job:worker/" in d.name]
    P = [d.name for d in cluster.devices() if "/job:ps/" in d.name]
    rng = np.random.default_rng(7)
    sizes = (rng.integers(1, 5, size=(workers, rounds)) if jitter else np.ones((workers, rounds), int)) * 100_003
    flops = (rng.integers(1, 4, size=(workers, rounds)) if jitter else np.ones((workers, rounds), int)) * 1e7
    ends: dict[int, float] = {}
    log: list[tuple[int, int, float]] = []

    def moves(pairs: list[tuple[str, str, float, None]]) -> Any:
        return sim.prepare(pairs) if prepared else pairs

    def worker(i: int, w: str) -> Any:
        for k in range(rounds):
            yield sim.transfers(moves([(p, w, float(sizes[i, k]), None) for p in P]))
            log.append((i, 3 * k, sim.now))
            yield sim.compute(w, float(flops[i, k]))
            log.append((i, 3 * k + 1, sim.now))
            yield sim.transfers(moves([(w, p, float(sizes[i, k]) / 2, None) for p in P]))
            log.append((i, 3 * k + 2, sim.now))
        ends[i] = sim.now

    procs = [sim.process(worker(i, w)) for i, w in enumerate(W)]
    if degrade:
        sim.degrade_link("/job:ps/replica:0/task:0/nic", bandwidth_factor=0.25, start=0.004, end=0.009)
    sim.drive(sim.all_of(procs))
    return sim, ends, log

