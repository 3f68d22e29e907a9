"""The simulator's worker service on its own (simdist.sim.workers, .preemption), driven by a toy
client as a synchronous multi-worker strategy would drive it: units of work run FIFO on the free
workers at simulated time; a preemption gives the running unit back, counts the work lost and
keeps the worker down for its downtime; a planned preemption at a unit count cuts a unit part-way;
a ps failure is handed to the client and its outage ends at the restart."""

from __future__ import annotations

import collections
from typing import Any

import pytest

from simdist.faults import FaultPlan, Preemption, PSFailure
from simdist.sim import Simulator, presets
from simdist.sim.preemption import WorkerPreemptionHandler
from simdist.sim.workers import Preempted, WorkerPool


class _Outage:
    def __init__(self, task: int, at: float) -> None:
        self.task, self.at, self.down = task, at, True


class ToyClient:
    """Units are (name, seconds); a unit runs for its seconds on the worker's CPU."""

    def __init__(self, sim: Simulator, units: list[tuple[str, float]]) -> None:
        self.sim = sim
        self.queue = collections.deque(units)
        self.inflight: dict[int, Any] = {}
        self.log: list[tuple[str, str, int, float]] = []   # (what, unit, worker, time)
        self.started = 0
        self.faults: WorkerPreemptionHandler | None = None
        self.outages: list[_Outage] = []

    def has_work(self) -> bool:
        return bool(self.queue)

    def take(self, w: int) -> Any:
        unit = self.queue.popleft()
        self.inflight[w] = unit
        self.started += 1
        self.log.append(("start", unit[0], w, self.sim.now))
        return unit

    def run(self, w: int, unit: Any) -> Any:
        due = self.faults.due(w, self.started) if self.faults is not None and self.faults.at_unit else None
        if due is not None:
            yield self.sim.timeout(unit[1] / 2)
            raise Preempted(due)
        yield self.sim.timeout(unit[1])
        self.log.append(("done", unit[0], w, self.sim.now))

    def drop(self, w: int) -> Any:
        return self.inflight.pop(w, None)

    def requeue(self, unit: Any) -> None:
        self.queue.appendleft(unit)
        self.log.append(("requeued", unit[0], -1, self.sim.now))

    def interrupted(self, w: int, unit: Any, kind: str, payload: Any) -> None:
        self.log.append((kind, unit[0] if unit else "-", w, self.sim.now))

    def device(self, w: int) -> str:
        return f"/job:worker/replica:0/task:{w}/device:CPU:0"

    def worker_down(self, w: int) -> None:
        self.log.append(("down", "-", w, self.sim.now))

    def worker_up(self, w: int) -> None:
        self.log.append(("up", "-", w, self.sim.now))

    def ps_failed(self, task: int, at: float) -> _Outage:
        o = _Outage(task, at)
        self.outages.append(o)
        return o


def _service(units: list[tuple[str, float]], plan: FaultPlan | None = None, workers: int = 2):
    sim = Simulator(presets.cpu_cluster({"worker": workers, "ps": 1}))
    client = ToyClient(sim, units)
    faults = WorkerPreemptionHandler(sim, workers, plan)
    pool = WorkerPool(sim, workers, client, faults)
    faults.attach(pool, client)
    client.faults = faults
    pool.start()
    faults.start()
    return sim, client, pool, faults


def _run(sim: Simulator, client: ToyClient, until: float) -> None:
    sim.run(until)


def test_units_run_fifo_on_the_free_workers_at_simulated_time() -> None:
    sim, client, pool, _ = _service([("a", 1.0), ("b", 1.0), ("c", 1.0), ("d", 1.0)])
    _run(sim, client, 10.0)
    done = [(u, w, t) for what, u, w, t in client.log if what == "done"]
    assert done == [("a", 0, 1.0), ("b", 1, 1.0), ("c", 0, 2.0), ("d", 1, 2.0)], \
        f"expected a,b on workers 0,1 at t=1 then c,d at t=2; got {done}"


def test_work_put_later_wakes_the_idle_workers() -> None:
    sim, client, pool, _ = _service([])
    sim.run(3.0)
    client.queue.append(("late", 0.5))
    pool.notify()
    sim.run(10.0)
    done = [(u, w, t) for what, u, w, t in client.log if what == "done"]
    assert done == [("late", 0, 3.5)], f"expected the late unit on worker 0 from t=3 to 3.5, got {done}"


