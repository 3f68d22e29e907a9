"""A recorded tf.function call replayed op by op through dispatch, for the interpreters of the
context: the gradient tapes.

A tf.function called under a GradientTape is traced once per input signature, as TF traces
it: its Python runs once. TF then records the call on the tape as one op whose gradient is
the gradient of its graph. simdist's graph replay (runtime/graph/) computes on arrays, out of
the tapes' sight; under a tape it runs the recorded ops again through dispatch instead, in the
order the first call ran them, so each active tape records each op (and watches the variables
it reads) exactly as it would the eager call: values, gradients, FLOP tally and kept bytes are
those of running the Python again, only the Python does not run.

`build(recorder)` makes the program from a finished recording, or says why it cannot replay
this way (the call bound an op whose OpDef.tape_replay says why: a tf.custom_gradient call,
whose backward closes over the first call's tensors; or it runs strategy.run, whose replicas
run in their own contexts: the Python then runs again, runtime/function_tapes.py);
`run(program, tensors)` replays it on the call's tensor arguments.

`Deferred` is the other half: while a call records under tapes, the tapes are set aside (the
recording's kept-bytes accounting must be the call's own, as without a tape) and a Deferred
interpreter notes what they would have seen, to hand it to them when the call returns.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import execution
from simdist.runtime.ops import dispatch
from simdist.runtime.tensor import Tensor

__all__ = ["build", "run", "Deferred"]

_CONST, _OP, _ITEM, _READ, _WRITE, _SCATTER, _ARG, _FORM = range(8)


_RUNS = ("it runs strategy.run, whose replicas run in their own contexts (the Python runs again, the tapes seeing "
         "into its replicas: runtime/function_tapes.py), and whose time the run charges")


def build(rec: Any, result: Any, taped: bool = True) -> tuple | str:
    """The program of a finished recording `rec` (a graph.Recorder) whose call returned
    `result`, or why there is none (see the module). `taped` False: a program for calls no tape
    sees (a call whose values hold subnormals, Graph.plain), which a bound op's backward does not
    concern."""
    from simdist.runtime.graph import ir as g
    if rec.lanes:
        return _RUNS
    if taped and rec.untaped is not None:
        return rec.untaped
    if any(n.kind == g.CHARGE or (n.kind == g.PURE and n.op is None and n.key[0] != "item") for n in rec.nodes):
        return _RUNS
    kept: dict[int, Any] = {}
    for t in rec.keep:
        i = rec.slot_of.get(id(t))
        if i is not None and i not in kept:
            kept[i] = t
    prog: list[tuple] = []
    args = {n: k for k, n in enumerate(rec.args)}
    for i, n in enumerate(rec.nodes):
        t = kept.get(i)
        dev = None if t is None or t._device == rec.device else t._device
        if n.kind == g.ARG:
            prog.append((_ARG, i, args[i]))
        elif n.kind == g.CONST and n.key == "capture":
            prog.append((_CONST, i, t, None, None, None))   # (made outside the call: the same object, so tapes connect it)
        elif n.kind == g.CONST:
            # a constant of the call: a fresh tensor of (a private read-only copy of) its value
            # on every replay, as the eager call makes one
            value = np.array(n.value, copy=True)
            value.flags.writeable = False
            prog.append((_CONST, i, None, value, n.dtype, dev, bool(getattr(t, "_sub", False))))
        elif n.kind == g.PURE and n.op is not None and taped and n.op.taped_form is not None:
            prog.append((_FORM, i, n.op.taped_form, n.attrs, n.ins, dev))   # (OpDef.taped_form)
        elif n.kind == g.PURE and n.op is not None:
            prog.append((_OP, i, n.op, n.attrs, n.ins, dev))
        elif n.kind == g.PURE and n.key is not None and n.key[0] == "item":
            prog.append((_ITEM, i, n.ins[0], n.key[1]))
        elif n.kind == g.READ:
            prog.append((_READ, i, n.var))
        elif n.kind == g.WRITE:
            if len(n.ins) > 1:
                prog.append((_SCATTER, i, n.var, n.write_kind, n.ins))
            else:
                prog.append((_WRITE, i, n.var, n.write_kind, n.ins[0]))
        else:   # (a node kind this module does not know: replay by re-running the Python)
            return f"it records a step of kind {n.kind} that a replay op by op does not know"
    return (len(rec.nodes), prog, rec._template(result))


def run(program: tuple, tensors: Sequence[Tensor], writes_as_ops: bool = False) -> Any:
    """Replay `program` on the call's tensor arguments through dispatch: the call's result (its
    tensors those the tapes saw made). `writes_as_ops`: its assigns run as the variable's assign
    ops, which the context's recorder records (a nested call's body: graph/nested.py)."""
    n, prog, template = program
    env: list[Any] = [None] * n
    for st in prog:
        kind, i = st[0], st[1]
        if kind == _OP or kind == _FORM:
            ins = [env[j] for j in st[4]]
            out = dispatch.execute(st[2], ins, st[3]) if kind == _OP else st[2](ins, st[3])
            if st[5] is not None and type(out) is Tensor:
                out._device = st[5]
            env[i] = out
        elif kind == _ITEM:
            env[i] = env[st[2]][st[3]]
        elif kind == _ARG:
            env[i] = tensors[st[2]]
        elif kind == _CONST:
            if st[2] is not None:
                env[i] = st[2]
            else:
                t = Tensor(st[3], st[4], st[5] or _device())
                if st[6]:   # (it holds subnormals, which the ops it feeds read as zeros: ops.subnormals)
                    t._sub = True
                env[i] = dispatch.constant_made(t)   # (a recorder around the replay captures it: graph/nested.py)
        elif kind == _READ:
            var = st[2]
            t = Tensor(var._read_array(), var._dtype, var._device)
            if var._sub:   # (as the variable's read marks it: ops.subnormals)
                t._sub = True
            env[i] = dispatch.variable_read(var, t)
        elif kind == _WRITE and writes_as_ops:
            getattr(st[2], st[3])(env[st[4]], read_value=False)
        elif kind == _WRITE:
            src = env[st[4]]
            st[2]._write(st[3], dispatch.raw(src) if isinstance(src, Tensor) else src)
        elif kind == _SCATTER:
            st[2]._write_scatter(st[3], tuple(dispatch.raw(env[j]) for j in st[4]))
    return _result(template, env)


def _result(template: Any, env: list[Any]) -> Any:
    kind = template[0]
    if kind == "t":
        return env[template[1]]
    if kind in ("py", "obj"):
        return template[1]
    if kind is dict:
        return {k: _result(v, env) for k, v in template[1]}
    items = [_result(v, env) for v in template[1]]
    if kind is list:
        return items
    return kind(tuple(items))   # tuple, PerReplica, Mirrored


def _device() -> str:
    from simdist.runtime import context
    return context.current_device()


class Deferred(execution.Interpreter):
    """Notes what the set-aside interpreters `targets` would have seen, to hand it to them after.
    A target the call stops or restarts (`tape.stop_recording()`, `gradient` of a non-persistent
    tape) is paused and resumed here (ExecutionContext.push_tape/pop_tape), so each event goes
    to the targets active when it happened."""

    __slots__ = ("events", "targets", "active", "leaves", "twins")

    def __init__(self, targets: Sequence[Any], leaves: Sequence[Any] = ()) -> None:
        self.events: list[tuple] = []
        self.leaves = list(leaves)   # the call's tensor arguments
        self.twins: list[Any] = []   # the traced twins the recorded call saw of them (graph.record_call fills it)
        self.targets = list(targets)
        self.active = tuple(self.targets)

    def _has(self, x: Any) -> bool:
        return any(t is x for t in self.targets)

    def touch(self, x: Any) -> bool:
        """Whether x is a target. The call uses it (watches with it, stops it, takes a gradient):
        it is handed the events so far, so it is up to date, and the recording is abandoned
        (its replays could not use the tape as the call did)."""
        if not self._has(x):
            return False
        self.hand_to_targets()
        dispatch.unrecordable("it uses a gradient tape it was called under")
        return True

    def pause(self, x: Any) -> bool:
        """Whether x is a target (then it stops seeing events)."""
        if not self.touch(x):
            return False
        self.active = tuple(t for t in self.active if t is not x)
        return True

    def resume(self, x: Any) -> bool:
        """Whether x is a target (then it sees events again)."""
        if not self.touch(x):
            return False
        self.active = tuple(t for t in self.targets if t is x or any(a is t for a in self.active))
        return True

    def op(self, opdef: Any, tensors: Any, outs: tuple, attrs: dict | None) -> tuple:
        self.events.append((self.active, "op", opdef, tuple(tensors), outs, attrs))
        return outs

    def read(self, var: Any, t: Any) -> Any:
        self.events.append((self.active, "read", var, t))
        return t

    def gathered(self, var: Any, indices: Any, t: Any) -> Any:
        self.events.append((self.active, "gathered", var, indices, t))
        return t

    def write(self, var: Any, kind: str, value: Any, arr: Any) -> None:
        self.events.append((self.active, "write", var, kind, value, arr))

    def scatter(self, var: Any, kind: str, indices: Any, updates: Any, operand: tuple) -> None:
        self.events.append((self.active, "scatter", var, kind, indices, updates, operand))

    def charge(self, fn: Any, refusal: str | None = None) -> None:
        self.events.append((self.active, "charge", fn, refusal))

    def hand_to_targets(self) -> None:
        """Give each event to the targets active when it happened, in order (as dispatch gives
        each event to every interpreter), after each argument and the twin the recorded call
        saw of it, handed first as an identity (the tapes connect the twin's ops to the
        argument)."""
        from simdist.runtime.ops.array import IDENTITY
        for arg, twin in zip(self.leaves, self.twins):
            for o in self.targets:
                o.op(IDENTITY, (arg,), (twin,), None)
        self.leaves = []
        for ev in self.events:
            active, name, a = ev[0], ev[1], ev[2:]
            for o in active:
                getattr(o, name)(*a)
        self.events = []
