"""One scheduled function of a ClusterCoordinator and its bookkeeping."""

from __future__ import annotations

from typing import Any

from simdist.strategies.remote_value import RemoteValue


class Closure:
    """One scheduled function (or a synthetic cost-only step) and its bookkeeping."""

    __slots__ = ("seq", "fn", "args", "kwargs", "name", "remote", "state", "attempts", "synthetic")

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

    def release(self) -> None:
        """Drop what only a retry would need, once the closure has ended."""
        self.fn = None
        self.args = ()
        self.kwargs = {}
        self.synthetic = None
