"""The closure queue of a ClusterCoordinator (TF's `_CoordinatedClosureQueue`): scheduled closures
in FIFO order, which worker runs which, the first error (it stops the workers until the program
sees it), and every closure ever scheduled, with its outcome, for the accounting.

A preempted closure goes back to the head of the queue (TF's at-least-once rule); a failed one
records its error; when the program sees the error, the closures still queued are cancelled.
Every scheduled closure ends as completed, failed (with its error) or cancelled.
"""

from __future__ import annotations

import collections
from typing import Any, Callable

from simdist.runtime import errors
from simdist.strategies.closure import Closure
from simdist.strategies.remote_value import _CANCELLED_QUEUED

__all__ = ["ClosureQueue"]


class ClosureQueue:
    """Closures waiting, running (``inflight``: worker -> closure) and ever scheduled; ``clock``
    dates their ends, ``notify`` (set by the cluster: its worker pool's) wakes idle workers."""

    def __init__(self, clock: Any) -> None:
        self._clock = clock
        self.notify: Callable[[], None] = lambda: None
        self.queue: collections.deque[Closure] = collections.deque()
        self.inflight: dict[int, Closure] = {}           # worker -> closure
        self.closures: list[Closure] = []
        self.error: BaseException | None = None
        self.seq = 0
        self.started = 0
        self.commits = 0                                  # closures completed (committed) so far
        self.retries = 0

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def put(self, closure: Closure) -> None:
        self.closures.append(closure)
        self.queue.append(closure)
        self.notify()

    def has_work(self) -> bool:
        """Whether a closure waits to be taken and no error stopped the workers."""
        return bool(self.queue) and self.error is None

    def take(self, w: int) -> Closure:
        """The next closure, now running on worker w (its attempt, start and commits so far noted)."""
        closure = self.queue.popleft()
        closure.state = "running"
        closure.attempts += 1
        self.inflight[w] = closure
        self.started += 1
        closure.worker, closure.started_at, closure.commits_before = w, self._clock.now, self.commits
        return closure

    def drop(self, w: int) -> Closure | None:
        """Worker w no longer runs its closure: the closure (None if it ran none)."""
        return self.inflight.pop(w, None)

    def requeue(self, closure: Closure) -> None:
        """A closure lost to a preemption: back to the head of the queue, to run again."""
        closure.state = "queued"
        self.queue.appendleft(closure)
        self.retries += 1
        self.notify()

    def fail(self, closure: Closure, err: BaseException) -> None:
        """``closure`` failed with ``err``: its RemoteValue raises it, and it is the error the program sees."""
        closure.state = "failed"
        closure.ended_at = self._clock.now
        assert closure.remote is not None
        closure.remote._fail(err)
        closure.release()
        self.record_error(err)
        self.notify()

    def cancel_running(self, closure: Closure, message: str) -> None:
        """``closure`` was cancelled while running (another function failed)."""
        closure.state = "cancelled"
        closure.ended_at = self._clock.now
        assert closure.remote is not None
        closure.remote._fail(errors.CancelledError(None, None, message))

    def cancel_queued(self) -> None:
        """Cancel every closure still queued (the program has seen an error)."""
        while self.queue:
            c = self.queue.popleft()
            c.state = "cancelled"
            c.ended_at = self._clock.now
            assert c.remote is not None
            c.remote._fail(errors.CancelledError(None, None, _CANCELLED_QUEUED))

    def record_error(self, err: BaseException) -> None:
        if self.error is None:
            self.error = err

    def unfinished(self) -> bool:
        """Whether closures are queued or running and no error stopped them."""
        return self.error is None and bool(self.queue or self.inflight)
