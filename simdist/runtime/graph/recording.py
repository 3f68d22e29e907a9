"""Graph recording: a `Recorder` notes the ops of one eager call as it runs (an observer of the op
dispatch), and `record` / `record_call` run a call under one and return its Graph or why not."""

from __future__ import annotations

import contextlib
import operator
import threading
from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import context, dtypes, execution, variables
from simdist.runtime import subnormals as _subnormals
from simdist.runtime import symbolic as _symbolic
from simdist.runtime.cost import tally
from simdist.runtime.graph.ir import ARG, CHARGE, CONST, PURE, READ, WRITE, Node, NotRecordable, Untraceable
from simdist.runtime.graph.replay import Graph
from simdist.runtime.tensor import STATIC_UNKNOWN, Tensor, _Traced
from simdist.runtime.values import Mirrored, PerReplica

__all__ = ["Recorder", "record", "record_call", "signature"]


# Why a call whose values hold subnormal floats stays eager: dispatch applies TF's flush-to-zero and
# denormals-are-zero (runtime/subnormals.py, clause ops.subnormals); a replay flushes the subnormal
# results of its own arithmetic (Node.ftz), but does not read subnormal inputs as zeros.
_SUBNORMAL = "its values hold subnormal floats, which TF's kernels flush to zero: dispatch models it, a replay does not"


