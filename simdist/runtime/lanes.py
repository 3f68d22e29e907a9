"""Replica lanes of a recorded graph, fused into whole-batch ops.

A tf.function that calls MirroredStrategy.run records each replica's ops in turn: its *lane*
(Recorder.lane). The lanes are R copies of one computation, on R slices of the batch and R
mirrored copies of the variables. TF runs them as R kernels each. The replay built here runs
each op once for all lanes, on the lanes' values stacked along a new leading axis: the matmul of
the stacked activations by the (shared) weights is one whole-batch matmul. And the cross-replica
sum of a contraction over the batch rows (a weight gradient x^T·g, a bias gradient) is computed
as one contraction over all R·n rows, so the per-replica gradients are never materialised.

Values (docs/spec.md, clause function.trace-once): every op run stacked gives each lane exactly what the
lane's own op gives, bit for bit, checked against the recorded eager values when the graph is
built (an op whose stacked form does not reproduce them runs lane by lane instead). The fused
cross-replica sums add the same products in another order, so a summed gradient differs from the
sum of the per-replica gradients by float rounding (checked against the recorded sum: within
1e-4 relative to its largest element). Simulated time, FLOPs, traffic and the trace are the
recorded call's, as for every replay.

When: the lanes are isomorphic (the same ops, attributes, dtypes and shapes, and the same
collective points), no lane draws random numbers, fusing keeps every variable's reads and writes
in their order, and, each time it replays, the mirrored copies the lanes read as one are equal
(version counters; the arrays are compared when a copy was written elsewhere), no variable
observer or transaction is active (ParameterServer traffic) and no fault is attached. Otherwise
the graph replays lane by lane, exactly as recorded. SIMDIST_FUSE_REPLICAS=0 turns fusion off.
"""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from simdist.runtime import variables
from simdist.runtime.graph import _ARG, _CHARGE, _CONST, _PURE, _READ, _WRITE, _Node

__all__ = ["Fusion", "enabled", "fuse"]

enabled = os.environ.get("SIMDIST_FUSE_REPLICAS", "1") != "0"

# Ops whose forward is elementwise with NumPy broadcasting: run on the stacked arrays directly.
_ELEMENTWISE = frozenset({
    "AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "Pow", "FloorDiv", "FloorMod", "DivNoNan",
    "SquaredDifference", "Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual", "LogicalAnd",
    "LogicalOr", "LogicalNot", "SelectV2", "Neg", "Abs", "Sign", "Sqrt", "Exp", "Log", "Square", "Log1p",
    "Reciprocal", "Floor", "Ceil", "Round", "Rsqrt", "IsNan", "IsFinite", "IsInf", "Cast", "Relu", "Relu6",
    "Elu", "Selu", "LeakyRelu", "Sigmoid", "Tanh", "Softplus", "Softsign", "Erfc", "ReluGrad", "Relu6Grad",
    "EluGrad", "SeluGrad", "LeakyReluGrad", "SigmoidGrad", "TanhGrad", "SoftsignGrad", "OnesLike", "ZerosLike"})
# Ops over the last axis only (a lane of rank >= 1 keeps it last when stacked).
_LAST_AXIS = frozenset({"Softmax", "LogSoftmax"})
# Ops whose output rows are computed from the same rows of the `rows` inputs (the others shared):
# the lanes' rows concatenated are one whole batch.
_ROWWISE = {"SparseSoftmaxCrossEntropyWithLogits": (0, 1), "SoftmaxCrossEntropyWithLogits": (0, 1),
            "BiasAdd": (0,), "Conv2D": (0,), "DepthwiseConv2dNative": (0,), "MaxPool": (0,), "AvgPool": (0,),
            "MaxPoolGrad": (0, 1, 2)}
_REDUCTIONS = frozenset({"Sum", "Mean", "Max", "Min", "Prod", "Any", "All"})
_RESHAPES = frozenset({"Reshape", "ExpandDims", "Squeeze", "Identity", "StopGradient"})
_SHAPE_OPS = frozenset({"Shape", "Size", "Rank"})


