"""A tf.function called inside another's recording, kept as its own trace (clause
function.trace-once, "nested calls").

TF traces a tf.function called while another is being traced into a function of its own, and the
outer graph holds a call node of it: the inner function's Python runs once per inner trace, not once
per outer trace, and the trace is kept in the inner function's cache whatever becomes of the outer
trace (an outer trace that fails keeps the inner traces it made; a later eager call of the inner
function with that signature runs the kept graph). simdist records ops on values, one recording per
outermost call: an inner call runs inside it. `capture` runs the inner Python the first time under
the outer recorder and cuts the ops it added out of the recording as a program of the inner call's
own (runtime/interpret.py's format: its arguments the inner call's tensors); `replay` runs that
program through dispatch, so the enclosing recorder (or an eager caller) sees each op again as the
call node's inlined body, without the Python.

A cut is refused (the inner call then runs as plain Python next time too, as before) when its ops
reach a tensor of the enclosing recording other than the call's arguments (a capture of the outer
graph), write a variable other than by assign, assign_add or assign_sub, are stateful (random ops), charge the simulator, run a tf.cond or loop node
that the program format does not know, or when the enclosing recording became unrecordable while
the inner Python ran.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Sequence

from simdist.runtime import execution
from simdist.runtime.graph import ir

__all__ = ["capture", "pure", "replay", "recorder"]


def recorder() -> Any:
    """The recorder of the call being recorded in this context (None when there is none)."""
    return execution.current().recorder


_ASSIGNS = ("assign", "assign_add", "assign_sub")   # (the writes a replay makes as the variable's ops)


class _Cut:
    """The ops a recorder noted after node `start`, renumbered as a recording of their own whose
    arguments are `leaves` (the duck type interpret.build reads)."""

    def __init__(self, rec: Any, start: int, leaves: Sequence[Any]) -> None:
        self.lanes = 0
        self.untaped = None
        self.device = rec.device
        self.nodes: list[Any] = []
        self.keep: list[Any] = []
        self.slot_of: dict[int, int] = {}
        self.args: list[int] = []
        self._local: dict[int, int] = {}
        for t in leaves:
            s = rec.slot_of.get(id(t))
            if s is None:
                raise _Refused
            if s not in self._local:
                self._local[s] = len(self.nodes)
                self.nodes.append(ir.Node(ir.ARG, dtype=getattr(t, "dtype", None)))
            self.args.append(self._local[s])
        for i in range(start, len(rec.nodes)):
            n = rec.nodes[i]
            if n.kind == ir.CHARGE or n.stateful or n.lane is not None or \
                    (n.kind == ir.WRITE and (len(n.ins) != 1 or n.write_kind not in _ASSIGNS)):
                raise _Refused
            m = copy.copy(n)
            m.ins = tuple(self._slot(j) for j in n.ins)
            self._local[i] = len(self.nodes)
            self.nodes.append(m)
        for s, local in self._local.items():
            t = rec.tensor_at.get(s)
            if t is not None:
                self.keep.append(t)
                self.slot_of[id(t)] = local
        self._rec = rec

    def _slot(self, j: int) -> int:
        local = self._local.get(j)
        if local is None:   # (a tensor of the enclosing graph: a capture of the outer trace)
            raise _Refused
        return local

    def _template(self, out: Any) -> Any:
        t = self._rec._template(out)
        return self._renumber(t)

    def _renumber(self, t: Any) -> Any:
        if t[0] == "t":
            return ("t", self._slot(t[1]), t[2])
        if t[0] in ("py", "obj"):
            return t
        if t[0] is dict:
            return (dict, [(k, self._renumber(v)) for k, v in t[1]])
        return (t[0], [self._renumber(v) for v in t[1]])


class _Refused(Exception):
    pass


def capture(rec: Any, leaves: Sequence[Any], run: Callable[[], Any]) -> tuple[Any, Any]:
    """Run `run()` (the inner call's Python on the tensors `leaves`) under the recorder `rec`:
    (its result, the programs of the ops it added — for calls no tape sees, and for calls under
    gradient tapes, the latter None when a bound op's backward needs the Python — or None when
    they cannot stand alone)."""
    start, reason0, gap0, untaped0 = len(rec.nodes), rec.reason, rec.created - rec.expected, rec.untaped
    result = run()
    if rec.reason is not None or reason0 is not None or rec.created - rec.expected != gap0 or not rec.live:
        return result, None
    from simdist.runtime import interpret
    try:
        cut = _Cut(rec, start, leaves)
        plain = interpret.build(cut, result, taped=False)
        taped = interpret.build(cut, result)
    except Exception:  # noqa: BLE001 - _Refused, or a result the recorder does not record (NotRecordable)
        return result, None
    if type(plain) is str:
        return result, None
    return result, (plain, None if type(taped) is str or rec.untaped is not untaped0 else taped)


def replay(program: tuple, tensors: Sequence[Any]) -> Any:
    """The inner call's result from its kept program, op by op through dispatch (the enclosing
    recorder, if any, records each op as it would the Python's)."""
    from simdist.runtime import interpret
    return interpret.run(program, tensors, writes_as_ops=True)


def pure(program: Any) -> bool:
    """Whether a program (interpret.build's) may run inside another function's recording as the
    inner call's body: its writes are assigns (no scatter), which `replay` makes as ops."""
    if not isinstance(program, tuple):
        return False
    from simdist.runtime import interpret
    return all(st[0] != interpret._SCATTER and (st[0] != interpret._WRITE or st[3] in _ASSIGNS)
               for st in program[1])