class Recorder(execution.Interpreter):
    """Notes the ops of one eager call (the first interpreter of its execution context while it
    runs: execution.begin_recording)."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        # per node: its value is the same in every replay (a constant, or computed from
        # constants and shapes only), so Python may read it (see is_constant)
        self.static: list[bool] = []
        # whether TF's constant folding makes the node a Const: static, and not from a tensor
        # captured from outside the call (a placeholder input of TF's graph)
        self.folds: list[bool] = []
        self.slot_of: dict[int, int] = {}     # id(tensor) -> node index (tensors kept in `keep`)
        self.tensor_at: dict[int, Any] = {}   # node index -> its tensor (the inverse of slot_of)
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
        # why a replay under a gradient tape cannot give the tapes an op it bound (OpDef.tape_replay:
        # a custom gradient's backward closes over the first call's tensors), else None
        self.untaped: str | None = None
        # A tensor made by another thread while it records abandons the recording (the tensor
        # module counts the process's tensors: see other_thread), as does a write or charge.
        self.thread = threading.get_ident()
        # the tensors of the branches of a tf.cond recorded inside this call (graph/branches.py),
        # by id (their recorders are kept): one used outside its branch cannot be recorded
        self.inner: dict[int, None] = {}
        # a tf.while_loop graph/branches.record_loop could not record: (its flat loop variables
        # where it stopped, the iterations done), for the loop to run on from there
        self.loop_state: Any = None
        self.graph_gradients = False   # the call's Python called tf.gradients (autodiff/graph_gradients.py)
        # whether Grappler's value-changing rewrites apply (a tf.function's graph; not a tf.data
        # function's, which TF instantiates without them: runtime/data/functions.py)
        self.rewrites = True
        # the bound ops (OpDef.bound: a custom gradient, a collective), each with the number of nodes
        # recorded before it: tf.gradients differentiates them as a tape would
        self.bound_ops: list[tuple] = []
        # Grappler's consumer-dependent rewrites on the finished recording (graph/rewrite.py): the journal of the
        # call's variable writes (record_call's; None: the rewrites do not apply), whether it records under outer
        # gradient tapes, the nodes the rewrites made, the tf.cond / tf.while_loop nodes whose graphs they
        # rewrote, and those nodes whose graphs write variables (for reevaluate.again)
        self.journal: dict | None = None
        self.outer_tapes = False
        self.rewrote: list[int] = []
        self.dirty: list[int] = []
        self.branch_writes: set[int] = set()
        self.branch_vars: dict[int, Any] = {}   # the variables those nodes' graphs write, by id
        self.again: list[Any] = []   # [the call's result as the optimized graph computes it], once evaluated
        # Subnormal values (clause ops.subnormals): whether this recording is kept when the call's values hold them
        # (a tf.function's call, record_call's keep_subnormal: its graph is then replayed op by op through dispatch,
        # runtime/interpret.py, for a call whose values hold them, as TF runs the graph it traced once), and whether
        # its own constants or captured tensors hold them (every replay then goes op by op: Graph.daz)
        self.keeps_subnormal = False
        self.subnormal_consts = False

    def invalidate(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason

    def subnormal(self, const: bool) -> None:
        """A value of the call holds subnormal floats (`const`: a constant of the graph, the same in every replay):
        a kept recording notes it, another is abandoned (a compiled replay does not read them as zeros)."""
        if self.keeps_subnormal and getattr(self, "parent", None) is None:
            self.subnormal_consts = self.subnormal_consts or const
        else:
            self.invalidate(_SUBNORMAL)

    def other_thread(self) -> None:
        """Called where another thread may act during the recording (a tensor made, a variable
        written, a charge): the recording is abandoned if it is not the recording thread."""
        if threading.get_ident() != self.thread:
            self.invalidate("another thread ran ops while it recorded")

    # --- inputs -------------------------------------------------------------------------------
    def _add(self, node: Node, out: Any = None) -> int:
        kind = node.kind
        static = self.static
        if kind != CONST and kind != ARG:
            node.lane = self.lane
        folds = self.folds
        if kind == CONST:
            static.append(True)
            folds.append(node.key != "capture")
        elif kind == PURE and not node.stateful:
            key = node.key
            # (an op of kind shape-query depends on its input's shape only, fixed for a recording,
            # unless an op whose output's shape follows from input values made the input: the
            # graph does not know those dimensions (static_shapes marks them), so their shape is
            # computed again on each run)
            shape_query = key[0] == "op" and node.op.kind == "shape-query" and \
                not any(self._value_shaped(j) for j in node.ins)
            static.append(all(static[j] for j in node.ins) or shape_query)
            folds.append(all(folds[j] for j in node.ins) or shape_query)
        else:
            static.append(False)
            folds.append(False)
        self.nodes.append(node)
        i = len(self.nodes) - 1
        if out is not None:
            self.slot_of[id(out)] = i
            self.keep.append(out)
            self.tensor_at[i] = out
        return i

    def _value_shaped(self, i: int) -> bool:
        """Whether node i's output has dimensions the graph does not know (a decoded image's
        height and width, unique's length: static_shapes.mark), or its rank (an input_signature's
        TensorSpec(None), whose concrete value may be a scalar with no dimension to mark: fix67t)."""
        t = self.tensor_at.get(i)
        entry = STATIC_UNKNOWN.get(id(t)) if t is not None else None
        return entry is not None and entry[0]() is t and (any(entry[1]) or entry[2])

    # --- what Grappler's rewrites ask (simdist.runtime.ops.grappler) ----------------------------
    def producer(self, t: Tensor) -> Node | None:
        """The recorded op node whose output t is (None: a constant, a read, an argument)."""
        i = self.slot_of.get(id(t))
        if i is None:
            return None
        n = self.nodes[i]
        return n if n.kind == PURE and n.op is not None else None

    def consumers(self, t: Tensor) -> int:
        """How many recorded nodes so far take t as an input, or the output of an identical op
        on the same inputs (which TF's common-subexpression elimination merges with it first)."""
        i = self.slot_of.get(id(t))
        if i is None:
            return 0
        n0 = self.nodes[i]
        same = {j for j, n in enumerate(self.nodes) if j == i or (n.kind == PURE and not n.stateful and
                                                                   n.key == n0.key and n.ins == n0.ins)}
        return sum(1 for n in self.nodes if any(j in same for j in n.ins))

    def same_node(self, a: Tensor, b: Tensor) -> bool:
        """Whether a and b are one node of the graph Grappler optimizes: the same tensor, or outputs of
        identical stateless ops (one CSE key) on inputs that are themselves one node, constants of equal
        bits included (ArithmeticOptimizer's DedupComputations merges them before its other stages, so
        `ones * c + ones * c` is an aggregation of one input, as `c + c` is)."""
        if a is b:
            return True
        ia, ib = self.slot_of.get(id(a)), self.slot_of.get(id(b))
        return ia is not None and ib is not None and self._same_slot(ia, ib, 8)

    def pruned(self, i: int) -> int:
        """Node i past Identity and StopGradient nodes, which Grappler's model pruner removes first (IsTrivialOp:
        `tf.identity(x) + x` is AddV2(x, x) to the later optimizers; fz61, fz54b seed 61105 #7)."""
        while True:
            n = self.nodes[i]
            if n.kind != PURE or n.op is None or n.op.name not in ("Identity", "StopGradient") or len(n.ins) != 1:
                return i
            i = n.ins[0]

    def _same_slot(self, i: int, j: int, depth: int) -> bool:
        i, j = self.pruned(i), self.pruned(j)
        if i == j:
            return True
        n, m = self.nodes[i], self.nodes[j]
        if depth == 0 or n.kind != m.kind:
            return False
        if n.kind == CONST:
            if n.key == "capture" or m.key == "capture" or n.dtype != m.dtype:
                return False
            try:
                va, vb = np.asarray(n.value), np.asarray(m.value)
            except Exception:  # noqa: BLE001 - a value numpy cannot hold is no duplicate
                return False
            return va.shape == vb.shape and va.dtype == vb.dtype and va.tobytes() == vb.tobytes()
        if n.kind != PURE or n.stateful or m.stateful or n.key != m.key or n.key[0] == "unique" or \
                len(n.ins) != len(m.ins):
            return False
        return all(self._same_slot(x, y, depth - 1) for x, y in zip(n.ins, m.ins))

    def made_here(self, t: Tensor) -> bool:
        """Whether t is a tensor of this call's graph (an argument, a constant or an op's output made
        while it records), not one made outside and captured."""
        i = self.slot_of.get(id(t))
        return i is not None and self.nodes[i].key != "capture"

    def input_tensor(self, node: Node, k: int) -> Tensor:
        """The tensor of input k of a recorded node (its own traced tensor)."""
        return self.tensor_at[node.ins[k]]

    def ref(self, t: Tensor) -> int:
        """The node of a tensor: a recorded op's output, else a constant captured from outside."""
        i = self.slot_of.get(id(t))
        if i is None:
            if self.inner and id(t) in self.inner:
                self.invalidate("it uses a tensor made inside a tf.cond branch outside that branch")
            if t._sub and self.keeps_subnormal:
                self.subnormal(True)
            i = self._add(Node(CONST, value=t._a if type(t) is _Traced else t._v, dtype=t.dtype,
                                 key="capture"), t)
        return i

    def _traced(self, t: Tensor, node: Node) -> _Traced:
        arr = t._a if type(t) is _Traced else t._v   # (a tf.cond branch's output: graph/branches.py)
        out = _Traced(arr, t.dtype, t._device)
        out._sub = t._sub     # (it may hold subnormals, which the ops it feeds flush: ops.subnormals)
        self.expected += 2    # t, and its traced twin
        node.value = arr
        self._add(node, out)
        return out

    # --- hooks called by dispatch (simdist.runtime.ops.dispatch) ----------------------------------
    def op(self, opdef: Any, tensors: Any, outs: tuple, attrs: dict | None) -> tuple:
        """An op ran on tensors giving outs: note it; its outputs become traced tensors. An op
        bound to outputs computed elsewhere (OpDef.bound) adds no node: those computations were
        recorded where they ran (the merge's reductions, the function's ops)."""
        if opdef.bound:
            self._bound(opdef, attrs)
            self.bound_ops.append((len(self.nodes), opdef, tuple(tensors), outs, attrs))
            return outs
        ins = tuple(self.ref(t) for t in tensors)
        multi = opdef.num_outputs != 1
        dt = tuple(o.dtype for o in outs) if multi else outs[0].dtype
        try:
            key = ("op", opdef.name, _freeze(attrs), dt)
            hash(key)
        except TypeError:
            key = ("unique", len(self.nodes))
        impl = _op_impl(opdef, attrs, None if multi else outs[0], tensors)
        if context._xla_depth[0] > 0:   # (an op of an XLA-compiled call, or of its gradient: its replay keeps XLA's
            impl = _in_xla(impl)        # kernel rules, open52: a grouped Conv2DBackpropFilter replayed in a train step)
            key = ("xla", *key)
        node = Node(PURE, impl, ins, dt, key=key, stateful=opdef.stateful)
        node.op = opdef
        node.attrs = attrs
        node.ftz = _subnormals.replay_mode(opdef, [t._a if type(t) is _Traced else t._v for t in tensors],
                                           [o._v.dtype for o in outs], attrs)
        if opdef.subnormals is _subnormals.MAKES and any(o._sub for o in outs):
            self.subnormal(True)   # (made from normal values: a compiled replay's consumers would not read them as zeros)
        if not multi:
            return (self._traced(outs[0], node),)
        node.value = tuple(o._v for o in outs)
        i = self._add(node)
        return tuple(self._traced(o, Node(PURE, operator.itemgetter(j), (i,), o.dtype, key=("item", j)))
                     for j, o in enumerate(outs))

    def constant(self, t: Tensor) -> Tensor:
        if t._sub:
            self.subnormal(True)
        return self._traced(t, Node(CONST, dtype=t.dtype))

    def is_constant(self, t: Tensor) -> bool:
        """Whether t's value is the same in every replay of this recording: made outside the
        call, a constant, or computed from those and from shapes only. Python code may read the
        value of such a tensor (an attribute such as one_hot's depth); reading any other means
        the call depends on values a replay would not see again."""
        i = self.slot_of.get(id(t))
        return i is None or self.static[i]

    def is_capture(self, t: Tensor) -> bool:
        """Whether t comes from outside the call, or is computed from such a tensor (a captured
        tensor is a placeholder input of TF's graph, which Grappler's constant folding does not
        see as a Const node)."""
        i = self.slot_of.get(id(t))
        return i is None or not self.folds[i]

    def read_value(self, t: Tensor, where: str) -> None:
        """Python reads t's value (`where`): the recording is abandoned unless it is constant."""
        if self.live and not self.is_constant(t):
            self.invalidate(f"it reads a tensor's value in {where}")

    def arg(self, t: Tensor) -> _Traced:
        """A tensor argument of the call: a placeholder the replay binds to each call's value.
        The function sees a traced twin, so a read of its value in Python is noticed."""
        arr = t._a if type(t) is _Traced else t._v
        twin = _Traced(arr, t.dtype, t._device)
        from simdist.runtime.ops import static_shapes
        if static_shapes.UNKNOWN:    # (the dimensions an input_signature leaves unknown stay unknown to the Python)
            static_shapes.carry(t, twin)
        if t._sub:
            twin._sub = True
            self.subnormal(False)
        self.expected += 1
        i = self._add(Node(ARG, value=arr, dtype=t.dtype), twin)
        self.args.append(i)
        from simdist.runtime.ops import graph_constants
        graph_constants.vary(twin)   # (a placeholder: its value is unknown while the graph is built)
        return twin

    def computed(self, fn: Callable[..., np.ndarray], tensors: Any, out: Tensor, reduce: str | None = None,
                 folds: bool = True) -> _Traced:
        """out = fn(*arrays of tensors), computed outside the op registry (a collective's
        reduction): a node replaying fn, never merged with another. `reduce` ("SUM" or "MEAN"):
        fn is that cross-replica reduction of one tensor per replica, in replica order. `folds`
        False: a collective op's result, which Grappler's constant folding never folds (whatever
        its inputs), so the rules that look for a Const node do not see one."""
        ins = tuple(self.ref(t) for t in tensors)
        node = Node(PURE, fn, ins, out.dtype, key=("unique", len(self.nodes)))
        node.reduce = reduce
        traced = self._traced(out, node)
        if not folds:
            self.folds[-1] = False
        from simdist.runtime.ops import graph_constants
        return graph_constants.vary(traced)   # (a replica's value: not a constant of the graph)

    def alias(self, src: Tensor, device: str) -> _Traced:
        """src's value as a tensor on another device (a collective's result handed to each
        replica: the same array): the same node."""
        i = self.ref(src)
        out = _Traced(src._a if type(src) is _Traced else src._v, src.dtype, device)
        self.expected += 1
        self.slot_of[id(out)] = i
        self.keep.append(out)
        from simdist.runtime.ops import graph_constants
        return graph_constants.carry(src, out)   # (kfuzz54: varying as src is; unmarked, it read as a constant)

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
        self._add(Node(CHARGE, impl=fn))

    def _bound(self, opdef: Any, attrs: dict | None) -> None:
        """A bound op (a collective, a custom-gradient call): a replay op by op under a tape
        (runtime/interpret.py) could not give the tapes this op when its OpDef says why."""
        if opdef.tape_replay and self.untaped is None:
            name = (attrs or {}).get("name")
            self.untaped = f"it runs {opdef.name}{f' ({name})' if name else ''}, and {opdef.tape_replay}"

    def gathered(self, var: Any, indices: Tensor, t: Tensor) -> Tensor:
        """Rows of a variable were read: row lookups are not recorded yet (their traffic depends
        on the ids), so the call stays eager."""
        self.invalidate(f"it reads rows of {getattr(var, 'name', 'a variable')} (row lookups are not recorded)")
        return t

    def read(self, var: Any, t: Tensor) -> Tensor:
        if not _plain_variable(var):
            self.invalidate(f"a read of {type(var).__name__} {getattr(var, 'name', '?')} (only plain variables "
                            "are recorded)")
            return t
        out = self._traced(t, Node(READ, dtype=t.dtype, var=var))
        if t._sub:   # (its value holds subnormals: the call's ops flush them now, a compiled replay would not)
            out._sub = True
            self.subnormal(False)
        return out

    def write(self, var: Any, kind: str, value: Any, arr: np.ndarray) -> None:
        self.other_thread()
        if not _plain_variable(var):
            self.invalidate(f"{kind} of {type(var).__name__} {getattr(var, 'name', '?')} (only plain variables "
                            "are recorded)")
        elif hasattr(value, "_as_tensor"):
            # another variable: _coerce read it (the last node recorded), or it is not recordable
            last = self.nodes[-1] if self.nodes else None
            if last is None or last.kind != READ or last.value is not arr:
                self.invalidate(f"{kind} of {type(value).__name__} to {var.name}: its read was not recorded")
                return
            self._add(Node(WRITE, ins=(len(self.nodes) - 1,), var=var, write_kind=kind))
        elif not isinstance(value, Tensor):
            # A Python value, as in v.assign_add(1.0) or v.assign([1, 2]): a constant, as TF's
            # tracing makes it, kept as a private read-only copy.
            const = np.array(arr, copy=True)
            const.flags.writeable = False
            i = self._add(Node(CONST, value=const, dtype=var.dtype, key="scalar"))
            self._add(Node(WRITE, ins=(i,), var=var, write_kind=kind))
        else:
            i = self.ref(value)
            if self.nodes[i].value is not arr and type(value) is _Traced:
                self.invalidate(f"{kind} to {var.name}: its value is not the tensor's")
            self._add(Node(WRITE, ins=(i,), var=var, write_kind=kind))

    def scatter(self, var: Any, kind: str, indices: Tensor, updates: Tensor, operand: tuple) -> None:
        """A sparse write (scatter_add & co.): a write node with two inputs, indices and updates."""
        self.other_thread()
        if not _plain_variable(var):
            self.invalidate(f"{kind} of {type(var).__name__} {getattr(var, 'name', '?')} (only plain variables "
                            "are recorded)")
            return
        ins = []
        for t, arr in ((indices, operand[0]), (updates, operand[1])):
            i = self.ref(t)
            if self.nodes[i].value is not arr and type(t) is _Traced:
                self.invalidate(f"{kind} to {var.name}: its operand is not the tensor's")
            ins.append(i)
        self._add(Node(WRITE, ins=tuple(ins), var=var, write_kind=kind))

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
        raise NotRecordable(f"it returns a {type(out).__name__} (only tensors, None, and lists, tuples "
                             "and dicts of them are recorded)")

    def finish(self, result: Any, flops: float, outputs: Callable[[Any], Any], **graph_kw: Any) -> "Graph | Untraceable":
        """The graph of the recorded call, or why there is none."""
        if self.reason is None and self.created != self.expected:
            self.reason = (f"it creates {self.created - self.expected} tensor(s) outside the op registry "
                           "(e.g. strategy or dataset values; every tf op is recorded)")
        if self.reason is not None:
            if getattr(self, "parent", None) is None and self.reason.startswith(_COMPLETE):
                self._rewritten_once(result)
            return Untraceable(self.reason)
        try:
            template = self._template(result)
        except NotRecordable as e:
            return Untraceable(str(e))
        from simdist.runtime.graph import rewrite
        rewritable = rewrite.allowed(self)
        if rewritable:   # (Grappler's rewrites that count every consumer: graph/rewrite.py)
            template = rewrite.finished(self, template)
            if getattr(self, "parent", None) is None and (self.rewrote or self.dirty):
                from simdist.runtime.graph import reevaluate   # (the call's values: the optimized graph's)
                self.again = [reevaluate.again(self, result)]
        fusion = None
        if self.lanes > 1:      # a strategy.run of several replicas: their lanes fused (runtime/lanes/)
            from simdist.runtime import lanes
            if lanes.enabled:
                fusion = lanes.fuse(self.nodes, template, self.args, self.lanes)
        g = Graph(self.nodes, template, flops, outputs, self.args, **graph_kw)
        g.daz = self.subnormal_consts
        g.rewritable = rewritable
        if type(fusion) is str:
            g.unfused = fusion
        elif fusion is not None:
            g.use_fused(Graph(fusion.nodes, fusion.template, flops, outputs, fusion.args, **graph_kw), fusion.guard)
        return g


    def _rewritten_once(self, result: Any) -> None:
        """A call that creates variables runs eagerly (tf.function records it at its next call), but TF's first call
        runs its optimized graph: Grappler's finished-graph rewrites applied to its recording all the same, for this
        call's values only (`again`; Keras's first training step, which builds the optimizer's slots: kfuzz48's centered
        RMSprop `(lr * g) / sqrt(denominator)`). So too a call whose recording is complete but not kept (`_COMPLETE`:
        its values hold subnormals, its Python reads a value; it records again at each call), which the record-time
        rules rewrote before the consumer-reading ones moved to the finished graph (fz51)."""
        from simdist.runtime.graph import rewrite
        if not rewrite.allowed(self) or self.created != self.expected:
            return
        try:
            template = self._template(result)
        except NotRecordable:
            return
        rewrite.finished(self, template)
        if self.rewrote or self.dirty:
            from simdist.runtime.graph import reevaluate
            self.again = [reevaluate.again(self, result)]


_CREATES = "it creates a variable"
# Why a recording is not kept while it holds every op of the call as it ran (the first call's Python saw no value
# a rewrite changes: a read is of a value as written): Grappler's finished-graph rewrites still give the call its
# values (`Recorder._rewritten_once`), as TF's graph, which rewrites whatever the call holds, would
_COMPLETE = (_CREATES, _SUBNORMAL, "it reads a tensor's value", "it reads the clock",
             "gradient tapes it opened still keep tensors")


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


def _in_xla(impl: Callable[..., Any]) -> Callable[..., Any]:
    """`impl` run as an op of an XLA-compiled call (context.in_xla: the kernels' XLA rules, such as grouped
    convolution gradients on a CPU without oneDNN), as the recording ran it; opaque to the replay code."""
    def run(*arrays: np.ndarray) -> Any:
        with context.in_xla_call():
            return impl(*arrays)
    return run


def _op_impl(opdef: Any, attrs: dict | None, out: Any, tensors: Any) -> Callable[..., Any]:
    """What dispatch.run computes for this op, on arrays: the forward, then the result made an
    array of the output dtype. An op's bare NumPy function (OpDef.bare: matmul) or a ufunc
    forward whose result already is such an array (known from the recorded call: shapes and
    dtypes do not change between replays) is used as it is, without a Python wrapper."""
    fwd = opdef.forward
    if out is not None and not attrs and out.ndim and all(t.dtype is out.dtype for t in tensors):
        if opdef.bare is not None:
            return opdef.bare
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


# --- tf.function calls with arguments ------------------------------------------------------------------
_SCALARS = (type(None), bool, int, float, str)


def signature(args: tuple, kwargs: dict) -> tuple[Any, list[Tensor]] | None:
    """The input signature of a call, as TF 2.21's tracing keys it, and its tensor arguments in
    order: each tensor by dtype, shape (and device: where simdist's inputs are copied from),
    Python scalars by value (equal values share a trace: 1, 1.0 and True, as on TF), lists,
    tuples and PerReplica/Mirrored values by structure, dicts by their sorted keys, plain
    ResourceVariables by identity (each its own trace: TF shares one among variables of one
    spec, with the same values). None when an argument is anything else (the call then runs
    eagerly)."""
    leaves: list[Tensor] = []
    try:
        key = (_sig(args, leaves), _sig(kwargs, leaves))
        hash(key)
    except (NotRecordable, TypeError):
        return None
    return key, leaves


def loose_leaves(args: tuple, kwargs: dict) -> list[Tensor] | None:
    """The tensor arguments of a call `signature` refuses (a Python object among its arguments it does not key: an
    iterator, a dataset), in `signature`'s order, the objects passed over as they are; None when the tensors cannot be
    told apart (a distributed value the walk does not know). Such a call runs its Python on every call, under a
    recorder whose graph is not kept: TF traces it as any other, so Grappler's rewrites apply (clause
    function.object-arguments)."""
    leaves: list[Tensor] = []
    try:
        _sig(args, leaves, True)
        _sig(kwargs, leaves, True)
    except (NotRecordable, TypeError):   # (TypeError: dict keys `_substitute` cannot sort)
        return None
    return leaves


def _plain_variable(var: Any) -> bool:
    """A variable recorded as itself: a ResourceVariable, or a subclass that is one in all but name
    (ParameterServerStrategy's CachingVariable: `_recorded_as_variable`)."""
    t = type(var)
    return t is variables.ResourceVariable or getattr(t, "_recorded_as_variable", False)


def _sig(x: Any, leaves: list[Tensor], loose: bool = False) -> Any:
    """One argument's part of the signature (tensors appended to leaves). `loose` (`loose_leaves`): an object the
    signature does not key is passed over (its part a placeholder) instead of refused, a distributed value of another
    class than PerReplica and Mirrored still refused. A module function: a nested function calling itself is a
    reference cycle, garbage made on every call."""
    t = type(x)
    if t is Tensor or t is _Traced:
        leaves.append(x)
        return (x.dtype, (x._a if t is _Traced else x._v).shape, x._device)
    if t in _SCALARS:
        return x
    if t is tuple or t is list:
        return (t, tuple(_sig(v, leaves, loose) for v in x))
    if t is dict:
        return (t, tuple((k, _sig(x[k], leaves, loose)) for k in sorted(x)))
    if loose and t is not PerReplica and t is not Mirrored and isinstance(x, (PerReplica, Mirrored)):
        raise NotRecordable(t.__name__)
    if isinstance(x, Mirrored) and isinstance(x, variables.Variable):
        # a MirroredVariable argument: as a plain one (its reads are the captured variable's, which records); a
        # tf.gradients or tf.hessians of it inside the call needs the recording (open52, fz51b's left open)
        return ("var", id(x))
    if t is PerReplica or t is Mirrored:
        return (t, tuple(_sig(v, leaves, loose) for v in x._values))
    if t is variables.ResourceVariable or getattr(t, "_recorded_as_variable", False):
        # a plain variable argument: read inside the call (a READ node of that variable), as
        # TF captures its handle; keyed by the variable itself (which the graph keeps alive)
        return ("var", id(x))
    if getattr(t, "_simdist_traced_by_identity", False) or _program_object(t):
        # an instance of the program's own class: TF 2.21 keys it by identity (its TraceType a Weakref), so a call
        # with the same object runs the trace made for it, its Python not again (an attribute changed since is not
        # seen), another object traces anew (clause function.object-arguments)
        return ("obj", ObjectKey(x))
    if loose:
        return "passed over"
    raise NotRecordable(t.__name__)


class ObjectKey:
    """A signature's part for an object keyed by identity; it holds the object, so its id is not reused while a
    trace keyed by it lives (TF holds a weak reference: memory only)."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: object) -> bool:
        return type(other) is ObjectKey and other.obj is self.obj


def _program_object(t: type) -> bool:
    """Whether `t` is a plain class of the program's own (not simdist's, nor a subclass of one, nor a builtin's, a
    NumPy type, a function or a class): what TF keys by identity."""
    import types
    if t.__module__ in ("builtins", "numpy") or _library(t.__module__) or t.__module__.startswith(
            ("numpy.", "collections", "functools", "enum")):
        return False
    if issubclass(t, (type, types.FunctionType, types.MethodType, types.BuiltinFunctionType, types.ModuleType,
                      types.GeneratorType, BaseException)):
        return False
    if hasattr(t, "__attrs_attrs__") or hasattr(t, "__tf_tracing_type__") or hasattr(t, "__tf_tensor__"):
        return False   # (an attrs class is a nest structure; the others trace or convert as they say)
    for base in t.__mro__[1:-1]:
        if _library(base.__module__) or base.__module__ == "builtins":
            return False
    return True


def _library(module: str) -> bool:
    """Whether a class of `module` is simdist's own (the conformance suite's test modules are programs)."""
    return module.startswith("simdist") and not module.startswith("simdist.conformance.suite")


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
                outputs: Callable[[Any], Any], twins: list | None = None,
                rewrites: bool = True, keep_subnormal: bool = False) -> tuple["Graph | Untraceable", Any]:
    """Run `fn(*args, **kwargs)` eagerly while recording it, as TF traces a tf.function for an
    input signature: (its graph or why not, its raw result). The tensor arguments (`leaves`,
    from `signature`) become the graph's parameters, and the simulator charges the call makes
    (a strategy.run's time) become steps of the graph, so that `graph.run(*arrays)` does what
    calling fn again on tensors of the same signature would: the same values, variable writes,
    FLOP tally (sections included), tape peak and simulated time. Must be called with no
    recording, no gradient tape and no open cost section (see tf.function). `twins`, if given,
    receives the traced twins the function saw of `leaves`, in order. `rewrites`: whether
    Grappler's value-changing rewrites apply (False for a tf.data function). `keep_subnormal`: the graph is kept
    when the call's values hold subnormal floats (Graph.daz; a tf.function's caller replays such calls op by op through
    dispatch, Graph.program), else the call is Untraceable."""
    rec = Recorder()
    rec.keeps_subnormal = keep_subnormal
    rec.charges_in_graph = True
    rec.rewrites = rewrites
    t0 = tally.snapshot()
    ctx = execution.current()
    bytes0, peak0 = ctx.held_bytes, ctx.held_peak
    ctx.held_peak = bytes0
    # (Grappler's consumer-dependent rewrites act on the finished recording, graph/rewrite.py: not under outer
    # tapes, whose forward function returns the intermediates its backward reads, nor inside a transaction)
    rec.outer_tapes = ctx.aside is not None or ctx.through is not None
    rewriting = rewrites and not ctx.transactions
    execution.begin_recording(ctx, rec)
    try:
        with (variables.trace_writes() if rewriting else contextlib.nullcontext()) as journal:
            made = [rec.arg(t) for t in leaves]
            if _symbolic._MARKS:   # (the twins print as the arguments' placeholders: function.symbolic-tensors)
                for src, twin in zip(leaves, made):
                    _symbolic.inherit_name(src, twin)
            if twins is not None:
                twins.extend(made)
            it = iter(made)
            rec.journal = journal
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
    if type(g) is Untraceable and rec.graph_gradients:
        g.gradients = True
    if type(g) is Graph:   # (built on the call's own result, whose tensors are the recording's nodes)
        from simdist.runtime import interpret
        program = interpret.build(rec, result)
        if type(program) is str:
            g.untaped = program
            if program == rec.untaped:   # (a bound op's backward: no concern of a call no tape sees)
                plain = interpret.build(rec, result, taped=False)
                g.plain = None if type(plain) is str else plain
        else:
            g.program = g.plain = program
    if rec.again:   # (the first call's values: the optimized graph's, reevaluate.again)
        result = rec.again[0]
    return g, result
