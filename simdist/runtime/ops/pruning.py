"""Ops TF prunes from a tf.function's graph before it runs (clause function.trace-time-errors).

TF 2.21 instantiates a function with PruneFunctionBody (common_runtime/function_utils.cc): only the
nodes the outputs, the stateful ops and the control outputs reach back to run, so a stateless op
whose result nothing uses never runs its kernel, and its run-time error never comes:
`y = tf.math.invert_permutation(v)` of [-1, -1, 0], then `return tf.divide(...)`, returns the
division on every call. simdist runs a tf.function's Python eagerly on its first call of a kind
(the recording), where that kernel raises. When it does, the call runs the Python again
(`Function._invoke`) with that error deferred: the failing op's output is a stand-in whose every
read (an op's input, `numpy()`, its shape) raises the error, so the call completes only where TF
prunes the op; an output that holds a stand-in raises it too (`check`). Only the error the first
run met is deferred (its op and message), so an error a wrapper catches and translates keeps its
class. The recording keeps the failing op with its stand-in, which its replays drop as an unused
pure op. A stateless op reading a stand-in gives stand-ins of its own outputs, raising the same error
(dispatch.execute: TF prunes both when nothing uses them; `tf.random.stateless_normal(..., alg='threefry')`,
whose counter the kernel refuses, unused; fz42, fz14 seed 1420423001 #99); a stateful one raises it. Limits:
the Python runs twice, its own side effects (print, appends, tf.print, stateful draws) too.
"""

from __future__ import annotations

import contextlib
import weakref
from typing import Any, Iterator, Sequence

import numpy as np

from simdist.runtime import context, dtypes
from simdist.runtime import tensor as _tensor
from simdist.runtime.tensor import Tensor, _Traced

# the (op name, message) keys of the kernel errors the running retry defers, else None
_ACTIVE: list[Any] = [None]
# (error, op name, whether the op is stateful) of the last kernel error raised inside a tf.function's Python
_LAST: list[Any] = [None]
# id(stand-in) -> the error its reads raise
_ERRORS: dict[int, BaseException] = {}
# id(stand-in) -> True when its zeros have the static shape TF's graph gives the op's output (`shaped`)
_SHAPED: dict[int, bool] = {}


def _error_of(t: Tensor) -> BaseException:
    return _ERRORS[id(t)]


def _static_array(t: Tensor) -> np.ndarray:
    """A shaped stand-in's zeros (their shape is the graph's), else its error raised."""
    if not _SHAPED.get(id(t)):
        raise _error_of(t)
    return standin_array(t)


def _text(t: Tensor, as_repr: bool) -> str:
    """A stand-in's text as TF's graph tensor prints (no value: the failed op's output is one of the graph's),
    its shape the static one when known."""
    from simdist.runtime import symbolic
    text = symbolic.graph_text(t, as_repr)
    if text is not None:
        return text
    shape = _tensor.TensorShape._of_array(standin_array(t).shape) if _SHAPED.get(id(t)) else _tensor.TensorShape(None)
    name = getattr(t, "_graph_name", None) or "standin"
    if as_repr:
        return f"<tf.Tensor '{name}:0' shape={shape} dtype={t.dtype.name}>"
    return f'Tensor("{name}:0", shape={shape}, dtype={t.dtype.name})'


class _Pruned:
    """A stand-in of a failed op's output: every read of its value raises its error; its shape is
    the graph's static shape when that is known (`shaped`), else a read of it raises too."""

    __slots__ = ()

    @property   # type: ignore[override]
    def _v(self) -> np.ndarray:
        raise _error_of(self)

    @property   # type: ignore[override]
    def shape(self) -> Any:
        a = _static_array(self)
        if _tensor._SYM_DEPTH[0] and _tensor.STATIC_UNKNOWN and id(self) in _tensor.STATIC_UNKNOWN:
            return _tensor._graph_shape(self, a.shape)   # (frame 2: the reader, Tensor.shape's rule)
        return _tensor.TensorShape._of_array(a.shape)

    @property   # type: ignore[override]
    def ndim(self) -> int:
        return standin_array(self).ndim   # (the stand-in rule's rank, as a recorded tensor's `_a` gives it)

    def __repr__(self) -> str:
        return _text(self, True)

    def __str__(self) -> str:
        return _text(self, False)


class _PrunedTensor(_Pruned, Tensor):
    """`_Pruned` of an eager call."""

    __slots__ = ()


class _PrunedTraced(_Pruned, _Traced):
    """`_Pruned` of a call being recorded."""

    __slots__ = ()


_CLASSES = {Tensor: _PrunedTensor, _Traced: _PrunedTraced}


def note(op: Any, err: BaseException) -> None:
    """Remember a kernel's error raised inside a tf.function's Python (dispatch.run)."""
    note_key(op.name, op.stateful, err)


def note_key(name: str, stateful: bool, err: BaseException) -> None:
    """`note` of a kernel's refusal a wrapper raises before dispatch (dispatch.refused: name '')."""
    if context._function_depth and not context._placeholder_depth[0]:
        _LAST[0] = (err, name, stateful)


def prunable(err: BaseException) -> tuple[str, str] | None:
    """The (op name, message) to defer when `err`, which failed a tf.function call, is the last
    error a stateless op's kernel raised; else None."""
    last = _LAST[0]
    _LAST[0] = None
    if last is None or last[0] is not err or last[2]:
        return None
    return last[1], str(err)


