"""tf.linalg's spectral decompositions: eigh and eigvalsh (TF's SelfAdjointEigV2), svd (Svd), and
pinv and matrix_rank, which TF 2.21's linalg_impl.py composes of Svd. The gradients are
linalg_grad.py's (_SelfAdjointEigV2Grad, _SvdGrad), written with the public ops.

eigh runs Eigen's SelfAdjointEigenSolver as TF's kernel does (selfadjoint_eigen.py; matrices up to
order 128) and svd Eigen's JacobiSVD as TF's BDCSVD does below 16 columns (jacobi_svd.py), so their
vectors' signs and phases are TF's; from 16 columns svd is LAPACK's (NumPy's svd: the same decomposition,
but a pair of singular vectors may have the other sign, BDCSVD's divide and conquer not being
transcribed). Conventions, observed on TF 2.21: eigh reads the lower triangle and returns the eigenvalues
in ascending order, eigenvectors as columns; svd returns (s, u, v) with s descending and v (not its
adjoint). Dtypes:
the ops list half, float, double and complex; TF's CPU kernels are float, double and complex (half:
NotFoundError; complex: clause ops.complex, svd's singular values of the parts' dtype). Non-finite input: eigh reads the lower triangle only, and its
solver decides (a NaN above the diagonal is ignored, an inf on the diagonal gives NaN eigenvalues and the
identity, most others fail to converge: InvalidArgumentError "Self-adjoint eigen decomposition was not
successful"); svd returns NaN everywhere (observed).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import array_shape_fns, attr_rules, dispatch, infer_ctx, linalg_inputs
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.linalg_more import _PER_MATRIX, _linalg_rule, _square
from simdist.runtime.ops.registry import RegisterGradient, register
from simdist.runtime.ops.jacobi_svd import MAX_COLS, jacobi_svd
from simdist.runtime.ops.selfadjoint_eigen import selfadjoint_eig
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["eigh", "eigvalsh", "svd", "pinv", "matrix_rank"]


def _unused(dtype: Any) -> np.ndarray:
    """An output the kernel does not compute (SelfAdjointEigV2's v without compute_v, Svd's u and v
    without compute_uv): LinearAlgebraOp::PrepareOutputs allocates each output past the kernel's
    GetOutputMatrixShapes as a scalar, TensorShape({}), and never writes it; TF 2.21's value is
    uninitialised memory (observed 6.9e-310+4.6e-310j; fuzz20 tape seed 3320261203 #135), simdist's 0."""
    return np.zeros((), dtype)


def _eigh(a: np.ndarray, compute_v: bool = True) -> Any:
    if a.shape[-1] == 1:
        # (Eigen's SelfAdjointEigenSolver::compute returns a 1x1 matrix's real part as its eigenvalue
        # and a vector of ones, Success, before any check: -inf and NaN included; fz25b, seed
        # 1420262502 #209)
        e = np.real(a[..., 0]).astype(a.dtype)
        return (e, np.ones(a.shape, a.dtype)) if compute_v else (e, _unused(a.dtype))
    n = a.shape[-1]
    if n == 0:
        e, v = np.zeros(a.shape[:-1], a.dtype), np.zeros(a.shape, a.dtype)
    elif n > _EIGEN_MAX:
        if not np.all(np.isfinite(a)):
            raise errors.InvalidArgumentError(None, None, "Self-adjoint eigen decomposition was not successful. The "
                                              "input might not be valid. [Op:SelfAdjointEigV2]")
        e, v = np.linalg.eigh(a, UPLO="L")
    else:
        e, v = np.zeros(a.shape[:-1], a.dtype), np.zeros(a.shape, a.dtype)
        # (the solver reads the lower triangle only and decides non-finite inputs as TF's does: a NaN above
        # the diagonal is ignored, an inf on it gives NaN eigenvalues and the identity, others fail to converge)
        for ix in np.ndindex(*a.shape[:-2]):
            e[ix], vi, ok = selfadjoint_eig(a[ix], compute_v)
            if not ok:
                raise errors.InvalidArgumentError(None, None, "Self-adjoint eigen decomposition was not successful. The "
                                                  "input might not be valid. [Op:SelfAdjointEigV2]")
            if compute_v:
                v[ix] = vi
    e, v = e.astype(a.dtype), v.astype(a.dtype)
    return (e, v) if compute_v else (e, _unused(a.dtype))


# Matrices up to this order run Eigen's SelfAdjointEigenSolver as TF does (selfadjoint_eigen.py: TF's
# eigenvector signs and phases); larger ones LAPACK's eigh, whose vectors may differ from TF's by sign or
# phase (the transcription takes about 0.6 s at 128 on the reference machine, and grows as n^3)
_EIGEN_MAX = 128


def _svd(a: np.ndarray, compute_uv: bool = True, full_matrices: bool = False) -> Any:
    linalg_inputs.analyze("Svd", (a,), "single")
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    if not np.all(np.isfinite(a)):
        bad = ~np.all(np.isfinite(a), axis=(-2, -1))
    else:
        bad = None
    clean = np.where(bad[..., None, None], 0, a) if bad is not None else a
    um, vn = (m, n) if full_matrices else (k, k)
    if k == 0:
        s = np.zeros(batch + (0,), a.real.dtype)
        u = np.zeros(batch + (m, um if full_matrices else 0), a.dtype)
        v = np.zeros(batch + (n, vn if full_matrices else 0), a.dtype)
        if full_matrices:
            u[...] = np.eye(m, dtype=a.dtype)
            v[...] = np.eye(n, dtype=a.dtype)
    elif n < MAX_COLS:
        # (Eigen's JacobiSVD, as TF's BDCSVD runs it below 16 columns: TF's signs and phases)
        s = np.zeros(batch + (k,), a.real.dtype)
        u = np.zeros(batch + (m, um), a.dtype)
        v = np.zeros(batch + (n, vn), a.dtype)
        for ix in np.ndindex(*batch):
            s[ix], ui, vi, _ = jacobi_svd(clean[ix], compute_uv, full_matrices)
            if compute_uv:
                u[ix], v[ix] = ui, np.conjugate(vi)   # (conjugated back below, as LAPACK's vh^T is)
    elif compute_uv:
        u, s, vh = np.linalg.svd(clean, full_matrices=full_matrices)
        v = np.swapaxes(vh, -1, -2)
    else:
        s = np.linalg.svd(clean, compute_uv=False)
    if bad is not None:
        s = np.where(bad[..., None], np.nan, s)
        if compute_uv and k:
            u = np.where(bad[..., None, None], np.nan, u)
            v = np.where(bad[..., None, None], np.nan, v)
    # (the raw op's s is of the input's dtype, complex too: tf.linalg.svd takes its real part)
    if not compute_uv:
        return s.astype(a.dtype), _unused(a.dtype), _unused(a.dtype)
    return s.astype(a.dtype), u.astype(a.dtype), np.conjugate(v).astype(a.dtype)   # (v: adjoint(vh))


def _cube_flops(arrays: Any, out: Any, attrs: Any) -> float:
    m, n = arrays[0].shape[-2:]
    return float(int(np.prod(arrays[0].shape[:-2], dtype=np.int64)) * max(m, n) * min(m, n) ** 2 * 4)


def _pair(rule: Any, count: int) -> Any:
    def out(dts: Any, attrs: Any) -> tuple:
        d = rule(dts, attrs)
        return (d,) * count
    return out


EIGH = register("SelfAdjointEigV2", _eigh, _pair(_linalg_rule("SelfAdjointEigV2"), 2), _cube_flops, num_outputs=2,
                kind="contraction", fusion=_PER_MATRIX)
def _svd_rule(dts: Any, attrs: Any) -> tuple:
    """Svd's outputs s, u, v are all of type T (linalg_ops.cc): a complex input's singular values are
    complex with zero imaginary parts (observed on TF 2.21; fuzz20 tape seed 2020261201 #27, and
    fz33a's raw Svd without compute_uv)."""
    d = _linalg_rule("Svd")(dts, attrs)
    return (d, d, d)


SVD = register("Svd", _svd, _svd_rule, _cube_flops, num_outputs=3, kind="contraction",
               fusion=_PER_MATRIX)


def eigh(tensor: Any, name: str | None = None) -> tuple[Tensor, Tensor]:
    """`tf.linalg.eigh`: (eigenvalues ascending, eigenvectors as columns) of each innermost
    self-adjoint matrix, read from its lower triangle."""
    x = _t(tensor)
    infer_ctx.kernel_dtype(EIGH, "SelfAdjointEigV2", {"input": x}, {}, (x.dtype,))   # (fz42)
    _square(x, "SelfAdjointEigV2")
    e, v = dispatch.execute(EIGH, (x,), {"compute_v": True})
    return e, v


def eigvalsh(tensor: Any, name: str | None = None) -> Tensor:
    """`tf.linalg.eigvalsh`: the eigenvalues (ascending) of each innermost self-adjoint matrix."""
    x = _t(tensor)
    infer_ctx.kernel_dtype(EIGH, "SelfAdjointEigV2", {"input": x}, {}, (x.dtype,))   # (fz42)
    _square(x, "SelfAdjointEigV2")
    return dispatch.execute(EIGH, (x,), {"compute_v": False})[0]


def svd(tensor: Any, full_matrices: bool = False, compute_uv: bool = True, name: str | None = None) -> Any:
    """`tf.linalg.svd`: (s, u, v) with tensor = u @ diag(s) @ adjoint(v), s descending; s alone
    when compute_uv is False."""
    x = _t(tensor)
    # (the wrapper's make_*: ops.attr-types)
    attr_rules.check("Svd", compute_uv=compute_uv, full_matrices=full_matrices)
    infer_ctx.kernel_dtype(SVD, "Svd", {"input": x}, {"compute_uv": bool(compute_uv),
                                                    "full_matrices": bool(full_matrices)}, (x.dtype,))   # (fz42)
    if x.ndim < 2:
        # (traced: Svd's shape function, WithRankAtLeast(input, 2), where the graph knows the rank)
        raise array_shape_fns.marked(errors.InvalidArgumentError(
            None, None, f"Input tensor 0 must have rank >= 2, got {x.ndim} [Op:Svd]"),
            array_shape_fns.rank_at_least(x, 2), "Svd", [x])
    s, u, v = dispatch.execute(SVD, (x,), {"compute_uv": bool(compute_uv), "full_matrices": bool(full_matrices)})
    if x.dtype.is_complex:   # (linalg_ops.svd: math_ops.real(s))
        from simdist.runtime.ops.complex_math import real
        s = real(s)
    return (s, u, v) if compute_uv else s


def _float_like(a: Tensor) -> None:
    """linalg_impl._maybe_validate_matrix (pinv, matrix_rank): a float dtype (TypeError), then a
    rank the graph knows of at least 2 (ValueError, eagerly too; issue 29's fz15b)."""
    from simdist.runtime.ops.static_shapes import rank_unknown
    if not a.dtype.is_floating:
        raise TypeError(f"Input `a` must have `float`-like `dtype` (saw {a.dtype.name}).")
    if a.ndim < 2 and not rank_unknown(a):
        raise ValueError(f"Input `a` must have at least 2 dimensions (saw: {a.ndim}).")


def pinv(a: Any, rcond: Any = None, validate_args: bool = False, name: str | None = None) -> Tensor:
    """`tf.linalg.pinv`: v / s @ adjoint(u) from the reduced Svd, singular values at or below
    rcond * max(s) (default rcond 10 * max(rows, cols) * eps) replaced by inf."""
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import constant, expand_dims
    from simdist.runtime.ops.linalg import matmul
    x = _t(a)
    _float_like(x)
    npdt = x.dtype.np
    if rcond is None:
        rows, cols = x.shape.as_list()[-2:]
        rcond = 10.0 * float(max(rows, cols)) * float(np.finfo(x.dtype.np).eps)
    rc = convert_to_tensor(rcond, dtype=x.dtype, name="rcond")   # (a tensor of another dtype: ValueError, before Svd)
    s, u, v = svd(x, full_matrices=False, compute_uv=True)
    cutoff = rc * math.reduce_max(s, axis=-1)
    s = math.where(s > expand_dims(cutoff, -1), s, constant(np.array(np.inf, npdt), dtype=x.dtype))
    return matmul(v / expand_dims(s, -2), u, adjoint_b=True)


def matrix_rank(a: Any, tol: Any = None, validate_args: bool = False, name: str | None = None) -> Tensor:
    """`tf.linalg.matrix_rank`: how many singular values exceed tol (default eps * max(rows, cols)
    * max(s)), int32."""
    from simdist.runtime.ops import math
    x = a if isinstance(a, Tensor) else convert_to_tensor(a, dtype_hint=dtypes.float32)   # (an int ndarray: float32)
    _float_like(x)
    s = svd(x, compute_uv=False)
    if tol is None:
        m = max(x.shape.as_list()[-2:])
        eps = float(np.finfo(x.dtype.np).eps)
        tol = eps * math.cast(m, x.dtype) * math.reduce_max(s, axis=-1, keepdims=True)
    return math.reduce_sum(math.cast(s > tol, dtypes.int32), axis=-1)


# --- gradients (linalg_grad.py) ----------------------------------------------------------------------------------
def _safe_reciprocal(x: Any, epsilon: float = 1e-20) -> Any:
    from simdist.runtime.ops.unary import reciprocal
    return x * reciprocal(x * x + epsilon)


@RegisterGradient("SelfAdjointEigV2")
def _eigh_grad(op: Any, grad_e: Any, grad_v: Any) -> list:
    from simdist.runtime.ops.array import expand_dims, zeros_like
    from simdist.runtime.ops.diag import diag, diag_part
    from simdist.runtime.ops.linalg import matmul
    from simdist.runtime.ops.linalg_more import adjoint, band_part, set_diag
    e = op.outputs[0]
    if op.get_attr("compute_v"):
        v = op.outputs[1]
        f = set_diag(_safe_reciprocal(expand_dims(e, -2) - expand_dims(e, -1)), zeros_like(e))
        grad_a = matmul(v, matmul(diag(grad_e) + f * matmul(v, grad_v, adjoint_a=True), v, adjoint_b=True))
    else:
        _, v = eigh(op.inputs[0])
        grad_a = matmul(v, matmul(diag(grad_e), v, adjoint_b=True))
    grad_a = band_part(grad_a + adjoint(grad_a), -1, 0)
    return [set_diag(grad_a, 0.5 * diag_part(grad_a))]


@RegisterGradient("Svd")
def _svd_grad(op: Any, grad_s: Any, grad_u: Any, grad_v: Any) -> list:
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import expand_dims, zeros_like
    from simdist.runtime.ops.diag import diag
    from simdist.runtime.ops.linalg import matmul, matrix_transpose
    from simdist.runtime.ops.linalg_more import adjoint, set_diag
    from simdist.runtime.ops.unary import square
    a = op.inputs[0]
    grad_s = math.cast(grad_s, a.dtype)
    grad_s_mat = diag(grad_s)
    if not op.get_attr("compute_uv"):
        _, u, v = svd(a, compute_uv=True)
        return [matmul(u, matmul(grad_s_mat, v, adjoint_b=True))]
    full_matrices = op.get_attr("full_matrices")
    m, n = a.shape.as_list()[-2:]
    s, u, v = op.outputs
    s = math.cast(s, a.dtype)
    use_adjoint = m > n
    if use_adjoint:
        m, n = n, m
        u, v = v, u
        grad_u, grad_v = grad_v, grad_u
    if full_matrices and abs(m - n) > 1:
        raise NotImplementedError(f"svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True. "
                                  f"Received: m={m} and n={n} from op input={a} with shape={a.shape}.")
    s_mat = diag(s)
    s2 = square(s)
    f = set_diag(_safe_reciprocal(expand_dims(s2, -2) - expand_dims(s2, -1)), zeros_like(s))
    s_inv_mat = diag(_safe_reciprocal(s))
    v1 = v[..., :, :m]
    grad_v1 = grad_v[..., :, :m]
    u_gu = matmul(u, grad_u, adjoint_a=True)
    v_gv = matmul(v1, grad_v1, adjoint_a=True)
    f_u = f * u_gu
    f_v = f * v_gv
    term1_nouv = grad_s_mat + matmul(f_u + adjoint(f_u), s_mat) + matmul(s_mat, f_v + adjoint(f_v))
    term1 = matmul(u, matmul(term1_nouv, v1, adjoint_b=True))
    if m == n:
        before = term1
    else:
        gv1t = matrix_transpose(grad_v1, conjugate=True)
        term2_nous = gv1t - matmul(matmul(gv1t, v1), v1, adjoint_b=True)
        if full_matrices:
            v2 = v[..., :, m:n]
            grad_v2 = grad_v[..., :, m:n]
            term2_nous -= matmul(matmul(v1, grad_v2, adjoint_a=True), v2, adjoint_b=True)
        before = term1 + matmul(matmul(u, s_inv_mat), term2_nous)
    if a.dtype.is_complex:   # (the complex SVD's gauge term, and conjugates above: TF 2.21's _SvdGrad; fz39a, tape
        # seed 3920261207 #37, a complex128 4x1 matrix whose gradient simdist took as the real case's)
        from simdist.runtime.ops.generators import eye
        s_shape = s.shape.as_list()
        l_ = eye(s_shape[-1], batch_shape=s_shape[:-1], dtype=a.dtype) * v_gv
        term3_nouv = matmul(s_inv_mat, adjoint(l_) - l_)
        before += 1 / 2. * matmul(u, matmul(term3_nouv, v1, adjoint_b=True))
    return [matrix_transpose(before, conjugate=True) if use_adjoint else before]
