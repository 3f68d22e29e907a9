"""Shape functions of array ops (tensorflow/core/ops/array_ops.cc, TF 2.21) on what a traced graph
knows (clause function.trace-time-errors; issue 29's fz16d).

Inside a tf.function TF runs an op's shape function when it adds the op to the graph: a mistake it
sees in the known shapes (and in the values shape inference can evaluate: constants) is a
ValueError at trace time, where eagerly the kernel raises InvalidArgumentError. simdist's ops
raise the kernel's error and ask these functions for the shape function's text: a function here
returns that text, or None when the shape function cannot see the mistake (an unknown dimension
or rank, a value the graph does not know), so the kernel raises it when the graph runs.

Shapes are the graph's (static_shapes.known_shape: None for an unknown dimension, None for an
unknown rank).
"""

from __future__ import annotations

from typing import Any, Sequence

from simdist.runtime.ops import graph_constants, static_shapes
from simdist.runtime.tensor import Tensor

__all__ = ["shape_tensor", "broadcast_to"]

Shape = Sequence[int | None] | None


def shape_tensor(shape: Any, dims: Sequence[int]) -> list[int | None] | None:
    """A shape argument as InferenceContext::MakeShapeFromShapeTensor sees it while the graph is
    built: its values where the graph knows them (a -1 is an unknown dimension), None for a
    dimension computed from a value the graph does not know (an element of a Python list that is
    a placeholder, or the whole tensor); `dims` are its concrete values."""
    if isinstance(shape, Tensor):
        if not graph_constants.known(shape):
            return [None] * len(dims)
        return [None if d == -1 else int(d) for d in dims]
    if isinstance(shape, (list, tuple)) and len(shape) == len(dims):
        return [None if (isinstance(e, Tensor) and not graph_constants.known(e)) or d == -1 else int(d)
                for e, d in zip(shape, dims)]
    return [None if d == -1 else int(d) for d in dims]


def _rank_text(want: str, n: int, rank: int) -> str:
    return f"Shape must be {want}rank {n} but is rank {rank}"


def broadcast_to(x: Any, shape_rank: int, out: Sequence[int | None]) -> str | None:
    """BroadcastTo's shape function: the shape input of rank 1 (WithRank), then input x (its
    graph shape) of rank at most the output's (WithRankAtMost), then each input dimension above 1,
    from the right, merged with the output's (Merge: "Dimensions must be equal")."""
    if shape_rank != 1:
        return _rank_text("", 1, shape_rank)
    xs = static_shapes.known_shape(x)
    if xs is None:
        return None
    if len(xs) > len(out):
        return _rank_text("at most ", len(out), len(xs))
    for i in range(1, len(xs) + 1):
        a, b = xs[-i], out[-i]
        if a is not None and a > 1 and b is not None and a != b:
            return f"Dimensions must be equal, but are {a} and {b}"
    return None


def ensure_shape(x: Any, want: Shape) -> str | None:
    """EnsureShape's shape function: x (its graph shape) of the rank of the `shape` attr (WithRank;
    an attr of unknown rank asks for rank -1, which any input of known rank fails), then merged
    with it (Merge, the attr first)."""
    from simdist.runtime.ops import trace_errors
    xs = static_shapes.known_shape(x)
    if xs is None:
        return None
    rank = -1 if want is None else len(want)
    if len(xs) != rank:
        return _rank_text("", rank, len(xs))
    assert want is not None
    if any(a is not None and b is not None and a != b for a, b in zip(want, xs)):
        return trace_errors.merge_text(want, xs)
    return None


def rank_at_least(x: Any, n: int) -> str | None:
    """WithRankAtLeast(x, n) on x's graph shape (nothing for an unknown rank)."""
    xs = static_shapes.known_shape(x)
    return None if xs is None or len(xs) >= n else f"Shape must be at least rank {n} but is rank {len(xs)}"


def marked(err: BaseException, text: str | None, op: str, inputs: Sequence[Any]) -> BaseException:
    """err (the kernel's), marked with the shape function's ValueError `text` for op's `inputs`
    (their graph shapes in the message; a non-tensor counts as a scalar), or as it is when the
    shape function does not see the mistake (text None)."""
    from simdist.runtime.ops import trace_errors
    if text is None:
        return err
    shapes = [(static_shapes.known_shape(t) or []) if isinstance(t, Tensor) else [] for t in inputs]
    return trace_errors.mark_shape(err, text, op, shapes)


