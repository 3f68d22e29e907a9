"""Gradient edges along axes (issue 29): reductions, scans and segment reductions at edge rows.

Where an elementwise op's rule sits at an edge value, a reduction's sits at an edge *row*: a product with
one zero or two (whose gradient TF computes without dividing), a maximum shared by two entries (the
gradient split between them), NaN and infinities among finite values, signed zeros, equal huge values.
Every op here is called through ``tf.raw_ops`` on the rows of ROWS (float32 and float64), along each axis
it takes, with keep_dims, exclusive and reverse both ways, and the segment ops with an empty segment (and,
unsorted, dropped negative ids); observed as grad_edges_cases observes (the value and the data's gradient
under a finite, a mostly-zero and a non-finite upstream gradient, or the error's class), against TF 2.21's recording
(grad_edges_reference). Nothing here imports TensorFlow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simdist.conformance.suite.grad_edges_cases import DTYPES, U_FINITE, U_NONFINITE, U_ZEROS, _error, _plain, _upstream

_NAN, _INF = float("nan"), float("inf")
#: The edge rows (12 x 4): no zero, one zero, two zeros, a tied maximum, ties at both ends, NaN, +inf,
#: -inf beside +inf, signed zeros, two equal huge values, four equal values, an ordinary mixed row.
ROWS: tuple[tuple[float, ...], ...] = (
    (1.0, 2.0, 3.0, 4.0), (0.0, 2.0, 3.0, 4.0), (0.0, 0.0, 3.0, 4.0), (2.0, 2.0, 1.0, -1.0),
    (-1.0, -1.0, 2.0, 2.0), (_NAN, 1.0, 2.0, 3.0), (_INF, 1.0, 2.0, 3.0), (-_INF, _INF, 1.0, 2.0),
    (-0.0, 0.0, -0.0, 0.0), (1e30, 1e30, 2.0, 3.0), (-7.5, -7.5, -7.5, -7.5), (0.5, -0.25, 6.0, -2.0))
#: Sorted segment ids of the 12 rows (segment 2 empty) and unsorted ones (-1 dropped, segment 5 empty).
SORTED_IDS = (0, 0, 1, 1, 1, 3, 3, 4, 4, 4, 4, 5)
UNSORTED_IDS = (0, -1, 1, 0, 3, 3, -1, 1, 2, 0, 4, 1)
NUM_SEGMENTS = 6
#: SparseSegment*: rows picked (one twice) and their sorted segment ids (segment 1 empty).
SPARSE_INDICES = (0, 1, 1, 2, 5, 6, 9, 11)
SPARSE_IDS = (0, 0, 0, 2, 2, 3, 3, 4)


@dataclass(frozen=True)
class AxisOp:
    """One raw op along an axis: its name, its data input's name, and its other inputs and attributes
    (int tensors are given as tuples of ints)."""

    name: str
    data: str
    args: tuple[tuple[str, Any], ...] = ()


def _reductions() -> tuple[AxisOp, ...]:
    out = []
    for name in ("Sum", "Prod", "Max", "Min", "Mean", "EuclideanNorm"):
        for axis in ((1,), (0,), (0, 1)):
            for keep in (False, True):
                out.append(AxisOp(name, "input", (("axis", axis), ("keep_dims", keep))))
    return tuple(out)


def _scans() -> tuple[AxisOp, ...]:
    return tuple(AxisOp(name, "x", (("axis", axis), ("exclusive", ex), ("reverse", rev)))
                 for name in ("Cumsum", "Cumprod", "CumulativeLogsumexp") for axis in (1, 0)
                 for ex in (False, True) for rev in (False, True))


OPS: tuple[AxisOp, ...] = (
    _reductions() + _scans()
    + tuple(AxisOp(n, "data", (("segment_ids", SORTED_IDS),))
            for n in ("SegmentSum", "SegmentProd", "SegmentMax", "SegmentMin", "SegmentMean"))
    + tuple(AxisOp(n, "data", (("segment_ids", UNSORTED_IDS), ("num_segments", NUM_SEGMENTS)))
            for n in ("UnsortedSegmentSum", "UnsortedSegmentProd", "UnsortedSegmentMax", "UnsortedSegmentMin"))
    + tuple(AxisOp(n, "data", (("indices", SPARSE_INDICES), ("segment_ids", SPARSE_IDS)))
            for n in ("SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN"))
)


def op_id(op: AxisOp) -> str:
    """`Cumprod(axis=1, exclusive=True, reverse=False)`."""
    return f"{op.name}({', '.join(f'{k}={v!r}' for k, v in op.args)})"


def _arg(tf: Any, value: Any) -> Any:
    """An int argument as TF takes it: tuples as int32 tensors, bools and ints as they are."""
    if isinstance(value, tuple):
        return tf.constant(list(value), dtype=tf.int32)
    if isinstance(value, bool):
        return value
    return tf.constant(value, dtype=tf.int32)


def observe(tf: Any, op: AxisOp, dtype: str) -> dict[str, Any]:
    """`op` on ROWS in `dtype` on the given tf module: the value and the data's gradient under a finite
    and a non-finite upstream gradient (or the class of the error raised)."""
    fn = getattr(tf.raw_ops, op.name)
    dt = getattr(tf, dtype)
    x = tf.constant(np.asarray(ROWS, dtype=np.float64), dtype=dt)
    kwargs = {k: _arg(tf, v) for k, v in op.args}
    out: dict[str, Any] = {}
    try:
        out["value"] = _plain(fn(**{op.data: x}, **kwargs).numpy())
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        out["value"] = _error(e)
        return out
    for tag, pattern in (("grad", U_FINITE), ("grad_zero", U_ZEROS), ("grad_nonfinite", U_NONFINITE)):
        try:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = fn(**{op.data: x}, **kwargs)
            up = tf.constant(_upstream(pattern, tuple(y.shape)), dtype=dt)
            g = tape.gradient(y, x, output_gradients=up)
            out[tag] = None if g is None else _plain(tf.convert_to_tensor(g).numpy())
        except Exception as e:  # noqa: BLE001 - a refusal is what is observed
            out[tag] = _error(e)
    return out


def where(op: AxisOp, i: int) -> str:
    """Where element `i` of an observation of the data's shape sits: its row of ROWS."""
    return f"row {i // 4} = {list(ROWS[i // 4])}" if i < 4 * len(ROWS) else f"element {i}"


__all__ = ["ROWS", "OPS", "AxisOp", "op_id", "observe", "where", "DTYPES"]
