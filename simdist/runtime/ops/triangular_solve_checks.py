"""MatrixTriangularSolve's shape checks (clause function.trace-time-errors): the kernel's, eagerly,
and its shape function's, while a graph is built.

TF 2.21, observed (fz38b, fourteenth generator seed 1420383001 #165: lu_solve's triangular solve of
a [1, 1] factor and a gathered [2, 1] rhs is the shape function's ValueError at trace). The kernel
(matrix_triangular_solve_op_impl.h): ValidateInputTensors' "In[0] ndims must be >= 2: 1", "In[1]
ndims must be >= 2: 1" and "In[0] matrices in the last dimensions must be square (3 =/= 2)", then
Compute's MatMulBCast ("In[0] and In[1] must have compatible batch dimensions: [2,3,3] vs.
[3,3,1]") and the inner sizes ("In[0] mismatch In[1] shape: 1 vs. 2: [1,1] [2,1] 1 0", the lower
and adjoint attrs as ints). The shape function (MatrixTriangularSolveShapeFn): the matrix's rank
and MakeBatchSquareMatrix's Merge of its rows into its columns, the rhs's rank ("Shape must be at
least rank 2 but is rank 1"), the batch dimensions broadcast, then the matrix's columns merged with
the rhs's rows ("Dimensions must be equal, but are 1 and 2"), on the shapes the graph knows."""

from __future__ import annotations

from typing import Sequence

from simdist.runtime import errors
from simdist.runtime.ops import args, static_shapes, trace_errors
from simdist.runtime.tensor import Tensor

__all__ = ["check"]

_OP = "MatrixTriangularSolve"


def _kernel_text(sa: Sequence[int], sb: Sequence[int], lower: bool, adjoint: bool) -> str | None:
    """The kernel's first refusal of the shapes, None when it computes."""
    for k, s in enumerate((sa, sb)):
        if len(s) < 2:
            return f"In[{k}] ndims must be >= 2: {len(s)}"
    if sa[-1] != sa[-2]:
        return f"In[0] matrices in the last dimensions must be square ({sa[-1]} =/= {sa[-2]})"
    if _batch_clash(sa[:-2], sb[:-2]) is not None:
        return f"In[0] and In[1] must have compatible batch dimensions: {args.dims(sa)} vs. {args.dims(sb)}"
    if sa[-1] != sb[-2]:
        return (f"In[0] mismatch In[1] shape: {sa[-1]} vs. {sb[-2]}: {args.dims(sa)} {args.dims(sb)} "
                f"{int(bool(lower))} {int(bool(adjoint))}")
    return None


def _batch_clash(a: Sequence[int | None], b: Sequence[int | None]) -> tuple[int, int] | None:
    """The first pair of batch dimensions (aligned from the right) that do not broadcast."""
    for x, y in zip(reversed(a), reversed(b)):
        if x is not None and y is not None and x != y and x != 1 and y != 1:
            return x, y
    return None


def _shape_fn_text(ka: Sequence[int | None] | None, kb: Sequence[int | None] | None) -> str | None:
    """The shape function's first refusal of the shapes the graph knows, None when it passes."""
    for k in (ka, kb):
        if k is not None and len(k) < 2:
            return f"Shape must be at least rank 2 but is rank {len(k)}"
        if k is ka and k is not None and k[-2] is not None and k[-1] is not None and k[-2] != k[-1]:
            return f"Dimensions must be equal, but are {k[-2]} and {k[-1]}"
    if ka is None or kb is None:
        return None
    clash = _batch_clash(ka[:-2], kb[:-2])
    if clash is not None:
        return f"Dimensions must be equal, but are {clash[0]} and {clash[1]}"
    if ka[-1] is not None and kb[-2] is not None and ka[-1] != kb[-2]:
        return f"Dimensions must be equal, but are {ka[-1]} and {kb[-2]}"
    return None


def check(a: Tensor, b: Tensor, lower: bool, adjoint: bool) -> None:
    """Raise the kernel's InvalidArgumentError for shapes it refuses, marked with the shape
    function's ValueError where the graph's known shapes already fail it (else, in a graph, the
    kernel's error when it runs)."""
    sa, sb = a.shape.as_list(), b.shape.as_list()
    eager = _kernel_text(sa, sb, lower, adjoint)
    ka, kb = static_shapes.known_shape(a), static_shapes.known_shape(b)
    traced = _shape_fn_text(ka, kb)
    if eager is None and traced is None:
        return
    if traced is None:
        raise errors.InvalidArgumentError(None, None, f"{eager} [Op:{_OP}]")
    raise trace_errors.shape_error(f"{eager or traced} [Op:{_OP}]", traced, _OP, (ka, kb))
