"""tf.linalg.tridiagonal_solve (TF's TridiagonalSolve op): x with T x = rhs for the tridiagonal T
given by its three diagonals, as TF 2.21's CPU kernel computes it (tridiagonal_solve_op.cc):

- partial_pivoting (default): Gaussian elimination with row interchanges (LAPACK dgtsv's order);
  a zero pivot fills that matrix's result with NaN (TF logs a warning, raises nothing);
- without pivoting: the Thomas algorithm, NaN on a zero pivot;
- perturb_singular: LAPACK xLAGTF + xLAGTS, tiny pivots perturbed by about eps·max|U| (a finite
  result for a singular matrix).

The kernel's loops are transcribed step by step (same operations, same order, in the input's
dtype); the gradient is linalg_grad.py's _TridiagonalSolveGrad (a solve with the transposed
diagonals, then three diagonals of −grad_rhs·xᵀ), written with the public ops.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.attr_rules import make_bool as _make_bool   # (the wrappers' make_bool: ops.attr-types)
from simdist.runtime.ops.nn_rules import typed
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["tridiagonal_solve"]


def _nan(x: np.ndarray) -> None:
    x[...] = np.nan


def _thomas(sup: np.ndarray, d: np.ndarray, sub: np.ndarray, rhs: np.ndarray, x: np.ndarray) -> None:
    n = d.shape[0]
    zero = d.dtype.type(0)
    u = np.empty(n, d.dtype)
    if d[0] == zero:
        return _nan(x)
    u[0] = sup[0] / d[0]
    x[0] = rhs[0] / d[0]
    for i in range(1, n):
        denom = d[i] - sub[i] * u[i - 1]
        if denom == zero:
            return _nan(x)
        u[i] = sup[i] / denom
        x[i] = (rhs[i] - sub[i] * x[i - 1]) / denom
    for i in range(n - 2, -1, -1):
        x[i] -= u[i] * x[i + 1]
    return None


def _pivoting(sup: np.ndarray, d: np.ndarray, sub: np.ndarray, rhs: np.ndarray, x: np.ndarray) -> None:
    n = d.shape[0]
    zero = d.dtype.type(0)
    u = np.zeros((n, 3), d.dtype)
    u[0, 0], u[0, 1] = d[0], sup[0]
    x[0] = rhs[0]
    for i in range(n - 1):
        if abs(u[i, 0]) >= abs(sub[i + 1]):        # no row interchange
            if u[i, 0] == zero:
                return _nan(x)
            factor = sub[i + 1] / u[i, 0]
            u[i + 1, 0] = d[i + 1] - factor * u[i, 1]
            x[i + 1] = rhs[i + 1] - factor * x[i]
            if i != n - 2:
                u[i + 1, 1] = sup[i + 1]
                u[i, 2] = zero
        else:                                        # interchange rows i and i + 1
            factor = u[i, 0] / sub[i + 1]
            u[i, 0] = sub[i + 1]
            u[i + 1, 0] = u[i, 1] - factor * d[i + 1]
            u[i, 1] = d[i + 1]
            x[i + 1] = x[i] - factor * rhs[i + 1]
            x[i] = rhs[i + 1]
            if i != n - 2:
                u[i, 2] = sup[i + 1]
                u[i + 1, 1] = -factor * sup[i + 1]
    if u[n - 1, 0] == zero:
        return _nan(x)
    x[n - 1] /= u[n - 1, 0]
    x[n - 2] = (x[n - 2] - u[n - 2, 1] * x[n - 1]) / u[n - 2, 0]
    for i in range(n - 3, -1, -1):
        x[i] = (x[i] - u[i, 1] * x[i + 1] - u[i, 2] * x[i + 2]) / u[i, 0]
    return None


def _perturb_pivot(perturb: Any, pivot: Any, row: np.ndarray) -> tuple[Any, np.ndarray]:
    """TF's MaybePerturbPivot (from LAPACK xLAGTS): (pivot, row) such that neither row / pivot
    nor 1 / pivot overflows. `perturb`, the bounds and |pivot| are real (RealScalar), the
    perturbation takes the sign of the pivot's real part."""
    ty = row.dtype.type
    rt = np.finfo(row.dtype).dtype.type               # the real type (complex64: float32)
    one = rt(1)
    safemin = rt(np.finfo(row.dtype).tiny)        # 1 / max < tiny for IEEE types: xLAMCH's sfmin
    bignum = one / safemin
    abs_pivot = abs(pivot)
    if abs_pivot >= one:
        return pivot, row
    perturb = max(rt(abs(perturb)), safemin)
    perturb = rt(np.copysign(perturb, np.real(pivot)))
    max_factor = np.abs(row).max() if row.size else rt(0)
    stop = False
    while abs_pivot < one and not stop:
        if abs_pivot < safemin:
            if abs_pivot == 0 or max_factor * safemin > abs_pivot:
                pivot = ty(pivot + perturb)
                perturb = rt(perturb * 2)
            else:
                pivot = ty(pivot * bignum)
                row = row * bignum
                stop = True
        elif max_factor > abs_pivot * bignum:
            pivot = ty(pivot + perturb)
            perturb = rt(perturb * 2)
        else:
            stop = True
        abs_pivot = abs(pivot)
    return pivot, row