# whether the running retry is Keras's scratch-graph probe (scratch_trace.run): its stand-ins are shaped by the probe
# sizes, which compute_output_spec's two runs turn into the unknown dimensions
_PROBED = [False]


@contextlib.contextmanager
def deferring(keys: list[tuple[str, str]], probed: bool = False) -> Iterator[None]:
    """A retry of the call in which the kernel errors `keys` give stand-ins (`defers`); `probed`: a scratch-graph
    probe's retry, whose stand-ins take the probes' sizes (`probe_sized`)."""
    before, was = _ACTIVE[0], _PROBED[0]
    _ACTIVE[0], _PROBED[0] = keys, probed
    try:
        yield
    finally:
        _ACTIVE[0], _PROBED[0] = before, was


def probe_sized() -> bool:
    """Whether a stand-in's zeros made from the probes' sizes count as shaped (`deferring`'s `probed`)."""
    return _PROBED[0]


def defers(op: Any, err: BaseException) -> bool:
    """Whether dispatch goes on past `err` of op's kernel with a stand-in (a retry's error)."""
    return not op.stateful and defers_key(op.name, err)


def defers_key(name: str, err: BaseException) -> bool:
    """`defers` of a refusal a wrapper raises before dispatch (dispatch.refused: name '')."""
    keys = _ACTIVE[0]
    return keys is not None and (name, str(err)) in keys


def standin(op: Any, arrays: Sequence[np.ndarray], dt: Any, attrs: dict | None) -> Any:
    """Arrays to go on with: zeros of the shape the op's stand-in rule gives (else a scalar), a
    tuple for several outputs; `poison` makes their tensors raise. None for a variadic op whose
    output count neither a stand-in rule nor its dtypes give."""
    n = op.num_outputs
    count = len(dt) if n < 0 and type(dt) is tuple else n   # (a variadic op's count: its dtypes', else the rule's)
    try:
        if op.kind == "elementwise" and n == 1:
            shapes: Any = (np.broadcast_shapes(*(np.shape(a) for a in arrays)),)
        elif op.standin is not None:
            shapes = op.standin(arrays, attrs or {})
        else:
            shapes = ((),) * count
    except Exception:  # noqa: BLE001 - no shape: a scalar, never read
        shapes = ((),) * count
    if count < 0 and not shapes:
        return None   # (no count to go on with: the kernel's error stands)
    dts = dt if type(dt) is tuple else (dt,) * len(shapes)
    outs = tuple(np.full(s, b"", dtype=object) if d is dtypes.string else np.zeros(s, d._np)
                 for s, d in zip(shapes, dts))
    return outs[0] if n == 1 else outs


def standin_error(tensors: Sequence[Any]) -> BaseException | None:
    """The error of the first stand-in among `tensors` while a retry runs (`deferring`), else None."""
    if _ACTIVE[0] is None or not _ERRORS:
        return None
    for t in tensors:
        if type(t) in (_PrunedTensor, _PrunedTraced):
            return _error_of(t)
    return None


def is_standin(t: Any) -> bool:
    """Whether `t` is a stand-in (`poison`): its value and shape raise its error when read."""
    return type(t) in (_PrunedTensor, _PrunedTraced)


def standin_array(t: Any) -> Any:
    """The array of `t`, a stand-in's zeros read past its poisoned `_v` (the slot under it)."""
    if type(t) is _PrunedTensor:
        return Tensor._v.__get__(t)   # type: ignore[attr-defined]
    if type(t) is _PrunedTraced:
        return _Traced._a.__get__(t)   # type: ignore[attr-defined]
    return t._a if type(t) is _Traced else t._v


def poison(result: Any, err: BaseException, shaped: bool = False) -> Any:
    """The op's output tensor(s) made stand-ins raising `err` on every read of a value; `shaped`:
    their arrays have the static shapes TF's graph gives them, which `.shape` answers."""
    for t in (result if type(result) is tuple else (result,)):
        cls = _CLASSES.get(type(t))
        if cls is not None:
            t.__class__ = cls
            _ERRORS[id(t)] = err
            weakref.finalize(t, _ERRORS.pop, id(t), None)
            if shaped:
                _SHAPED[id(t)] = True
                weakref.finalize(t, _SHAPED.pop, id(t), None)
    return result


def error_of(t: Any) -> BaseException:
    """The error a stand-in's reads raise."""
    return _error_of(t)


def is_shaped(t: Any) -> bool:
    """Whether `t`, a stand-in, has the graph's static shape (`poison`'s `shaped`)."""
    return bool(_SHAPED.get(id(t)))


def standin_shaped(op: Any) -> bool:
    """Whether `standin`'s zeros for a failed kernel of `op` have TF's static shape: an elementwise op's
    (its operands' broadcast) or an op whose stand-in rule is its shape function on shapes alone
    (`OpDef.standin_static`)."""
    return (op.kind == "elementwise" and op.num_outputs == 1) or bool(getattr(op, "standin_static", False))


def check(out: Any) -> None:
    """Raise the error of a stand-in among a call's outputs (nested lists, tuples, dicts)."""
    if not _ERRORS:
        return
    stack = [out]
    while stack:
        x = stack.pop()
        if type(x) in (_PrunedTensor, _PrunedTraced):
            raise _error_of(x)
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
