"""Which writes of a recorded call do not wait for its compute (clause optim.pss-updates).

TF's executor runs an op as soon as its inputs are ready: in a traced step, a write whose value
comes from variable reads and constants through a short chain of cheap ops (Keras's
`iterations.assign_add(1)`: a ReadVariableOp, an Add, an AssignVariableOp, none with control
inputs) runs as soon as its reads are back, unordered with the gradient and the other updates.
`early_writes` finds those writes in a recorded graph from each write's ancestors: only reads,
constants and ops of the kinds in `CHEAP_KINDS` (work linear in their operands, done by an
inter-op thread while the step computes); not a call argument, a random draw, a collective's
or merge's result, or a contraction, convolution or other op of the step's compute. A write
also waits for the end when it must stay ordered after a write that does: a later-committing
write of the same variable before it, or one its reads saw (the call reads its own writes).
"""

from __future__ import annotations

from typing import Any

from simdist.runtime.graph.ir import PURE, READ, WRITE, Node

__all__ = ["CHEAP_KINDS", "early_writes"]

# Op kinds (OpDef.kind) whose work is linear in their operands: a chain of them is not the step's
# compute. Contractions, windows (convolutions, pooling), nn, sort, random, collective and custom
# ops are.
CHEAP_KINDS = frozenset(["elementwise", "reduction", "shape", "shape-query", "generator", "scan", "gather/scatter"])


def early_writes(steps: list[tuple], nodes: list[Node], env0: list[Any]) -> tuple[tuple[Any, ...] | None, ...]:
    """Per WRITE step, in step order (the order a replay makes the writes: the transaction's
    ops): the variables whose reads its value depends on, in order of first read (a tuple,
    empty for a value of constants only), or None when it waits for the call's compute."""
    deps: dict[int, tuple[Any, ...] | None] = {}    # node -> the variables its value was read from
    written: dict[int, list[tuple[Any, ...] | None]] = {}   # id(var) -> the deps of its writes so far
    out: list[tuple[Any, ...] | None] = []

    def of(j: int) -> tuple[Any, ...] | None:
        d = deps.get(j, False)
        if d is not False:
            return d   # type: ignore[return-value]
        return () if env0[j] is not None else None    # a constant, else a call argument

    for st in steps:
        kind = st[0]
        if kind == PURE:
            n = nodes[st[1]]
            cheap = not n.stateful and n.reduce is None and (
                n.op.kind in CHEAP_KINDS if n.op is not None else type(n.key) is tuple and n.key[0] == "item")
            deps[st[1]] = _union([of(j) for j in st[3:]]) if cheap else None
        elif kind == READ:
            var = st[2]
            before = written.get(id(var), [])   # (the read sees these writes: the call's own)
            deps[st[1]] = _union(before + [(var,)])
        elif kind == WRITE:
            var = st[2]
            d = _union([of(st[1])] + [of(j) for j in st[4:]])
            before = written.setdefault(id(var), [])
            if any(b is None for b in before):
                d = None                     # (after a write that commits at the end)
            before.append(d)
            out.append(d)
    return tuple(out)


def _union(parts: list[tuple[Any, ...] | None]) -> tuple[Any, ...] | None:
    """The variables of all parts, in order, each once; None if any part is None."""
    seen: dict[int, Any] = {}
    for p in parts:
        if p is None:
            return None
        for v in p:
            seen.setdefault(id(v), v)
    return tuple(seen.values())
