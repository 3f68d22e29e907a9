"""Grappler's consumer-dependent rewrites on the finished recording (clause function.grappler-rewrites).

TF 2.21 runs Grappler over a tf.function's whole graph before its first call: a rewrite that needs an intermediate
to have one consumer (SqrtDivToRsqrtMul's Sqrt, MinimizeBroadcasts' absorbed products, ConstantPushDown's child)
counts every consumer, the function's outputs and the ops tf.gradients added included, while tf.gradients itself
walked the graph as written (it runs while the graph is traced). simdist records the call as written; when the
recording is complete (`Recorder.finish`: every node and the outputs known) `finished` asks the rules of
simdist.runtime.ops.grappler (`finished_phases`) about each op node, phase by phase: constant folding's rules from the
first node to the last (each rewrite spliced in before the next is asked), then the arithmetic optimizer's from the
last to the first (a product tree's root before the products it absorbs). A rule that applies runs its rewritten ops
through dispatch with the recorder open again (so they are recorded as any op, the record-time rules of the ops they
make applying), and `_splice` moves those nodes to where the rewritten node stood and drops it and the nodes the
rewrite absorbed (read by nothing now): the list stays in topological order,
every index (inputs, the result template, arguments, tensors' nodes) renumbered.

The first call's Python has run with the values of the graph as written. `again` then gives the call the values of
the optimized graph: every node downstream of a rewrite evaluated again (reevaluate.py's way: each op's replay
function on its inputs' new values, random draws keeping the values they drew), and, where a write's value changes,
every variable the call wrote given back its value from before the call (the call's own `variables.trace_writes`
journal) and its writes made again in order, so the variables end as the optimized graph leaves them. The Python
does not run again: its side effects happen once. That is sound because Python cannot read a value that is not
constant inside a recorded call (`Recorder.read_value` abandons the recording when it does): no Python decision
depends on a value a rewrite changes (a rewrite never applies to constants, which TF's folding evaluates first).

A call that creates variables runs eagerly and records at its next call, but TF's first call runs its optimized
graph: its recording is rewritten and evaluated again all the same, for its values (`Recorder._rewritten_once`).

Not applied (the graph stays as written, as its first call ran): a call recorded under outer gradient tapes (TF's
forward function then returns the intermediates its backward reads, which gives them other consumers), and a call
without a journal of its writes (inside a transaction, a ClusterCoordinator closure, whose writes are buffered;
`record`) that writes a variable or whose tf.cond / tf.while_loop records its own graph: such a closure that writes
nothing is rewritten (`allowed`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import execution
from simdist.runtime.cost import tally
from simdist.runtime.graph.ir import CHARGE, CONST, PURE, WRITE, Node, remap, slots

__all__ = ["View", "finished", "allowed"]


def allowed(rec: Any) -> bool:
    """Whether the consumer-dependent rewrites apply to recorder `rec` (or, for a branch's, to its call's). A call
    without a journal of its writes (a ClusterCoordinator closure, whose writes are buffered in a transaction;
    `record`'s scheduled function) is rewritten when it writes no variable: `again` then gives its values without
    making writes again (fz51)."""
    root = rec
    while getattr(root, "parent", None) is not None:
        root = root.parent
    if not rec.rewrites or root.outer_tapes:
        return False
    if root.journal is not None:
        return True
    return rec is root and not writes(rec.nodes) and not rec.branch_writes and not rec.branch_vars


# The ops TF 2.21's OpDefs mark is_commutative (and Add but of strings: op_types.cc IsCommutative), whose inputs
# Grappler's common subexpression elimination compares as a multiset (TF 2.21 observed: `[x * s, s * x]` of one
# Sigmoid s is one Mul, so s has one consumer and the remapper fuses the swish; fz56)
_COMMUTATIVE = frozenset({"AccumulateNV2", "AddN", "AddV2", "Add", "ApproximateEqual", "BitwiseAnd", "BitwiseOr",
                          "BitwiseXor", "Equal", "LogicalAnd", "LogicalOr", "Mul", "NotEqual", "SquaredDifference"})


def _strings(rec: Any, i: int) -> bool:
    t = rec.tensor_at.get(i)
    return t is not None and getattr(t.dtype, "name", "") == "string"


class View:
    """The finished recording as the rules see it: every node's consumers (the nodes reading it, once each, and
    each place the result returns it; identical pure ops on the same inputs count as one, as TF's common
    subexpression elimination merges them first; not ops of two replicas, on two devices), its tensor, and the nodes a rule has absorbed."""

    def __init__(self, rec: Any, template: Any) -> None:
        self.rec = rec
        nodes = rec.nodes
        alias = list(range(len(nodes)))
        seen: dict[Any, int] = {}
        for i, n in enumerate(nodes):
            if n.kind == CONST and n.key is None:   # (equal literals: one Const node after TF's CSE, so `z * 2.0`
                v = getattr(rec.tensor_at.get(i), "_v", None)   # written twice is one Mul; fz53)
                if isinstance(v, np.ndarray) and v.dtype.kind in "biufc" and v.size <= 64:
                    alias[i] = seen.setdefault(("const", v.dtype.str, v.shape, v.tobytes()), i)
            elif n.kind == PURE and not n.stateful and type(n.key) is tuple and n.key[0] != "unique":
                ins = tuple(alias[j] for j in n.ins)
                if n.op is not None and n.op.name in _COMMUTATIVE and (n.op.name != "Add" or not _strings(rec, i)):
                    ins = tuple(sorted(ins))   # (CSE sorts a commutative op's inputs: `x * s` and `s * x` merge)
                k = (n.key, ins, n.lane)   # (replicas' ops: other devices, not merged)
                alias[i] = seen.setdefault(k, i)
        count = [0] * len(nodes)
        live = _live(nodes, template, alias)
        for i, n in enumerate(nodes):
            if alias[i] != i or not live[i]:   # (a duplicate CSE drops: its consumers read the node it merges into;
                continue                       # a dead node, which the function's pruning drops: no consumer)
            for j in set(alias[j] for j in n.ins):
                count[j] += 1
        for j in slots(template):
            count[alias[j]] += 1
        self.alias = alias
        self.count = count
        self.absorbed: set[int] = set()

    def consumers(self, i: int) -> int:
        """How many consumers node i has in the finished graph (outputs included)."""
        return self.count[self.alias[i]]

    def node_of(self, t: Any) -> int | None:
        return self.rec.slot_of.get(id(t))

    def tensor(self, i: int) -> Any:
        return self.rec.tensor_at.get(i)


def _live(nodes: list, template: Any, alias: list[int]) -> list[bool]:
    """Per node: whether the function's graph keeps it, as TF 2.21 prunes a function's body to what its outputs and
    its stateful ops need before Grappler sees it (function.cc PruneFunctionBody): a value nothing live reads — a
    tape's gradient with respect to an unwatched factor, `x * w`'s `g * x` when only x is watched — is no consumer
    (rsweep61's traced MEAN gradient: ConstantPushDown's child `s * (1 / 3)` had one live consumer; fix62c). Roots:
    the result, writes, charges, stateful ops, collectives' reductions (`Recorder.computed`: stateful in TF) and the
    nodes of a tf.cond or tf.while_loop. Over the graph common subexpression elimination leaves (`alias`: each node's
    representative), as TF merges before it prunes: a tape's dead `p * s` that CSE merged with a returned `p * s` is
    the returned one, and p keeps its consumer (blind75's "tape reads p": TF 2.21 regroups it, b * (a * s))."""
    live = [False] * len(nodes)
    todo = [alias[i] for i in slots(template)]
    for i, n in enumerate(nodes):
        if n.kind in (WRITE, CHARGE) or n.body is not None or n.kind == PURE and (
                n.stateful or n.op is None and type(n.key) is tuple and n.key[0] == "unique"):
            todo.append(alias[i])
    while todo:
        i = todo.pop()
        if live[i]:
            continue
        live[i] = True
        todo.extend(alias[j] for j in nodes[i].ins)
    return live


def finished(rec: Any, template: Any) -> Any:
    """Apply the consumer-dependent rewrites to the finished recording `rec` whose result is `template`: the
    template renumbered (rec.nodes and its indices rewritten in place); `rec.rewrote` lists the nodes the rewrites
    made (by their new index), for `again`. The rules come in phases (`grappler.finished_phases`), each over the
    graph the one before left, as Grappler runs its optimizers one after another: constant folding's, which visits
    the nodes from the first to the last (ConstantFolding::SimplifyGraph; a rewrite spliced in before the next node
    is asked, so a chain's push-downs compose as TF's repeated passes compose them), then the arithmetic
    optimizer's, from the last to the first (its queue pops from the back: a tree's root before what it absorbs)."""
    from simdist.runtime.ops import grappler
    phases = grappler.finished_phases()
    if not phases:
        return template
    rec.rewrote = []
    ctx = execution.current()
    flops, lane = tally.flops, rec.lane
    outer = ctx.recorder   # (a branch's recorder finishes while its call's records: set aside meanwhile)
    if outer is not None:
        execution.end_recording(ctx, outer)
    execution.begin_recording(ctx, rec)
    try:
        for forward, rules in phases:
            template = (_forward if forward else _backward)(rec, template, rules)
    finally:
        execution.end_recording(ctx, rec)
        if outer is not None:
            execution.begin_recording(ctx, outer)
        tally.flops, rec.lane = flops, lane
    return template


def _ask(view: View, rules: dict, i: int) -> Any:
    """The tensor rule of node i's op makes of it (its ops recorded at the end of rec.nodes), else None."""
    rec = view.rec
    n = rec.nodes[i]
    if n.kind != PURE or n.op is None or i in view.absorbed or view.alias[i] != i:
        return None
    rule = rules.get(n.op.name)
    if rule is None or view.tensor(i) is None:
        return None
    rec.lane = n.lane
    with np.errstate(all="ignore"):   # (as the ops' own eager paths: inf * 0 is NaN, quietly)
        return rule(view, i)


def _backward(rec: Any, template: Any, rules: dict) -> Any:
    """One phase from the last node to the first, every rule judging the graph as the phase found it."""
    nodes = rec.nodes
    n0 = len(nodes)
    view = View(rec, template)
    subs: dict[int, tuple[int, int, int]] = {}   # rewritten node -> (first new node, end, its replacement)
    for i in range(n0 - 1, -1, -1):
        start = len(nodes)
        out = _ask(view, rules, i)
        j = None if out is None else rec.slot_of.get(id(out))
        if j is None:   # (no rewrite; ops a rule ran before it declined are dropped by _splice)
            continue
        subs[i] = (start, len(nodes), j)
        for k in _duplicates(view, i, n0):
            subs[k] = (start, start, j)
    if not subs and len(nodes) == n0:
        return template
    return _splice(rec, template, subs, n0, view.absorbed)[0]


def _forward(rec: Any, template: Any, rules: dict) -> Any:
    """One phase from the first node to the last, each rewrite spliced in before the next node is asked."""
    nodes = rec.nodes
    view = View(rec, template)
    i = 0
    while i < len(nodes):
        n0 = start = len(nodes)
        out = _ask(view, rules, i)
        j = None if out is None else rec.slot_of.get(id(out))
        if j is None:
            if len(nodes) != n0:
                template = _splice(rec, template, {}, n0, set())[0]
            i += 1
            continue
        sub = {i: (start, len(nodes), j)}
        sub.update({k: (start, start, j) for k in _duplicates(view, i, n0)})
        template, alias = _splice(rec, template, sub, n0, view.absorbed)
        i = 1 + max([alias[k] for k in range(i) if alias[k] >= 0] +
                    [alias[k] for k in range(start, len(alias)) if alias[k] >= 0] + [-1])
        view = View(rec, template)
    return template


def _duplicates(view: View, i: int, n0: int) -> list[int]:
    """The nodes CSE merges into node i (identical pure ops on the same inputs, `View.alias`): they read what node i
    is rewritten to (`[x * s, s * x]` returns one fused swish twice)."""
    return [k for k in range(i + 1, n0) if view.alias[k] == i]


def _splice(rec: Any, template: Any, subs: dict[int, tuple[int, int, int]], n0: int,
            absorbed: set[int]) -> tuple[Any, list[int]]:
    """Move each rewrite's new nodes to where the node it replaces stood, drop that node and the nodes the rewrites
    absorbed (each read only by what was rewritten, so read by nothing now; one still read is kept), renumber
    everything. Returns the template renumbered and the old index -> new index map (-1: dropped)."""
    nodes = rec.nodes
    dropped = {k for k in absorbed if k < n0 and k not in subs}
    if dropped:   # (a node still read by a node kept, or returned, stays)
        kept_ins = {j for i in range(len(nodes)) if i not in dropped and i not in subs for j in nodes[i].ins}
        kept_ins.update(slots(template))
        changed = True
        while changed:
            changed = False
            for k in sorted(dropped):
                if k in kept_ins:
                    dropped.discard(k)
                    kept_ins.update(nodes[k].ins)
                    changed = True
    order: list[int] = []
    for i in range(n0):
        if i in subs:
            order.extend(range(subs[i][0], subs[i][1]))
        elif i not in dropped:
            order.append(i)
    new = [-1] * len(nodes)
    for k, i in enumerate(order):
        new[i] = k

    def resolve(i: int) -> int:
        while new[i] < 0 and i in subs:
            i = subs[i][2]
        return new[i]   # (-1: a node no rewrite kept)
    alias = [resolve(i) for i in range(len(nodes))]
    # (what `again` evaluates anew: the new nodes, and each replacement, whose consumers now read it)
    made = [alias[i] for s in subs.values() for i in range(s[0], s[1])] + [alias[i] for i in subs]
    made += [alias[i] for i in rec.rewrote if i < len(alias)]   # (an earlier rewrite's, renumbered)
    kept: list[Node] = [nodes[i] for i in order]
    for n in kept:
        n.ins = tuple(alias[j] for j in n.ins)
    rec.nodes[:] = kept
    rec.static[:] = [rec.static[i] for i in order]
    rec.folds[:] = [rec.folds[i] for i in order]
    rec.slot_of = {k: alias[v] for k, v in rec.slot_of.items() if alias[v] >= 0}
    rec.tensor_at = {new[i]: t for i, t in rec.tensor_at.items() if new[i] >= 0}
    rec.args = [alias[i] for i in rec.args]
    rec.dirty = [alias[i] for i in rec.dirty]
    rec.branch_writes = {alias[i] for i in rec.branch_writes}
    rec.rewrote = sorted(set(k for k in made if k >= 0))
    return remap(template, alias), alias


def writes(nodes: list[Node]) -> bool:
    """Whether recorded nodes write a variable."""
    return any(n.kind == WRITE for n in nodes)
