"""A recorded call ready to replay (`Graph`: optimised, compiled, fused when its replicas'
lanes fuse), and `explain`, which says what a tf.function's calls do."""

from __future__ import annotations

from typing import Any, Callable

from simdist.runtime import variables
from simdist.runtime.graph.codegen import compile_replay
from simdist.runtime.graph.dataflow import early_writes
from simdist.runtime.graph.ir import PURE, READ, WRITE, Node, Untraceable, bind_dtypes
from simdist.runtime.graph.reevaluate import evaluable, reads_own_writes
from simdist.runtime.graph.optimize import plan

__all__ = ["Graph", "explain"]


class Graph:
    """A recorded call, optimised (folded, deduplicated, pruned) and ready to replay."""

    __slots__ = ("steps", "env0", "template", "flops", "folded", "run", "source", "outputs", "reads", "writes",
                 "write_bytes", "charges", "run_flops", "args", "sections", "held_rise", "fused",
                 "unfused", "uniform", "program", "untaped", "early", "step_bytes", "write_vars", "rereads", "draws", "daz", "plain",
                 "rewritable")

    def __init__(self, nodes: list[Node], template: Any, flops: float, outputs: Callable[[Any], Any],
                 args: list[int] | None = None, sections: tuple[float, float] = (0.0, 0.0),
                 held_rise: int = 0) -> None:
        self.flops = flops
        self.program: Any = None            # the call op by op, for replays under a tape (runtime/interpret.py)
        self.untaped = ""                   # ... or why there is none (its calls under a tape run the Python)
        self.daz = False                    # its constants hold subnormals: every call replays `plain` (ops.subnormals)
        self.rewritable = True              # Grappler's finished-graph rewrites were asked of it (graph/rewrite.py allowed)
        self.plain: Any = None              # the call op by op for a call no tape sees (`program`, or one whose bound
                                            # ops' backward a tape could not replay), run for subnormal values
        self.fused: Graph | None = None     # the same call with its replicas fused (use_fused)
        self.unfused = ""                   # why its replicas' lanes are not fused (runtime/lanes/)
        self.held_rise = held_rise         # how far above its start the call's tapes kept bytes (peak)
        self.args = list(args or ())       # the argument nodes: the replay's parameters, in order
        self.sections = sections           # the FLOPs of the call's backward and update sections
        # What the recorded call charged the simulator besides its own ops (a strategy.run's
        # phases, set by the coordinator), and the FLOPs those charges include.
        self.charges: list[Any] = []
        self.run_flops = 0.0
        self.outputs = outputs       # what the caller makes of the function's results (see record)
        p = plan(nodes, template)    # folded, deduplicated, pruned (graph/optimize.py)
        self.env0: list[Any] = p.env0
        self.folded: set[int] = p.folded
        self.steps = steps = p.steps
        # The variables it reads and writes, each once, in order of first read / first write.
        self.reads = list({id(st[2]): st[2] for st in steps if st[0] == READ}.values())
        self.writes = list({id(st[2]): st[2] for st in steps if st[0] == WRITE}.values())
        self.write_vars = [st[2] for st in steps if st[0] == WRITE]   # per write step, its variable
        self.step_bytes = self._step_bytes(nodes)
        self.write_bytes = self._write_bytes()
        # per write step: the variables its value was read from, or None when it waits for the
        # call's compute (graph/dataflow.py: what a ClusterCoordinator closure sends early)
        self.early = early_writes(steps, nodes)
        # whether a ClusterCoordinator closure replaying it may be evaluated again at its end (it reads a
        # variable after its own write, and no simulator charge would be made twice: runtime/graph/reevaluate.py),
        # and its stateful ops' values in the recording call, in step order (None: it has none), which that
        # evaluation of the recording call takes in place of new draws (reevaluate.STASH)
        self.rereads = evaluable(nodes) and reads_own_writes(steps)
        draws = [nodes[st[1]].value for st in steps if st[0] == PURE and nodes[st[1]].stateful]
        self.draws = draws if draws else None
        self.template = bind_dtypes(p.template, nodes)
        self.run = compile_replay(self, nodes)

    def use_fused(self, fused: "Graph", guard: Any) -> None:
        """Replay `fused` (this call with its replicas' lanes fused, simdist.runtime.lanes)
        whenever its guard allows, else this graph lane by lane."""
        self.fused = fused
        plain, fast, ok, done = self.run, fused.run, guard.ok, guard.done

        def run(*arrays: Any, dev: Any = None) -> Any:
            if ok():
                out = fast(*arrays, dev=dev)
                done()
                return out
            return plain(*arrays, dev=dev)
        self.run = run

    def _step_bytes(self, nodes: list[Node]) -> list[int]:
        """Per write step: the bytes its scatter sends (indices and rows), -1 for a dense write."""
        return [variables.scatter_bytes((nodes[st[1]].value, nodes[st[4]].value))
                if st[3] in variables.SCATTER_KINDS else -1 for st in self.steps if st[0] == WRITE]

    def _write_bytes(self, which: Any = None) -> list[tuple[Any, int]]:
        """(variable, bytes sent to it) per variable written (by the write steps numbered in
        `which`, else all), as Transaction.written_bytes counts them: the whole variable, or
        only the rows of its scatter writes."""
        sizes: dict[int, int] = {}
        order: dict[int, Any] = {}
        k = -1
        for st in self.steps:
            if st[0] != WRITE:
                continue
            k += 1
            if which is not None and k not in which:
                continue
            key = id(st[2])
            order.setdefault(key, st[2])
            if sizes.get(key, 0) < 0:
                continue
            b = self.step_bytes[k]
            sizes[key] = -1 if b < 0 else sizes.get(key, 0) + b
        return [(v, int(v.nbytes) if sizes[key] < 0 else min(sizes[key], int(v.nbytes))) for key, v in order.items()]