def _reciprocal(denom: Any) -> Any:
    """`Scalar(1) / denom` of the perturbed solve: a complex one is std::complex's operator/ (libgcc's Smith
    with Annex G), so 1 / (NaN + inf j) is 0 - 0j where NumPy's quotient is NaN (fz40, twentieth generator
    tape seed 4020261205 #122)."""
    ty = type(denom)
    if np.iscomplexobj(denom):
        from simdist.runtime.ops.complex_div import quotient
        return quotient(np.asarray(ty(1)), np.asarray(denom), packet=False)[()]
    return ty(1) / denom


def _perturbed(sup: np.ndarray, d: np.ndarray, sub: np.ndarray, rhs: np.ndarray, x: np.ndarray) -> None:
    ty = d.dtype.type
    n = d.shape[0]
    zero, one = ty(0), ty(1)
    eps = np.finfo(d.dtype).eps                   # RealScalar (complex: its real type's)
    if n == 1:
        denom = d[0]
        denom, row = _perturb_pivot(eps * abs(denom), denom, rhs[0].copy())
        x[0] = row * _reciprocal(denom)
        return
    u = np.zeros((n, 3), d.dtype)
    u[0, 0], u[0, 1] = d[0], sup[0]
    max_abs_u = max(abs(u[0, 0]), abs(u[0, 1]))
    scale1 = abs(u[0, 0]) + abs(u[0, 1])
    x[0] = rhs[0]
    for k in range(n - 1):
        u[k + 1, 0] = d[k + 1]
        scale2 = abs(sub[k + 1]) + abs(u[k + 1, 0])
        if k < n - 2:
            scale2 += abs(sup[k + 1])
        if sub[k + 1] == zero:
            scale1 = scale2
            u[k + 1, 1] = sup[k + 1]
            u[k, 2] = zero
            x[k + 1] = rhs[k + 1]
        else:
            piv1 = zero if u[k, 0] == zero else abs(u[k, 0]) / scale1
            piv2 = abs(sub[k + 1]) / scale2
            if piv2 <= piv1:
                scale1 = scale2
                factor = sub[k + 1] / u[k, 0]
                u[k + 1, 0] = d[k + 1] - factor * u[k, 1]
                u[k + 1, 1] = sup[k + 1]
                u[k, 2] = zero
                x[k + 1] = rhs[k + 1] - factor * x[k]
            else:
                factor = u[k, 0] / sub[k + 1]
                u[k, 0] = sub[k + 1]
                u[k + 1, 0] = u[k, 1] - factor * d[k + 1]
                u[k, 1] = d[k + 1]
                if k < n - 2:
                    u[k, 2] = sup[k + 1]
                    u[k + 1, 1] = -factor * sup[k + 1]
                x[k + 1] = x[k] - factor * rhs[k + 1]
                x[k] = rhs[k + 1]
        if k < n - 2:
            max_abs_u = max(max_abs_u, abs(u[k, 0]), abs(u[k, 1]), abs(u[k, 2]))
    max_abs_u = max(max_abs_u, abs(u[n - 1, 0]))
    tol = eps * max_abs_u
    denom, row = _perturb_pivot(tol, u[n - 1, 0], x[n - 1].copy())
    x[n - 1] = row * _reciprocal(denom)
    denom = u[n - 2, 0]
    denom, row = _perturb_pivot(np.copysign(tol, np.real(denom)), denom, x[n - 2] - u[n - 2, 1] * x[n - 1])
    x[n - 2] = row * _reciprocal(denom)
    for k in range(n - 3, -1, -1):
        row = x[k] - u[k, 1] * x[k + 1] - u[k, 2] * x[k + 2]
        denom = u[k, 0]
        denom, row = _perturb_pivot(np.copysign(tol, np.real(denom)), denom, row)
        x[k] = row * _reciprocal(denom)