class Fusion:
    """The fused graph's nodes, template and argument nodes, and its guard."""

    __slots__ = ("nodes", "template", "args", "guard")

    def __init__(self, nodes: list[_Node], template: Any, args: list[int], guard: "Guard") -> None:
        self.nodes = nodes
        self.template = template
        self.args = args
        self.guard = guard


class Guard:
    """Whether the fused replay may run now: the mirrored copies read as one are equal, and no
    observer, transaction or fault would see the reads the fusion leaves out."""

    __slots__ = ("groups", "keeps", "seen", "all_vars")

    def __init__(self, groups: list[tuple[Any, ...]], keeps: list[bool]) -> None:
        self.groups = groups
        self.keeps = keeps        # per group: the replay's writes keep the copies equal
        self.seen: list[Any] = [None] * len(groups)   # versions after the last fused replay
        self.all_vars = [v for g in groups for v in g]

    def ok(self) -> bool:
        if variables.observers or variables._txn:
            return False
        for v in self.all_vars:
            if v._fault is not None:
                return False
        for g, grp in enumerate(self.groups):
            if tuple([v._version for v in grp]) != self.seen[g]:
                a = grp[0]._value
                for v in grp[1:]:
                    b = v._value
                    if b is not a and not np.array_equal(a, b):
                        return False
        return True

    def done(self) -> None:
        """After a fused replay: the copies are known equal at these versions."""
        for g, grp in enumerate(self.groups):
            self.seen[g] = tuple([v._version for v in grp]) if self.keeps[g] else None


def _shapes(value: Any) -> Any:
    if type(value) is tuple:
        return tuple(np.shape(v) for v in value)
    return np.shape(value)


def _same(a: Any, b: Any) -> bool:
    """Bit-for-bit equal arrays (or tuples of them), NaNs included."""
    if type(a) is tuple:
        return type(b) is tuple and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return a.tobytes() == b.tobytes()


def _typed(fwd: Callable[..., Any], kw: dict, npd: Any) -> Callable[..., np.ndarray]:
    """fwd(*arrays, **kw) made an array of dtype npd, as the graph's op impls make it."""
    def run(*arrays: np.ndarray) -> np.ndarray:
        r = np.asarray(fwd(*arrays, **kw))
        return r if r.dtype == npd else r.astype(npd, copy=False)
    return run


def _lane_loop(impl: Callable[..., Any], stacked: tuple[bool, ...], R: int, multi: bool) -> Callable[..., Any]:
    """The op lane by lane (each lane's own computation, bit for bit), its results stacked."""
    def run(*arrays: np.ndarray) -> Any:
        outs = [impl(*[a[r, ...] if s else a for a, s in zip(arrays, stacked)]) for r in range(R)]
        if multi:
            return tuple(np.stack([o[j] for o in outs]) for j in range(len(outs[0])))
        return np.stack(outs)
    return run


def _stack_args(*arrays: np.ndarray) -> np.ndarray:
    """The lanes' arguments stacked. Consecutive equal blocks of one buffer (a batch split among
    the replicas, as a distributed dataset makes them) are viewed as one array, without a copy."""
    a0 = arrays[0]
    base = a0.base
    if type(base) is np.ndarray and a0.flags.c_contiguous and base.flags.c_contiguous and a0.size:
        p0 = a0.__array_interface__["data"][0]
        step = a0.nbytes
        for r in range(1, len(arrays)):
            a = arrays[r]
            if a.base is not base or a.shape != a0.shape or a.dtype != a0.dtype or not a.flags.c_contiguous \
                    or a.__array_interface__["data"][0] != p0 + r * step:
                break
        else:
            out = np.ndarray((len(arrays),) + a0.shape, a0.dtype, base, p0 - base.__array_interface__["data"][0])
            out.flags.writeable = False
            return out
    return np.stack(arrays)


