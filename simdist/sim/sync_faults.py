"""The preemption notices of a synchronous multi-worker job, as a fixed timeline.

In a synchronous job (MultiWorkerMirroredStrategy) a worker's preemptions do not depend on what
the job is doing: the platform takes a spot VM when it wants, and a replacement comes up
``downtime`` after the worker is gone. So the notices are drawn once, in advance, from the fault
plan (read by its fields, as `preemption.WorkerPreemptionHandler` reads it), and the job's
driver asks for them in time order:

- exact preemptions (``Preemption(worker, at_time, downtime)``): a notice at ``at_time``, unless
  the worker is still gone then (killed and not yet replaced): such a notice is dropped;
- a preemption process (``PreemptionProcess(mtbf, downtime, workers, random_downtime, start)``):
  worker ``w`` draws from the stream ``faults/worker{w}`` (the same stream the parameter-server
  handler uses): it is up for an exponential time of mean ``mtbf``, gets a notice, is killed
  ``grace`` later, is replaced ``downtime`` (or an exponential draw of that mean) after that, and
  starts over. With ``downtime = 0`` and ``grace = 0`` the notices of one worker are a Poisson
  process of rate 1/mtbf, those of k workers one of rate k/mtbf.

A `Notice` says when the notice arrives, when the worker is killed (``notice + grace``) and when
its replacement is ready (``kill + downtime``). Notices are ordered by (time, worker): the order
is a function of the plan and the root seed only.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

__all__ = ["Notice", "PreemptionTimeline"]


@dataclass(frozen=True, order=True)
class Notice:
    """A preemption of ``worker``: noticed at ``at``, killed at ``kill``, replaced at ``ready``."""

    at: float
    worker: int
    kill: float
    ready: float


class PreemptionTimeline:
    """Every preemption notice of ``plan`` (None: none) on ``num_workers`` workers, in time order.

    ``rng(name)`` returns the named seeded stream (`simdist.sim.Simulator.rng`); ``grace`` is the
    time from a notice to the kill (TerminationConfig's grace period; 0: killed at once)."""

    def __init__(self, rng: Callable[[str], Any], num_workers: int, plan: Any, grace: float = 0.0) -> None:
        if grace < 0:
            raise ValueError(f"grace: expected a time >= 0, got {grace!r}")
        self.grace = float(grace)
        self._heap: list[tuple[float, int, int, Notice]] = []
        self._streams: dict[int, Iterator[Notice]] = {}
        exact: dict[int, list[Any]] = {}
        for p in (plan.preemptions if plan is not None else ()):
            if p.at_time is None:
                raise ValueError(f"Preemption(worker={p.worker}): a synchronous job's preemptions are at a time "
                                 "(at_closure counts parameter_server functions)")
            if not 0 <= p.worker < num_workers:
                raise ValueError(f"Preemption.worker: {p.worker} is not a worker (rule: < {num_workers} workers)")
            exact.setdefault(p.worker, []).append(p)
        for w in sorted(exact):
            self._streams[2 * w] = self._exact(w, sorted(exact[w], key=lambda p: p.at_time))
        proc = plan.process if plan is not None else None
        if proc is not None:
            workers: Sequence[int] = proc.workers if proc.workers is not None else range(num_workers)
            for w in workers:
                if not 0 <= w < num_workers:
                    raise ValueError(f"PreemptionProcess.workers: {w} is not a worker (rule: < {num_workers} workers)")
                self._streams[2 * w + 1] = self._process(w, proc, rng(f"faults/worker{w}"))
        for key in sorted(self._streams):
            self._pull(key)

    def _exact(self, w: int, entries: list[Any]) -> Iterator[Notice]:
        gone_until = -1.0
        for p in entries:
            at = float(p.at_time)
            if at < gone_until:
                continue   # the worker is gone (killed, not yet replaced): nothing to preempt
            kill = at + self.grace
            ready = kill + float(p.downtime)
            gone_until = ready
            yield Notice(at, w, kill, ready)

    def _process(self, w: int, proc: Any, rng: Any) -> Iterator[Notice]:
        t = float(proc.start)
        while True:
            t += float(rng.exponential(proc.mtbf))
            down = float(rng.exponential(proc.downtime)) if proc.random_downtime else float(proc.downtime)
            kill = t + self.grace
            yield Notice(t, w, kill, kill + down)
            t = kill + down

    def _pull(self, key: int) -> None:
        n = next(self._streams[key], None)
        if n is not None:
            heapq.heappush(self._heap, (n.at, n.worker, key, n))

    def peek(self) -> Notice | None:
        """The next notice, or None when there are no more."""
        return self._heap[0][3] if self._heap else None

    def pop(self) -> Notice:
        """Take the next notice."""
        _, _, key, n = heapq.heappop(self._heap)
        self._pull(key)
        return n

    def pop_until(self, t: float) -> list[Notice]:
        """Take every notice that arrives before ``t``, in order."""
        out = []
        while self._heap and self._heap[0][0] < t:
            out.append(self.pop())
        return out