def _solve_one(diags: np.ndarray, rhs: np.ndarray, pivoting: bool, perturb: bool) -> np.ndarray:
    sup, d, sub = diags[0], diags[1], diags[2]
    n = d.shape[0]
    x = np.zeros(rhs.shape, rhs.dtype)
    if n == 0:
        return x
    if pivoting and perturb:
        _perturbed(sup, d, sub, rhs, x)
    elif n == 1:
        if d[0] == 0:
            _nan(x)
        else:
            x[0] = rhs[0] / d[0]
    elif pivoting:
        _pivoting(sup, d, sub, rhs, x)
    else:
        _thomas(sup, d, sub, rhs, x)
    return x


def _solve(diags: np.ndarray, rhs: np.ndarray, partial_pivoting: bool = True,
           perturb_singular: bool = False) -> np.ndarray:
    if perturb_singular and not partial_pivoting:   # (the kernel's constructor, before any input is read; a graph
        # builds the op and refuses it when it runs; fz40, twentieth generator tape seed 4020261205 #122)
        raise errors.InvalidArgumentError(None, None, "Setting perturb_singular requires also setting partial_pivoting. "
                                          "[Op:TridiagonalSolve]")
    if diags.ndim < 2 or rhs.ndim < 2:
        bad = diags if diags.ndim < 2 else rhs
        raise errors.InvalidArgumentError(None, None, f"Input tensor {0 if bad is diags else 1} must have rank >= 2, "
                                          f"got {bad.ndim} [Op:TridiagonalSolve]")
    if diags.shape[:-2] != rhs.shape[:-2]:
        raise errors.InvalidArgumentError(None, None, "All input tensors must have the same outer dimensions. "
                                          "[Op:TridiagonalSolve]")
    if diags.shape[-2] != 3:
        raise errors.InvalidArgumentError(None, None, "Expected diagonals to be provided as a matrix with 3 rows, got "
                                          f"{diags.shape[-2]} rows. [Op:TridiagonalSolve]")
    if diags.shape[-1] != rhs.shape[-2]:
        raise errors.InvalidArgumentError(None, None, "Expected the same number of left-hand sides and right-hand "
                                          f"sides, got {diags.shape[-1]} and {rhs.shape[-2]}. [Op:TridiagonalSolve]")
    batch = diags.shape[:-2]
    count = int(np.prod(batch, dtype=np.int64))
    dd = diags.reshape((count,) + diags.shape[-2:])
    rr = rhs.reshape((count,) + rhs.shape[-2:])
    out = np.zeros(rr.shape, rhs.dtype)
    with np.errstate(all="ignore"):
        for b in range(dd.shape[0]):
            out[b] = _solve_one(dd[b], rr[b], bool(partial_pivoting), bool(perturb_singular))
    return out.reshape(batch + rhs.shape[-2:])


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    """TF's GetCostPerUnit per matrix (a division, an add and a multiply counted as one each)."""
    n, k = arrays[0].shape[-1], arrays[1].shape[-1]
    per = (k + 1) + 2 * ((2.5 * k + 1.5) if (attrs or {}).get("partial_pivoting", True) else (2 * k + 1))
    return float(int(np.prod(arrays[0].shape[:-2], dtype=np.int64)) * n * per)


