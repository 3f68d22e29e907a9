"""Recorded graphs of tf.functions: run the Python once, replay its ops after.

TF traces a `tf.function` once into a graph and then runs the graph: the Python body (and its
side effects) runs at trace time only. simdist does the same for the functions a
ClusterCoordinator schedules without arguments (`record`) and for direct calls of a
tf.function, once per input signature (`record_call`: the tensor arguments become the graph's
parameters, see simdist/tf/_function.py): the first call runs eagerly while a `Recorder` notes
each op; later calls replay the recorded ops on NumPy arrays, without the facade's per-op
Python work. A replay computes exactly what the eager call would (the same NumPy calls
on the same inputs, the same variable reads and writes in the same order, the same FLOP tally),
so values, traffic and simulated time are bit-identical to running the Python again.

The recorder is an observer of the op dispatch (simdist.runtime.ops.dispatch): every op of the
registry is recorded with its attributes, as are variable reads and assigns of plain variables
(with tensors or Python values, which become constants as TF's tracing makes them) and the
constants the call makes. Stateful ops (random draws) are replayed anew every time, in order.
A function may return tensors, Python numbers (made tensors, as tf.function does) and None, in
lists, tuples and dicts. A call is *not* recordable, and the function keeps running eagerly
every time, when it:
- creates a tensor outside the op registry (a strategy's or a dataset's values: counted at
  `Tensor.__init__`);
- reads a recorded tensor's value other than as an op's input (`numpy()`, `bool()`, `float()`,
  printing, tf.debugging assertions, an op attribute such as one_hot's depth), unless that value
  is the same in every replay (a constant, or computed from constants and shapes only);
- creates a variable, touches a variable that is not a plain ResourceVariable, or returns
  anything else;
- runs alongside another thread that makes tensors (the tensor module counts the process's).
`explain(fn)` says which, for a tf.function that was not recorded.

Contexts entered inside the call (device scopes, strategy scopes, a ParameterServerStrategy's
`strategy.run` with its replica context and merge calls, `extended.update`) are resolved when it
records, as TF resolves them when it traces: the recorded ops are what ran in them. A returned
tensor keeps the device the eager call gave it when that is not the call's own device. The
simulator charges the call made while it recorded (a `strategy.run`'s phases) are kept with the
graph (`charges`, `run_flops`) for the coordinator to charge again on every replay; in a direct
call they are steps of the graph itself (`Recorder.charge`), made again at the same point of
every replay. A `strategy.run` inside is recorded replica by replica as it ran (the replicas'
greenlets switch at each collective), its all-reduce as one node whose result every replica
shares.

Graph optimisations, as TF's grappler does them, none of which changes a value: ops whose
inputs are all constants are folded (`tf.ones`), identical pure ops on the same inputs are
computed once, and pure ops whose results nobody uses are dropped; elementwise ops on uniform
values (`tf.ones(shape) + scalar`) replay on their one element where every consumer allows it,
as XLA sinks broadcasts (simdist.runtime.uniform). The FLOPs charged stay those of the eager
call (the cost model describes the simulated device, not this host).
"""

from __future__ import annotations

import operator
import os
import threading
from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import context, dtypes, execution, variables
from simdist.runtime.cost import tally
from simdist.runtime.tensor import Tensor, _Traced
from simdist.runtime.values import Mirrored, PerReplica

__all__ = ["Graph", "Recorder", "enabled", "explain", "record", "record_call", "signature"]

# SIMDIST_TRACE_FUNCTIONS=0 runs every tf.function call eagerly, scheduled or direct (a switch for comparisons).
enabled = os.environ.get("SIMDIST_TRACE_FUNCTIONS", "1") != "0"

_CONST, _PURE, _READ, _WRITE, _ARG, _CHARGE = 0, 1, 2, 3, 4, 5
# Ops whose value depends on their input's shape only (fixed for a recording: replays have the
# same shapes), so they are static even when their input is not.
_SHAPE_OPS = frozenset({"Shape", "Size", "Rank"})

class _Node:
    __slots__ = ("kind", "impl", "ins", "dtype", "value", "key", "var", "write_kind", "inline", "stateful", "lane",
                 "op", "attrs", "reduce")

    def __init__(self, kind: int, impl: Any = None, ins: tuple[int, ...] = (), dtype: Any = None,
                 value: Any = None, key: Any = None, var: Any = None, write_kind: str = "",
                 stateful: bool = False) -> None:
        self.kind = kind
        self.stateful = stateful
        self.impl = impl
        self.ins = ins
        self.dtype = dtype
        self.value = value
        self.key = key
        self.var = var
        self.write_kind = write_kind
        self.inline: Any = None      # (format, *constants): the op as one expression, for the replay code
        self.lane: int | None = None # the replica whose ops it is part of (see Recorder.lane)
        self.op: Any = None          # the OpDef and attributes of an op node (for simdist.runtime.lanes)
        self.attrs: dict | None = None
        self.reduce: str | None = None   # a cross-replica reduction node: "SUM" or "MEAN" (see computed)