def _stacked_rule(n: _Node, stacked: tuple[bool, ...], lane_shapes: list[Any], out_shape: Any, R: int,
                  multi: bool) -> Callable[..., Any] | None:
    """The op of lane node n run once on stacked inputs (`stacked[j]`: input j is stacked, of lane
    shape lane_shapes[j]; else shared), or None when simdist knows no such form for it."""
    name = n.key[1] if type(n.key) is tuple and n.key[0] == "op" else None
    impl = n.impl
    if type(n.key) is tuple and n.key[0] == "item":
        return impl
    if name is None:
        return None
    attrs = n.attrs or {}
    npd = None if multi else n.dtype._np
    if name in _ELEMENTWISE or (name == "AddN" and all(stacked) and len(set(lane_shapes)) == 1):
        rank = max(len(s) for s in lane_shapes)
        pads = [(R,) + (1,) * (rank - len(s)) + tuple(s) if st and len(s) < rank else None
                for s, st in zip(lane_shapes, stacked)]
        if not any(p is not None for p in pads):
            return impl
        return lambda *a: impl(*[x if p is None else x.reshape(p) for x, p in zip(a, pads)])
    if name in _LAST_AXIS and all(stacked) and len(lane_shapes[0]) >= 1:
        return impl
    if name in _RESHAPES and stacked[0]:
        shape = (R,) + tuple(out_shape)
        return lambda a, *rest: np.reshape(a, shape)
    if name == "Transpose" and stacked[0]:
        perm = (0,) + tuple(int(p) + 1 for p in attrs["perm"])
        return _typed(n.op.forward, {"perm": perm}, npd)
    if name in _REDUCTIONS and stacked[0] and len(lane_shapes[0]) >= 1:
        k = len(lane_shapes[0])
        axis = attrs.get("axis")
        if axis is None:
            ax: Any = tuple(range(1, k + 1))
        elif isinstance(axis, (tuple, list)):
            ax = tuple(int(a) % k + 1 for a in axis)
        else:
            ax = int(axis) % k + 1
        return _typed(n.op.forward, dict(attrs, axis=ax), npd)
    if name in ("ArgMax", "ArgMin") and stacked[0] and len(lane_shapes[0]) >= 1:
        return _typed(n.op.forward, dict(attrs, axis=int(attrs["axis"]) % len(lane_shapes[0]) + 1), npd)
    if name == "Conv2DBackpropInput" and stacked == (False, True):
        sizes = tuple(attrs["input_sizes"])
        flat = (R * lane_shapes[1][0],) + tuple(lane_shapes[1][1:])
        back = _typed(n.op.forward, dict(attrs, input_sizes=(R * sizes[0],) + sizes[1:]), npd)
        outs = (R,) + tuple(out_shape)
        return lambda f, dy: back(f, dy.reshape(flat)).reshape(outs)
    if name in ("MatMul", "BatchMatMulV2"):
        if stacked[0] and not stacked[1] and not attrs.get("transpose_a") and len(lane_shapes[0]) == 2:
            rows, k = lane_shapes[0]
            flat = (R * rows, k)
            outs = (R,) + tuple(out_shape)
            return lambda a, b: impl(a.reshape(flat), b).reshape(outs)
        if name == "MatMul":
            return impl        # stacked operands: NumPy's batched matmul, lane by lane
    rows_in = _ROWWISE.get(name)
    if rows_in is not None and all(stacked[j] == (j in rows_in) for j in range(len(stacked))):
        if any(len(lane_shapes[j]) < 1 for j in rows_in) or len({lane_shapes[j][0] for j in rows_in}) != 1:
            return None
        flats = [(R * lane_shapes[j][0],) + tuple(lane_shapes[j][1:]) if j in rows_in else None
                 for j in range(len(stacked))]
        if multi:
            outs_m = [(R,) + tuple(s) for s in out_shape]
            return lambda *a: tuple(o.reshape(s) for o, s in zip(
                impl(*[x if f is None else x.reshape(f) for x, f in zip(a, flats)]), outs_m))
        outs = (R,) + tuple(out_shape)
        return lambda *a: impl(*[x if f is None else x.reshape(f) for x, f in zip(a, flats)]).reshape(outs)
    return None