def test_a_preemption_requeues_the_running_unit_and_keeps_the_worker_down() -> None:
    plan = FaultPlan(preemptions=(Preemption(worker=0, at_time=0.5, downtime=2.0),))
    sim, client, pool, faults = _service([("a", 1.0), ("b", 1.0)], plan)
    _run(sim, client, 10.0)
    log = [(what, u, w, t) for what, u, w, t in client.log]
    assert ("requeued", "a", -1, 0.5) in log and ("down", "-", 0, 0.5) in log and ("up", "-", 0, 2.5) in log, log
    done = {u: (w, t) for what, u, w, t in log if what == "done"}
    assert done == {"b": (1, 1.0), "a": (1, 2.0)}, f"a should rerun on worker 1 after b (t=1..2), got {done}"
    assert (faults.preemptions, faults.lost_work_s, faults.downtime(sim.now)) == (1, 0.5, 2.0), \
        (faults.preemptions, faults.lost_work_s, faults.downtime(sim.now))
    assert faults.events == [{"kind": "preemption", "task": "/job:worker/replica:0/task:0", "start": 0.5,
                              "end": 2.5, "lost_work_s": 0.5}], faults.events


def test_a_preemption_planned_at_a_unit_count_cuts_that_unit_part_way() -> None:
    plan = FaultPlan(preemptions=(Preemption(worker=1, at_closure=2, downtime=1.0),))
    sim, client, pool, faults = _service([("a", 1.0), ("b", 1.0), ("c", 1.0)], plan)
    _run(sim, client, 10.0)
    done = {u: (w, t) for what, u, w, t in client.log if what == "done"}
    # b (the 2nd unit started, on worker 1) is cut halfway, at t=0.5; back at the head of the queue,
    # worker 0 takes it when a ends (t=1); worker 1, down until t=1.5, then runs c.
    assert done == {"a": (0, 1.0), "b": (0, 2.0), "c": (1, 2.5)}, done
    assert faults.events[0]["start"] == 0.5 and faults.events[0]["end"] == 1.5, faults.events


def test_a_preempted_worker_is_not_preempted_again_while_down() -> None:
    plan = FaultPlan(preemptions=(Preemption(worker=0, at_time=0.5, downtime=2.0),
                                  Preemption(worker=0, at_time=1.0, downtime=5.0)))
    sim, client, pool, faults = _service([("a", 1.0)], plan)
    _run(sim, client, 20.0)
    assert faults.preemptions == 1 and faults.downtime(sim.now) == 2.0, (faults.preemptions, faults.events)


def test_a_ps_failure_is_the_clients_and_its_outage_ends_at_the_restart() -> None:
    plan = FaultPlan(ps_failures=(PSFailure(ps=0, at_time=1.5, downtime=2.0), PSFailure(ps=0, at_time=2.0)))
    sim, client, pool, faults = _service([("a", 1.0)], plan)
    _run(sim, client, 10.0)
    assert [(o.task, o.at, o.down) for o in client.outages] == [(0, 1.5, False)], \
        "one outage (the second failure hits a ps already down), over at t=3.5"
    assert faults.ps_failures == 1
    assert faults.events == [{"kind": "ps_failure", "task": "/job:ps/replica:0/task:0", "start": 1.5, "end": 3.5}]


def test_the_clients_own_interrupts_reach_it_with_the_running_unit() -> None:
    sim, client, pool, _ = _service([("a", 1.0)])
    sim.run(0.25)
    pool.interrupt(0, "cancel", RuntimeError("x"))
    sim.run(5.0)
    assert ("cancel", "a", 0, 0.25) in client.log, client.log
    assert not [e for e in client.log if e[0] == "done"], "a cancelled unit does not finish"


@pytest.mark.parametrize("workers", [1, 3])
def test_every_unit_runs_once_without_faults(workers: int) -> None:
    units = [(f"u{i}", 0.1 * (1 + i % 3)) for i in range(12)]
    sim, client, pool, _ = _service(units, workers=workers)
    _run(sim, client, 100.0)
    done = [u for what, u, _, _ in client.log if what == "done"]
    assert sorted(done) == sorted(u for u, _ in units), f"each unit once, got {done}"
