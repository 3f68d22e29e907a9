"""A tf.cond / tf.switch_case recorded as TF's If / Case op: each branch recorded as a graph of
its own, and one node of the call's recording that runs the branch its predicate selects when the
graph replays (clause function.traced-branches).

So a tf.function whose branches depend on a tensor's value still records once per input
signature, as TF traces it once: the Python of every branch runs once, at that first call, and
later calls replay. A branch's recorder (`BranchRecorder`) records the branch's ops like the call's
recorder does; a tensor of the enclosing recording the branch uses becomes an argument of the
branch's graph (TF's captured input), a tensor made outside any recording a constant. The branch
the predicate does not select when the call records runs untaken (simdist/runtime/ops/branches.py:
its writes dropped, its charges refused), so its graph holds what TF's branch graph holds.

Not recorded (the call then runs eagerly every time, as before): a branch that charges the
simulator (a strategy call inside the branch), a call recorded under gradient tapes or inside a
replica of strategy.run, a scheduled (ClusterCoordinator) function, and a branch whose untaken
trace stopped at an error TF's graph would raise only when it runs.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Sequence

import numpy as np

from simdist.runtime import execution
from simdist.runtime.cost import tally
from simdist.runtime.graph.ir import ARG, PURE, Node
from simdist.runtime.graph.recording import Recorder
from simdist.runtime.graph.replay import Graph
from simdist.runtime.ops import random_graphs, static_shapes
from simdist.runtime.tensor import Tensor, _Traced

__all__ = ["BranchRecorder", "recordable", "record_branches", "record_loop"]


def _same(x: Any) -> Any:
    return x


class BranchRecorder(Recorder):
    """The recorder of one branch, inside the recorder `parent` of the call (or of an enclosing
    branch): tensors of the parent's recording become the branch graph's arguments."""

    def __init__(self, parent: Recorder) -> None:
        super().__init__()
        self.parent = parent
        self.charges_in_graph = True
        self.device = parent.device
        self.captured: list[int] = []   # per captured argument of the branch graph: its node in the parent
        self.captured_t: list[Tensor] = []   # ... and the tensor
        self.spent = 0.0                # the FLOPs of the branch when it ran untaken
        self.flops = 0.0                # the FLOPs of one run of its graph

    def _outer(self, t: Tensor) -> bool:
        p: Any = self.parent
        while p is not None:
            if id(t) in p.slot_of:
                return True
            p = getattr(p, "parent", None)
        return False

    def ref(self, t: Tensor) -> int:
        i = self.slot_of.get(id(t))
        if i is not None:
            return i
        if not self._outer(t):
            p: Any = self.parent
            while p is not None:
                if id(t) in p.inner:
                    self.invalidate("it uses a tensor made inside a tf.cond branch outside that branch")
                    return super().ref(t)
                p = getattr(p, "parent", None)
            # (else a tensor from outside the call, an eager one the function captures, first used in this branch:
            # the call's graph captures it and the branch takes it from there, as TF's cond_v2 captures the
            # function's placeholder, so tf.gradients with respect to it reaches the If node; open45)
        j = self.parent.ref(t)
        arr = t._a if type(t) is _Traced else t._v
        i = self._add(Node(ARG, value=arr, dtype=t.dtype), t)
        self.static[i] = self.parent.static[j]
        self.folds[i] = self.parent.folds[j]
        self.args.append(i)
        self.captured.append(j)
        self.captured_t.append(t)
        return i

    def is_constant(self, t: Tensor) -> bool:
        i = self.slot_of.get(id(t))
        if i is not None:
            return self.static[i]
        return self.parent.is_constant(t)

    def is_capture(self, t: Tensor) -> bool:
        i = self.slot_of.get(id(t))
        if i is not None:
            return not self.folds[i]
        return self.parent.is_capture(t)

    def charge(self, fn: Callable[[], Any], refusal: str | None = None) -> None:
        self.invalidate("a tf.cond branch charges the simulator (a strategy call inside it)")


def _variables_read(subs: list[BranchRecorder]) -> list[Any]:
    """The variables the branches read (their READ nodes), each once, in order of first read: a
    gradient of the node reaches them (autodiff/graph_gradients.py)."""
    from simdist.runtime.graph.ir import READ
    out: list[Any] = []
    for sub in subs:
        for n in sub.nodes:
            if n.kind == READ and all(v is not n.var for v in out):
                out.append(n.var)
    return out


def _capture_outputs(sub: BranchRecorder, flat: list[Tensor]) -> None:
    """A tensor of an enclosing recording that the branch returns as it is (`lambda: x`) made an
    argument of the branch's graph, so that every replay returns that call's value."""
    for t in flat:
        if id(t) not in sub.slot_of and sub._outer(t):
            sub.ref(t)


def recordable(rec: Any) -> bool:
    """Whether a cond inside the recording `rec` can be recorded as a branch node: a direct
    tf.function call's recording (or a branch's), not under tapes, outside replicas."""
    if rec is None or not rec.live or not rec.charges_in_graph or rec.lane is not None or rec.lanes:
        return False
    c = execution.current()
    return c.aside is None and not c.tapes and c.runner is None


def _unlinked(record: Callable[..., Any]) -> Callable[..., Any]:
    """`record`, whose branch recorders (those `rec.keep`s from the call on) no longer point at
    their parent when it returns: no reference cycle outlives the recording."""
    def wrapped(rec: Recorder, *args: Any) -> Any:
        n = len(rec.keep)
        try:
            return record(rec, *args)
        finally:
            for sub in rec.keep[n:]:
                if type(sub) is BranchRecorder:
                    sub.parent = None
    wrapped.__doc__ = record.__doc__
    wrapped.__name__ = record.__name__
    return wrapped


@_unlinked
def record_branches(rec: Recorder, pred: Tensor, fns: Sequence[Callable[[], Any]], taken: int,
                    select: Callable[[np.ndarray], int], untaken: Callable[[Callable[[], Any]], Any],
                    outputs: Callable[[Any], Any], failed: Any) -> tuple[list[Any], Any]:
    """Record each branch of fns (fns[taken] run as it is, the others through `untaken`) under a
    BranchRecorder, and add to `rec` the node that replays the one `select(pred value)` picks:
    (each branch's outputs as it returned them, the taken branch's outputs as tensors of `rec`),
    or (outputs, None) when the branches cannot be recorded (`rec` then says why)."""
    c = execution.current()
    outs: list[Any] = []
    subs: list[BranchRecorder] = []
    flops: list[float] = []
    for i, fn in enumerate(fns):
        sub = BranchRecorder(rec)
        execution.end_recording(c, rec)
        execution.begin_recording(c, sub)
        f0 = tally.flops
        try:
            with random_graphs.branch():
                out = outputs(fn()) if i == taken else untaken(fn)
        finally:
            execution.end_recording(c, sub)
            execution.begin_recording(c, rec)
            sub.live = False
        flops.append(tally.flops - f0 if i == taken else sub.spent)
        outs.append(out)
        subs.append(sub)
        rec.keep.append(sub)   # (its tensors stay alive, so their ids are not taken by others)
        rec.inner.update(dict.fromkeys(sub.slot_of))
    if any(o is failed for o in outs):
        rec.invalidate("a tf.cond branch it does not take stops at an error its ops raise when they run")
        return outs, None
    for sub in subs:
        if sub.reason is not None:
            rec.invalidate(sub.reason)
            return outs, None
    from simdist.runtime import nest
    shapes = {tuple(tuple(t.shape) for t in nest.flatten(o) if isinstance(t, Tensor)) for o in outs}
    if len(shapes) > 1:
        # (the result's shape depends on the predicate's value, not on the inputs' shapes: the ops after it
        # were recorded for the taken branch's shapes, a broadcast to them, and would not replay the other's)
        rec.invalidate("the branches of a tf.cond return tensors of different shapes")
        return outs, None
    graphs, flat_outs = [], []
    for sub, out in zip(subs, outs):
        flat = [t for t in nest.flatten(out) if t is not None]
        if any(not isinstance(t, Tensor) for t in flat):
            rec.invalidate("a tf.cond branch returns something other than tensors")
            return outs, None
        _capture_outputs(sub, flat)
        g = sub.finish(flat, 0.0, _same)
        if type(g) is not Graph:
            rec.invalidate(g.reason)
            return outs, None
        graphs.append(g)
        flat_outs.append(flat)
    # every parent node a branch captures, once, in order of first capture
    ins: list[int] = []
    where: list[list[int]] = []
    for sub in subs:
        pos = []
        for j in sub.captured:
            if j not in ins:
                ins.append(j)
            pos.append(ins.index(j))
        where.append(pos)
    mine = flat_outs[taken]
    extra = [f - flops[taken] for f in flops]   # (the call's own tally already holds the taken branch's)

    def run_branch(p: np.ndarray, *vals: np.ndarray) -> tuple:
        k = select(p)
        out = graphs[k].run(*[vals[j] for j in where[k]])
        tally.flops += extra[k]
        return tuple(t._v for t in out)
    node = Node(PURE, run_branch, (rec.ref(pred),) + tuple(ins), tuple(t.dtype for t in mine),
                key=("unique", len(rec.nodes)), stateful=True)
    node.value = tuple(t._a if type(t) is _Traced else t._v for t in mine)
    node.body = ("cond", pred, select, subs, flat_outs, _variables_read(subs))
    i = rec._add(node)
    _rewritten(rec, i, subs)
    if rec.untaped is None:
        rec.untaped = "it runs a tf.cond or tf.switch_case recorded as one node (its branches' graphs)"
    traced = [rec._traced(t, Node(PURE, operator.itemgetter(j), (i,), t.dtype, key=("item", j)))
              for j, t in enumerate(mine)]
    rec.expected -= len(traced)   # (each output tensor was made, and counted, in its branch's recording)
    for src, dst in zip(mine, traced):   # (the graph knows the replayed outputs' shapes as the branch's)
        static_shapes.carry(src, dst)
    it = iter(traced)
    result = nest.map_structure(lambda v: None if v is None else next(it), outs[taken])
    return outs, result


def _rewritten(rec: Recorder, i: int, subs: list[BranchRecorder]) -> None:
    """Note node i of `rec` (a tf.cond's or tf.while_loop's) for the call's evaluation again (reevaluate.again)
    when Grappler's finished-graph rewrites changed its graphs (their first run computed them as written), and
    whether its graphs write variables (made again when the call's writes are)."""
    from simdist.runtime.graph.ir import WRITE
    # (a branch holding an op with an effect outside the variables, a summary write or a print, or a random draw,
    # is not evaluated again: its graph's run would make the effect, or the draw, a second time (tests/summary/
    # test_summary22_tf.py's histogram under record_if, written twice); its first call keeps its values as written)
    effects = any(getattr(sub, "effects", False) or any(n.kind == PURE and n.stateful and n.body is None
                                                        for n in sub.nodes) for sub in subs)
    if effects:
        rec.effects = True
    elif any(sub.rewrote or sub.dirty for sub in subs):
        rec.dirty.append(i)
    written = {id(n.var): n.var for sub in subs for n in sub.nodes if n.kind == WRITE}
    for sub in subs:
        written.update(sub.branch_vars)
    if written:
        rec.branch_writes.add(i)
        rec.branch_vars.update(written)


def _raw(t: Tensor) -> np.ndarray:
    return t._a if type(t) is _Traced else t._v


@_unlinked
def record_loop(rec: Recorder, cond: Callable[[list], Tensor], body: Callable[[list], list], flat0: list[Tensor],
                limit: int | None, untaken: Callable[..., Any], failed: Any) -> list[Tensor] | None:
    """A tf.while_loop inside the recording `rec` as TF's While op: `cond` and `body` (on the flat
    loop variables, giving the squeezed predicate and the checked flat outputs) recorded once each
    as graphs whose parameters are the loop variables (then their captures), the loop run through
    them, and a node added to `rec` that runs the loop on every replay. The body runs for real on
    the first iteration, untaken when the loop runs none. The loop's results as tensors of `rec`,
    or None when the loop cannot be recorded this way (`rec` then says why): the caller runs it on
    from the values it left (`rec.loop_state`: (flat loop variables, iterations done))."""
    c = execution.current()
    f_start = tally.flops
    subs: list[BranchRecorder] = []
    outs: list[Any] = []
    went = False
    for part in (0, 1):
        sub = BranchRecorder(rec)
        execution.end_recording(c, rec)
        execution.begin_recording(c, sub)
        f0 = tally.flops
        try:
            twins = [sub.arg(t) for t in flat0]
            with random_graphs.branch():
                if part == 0:
                    out = [cond(twins)]
                elif went:
                    out = body(twins)
                else:
                    out = untaken(lambda: body(twins), keep_recorder=True)
        finally:
            execution.end_recording(c, sub)
            execution.begin_recording(c, rec)
            sub.live = False
        if part == 0:
            went = bool(np.asarray(_raw(out[0]))) and (limit is None or limit > 0)
        sub.flops = tally.flops - f0 if part == 0 or went else sub.spent
        subs.append(sub)
        outs.append(out)
        rec.keep.append(sub)
        rec.inner.update(dict.fromkeys(sub.slot_of))
    state = (list(outs[1]) if went else list(flat0), 1 if went else 0)
    rec.loop_state = state
    if outs[1] is failed:
        rec.invalidate("its tf.while_loop's body stops at an error its ops raise when they run")
        return None
    for sub in subs:
        if sub.reason is not None:
            rec.invalidate(sub.reason)
            return None
    if went and any(tuple(o.shape) != tuple(t.shape) for o, t in zip(outs[1], flat0)):
        rec.invalidate("its tf.while_loop's loop variables change shape (shape_invariants)")
        return None
    graphs = []
    for sub, out in zip(subs, outs):
        _capture_outputs(sub, out)
        g = sub.finish(list(out), sub.flops, _same)
        if type(g) is not Graph:
            rec.invalidate(g.reason)
            return None
        graphs.append(g)
    cg, bg = graphs
    ccap = [_raw(t) for t in subs[0].captured_t]
    bcap = [_raw(t) for t in subs[1].captured_t]
    n = len(flat0)
    # the rest of the loop, through the graphs (their replays' tensors are not the call's ops)
    created0 = rec.created
    vals, count = [_raw(t) for t in state[0]], state[1]
    if went:
        while limit is None or count < limit:
            if not bool(np.asarray(cg.run(*vals, *ccap)[0]._v)):
                break
            vals = [t._v for t in bg.run(*vals, *bcap)]
            count += 1
    rec.expected += rec.created - created0
    spent = tally.flops - f_start   # (the call's own tally holds the loop as it ran now)
    ins: list[int] = [rec.ref(t) for t in flat0]
    cpos, bpos = [], []
    for sub, pos in ((subs[0], cpos), (subs[1], bpos)):
        for j in sub.captured:
            if j not in ins[n:]:
                ins.append(j)
            pos.append(n + ins[n:].index(j))

    def run_loop(*arrays: np.ndarray) -> tuple:
        vs = list(arrays[:n])
        cc = [arrays[j] for j in cpos]
        bc = [arrays[j] for j in bpos]
        k = 0
        while limit is None or k < limit:
            if not bool(np.asarray(cg.run(*vs, *cc)[0]._v)):
                break
            vs = [t._v for t in bg.run(*vs, *bc)]
            k += 1
        tally.flops -= spent
        return tuple(vs)
    node = Node(PURE, run_loop, tuple(ins), tuple(t.dtype for t in flat0), key=("unique", len(rec.nodes)),
                stateful=True)
    node.value = tuple(vals)
    from simdist.runtime import interpret
    progs = (interpret.build(subs[0], outs[0]), interpret.build(subs[1], list(outs[1])))
    # (for tf.gradients: the loop run again op by op, autodiff/graph_gradients.py)
    node.body = ("while", progs, n, cpos, bpos, limit, _variables_read(subs))
    i = rec._add(node)
    _rewritten(rec, i, subs)
    if rec.untaped is None:
        rec.untaped = "it runs a tf.while_loop recorded as one node (its cond's and body's graphs)"
    return [rec._traced(Tensor(v, t.dtype, t._device), Node(PURE, operator.itemgetter(j), (i,), t.dtype,
                                                             key=("item", j)))
            for j, (v, t) in enumerate(zip(vals, flat0))]