class Untraceable:
    """Why a function is run eagerly every time (see `explain`)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


class Recorder(execution.Interpreter):
    """Notes the ops of one eager call (the first interpreter of its execution context while it
    runs: execution.begin_recording)."""

    def __init__(self) -> None:
        self.nodes: list[_Node] = []
        # per node: its value is the same in every replay (a constant, or computed from
        # constants and shapes only), so Python may read it (see is_constant)
        self.static: list[bool] = []
        self.slot_of: dict[int, int] = {}     # id(tensor) -> node index (tensors kept in `keep`)
        self.keep: list[Any] = []
        self.created = 0                      # Tensor.__init__ calls while recording
        self.expected = 0                     # ... of which the recorded ops account for
        self.reason: str | None = None
        self.live = True
        self.device = context.current_device()   # the call's device: its ops' results replay on theirs
        # Whether the simulator charges made in the call are replayed by the graph itself (a
        # tf.function called with arguments, see record_call), rather than kept by the
        # ClusterCoordinator for the closure (a scheduled function).
        self.charges_in_graph = False
        self.args: list[int] = []             # the nodes of the call's tensor arguments, in order
        # The replica whose ops are being recorded (set by a MirroredStrategy-style run as it hands
        # each replica its turn), and how many replicas the call's strategy.run has (-1: runs of
        # different sizes). Replicas' ops form lanes that simdist.runtime.lanes fuses.
        self.lane: int | None = None
        self.lanes = 0
        self.custom_seen = False     # a function with its own gradient ran (see custom)
        # A tensor made by another thread while it records abandons the recording (the tensor
        # module counts the process's tensors: see other_thread), as does a write or charge.
        self.thread = threading.get_ident()

    def invalidate(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason

    def other_thread(self) -> None:
        """Called where another thread may act during the recording (a tensor made, a variable
        written, a charge): the recording is abandoned if it is not the recording thread."""
        if threading.get_ident() != self.thread:
            self.invalidate("another thread ran ops while it recorded")

    # --- inputs -------------------------------------------------------------------------------
    def _add(self, node: _Node, out: Any = None) -> int:
        kind = node.kind
        static = self.static
        if kind != _CONST and kind != _ARG:
            node.lane = self.lane
        if kind == _CONST:
            static.append(True)
        elif kind == _PURE and not node.stateful:
            key = node.key
            static.append(all(static[j] for j in node.ins) or (key[0] == "op" and key[1] in _SHAPE_OPS))
        else:
            static.append(False)
        self.nodes.append(node)
        i = len(self.nodes) - 1
        if out is not None:
            self.slot_of[id(out)] = i
            self.keep.append(out)
        return i

    def ref(self, t: Tensor) -> int:
        """The node of a tensor: a recorded op's output, else a constant captured from outside."""
        i = self.slot_of.get(id(t))
        if i is None:
            i = self._add(_Node(_CONST, value=t._a if type(t) is _Traced else t._v, dtype=t.dtype,
                                 key="capture"), t)
        return i

    def _traced(self, t: Tensor, node: _Node) -> _Traced:
        out = _Traced(t._v, t.dtype, t._device)
        self.expected += 2    # t, and its traced twin
        node.value = t._v
        self._add(node, out)
        return out

    # --- hooks called by dispatch (simdist.runtime.ops.dispatch) ----------------------------------
    def op(self, opdef: Any, tensors: Any, outs: tuple, attrs: dict | None) -> tuple:
        """An op ran on tensors giving outs: note it; its outputs become traced tensors."""
        ins = tuple(self.ref(t) for t in tensors)
        multi = opdef.num_outputs != 1
        dt = tuple(o.dtype for o in outs) if multi else outs[0].dtype
        try:
            key = ("op", opdef.name, _freeze(attrs), dt)
            hash(key)
        except TypeError:
            key = ("unique", len(self.nodes))
        node = _Node(_PURE, _op_impl(opdef, attrs, None if multi else outs[0], tensors), ins, dt, key=key,
                     stateful=opdef.stateful)
        node.op = opdef
        node.attrs = attrs
        if not multi:
            return (self._traced(outs[0], node),)
        node.value = tuple(o._v for o in outs)
        i = self._add(node)
        return tuple(self._traced(o, _Node(_PURE, operator.itemgetter(j), (i,), o.dtype, key=("item", j)))
                     for j, o in enumerate(outs))

    def constant(self, t: Tensor) -> Tensor:
        return self._traced(t, _Node(_CONST, dtype=t.dtype))

    def is_constant(self, t: Tensor) -> bool:
        """Whether t's value is the same in every replay of this recording: made outside the
        call, a constant, or computed from those and from shapes only. Python code may read the
        value of such a tensor (an attribute such as one_hot's depth); reading any other means
        the call depends on values a replay would not see again."""
        i = self.slot_of.get(id(t))
        return i is None or self.static[i]

    def read_value(self, t: Tensor, where: str) -> None:
        """Python reads t's value (`where`): the recording is abandoned unless it is constant."""
        if self.live and not self.is_constant(t):
            self.invalidate(f"it reads a tensor's value in {where}")

    def arg(self, t: Tensor) -> _Traced:
        """A tensor argument of the call: a placeholder the replay binds to each call's value.
        The function sees a traced twin, so a read of its value in Python is noticed."""
        arr = t._a if type(t) is _Traced else t._v
        twin = _Traced(arr, t.dtype, t._device)
        self.expected += 1
        i = self._add(_Node(_ARG, value=arr, dtype=t.dtype), twin)
        self.args.append(i)
        return twin

    def computed(self, fn: Callable[..., np.ndarray], tensors: Any, out: Tensor, reduce: str | None = None) -> _Traced:
        """out = fn(*arrays of tensors), computed outside the op registry (a collective's
        reduction): a node replaying fn, never merged with another. `reduce` ("SUM" or "MEAN"):
        fn is that cross-replica reduction of one tensor per replica, in replica order."""
        ins = tuple(self.ref(t) for t in tensors)
        node = _Node(_PURE, fn, ins, out.dtype, key=("unique", len(self.nodes)))
        node.reduce = reduce
        return self._traced(out, node)

    def alias(self, src: Tensor, device: str) -> _Traced:
        """src's value as a tensor on another device (a collective's result handed to each
        replica: the same array): the same node."""
        i = self.ref(src)
        out = _Traced(src._a if type(src) is _Traced else src._v, src.dtype, device)
        self.expected += 1
        self.slot_of[id(out)] = i
        self.keep.append(out)
        return out

    def charge(self, fn: Callable[[], Any], refusal: str | None = None) -> None:
        """A simulator charge the call made (a strategy.run's time): `fn()` makes it again at
        the same point of every replay, when the graph replays its charges (a direct call; a
        scheduled function's are kept by the coordinator). `refusal`: why this charge cannot
        be replayed (the call then stays eager)."""
        if not self.charges_in_graph:
            return
        if refusal is not None:
            self.invalidate(refusal)
            return
        self.other_thread()
        self._add(_Node(_CHARGE, impl=fn))

    def custom(self, op_type: str, inputs: Any, outputs: Any, backward: Any) -> None:
        """A function with its own gradient ran (its ops are recorded): a replay under a tape
        must run the Python again to give the tape its backward (runtime/interpret.py)."""
        self.custom_seen = True

    def gathered(self, var: Any, indices: Tensor, t: Tensor) -> Tensor:
        """Rows of a variable were read: row lookups are not recorded yet (their traffic depends
        on the ids), so the call stays eager."""
        self.invalidate(f"it reads rows of {getattr(var, 'name', 'a variable')} (row lookups are not recorded)")
        return t

    def read(self, var: Any, t: Tensor) -> Tensor:
        if type(var) is not variables.ResourceVariable:
            self.invalidate(f"a read of {type(var).__name__} {getattr(var, 'name', '?')} (only plain variables "
                            "are recorded)")
            return t
        return self._traced(t, _Node(_READ, dtype=t.dtype, var=var))

    def write(self, var: Any, kind: str, value: Any, arr: np.ndarray) -> None:
        self.other_thread()
        if type(var) is not variables.ResourceVariable:
            self.invalidate(f"{kind} of {type(var).__name__} {getattr(var, 'name', '?')} (only plain variables "
                            "are recorded)")
        elif hasattr(value, "_as_tensor"):
            # another variable: _coerce read it (the last node recorded), or it is not recordable
            last = self.nodes[-1] if self.nodes else None
            if last is None or last.kind != _READ or last.value is not arr:
                self.invalidate(f"{kind} of {type(value).__name__} to {var.name}: its read was not recorded")
                return
            self._add(_Node(_WRITE, ins=(len(self.nodes) - 1,), var=var, write_kind=kind))
        elif not isinstance(value, Tensor):
            # A Python value, as in v.assign_add(1.0) or v.assign([1, 2]): a constant, as TF's
            # tracing makes it, kept as a private read-only copy.
            const = np.array(arr, copy=True)
            const.flags.writeable = False
            i = self._add(_Node(_CONST, value=const, dtype=var.dtype, key="scalar"))
            self._add(_Node(_WRITE, ins=(i,), var=var, write_kind=kind))
        else:
            i = self.ref(value)
            if self.nodes[i].value is not arr and type(value) is _Traced:
                self.invalidate(f"{kind} to {var.name}: its value is not the tensor's")
            self._add(_Node(_WRITE, ins=(i,), var=var, write_kind=kind))

    def scatter(self, var: Any, kind: str, indices: Tensor, updates: Tensor, operand: tuple) -> None:
        """A sparse write (scatter_add & co.): a write node with two inputs, indices and updates."""
        self.other_thread()
        if type(var) is not variables.ResourceVariable:
            self.invalidate(f"{kind} of {type(var).__name__} {getattr(var, 'name', '?')} (only plain variables "
                            "are recorded)")
            return
        ins = []
        for t, arr in ((indices, operand[0]), (updates, operand[1])):
            i = self.ref(t)
            if self.nodes[i].value is not arr and type(t) is _Traced:
                self.invalidate(f"{kind} to {var.name}: its operand is not the tensor's")
            ins.append(i)
        self._add(_Node(_WRITE, ins=tuple(ins), var=var, write_kind=kind))

    # --- the graph ----------------------------------------------------------------------------
    def _template(self, out: Any) -> Any:
        if out is None or type(out) in (bool, int, float, str):
            return ("py", out)
        if isinstance(out, Tensor):
            i = self.slot_of.get(id(out))
            if i is None or self.nodes[i].key == "capture":
                return ("obj", out)    # made outside the call: eager returns that very object
            return ("t", i, None if out._device == self.device else out._device)
        if type(out) in (tuple, list):
            return (type(out), [self._template(v) for v in out])
        if type(out) in (PerReplica, Mirrored):
            return (type(out), [self._template(v) for v in out._values])
        if type(out) is dict:
            return (dict, [(k, self._template(v)) for k, v in out.items()])
        raise _NotRecordable(f"it returns a {type(out).__name__} (only tensors, None, and lists, tuples "
                             "and dicts of them are recorded)")

    def finish(self, result: Any, flops: float, outputs: Callable[[Any], Any], **graph_kw: Any) -> "Graph | Untraceable":
        """The graph of the recorded call, or why there is none."""
        if self.reason is None and self.created != self.expected:
            self.reason = (f"it creates {self.created - self.expected} tensor(s) outside the op registry "
                           "(e.g. strategy or dataset values; every tf op is recorded)")
        if self.reason is not None:
            return Untraceable(self.reason)
        try:
            template = self._template(result)
        except _NotRecordable as e:
            return Untraceable(str(e))
        fusion = None
        if self.lanes > 1:      # a strategy.run of several replicas: their lanes fused (runtime/lanes/)
            from simdist.runtime import lanes
            if lanes.enabled:
                fusion = lanes.fuse(self.nodes, template, self.args, self.lanes, _map_leaves)
        g = Graph(self.nodes, template, flops, outputs, self.args, **graph_kw)
        if type(fusion) is str:
            g.unfused = fusion
        elif fusion is not None:
            g.use_fused(Graph(fusion.nodes, fusion.template, flops, outputs, fusion.args, **graph_kw), fusion.guard)
        return g