def _contraction(n: _Node, stacked: tuple[bool, ...], lane_shapes: list[Any], R: int) -> Callable[..., Any] | None:
    """For a lane op contracting over its batch rows (summed over the lanes next): the same op
    on all lanes' rows at once, which is that sum. None when n is not such an op."""
    if type(n.key) is not tuple or n.key[0] != "op":
        return None
    name, attrs, impl = n.key[1], n.attrs or {}, n.impl
    if name == "MatMul" and all(stacked) and attrs.get("transpose_a") and not attrs.get("transpose_b") \
            and len(lane_shapes[0]) == 2 and len(lane_shapes[1]) == 2:
        fa = (R * lane_shapes[0][0], lane_shapes[0][1])
        fb = (R * lane_shapes[1][0], lane_shapes[1][1])
        return lambda a, b: impl(a.reshape(fa), b.reshape(fb))
    if name == "Sum" and stacked == (True,) and len(lane_shapes[0]) >= 1 and \
            attrs.get("axis") in (0, (0,), -len(lane_shapes[0]), (-len(lane_shapes[0]),)):
        flat = (R * lane_shapes[0][0],) + tuple(lane_shapes[0][1:])
        return lambda a: impl(a.reshape(flat))
    if name == "Conv2DBackpropFilter" and stacked == (True, True):
        fx = (R * lane_shapes[0][0],) + tuple(lane_shapes[0][1:])
        fdy = (R * lane_shapes[1][0],) + tuple(lane_shapes[1][1:])
        return lambda x, dy: impl(x.reshape(fx), dy.reshape(fdy))
    if name == "BiasAddGrad" and stacked == (True,) and len(lane_shapes[0]) >= 2:
        flat = (R * lane_shapes[0][0],) + tuple(lane_shapes[0][1:])
        return lambda a: impl(a.reshape(flat))
    return None


def _close(fused: np.ndarray, want: np.ndarray) -> bool:
    """A fused cross-replica sum against the recorded one: equal up to float rounding."""
    fused, want = np.asarray(fused), np.asarray(want)
    if fused.shape != want.shape or fused.dtype != want.dtype:
        return False
    if want.dtype.kind != "f":
        return bool(np.array_equal(fused, want))
    scale = float(np.max(np.abs(want))) if want.size else 0.0
    return bool(np.all(np.abs(fused.astype(np.float64) - want) <= 1e-4 * scale + 1e-30))


