"""A watched eager call evaluated again where some of its reads see other values (clause
optim.pss-updates): a ClusterCoordinator closure whose function reads a parameter-server variable
after its own write of it. TF's ps runs such a read right after the write, so it sees every other
closure's write that reached the ps first; simdist ran the function's Python when the closure
started. `evaluate` walks the call's recorded nodes (dataflow.recorded) in order inside a
`variables.Reread` transaction: each write made again (its operand the value it has now), each read
of a variable the call wrote seen anew, and only the ops downstream of a read that changed computed
again; every other node, and every random draw, keeps the value of the call's run. The Python does
not run again, so its effects (an iterator's `next`, Python state) happen once. A recorded function
evaluates its whole replay again instead, its stateful ops taking the draws its run made (`STASH`);
both give the values a run at those reads would.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import subnormals, variables
from simdist.runtime.graph.ir import CHARGE, PURE, READ, WRITE, Node
from simdist.runtime.tensor import Tensor
from simdist.runtime.values import Mirrored, PerReplica

__all__ = ["STASH", "evaluable", "reads_own_writes", "rereads", "evaluate", "again"]

# The draws of a recorded call's stateful ops (random), for its replay evaluated again: [an iterator over the
# values to take (None: draw), a list keeping the values drawn (None: keep none)] (runtime/graph/codegen.py).
STASH: list[Any] = [None, None]


def rereads(steps: list[tuple], rec: Any) -> bool:
    """Whether a recorded call reads a variable after its own write of it and can be evaluated again in
    its place: recorded to the end (no reason to abandon it) and `evaluable`."""
    return rec.reason is None and evaluable(rec.nodes) and reads_own_writes(steps)


def reads_own_writes(steps: list[tuple]) -> bool:
    """Whether a call's steps read a variable after its own write of it (clause optim.pss-updates: on a
    parameter server that read runs after the write, not at the call's start)."""
    written: set[int] = set()
    for st in steps:
        if st[0] == WRITE:
            written.add(id(st[2]))
        elif st[0] == READ and id(st[2]) in written:
            return True
    return False


def evaluable(nodes: list[Node]) -> bool:
    """Whether running these nodes again, with their stateful ops' draws kept, is the same call: no
    simulator charge among them."""
    return not any(n.kind == CHARGE for n in nodes)


def evaluate(rec: Any, first: Any) -> Any:
    """The call `rec` recorded, evaluated again inside the open transaction (a `variables.Reread`): its
    writes made again in order, and its result (`first`, with each tensor whose value changed made
    anew)."""
    nodes = rec.nodes
    new: dict[int, Any] = {}        # node -> its value where it is not the run's
    written: set[int] = set()
    fired = subnormals._fired
    with np.errstate(all="ignore", under="call", call=subnormals._on_error):   # (underflows noted: ops.subnormals)
        for i, n in enumerate(nodes):
            kind = n.kind
            if kind == PURE:
                if n.stateful:
                    continue    # (a draw keeps its value, as a replay's STASH gives it)
                ins = n.ins
                for j in ins:
                    if j in new:
                        new[i] = n.impl(*[new[j] if j in new else nodes[j].value for j in ins])
                        if n.ftz is not None and (fired[0] or n.ftz == subnormals.ALWAYS):
                            new[i] = subnormals.replay_flushed(new[i])   # (as the replay's code: codegen._flush)
                        break
            elif kind == READ:
                if id(n.var) in written:
                    new[i] = n.var._read_array()
            elif kind == WRITE:
                var = n.var
                operand = [new[j] if j in new else nodes[j].value for j in n.ins]
                if n.write_kind in variables.SCATTER_KINDS:
                    var._write_scatter(n.write_kind, tuple(operand))
                else:
                    var._write(n.write_kind, np.asarray(operand[0]))
                written.add(id(var))
    return _rebuild(first, rec.slot_of, new) if new else first


def _daz_rule(n: Node, ins: list) -> Any:
    """The subnormal rule of op node n when it reads subnormal inputs as zeros and one of `ins` (its input arrays)
    holds one: TF's kernels run with DAZ (clause ops.subnormals), which dispatch models for marked inputs. The
    first call of a tf.function whose values hold subnormals stays eager, but the nodes Grappler's rewrites made
    are evaluated again here (`again`) on the recorded values: inside tf.function `0.5 * x * y` of x = 1e-39 is
    x * (0.5 * y) (ConstantPushDown), whose product reads x as 0 on TF 2.21 (fz54b seed 54104 #0, `tf.nn.gelu`).
    None for an op that keeps subnormals, or no such input."""
    op = n.op
    if op is None or not any(isinstance(a, np.ndarray) and subnormals.holds(a) for a in ins):
        return None
    rule = op.subnormals
    if rule is subnormals.KEEP or rule is subnormals.MAKES:
        return None
    if type(rule) is not str and not isinstance(rule, subnormals.Fixed):
        try:
            rule = rule(ins, n.attrs)
        except Exception:  # noqa: BLE001 - a rule that cannot read these arrays: the kind's default
            rule = subnormals.FLUSH
    return None if rule == subnormals.KEEP else rule


