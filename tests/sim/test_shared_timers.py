"""Flows that end at the same instant share one completion event; that changes the number of
events and nothing else (every finish time, link figure and trace line is the same)."""

from __future__ import annotations

import io

import pytest

import simdist.sim.network as network
from simdist.sim import Simulator, presets


def _devices(cluster, job: str) -> list[str]:
    return [d.name for d in cluster.devices() if f"/job:{job}/" in d.name]


def symmetric_run(trace: bool = True) -> dict:
    """Workers in lockstep, as in parameter-server training: each round every worker reads the
    same bytes from every ps, computes, and writes back, so many flows end together."""
    cluster = presets.cpu_cluster(jobs={"worker": 4, "ps": 2})
    buf = io.StringIO()
    sim = Simulator(cluster, seed=0, trace=buf if trace else None)
    workers, ps = _devices(cluster, "worker"), _devices(cluster, "ps")

    def worker(w: str):
        for k in range(5):
            yield sim.transfers([(p, w, (1 + j) * 262_144, f"read {j}") for j, p in enumerate(ps)])
            yield sim.compute(w, 1e8)
            yield sim.transfers([(w, p, (1 + j) * 262_144, f"write {j}") for j, p in enumerate(ps)])

    sim.drive(sim.all_of([sim.process(worker(w)) for w in workers]))
    sim.close()
    return {"now": sim.now, "metrics": sim.metrics(), "trace": buf.getvalue()}


def test_shared_timers_change_nothing_but_the_event_count(monkeypatch):
    shared = symmetric_run()
    monkeypatch.setattr(network, "_SHARE_TIMERS", False)
    single = symmetric_run()
    assert shared["now"] == single["now"], f"end time {shared['now']!r} with shared timers, {single['now']!r} without"
    for key in ("links", "devices", "steps", "transfers"):
        assert shared["metrics"][key] == single["metrics"][key], f"metrics[{key!r}] differ with and without sharing"
    assert shared["trace"] == single["trace"], "the trace differs with and without shared timers"
    assert shared["metrics"]["events"] < single["metrics"]["events"], (
        f"{shared['metrics']['events']} events with shared timers, {single['metrics']['events']} without: "
        "flows ending together should have shared completion events")


def test_flows_ending_together_complete_in_one_event(monkeypatch):
    """Two equal reads from one ps share its NIC (half the bandwidth each), end at the same
    instant and are completed by a single timer; each still finishes at latency + 2 * bytes / bw."""
    cluster = presets.cpu_cluster(jobs={"worker": 2, "ps": 1})
    sim = Simulator(cluster, seed=0)
    workers, (p,) = _devices(cluster, "worker"), _devices(cluster, "ps")
    sizes: list[int] = []
    real = network.Network._timer_cb

    def spy(self, ev):
        sizes.append(len(ev._value))
        real(self, ev)

    monkeypatch.setattr(network.Network, "_timer_cb", spy)
    nbytes = 1 << 20
    done: dict[str, float] = {}

    def read(w: str):
        yield sim.transfer(p, w, nbytes)
        done[w] = sim.now

    sim.drive(sim.all_of([sim.process(read(w)) for w in workers]))
    path = sim.cluster.path(p, workers[0])
    expected = path.latency + 2 * nbytes / path.bandwidth
    for w in workers:
        assert done[w] == pytest.approx(expected, rel=1e-12), f"{w} finished at {done[w]!r}, expected {expected!r}"
    assert sizes == [2], f"completion timers fired with {sizes} flows each; expected one timer for both ([2])"


def test_a_flow_re_rated_after_sharing_a_timer_is_not_completed_by_it():
    """A and B are given one timer; then C joins A's route only, halving A's share. B must end
    at the shared time, A later (its entry in the shared timer is superseded), C after."""
    cluster = presets.cpu_cluster(jobs={"worker": 2, "ps": 2})
    sim = Simulator(cluster, seed=0)
    (w0, w1), (p0, p1) = _devices(cluster, "worker"), _devices(cluster, "ps")
    nbytes = 1 << 20
    done: dict[str, float] = {}

    def move(name: str, src: str, dst: str, delay: float):
        yield sim.timeout(delay)
        yield sim.transfer(src, dst, nbytes)
        done[name] = sim.now

    path = sim.cluster.path(p0, w0)
    lat, bw = path.latency, path.bandwidth
    alone = nbytes / bw
    sim.drive(sim.all_of([sim.process(move("A", p0, w0, 0.0)), sim.process(move("B", p1, w1, 0.0)),
                          sim.process(move("C", p0, w0, alone / 2))]))
    # A and B run alone at bw from `lat`; at alone/2 + lat C joins A's route: A and C get bw/2.
    t_c = alone / 2 + lat
    t_a = t_c + (nbytes / 2) / (bw / 2)
    assert done["B"] == pytest.approx(lat + alone, rel=1e-12), f"B ended at {done['B']!r}, expected {lat + alone!r}"
    assert done["A"] == pytest.approx(t_a, rel=1e-12), f"A ended at {done['A']!r}, expected {t_a!r} (re-rated)"
    assert done["A"] > done["B"], f"A ({done['A']!r}) was completed by its superseded shared timer"
    sim.run()   # drain: C's timer from before A ended is superseded and still queued
    assert sim._net.stale == 0, f"{sim._net.stale} superseded timer entries still counted after the run"


def test_simultaneous_ends_on_a_shared_channel_need_no_re_rating():
    """Two flows sharing the ps NIC end together: nobody is left to re-rate, so no re-rating runs."""
    cluster = presets.cpu_cluster(jobs={"worker": 2, "ps": 1})
    sim = Simulator(cluster, seed=0)
    workers, (p,) = _devices(cluster, "worker"), _devices(cluster, "ps")
    sim.drive(sim.transfers([(p, w, 1 << 20, "read") for w in workers]))
    before = sim._net.flushes
    sim.run()
    assert sim._net.flushes == before == 1, (
        f"{sim._net.flushes} re-ratings (1 when both joined expected, none when both ended)")
