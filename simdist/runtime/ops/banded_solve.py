"""tf.linalg.banded_triangular_solve (TF's BandedTriangularSolve op): x with A x = rhs (or Aᴴ x =
rhs with adjoint) for the triangular band matrix A stored as [..., K, M] bands, as TF 2.21's CPU
kernel (banded_triangular_solve_op.cc) computes it: lower bands are the diagonal then the
subdiagonals, upper bands the superdiagonals then the diagonal (row K − 1), stored LEFT_RIGHT
(matrix_diag_part's k = (−(K − 1), 0) or (0, K − 1)); the rows are substituted one by one with
the band limit (non-adjoint: a dot product of the band column with the solved rows; adjoint:
subtracting the solved rows in order). Batch dimensions broadcast (MatMulBCast). Only the first
matrix of the batch is checked for a zero on its diagonal (InvalidArgumentError "Input matrix is
not invertible."); another matrix's zero pivot gives inf/NaN. Empty inputs and a rhs of rank < 2
are InvalidArgumentError. The gradient is linalg_grad.py's _BandedTriangularSolveGrad.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, errors, subnormals
from simdist.runtime.ops import args, attr_rules, dispatch, infer_ctx
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.linalg_more import _PER_MATRIX, _linalg_rule
from simdist.runtime.ops.registry import RegisterGradient, register
from simdist.runtime.tensor import Tensor
from simdist.runtime.ops.contraction_order import dot   # (in order, not BLAS: ops.host-cpu)

__all__ = ["banded_triangular_solve"]


def _min(a: Any, b: Any) -> Any:
    """std::min(a, b), lane by lane: `b < a ? b : a` (a NaN in b is passed over, one in a kept)."""
    return np.where(b < a, b, a)


def _min_abs_pivot(row: np.ndarray) -> Any:
    """Eigen's `row.cwiseAbs().minCoeff()` (PropagateFast) as TF 2.21's CPU kernel reduces it: a
    real row in AVX packets (4 doubles, 8 floats; two accumulators over pairs of packets, then one
    more packet), each reduced lane by lane with std::min and then by halves (predux_helper), the
    tail after the packets folded in one by one; a complex row (no packet abs) or a row shorter
    than a packet folded from its first entry. Where a NaN stands decides whether it wins: a
    first entry NaN fails the pivot check (`[nan, 1, 1, 1]`), a zero in a lane whose accumulator
    holds NaN is passed over (`[1, nan, 1, 1, 1, 0, 1, 1, 1]` solves), so NumPy's min (NaN
    anywhere) is not it (fz31b, fz14 seed 1420313002 #140: a lower diagonal [-1, -0, nan, 1]). A
    complex entry's abs (std::abs: hypot of its parts) reads the parts under DAZ and the check
    `> 0` reads the result so: a diagonal entry 1e-40 + 0j, 1e-40j or 1e-310 + 0j (complex128) is
    not invertible (fz37a, eager seed 3720261204 #199), as real subnormals are."""
    v = np.abs(subnormals.flush_parts(row)) if row.dtype.kind == "c" else np.abs(row)
    n = v.size
    p = 32 // v.dtype.itemsize if v.dtype.kind == "f" and v.dtype.itemsize in (4, 8) and row.dtype.kind == "f" else 0
    aligned = (n // p) * p if p else 0
    if not aligned:
        res = v[0]
        for x in v[1:]:
            res = _min(res, x)
        return res
    aligned2 = (n // (2 * p)) * 2 * p
    r0 = v[:p]
    if aligned > p:
        r1 = v[p:2 * p]
        for i in range(2 * p, aligned2, 2 * p):
            r0, r1 = _min(r0, v[i:i + p]), _min(r1, v[i + p:i + 2 * p])
        r0 = _min(r0, r1)
        if aligned > aligned2:
            r0 = _min(r0, v[aligned2:aligned2 + p])
    while r0.size > 1:
        h = r0.size // 2
        r0 = _min(r0[:h], r0[h:])
    res = r0[0]
    for x in v[aligned:]:
        res = _min(res, x)
    return res


def _div(row: np.ndarray, s: Any, plain: bool) -> np.ndarray:
    """row / s as TF's kernel divides it: a real row IEEE; a complex one by Eigen's pdiv_complex where
    the kernel assigns `row / s` or `row /= s` (`plain`), by std::complex's operator/ where it
    assigns `(rhs - band * x) / s` (x / 0 NaN the first way, an infinity the second; observed on
    TF 2.21, fuzz20 SEEN seed 20202612010 #35)."""
    if row.dtype.kind != "c":
        return row / s
    from simdist.runtime.ops import complex_div
    return complex_div.quotient(row, np.asarray(s, row.dtype), plain)


def _solve_one(band: np.ndarray, rhs: np.ndarray, lower: bool, adjoint: bool) -> np.ndarray:
    """SequentialBandedTriangularSolveKernel::Run's four loops (banded_triangular_solve_op.cc); with
    `adjoint` each band entry read is conjugated (eigen_conj: a complex adjoint solve used the band
    unconjugated before fz23a)."""
    k, m = band.shape
    if adjoint and band.dtype.kind == "c":
        band = np.conj(band)
    out = np.zeros(rhs.shape, rhs.dtype)
    if lower and not adjoint:
        out[0] = _div(rhs[0], band[0, 0], True)
        for i in range(1, m):
            d = min(i, k - 1)
            coeffs = band[1:d + 1, i][::-1]                     # band[d, i] .. band[1, i]
            out[i] = _div(rhs[i] - dot(coeffs, out[i - d:i]), band[0, i], False)
    elif lower:
        for i in range(m - 1, -1, -1):
            row = rhs[i].copy()
            for j in range(i + 1, min(m, i + k)):
                row -= band[j - i, j] * out[j]
            out[i] = _div(row, band[0, i], True)
    elif not adjoint:
        out[m - 1] = _div(rhs[m - 1], band[k - 1, m - 1], True)
        for i in range(1, m):
            r = m - 1 - i
            d = min(i, k - 1)
            coeffs = band[k - 1 - d:k - 1, r][::-1]             # band[k - 2, r] .. band[k - 1 - d, r]
            out[r] = _div(rhs[r] - dot(coeffs, out[r + 1:r + 1 + d]), band[k - 1, r], False)
    else:
        out[0] = _div(rhs[0], band[k - 1, 0], True)
        for i in range(1, m):
            row = rhs[i].copy()
            for j in range(max(0, i - (k - 1)), i):
                row -= band[k - 1 - (i - j), j] * out[j]
            out[i] = _div(row, band[k - 1, i], True)
    return out


def _solve(bands: np.ndarray, rhs: np.ndarray, lower: bool = True, adjoint: bool = False) -> np.ndarray:
    for i, a in enumerate((bands, rhs)):
        if a.ndim < 2:   # (traced, the shape function finds it where the graph knows the rank: trace_shape)
            raise errors.InvalidArgumentError(None, None, f"In[{i}] ndims must be >= 2: {a.ndim} "
                                              "[Op:BandedTriangularSolve]")
        if a.size == 0:
            raise errors.InvalidArgumentError(None, None, f"In[{i}] must not be an empty tensor "
                                              "[Op:BandedTriangularSolve]")
    try:
        batch = np.broadcast_shapes(bands.shape[:-2], rhs.shape[:-2])
    except ValueError:
        raise errors.InvalidArgumentError(None, None, "In[0] and In[1] must have compatible batch dimensions: "
                                          f"{args.dims(bands.shape)} vs. {args.dims(rhs.shape)} "
                                          "[Op:BandedTriangularSolve]") from None
    k, m = bands.shape[-2:]
    if m != rhs.shape[-2]:
        raise errors.InvalidArgumentError(None, None, f"In[0] mismatch In[1] shape: {m} vs. {rhs.shape[-2]} "
                                          "[Op:BandedTriangularSolve]")
    first = bands.reshape((-1, k, m))[0]
    if not _min_abs_pivot(first[0 if lower else k - 1]) > 0:
        raise errors.InvalidArgumentError(None, None, "Input matrix is not invertible. [Op:BandedTriangularSolve]")
    bb = np.broadcast_to(bands, batch + (k, m)).reshape((-1, k, m))
    rr = np.broadcast_to(rhs, batch + rhs.shape[-2:]).reshape((-1,) + rhs.shape[-2:])
    out = np.zeros(rr.shape, rhs.dtype)
    with np.errstate(all="ignore"):
        for i in range(bb.shape[0]):
            out[i] = _solve_one(bb[i], rr[i], bool(lower), bool(adjoint))
    return out.reshape(batch + rhs.shape[-2:])


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    """TF's cost per unit (bands · M · rhs columns) times the batch."""
    k, m = arrays[0].shape[-2:]
    return float(out.size // max(m, 1) * k * m)


BANDED_TRIANGULAR_SOLVE = register("BandedTriangularSolve", _solve, _linalg_rule("BandedTriangularSolve"), _flops,
                                   kind="contraction", fusion=_PER_MATRIX)
# (BandedTriangularSolveShapeFn at trace, from the shapes the graph knows: fz14 seed 1420261219 #36, fuzz20
# seed 2220261202 #96; an unknown rank passes it and the kernel refuses the rank when the graph runs)
BANDED_TRIANGULAR_SOLVE.trace_shape = infer_ctx.trace_shape("BandedTriangularSolve")


@RegisterGradient("BandedTriangularSolve")
def _banded_triangular_solve_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import reshape
    from simdist.runtime.ops.diag import diag_part
    from simdist.runtime.ops.linalg import matmul
    a, b, c = op.inputs[0], op.inputs[1], op.outputs[0]
    num_bands = a.shape.as_list()[-2]
    adjoint_a, lower_a = op.get_attr("adjoint"), op.get_attr("lower")
    grad_b = dispatch.execute(BANDED_TRIANGULAR_SOLVE, (a, grad), {"lower": lower_a, "adjoint": not adjoint_a})
    grad_a = -matmul(c, grad_b, adjoint_b=True) if adjoint_a else -matmul(grad_b, c, adjoint_b=True)
    k = (-(num_bands - 1), 0) if lower_a else (0, num_bands - 1)
    grad_a = diag_part(grad_a, k=k, align="LEFT_RIGHT")
    sa, sb = a.shape.as_list(), b.shape.as_list()
    if sa[:-2] == sb[:-2]:
        return [grad_a, grad_b]
    batch = list(np.broadcast_shapes(tuple(sa[:-2]), tuple(sb[:-2])))

    def unbroadcast(g: Any, shape: list) -> Any:
        lead = len(batch) - (len(shape) - 2)
        axes = list(range(lead)) + [lead + i for i, d in enumerate(shape[:-2]) if d == 1 and batch[lead + i] != 1]
        return reshape(math.reduce_sum(g, axis=axes), shape) if axes else g
    return [unbroadcast(grad_a, sa), unbroadcast(grad_b, sb)]


def banded_triangular_solve(bands: Any, rhs: Any, lower: bool = True, adjoint: bool = False,
                            name: str | None = None) -> Tensor:
    """`tf.linalg.banded_triangular_solve`: x with A x = rhs (Aᴴ x = rhs with adjoint), A the
    lower (or upper) triangular band matrix of `bands` [..., K, M]; rhs [..., M, N]."""
    a, b = args.matching([bands, rhs], op="BandedTriangularSolve", names=("matrix", "rhs"))   # (ops.attr-types)
    attr_rules.check("BandedTriangularSolve", lower=lower, adjoint=adjoint)   # (the wrapper's make_*: ops.attr-types)
    if not context.in_function():   # (a graph: the shape function at build, the missing kernel (float16) when the
        # graph runs, dispatch's trace_shape; fz39b, fourteenth generator seed 1420393004 #136)
        BANDED_TRIANGULAR_SOLVE.dtype((a.dtype, b.dtype), None)
    return dispatch.execute(BANDED_TRIANGULAR_SOLVE, (a, b), {"lower": bool(lower), "adjoint": bool(adjoint)})
