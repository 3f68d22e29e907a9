"""tf.linalg.expm: TF 2.21's linalg_impl.matrix_exponential, composed of the same ops in the same
order (Padé approximants of degree 3, 5, 7 (float16/float32) or 3, 5, 7, 9, 13 (float64) picked
by each matrix's 1-norm, scaling by 2^s, MatrixSolve, then s squarings), so its values, dtypes and
gradients are those ops'. A non-finite 1-norm anywhere in the batch gives NaN for every matrix
(TF's tf.cond on the batch's max norm); other dtypes are ValueError; an empty [0, 0] input is
returned as is.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes
from simdist.runtime.ops.args import t as _t
from simdist.runtime.tensor import Tensor

__all__ = ["expm"]

_PADE = {
    3: [120.0, 60.0, 12.0],
    5: [30240.0, 15120.0, 3360.0, 420.0, 30.0],
    7: [17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0],
    9: [17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0, 2162160.0, 110880.0, 3960.0, 90.0],
    13: [64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
         10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0],
}


def _pade(m: Tensor, degree: int) -> tuple[Tensor, Tensor]:
    from simdist.runtime.ops.array import constant
    from simdist.runtime.ops.generators import eye
    from simdist.runtime.ops.linalg import matmul
    b = [constant(x, dtype=m.dtype) for x in _PADE[degree]]
    shp = m.shape.as_list()
    ident = eye(shp[-2], batch_shape=shp[:-2], dtype=m.dtype)
    m2 = matmul(m, m)
    if degree == 3:
        return matmul(m, m2 + b[1] * ident), b[2] * m2 + b[0] * ident
    m4 = matmul(m2, m2)
    if degree == 5:
        tmp = m4 + b[3] * m2 + b[1] * ident
        return matmul(m, tmp), b[4] * m4 + b[2] * m2 + b[0] * ident
    m6 = matmul(m4, m2)
    if degree == 7:
        tmp = m6 + b[5] * m4 + b[3] * m2 + b[1] * ident
        return matmul(m, tmp), b[6] * m6 + b[4] * m4 + b[2] * m2 + b[0] * ident
    if degree == 9:
        m8 = matmul(m6, m2)
        tmp = m8 + b[7] * m6 + b[5] * m4 + b[3] * m2 + b[1] * ident
        return matmul(m, tmp), b[8] * m8 + b[6] * m6 + b[4] * m4 + b[2] * m2 + b[0] * ident
    tmp_u = matmul(m6, m6 + b[11] * m4 + b[9] * m2) + b[7] * m6 + b[5] * m4 + b[3] * m2 + b[1] * ident
    tmp_v = b[12] * m6 + b[10] * m4 + b[8] * m2
    return matmul(m, tmp_u), matmul(m6, tmp_v) + b[6] * m6 + b[4] * m4 + b[2] * m2 + b[0] * ident


def _nest_where(l1: Tensor, vals: list, cases: list) -> Tensor:
    """TF's _nest_where: cases[0] where l1 < vals[0], else the same over the rest (a module
    function, not a self-calling closure: no reference cycle per call)."""
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import constant
    cond = math.less(l1, constant(vals[0], dtype=l1.dtype))
    if len(vals) == 1:
        return math.where(cond, cases[0], cases[1])
    return math.where(cond, cases[0], _nest_where(l1, vals[1:], cases[1:]))


def expm(input: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.linalg.expm`: the matrix exponential of each innermost square matrix, its ops inside the name scope
    `matrix_exponential` as linalg_impl builds them (`ops.name_scope(name, 'matrix_exponential', [input])`): inside
    a tf.function the node names, by which Grappler's arithmetic optimizer orders a product's or a sum's inputs, do
    not depend on the ops built before it (fz63: fz61's open traced float32 expm, fz61gen seeds 63301 #5, 63302 #7;
    with a hamming_window before it simdist's unscoped `mul_<n>` names re-sorted expm's products)."""
    from simdist.runtime import name_scopes
    with name_scopes.name_scope(name or "matrix_exponential"):
        return _expm(input)


