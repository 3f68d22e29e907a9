"""Which writes of a recorded call do not wait for its compute (clause optim.pss-updates).

TF's executor runs an op as soon as its inputs are ready: in a traced step, a write whose value
comes from variable reads and constants through a short chain of cheap ops (Keras's
`iterations.assign_add(1)`: a ReadVariableOp, an Add, an AssignVariableOp, none with control
inputs) runs as soon as its reads are back, unordered with the gradient and the other updates.
`early_writes` finds those writes in a recorded graph from each write's ancestors: only reads,
constants the call makes and ops of the kinds in `CHEAP_KINDS` (work linear in their operands,
done by an inter-op thread while the step computes); not a call argument or a tensor made
outside the call (an input, as TF's captures are), a random draw, a collective's or merge's
result, or a contraction, convolution or other op of the step's compute. `watch` runs an eager
call under a recorder only to find them (a ClusterCoordinator closure that does not replay). A write
also waits for the end when it must stay ordered after a write that does: a later-committing
write of the same variable before it, or one its reads saw (the call reads its own writes).
"""

from __future__ import annotations

from typing import Any, Callable

from simdist.runtime.graph.ir import CONST, PURE, READ, WRITE, Node

__all__ = ["CHEAP_KINDS", "early_writes", "recorded", "watch"]

# Op kinds (OpDef.kind) whose work is linear in their operands: a chain of them is not the step's
# compute. Contractions, windows (convolutions, pooling), nn, sort, random, collective and custom
# ops are.
CHEAP_KINDS = frozenset(["elementwise", "reduction", "shape", "shape-query", "generator", "scan", "gather/scatter"])


def early_writes(steps: list[tuple], nodes: list[Node]) -> tuple[tuple[Any, ...] | None, ...]:
    """Per WRITE step, in step order (the order a replay makes the writes: the transaction's
    ops): the variables whose reads its value depends on, in order of first read (a tuple,
    empty for a value of constants only), or None when it waits for the call's compute."""
    deps: dict[int, tuple[Any, ...] | None] = {}    # node -> the variables its value was read from
    written: dict[int, list[tuple[Any, ...] | None]] = {}   # id(var) -> the deps of its writes so far
    out: list[tuple[Any, ...] | None] = []

    def of(j: int) -> tuple[Any, ...] | None:
        return _deps_of(j, nodes, deps)

    for st in steps:
        kind = st[0]
        if kind == PURE:
            deps[st[1]] = _union([of(j) for j in st[3:]]) if _cheap(nodes[st[1]]) else None
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


def _deps_of(j: int, nodes: list[Node], deps: dict[int, tuple[Any, ...] | None]) -> tuple[Any, ...] | None:
    """The variables node j's value was read from (memoised in deps). A module function, not a
    closure that calls itself: that closure would be a reference cycle keeping the recorded nodes,
    and the variables they hold, alive until Python's cyclic collector runs, so a variable's
    device memory would be freed later with recording on than off."""
    d = deps.get(j, False)
    if d is not False:
        return d   # type: ignore[return-value]
    n = nodes[j]   # (not a step: a constant, one folded from constants, or a call argument)
    if n.kind == CONST:
        d = None if n.key == "capture" else ()   # (a tensor made outside the call: an input)
    elif n.kind == PURE and _cheap(n):
        d = _union([_deps_of(i, nodes, deps) for i in n.ins])
    else:
        d = None
    deps[j] = d
    return d


def _cheap(n: Node) -> bool:
    """Whether an op node is part of a cheap chain: deterministic, not a collective's or merge's
    result, of a kind in CHEAP_KINDS (or an output of such an op)."""
    return not n.stateful and n.reduce is None and (
        n.op.kind in CHEAP_KINDS if n.op is not None else type(n.key) is tuple and n.key[0] == "item")


def _union(parts: list[tuple[Any, ...] | None]) -> tuple[Any, ...] | None:
    """The variables of all parts, in order, each once; None if any part is None."""
    seen: dict[int, Any] = {}
    for p in parts:
        if p is None:
            return None
        for v in p:
            seen.setdefault(id(v), v)
    return tuple(seen.values())


def watch(call: Callable[[], Any], keep: bool = False, rewrites: bool = False) -> tuple:
    """Run `call()` eagerly under a graph recorder only to see its dataflow: (its early writes as
    `early_writes` gives them, None when it runs inside another recording; the variable and kind
    of each recorded write, in order; its result; whether it `reevaluate.rereads`; with `keep`, the
    recorder, from which `reevaluate.evaluate` evaluates it again, else None). The recorder's traced tensors are what
    the call sees, as on a recording call. An exception from the call propagates."""
    from simdist.runtime.graph.optimize import plan
    from simdist.runtime.graph.reevaluate import rereads
    result, rec = recorded(call, rewrites)
    if rec is None:
        return None, [], result, False, None
    nodes = rec.nodes
    p = plan(nodes, ("py", None))
    return (early_writes(p.steps, nodes), [(st[2], st[3]) for st in p.steps if st[0] == WRITE], result,
            rereads(p.steps, rec), rec if keep else None)


def recorded(call: Callable[[], Any], rewrites: bool = False) -> tuple[Any, Any]:
    """Run `call()` eagerly under a graph recorder: (its result, the recorder; None when it runs
    inside another recording). An exception from the call propagates. With `rewrites`, the ops run as
    Grappler rewrites them (runtime/ops/grappler.py): a ClusterCoordinator closure, whose traced function
    TF 2.21 runs as its rewritten graph on the worker (clause function.grappler-rewrites, open48)."""
    from simdist.runtime import execution
    from simdist.runtime.graph.recording import Recorder
    ctx = execution.current()
    if ctx.recorder is not None:
        return call(), None
    rec = Recorder()
    rec.rewrites = rewrites
    execution.begin_recording(ctx, rec)
    try:
        result = call()
    finally:
        execution.end_recording(ctx, rec)
        rec.live = False
    if rewrites:
        result = _finished(rec, result)
    return result, rec


def _finished(rec: Any, result: Any) -> Any:
    """The closure's result as its optimized graph computes it: Grappler's finished-graph rewrites
    (graph/rewrite.py) applied to its complete recording and the rewritten nodes evaluated again, where it writes
    no variable (its writes are buffered in the closure's transaction, which `reevaluate.again` cannot make again:
    a closure that writes keeps its graph as written; fz51)."""
    from simdist.runtime.graph import reevaluate, rewrite
    from simdist.runtime.graph.ir import NotRecordable
    from simdist.runtime.graph.recording import _COMPLETE
    if (rec.reason is not None and not rec.reason.startswith(_COMPLETE)) or rec.created != rec.expected \
            or not rewrite.allowed(rec):
        return result
    try:
        template = rec._template(result)
    except NotRecordable:
        return result
    rewrite.finished(rec, template)
    if rec.rewrote or rec.dirty:
        return reevaluate.again(rec, result)
    return result
