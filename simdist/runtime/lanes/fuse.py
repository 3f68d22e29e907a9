"""The fusion pass: a recorded call's replica lanes made one graph of stacked ops."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime.graph.ir import ARG, CHARGE, CONST, PURE, READ, WRITE, Node, map_leaves, slots
from simdist.runtime.lanes import forms, mirrors
from simdist.runtime.lanes.guard import Guard

__all__ = ["Fusion", "fuse"]


class Fusion:
    """The fused graph's nodes, template and argument nodes, and its guard."""

    __slots__ = ("nodes", "template", "args", "guard")

    def __init__(self, nodes: list[Node], template: Any, args: list[int], guard: Guard) -> None:
        self.nodes = nodes
        self.template = template
        self.args = args
        self.guard = guard


class _NoFusion(Exception):
    """Why the lanes cannot be fused (shown by graph.explain)."""


# An input of a lane position: ("lane", q) the value of the same lane at position q; ("node", i)
# one node of the call for every lane; ("args", (i0, i1, ...)) each lane's own argument.
_Src = tuple


def fuse(nodes: list[Node], template: Any, args: list[int], R: int) -> Fusion | str:
    """The recorded call's nodes with its R replica lanes fused, or why they cannot be."""
    try:
        return _Fuser(nodes, template, R).run(args)
    except _NoFusion as e:
        return str(e)