def _expm(input: Any) -> Tensor:  # noqa: A002
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import constant, fill, reshape
    from simdist.runtime.ops.linalg import matmul
    from simdist.runtime.ops.linalg_more import solve
    from simdist.runtime.ops.unary import abs_, floor, is_finite, log
    matrix = _t(input)
    shp = matrix.shape.as_list()
    if shp[-2:] == [0, 0]:
        return matrix
    batch = shp[:-2]
    from simdist.runtime.ops import static_shapes
    known = static_shapes.known_shape(matrix)
    if context.in_function() and known is not None and len(known) == 1:
        # (linalg_impl.matrix_exponential reshapes to concat([-1], shape(matrix)[-2:]): building the
        # graph, shape inference's partial evaluation of that strided slice of a Shape is
        # InferenceContext::Subshape's error for a vector, before Abs checks the dtype; a scalar
        # reaches Max's shape function instead; fz14 seed 14 #361)
        raise ValueError("Subshape start out of bounds: -2, for shape with rank 1")
    flags = static_shapes.unknown(matrix)
    matrix = reshape(matrix, [-1] + shp[-2:])
    if flags is not None and not static_shapes.rank_unknown(matrix):
        # (the reshape's target is concat([-1], shape(matrix)[-2:]): the graph knows the matrix dimensions it knew,
        # and the batch where it knew every dimension, so a [None, None] spec's [1, 4] input is BatchMatMulV2's
        # run-time InvalidArgumentError, not a shape function's ValueError at trace; fz39b, fourteenth generator
        # seed 1420393003 #10)
        matrix = static_shapes.mark(matrix, (any(flags), flags[-2], flags[-1]))
    l1 = math.reduce_max(math.reduce_sum(abs_(matrix), axis=1), axis=-1)
    l1 = reshape(l1, l1.shape.as_list() + [1, 1])

    def const(x: float) -> Tensor:
        return constant(x, dtype=l1.dtype)

    if matrix.dtype in (dtypes.float16, dtypes.float32, dtypes.complex64):
        maxnorm, degrees = 3.925724783138660, (3, 5, 7)
        conds = [4.258730016922831e-001, 1.880152677804762e+000]
    elif matrix.dtype in (dtypes.float64, dtypes.complex128):
        maxnorm, degrees = 5.371920351148152, (3, 5, 7, 9, 13)
        conds = [1.495585217958292e-002, 2.539398330063230e-001, 9.504178996162932e-001, 2.097847961257068e+000]
    else:
        raise ValueError(f"tf.linalg.expm does not support matrices of type {matrix.dtype!r}")
    squarings = math.maximum(floor(log(l1 / const(maxnorm)) / log(const(2.0))), 0)
    pairs = [_pade(matrix, d) for d in degrees[:-1]]
    pairs.append(_pade(matrix / math.cast(math.pow_(const(2.0), squarings), matrix.dtype), degrees[-1]))
    u = _nest_where(l1, conds, [p[0] for p in pairs])
    v = _nest_where(l1, conds, [p[1] for p in pairs])
    finite = bool(np.asarray(is_finite(math.reduce_max(l1)).numpy()))
    if finite:
        result = solve(-u + v, u + v)
    else:
        result = fill(matrix.shape.as_list(), constant(np.nan, dtype=matrix.dtype))
    max_squarings = math.reduce_max(squarings)
    i = const(0.0)
    while finite and bool(np.asarray(math.less(i, max_squarings).numpy())):
        result = math.where(math.less(i, squarings), matmul(result, result), result)
        i = i + 1
    out = reshape(result, batch + result.shape.as_list()[-2:])
    if flags is not None and len(flags) == out.ndim:
        # (linalg_impl reshapes the result to concat((batch_shape, shape(result)[-2:])) when the graph does not know
        # every dimension: each dimension unknown where the input's is (observed on TF 2.21 for [None, None],
        # [None, 3], [3, None], [2, 3, None], [None, None, 3], [0, None]: the squaring loop's result does not merge
        # the two); a dry run's probe sizes are not the graph's: fix66s)
        out = static_shapes.mark(out, tuple(flags))
    return out