def fuse(nodes: list[_Node], template: Any, args: list[int], R: int,
         map_template: Callable[[Any, Callable[[Any], Any]], Any]) -> Fusion | str:
    """The recorded call's nodes with its R replica lanes fused, or why they cannot be."""
    if R < 2:
        return 'one replica'
    idx: list[list[int]] = [[] for _ in range(R)]
    for i, n in enumerate(nodes):
        if n.lane is not None:
            if not 0 <= n.lane < R:
                return 'a node of replica lanes outside 0..R-1'
            idx[n.lane].append(i)
    L = len(idx[0])
    if L == 0 or any(len(x) != L for x in idx):
        return 'the replicas recorded different numbers of ops'
    pos: dict[int, tuple[int, int]] = {}
    for r in range(R):
        for p, i in enumerate(idx[r]):
            pos[i] = (r, p)
    # Nodes outside the lanes (a collective's reduction, the charges): where they fall between the
    # lanes' positions; every lane must have made as many nodes by then (the collective points).
    slot: dict[int, int] = {}
    counts = [0] * R
    for i, n in enumerate(nodes):
        if n.lane is None:
            if n.kind not in (_CONST, _ARG):
                if any(c != counts[0] for c in counts):
                    return 'the replicas reach a collective at different points'
                slot[i] = counts[0]
        else:
            counts[n.lane] += 1

    # -- each position: what its inputs are, and how it runs ----------------------------------
    srcs: list[list[tuple]] = []
    state: list[str] = []          # "shared" (one value for all lanes), "stacked", "split" (one per lane), "write"
    groups: dict[tuple[int, ...], int] = {}
    group_vars: list[tuple[Any, ...]] = []
    writes_at: dict[int, list[int]] = {}      # id(var) -> original indices of its writes
    for i, n in enumerate(nodes):
        if n.kind == _WRITE:
            writes_at.setdefault(id(n.var), []).append(i)
    for p in range(L):
        ns = [nodes[idx[r][p]] for r in range(R)]
        n0 = ns[0]
        k = n0.kind
        if any(n.kind != k for n in ns) or k in (_ARG, _CHARGE, _CONST):
            return "the replicas' ops differ in kind"
        if k == _PURE:
            if n0.stateful or type(n0.key) is not tuple or n0.key[0] == "unique" or \
                    any(n.key != n0.key for n in ns) or any(_shapes(n.value) != _shapes(n0.value) for n in ns):
                return 'an op is stateful (random) or differs between replicas'
        elif k == _READ:
            if any(n.dtype is not n0.dtype or np.shape(n.value) != np.shape(n0.value) for n in ns):
                return 'a variable read differs between replicas'
        elif any(n.write_kind != n0.write_kind or len(n.ins) != len(n0.ins) for n in ns):
            return 'a variable write differs between replicas'
        ins: list[tuple] = []
        for j in range(len(n0.ins)):
            s = [n.ins[j] for n in ns]
            if all(x in pos for x in s):
                q = pos[s[0]][1]
                if any(pos[x] != (r, q) for r, x in enumerate(s)):
                    return "an op of one replica uses another replica's value"
                ins.append(("lane", q))
            elif any(x in pos for x in s):
                return 'an op mixes values of replicas and of the call'
            elif all(x == s[0] for x in s):
                ins.append(("node", s[0]))
            elif all(nodes[x].kind == _ARG for x in s):
                ins.append(("args", tuple(s)))
            elif all(nodes[x].kind == _CONST and _same(nodes[x].value, nodes[s[0]].value) for x in s):
                ins.append(("node", s[0]))
            else:
                return 'an op uses different values of the call in each replica'
        srcs.append(ins)
        if k == _WRITE:
            state.append("write")
            continue
        if k == _READ:
            vs = tuple(n.var for n in ns)
            lo, hi = idx[0][p], idx[R - 1][p]
            if any(lo < w < hi for v in vs for w in writes_at.get(id(v), ())):
                state.append("split")
            else:
                state.append("shared")
                if any(v is not vs[0] for v in vs):
                    key = tuple(id(v) for v in vs)
                    if key not in groups:
                        groups[key] = len(group_vars)
                        group_vars.append(vs)
            continue
        kinds = [state[x[1]] if x[0] == "lane" else "stacked" if x[0] == "args" else "shared" for x in ins]
        if "split" in kinds:
            state.append("split")
        elif all(x == "shared" for x in kinds) or n0.key[1] in _SHAPE_OPS:
            state.append("shared")
        else:
            state.append("stacked")

    # -- every variable's reads and writes keep their order --------------------------------------
    def order(i: int) -> tuple[int, int, int]:
        """Where node i runs in the fused graph: the call's nodes before the lane position they
        precede, in their order; the lanes' nodes of a position together (lane by lane if split)."""
        if i in pos:
            r, p = pos[i]
            return (p, 1, 0 if state[p] in ("shared", "stacked") else r)
        return (slot.get(i, -1), 0, i)
    accesses: dict[int, list[tuple[int, bool]]] = {}
    for i, n in enumerate(nodes):
        if n.kind in (_READ, _WRITE):
            accesses.setdefault(id(n.var), []).append((i, n.kind == _WRITE))
    for acc in accesses.values():
        for a in range(len(acc)):
            for b in range(a + 1, len(acc)):
                if (acc[a][1] or acc[b][1]) and not order(acc[a][0]) < order(acc[b][0]):
                    return "fusing would reorder a variable's reads and writes"

    # -- the fused nodes -----------------------------------------------------------------------
    out: list[_Node] = []
    new_of: dict[int, int] = {}
    fused: list[int] = [-1] * L                 # shared or stacked positions: their node
    split: list[list[int]] = [[] for _ in range(L)]
    views: dict[tuple[int, int], int] = {}
    stacks: dict[tuple[int, ...], int] = {}

    def emit(node: _Node) -> int:
        out.append(node)
        return len(out) - 1

    def copy(n: _Node, ins: tuple[int, ...]) -> _Node:
        c = _Node(n.kind, n.impl, ins, n.dtype, n.value, n.key, n.var, n.write_kind, n.stateful)
        c.op, c.attrs, c.reduce = n.op, n.attrs, n.reduce
        return c

    def stack_of(s: tuple[int, ...]) -> int:
        if s not in stacks:
            stacks[s] = emit(_Node(_PURE, _stack_args, tuple(new_of[x] for x in s), nodes[s[0]].dtype,
                                   key=("unique", len(out))))
        return stacks[s]

    def view(p: int, r: int) -> int:
        if (p, r) not in views:
            src = nodes[idx[r][p]]
            views[(p, r)] = emit(_Node(_PURE, lambda a, r=r: a[r, ...], (fused[p],), src.dtype, src.value,
                                       key=("lane", r)))
        return views[(p, r)]

    def per_lane(x: tuple, r: int) -> int:
        """Input x as lane r's own value."""
        if x[0] == "node":
            return new_of[x[1]]
        if x[0] == "args":
            return new_of[x[1][r]]
        q = x[1]
        return fused[q] if state[q] == "shared" else view(q, r) if state[q] == "stacked" else split[q][r]

    def as_one(x: tuple) -> int:
        """Input x of a shared or stacked position: its one node."""
        if x[0] == "node":
            return new_of[x[1]]
        if x[0] == "args":
            return stack_of(x[1])
        return fused[x[1]]

    def lane_shape(x: tuple) -> Any:
        if x[0] == "node":
            return _shapes(nodes[x[1]].value)
        if x[0] == "args":
            return _shapes(nodes[x[1][0]].value)
        return _shapes(nodes[idx[0][x[1]]].value)

    def recorded(x: tuple) -> Any:
        """Input x's recorded value as the fused op sees it (stacked when it is)."""
        if x[0] == "node":
            return nodes[x[1]].value
        if x[0] == "args":
            return np.stack([nodes[a].value for a in x[1]])
        q = x[1]
        vals = [nodes[idx[r][q]].value for r in range(R)]
        if state[q] == "shared":
            return vals[0]
        if type(vals[0]) is tuple:
            return tuple(np.stack([v[j] for v in vals]) for j in range(len(vals[0])))
        return np.stack(vals)

    uses: dict[int, int] = {}
    for n in nodes:
        for j in n.ins:
            uses[j] = uses.get(j, 0) + 1
    for leaf in _template_leaves(template):
        uses[leaf] = uses.get(leaf, 0) + 1

    def emit_lane_position(p: int) -> None:
        ns = [nodes[idx[r][p]] for r in range(R)]
        n0, ins, st = ns[0], srcs[p], state[p]
        if st == "write" or st == "split":
            split[p] = [emit(copy(ns[r], tuple(per_lane(x, r) for x in ins))) for r in range(R)]
            return
        if st == "shared":
            if n0.kind == _PURE and n0.key[1] in _SHAPE_OPS and any(x[0] != "node" for x in ins):
                c = np.array(n0.value, copy=True)
                c.flags.writeable = False
                fused[p] = emit(_Node(_CONST, value=c, dtype=n0.dtype, key=None))
            else:
                fused[p] = emit(copy(n0, tuple(as_one(x) for x in ins)))
            return
        stacked = tuple(x[0] == "args" or (x[0] == "lane" and state[x[1]] == "stacked") for x in ins)
        shapes = [lane_shape(x) for x in ins]
        multi = type(n0.value) is tuple
        rule = _stacked_rule(n0, stacked, shapes, _shapes(n0.value), R, multi)
        if rule is not None and not _checks(rule, [recorded(x) for x in ins], ns, multi):
            rule = None
        if rule is None:
            rule = _lane_loop(n0.impl, stacked, R, multi)
        node = _Node(_PURE, rule, tuple(as_one(x) for x in ins), n0.dtype, None, key=("unique", len(out)))
        fused[p] = emit(node)

    def emit_outside(i: int) -> None:
        n = nodes[i]
        lane_ins = [pos.get(j) for j in n.ins]
        if n.kind == _PURE and n.reduce == "SUM" and lane_ins and all(lane_ins):
            q = lane_ins[0][1]
            if [x for x in lane_ins] == [(r, q) for r in range(R)] and state[q] == "stacked":
                done = _fuse_sum(i, q)
                if done is not None:
                    new_of[i] = done
                    return
                new_of[i] = emit(copy(n, (fused[q],)))
                out[-1].impl = (lambda f: lambda s: f(*[s[r, ...] for r in range(R)]))(n.impl)
                return
        ins = []
        for j in n.ins:
            if j in pos:
                r, q = pos[j]
                ins.append(fused[q] if state[q] == "shared" else view(q, r) if state[q] == "stacked" else split[q][r])
            else:
                ins.append(new_of[j])
        new_of[i] = emit(copy(n, tuple(ins)))

    def _fuse_sum(i: int, q: int) -> int | None:
        """The cross-replica sum (node i) of lane position q, fused with q's contraction."""
        chain: list[int] = []
        cur = q
        while True:
            n0 = nodes[idx[0][cur]]
            if any(uses.get(idx[r][cur], 0) != 1 for r in range(R)):
                return None
            name = n0.key[1] if n0.key[0] == "op" else None
            if name in _RESHAPES and srcs[cur] and srcs[cur][0][0] == "lane" and state[srcs[cur][0][1]] == "stacked":
                chain.append(cur)
                cur = srcs[cur][0][1]
                continue
            break
        n0 = nodes[idx[0][cur]]
        ins = srcs[cur]
        stacked = tuple(x[0] == "args" or (x[0] == "lane" and state[x[1]] == "stacked") for x in ins)
        f = _contraction(n0, stacked, [lane_shape(x) for x in ins], R)
        if f is None:
            return None
        want = nodes[i].value
        shape, npd = np.shape(want), np.asarray(want).dtype

        def run(*a: np.ndarray, f: Callable[..., Any] = f) -> np.ndarray:
            r = np.reshape(f(*a), shape)
            return r if r.dtype == npd else r.astype(npd, copy=False)
        try:
            ok = _close(run(*[recorded(x) for x in ins]), want)
        except Exception:  # noqa: BLE001 - a form that does not apply is not used
            ok = False
        if not ok:
            return None
        return emit(_Node(_PURE, run, tuple(as_one(x) for x in ins), nodes[i].dtype, None, key=("unique", len(out))))

    # constants and arguments first (their place does not matter), then lanes and the rest in order
    for i, n in enumerate(nodes):
        if n.lane is None and n.kind in (_CONST, _ARG):
            new_of[i] = emit(copy(n, n.ins))
    outside_at: dict[int, list[int]] = {}
    for i, s in slot.items():
        outside_at.setdefault(s, []).append(i)
    for p in range(L + 1):
        for i in sorted(outside_at.get(p, ())):
            emit_outside(i)
        if p < L:
            emit_lane_position(p)

    def leaf(i: int) -> int:
        if i in pos:
            r, q = pos[i]
            return fused[q] if state[q] == "shared" else view(q, r) if state[q] == "stacked" else split[q][r]
        return new_of[i]
    new_template = map_template(template, lambda t: ("t", leaf(t[1])) + tuple(t[2:]) if t[0] == "t" else t)

    _alias_mirror_reads(out, new_template, groups, group_vars)
    keeps = _keeps(out, group_vars)
    _share_mirror_writes(out, group_vars)
    return Fusion(out, new_template, [new_of[a] for a in args], Guard(group_vars, keeps))


