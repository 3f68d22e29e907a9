"""Worker preemptions and parameter-server outages on the simulated cluster: the fault half of the
simulator-side worker service (`workers.WorkerPool` is the other).

A `WorkerPreemptionHandler` carries out a fault plan (simdist.faults.FaultPlan, read by its
fields: it is not imported here) against a `WorkerPool`: preemptions at a time, at a count of
started units, or drawn from a seeded process (MTBF + downtime); and parameter-server failures at a
time, with an optional restart. It owns which workers are down, takes a worker down and brings it
back (a trace span for the downtime), and accounts for it all: preemptions, lost work, worker
downtime, ps failures and the ordered list of fault events. What a ps failure means for the
program (variables that raise, the error the coordinator reports) is the client's
(`ps_failed`). Engine public API only.
"""

from __future__ import annotations

from typing import Any

__all__ = ["WorkerPreemptionHandler", "worker_task", "ps_task"]


def worker_task(w: int) -> str:
    """The task name of worker ``w`` on the simulated cluster (TF's job naming)."""
    return f"/job:worker/replica:0/task:{w}"


def ps_task(p: int) -> str:
    """The task name of parameter server ``p``."""
    return f"/job:ps/replica:0/task:{p}"


class WorkerPreemptionHandler:
    """The faults of ``plan`` (None: none) on the ``num_workers`` workers of simulator ``sim``.

    `attach(pool, client)` then `start()` schedules them. ``client.ps_failed(task, at)`` is called
    when a ps task fails: it applies what that means (variables that raise, the error reported,
    the running workers interrupted) and returns the outage object it attached to the variables,
    whose ``down`` is set False when the task restarts."""

    def __init__(self, sim: Any, num_workers: int, plan: Any) -> None:
        self.sim = sim
        self.env = sim.env
        self.num_workers = num_workers
        self.plan = plan
        self.pool: Any = None
        self.client: Any = None
        self.down = [False] * num_workers
        self.down_since = [0.0] * num_workers
        self.at_unit: dict[int, list[Any]] = {}    # worker -> [(started-unit count, downtime)], ascending
        self.ps_down: dict[int, Any] = {}          # ps task -> its latest outage (the client's object)
        self.events: list[dict[str, Any]] = []
        self.preemptions = 0
        self.lost_work_s = 0.0
        self.worker_downtime_s = 0.0
        self.ps_failures = 0
        self._lost_pending = 0.0

    def attach(self, pool: Any, client: Any) -> None:
        """The pool whose workers this handler preempts, and the client told of ps failures."""
        self.pool = pool
        self.client = client

    # --- scheduling the plan ---------------------------------------------------------------------------
    def start(self) -> None:
        """Schedule the plan's faults (processes in the plan's order, after the workers')."""
        plan = self.plan
        if plan is None:
            return
        for p in plan.preemptions:
            if p.at_time is not None:
                self.env.process(self._preempt_at(p.worker, p.at_time, p.downtime))
            else:
                self.at_unit.setdefault(p.worker, []).append((p.at_closure, p.downtime))
        for lst in self.at_unit.values():
            lst.sort()
        if plan.process is not None:
            workers = plan.process.workers if plan.process.workers is not None else range(self.num_workers)
            for w in workers:
                self.env.process(self._preempt_process(w, plan.process))
        for f in plan.ps_failures:
            self.env.process(self._ps_failure(f))

    def due(self, w: int, started: int) -> float | None:
        """The downtime of a preemption of worker ``w`` planned at or before the ``started``-th
        started unit (it preempts the unit now running), or None."""
        pending = self.at_unit.get(w)
        if pending and pending[0][0] <= started:
            _, downtime = pending.pop(0)
            return downtime
        return None

    def preempt(self, w: int, downtime: float) -> None:
        """Preempt worker ``w`` now (nothing if it is already down)."""
        if self.down[w]:
            return
        self.pool.interrupt(w, "preempt", downtime)

    def _preempt_at(self, w: int, at: float, downtime: float) -> Any:
        yield self.env.timeout(max(0.0, at - self.env.now))
        self.preempt(w, downtime)

    def _preempt_process(self, w: int, proc: Any) -> Any:
        rng = self.sim.rng(f"faults/worker{w}")
        yield self.env.timeout(max(0.0, proc.start - self.env.now))
        while True:
            up = float(rng.exponential(proc.mtbf))
            down = float(rng.exponential(proc.downtime)) if proc.random_downtime else float(proc.downtime)
            yield self.env.timeout(up)
            self.preempt(w, down)
            yield self.env.timeout(down)

    # --- a worker's downtime -----------------------------------------------------------------------------
    def lost_work(self, seconds: float) -> None:
        """A preempted unit had run ``seconds``: lost work, reported with the preemption."""
        self.lost_work_s += seconds
        self._lost_pending = seconds

    def go_down(self, w: int, downtime: float) -> Any:
        """Worker ``w`` goes down for ``downtime`` seconds (a generator its process yields from)."""
        if self.down[w]:
            return
        env = self.env
        self.down[w] = True
        self.down_since[w] = env.now
        self.preemptions += 1
        event = {"kind": "preemption", "task": worker_task(w), "start": env.now,
                 "end": None, "lost_work_s": self._lost_pending}
        self._lost_pending = 0.0
        self.events.append(event)
        self.client.worker_down(w)
        yield env.timeout(downtime)   # nothing interrupts a down worker (see preempt; the client's too)
        self.worker_downtime_s += env.now - self.down_since[w]
        self.down[w] = False
        event["end"] = env.now
        self.sim.trace_span(worker_task(w) + "/device:CPU:0", "preempted (worker down)", "downtime",
                            event["start"], event["end"])
        self.client.worker_up(w)
        self.pool.notify()

    # --- parameter servers ------------------------------------------------------------------------------
    def _ps_failure(self, f: Any) -> Any:
        env = self.env
        yield env.timeout(max(0.0, f.at_time - env.now))
        current = self.ps_down.get(f.ps)
        if current is not None and current.down:
            # A ps that is already down cannot fail again: the failure is ignored (not counted, no
            # new event, its restart stays when the first failure set it). Clause
            # coord.ps-failure-while-down; TF's process is simply dead.
            return
        fault = self.client.ps_failed(f.ps, env.now)
        self.ps_down[f.ps] = fault
        self.ps_failures += 1
        event = {"kind": "ps_failure", "task": ps_task(f.ps), "start": env.now, "end": None}
        self.events.append(event)
        if f.downtime is not None:
            yield env.timeout(f.downtime)
            fault.down = False
            event["end"] = env.now
            self.sim.trace_span(ps_task(f.ps) + "/device:CPU:0", "ps failed (down)", "downtime",
                                event["start"], event["end"])

    # --- accounting -------------------------------------------------------------------------------------
    def downtime(self, now: float) -> float:
        """Worker downtime so far, the workers down at ``now`` included."""
        return self.worker_downtime_s + sum(now - self.down_since[w] for w in range(self.num_workers)
                                            if self.down[w])
