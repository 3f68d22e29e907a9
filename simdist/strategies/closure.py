"""One scheduled function of a ClusterCoordinator and its bookkeeping."""

from __future__ import annotations

from typing import Any

from simdist.strategies.remote_value import RemoteValue


class Closure:
    """One scheduled function (or a synthetic cost-only step) and its bookkeeping."""

    __slots__ = ("seq", "fn", "args", "kwargs", "name", "remote", "state", "attempts", "synthetic", "worker",
                 "started_at", "ended_at", "commits_before", "commit")

    def __init__(self, seq: int, fn: Any, args: tuple, kwargs: dict, name: str, synthetic: Any = None) -> None:
        self.seq = seq
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.name = name
        self.remote: RemoteValue | None = None
        self.state = "queued"          # queued | running | completed | failed | cancelled
        self.attempts = 0
        self.synthetic = synthetic     # (flops, reads, writes) for timing-only closures
        # the last attempt: its worker, when it started (its reads), when it ended, how many closures
        # had committed when it started, and its own place in the commit order (1-based; 0: none)
        self.worker = -1
        self.started_at = -1.0
        self.ended_at = -1.0
        self.commits_before = 0
        self.commit = 0

    def release(self) -> None:
        """Drop what only a retry would need, once the closure has ended."""
        self.fn = None
        self.args = ()
        self.kwargs = {}
        self.synthetic = None