class _NotRecordable(Exception):
    pass


def _same_dtype(fn: np.ufunc, dt: Any, nin: int) -> bool:
    """Whether the ufunc maps nin arrays of dtype dt to dt (so dispatch's cast is a no-op)."""
    if dt is dtypes.string:
        return False
    try:
        with np.errstate(all="ignore"):
            return fn(*[np.zeros(0, dt._np)] * nin).dtype == dt._np
    except TypeError:
        return False


def _freeze(attrs: dict | None) -> Any:
    """Attrs as a hashable key (sorted by name)."""
    if not attrs:
        return ()
    return tuple(sorted((k, tuple(v) if type(v) is list else v) for k, v in attrs.items()))


def _op_impl(opdef: Any, attrs: dict | None, out: Any, tensors: Any) -> Callable[..., Any]:
    """What dispatch.run computes for this op, on arrays: the forward, then the result made an
    array of the output dtype. A NumPy ufunc or matmul whose result already is such an array
    (known from the recorded call: shapes and dtypes do not change between replays) is used
    as it is, without a Python wrapper."""
    fwd = opdef.forward
    if out is not None and not attrs and out.ndim and all(t.dtype is out.dtype for t in tensors):
        if opdef.name == "MatMul":
            return np.matmul
        if isinstance(fwd, np.ufunc) and _same_dtype(fwd, out.dtype, len(tensors)):
            return fwd
    if opdef.num_outputs != 1:
        return (lambda *a: fwd(*a, **attrs)) if attrs else fwd
    npd = out.dtype._np
    keep = out.dtype is dtypes.string
    kw = attrs or {}

    def run(*arrays: np.ndarray) -> np.ndarray:
        r = fwd(*arrays, **kw)
        if type(r) is not np.ndarray:
            r = np.asarray(r)
        if r.dtype is not npd and r.dtype != npd and not keep:
            r = r.astype(npd, copy=False)
        return r
    run.parts = (fwd, kw, npd, keep)   # type: ignore[attr-defined]  # (the replay code inlines run: see _compile)
    return run


