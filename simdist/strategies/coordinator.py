"""`tf.distribute.experimental.coordinator.ClusterCoordinator` on the simulated cluster: TF's API.

As TF's cluster_coordinator.py splits it: `schedule` wraps a tf.function in a `Closure`
(closure.py) and returns its `RemoteValue` (remote_value.py) at once; the `ClosureQueue`
(closure_queue.py) holds the closures and the first error; the `Cluster` (cluster.py) runs them on
its workers (worker.py: what a closure does and costs) over the simulator's worker service, whose
preemption handler carries out the session's fault plan (simdist.sim.workers, .preemption);
`create_per_worker_dataset` gives per-worker values (per_worker.py). `join`, `done` and `fetch`
advance the simulated clock until what they wait for has happened.

Faults: a preempted closure loses its uncommitted writes and is put back at the head of the queue
(TF's at-least-once rule); a ps failure surfaces as UnavailableError; an application error cancels
the rest (reference §8). Every scheduled closure ends as completed, failed (with its error) or
cancelled, and `metrics()` counts each, with retries, lost work, downtime and ps traffic.
"""

from __future__ import annotations

import collections
from typing import Any, Callable

from simdist import session
from simdist.runtime.function_type import function_type
from simdist.strategies.closure import Closure
from simdist.strategies.cluster import Cluster
from simdist.strategies.parameter_server import ParameterServerStrategy
from simdist.strategies.per_worker import PerWorkerDataset, PerWorkerIterator, per_worker_dataset
from simdist.strategies.remote_value import RemoteValue, RemoteValueImpl, _map

__all__ = ["ClusterCoordinator", "RemoteValue", "Closure", "PerWorkerDataset", "PerWorkerIterator"]


