"""tf.linalg.tridiagonal_matmul (TF's TridiagonalMatMul op): a tridiagonal matrix, given by its
three diagonals, times rhs; linalg_impl.py reads the diagonals in the "compact" ([..., 3, M]:
superdiagonal, main, subdiagonal), "sequence" or "matrix" format and passes each as [..., 1, M].

Observed on TF 2.21: out[i] = super[i]·rhs[i + 1] + main[i]·rhs[i] + sub[i]·rhs[i − 1] (the last
superdiagonal and the first subdiagonal element are not read); the op lists float, double and
complex (half, bfloat16, integers: InvalidArgumentError). The gradient is linalg_grad.py's
_TridiagonalMatMulGrad (shifted products, written with the public ops).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import errors
from simdist.runtime.ops import dispatch, infer_ctx, linalg_inputs
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.nn_rules import typed
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["tridiagonal_matmul"]


def _matmul(sup: np.ndarray, main: np.ndarray, sub: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """LinearAlgebraOp's AnalyzeInputs (every input of superdiag's rank >= 2 and its outer
    dimensions: a scalar rhs is "All input tensors must have the same rank."; fz26b, fz14 seed
    1420262601 #37), then ValidateInputMatrixShapes (tridiagonal_matmul_op.cc: each diagonal
    [1, M] for an [M, N] rhs), then the product."""
    linalg_inputs.analyze("TridiagonalMatMul", (sup, main, sub, rhs), "single")
    m = rhs.shape[-2]
    for name, d in (("superdiagonal", sup), ("main diagonal", main), ("subdiagonal", sub)):
        if d.shape[-1] != m or d.shape[-2] != 1:
            raise errors.InvalidArgumentError(None, None, f"Invalid {name} shape. [Op:TridiagonalMatMul]")
    s, a, b = (np.swapaxes(d, -1, -2) for d in (sup, main, sub))   # [..., M, 1]
    out = _times(rhs, a)
    if m > 1:
        with np.errstate(invalid="ignore", over="ignore"):
            out[..., :-1, :] += _times(rhs[..., 1:, :], s[..., :-1, :])
            out[..., 1:, :] += _times(rhs[..., :-1, :], b[..., 1:, :])
    return out


def _times(rhs: np.ndarray, d: np.ndarray) -> np.ndarray:
    """rhs.array().colwise() * diagonal (tridiagonal_matmul_op.cc): complex products std::complex's operator* on
    every element, Annex G's recovery included (Eigen does not vectorize the replicated column: (nan - inf j) *
    0.75j is inf + nan j; fz36a, function seed 3620261210 #143), real ones IEEE."""
    if rhs.dtype.kind != "c":
        return rhs * d
    from simdist.runtime.ops import complex_mul
    return complex_mul.multiply(rhs, d, packets=False)


TRIDIAGONAL_MATMUL = register("TridiagonalMatMul", _matmul,
                              typed("TridiagonalMatMul", "double, float, complex64, complex128"),
                              lambda a, out, at: 5.0 * out.size, kind="contraction",
                              fusion=lanes("a product per matrix of the batch: no stacked form written"))
# (its shape function at trace: a scalar rhs is "Shape must be at least rank 2 but is rank 0")
TRIDIAGONAL_MATMUL.trace_shape = infer_ctx.trace_shape("TridiagonalMatMul")


def _shift(x: Any, left: bool) -> Any:
    from simdist.runtime.ops.slicing import pad
    rank = x.ndim
    pads = [[0, 0]] * (rank - 2) + ([[0, 1], [0, 0]] if left else [[1, 0], [0, 0]])
    return pad(x[..., 1:, :] if left else x[..., :-1, :], pads)


@RegisterGradient("TridiagonalMatMul")
def _tridiagonal_matmul_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import complex_math, math
    from simdist.runtime.ops.array import expand_dims
    from simdist.runtime.ops.linalg import matrix_transpose
    # (linalg_grad._TridiagonalMatMulGrad: the diagonals' adjoints and rhs conjugated, so a complex product's
    # gradients are TF's; fz35a, tape seed 3520261206 #148)
    sup_t, main_t, sub_t = (matrix_transpose(op.inputs[i], conjugate=True) for i in range(3))
    rhs = complex_math.conj(op.inputs[3])
    sup_g = math.reduce_sum(_shift(rhs, True) * grad, axis=-1)
    main_g = math.reduce_sum(rhs * grad, axis=-1)
    sub_g = math.reduce_sum(_shift(rhs, False) * grad, axis=-1)
    rhs_g = _shift(sup_t * grad, False) + main_t * grad + _shift(sub_t * grad, True)
    return [expand_dims(sup_g, -2), expand_dims(main_g, -2), expand_dims(sub_g, -2), rhs_g]


def tridiagonal_matmul(diagonals: Any, rhs: Any, diagonals_format: str = "compact",
                       name: str | None = None) -> Tensor:
    """`tf.linalg.tridiagonal_matmul`: the tridiagonal matrix of `diagonals` times rhs."""
    from simdist.runtime.ops.array import expand_dims
    if diagonals_format == "compact":
        if isinstance(diagonals, Tensor) or hasattr(diagonals, "_as_tensor"):
            d = _t(diagonals)
            sup, main, sub = d[..., 0, :], d[..., 1, :], d[..., 2, :]
        else:
            # linalg_impl indexes the value as given: Python's own error for a list ("list indices
            # must be integers or slices, not tuple") or a number ("'float' object is not
            # subscriptable"), NumPy's for an array (fz14 seed 1420261202 #54)
            sup, main, sub = (_t(diagonals[..., i, :]) for i in range(3))
    elif diagonals_format == "sequence":
        sup, main, sub = (_t(x) for x in diagonals)
    elif diagonals_format == "matrix":
        from simdist.runtime.ops.diag import diag_part
        d = _t(diagonals)
        m1, m2 = d.shape.as_list()[-1], d.shape.as_list()[-2]
        if m1 and m2 and m1 != m2:
            raise ValueError(f"Expected last two dimensions of diagonals to be same, got {m1} and {m2}")
        diags = diag_part(d, k=(-1, 1), padding_value=0.0, align="LEFT_RIGHT")
        sup, main, sub = diags[..., 0, :], diags[..., 1, :], diags[..., 2, :]
    else:
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    # (the op takes its type from its first input: a rhs that is not a tensor is converted to it)
    r = rhs if isinstance(rhs, Tensor) or hasattr(rhs, "value") else convert_to_tensor(rhs, dtype=sup.dtype)
    r = _t(r)
    ins = (expand_dims(sup, -2), expand_dims(main, -2), expand_dims(sub, -2), r)
    TRIDIAGONAL_MATMUL.dtype(tuple(x.dtype for x in ins), None)
    return dispatch.execute(TRIDIAGONAL_MATMUL, ins)