def _alias_mirror_reads(out: list[_Node], template: Any, groups: dict[tuple[int, ...], int],
                        group_vars: list[tuple[Any, ...]]) -> None:
    """Reads of a MirroredVariable's copies (the update of each copy in the merge reads its own
    copy of the learning rate) as one read: the first, made before any copy is written, stands
    for the later ones until a copy is written. The ops that used them then have the same
    inputs and are computed once (the graph's CSE). The copies join the guard's groups."""
    returned = set(_template_leaves(template))
    canon: dict[int, int] = {}          # id(mirror set) -> the read standing for its copies
    written: set[int] = set()
    redirect: dict[int, int] = {}
    for i, n in enumerate(out):
        if redirect and any(j in redirect for j in n.ins):
            n.ins = tuple(redirect.get(j, j) for j in n.ins)
        mirrors = getattr(n.var, "_mirrors", None) if n.kind in (_READ, _WRITE) else None
        if mirrors is None:
            continue
        key = id(mirrors)
        if n.kind == _WRITE:
            canon.pop(key, None)
            written.add(key)
        elif key in canon and i not in returned:
            # (no longer a read: an unused node the graph drops)
            out[i] = _Node(_PURE, _identity, (canon[key],), n.dtype, n.value, key=("mirror-read",))
            redirect[i] = canon[key]
        elif key not in written and key not in canon:
            canon[key] = i
            gkey = tuple(id(v) for v in mirrors)
            if gkey not in groups:
                groups[gkey] = len(group_vars)
                group_vars.append(mirrors)