TRIDIAGONAL_SOLVE = register("TridiagonalSolve", _solve,
                             typed("TridiagonalSolve", "double, float, complex64, complex128"), _flops,
                             kind="contraction",
                             fusion=lanes("an elimination per matrix with data-dependent pivots: no stacked form"))


def _transpose_tridiagonal(diags: Any) -> Any:
    from simdist.runtime.ops.array import concat, stack, zeros
    zeros_ = zeros(diags.shape.as_list()[:-2] + [1], dtype=diags.dtype)
    sup = concat((diags[..., 2, 1:], zeros_), axis=-1)
    sub = concat((zeros_, diags[..., 0, :-1]), axis=-1)
    return stack([sup, diags[..., 1, :], sub], axis=-2)


def _matmul_three_diagonals(x: Any, y_tr: Any) -> Any:
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import concat, stack, zeros
    diag = math.reduce_sum(x * y_tr, axis=-1)
    zeros_ = zeros(x.shape.as_list()[:-2] + [1, x.shape.as_list()[-1]], dtype=x.dtype)
    sup = math.reduce_sum(x * concat((y_tr[..., 1:, :], zeros_), axis=-2), axis=-1)
    sub = math.reduce_sum(x * concat((zeros_, y_tr[..., :-1, :]), axis=-2), axis=-1)
    return stack([sup, diag, sub], axis=-2)


@RegisterGradient("TridiagonalSolve")
def _tridiagonal_solve_grad(op: Any, grad: Any) -> list:
    diags, x = op.inputs[0], op.outputs[0]
    attrs = {"partial_pivoting": op.get_attr("partial_pivoting"), "perturb_singular": op.get_attr("perturb_singular")}
    grad_rhs = dispatch.execute(TRIDIAGONAL_SOLVE, (_transpose_tridiagonal(diags), grad), attrs)
    return [-_matmul_three_diagonals(grad_rhs, x), grad_rhs]


def _static_shape(x: Any, attr: str) -> Any:
    """x.shape, which TF's Python wrapper reads before converting anything: an array or a list
    there is TF's AttributeError (its .shape is a tuple, or missing)."""
    shape = getattr(x, "shape", None)
    if shape is None:
        raise AttributeError(f"'{type(x).__name__}' object has no attribute 'shape'")
    if not hasattr(shape, attr):
        raise AttributeError(f"'{type(shape).__name__}' object has no attribute '{attr}'")
    return shape


def _op(diags: Any, rhs: Any, pivoting: bool, perturb: bool) -> Tensor:
    d = diags if isinstance(diags, Tensor) else convert_to_tensor(diags)
    r = rhs if isinstance(rhs, Tensor) else convert_to_tensor(rhs)
    TRIDIAGONAL_SOLVE.dtype((d.dtype, r.dtype), None)
    return dispatch.execute(TRIDIAGONAL_SOLVE, (d, r), {"partial_pivoting": _make_bool(pivoting, "partial_pivoting", TRIDIAGONAL_SOLVE.name),
                                                       "perturb_singular": _make_bool(perturb, "perturb_singular", TRIDIAGONAL_SOLVE.name)})


