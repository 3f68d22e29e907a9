"""TF's CholeskyGrad op (a raw op only: tf.raw_ops.CholeskyGrad; TF 2.21's Python differentiates Cholesky
with linalg_grad._CholeskyGrad's matrix products instead, runtime/ops/linalg_more.py): the gradient of
A = L L^T with respect to A's lower triangle, by the blocked algorithm of Iain Murray's "Differentiation
of the Cholesky decomposition" as tensorflow/core/kernels/linalg/cholesky_grad.cc runs it (clause
ops.cholesky-grad).

The kernel (a LinearAlgebraOp: float and double only) reads the lower triangles of `l` and `grad`,
walks blocks of 32 columns from the last, and within a block the columns from the last
(CholeskyGradUnblocked): with d = L[k, k], c = L[k+1:, k], the gradient's d_bar -= (c . c_bar) / d, its
column [d_bar; c_bar] /= d, its row r_bar -= [d_bar; c_bar]^T L[k:, :k], B_bar -= c_bar r, d_bar /= 2;
then the result is 0.5 (G + G^T). Each product is Eigen's own unfused code in the wheel (a strided
column's dot in order, the lazy coefficient product and the column-major gemv sum over their inner
index in order from the first term; each product and sum rounded: contraction_order.in_order), so a
matrix of order <= 34 is TF's bit for bit (observed on TF 2.21). Limit: from order 35 the earlier
blocks' GEBP products are modelled in order too (eigen_trsm, in_order), whose packet order is not
Eigen's: the last bits of some entries differ there.

TF registers no gradient for CholeskyGrad (a tape through it: LookupError). Registered at import, so
that the op registry does not depend on which raw ops ran.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import linalg_inputs
from simdist.runtime.ops.contraction_order import in_order
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register

__all__ = ["CHOLESKY_GRAD", "cholesky_grad"]

_BLOCK = 32   # (cholesky_grad.cc kMaxBlockSize)


def _bad(text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:CholeskyGrad]")


def _mm(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x @ y summed in order (zeros where the inner dimension is empty)."""
    if not x.shape[-1]:
        return np.zeros(x.shape[:-1] + y.shape[-1:], x.dtype)
    return in_order(x, y)


def _unblocked(d_l: np.ndarray, d_g: np.ndarray) -> None:
    """CholeskyGradUnblocked on one diagonal block [B, m, m] of L and of the gradient (in place)."""
    m = d_l.shape[-1]
    for k in range(m - 1, -1, -1):
        d = d_l[:, k, k]
        c, c_bar = d_l[:, k + 1:, k], d_g[:, k + 1:, k]
        dot = _mm(c[:, None, :], c_bar[:, :, None])[:, 0, 0]
        d_g[:, k, k] = d_g[:, k, k] - dot / d
        d_g[:, k:, k] = d_g[:, k:, k] / d[:, None]
        if k:
            col = d_g[:, k:, k]
            d_g[:, k, :k] = d_g[:, k, :k] - _mm(col[:, None, :], d_l[:, k:, :k])[:, 0, :]
            d_g[:, k + 1:, :k] = d_g[:, k + 1:, :k] - d_g[:, k + 1:, k][:, :, None] * d_l[:, k, :k][:, None, :]
        d_g[:, k, k] = d_g[:, k, k] / d.dtype.type(2)


def _blocked(lo: np.ndarray, g: np.ndarray) -> np.ndarray:
    """ComputeMatrix on a batch [B, n, n] (lo and g already their lower triangles)."""
    from simdist.runtime.ops import eigen_trsm
    n = lo.shape[-1]
    out = g.copy()
    with np.errstate(all="ignore"):
        for end in range(n, 0, -_BLOCK):
            begin = max(0, end - _BLOCK)
            b_l, c_l = lo[:, end:, :begin], lo[:, end:, begin:end]
            d_l, r_l = lo[:, begin:end, begin:end], lo[:, begin:end, :begin]
            if n - end:
                adj = np.swapaxes(d_l, -1, -2)
                c_bar = np.swapaxes(eigen_trsm.solve(adj, np.ascontiguousarray(np.swapaxes(out[:, end:, begin:end], -1, -2)),
                                                     lower=False), -1, -2)
                out[:, end:, begin:end] = c_bar
                out[:, begin:end, begin:end] -= np.tril(_mm(np.swapaxes(c_bar, -1, -2), c_l))
                out[:, end:, :begin] -= _mm(c_bar, r_l)
                out[:, begin:end, :begin] -= _mm(np.swapaxes(c_bar, -1, -2), b_l)
            d_g = out[:, begin:end, begin:end].copy()
            _unblocked(d_l, d_g)
            out[:, begin:end, begin:end] = d_g
            if begin:
                out[:, begin:end, :begin] -= _mm(d_g + np.swapaxes(d_g, -1, -2), r_l)
        half = lo.dtype.type(0.5)
        return half * (out + np.swapaxes(out, -1, -2))


def cholesky_grad(l: np.ndarray, grad: np.ndarray) -> np.ndarray:  # noqa: E741 - TF's name
    """The CholeskyGrad kernel: LinearAlgebraOp's input checks, then each matrix's gradient."""
    linalg_inputs.analyze("CholeskyGrad", (l, grad), "single")
    if l.shape[-2:] != grad.shape[-2:]:
        raise _bad("Inputs (L and grad) must have the same shape.")
    if l.shape[-1] != l.shape[-2]:
        raise _bad("Inputs must be a square matrices.")
    if not l.size:
        return np.zeros(l.shape, l.dtype)
    n = l.shape[-1]
    lo = np.tril(l).reshape(-1, n, n)
    g = np.tril(grad).reshape(-1, n, n)
    return _blocked(lo, g).reshape(l.shape)


def _dtype(dts: Any, attrs: Any) -> dtypes.DType:
    return dts[0]


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    n = arrays[0].shape[-1] if arrays[0].ndim >= 2 else 0
    return float(out.size * n)


CHOLESKY_GRAD = register("CholeskyGrad", cholesky_grad, _dtype, _flops, kind="contraction",
                         fusion=lanes("a blocked backward substitution per matrix: no stacked form written"))
no_tf_gradient("CholeskyGrad")
