"""TF's shape functions as checks on the shapes a traced graph knows (clause function.trace-time-errors).

When a tf.function adds an op to its graph, TF runs the op's shape function
(tensorflow/core/ops/*.cc, through shape_inference::InferenceContext) on the inputs' static
shapes; a failed check is a ValueError at trace time ("Shape must be rank 2 but is rank 0 for
'{{node ...}}' with input shapes: [], [3]."), whatever the kernel would say eagerly. An unknown
dimension or rank passes every check (InferenceContext merges it with anything). `shape_fn`
builds an OpDef.trace_shape from InferenceContext's steps, in the shape function's order:

- ("rank", i, r): c->WithRank(input i, r) — "Shape must be rank r but is rank n"
- ("rank>=", i, r): c->WithRankAtLeast(input i, r) — "Shape must be at least rank r but is rank n"
- ("dim", i, axis, v): c->WithValue(c->Dim(input i, axis), v) — "Dimension must be v but is d"
- ("merge", i, a, j, b): c->Merge(c->Dim(input i, a), c->Dim(input j, b)) — "Dimensions must be
  equal, but are d and e"
- ("fn", f): f(shapes, attrs) -> message or None, for a check of the op's own
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

__all__ = ["shape_fn", "dim", "check", "merge_matrix", "sparse_tensor"]

Shape = Sequence[Any] | None


def dim(shape: Shape, axis: int) -> int | None:
    """c->Dim(shape, axis): the dimension's value, None when it (or the rank) is unknown or the
    axis lies outside a known rank (a check on the rank comes first in every shape function)."""
    if shape is None or not -len(shape) <= axis < len(shape):
        return None
    return shape[axis]


def _rank(shapes: Sequence[Shape], i: int, r: int) -> str | None:
    s = shapes[i]
    return None if s is None or len(s) == r else f"Shape must be rank {r} but is rank {len(s)}"


def _rank_at_least(shapes: Sequence[Shape], i: int, r: int) -> str | None:
    s = shapes[i]
    return None if s is None or len(s) >= r else f"Shape must be at least rank {r} but is rank {len(s)}"


def _value(shapes: Sequence[Shape], i: int, axis: int, v: int) -> str | None:
    d = dim(shapes[i], axis)
    return None if d is None or d == v else f"Dimension must be {v} but is {d}"


def _merge(shapes: Sequence[Shape], i: int, a: int, j: int, b: int) -> str | None:
    d, e = dim(shapes[i], a), dim(shapes[j], b)
    return None if d is None or e is None or d == e else f"Dimensions must be equal, but are {d} and {e}"


_STEPS: dict[str, Callable[..., str | None]] = {"rank": _rank, "rank>=": _rank_at_least, "dim": _value,
                                                "merge": _merge}


def shape_fn(*steps: tuple) -> Callable[[list[Shape], dict | None], str | None]:
    """An OpDef.trace_shape running `steps` (see the module's docstring) in order: the first
    failed step's message, or None."""
    def check(shapes: list[Shape], attrs: dict | None) -> str | None:
        for step in steps:
            if step[0] == "fn":
                msg = step[1](shapes, attrs)
            elif step[1] >= len(shapes):
                continue
            else:
                msg = _STEPS[step[0]](shapes, *step[1:])
            if msg is not None:
                return msg
        return None
    return check


def merge_matrix(shape: Shape, rows: int, cols: int) -> str | None:
    """c->Merge(shape, c->Matrix(rows, cols)): a known rank other than 2, or a known dimension
    other than the matrix's, is InferenceContext::Merge's error."""
    if shape is None:
        return None
    if len(shape) != 2:
        return f"Shape must be rank 2 but is rank {len(shape)}"
    for d, (a, b) in enumerate(zip(shape, (rows, cols))):
        if a is not None and a != b:
            got = ",".join("?" if x is None else str(x) for x in shape)
            return f"Dimension {d} in both shapes must be equal, but are {a} and {b}. Shapes are [{got}] and [{rows},{cols}]."
    return None


def sparse_tensor(indices: int, values: int, shape: int) -> tuple:
    """shape_inference::ValidateSparseTensor (common_shape_fns.cc) as steps: indices a matrix,
    values and shape vectors, as many values as indices rows, as many shape entries as index
    columns."""
    return (("rank", indices, 2), ("rank", values, 1), ("rank", shape, 1), ("merge", indices, 0, values, 0),
            ("merge", indices, 1, shape, 0))


def check(name: str, trace_shape: Callable[[list[Shape], dict | None], str | None], shapes: list[Shape],
          attrs: dict | None = None) -> None:
    """Inside a tf.function, raise op `name`'s shape-function error (trace_errors.shape_error:
    TF's ValueError at trace) when `trace_shape` fails on `shapes` (each as the graph knows it);
    nothing eagerly. dispatch runs it with OpDef.trace_shape before every op that has one; a
    wrapper whose own Python checks come before the op calls it first with the shapes of the
    op's inputs (SpaceToBatchND, whose block_shape and paddings simdist holds as attributes)."""
    from simdist.runtime import context
    if not context.in_function():
        return
    text = trace_shape(shapes, attrs)
    if text is not None:
        from simdist.runtime.ops import trace_errors
        raise trace_errors.shape_error(f"{text} [Op:{name}]", text, name, shapes)