class Graph:
    """A recorded call, optimised (folded, deduplicated, pruned) and ready to replay."""

    __slots__ = ("steps", "env0", "template", "flops", "folded", "run", "source", "outputs", "reads", "writes",
                 "write_bytes", "charges", "run_flops", "args", "sections", "held_rise", "fused",
                 "unfused", "uniform", "program")

    def __init__(self, nodes: list[_Node], template: Any, flops: float, outputs: Callable[[Any], Any],
                 args: list[int] | None = None, sections: tuple[float, float] = (0.0, 0.0),
                 held_rise: int = 0) -> None:
        self.flops = flops
        self.program: Any = None            # the call op by op, for replays under a tape (runtime/interpret.py)
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
        alias, const = merge_identical(nodes)
        template = _remap(template, alias)
        # Live nodes: reads and writes (their traffic is observable), what writes and outputs use.
        live = [n.kind in (_READ, _WRITE, _CHARGE) or n.stateful for n in nodes]
        for i in _slots(template):
            live[i] = True
        for i in range(len(nodes) - 1, -1, -1):
            if live[i] and alias[i] == i and not const[i]:
                for j in nodes[i].ins:
                    live[j] = True
        self.env0: list[Any] = [None] * len(nodes)
        self.folded: set[int] = set()
        steps: list[tuple] = []
        for i, n in enumerate(nodes):
            if not live[i] or alias[i] != i:
                continue
            if const[i]:
                v = n.value
                if n.kind != _CONST or n.key is None:    # computed in the call: a private read-only copy
                    v = np.array(v, copy=True)
                    v.flags.writeable = False
                    self.folded.add(i)
                self.env0[i] = v
            elif n.kind == _PURE:
                steps.append((_PURE, i, n.impl) + n.ins)
            elif n.kind == _READ:
                steps.append((_READ, i, n.var))
            elif n.kind == _CHARGE:
                steps.append((_CHARGE, i, n.impl))
            elif n.kind == _WRITE:
                steps.append((_WRITE, n.ins[0], n.var, n.write_kind) + n.ins[1:])
            # (an _ARG node is a parameter of the replay)
        self.steps = steps
        # The variables it reads and writes, each once, in order of first read / first write.
        self.reads = list({id(st[2]): st[2] for st in steps if st[0] == _READ}.values())
        self.writes = list({id(st[2]): st[2] for st in steps if st[0] == _WRITE}.values())
        self.write_bytes = self._write_bytes(nodes)
        self.template = _bind_dtypes(template, nodes)
        self.run = self._compile(nodes)

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

    def _write_bytes(self, nodes: list[_Node]) -> list[tuple[Any, int]]:
        """(variable, bytes sent to it) per variable written, as Transaction.written_bytes
        counts them: the whole variable, or only the rows of its scatter writes."""
        sizes: dict[int, int] = {}
        for st in self.steps:
            if st[0] != _WRITE:
                continue
            k = id(st[2])
            if sizes.get(k, 0) < 0:
                continue
            if st[3] in variables.SCATTER_KINDS:
                sizes[k] = sizes.get(k, 0) + variables.scatter_bytes((nodes[st[1]].value, nodes[st[4]].value))
            else:
                sizes[k] = -1
        return [(v, int(v.nbytes) if sizes[id(v)] < 0 else min(sizes[id(v)], int(v.nbytes))) for v in self.writes]

    def _compile(self, nodes: list[_Node]) -> Callable[[], Any]:
        """The replay as one generated Python function (as torch.fx emits code for its graphs):
        the same NumPy calls, variable reads and writes, and FLOP tally as the eager call, with
        no per-op dispatch. Constants, ops and variables are bound as closure variables."""
        bound: list[Any] = []

        def k(obj: Any) -> str:
            bound.append(obj)
            return f"k{len(bound) - 1}"

        def val(i: int) -> str:
            return k(self.env0[i]) if self.env0[i] is not None else f"v{i}"
        # Each value is dropped after its last use: a variable's buffer that no replayed value
        # holds any more is updated in place by its write (ResourceVariable._apply_op), as when
        # no tensor read from it is alive eagerly; the values are the same either way.
        kept = set(_slots(self.template)) | set(self.args)
        from simdist.runtime import uniform   # (it reads this module's node kinds)
        sink = self.uniform = uniform.plan(self.steps, nodes, self.env0, kept, _PURE, _WRITE) if uniform.enabled \
            else uniform.Sinking()

        def operand(j: int, st: tuple) -> str:
            """A write's operand: a uniform value as a stride-0 view of its element."""
            if j in sink.ops:
                return f"ndarray({k(sink.shapes[j][0])}, {k(sink.shapes[j][1])}, v{j}, 0, {k((0,) * len(sink.shapes[j][0]))})"
            if j in sink.scalars and uniform.takes(st, _WRITE):
                return k(sink.view(j, sink.scalars[j]))
            return val(j)
        last: dict[int, int] = {}
        for s, st in enumerate(self.steps):
            if st[0] in (_PURE, _READ):
                last.setdefault(st[1], s)
            used = st[3:] if st[0] == _PURE else (st[1],) + st[4:] if st[0] == _WRITE else ()
            for j in used:
                last[j] = s
        drop: dict[int, list[int]] = {}
        for i, s in last.items():
            if i not in kept and self.env0[i] is None:
                drop.setdefault(s, []).append(i)
        lines = []
        for s, st in enumerate(self.steps):
            if s > 0 and s - 1 in drop:
                lines.append("del " + ", ".join(f"v{i}" for i in sorted(drop[s - 1])))
            if st[0] == _PURE:
                n = nodes[st[1]]
                if st[1] in sink.ops:     # on the elements of uniform values (runtime/uniform.py)
                    args = [k(sink.scalars[j]) if j in sink.scalars else val(j) for j in st[3:]]
                    lines.append(f"v{st[1]} = {k(st[2])}({', '.join(args)})")
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
                    continue
                else:
                    expr = f"{k(st[2])}({', '.join(args)})"
                lines.append(f"v{st[1]} = {expr}")
            elif st[0] == _READ:
                lines.append(f"v{st[1]} = {k(st[2])}._read_array()")
            elif st[0] == _CHARGE:
                lines.append(f"{k(st[2])}()")
            elif st[3] == "share":   # a mirrored copy taking its twin's buffer (runtime/lanes/)
                lines.append(f"{k(st[2])}._share({val(st[1])})")
            elif len(st) > 4:    # a scatter: (indices, updates), checked as eagerly (they may differ)
                lines.append(f"{k(st[2])}._write_scatter({st[3]!r}, ({val(st[1])}, {val(st[4])}))")
            else:
                lines.append(f"{k(st[2])}._write({st[3]!r}, {operand(st[1], st)})")
        if len(self.steps) - 1 in drop:
            lines.append("del " + ", ".join(f"v{i}" for i in sorted(drop[len(self.steps) - 1])))
        lines.append(f"tally.flops += {k(self.flops)}")
        for name, fl in zip(("backward", "update"), self.sections):
            if fl:
                lines.append(f"tally.{name} += {k(fl)}")
        if self.held_rise:
            lines.append("ctx_ = _cur.ctx")
            lines.append(f"if ctx_.held_bytes + {k(self.held_rise)} > ctx_.held_peak:")
            lines.append(f"    ctx_.held_peak = ctx_.held_bytes + {k(self.held_rise)}")
        lines.append("if dev is None:")
        lines.append("    dev = current_device()")
        out = self._emit(self.template, k, val)
        if _has_numbers(self.template):    # tf.function makes tensors of the Python numbers it returns
            out = f"{k(self.outputs)}({out})"
        lines.append(f"return {out}")
        names = ", ".join(f"k{i}" for i in range(len(bound))) or "_"
        params = "".join(f"v{i}, " for i in self.args)
        src = f"def make({names}):\n    def run({params}dev=None):\n" + "".join(f"        {ln}\n" for ln in lines) + "    return run\n"
        ns: dict[str, Any] = {"np": np, "tally": tally, "current_device": context.current_device, "Tensor": Tensor,
                              "ndarray": np.ndarray, "asarray": np.asarray, "_cur": execution._current}
        exec(compile(src, "<simdist recorded graph>", "exec"), ns)   # noqa: S102 - code generated above
        self.source = src
        return ns["make"](*bound)

    def _emit(self, template: Any, k: Callable[[Any], str], val: Callable[[int], str]) -> str:
        kind = template[0]
        if kind == "t":
            i = template[1]
            arr = val(i) + (".copy()" if i in self.folded else "")
            return f"Tensor({arr}, {k(template[2])}, {'dev' if template[3] is None else k(template[3])})"
        if kind in ("py", "obj"):
            return k(template[1])
        if kind is dict:
            return "{" + ", ".join(f"{k(key)}: {self._emit(v, k, val)}" for key, v in template[1]) + "}"
        items = [self._emit(v, k, val) for v in template[1]]
        if kind is list:
            return "[" + ", ".join(items) + "]"
        if kind is PerReplica or kind is Mirrored:
            return f"{k(kind)}((" + "".join(f"{x}, " for x in items) + "))"
        return "(" + "".join(f"{x}, " for x in items) + ")"


