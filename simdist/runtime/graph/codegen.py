"""The replay of a recorded graph as one generated Python function (as torch.fx emits code for
its graphs): the same NumPy calls, variable reads and writes and FLOP tally as the eager call,
with no per-op dispatch."""

from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

from simdist.runtime import context, execution, subnormals, uniform
from simdist.runtime.graph import reevaluate
from simdist.runtime.cost import tally
from simdist.runtime.graph.ir import CHARGE, PURE, READ, WRITE, Node, has_numbers, slots
from simdist.runtime.tensor import Tensor
from simdist.runtime.values import Mirrored, PerReplica

__all__ = ["compile_replay"]


def _numbers_on(outputs: Callable[[Any], Any], out: Any, dev: str | None) -> Any:
    """outputs(out): the Python numbers a replayed function returns made tensors, as eagerly, on the
    current device, which is `dev` when the replay was given one (a ClusterCoordinator's replay of a
    closure on a worker, without that worker's device scope: the eager call converts them inside it,
    TF 2.21 places them on the worker; fix51b, clause ops.conversion)."""
    if dev is None:
        return outputs(out)
    ctx = execution._current.ctx
    was = ctx.device
    ctx.device = dev
    try:
        return outputs(out)
    finally:
        ctx.device = was


def compile_replay(graph: Any, nodes: list[Node]) -> Callable[..., Any]:
    """The replay of `graph` (a replay.Graph being built: its steps, constants and template) as one
    generated Python function (as torch.fx emits code for its graphs):
    the same NumPy calls, variable reads and writes, and FLOP tally as the eager call, with
    no per-op dispatch. Constants, ops and variables are bound as closure variables."""
    bound: list[Any] = []

    def k(obj: Any) -> str:
        bound.append(obj)
        return f"k{len(bound) - 1}"

    def val(i: int) -> str:
        return k(graph.env0[i]) if graph.env0[i] is not None else f"v{i}"
    # Each value is dropped after its last use: a variable's buffer that no replayed value
    # holds any more is updated in place by its write (ResourceVariable._apply_op), as when
    # no tensor read from it is alive eagerly; the values are the same either way.
    kept = set(slots(graph.template)) | set(graph.args)
    sink = graph.uniform = uniform.plan(graph.steps, nodes, graph.env0, kept) if uniform.enabled \
        else uniform.Sinking()

    def operand(j: int, st: tuple) -> str:
        """A write's operand: a uniform value as a stride-0 view of its element."""
        if j in sink.ops:
            return f"ndarray({k(sink.shapes[j][0])}, {k(sink.shapes[j][1])}, v{j}, 0, {k((0,) * len(sink.shapes[j][0]))})"
        if j in sink.scalars and uniform.takes(st):
            return k(sink.view(j, sink.scalars[j]))
        return val(j)
    last: dict[int, int] = {}
    for s, st in enumerate(graph.steps):
        if st[0] in (PURE, READ):
            last.setdefault(st[1], s)
        used = st[3:] if st[0] == PURE else (st[1],) + st[4:] if st[0] == WRITE else ()
        for j in used:
            last[j] = s
    drop: dict[int, list[int]] = {}
    for i, s in last.items():
        if i not in kept and graph.env0[i] is None:
            drop.setdefault(s, []).append(i)
    lines = []
    pending: tuple[int, int] | None = None   # (first line, node) of a stateful op's statements: see _stashed
    for s, st in enumerate(graph.steps):
        if pending is not None:
            _stashed(lines, *pending)
            pending = None
        if st[0] == PURE and nodes[st[1]].stateful:
            pending = (len(lines), st[1])
        if s > 0 and s - 1 in drop:
            lines.append("del " + ", ".join(f"v{i}" for i in sorted(drop[s - 1])))
        if st[0] == PURE:
            n = nodes[st[1]]
            if st[1] in sink.ops:     # on the elements of uniform values (runtime/uniform.py)
                args = [k(sink.scalars[j]) if j in sink.scalars else val(j) for j in st[3:]]
                lines.append(f"v{st[1]} = {k(st[2])}({', '.join(args)})")
                _flush(lines, n, st[1])
                continue
            whole = sink.operands.get(st[1], ())   # uniform operands read as their elements
            args = [k(sink.scalars[j]) if p in whole else val(j) for p, j in enumerate(st[3:])]
            parts = getattr(st[2], "parts", None)
            if n.inline is not None:
                expr = n.inline[0].format(*args, *[k(c) for c in n.inline[1:]])
            elif parts is not None:
                # `run` of _op_impl as statements (one Python call less per op and replay):
                # the forward, then the result made an array of the output dtype.
                fwd, kw, npd, keep = parts
                v = f"v{st[1]}"
                call = ", ".join(args + [f"{name}={k(val)}" for name, val in kw.items()])
                lines.append(f"{v} = {k(fwd)}({call})")
                lines.append(f"if type({v}) is not ndarray:")
                lines.append(f"    {v} = asarray({v})")
                if not keep:
                    d = k(npd)
                    lines.append(f"if {v}.dtype is not {d} and {v}.dtype != {d}:")
                    lines.append(f"    {v} = {v}.astype({d}, copy=False)")
                _flush(lines, n, st[1])
                continue
            else:
                expr = f"{k(st[2])}({', '.join(args)})"
            lines.append(f"v{st[1]} = {expr}")
            _flush(lines, n, st[1])
        elif st[0] == READ:
            lines.append(f"v{st[1]} = {k(st[2])}._read_array()")
        elif st[0] == CHARGE:
            lines.append(f"{k(st[2])}()")
        elif st[3] == "share":   # a mirrored copy taking its twin's buffer (runtime/lanes/)
            lines.append(f"{k(st[2])}._share({val(st[1])})")
        elif len(st) > 4:    # a scatter: (indices, updates), checked as eagerly (they may differ)
            lines.append(f"{k(st[2])}._write_scatter({st[3]!r}, ({val(st[1])}, {val(st[4])}))")
        else:
            lines.append(f"{k(st[2])}._write({st[3]!r}, {operand(st[1], st)})")
    if pending is not None:
        _stashed(lines, *pending)
    if len(graph.steps) - 1 in drop:
        lines.append("del " + ", ".join(f"v{i}" for i in sorted(drop[len(graph.steps) - 1])))
    lines.append(f"tally.flops += {k(graph.flops)}")
    for name, fl in zip(("backward", "update"), graph.sections):
        if fl:
            lines.append(f"tally.{name} += {k(fl)}")
    if graph.held_rise:
        lines.append("ctx_ = _cur.ctx")
        lines.append(f"if ctx_.held_bytes + {k(graph.held_rise)} > ctx_.held_peak:")
        lines.append(f"    ctx_.held_peak = ctx_.held_bytes + {k(graph.held_rise)}")
    numbers = has_numbers(graph.template)
    if numbers:
        lines.append("given_ = dev")
    lines.append("if dev is None:")
    lines.append("    dev = current_device()")
    out = _emit(graph, graph.template, k, val)
    if numbers:    # tf.function makes tensors of the Python numbers it returns (on the replay's device)
        out = f"_numbers_on({k(graph.outputs)}, {out}, given_)"
    lines.append(f"return {out}")
    names = ", ".join(f"k{i}" for i in range(len(bound))) or "_"
    params = "".join(f"v{i}, " for i in graph.args)
    # NumPy's floating-point warnings off for the whole replay (one errstate per call, not per op):
    # the eager ops do not show them either (runtime/ops/math.py); underflows noted, as eagerly
    # (subnormals.install), for the flushes `_flush` emits
    src = (f"def make({names}):\n    def run({params}dev=None):\n"
           "        with errstate(all='ignore', under='call', call=_on_underflow):\n"
           + "".join(f"            {ln}\n" for ln in lines) + "    return run\n")
    ns: dict[str, Any] = {"_stash": reevaluate.STASH, "np": np, "errstate": np.errstate, "tally": tally, "current_device": context.current_device, "_numbers_on": _numbers_on, "Tensor": Tensor,
                          "ndarray": np.ndarray, "asarray": np.asarray, "_cur": execution._current,
                          "_f": subnormals._fired, "_ftz": subnormals.replay_flushed, "_on_underflow": subnormals._on_error}
    exec(_code(src), ns)   # noqa: S102 - code generated above
    graph.source = src
    # (`make` out of its own globals: function -> globals -> function would be a reference cycle
    # per recorded graph, and tf.data functions record one per dataset built)
    return ns.pop("make")(*bound)

