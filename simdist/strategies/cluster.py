"""The cluster of a ClusterCoordinator (TF's `Cluster`): the closure queue, the workers that run
closures, and the simulated worker service they run on, with its preemption handler.

The simulator side (`simdist.sim.workers.WorkerPool`, `simdist.sim.preemption.
WorkerPreemptionHandler`) runs one process per worker and carries out the session's fault plan;
this module is its client for ParameterServerStrategy: it says what work there is (the queue),
how a closure runs (`worker.Workers`), and what a fault means to the program: a preempted closure
is put back at the head of the queue (TF's at-least-once rule), a ps failure makes the failed
task's variables raise and surfaces as UnavailableError, an application error cancels the rest
(reference §8). Per-worker iterators are aborted while their worker is down and rebuilt after.
"""

from __future__ import annotations

from typing import Any, Callable

from simdist.runtime import errors
from simdist.sim.preemption import WorkerPreemptionHandler
from simdist.sim.workers import WorkerPool
from simdist.strategies.closure import Closure
from simdist.strategies.closure_queue import ClosureQueue
from simdist.strategies.parameter_server import worker_host
from simdist.strategies.ps_fault import _PSFault
from simdist.strategies.worker import Workers

__all__ = ["Cluster"]


class Cluster:
    """The workers of ``strategy`` on simulator ``sim`` under fault plan ``plan`` (None: none)."""

    def __init__(self, strategy: Any, sim: Any, plan: Any) -> None:
        self.strategy = strategy
        self.sim = sim
        self.clock = sim.clock
        self.num_workers = strategy._num_workers
        self.t0 = sim.now
        self.queue = ClosureQueue(self.clock)
        self.faults = WorkerPreemptionHandler(sim, self.num_workers, plan)
        self.pool = WorkerPool(sim, self.num_workers, self, self.faults)
        self.faults.attach(self.pool, self)
        self.workers = Workers(strategy, sim, self.queue, self.faults)
        # The worker service's client calls it makes once or more per closure are the queue's and
        # the workers' own methods, bound here (no extra frame each); the others are below.
        q = self.queue
        self.has_work, self.take, self.drop, self.requeue = q.has_work, q.take, q.drop, q.requeue
        self.run = self.workers.execute
        q.notify = self.pool.signal.notify
        self.iterators: list[Any] = []   # the coordinator's per-worker iterators
        self.pool.start()
        self.faults.start()

    # --- the worker service's client (has_work, take, run, drop, requeue: bound in __init__) ------------
    def interrupted(self, w: int, running: Closure | None, kind: str, payload: Any) -> None:
        """The coordinator's interrupts: "cancel" (another function failed: ``payload`` is its
        error) and "ps_failure" (``payload`` is the UnavailableError of the failed task)."""
        if kind == "cancel":
            if running is not None:
                self.queue.cancel_running(
                    running, f"The function {running.name} was cancelled while running on {worker_host(w)} because "
                             f"another function failed: {type(payload).__name__}")
            self.pool.notify()
        elif kind == "ps_failure":
            if running is not None:
                self.queue.fail(running, payload)
            self.pool.notify()

    def device(self, w: int) -> str:
        return self.workers.worker_device(w)

    def worker_down(self, w: int) -> None:
        for it in self.iterators:
            it._abort(w)

    def worker_up(self, w: int) -> None:
        for it in self.iterators:
            it._rebuild(w)

    def ps_failed(self, task: int, at: float) -> _PSFault:
        """ps ``task`` failed at ``at``: its variables raise what TF raises, the program sees an
        UnavailableError, and the closures running are interrupted."""
        fault = _PSFault(task, at)
        dev = f"/job:ps/replica:0/task:{task}/device:CPU:0"
        for v in _all_variables(self.strategy):
            if v.device == dev:
                v._fault = fault
        err = errors.UnavailableError(None, None, f"/job:ps/replica:0/task:{task} failed at t={at:.6g}s: "
                                      "parameter server unavailable (TF 2.21 does not recover from ps failures; "
                                      "restore a checkpoint to continue)")
        self.queue.record_error(err)
        for w in sorted(self.queue.inflight):
            self.pool.interrupt(w, "ps_failure", err)
        return fault

    # --- driving the clock ---------------------------------------------------------------------------
    def drive_until(self, cond: Callable[[], bool] | None) -> None:
        """Process events until ``cond()``; None: until every scheduled function has finished or
        one has failed (join)."""
        self.clock.run_while(self.queue.unfinished if cond is None else (lambda: not cond()), self._stalled)

    def _stalled(self) -> RuntimeError:
        q = self.queue
        return RuntimeError(f"simdist coordinator: nothing left to simulate at t={self.sim.now:.6g}s but "
                            f"{len(q.queue)} queued and {len(q.inflight)} running functions are "
                            "unfinished (every worker down for good?)")

    # --- errors (reference §8) -------------------------------------------------------------------
    def raise_pending_error(self) -> None:
        """Raise the first error a closure met (once): the closures running are cancelled first,
        then the queued ones."""
        queue = self.queue
        err = queue.error
        if err is None:
            return
        for w in sorted(queue.inflight):
            self.pool.interrupt(w, "cancel", err)
        self.drive_until(lambda: not queue.inflight)
        queue.cancel_queued()
        queue.error = None
        self.pool.notify()
        raise err


def _all_variables(strategy: Any) -> list[Any]:
    """Variables created by `strategy` so far (for ps failures), in creation order."""
    return [v for v in strategy._extended._created if v is not None]