def merge_identical(nodes: list[_Node]) -> tuple[list[int], list[bool]]:
    """Grappler's CSE and constant folding, over recorded nodes: (per node, the node whose value
    it is; per node, whether it is a constant or folded into one). Identical pure ops on the same
    values are computed once; ops whose inputs are all constants are folded (their eager value is
    the constant). The ops' and writes' inputs are rewritten to the nodes they alias."""
    alias = list(range(len(nodes)))
    const = [n.kind == _CONST for n in nodes]
    seen: dict[Any, int] = {}
    for i, n in enumerate(nodes):
        if n.kind != _PURE:
            continue
        n.ins = tuple(alias[j] for j in n.ins)
        if n.stateful:
            continue                     # (a random draw: computed anew by every replay)
        if all(const[j] for j in n.ins):
            const[i] = True              # folded: its eager value is the constant
            continue
        key = (n.key, n.ins)
        j = seen.get(key)
        if j is None:
            seen[key] = i
        else:
            alias[i] = j                 # computed once
    for n in nodes:
        if n.kind == _WRITE:
            n.ins = tuple(alias[j] for j in n.ins)
    return alias, const


def _leaves(template: Any) -> Any:
    """The leaves of a result template: ("t", node, ...), ("py", value), ("obj", tensor)."""
    kind = template[0]
    if kind in ("t", "py", "obj"):
        yield template
    else:
        for v in ([v for _, v in template[1]] if kind is dict else template[1]):
            yield from _leaves(v)


