"""The state a replica of `strategy.run` carries: what TF keeps per replica thread.

TF runs each replica function on a thread of its own, and several things are per thread: the
distribution context stack and device scope (runtime/context.py), the gradient tapes
(ops/dispatch.py), the open cost sections and the bytes the tapes keep (runtime/cost.py).
simdist runs the replicas as greenlets of one thread (strategies/replica_run.py), so it swaps
these in and out at each switch: `capture()` takes the running one's, `install(state)` puts
another's in place. A fresh replica starts with its own context stack, no tapes, no sections
and no kept bytes, as a new thread would.
"""

from __future__ import annotations

from typing import Any, Sequence

from simdist.runtime import context, cost
from simdist.runtime.ops import dispatch

__all__ = ["capture", "install", "fresh"]

_ctx = context._state
_tapes = dispatch._tls
_sections = cost._open
_held = cost.held


def capture() -> tuple:
    """The current per-replica state (references, not copies)."""
    return (_ctx.stack, _ctx.device, _tapes.tapes, _sections.stack, _held.bytes, _held.peak)


def install(state: tuple) -> None:
    _ctx.stack, _ctx.device, _tapes.tapes, _sections.stack, _held.bytes, _held.peak = state


def fresh(frames: Sequence[Any]) -> tuple:
    """A new replica's state: the context stack `frames`, nothing else."""
    stack = list(frames)
    return (stack, stack[-1].device if stack else None, [], [], 0, 0)