@functools.lru_cache(maxsize=256)
def _code(src: str) -> Any:
    """The compiled source of a replay. The text names its constants and ops only by position (k0, k1, ...), so
    the same step recorded again (a new model of the same layers, the same fit in another test) gives the same
    text: 1,146 compiles of 141 distinct texts in a run of the suite's kfit, train_grid, harden19 and blind4x
    modules, and compile() was 6.6 ms a call, 38 s of a profiled whole-suite run (2026-12-05)."""
    return compile(src, "<simdist recorded graph>", "exec")


def _flush(lines: list[str], n: Node, i: int) -> None:
    """The statements flushing node i's subnormal results as dispatch does eagerly (clause ops.subnormals:
    TF's kernels write a subnormal result as a zero of its sign): after an underflow was noted, or always
    for an op whose NumPy kernel notes none (Node.ftz, subnormals.replay_mode)."""
    if n.ftz is None:
        return
    if n.ftz == subnormals.ALWAYS:
        lines.append(f"v{i} = _ftz(v{i})")
    else:
        lines.append("if _f[0]:")
        lines.append(f"    v{i} = _ftz(v{i})")


def _stashed(lines: list[str], start: int, i: int) -> None:
    """A stateful op's statements (a random draw: lines[start:], making v{i}) made conditional: a replay
    evaluated again for a ClusterCoordinator closure takes the value its run drew (reevaluate.STASH),
    and a run that may be evaluated again keeps it; otherwise the op runs as it is."""
    body = lines[start:]
    del lines[start:]
    lines.append("if _stash[0] is None:")
    lines.extend("    " + ln for ln in body)
    lines.append("    if _stash[1] is not None:")
    lines.append(f"        _stash[1].append(v{i})")
    lines.append("else:")
    lines.append(f"    v{i} = next(_stash[0])")


def _emit(graph: Any, template: Any, k: Callable[[Any], str], val: Callable[[int], str]) -> str:
    kind = template[0]
    if kind == "t":
        i = template[1]
        arr = val(i) + (".copy()" if i in graph.folded else "")
        return f"Tensor({arr}, {k(template[2])}, {'dev' if template[3] is None else k(template[3])})"
    if kind in ("py", "obj"):
        return k(template[1])
    if kind is dict:
        return "{" + ", ".join(f"{k(key)}: {_emit(graph, v, k, val)}" for key, v in template[1]) + "}"
    items = [_emit(graph, v, k, val) for v in template[1]]
    if kind is list:
        return "[" + ", ".join(items) + "]"
    if kind is PerReplica or kind is Mirrored:
        return f"{k(kind)}((" + "".join(f"{x}, " for x in items) + "))"
    return "(" + "".join(f"{x}, " for x in items) + ")"