def _map_leaves(template: Any, f: Callable[[Any], Any]) -> Any:
    """The template with each leaf replaced by f(leaf)."""
    kind = template[0]
    if kind in ("t", "py", "obj"):
        return f(template)
    if kind is dict:
        return (dict, [(k, _map_leaves(v, f)) for k, v in template[1]])
    return (kind, [_map_leaves(v, f) for v in template[1]])


def _has_numbers(template: Any) -> bool:
    return any(leaf[0] == "py" and type(leaf[1]) in (bool, int, float) for leaf in _leaves(template))


def _remap(template: Any, alias: list[int]) -> Any:
    return _map_leaves(template, lambda leaf: ("t", alias[leaf[1]]) + leaf[2:] if leaf[0] == "t" else leaf)


def _slots(template: Any) -> list[int]:
    return [leaf[1] for leaf in _leaves(template) if leaf[0] == "t"]


def _bind_dtypes(template: Any, nodes: list[_Node]) -> Any:
    """Each "t" leaf with its dtype and fixed device: a read is a tensor on its variable's device,
    as _as_tensor makes it; an op's result made under another device scope than the call's stays
    there (None: made on the device the replay runs on, as the call's own ops are)."""
    def bind(leaf: Any) -> Any:
        if leaf[0] != "t":
            return leaf
        n = nodes[leaf[1]]
        return ("t", leaf[1], n.dtype, n.var._device if n.kind == _READ else leaf[2])
    return _map_leaves(template, bind)


