"""`CommunicationOptions(timeout_seconds=T)` on simulated time: TF 2.21's collective timeout.

TF 2.21 (docs/reference/mwms-tf-2.21.md, facts A.2 and A.3; clause mwms.collective-timeout):
each collective op carries the timeout; an op that has not completed T seconds after it started
fails with `DeadlineExceededError: Collective has timed out during execution.` (`... waiting for
other workers.` while the workers' group is still being resolved: their first collective
together, base_collective_executor.cc) and aborts the
worker's collective executor, so every later collective of that worker fails at once with
`Collective ops is aborted by: Collective has timed out during execution. ...`; a peer that
reaches the aborted collective later gets the abort at once (`ABORTED_LATE`, the aborted
worker's message wrapped once more), and that message at every later collective of its own. ``T`` of 0 or None (or below 0:
the kernel only arms a positive timeout) disables it; a peer that died is noticed by the
coordination service's heartbeat (`HEARTBEAT_TIMEOUT`) when the timeout is not shorter.

`TimedBarrier` is the simulated side: every worker's arrival time at one cross-worker
collective, the collective started when the last arrives (as `timing.CrossBarrier`), and the
first timer that fires before the collective ended aborts it for every worker still in it
(the one whose timer fired: timed out; the others: aborted) and for every worker that
arrives later (aborted, at once). Each worker's outcome is read by its program after the
launch drove every timeline past the collective (`multi_worker._Group.cross`).
"""

from __future__ import annotations

from typing import Any, Callable

from simdist.runtime import errors

__all__ = ["HEARTBEAT_TIMEOUT", "WAITING", "TIMED_OUT", "ABORTED", "ABORTED_LATE", "TimedBarrier", "aborted",
           "aborted_by", "seconds", "timed_out"]

# xla/tsl/distributed_runtime/coordination/coordination_service.cc kDefaultHeartbeatTimeoutMs (fact A.1)
HEARTBEAT_TIMEOUT = 10.0
# base_collective_executor.cc: the timer armed while the group and instance are resolved (the
# workers' first collective together), and the one armed while the collective executes
WAITING = "Collective has timed out waiting for other workers."
TIMED_OUT = "Collective has timed out during execution."


def aborted_by(message: str) -> str:
    """The message of a collective on an executor that ``message`` aborted (StartAbort)."""
    return (f"Collective ops is aborted by: {message} The error could be from a previous operation. Restart your "
            "program to reset.")


ABORTED = aborted_by(TIMED_OUT)
# a peer that reaches the collective after the abort gets the aborted worker's error, wrapped once more
ABORTED_LATE = "Collective ops is aborted by: " + ABORTED


def seconds(value: Any) -> float | None:
    """The armed timeout of ``CommunicationOptions.timeout_seconds`` (None: no timeout)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"CommunicationOptions.timeout_seconds={value!r}: a collective's timeout must be a number "
                        "of seconds (TF passes it to the op's float `timeout_seconds` attribute)")
    return float(value) if value > 0 else None


def timed_out(message: str = TIMED_OUT) -> BaseException:
    """What the worker whose timer fired raises (`WAITING` before the group was resolved)."""
    return errors.DeadlineExceededError(None, None, message)


def aborted(message: str = ABORTED) -> BaseException:
    """What a worker raises at a collective its executor (or a peer's) already aborted."""
    return errors.DeadlineExceededError(None, None, message)


class TimedBarrier:
    """A cross-worker collective with per-worker timeouts (``timeouts[i]``: None or seconds).

    ``arrive(sim, i)`` is worker i's charge: it returns the event its timeline waits on.
    ``outcome[i]`` is then None (completed), "timed_out" or "aborted"; ``at[i]`` when."""

    __slots__ = ("n", "start", "timeouts", "arrived", "present", "events", "outcome", "at", "failed")

    def __init__(self, n: int, start: Callable[[Any], Any], timeouts: list[float | None]) -> None:
        self.n, self.start, self.timeouts = n, start, timeouts
        self.arrived = 0
        self.present = [False] * n
        self.events: list[Any] = []
        self.outcome: list[str | None] = [None] * n
        self.at: list[float | None] = [None] * n
        self.failed = False

    def arrive(self, sim: Any, i: int) -> Any:
        if not self.events:
            self.events = [sim.env.event() for _ in range(self.n)]
        ev = self.events[i]
        if self.failed:   # the collective was aborted before this worker came
            self._end(sim, i, "aborted")
            return ev
        self.arrived += 1
        self.present[i] = True
        t = self.timeouts[i]
        if t:
            sim.env.process(self._timer(sim, i, t))
        if self.arrived == self.n:
            sim.env.process(self._run(sim))
        return ev

    def _end(self, sim: Any, i: int, outcome: str | None) -> None:
        self.outcome[i], self.at[i] = outcome, float(sim.now)
        self.events[i].succeed()

    def _run(self, sim: Any) -> Any:
        from simdist.strategies.timing import replay
        yield replay(sim, self.start)
        for j in range(self.n):
            if not self.events[j].triggered:
                self._end(sim, j, None)

    def _timer(self, sim: Any, i: int, t: float) -> Any:
        yield sim.timeout(t)
        if self.events[i].triggered or self.failed:
            return
        self.failed = True
        self._end(sim, i, "timed_out")
        for j in range(self.n):   # every other worker still waiting in it: aborted now
            if self.present[j] and not self.events[j].triggered:
                self._end(sim, j, "aborted")
