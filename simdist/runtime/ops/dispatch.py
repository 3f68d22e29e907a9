"""The single place where every op passes: forward, dtype, FLOPs, placement, observers.

`execute(op, tensors, attrs)` checks the input dtypes (the op's dtype rule), computes the
forward on the tensors' arrays, casts the result to the rule's dtype, adds the op's FLOPs to the
tally, places the result on the current device and tells the observers: the graph recorder of
the tf.function call being recorded (simdist.runtime.graph) and the gradient tapes recording on
this thread (simdist.runtime.autodiff). Nothing else makes a Tensor from an op.

Variable reads and writes are not ops of the registry (they go through transactions and the
coordinator's traffic observers, see runtime/variables.py) but pass here too, so that the same
two observers see them: `variable_read` and `variable_written`.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, dtypes
from simdist.runtime import tensor as _tm
from simdist.runtime import cost as _cost
from simdist.runtime.cost import tally
from simdist.runtime.ops.registry import OpDef
from simdist.runtime.tensor import Tensor, _Traced

__all__ = ["execute", "run", "static_value", "variable_read", "variable_gathered", "variable_written", "variable_scattered",
           "constant_made", "raw", "tapes"]

_STRING = dtypes.string
_cstate = context._state


class _TapeStack(threading.local):
    """The gradient tapes active on this thread, innermost last (each replica of strategy.run has
    its own: runtime/replica_state.py swaps them)."""

    def __init__(self) -> None:
        self.tapes: list[Any] = []


_tls = _TapeStack()


def tapes() -> list[Any]:
    """This thread's active tapes (the list itself: autodiff pushes and pops on it)."""
    return _tls.tapes


def raw(t: Tensor) -> np.ndarray:
    """A tensor's array, for code whose reading of it is recorded (an op's input, an assign's
    operand): a traced tensor's guard (see tensor._Traced) is for every other reader."""
    return t._a if type(t) is _Traced else t._v


def static_value(t: Tensor) -> np.ndarray:
    """A tensor's array, read in Python to fix an attribute or check values before an op runs
    (one_hot's depth, a slice's bounds, scatter indices): a recorded call keeps such a read only
    when the value is the same in every replay (see Recorder.is_constant), else it stays eager."""
    if type(t) is _Traced:
        rec = _tm._REC
        if rec is not None:
            f = sys._getframe(1)
            rec.read_value(t, f"{f.f_code.co_name} ({f.f_code.co_filename}:{f.f_lineno})")
        return t._a
    return t._v


def execute(op: OpDef, tensors: Sequence[Tensor], attrs: dict | None = None) -> Any:
    """Run op on tensors (already converted): its Tensor, or a tuple for multi-output ops."""
    if _tm._REC is None:
        arrays = [t._v for t in tensors]
    else:
        arrays = [raw(t) for t in tensors]
    dt = op.dtype(tuple(t.dtype for t in tensors), attrs)
    return run(op, tensors, arrays, dt, attrs)


def run(op: OpDef, tensors: Sequence[Tensor], arrays: Sequence[np.ndarray], dt: Any,
        attrs: dict | None = None) -> Any:
    """execute() after its dtype rule: for callers that checked the inputs themselves (the
    arithmetic operators' fast path). Same forward, cast, tally, placement and observers."""
    out = op.forward(*arrays, **attrs) if attrs else op.forward(*arrays)
    if op.num_outputs != 1:
        return _run_multi(op, tensors, arrays, out, dt, attrs)
    if type(out) is not np.ndarray:
        out = np.asarray(out)   # a NumPy scalar from a 0-d op
    npd = dt._np
    # (NumPy's builtin dtypes are singletons: the identity test skips a rich comparison)
    if out.dtype is not npd and out.dtype != npd and dt is not _STRING:
        out = out.astype(npd, copy=False)
    fl = op.flops
    n = out.size if fl is None else fl(arrays, out, attrs)
    d = _cstate.device
    rl = _cost.roofline
    tally.flops += n if rl is None else rl(op, n, arrays, (out,), dt, context._default_device if d is None else d)
    t = Tensor(out, dt, context._default_device if d is None else d)
    if _tm._REC is None and not _tls.tapes:
        return t
    return _observed(op, tensors, (t,), attrs)[0]


def _run_multi(op: OpDef, tensors: Sequence[Tensor], arrays: Sequence[np.ndarray], outs: Any, dts: Any,
               attrs: dict | None) -> tuple[Tensor, ...]:
    if type(dts) is not tuple:
        dts = (dts,) * len(outs)
    fixed = []
    for out, dt in zip(outs, dts):
        out = np.asarray(out)
        if out.dtype != dt._np and dt is not _STRING:
            out = out.astype(dt._np, copy=False)
        fixed.append(out)
    fl = op.flops
    n = sum(o.size for o in fixed) if fl is None else fl(arrays, fixed, attrs)
    dev = context.current_device()
    rl = _cost.roofline
    tally.flops += n if rl is None else rl(op, n, arrays, fixed, dts[0], dev)
    ts = tuple(Tensor(o, dt, dev) for o, dt in zip(fixed, dts))
    if _tm._REC is None and not _tls.tapes:
        return ts
    return _observed(op, tensors, ts, attrs)


def _observed(op: OpDef, tensors: Sequence[Tensor], outs: tuple[Tensor, ...], attrs: dict | None) -> tuple:
    rec = _tm._REC
    if rec is not None:
        outs = rec.op(op, tensors, outs, attrs)
    for tape in _tls.tapes:
        tape._record_op(op, tensors, outs, attrs)
    return outs


def variable_read(var: Any, t: Tensor) -> Tensor:
    """A variable's value was read into tensor t (ReadVariableOp): tell the observers."""
    rec = _tm._REC
    if rec is not None:
        t = rec.read(var, t)
    for tape in _tls.tapes:
        tape._variable_read(var, t)
    return t


def variable_gathered(var: Any, indices: Tensor, t: Tensor) -> Tensor:
    """Rows `indices` of a variable were read into t (ResourceGather): tell the observers. The
    recorder does not record row reads yet (their traffic depends on the ids): the call stays
    eager."""
    rec = _tm._REC
    if rec is not None:
        rec.invalidate(f"it reads rows of {getattr(var, 'name', 'a variable')} (row lookups are not recorded)")
    for tape in _tls.tapes:
        tape._variable_gathered(var, indices, t)
    return t


def variable_written(var: Any, kind: str, value: Any, arr: np.ndarray) -> None:
    """`var.<kind>(value)` wrote arr (AssignVariableOp & co.): tell the graph recorder."""
    rec = _tm._REC
    if rec is not None:
        rec.write(var, kind, value, arr)


def variable_scattered(var: Any, kind: str, indices: Tensor, updates: Tensor, operand: tuple) -> None:
    """`var.<kind>(...)` wrote `operand` = (indices, updates) arrays (ResourceScatterAdd & co.):
    tell the graph recorder."""
    rec = _tm._REC
    if rec is not None:
        rec.scatter(var, kind, indices, updates, operand)


def constant_made(t: Tensor) -> Tensor:
    """A tensor made from a Python or NumPy value (a Const node): the recorder captures it."""
    rec = _tm._REC
    if rec is not None:
        return rec.constant(t)
    return t