def record(call: Callable[[], Any], outputs: Callable[[Any], Any]) -> tuple["Graph | Untraceable", Any]:
    """Run `call()` eagerly while recording its ops: (its graph or why not, its raw result). An
    exception from the call propagates (nothing is recorded). `outputs` is what the caller makes
    of a result with Python numbers in it (tf.function makes them tensors); replays apply it."""
    ctx = execution.current()
    if ctx.recorder is not None:       # a scheduled function calling another: the outer one records
        return Untraceable("it ran inside another recorded call"), call()
    rec = Recorder()
    t0 = tally.flops
    execution.begin_recording(ctx, rec)
    try:
        result = call()
    finally:
        execution.end_recording(ctx, rec)
        rec.live = False
    return rec.finish(result, tally.flops - t0, outputs), result


def explain(fn: Any) -> str:
    """Whether a tf.function's calls replay a recorded graph, and if not, why: its scheduled
    calls (ClusterCoordinator), else each input signature its direct calls recorded."""
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
    out = ""
    n, m = len(g.uniform.ops), len(g.uniform.operands)
    if n:
        out += f", {n} op{'s' if n > 1 else ''} on uniform values as scalars"
    if m:
        out += f", {m} reading a uniform operand as its element"
    return out + _fused_note_only(g)