class _Fuser:
    """One recorded call's nodes (`nodes`, as the Recorder made them, each with its lane) fused.

    Positions: the p-th node of every lane; all lanes must have the same ops at each position.
    A position is "shared" (one value for every lane: computed once), "stacked" (the lanes'
    values stacked: one op on them), "split" (each lane its own node, as recorded) or "write"
    (each lane writes its own variable). The call's other nodes (constants, arguments, the
    collectives' reductions, the simulator charges) keep their place between the positions."""

    def __init__(self, nodes: list[Node], template: Any, R: int) -> None:
        if R < 2:
            raise _NoFusion("one replica")
        self.nodes, self.template, self.R = nodes, template, R
        self.idx: list[list[int]] = [[] for _ in range(R)]     # per lane: its nodes, in order
        for i, n in enumerate(nodes):
            if n.lane is not None:
                if not 0 <= n.lane < R:
                    raise _NoFusion("a node of replica lanes outside 0..R-1")
                self.idx[n.lane].append(i)
        self.L = len(self.idx[0])
        if self.L == 0 or any(len(x) != self.L for x in self.idx):
            raise _NoFusion("the replicas recorded different numbers of ops")
        self.pos = {i: (r, p) for r in range(R) for p, i in enumerate(self.idx[r])}
        self.slot = self.slots()
        self.srcs: list[list[_Src]] = []
        self.state: list[str] = []
        self.groups: dict[tuple[int, ...], int] = {}     # ids of copies read as one -> group number
        self.group_vars: list[tuple[Any, ...]] = []
        self.uses: dict[int, int] = {}
        for n in nodes:
            for j in n.ins:
                self.uses[j] = self.uses.get(j, 0) + 1
        for j in slots(template):
            self.uses[j] = self.uses.get(j, 0) + 1
        # the fused graph being built
        self.out: list[Node] = []
        self.new_of: dict[int, int] = {}            # a node outside the lanes -> its new node
        self.fused = [-1] * self.L                  # a shared or stacked position -> its node
        self.split: list[list[int]] = [[] for _ in range(self.L)]
        self.views: dict[tuple[int, int], int] = {}
        self.stacks: dict[tuple[int, ...], int] = {}

    def run(self, args: list[int]) -> Fusion:
        for p in range(self.L):
            self._classify(p)
        self._check_order()
        self._emit_all()
        template = map_leaves(self.template, lambda t: ("t", self._leaf(t[1])) + tuple(t[2:]) if t[0] == "t" else t)
        mirrors.alias_mirror_reads(self.out, template, self.groups, self.group_vars)
        keeps = mirrors.keeps(self.out, self.group_vars)
        mirrors.share_mirror_writes(self.out, self.group_vars)
        return Fusion(self.out, template, [self.new_of[a] for a in args], Guard(self.group_vars, keeps))

    # -- analysis --------------------------------------------------------------------------------
    def slots(self) -> dict[int, int]:
        """Where each node outside the lanes (a collective's reduction, a charge) falls between
        the lanes' positions; every lane must have made as many nodes by then (the collective
        points are the same)."""
        slot: dict[int, int] = {}
        counts = [0] * self.R
        for i, n in enumerate(self.nodes):
            if n.lane is None:
                if n.kind not in (CONST, ARG):
                    if any(c != counts[0] for c in counts):
                        raise _NoFusion("the replicas reach a collective at different points")
                    slot[i] = counts[0]
            else:
                counts[n.lane] += 1
        return slot

    def _lane_nodes(self, p: int) -> list[Node]:
        return [self.nodes[self.idx[r][p]] for r in range(self.R)]

    def _classify(self, p: int) -> None:
        """Position p's inputs and state (the positions before it are classified)."""
        ns = self._lane_nodes(p)
        n0, k = ns[0], ns[0].kind
        if any(n.kind != k for n in ns) or k in (ARG, CHARGE, CONST):
            raise _NoFusion("the replicas' ops differ in kind")
        if k == PURE:
            if n0.stateful or type(n0.key) is not tuple or n0.key[0] == "unique" or \
                    any(n.key != n0.key for n in ns) or any(forms.shapes(n.value) != forms.shapes(n0.value) for n in ns):
                raise _NoFusion("an op is stateful (random) or differs between replicas")
        elif k == READ:
            if any(n.dtype is not n0.dtype or np.shape(n.value) != np.shape(n0.value) for n in ns):
                raise _NoFusion("a variable read differs between replicas")
        elif any(n.write_kind != n0.write_kind or len(n.ins) != len(n0.ins) for n in ns):
            raise _NoFusion("a variable write differs between replicas")
        ins = [self._source([n.ins[j] for n in ns]) for j in range(len(n0.ins))]
        self.srcs.append(ins)
        if k == WRITE:
            self.state.append("write")
        elif k == READ:
            self.state.append(self._read_state(p, ns))
        else:
            kinds = [self._kind(x) for x in ins]
            if "split" in kinds:
                self.state.append("split")
            elif all(x == "shared" for x in kinds) or forms.form(n0) == "shape":
                self.state.append("shared")
            else:
                self.state.append("stacked")

    def _source(self, s: list[int]) -> _Src:
        """What the lanes' input nodes `s` (one per lane) are."""
        pos = self.pos
        if all(x in pos for x in s):
            q = pos[s[0]][1]
            if any(pos[x] != (r, q) for r, x in enumerate(s)):
                raise _NoFusion("an op of one replica uses another replica's value")
            return ("lane", q)
        if any(x in pos for x in s):
            raise _NoFusion("an op mixes values of replicas and of the call")
        if all(x == s[0] for x in s):
            return ("node", s[0])
        nodes = self.nodes
        if all(nodes[x].kind == ARG for x in s):
            return ("args", tuple(s))
        if all(nodes[x].kind == CONST and forms.same(nodes[x].value, nodes[s[0]].value) for x in s):
            return ("node", s[0])
        raise _NoFusion("an op uses different values of the call in each replica")

    def _kind(self, x: _Src) -> str:
        return self.state[x[1]] if x[0] == "lane" else "stacked" if x[0] == "args" else "shared"

    def _read_state(self, p: int, ns: list[Node]) -> str:
        """A read position is one shared read unless one of its variables is written between
        the first lane's read and the last's; distinct variables (mirrored copies) join the
        guard's groups."""
        vs = tuple(n.var for n in ns)
        lo, hi = self.idx[0][p], self.idx[self.R - 1][p]
        ids = {id(v) for v in vs}
        if any(n.kind == WRITE and id(n.var) in ids for n in self.nodes[lo + 1:hi]):
            return "split"
        # Distinct variables read as one must be equal here, and the guard only knows they are
        # when the replay starts: once the call wrote one of them (a metric's per-replica total
        # before a collective, read for its result after), each lane reads its own.
        if any(v is not vs[0] for v in vs) and \
                any(n.kind == WRITE and id(n.var) in ids for n in self.nodes[:lo]):
            return "split"
        if any(v is not vs[0] for v in vs):
            key = tuple(id(v) for v in vs)
            if key not in self.groups:
                self.groups[key] = len(self.group_vars)
                self.group_vars.append(vs)
        return "shared"

    def _order(self, i: int) -> tuple[int, int, int]:
        """Where node i runs in the fused graph: the call's nodes before the position they
        precede, in their order; a position's lanes together (lane by lane if split)."""
        if i in self.pos:
            r, p = self.pos[i]
            return (p, 1, 0 if self.state[p] in ("shared", "stacked") else r)
        return (self.slot.get(i, -1), 0, i)

    def _check_order(self) -> None:
        """Every variable's writes keep their order among its reads and writes."""
        accesses: dict[int, list[tuple[int, bool]]] = {}
        for i, n in enumerate(self.nodes):
            if n.kind in (READ, WRITE):
                accesses.setdefault(id(n.var), []).append((i, n.kind == WRITE))
        for acc in accesses.values():
            for a in range(len(acc)):
                for b in range(a + 1, len(acc)):
                    if (acc[a][1] or acc[b][1]) and not self._order(acc[a][0]) < self._order(acc[b][0]):
                        raise _NoFusion("fusing would reorder a variable's reads and writes")

    # -- the fused nodes -------------------------------------------------------------------------
    def _emit(self, node: Node) -> int:
        self.out.append(node)
        return len(self.out) - 1

    @staticmethod
    def _copy(n: Node, ins: tuple[int, ...]) -> Node:
        c = Node(n.kind, n.impl, ins, n.dtype, n.value, n.key, n.var, n.write_kind, n.stateful)
        c.op, c.attrs, c.reduce, c.ftz = n.op, n.attrs, n.reduce, n.ftz
        return c

    def _stack_of(self, s: tuple[int, ...]) -> int:
        """The lanes' arguments `s` stacked (one node, made where first needed)."""
        if s not in self.stacks:
            self.stacks[s] = self._emit(Node(PURE, forms.stack_args, tuple(self.new_of[x] for x in s),
                                              self.nodes[s[0]].dtype, key=("unique", len(self.out))))
        return self.stacks[s]

    def _view(self, p: int, r: int) -> int:
        """Lane r's value of stacked position p (a view)."""
        if (p, r) not in self.views:
            src = self.nodes[self.idx[r][p]]
            self.views[(p, r)] = self._emit(Node(PURE, lambda a, r=r: a[r, ...], (self.fused[p],), src.dtype,
                                                  src.value, key=("lane", r)))
        return self.views[(p, r)]

    def _own(self, q: int, r: int) -> int:
        """Lane r's own value of position q."""
        st = self.state[q]
        return self.fused[q] if st == "shared" else self._view(q, r) if st == "stacked" else self.split[q][r]

    def _per_lane(self, x: _Src, r: int) -> int:
        if x[0] == "node":
            return self.new_of[x[1]]
        if x[0] == "args":
            return self.new_of[x[1][r]]
        return self._own(x[1], r)

    def _as_one(self, x: _Src) -> int:
        """Input x of a shared or stacked position: its one node."""
        if x[0] == "node":
            return self.new_of[x[1]]
        if x[0] == "args":
            return self._stack_of(x[1])
        return self.fused[x[1]]

    def _lane_shape(self, x: _Src) -> Any:
        i = x[1] if x[0] == "node" else x[1][0] if x[0] == "args" else self.idx[0][x[1]]
        return forms.shapes(self.nodes[i].value)

    def _stacked(self, x: _Src) -> bool:
        return x[0] == "args" or (x[0] == "lane" and self.state[x[1]] == "stacked")

    def _recorded(self, x: _Src) -> Any:
        """Input x's recorded value as the fused op sees it (stacked when it is)."""
        nodes = self.nodes
        if x[0] == "node":
            return nodes[x[1]].value
        if x[0] == "args":
            return np.stack([nodes[a].value for a in x[1]])
        vals = [nodes[self.idx[r][x[1]]].value for r in range(self.R)]
        if self.state[x[1]] == "shared":
            return vals[0]
        if type(vals[0]) is tuple:
            return tuple(np.stack([v[j] for v in vals]) for j in range(len(vals[0])))
        return np.stack(vals)

    def _emit_all(self) -> None:
        """Constants and arguments first (their place does not matter), then the positions and
        the call's other nodes in their order."""
        for i, n in enumerate(self.nodes):
            if n.lane is None and n.kind in (CONST, ARG):
                self.new_of[i] = self._emit(self._copy(n, n.ins))
        outside: dict[int, list[int]] = {}
        for i, s in self.slot.items():
            outside.setdefault(s, []).append(i)
        for p in range(self.L + 1):
            for i in sorted(outside.get(p, ())):
                self._emit_outside(i)
            if p < self.L:
                self._emit_position(p)

    def _emit_position(self, p: int) -> None:
        ns = self._lane_nodes(p)
        n0, ins, st = ns[0], self.srcs[p], self.state[p]
        if st in ("write", "split"):
            self.split[p] = [self._emit(self._copy(ns[r], tuple(self._per_lane(x, r) for x in ins)))
                             for r in range(self.R)]
        elif st == "shared" and n0.kind == PURE and forms.form(n0) == "shape" and any(x[0] != "node" for x in ins):
            c = np.array(n0.value, copy=True)      # (a shape: the same for every lane and replay)
            c.flags.writeable = False
            self.fused[p] = self._emit(Node(CONST, value=c, dtype=n0.dtype, key=None))
        elif st == "shared":
            self.fused[p] = self._emit(self._copy(n0, tuple(self._as_one(x) for x in ins)))
        else:
            stacked = tuple(self._stacked(x) for x in ins)
            multi = type(n0.value) is tuple
            form = forms.stacked_form(n0, stacked, [self._lane_shape(x) for x in ins], forms.shapes(n0.value),
                                      self.R, multi)
            if form is not None and not forms.reproduces(form, [self._recorded(x) for x in ins], ns, multi):
                form = None
            if form is None:
                form = forms.lane_loop(n0.impl, stacked, self.R, multi)
            self.fused[p] = self._emit(Node(PURE, form, tuple(self._as_one(x) for x in ins), n0.dtype, None,
                                             key=("unique", len(self.out))))
            self.out[self.fused[p]].ftz = n0.ftz   # (the lanes' results flushed as each lane's)

    def _emit_outside(self, i: int) -> None:
        """A node of the call; a cross-replica SUM or MEAN of a stacked position reduces the stack
        (fused with the contraction that made it when it can)."""
        n = self.nodes[i]
        lanes = [self.pos.get(j) for j in n.ins]
        if n.kind == PURE and n.reduce in ("SUM", "MEAN") and lanes and all(lanes):
            q = lanes[0][1]
            if lanes == [(r, q) for r in range(self.R)] and self.state[q] == "stacked":
                done = self._fused_sum(i, q) if n.reduce == "SUM" else None
                if done is None:
                    done = self._emit(self._copy(n, (self.fused[q],)))
                    self.out[done].impl = (lambda f, R: lambda s: f(*[s[r, ...] for r in range(R)]))(n.impl, self.R)
                self.new_of[i] = done
                return
        ins = tuple(self._own(self.pos[j][1], self.pos[j][0]) if j in self.pos else self.new_of[j] for j in n.ins)
        self.new_of[i] = self._emit(self._copy(n, ins))

    def _fused_sum(self, i: int, q: int) -> int | None:
        """The cross-replica sum (node i) of position q as one contraction over every lane's
        rows, when q is (a reshape of) such a contraction used by nothing else."""
        nodes, idx, R = self.nodes, self.idx, self.R
        cur = q
        while True:
            if any(self.uses.get(idx[r][cur], 0) != 1 for r in range(R)):
                return None
            n0, src = nodes[idx[0][cur]], self.srcs[cur]
            if forms.form(n0) == "reshape" and src and src[0][0] == "lane" \
                    and self.state[src[0][1]] == "stacked":
                cur = src[0][1]
                continue
            break
        n0, ins = nodes[idx[0][cur]], self.srcs[cur]
        f = forms.contraction(n0, tuple(self._stacked(x) for x in ins), [self._lane_shape(x) for x in ins], R)
        if f is None:
            return None
        want = nodes[i].value
        shape, npd = np.shape(want), np.asarray(want).dtype

        def run(*a: np.ndarray, f: Callable[..., Any] = f) -> np.ndarray:
            r = np.reshape(f(*a), shape)
            return r if r.dtype == npd else r.astype(npd, copy=False)
        try:
            ok = forms.close(run(*[self._recorded(x) for x in ins]), want)
        except Exception:  # noqa: BLE001 - a form that does not apply is not used
            ok = False
        if not ok:
            return None
        return self._emit(Node(PURE, run, tuple(self._as_one(x) for x in ins), nodes[i].dtype, None,
                                key=("unique", len(self.out))))

    def _leaf(self, i: int) -> int:
        """A returned node's new node (each lane's own value)."""
        if i in self.pos:
            r, q = self.pos[i]
            return self._own(q, r)
        return self.new_of[i]