class ClusterCoordinator:
    """Schedules functions on the workers of a ParameterServerStrategy (one per strategy)."""

    def __new__(cls, strategy: Any) -> "ClusterCoordinator":
        existing = getattr(strategy, "_cluster_coordinator")  # AttributeError for other strategies, as TF 2.21
        if existing is not None:
            return existing
        self = super().__new__(cls)
        strategy._cluster_coordinator = self
        self._init(strategy)
        return self

    def __init__(self, strategy: Any) -> None:
        pass

    def _init(self, strategy: ParameterServerStrategy) -> None:
        if not isinstance(strategy, ParameterServerStrategy):
            raise ValueError("Only `tf.distribute.experimental.ParameterServerStrategy` is supported to work with "
                             "`tf.distribute.experimental.coordinator.ClusterCoordinator` currently.")
        self._strategy = strategy
        self._sim = session.simulator()
        self._num_workers = strategy._num_workers
        self._cluster = Cluster(strategy, self._sim, session.faults())
        self._queue = self._cluster.queue
        self._iterators = self._cluster.iterators   # (PerWorkerDataset registers its iterators here)

    # --- public API ------------------------------------------------------------------------------
    @property
    def strategy(self) -> ParameterServerStrategy:
        return self._strategy

    def schedule(self, fn: Any, args: Any = None, kwargs: Any = None) -> RemoteValue:
        """Clause coord.schedule-async: queue fn (a tf.function) and return a RemoteValue at once."""
        if not isinstance(fn, function_type()):
            raise TypeError("`tf.distribute.experimental.coordinator.ClusterCoordinator.schedule` only accepts a "
                            "`tf.function` or a concrete function.")
        args = tuple(args) if args else ()
        kwargs = dict(kwargs) if kwargs else {}
        if (args or kwargs) and any(isinstance(a, RemoteValue) for a in _leaves((args, kwargs))):
            raise ValueError("`tf.distribute.experimental.coordinator.RemoteValue` used as an input to scheduled "
                             "function is not yet supported.")
        if self._queue.error is not None:
            self._raise_pending_error()
        return self._enqueue(Closure(self._queue.next_seq(), fn, args, kwargs, getattr(fn, "__name__", "fn")))

    def schedule_synthetic(self, flops: float, reads: Any = (), writes: Any = (), name: str = "step") -> RemoteValue:
        """Timing-only mode: a closure with no Python function, charging reads of `reads`, `flops`
        of compute and writes of `writes` (variables, ShardedVariables or placeholders, or
        (variable, bytes) pairs for partial reads such as embedding rows). Its traffic to each ps
        task travels as one transfer each way (one batched request per task)."""
        self._raise_pending_error()
        traffic = self._cluster.workers.traffic
        return self._enqueue(Closure(self._queue.next_seq(), None, (), {}, name,
                                     synthetic=(float(flops), traffic(reads), traffic(writes))))

    def join(self) -> None:
        """Clause coord.join: block until every scheduled function has finished (or raise the first error)."""
        self._drive_until(None)
        self._raise_pending_error()

    def run_until(self, cond: Callable[[], bool]) -> bool:
        """simdist only: advance the simulation until ``cond()`` holds, every scheduled function
        has finished, or one has failed; returns ``cond()``. Raises nothing (the next `join`,
        `done` or `schedule` does, as TF's coordinator would): for observers that act at points of
        a run, such as a scenario's evaluations every N committed steps."""
        self._drive_until(lambda: cond() or not self._queue.unfinished())
        return bool(cond())

    def done(self) -> bool:
        """Whether everything finished; raises a pending error. Advances the clock by one event."""
        self._raise_pending_error()
        q = self._queue
        if (q.queue or q.inflight) and self._sim.clock.pending():
            self._sim.env.step()
        self._raise_pending_error()
        return not q.queue and not q.inflight

    def fault_events(self) -> list[dict[str, Any]]:
        """What went wrong, in order: {"kind": "preemption"|"ps_failure", "task", "start", "end"
        (None while still down), "lost_work_s" (preemptions)} — for plots and reports."""
        return [dict(e) for e in self._cluster.faults.events]

    def closure_report(self) -> list[tuple[int, str, int, str, BaseException | None]]:
        """Every scheduled closure, in schedule order, as (seq, state, attempts, its RemoteValue's
        status, the error fetch() would raise or None): what an audit of the accounting reads
        (simdist explore checks that each ended with a documented outcome)."""
        out = []
        for c in self._queue.closures:
            rv = c.remote
            out.append((c.seq, c.state, c.attempts, rv._status if rv is not None else "MISSING",
                        rv._error if rv is not None else None))
        return out

    def closure_timeline(self) -> list[dict[str, Any]]:
        """Every scheduled closure in schedule order, with its last attempt: ``seq``, ``state``,
        ``worker`` (-1: never started), ``start`` (its function ran and read the variables then),
        ``end`` (completed, failed or cancelled; -1 while unfinished), ``commits_before`` (closures
        committed when it started) and ``commit`` (its place in the commit order, 1-based; 0 if it
        did not complete). Its staleness is ``commit - 1 - commits_before``: the updates of other
        closures committed between its reads and its own commit."""
        return [{"seq": c.seq, "state": c.state, "worker": c.worker, "start": c.started_at, "end": c.ended_at,
                 "commits_before": c.commits_before, "commit": c.commit} for c in self._queue.closures]

    def commit_count(self) -> int:
        """Closures completed so far (each committed its writes once), at no cost."""
        return self._queue.commits

    def fetch(self, val: Any) -> Any:
        return _map(val, lambda v: v.fetch() if isinstance(v, RemoteValue) else v)

    def create_per_worker_dataset(self, dataset_fn: Any) -> "PerWorkerDataset":
        """Clause coord.per-worker-dataset: one dataset per worker; `iter()` gives per-worker iterators."""
        return per_worker_dataset(self, dataset_fn)   # (TF's class by whether it is callable)

    def metrics(self) -> dict[str, Any]:
        """Accounting of the run so far (JSON-ready, sorted keys)."""
        queue, faults, workers = self._queue, self._cluster.faults, self._cluster.workers
        counts = collections.Counter(c.state for c in queue.closures)
        now = self._sim.now
        downtime = faults.downtime(now)
        elapsed = now - self._cluster.t0
        out = {
            "closures": {"scheduled": len(queue.closures), "completed": counts["completed"],
                         "failed": counts["failed"], "cancelled": counts["cancelled"],
                         "pending": counts["queued"] + counts["running"]},
            "closures_per_s": counts["completed"] / elapsed if elapsed > 0 else 0.0,
            "lost_work_s": faults.lost_work_s,
            "preemptions": faults.preemptions,
            "ps_bytes": workers.ps_bytes_read + workers.ps_bytes_written,
            "ps_bytes_read": workers.ps_bytes_read,
            "ps_bytes_written": workers.ps_bytes_written,
            "ps_failures": faults.ps_failures,
            "retries": queue.retries,
            "simulated_time_s": now,
            "worker_downtime_s": downtime,
        }
        return out

    # --- the queue and the clock (the cluster's) ------------------------------------------------------
    def _enqueue(self, closure: Closure) -> RemoteValue:
        closure.remote = RemoteValueImpl(self, closure)
        self._queue.put(closure)
        return closure.remote

    def _drive_until(self, cond: Callable[[], bool] | None) -> None:
        """Process events until ``cond()``; None: until every scheduled function has finished or
        one has failed (join). (RemoteValue.fetch drives through this.)"""
        self._cluster.drive_until(cond)

    def _raise_pending_error(self) -> None:
        self._cluster.raise_pending_error()


def _leaves(x: Any) -> list[Any]:
    out: list[Any] = []
    _map(x, out.append)
    return out