def _fused_note_only(g: "Graph") -> str:
    if g.fused is not None:
        return f" ({len(g.fused.steps)} with its replicas fused)"
    return f" (its replicas one by one: {g.unfused})" if g.unfused else ""


# --- tf.function calls with arguments ------------------------------------------------------------------
_SCALARS = (type(None), bool, int, float, str)


def signature(args: tuple, kwargs: dict) -> tuple[Any, list[Tensor]] | None:
    """The input signature of a call, as TF 2.21's tracing keys it, and its tensor arguments in
    order: each tensor by dtype, shape (and device: where simdist's inputs are copied from),
    Python scalars by value (equal values share a trace: 1, 1.0 and True, as on TF), lists,
    tuples and PerReplica/Mirrored values by structure, dicts by their sorted keys. None when
    an argument is anything else (the call then runs eagerly)."""
    leaves: list[Tensor] = []

    def sig(x: Any) -> Any:
        t = type(x)
        if t is Tensor or t is _Traced:
            leaves.append(x)
            return (x.dtype, (x._a if t is _Traced else x._v).shape, x._device)
        if t in _SCALARS:
            return x
        if t is tuple or t is list:
            return (t, tuple(sig(v) for v in x))
        if t is dict:
            return (t, tuple((k, sig(x[k])) for k in sorted(x)))
        if t is PerReplica or t is Mirrored:
            return (t, tuple(sig(v) for v in x._values))
        raise _NotRecordable(t.__name__)

    try:
        key = (sig(args), sig(kwargs))
        hash(key)
    except (_NotRecordable, TypeError):
        return None
    return key, leaves


def _substitute(x: Any, twins: Iterator[Tensor]) -> Any:
    """x with its tensors replaced by `twins`, taken in the order `signature` lists them (each
    position its own placeholder, as TF's, even when the same tensor is passed twice)."""
    t = type(x)
    if t is Tensor or t is _Traced:
        return next(twins)
    if t is tuple or t is list:
        return t([_substitute(v, twins) for v in x])
    if t is dict:
        done = {k: _substitute(x[k], twins) for k in sorted(x)}
        return {k: done[k] for k in x}
    if t is PerReplica or t is Mirrored:
        return t(tuple(_substitute(v, twins) for v in x._values))
    return x


def record_call(fn: Callable[..., Any], args: tuple, kwargs: dict, leaves: list[Tensor],
                outputs: Callable[[Any], Any], twins: list | None = None) -> tuple["Graph | Untraceable", Any]:
    """Run `fn(*args, **kwargs)` eagerly while recording it, as TF traces a tf.function for an
    input signature: (its graph or why not, its raw result). The tensor arguments (`leaves`,
    from `signature`) become the graph's parameters, and the simulator charges the call makes
    (a strategy.run's time) become steps of the graph, so that `graph.run(*arrays)` does what
    calling fn again on tensors of the same signature would: the same values, variable writes,
    FLOP tally (sections included), tape peak and simulated time. Must be called with no
    recording, no gradient tape and no open cost section (see tf.function). `twins`, if given,
    receives the traced twins the function saw of `leaves`, in order."""
    rec = Recorder()
    rec.charges_in_graph = True
    t0 = tally.snapshot()
    ctx = execution.current()
    bytes0, peak0 = ctx.held_bytes, ctx.held_peak
    ctx.held_peak = bytes0
    execution.begin_recording(ctx, rec)
    try:
        made = [rec.arg(t) for t in leaves]
        if twins is not None:
            twins.extend(made)
        it = iter(made)
        result = fn(*_substitute(args, it), **_substitute(kwargs, it))
    finally:
        execution.end_recording(ctx, rec)
        rec.live = False
        rise = ctx.held_peak - bytes0
        ctx.held_peak = max(peak0, ctx.held_peak)
    if ctx.held_bytes != bytes0:
        rec.invalidate("gradient tapes it opened still keep tensors after it returned")
    g = rec.finish(result, tally.flops - t0[0], outputs, sections=(tally.backward - t0[1], tally.update - t0[2]),
                   held_rise=rise)
    if type(g) is Graph:
        from simdist.runtime import interpret
        g.program = interpret.build(rec, result)
    return g, result