def _compact(diagonals: Any, rhs: Any, transpose_rhs: bool, conjugate_rhs: bool, pivoting: bool,
             perturb: bool) -> Tensor:
    """linalg_impl._tridiagonal_solve_compact_format: its static shape checks (ValueError), then
    the op; a rhs of rank diags_rank − 1 is a vector (transpose_rhs ignored)."""
    from simdist.runtime.ops.array import expand_dims, squeeze
    from simdist.runtime.ops.linalg import matrix_transpose
    ds = _static_shape(diagonals, "rank")
    rs = _static_shape(rhs, "rank")
    d_rank, r_rank = ds.rank, rs.rank
    dl, rl = ds.as_list(), rs.as_list()
    if d_rank:
        if d_rank < 2:
            raise ValueError(f"Expected diagonals to have rank at least 2, got {d_rank}")
        if r_rank and r_rank != d_rank and r_rank != d_rank - 1:
            raise ValueError(f"Expected the rank of rhs to be {d_rank - 1} or {d_rank}, got {r_rank}")
        if r_rank and dl[:-2] != rl[:d_rank - 2]:
            raise ValueError(f"Batch shapes {ds[:-2]} and {rs[:d_rank - 2]} are incompatible")
    if dl[-2] and dl[-2] != 3:
        raise ValueError(f"Expected 3 diagonals got {dl[-2]}")
    if r_rank == d_rank - 1:
        if dl[-1] and rl[-1] and dl[-1] != rl[-1]:
            raise ValueError("Expected number of left-hand sided and right-hand sides to be equal, got "
                             f"{dl[-1]} and {rl[-1]}")
        return squeeze(_op(diagonals, expand_dims(rhs, -1), pivoting, perturb), -1)
    if transpose_rhs:
        rhs = matrix_transpose(rhs)
        rl = rl[:-2] + [rl[-1], rl[-2]]
    if dl[-1] and rl[-2] and dl[-1] != rl[-2]:
        raise ValueError("Expected number of left-hand sided and right-hand sides to be equal, got "
                         f"{dl[-1]} and {rl[-2]}")
    return _op(diagonals, rhs, pivoting, perturb)


def tridiagonal_solve(diagonals: Any, rhs: Any, diagonals_format: str = "compact", transpose_rhs: bool = False,
                      conjugate_rhs: bool = False, name: str | None = None, partial_pivoting: bool = True,
                      perturb_singular: bool = False) -> Tensor:
    """`tf.linalg.tridiagonal_solve`: x with T x = rhs, T given by its diagonals ("compact"
    [..., 3, M], "sequence" [super, main, sub] or "matrix" [..., M, M]); rhs [..., M] or
    [..., M, K]. A singular T gives NaN (or, with perturb_singular, a perturbed finite solution)."""
    from simdist.runtime.ops.array import stack
    from simdist.runtime.ops.slicing import pad
    if perturb_singular and not partial_pivoting:
        raise ValueError("partial_pivoting must be True if perturb_singular is.")
    if diagonals_format == "compact":
        return _compact(diagonals, rhs, transpose_rhs, conjugate_rhs, partial_pivoting, perturb_singular)
    if diagonals_format == "sequence":
        if not isinstance(diagonals, (tuple, list)) or len(diagonals) != 3:
            raise ValueError("Expected diagonals to be a sequence of length 3.")
        sup, main, sub = diagonals
        shapes = [_static_shape(x, "is_compatible_with") for x in (sup, main, sub)]
        ms = shapes[1].as_list()
        if shapes[2].as_list()[:-1] != ms[:-1] or shapes[0].as_list()[:-1] != ms[:-1]:
            raise ValueError("Tensors representing the three diagonals must have the same shape,except for the last "
                             f"dimension, got {shapes[2]}, {shapes[1]}, {shapes[0]}")
        m = ms[-1]

        def pad_if_necessary(x: Any, what: str, last: list) -> Any:
            k = x.shape.as_list()[-1]
            if not k or k == m:
                return x
            if k == m - 1:
                return pad(x, [[0, 0]] * (x.shape.rank - 1) + [last])
            raise ValueError(f"Expected {what} to be have length {m} or {m - 1}, got {k}.")

        sub = pad_if_necessary(sub, "subdiagonal", [1, 0])
        sup = pad_if_necessary(sup, "superdiagonal", [0, 1])
        return _compact(stack((sup, main, sub), axis=-2), rhs, transpose_rhs, conjugate_rhs, partial_pivoting,
                        perturb_singular)
    if diagonals_format == "matrix":
        from simdist.runtime.ops.diag import diag_part
        shp = diagonals.shape
        m1, m2 = shp[-1], shp[-2]
        m1, m2 = (getattr(m1, "value", m1), getattr(m2, "value", m2))
        if m1 and m2 and m1 != m2:
            raise ValueError(f"Expected last two dimensions of diagonals to be same, got {m1} and {m2}")
        d = diag_part(diagonals, k=(-1, 1), padding_value=0.0, align="LEFT_RIGHT")
        return _compact(d, rhs, transpose_rhs, conjugate_rhs, partial_pivoting, perturb_singular)
    raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
