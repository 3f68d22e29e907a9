"""What a gradient tape around a tf.function call sees of it, when the call runs strategy.run.

TF records a tf.function call on the tapes around it as one op (PartitionedCall) whose gradient
is the gradient of the function's graph; that graph holds the ops of every replica of a
`strategy.run` inside the function, so a tape around the call differentiates through the
replicas, where a tape around an eager `strategy.run` does not see them (each replica runs on a
thread of its own, with its own tapes). simdist hands the tapes the function's ops (op by op,
runtime/interpret.py), and, while the call runs, lets them see into the replicas too: the call's
`Through` is installed in its execution context, and `execution.child` gives a replica's context
its tapes (the recording's set-aside `Deferred` on a first call, the tapes themselves when the
Python runs again).

TF builds the call's backward function when the call returns. A collective there is a custom
gradient whose backward calls the replica context's all_reduce (through merge_call), outside
the replica: TF 2.21 raises `require_replica_context`'s RuntimeError from the call ("Mismatching
tf.distribute.Strategy objects: <default strategy> is not <MirroredStrategy>"). `check` raises
the same error at the same point, when a tape recorded a collective bound in such a replica.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Sequence

from simdist.runtime import context, execution

__all__ = ["Through", "seeing", "noted", "check"]


class Through:
    """The tapes a tf.function call lets see into its replicas, the collectives its replicas
    bound while those tapes saw them (replica context, outputs), and the Through of the call
    it runs in (a tf.function called inside another's replicas), else None."""

    __slots__ = ("tapes", "collectives", "outer")

    def __init__(self, tapes: Sequence[Any], outer: "Through | None" = None) -> None:
        self.tapes = list(tapes)
        self.collectives: list[tuple[Any, tuple]] = []
        self.outer = outer


@contextlib.contextmanager
def seeing(ctx: execution.ExecutionContext, tapes: Sequence[Any]) -> Iterator[Through]:
    """While a tf.function call runs in `ctx`, `tapes` see the ops of the replicas it runs."""
    prev = ctx.through
    th = ctx.through = Through(tapes, prev)
    try:
        yield th
    finally:
        ctx.through = prev


def noted(replica_context: Any, outputs: Sequence[Any]) -> None:
    """A replica bound a collective (runtime/ops/collective.py): note it for each enclosing
    tf.function call whose tapes see it (each checks it as it returns)."""
    th = execution.current().through
    while th is not None:
        th.collectives.append((replica_context, tuple(outputs)))
        th = th.outer


def check(th: Through, tapes: Sequence[Any]) -> None:
    """After the call (its ops handed to `tapes`): TF's backward function of the call would run
    the gradient of each collective a tape recorded, in the caller's context: TF's
    require_replica_context error unless the caller is that replica."""
    for rc, outs in th.collectives:
        if outs and any(id(outs[0]) in getattr(t, "tensor_tape", ()) for t in tapes):
            context.require_replica_context(rc)
