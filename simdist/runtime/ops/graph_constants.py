"""Which values a tf.function's graph knows while it is built (clause function.trace-time-errors).

TF reads constant inputs while it adds ops to a graph, in two ways:

- shape inference (C++: `InferenceContext::input_tensor`, EvaluateConstantTensor) evaluates any
  subgraph of stateless ops whose leaves are Const nodes: Range's, DenseBincount's and
  MatrixDiagPartV3's shape functions then check the VALUES (`tf.math.bincount([1, 2],
  maxlength=-1)` traced is the shape function's ValueError "size (-1) must be non-negative",
  through `tf.abs` of a constant too);
- Python's `tensor_util.constant_value` follows Const and a few ops only (Cast, Identity,
  StopGradient, Shape/Size/Rank of a known shape, Pack, Unpack, ConcatV2, Split, Fill, Range,
  Equal, NotEqual): check_ops' asserts fail at trace time when both operands are such constants
  (`confusion_matrix([-1, 2], [1, 2])` traced is InvalidArgumentError from
  get_concrete_function; `confusion_matrix(tf.abs([-1, 2]), ...)` leaves the labels check to
  the run).

A value the graph takes as an input is unknown to both: a tf.function's arguments (placeholders),
variable reads, stateful ops' results, and what is computed from them. simdist runs a traced
function's Python eagerly, so it marks such tensors VARYING while a tf.function runs, and the
results of other ops on constants FOLDED (known to shape inference, not to constant_value);
unmarked tensors are constants. Marks live in a dict keyed by the tensor's id beside a weak
reference (as static_shapes.py): a dead tensor's entry is dropped by the reference's callback and
never matches another tensor, so the collector's timing does not change results.

Not modelled: TF captures an eager tensor of more than 128 elements as a placeholder (smaller ones
as Const); simdist counts every captured tensor as a constant.
"""

from __future__ import annotations

import functools
import weakref
from typing import Any, Sequence

from simdist.runtime import context
from simdist.runtime.tensor import Tensor

__all__ = ["MARKS", "VARYING", "FOLDED", "vary", "argument", "arguments", "restore", "level", "known",
           "python_constant", "propagate"]

FOLDED = 1    # shape inference evaluates it; tensor_util.constant_value does not
VARYING = 2   # the graph does not know it before it runs

# id(tensor) -> (weak reference to it, its level)
MARKS: dict[int, tuple[Any, int]] = {}

# The ops tensor_util.constant_value follows (TF 2.21, framework/tensor_util.py _ConstantValue).
_PY_FOLLOWS = frozenset({"Cast", "Identity", "StopGradient", "Shape", "Size", "Rank", "Pack", "Unpack", "ConcatV2",
                         "Split", "Fill", "Range", "Equal", "NotEqual"})


def _drop(key: int, ref: Any) -> None:
    entry = MARKS.get(key)
    if entry is not None and entry[0] is ref:
        del MARKS[key]


def _mark(t: Any, lv: int) -> None:
    if not isinstance(t, Tensor):
        return
    key = id(t)
    MARKS[key] = (weakref.ref(t, functools.partial(_drop, key)), lv)


def vary(t: Any) -> Any:
    """t, marked as a value the graph being built does not know (nothing outside a tf.function)."""
    if context.in_function():
        _mark(t, VARYING)
    return t


def carry(src: Any, t: Any) -> Any:
    """t, marked as src is (the same value under another name: a collective's result handed to a replica's
    device, graph/recording.py `alias`), so shape inference knows t no better than src."""
    lv = level(src)
    if lv:
        _mark(t, lv)
    return t


def argument(t: Any) -> Any:
    """t, a tf.function's placeholder made for a trace (a fresh tensor): marked VARYING."""
    _mark(t, VARYING)
    return t


def arguments(values: Sequence[Any]) -> list:
    """Mark the tensors among a tf.function call's arguments VARYING for the call (they are the
    graph's inputs); returns what `restore` needs to take the marks off the caller's tensors."""
    undo = []
    for v in values:
        if isinstance(v, Tensor):
            undo.append((v, MARKS.get(id(v))))
            _mark(v, VARYING)
    return undo


def restore(undo: list) -> None:
    """Undo `arguments`: each tensor's mark as it was before the call."""
    for v, entry in reversed(undo):
        key = id(v)
        if entry is None:
            MARKS.pop(key, None)
        else:
            MARKS[key] = entry


def level(t: Any) -> int:
    """0 (a constant), FOLDED or VARYING."""
    entry = MARKS.get(id(t))
    if entry is None or entry[0]() is not t:
        return 0
    return entry[1]


def known(*values: Any) -> bool:
    """Whether shape inference knows every one of `values` (Python values and constant tensors,
    or tensors computed from them by stateless ops) while a tf.function is built."""
    return all(level(v) < VARYING if isinstance(v, Tensor) else not hasattr(v, "_as_tensor") for v in values)


def python_constant(*values: Any) -> bool:
    """Whether tensor_util.constant_value gives every one of `values` while a tf.function is built."""
    return all(level(v) == 0 if isinstance(v, Tensor) else not hasattr(v, "_as_tensor") for v in values)


def propagate(op: Any, tensors: Sequence[Any], outs: Sequence[Any]) -> None:
    """Mark the outputs of `op` on `tensors` (called by dispatch while a tf.function runs)."""
    if op.stateful:
        lv = VARYING
    elif op.kind == "shape-query":
        from simdist.runtime.ops import static_shapes
        # (TryInferFromShapes: Rank needs the rank known, Shape and Size every dimension)
        lv = VARYING if any(static_shapes.rank_unknown(t) or (op.name != "Rank" and static_shapes.unknown(t) is not None)
                            for t in tensors[:1]) else 0
    else:
        lv = 0
        for t in tensors:
            x = level(t)
            if x > lv:
                lv = x
        if lv == 0 and op.name not in _PY_FOLLOWS:
            lv = FOLDED
    if lv:
        for o in outs:
            _mark(o, lv)
