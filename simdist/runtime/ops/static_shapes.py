"""Dimensions a tf.function's graph does not know while it is built (clause function.trace-time-errors).

TF runs each op's shape function when it adds the op to the graph; a dimension that depends on
input VALUES is unknown there (`?`): the first dimension of a sorted segment reduction's output
(segment_sum & co.), of boolean_mask's and unique's, the last of sequence_mask's without maxlen.
A shape function cannot find a mistake in an unknown dimension, so the broadcast of such a
result against a tensor it does not fit fails only when the graph runs (InvalidArgumentError
"Incompatible shapes"), not at trace time (ValueError "Dimensions must be equal").

simdist runs a traced function's Python eagerly with concrete values, so it marks the unknown
dimensions of the tensors these ops return while a tf.function traces, and carries them through
elementwise ops (TF's broadcasting shape function: an unknown dimension against a known 1 stays
unknown, against a known d > 1 it is d). Other ops' outputs count as fully known (a shape
function that keeps the unknown dimension elsewhere is not modelled). Marks live in a dict keyed
by the tensor's id beside a weak reference; a dead tensor's entry is dropped by the reference's
callback and never matches another tensor (the identity is checked), so the collector's timing
does not change results.
"""

from __future__ import annotations

import functools
import weakref
from typing import Any, Sequence

from simdist.runtime import context
from simdist.runtime.ops.registry import BROADCAST, SAME_SHAPES
from simdist.runtime.tensor import Tensor

__all__ = ["UNKNOWN", "mark", "mark_dim", "unknown", "propagate", "broadcast_fails"]

# id(tensor) -> (weak reference to it, one flag per dimension: True where the graph does not know it)
UNKNOWN: dict[int, tuple[Any, tuple[bool, ...]]] = {}


def _drop(key: int, ref: Any) -> None:
    entry = UNKNOWN.get(key)
    if entry is not None and entry[0] is ref:
        del UNKNOWN[key]


def mark(t: Tensor, flags: Sequence[bool]) -> Tensor:
    """t, with the dimensions flagged True unknown to the graph being built (nothing outside a
    tf.function, or when no dimension is unknown)."""
    flags = tuple(bool(f) for f in flags)
    if not any(flags) or not context.in_function() or len(flags) != t.ndim:
        return t
    key = id(t)
    UNKNOWN[key] = (weakref.ref(t, functools.partial(_drop, key)), flags)
    return t


def mark_dim(t: Tensor, axis: int) -> Tensor:
    """t with dimension `axis` (negative counts from the end) unknown to the graph."""
    if t.ndim == 0:
        return t
    axis %= t.ndim
    return mark(t, [d == axis for d in range(t.ndim)])


def unknown(t: Any) -> tuple[bool, ...] | None:
    """t's unknown-dimension flags, or None when every dimension is known."""
    entry = UNKNOWN.get(id(t))
    if entry is None or entry[0]() is not t:
        return None
    return entry[1]


def broadcast_fails(a: Tensor, b: Tensor) -> bool:
    """Whether TF's broadcasting shape function sees that a and b do not broadcast: a pair of
    known dimensions that differ, neither 1."""
    fa = unknown(a) or (False,) * a.ndim
    fb = unknown(b) or (False,) * b.ndim
    for da, ua, db, ub in zip(reversed(a.shape.as_list()), reversed(fa), reversed(b.shape.as_list()), reversed(fb)):
        if not ua and not ub and da != db and da != 1 and db != 1:
            return True
    return False


def propagate(op: Any, tensors: Sequence[Tensor], out: Tensor) -> Tensor:
    """out of an elementwise op over `tensors`, with the unknown dimensions its shape function
    leaves (called by dispatch while some tensor is marked)."""
    if op.fusion is not SAME_SHAPES and op.fusion is not BROADCAST:
        return out
    if all(unknown(t) is None for t in tensors):
        return out
    flags = _fold(tensors)
    return mark(out, flags if len(flags) == out.ndim else (False,) * out.ndim)


def _fold(tensors: Sequence[Tensor]) -> tuple[bool, ...]:
    """The unknown flags of the broadcast of all `tensors` (rank = the largest rank)."""
    n = max(t.ndim for t in tensors)
    dims: list[tuple[int, bool]] = [(1, False)] * n
    for t in tensors:
        f = unknown(t) or (False,) * t.ndim
        pad = [(1, False)] * (n - t.ndim) + list(zip(t.shape.as_list(), f))
        merged = []
        for (da, ua), (db, ub) in zip(dims, pad):
            if ua and ub:
                merged.append((max(da, db), True))
            elif ua:
                merged.append((db, db == 1))
            elif ub:
                merged.append((da, da == 1))
            else:
                merged.append((max(da, db) if 1 in (da, db) else da, False))
        dims = merged
    return tuple(u for _, u in dims)