def _identity(a: np.ndarray) -> np.ndarray:
    return a


def _value_numbers(out: list[_Node]) -> list[int]:
    """Per node, the first node computing the same value (pure ops of the same key on the same
    values), as the graph's CSE will merge them."""
    vn: list[int] = []
    table: dict[Any, int] = {}
    for i, n in enumerate(out):
        if n.kind == _PURE and not n.stateful and type(n.key) is tuple and n.key[0] != "unique":
            try:
                vn.append(table.setdefault((n.key, tuple(vn[j] for j in n.ins)), i))
            except TypeError:
                vn.append(i)
        else:
            vn.append(i)
    return vn


def _keeps(out: list[_Node], group_vars: list[tuple[Any, ...]]) -> list[bool]:
    """Per guard group: whether the replay's writes keep its copies equal (each copy receives
    the same writes of the same values, by value numbering of the fused nodes)."""
    vn = _value_numbers(out)
    writes: dict[int, list[Any]] = {}
    for n in out:
        if n.kind == _WRITE:
            writes.setdefault(id(n.var), []).append((n.write_kind, tuple(vn[j] for j in n.ins)))
    return [all(writes.get(id(v), []) == writes.get(id(vs[0]), []) for v in vs) for vs in group_vars]


def _checks(rule: Callable[..., Any], inputs: list[Any], ns: list[_Node], multi: bool) -> bool:
    """Whether the stacked form reproduces the recorded lanes' values bit for bit."""
    try:
        got = rule(*inputs)
    except Exception:  # noqa: BLE001 - a form that does not apply is not used
        return False
    if multi:
        want = tuple(np.stack([n.value[j] for n in ns]) for j in range(len(ns[0].value)))
    else:
        want = np.stack([n.value for n in ns])
    if multi and (type(got) is not tuple or len(got) != len(want)):
        return False
    return _same(tuple(got) if multi else got, want)