def explain(fn: Any) -> str:
    """Whether a tf.function's calls replay a recorded graph, and if not, why: its scheduled
    calls (ClusterCoordinator), else each input signature its direct calls recorded. A function
    that wraps a tf.function (`__wrapped__`: a Keras model's `train_function`) is explained by
    it; any other callable runs eagerly."""
    if not hasattr(fn, "_calls"):
        inner = getattr(fn, "__wrapped__", None)
        if inner is not None and inner is not fn:
            return explain(inner)
        return "runs eagerly every time: not a tf.function (e.g. compile(run_eagerly=True))"
    from simdist.runtime import graph
    if not graph.enabled:
        return "runs eagerly every time: SIMDIST_TRACE_FUNCTIONS=0"
    g = getattr(fn, "_graph", None)
    calls = getattr(fn, "_calls", None)
    if g is None and calls:
        return "; ".join("runs eagerly every time: " + e.reason if isinstance(e, Untraceable)
                         else f"replays a recorded graph of {len(e.steps)} steps" + _fused_note(e)
                         for e in calls.values())
    if g is None:
        return "not recorded yet (it records on its first scheduled call without arguments)"
    if isinstance(g, Untraceable):
        return "runs eagerly every time: " + g.reason
    return f"replays a recorded graph of {len(g.steps)} steps" + _fused_note(g)


def _fused_note(g: "Graph") -> str:
    return _uniform_note(g) + _fused_note_only(g) + (
        f" (under a gradient tape its calls run the Python again: {g.untaped})" if g.untaped else "") + (
        " (its constants hold subnormal floats: each call replays it op by op through dispatch, ops.subnormals)"
        if g.daz else "")


def _uniform_note(g: "Graph") -> str:
    out = ""
    n, m = len(g.uniform.ops), len(g.uniform.operands)
    if n:
        out += f", {n} op{'s' if n > 1 else ''} on uniform values as scalars"
    if m:
        out += f", {m} reading a uniform operand as its element"
    return out


def _fused_note_only(g: "Graph") -> str:
    if g.fused is not None:
        return f" ({len(g.fused.steps)} with its replicas fused)"
    return f" (its replicas one by one: {g.unfused})" if g.unfused else ""