def _daz_impl(n: Node, ins: list, rule: Any) -> Any:
    """Node n's value on its inputs read flushed (DAZ), a Fixed rule's mend, the result flushed (FTZ): dispatch's
    `_marked_forward` and `_flush_result` on arrays."""
    flushed = [subnormals.flushed(a) if isinstance(a, np.ndarray) else a for a in ins]
    out = n.impl(*flushed)
    if isinstance(rule, subnormals.Fixed):
        if not any(getattr(a, "dtype", None) is not None and a.dtype.kind == "c" for a in ins):
            out = rule.fix(ins, flushed, out, n.attrs)
        return out
    return subnormals.flushed(np.asarray(out)) if not isinstance(out, (tuple, list)) else out


def _rebuild(x: Any, slot_of: dict[int, int], new: dict[int, Any]) -> Any:
    """x with each tensor whose node has a new value made anew (same dtype and device)."""
    t = type(x)
    if isinstance(x, Tensor):
        i = slot_of.get(id(x))
        return x if i is None or i not in new else Tensor(np.asarray(new[i]), x.dtype, x._device)
    if t is tuple or t is list:
        return t([_rebuild(v, slot_of, new) for v in x])
    if t is dict:
        return {k: _rebuild(v, slot_of, new) for k, v in x.items()}
    if t is PerReplica or t is Mirrored:
        return t(tuple(_rebuild(v, slot_of, new) for v in x._values))
    return x


def again(rec: Any, first: Any) -> Any:
    """The recorded call `rec`, finished and rewritten by Grappler's consumer-dependent rules (graph/rewrite.py),
    evaluated again from the nodes the rewrites made (`rec.rewrote`) and the tf.cond / tf.while_loop nodes whose
    graphs they rewrote (`rec.dirty`): its result `first` with each tensor whose value changed made anew, each
    node's value the optimized graph's. Where a write's value changes, every variable the call wrote takes back its
    value from before the call (`rec.journal`) and the call's writes are made again in order (a branch's or a loop's
    too), each read after them seeing them; otherwise no variable is touched. Random draws keep their values. The
    Python does not run again (see graph/rewrite.py for why that is sound)."""
    from simdist.runtime.cost import tally
    nodes = rec.nodes
    seeds = set(rec.rewrote) | set(rec.dirty)
    if not seeds:
        return first
    # which nodes may change: the seeds and what depends on them (a read: after a write that may change)
    maybe = [False] * len(nodes)
    wrote: set[int] = set()
    full = False
    for i, n in enumerate(nodes):
        kind = n.kind
        if kind == PURE:
            maybe[i] = i in seeds or any(maybe[j] for j in n.ins)
            if maybe[i] and i in rec.branch_writes:
                full = True
        elif kind == READ:
            maybe[i] = id(n.var) in wrote
        elif kind == WRITE and any(maybe[j] for j in n.ins):
            wrote.add(id(n.var))
            full = True
    if full:   # (every variable the call's recorded writes write, back to its value from before the call; the
        # writes made again below. A variable written outside the recording keeps its value.)
        mine = {id(n.var) for n in nodes if n.kind == WRITE} | set(rec.branch_vars)
        variables.undo_trace_writes({k: (var, v.copy(), ver) for k, (var, v, ver) in rec.journal.items() if k in mine})
    new: dict[int, Any] = {}
    fired = subnormals._fired
    flops = tally.flops
    try:
        with np.errstate(all="ignore", under="call", call=subnormals._on_error):
            for i, n in enumerate(nodes):
                kind = n.kind
                if kind == PURE:
                    if n.stateful and n.body is None:
                        continue    # (a draw keeps its value)
                    if not (i in seeds or any(j in new for j in n.ins) or (full and i in rec.branch_writes)):
                        continue
                    ins = [new[j] if j in new else nodes[j].value for j in n.ins]
                    rule = _daz_rule(n, ins)
                    if rule is not None:   # (subnormal inputs of an op that reads them as zeros: as dispatch does)
                        new[i] = _daz_impl(n, ins, rule)
                    else:
                        new[i] = n.impl(*ins)
                        if n.ftz is not None and (fired[0] or n.ftz == subnormals.ALWAYS):
                            new[i] = subnormals.replay_flushed(new[i])   # (as the replay's code: codegen._flush)
                elif kind == READ and full:   # (the variable as the writes made again so far left it)
                    v = n.var._read_array()
                    old = n.value
                    if v is not old and (v.dtype != old.dtype or v.shape != old.shape or v.tobytes() != old.tobytes()):
                        new[i] = v
                elif kind == WRITE and full:
                    var = n.var
                    operand = [new[j] if j in new else nodes[j].value for j in n.ins]
                    if n.write_kind in variables.SCATTER_KINDS:
                        var._write_scatter(n.write_kind, tuple(operand))
                    else:
                        var._write(n.write_kind, np.asarray(operand[0]))
    finally:
        tally.flops = flops   # (the call's tally is the first run's)
    for i, v in new.items():
        nodes[i].value = v
    return _rebuild(first, rec.slot_of, new) if new else first