def diag_part(x: Any) -> str | None:
    """DiagPart's shape function: a known rank even and not 0, then dimension i merged with
    dimension i + rank/2 (Merge of two known dimensions that differ: "Dimensions must be equal")."""
    xs = static_shapes.known_shape(x)
    if xs is None:
        return None
    if len(xs) % 2 or not xs:
        return f"Input must have even and non-zero rank, input rank is {len(xs)}"
    k = len(xs) // 2
    for a, b in zip(xs[:k], xs[k:]):
        if a is not None and b is not None and a != b:
            return f"Dimensions must be equal, but are {a} and {b}"
    return None


def gather_v2(params: Any, indices: Any, axis: Any, batch_dims: int) -> str | None:
    """GatherV2's shape function: params of rank at least 1; with an axis the graph knows, params
    of rank at least axis + 1 (-axis for a negative one), indices of rank at least |batch_dims|,
    params of rank above batch_dims (made non-negative by the indices' rank)."""
    ps, ids = static_shapes.known_shape(params), static_shapes.known_shape(indices)
    if ps is not None and len(ps) < 1:
        return _rank_text("at least ", 1, 0)
    if isinstance(axis, Tensor) and not graph_constants.known(axis):
        return None
    ax = int(axis._v if isinstance(axis, Tensor) else axis)
    need = -ax if ax < 0 else ax + 1
    if ps is not None and len(ps) < need:
        return _rank_text("at least ", need, len(ps))
    if ids is not None and len(ids) < abs(batch_dims):
        return _rank_text("at least ", abs(batch_dims), len(ids))
    if batch_dims < 0:
        if ids is None:
            return None
        batch_dims += len(ids)
    if ps is not None and len(ps) < batch_dims + 1:
        return _rank_text("at least ", batch_dims + 1, len(ps))
    return None


def betainc(inputs: Sequence[Any]) -> str | None:
    """Betainc's shape function: the inputs of a known rank other than 0 merged in order (Merge:
    "Shapes must be equal rank", then "Dimension d in both shapes must be equal")."""
    from simdist.runtime.ops import trace_errors
    out: list[int | None] | None = None
    for t in inputs:
        s = static_shapes.known_shape(t)
        if s is None or not s:
            continue
        if out is None:
            out = list(s)
            continue
        if len(s) != len(out):
            return f"Shapes must be equal rank, but are {len(out)} and {len(s)}"
        if any(a is not None and b is not None and a != b for a, b in zip(out, s)):
            return trace_errors.merge_text(out, s)
        out = [a if a is not None else b for a, b in zip(out, s)]
    return None


def set_diag(x: Any, diagonal: Any, band: tuple[int, int] | None) -> str | None:
    """MatrixSetDiagV3's shape function (MatrixSetDiagV2Shape): input of rank at least 2, diagonal
    of rank at least 1; with the input's rank known, the diagonal's rank: rank - 1 for one known
    diagonal, rank for a known band (between the two for an unknown k); with the matrix's
    dimensions known, each band index nonzero within (-rows, cols)."""
    text = rank_at_least(x, 2) or rank_at_least(diagonal, 1)
    xs, ds = static_shapes.known_shape(x), static_shapes.known_shape(diagonal)
    if text is not None or xs is None:
        return text
    r = len(xs)
    if ds is not None:
        if band is not None and len(ds) != (r - 1 if band[0] == band[1] else r):
            return _rank_text("", r - 1 if band[0] == band[1] else r, len(ds))
        if band is None and len(ds) < r - 1:
            return _rank_text("at least ", r - 1, len(ds))
        if band is None and len(ds) > r:
            return _rank_text("at most ", r, len(ds))
    rows, cols = xs[-2], xs[-1]
    if band is not None and rows is not None and cols is not None:
        for which, i in (("lower", band[0]), ("upper", band[1])):
            if i != 0 and not -rows < i < cols:
                return f"{which}_diag_index is out of bound."
    return None


def reverse_sequence(x: Any, lengths: Any, seq_dim: int, batch_dim: int) -> str | None:
    """ReverseSequence's shape function: seq_lengths of rank 1, then with the input's rank known
    batch_dim and seq_dim below it, and the batch dimension merged with the lengths' size."""
    ls, xs = static_shapes.known_shape(lengths), static_shapes.known_shape(x)
    if ls is not None and len(ls) != 1:
        return _rank_text("", 1, len(ls))
    if xs is None:
        return None
    if batch_dim >= len(xs):
        return f"batch_dim must be < input rank: {batch_dim} vs. {len(xs)}"
    if seq_dim >= len(xs):
        return f"seq_dim must be < input rank: {seq_dim} vs. {len(xs)}"
    a, b = xs[batch_dim], (ls or [None])[0]
    if a is not None and b is not None and a != b:
        return f"Dimensions must be equal, but are {a} and {b}"
    return None
