"""Uniform values in recorded graphs, replayed as scalars (XLA's broadcast sinking).

A tensor whose elements are all the same value (`tf.ones([256, 256])`, `tf.fill(shape, c)`,
`tf.zeros_like(x) + lr`) is a broadcast of one scalar. XLA's algebraic simplifier sinks such
broadcasts below elementwise ops: `broadcast(a) + b`, with b a scalar, becomes `broadcast(a + b)`,
and an update `w += broadcast(s)` reads s, not a whole array. A recorded graph does the same:
- a constant of at least MIN_ELEMENTS floating-point elements, bit for bit equal, is *uniform*;
- an elementwise op declared `exact` on its OpDef (one correctly rounded IEEE operation or
  selection per element: add, subtract, multiply, divide, maximum, minimum) whose operands are
  uniform values of its output's shape or 0-d values, all of its output's dtype, is uniform: the
  replay computes it on the scalars (the same NumPy function on one element);
- it is replayed that way only when every consumer takes a uniform operand: another such op,
  or a dense write (assign, assign_add, assign_sub), which gets a read-only full-shape view of
  the scalar (stride 0: no array is filled; a write treats it as any operand of that shape).
Elsewhere (a matmul, a reduction, a result of the call) the value is computed as recorded. An
exact elementwise op that stays whole reads a uniform constant operand of its output's shape as
the element when another operand has that shape (NumPy broadcasts it: `g * broadcast(1/n)`, the
gradient of a mean, reads no array of 1/n).

Every element of `broadcast(a) op broadcast(b)` is `a op b`, rounded once, and adding a
stride-0 view adds that same value to each element, so the values are bit-identical to the
eager call's; only the memory the replay touches changes (the PS benchmark's closure update,
`tf.ones(shape) + scalar`, no longer fills and re-reads a 256 KiB temporary).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from simdist.runtime.graph.ir import PURE, WRITE

# SIMDIST_SINK_UNIFORM=0 replays uniform values as full arrays, as recorded (a switch for comparisons).
enabled = os.environ.get("SIMDIST_SINK_UNIFORM", "1") != "0"
# Below this many elements an array pass costs less than making the view at each replay.
MIN_ELEMENTS = 1024
# Dense writes that take a full-shape operand (a stride-0 view serves).
WRITES = ("assign", "assign_add", "assign_sub")


class Sinking:
    """Which nodes of a graph replay as scalars, and the full shape each stands for."""

    __slots__ = ("scalars", "ops", "shapes", "operands")

    def __init__(self) -> None:
        self.scalars: dict[int, np.ndarray] = {}   # a uniform constant -> its element, 0-d, read-only
        self.ops: set[int] = set()                 # ops replayed on scalars (their value is a NumPy scalar)
        self.shapes: dict[int, tuple[tuple[int, ...], np.dtype]] = {}   # uniform node -> (shape, dtype)
        # other elementwise ops -> positions of their uniform constant operands read as elements
        self.operands: dict[int, frozenset[int]] = {}

    def view(self, i: int, scalar: Any) -> np.ndarray:
        """The full value of uniform node i: a read-only stride-0 view of its scalar."""
        shape, dtype = self.shapes[i]
        return np.ndarray(shape, dtype, scalar, 0, (0,) * len(shape))


def element(value: Any) -> np.ndarray | None:
    """The one element of an array of at least MIN_ELEMENTS equal floats (compared bit for bit:
    -0.0 and 0.0 differ, equal NaN payloads match), 0-d and read-only; None for any other value."""
    if type(value) is not np.ndarray or value.dtype.kind != "f" or value.size < MIN_ELEMENTS:
        return None
    bits = np.ascontiguousarray(value).reshape(-1).view(f"u{value.dtype.itemsize}")
    if not (bits == bits[0]).all():
        return None
    out = np.array(value.reshape(-1)[0], dtype=value.dtype)
    out.flags.writeable = False
    return out


def takes(st: tuple) -> bool:
    """Whether step st is a dense write (a stride-0 view serves as its operand)."""
    return st[0] == WRITE and len(st) == 4 and st[3] in WRITES


def plan(steps: list[tuple], nodes: list[Any], env0: list[Any], kept: set[int]) -> Sinking:
    """The sinking of a graph's steps (as simdist.runtime.graph.optimize plans them).
    `kept`: nodes the replay returns or takes as arguments, which stay full arrays."""
    s = Sinking()
    for i, v in enumerate(env0):
        e = element(v) if v is not None else None
        if e is not None:
            s.scalars[i] = e
            s.shapes[i] = (v.shape, v.dtype)
    if not s.scalars:
        return s
    # The steps that are exact elementwise ops on floats of at least MIN_ELEMENTS: (step, its (shape, dtype)).
    elementwise = [(st, full) for st in steps if (full := _elementwise(st, nodes)) is not None]
    # Candidates, in step order: such ops over uniform operands of their shape and 0-d ones.
    cand: set[int] = set()
    for st, full in elementwise:
        if st[1] in kept:
            continue
        operands = [s.shapes.get(j) == full or _zero_d(nodes[j].value, full[1]) for j in st[3:]]
        if all(operands) and any(j in s.shapes for j in st[3:]):
            cand.add(st[1])
            s.shapes[st[1]] = full
    # Keep the candidates all of whose consumers take a uniform operand; consumers come later, so
    # one pass from the last step back settles each candidate after everything that uses it.
    refused: set[int] = set()
    for st in reversed(steps):
        if st[0] == PURE:
            sunk = st[1] in cand and st[1] not in refused
            if sunk:
                s.ops.add(st[1])
            uses = () if sunk else st[3:]
        elif st[0] == WRITE:
            uses = st[4:] if takes(st) else (st[1],) + st[4:]
        else:
            continue
        refused.update(j for j in uses if j in cand)
    for i in cand - s.ops:
        del s.shapes[i]
    # The other exact ops: a uniform constant operand of the output's shape beside an operand
    # of that very shape is read as its element (`g * broadcast(1/n)`, a mean's gradient).
    for st, full in elementwise:
        if st[1] in s.ops:
            continue
        whole = [j not in s.scalars and type(nodes[j].value) is np.ndarray
                 and (nodes[j].value.shape, nodes[j].value.dtype) == full for j in st[3:]]
        if any(whole):
            pos = frozenset(p for p, j in enumerate(st[3:]) if j in s.scalars and s.shapes[j] == full)
            if pos:
                s.operands[st[1]] = pos
    return s


def _elementwise(st: tuple, nodes: list[Any]) -> tuple[tuple[int, ...], np.dtype] | None:
    """(shape, dtype) of step st's result if st is an exact elementwise op (OpDef.exact) on floats of
    at least MIN_ELEMENTS."""
    if st[0] != PURE:
        return None
    n = nodes[st[1]]
    out = n.value
    if n.op is None or not n.op.exact or n.inline is not None or type(out) is not np.ndarray \
            or out.size < MIN_ELEMENTS or out.dtype.kind != "f":
        return None
    return out.shape, out.dtype


def _zero_d(value: Any, dtype: np.dtype) -> bool:
    return type(value) is np.ndarray and value.ndim == 0 and value.dtype == dtype