def _template_leaves(template: Any) -> list[int]:
    kind = template[0]
    if kind == "t":
        return [template[1]]
    if kind in ("py", "obj"):
        return []
    items = [v for _, v in template[1]] if kind is dict else template[1]
    return [i for v in items for i in _template_leaves(v)]


def _share_mirror_writes(out: list[_Node], group_vars: list[tuple[Any, ...]]) -> None:
    """A guard group's copies, equal when the replay starts, each written once with the same
    write of the same value and not read after it (an optimizer's update of a mirrored weight):
    the first copy is written, the others take its buffer (ResourceVariable._share) instead of
    computing the same bytes again."""
    vn = _value_numbers(out)
    for vs in group_vars:
        ids = [id(v) for v in vs]
        at: dict[int, list[int]] = {}
        for i, n in enumerate(out):
            if n.kind in (_READ, _WRITE) and id(n.var) in ids:
                at.setdefault(id(n.var), []).append(i)
        writes = [[i for i in at.get(k, []) if out[i].kind == _WRITE] for k in ids]
        if any(len(w) != 1 for w in writes):
            continue
        first = min(w[0] for w in writes)
        if any(out[i].kind == _READ and i > first for k in ids for i in at.get(k, [])):
            continue
        leader = out[writes[ids.index(id(out[first].var))][0]]
        sig = (leader.write_kind, tuple(vn[j] for j in leader.ins))
        if leader.write_kind in variables.SCATTER_KINDS or \
                any((out[w[0]].write_kind, tuple(vn[j] for j in out[w[0]].ins)) != sig for w in writes):
            continue
        twin = len(out)
        out.append(_Node(_CONST, value=leader.var, key="twin"))
        for w in writes:
            i = w[0]
            if i != first:
                out[i] = _Node(_WRITE, ins=(twin,), var=out[i].var, write_kind="share")

