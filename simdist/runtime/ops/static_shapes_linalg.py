"""The output shapes the linear-algebra ops' shape functions give inside a tf.function (clause ops.linalg-more):
tensorflow/core/ops/linalg_ops.cc's set_output calls, as unknown-dimension flags on simdist's traced outputs.

A dry run of a tf.function's Python on placeholders (an input_signature's None dimensions) computes the ops on
probe values, whose sizes are not the graph's; static_shapes marks the dimensions the graph does not know and the
ops' shape functions carry them. Without these a decomposition or solver kept the probe's sizes, so
`tf.linalg.cholesky(x).shape` under TensorSpec([None, None]) was [1, 1] where TF keeps [None, None] (usweep66's
u-linalg OPEN). Each function maps (inputs' flags, outputs, attrs) to the outputs' flags (True: unknown); a
dimension merged from several (InferenceContext::Merge) is unknown only where all of them are, a min
(InferenceContext::Min) unknown where either is and no known 0 decides it.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

__all__ = ["SINGLE", "MULTI"]

Flags = tuple[bool, ...]


def _merge(*flags: bool) -> bool:
    """InferenceContext::Merge of dimensions: unknown only when every one is."""
    return all(flags)


def _min(m: bool, n: bool, dm: int, dn: int) -> bool:
    """InferenceContext::Min: a known 0 decides it; else unknown when either is."""
    if (not m and dm == 0) or (not n and dn == 0):
        return False
    return m or n


def _square(fx: Flags) -> tuple[Flags, bool] | None:
    """MakeBatchSquareMatrix: (batch flags, the merged last dimension's flag), None below rank 2."""
    if len(fx) < 2:
        return None
    return fx[:-2], _merge(fx[-2], fx[-1])


def _batch_unchanged_square(fx: Sequence[Flags], dims: Sequence[list], attrs: dict) -> list[Flags | None]:
    """BatchUnchangedSquareShapeFn (Cholesky, MatrixInverse, MatrixExponential, MatrixLogarithm, MatrixSquareRoot):
    batch + [n, n], n merged from the last two."""
    sq = _square(fx[0])
    return [None] if sq is None else [sq[0] + (sq[1], sq[1])]


def _determinant(fx: Sequence[Flags], dims: Sequence[list], attrs: dict) -> list[Flags | None]:
    """MatrixDeterminant / LogMatrixDeterminant: the batch dimensions (each output)."""
    sq = _square(fx[0])
    return [None, None] if sq is None else [sq[0], sq[0]]


def _eig(fx: Sequence[Flags], dims: Sequence[list], attrs: dict) -> list[Flags | None]:
    """BatchSelfAdjointEigV2ShapeFn (and Eig's): e batch + [n], v batch + [n, n] ([0] without compute_v)."""
    sq = _square(fx[0])
    if sq is None:
        return [None, None]
    b, n = sq
    return [b + (n,), b + (n, n) if attrs.get("compute_v", True) else (False,)]


def _lu(fx: Sequence[Flags], dims: Sequence[list], attrs: dict) -> list[Flags | None]:
    """LuShapeFn: lu batch + [n, n], p batch + [n]."""
    sq = _square(fx[0])
    return [None, None] if sq is None else [sq[0] + (sq[1], sq[1]), sq[0] + (sq[1],)]


def _svd(fx: Sequence[Flags], dims: Sequence[list], attrs: dict) -> list[Flags | None]:
    """BatchSvdShapeHelperFn: s batch + [p], p = min(m, n); u batch + [m, m] or [m, p], v batch + [n, n] or [n, p]
    (full_matrices); [0] each without compute_uv."""
    f = fx[0]
    if len(f) < 2:
        return [None, None, None]
    b, m, n = f[:-2], f[-2], f[-1]
    p = _min(m, n, dims[0][-2], dims[0][-1])
    if not attrs.get("compute_uv", True):
        return [b + (p,), (False,), (False,)]
    if attrs.get("full_matrices"):
        return [b + (p,), b + (m, m), b + (n, n)]
    return [b + (p,), b + (m, p), b + (n, p)]


def _solve(fx: Sequence[Flags], dims: Sequence[list], attrs: dict, square: bool = True) -> list[Flags | None]:
    """MatrixSolveShapeFn: batch merged from both, n merged from lhs's rows, rhs's rows (and lhs's columns when
    square), then rhs's columns: batch + [n, k]."""
    a, b = fx[0], fx[1]
    if len(a) < 2 or len(b) < 2 or len(a) != len(b):
        return [None]
    batch = tuple(_merge(x, y) for x, y in zip(a[:-2], b[:-2]))
    n = _merge(a[-2], b[-2], a[-1]) if square else a[-1]
    return [batch + (n, b[-1])]


def _solve_ls(fx: Sequence[Flags], dims: Sequence[list], attrs: dict) -> list[Flags | None]:
    """MatrixSolveLs: MatrixSolveShapeFn(square=false), n lhs's columns."""
    return _solve(fx, dims, attrs, square=False)


def _triangular_solve(fx: Sequence[Flags], dims: Sequence[list], attrs: dict) -> list[Flags | None]:
    """MatrixTriangularSolveShapeFn: the batch shapes broadcast (an unknown dimension against a known 1 unknown,
    against a known d > 1 d), then rhs's rows merged with lhs's square dimension, rhs's columns."""
    a, b = fx[0], fx[1]
    if len(a) < 2 or len(b) < 2:
        return [None]
    da, db = dims[0], dims[1]
    n = max(len(a), len(b)) - 2
    ba = [(1, False)] * (n - (len(a) - 2)) + list(zip(da[:-2], a[:-2]))
    bb = [(1, False)] * (n - (len(b) - 2)) + list(zip(db[:-2], b[:-2]))
    batch = []
    for (x, ux), (y, uy) in zip(ba, bb):
        batch.append((ux and uy) or (ux and y == 1) or (uy and x == 1))
    return [tuple(batch) + (_merge(a[-2], a[-1], b[-2]), b[-1])]


def _tensor_diag_part(fx: Sequence[Flags], dims: Sequence[list], attrs: dict) -> list[Flags | None]:
    """DiagPart: rank / 2 dimensions, the i-th merged from dimensions i and i + rank / 2."""
    f = fx[0]
    if len(f) % 2:
        return [None]
    h = len(f) // 2
    return [tuple(_merge(f[i], f[i + h]) for i in range(h))]


Fn = Callable[[Sequence[Flags], Sequence[list], dict], "list[Flags | None]"]

#: single-output ops -> their shape functions
SINGLE: dict[str, Fn] = {
    "Cholesky": _batch_unchanged_square, "MatrixInverse": _batch_unchanged_square,
    "MatrixExponential": _batch_unchanged_square, "MatrixLogarithm": _batch_unchanged_square,
    "MatrixSquareRoot": _batch_unchanged_square, "MatrixDeterminant": _determinant, "MatrixSolve": _solve,
    "MatrixSolveLs": _solve_ls, "MatrixTriangularSolve": _triangular_solve, "DiagPart": _tensor_diag_part,
}

#: multi-output ops -> their shape functions
MULTI: dict[str, Fn] = {"LogMatrixDeterminant": _determinant, "SelfAdjointEigV2": _eig, "Eig": _eig, "Lu": _lu,
                        "Svd": _svd}

