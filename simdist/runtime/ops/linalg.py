"""Matrix products (TF's linalg / MatMul, BatchMatMulV2), with their gradients."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import errors
from simdist.runtime.ops import args, dispatch
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import RegisterGradient, register
from simdist.runtime.tensor import Tensor

__all__ = ["matmul"]


def _matmul(a: np.ndarray, b: np.ndarray, transpose_a: bool = False, transpose_b: bool = False) -> np.ndarray:
    x = np.swapaxes(a, -1, -2) if transpose_a else a
    y = np.swapaxes(b, -1, -2) if transpose_b else b
    return np.matmul(x, y)


def _matmul_flops(arrays: Any, out: np.ndarray, attrs: Any) -> float:
    a = arrays[0]
    k = a.shape[-2] if attrs and attrs.get("transpose_a") else a.shape[-1]
    return 2.0 * out.size * k


MATMUL = register("MatMul", _matmul, args.same_dtype("MatMul"), _matmul_flops)
BATCH_MATMUL = register("BatchMatMulV2", _matmul, args.same_dtype("BatchMatMulV2"), _matmul_flops)


def matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False, adjoint_a: bool = False,
           adjoint_b: bool = False, a_is_sparse: bool = False, b_is_sparse: bool = False, output_type: Any = None,
           grad_a: bool = False, grad_b: bool = False, name: str | None = None) -> Tensor:
    """`tf.matmul` (rank 2: MatMul; higher ranks: BatchMatMulV2 with broadcast batch dims);
    counts 2*m*n*k FLOPs."""
    ta, tb = _t(a), _t(b)
    transpose_a = bool(transpose_a or adjoint_a)
    transpose_b = bool(transpose_b or adjoint_b)
    if tb.dtype is not ta.dtype and tb.dtype != ta.dtype:
        raise args.dtype_error("MatMul", 1, ta.dtype, tb.dtype)
    sa, sb = ta.shape.as_list(), tb.shape.as_list()
    if len(sa) < 2 or len(sb) < 2:
        raise errors.InvalidArgumentError(None, None, f"In[0] and In[1] has different ndims: {sa} vs. {sb} "
                                          "[Op:MatMul]")
    xa = sa[:-2] + (sa[-2:][::-1] if transpose_a else sa[-2:])
    xb = sb[:-2] + (sb[-2:][::-1] if transpose_b else sb[-2:])
    batched = len(sa) > 2 or len(sb) > 2
    if xa[-1] != xb[-2]:
        if batched:
            raise errors.InvalidArgumentError(
                None, None, f"Matrix size-incompatible: In[0]: {xa}, In[1]: {xb} [Op:BatchMatMulV2]")
        raise errors.InvalidArgumentError(None, None, f"Matrix size-incompatible: In[0]: {xa}, In[1]: {xb} "
                                          "[Op:MatMul]")
    attrs = {"transpose_a": transpose_a, "transpose_b": transpose_b} if transpose_a or transpose_b else None
    if batched:
        try:
            np.broadcast_shapes(tuple(sa[:-2]), tuple(sb[:-2]))
        except ValueError:
            raise errors.InvalidArgumentError(
                None, None, f"In[0] and In[1] must have compatible batch dimensions: {sa} vs. {sb} "
                "[Op:BatchMatMulV2]") from None
        return dispatch.execute(BATCH_MATMUL, (ta, tb), attrs)
    return dispatch.execute(MATMUL, (ta, tb), attrs)


def _mm(x: Any, y: Any, ta: bool = False, tb: bool = False) -> Tensor:
    return matmul(x, y, transpose_a=ta, transpose_b=tb)


def _matmul_grads(op: Any, grad: Any) -> tuple[Any, Any]:
    """TF's _MatMulGrad, for each combination of transposes."""
    a, b = op.inputs
    t_a = bool(op.attrs.get("transpose_a"))
    t_b = bool(op.attrs.get("transpose_b"))
    if not t_a and not t_b:
        return _mm(grad, b, tb=True), _mm(a, grad, ta=True)
    if not t_a and t_b:
        return _mm(grad, b), _mm(grad, a, ta=True)
    if t_a and not t_b:
        return _mm(b, grad, tb=True), _mm(a, grad)
    return _mm(b, grad, ta=True, tb=True), _mm(grad, a, ta=True, tb=True)


@RegisterGradient("MatMul")
def _matmul_grad(op: Any, grad: Any) -> list:
    return list(_matmul_grads(op, grad))


@RegisterGradient("BatchMatMulV2")
def _batch_matmul_grad(op: Any, grad: Any) -> list:
    """As MatMul's, each summed over the batch dimensions its input was broadcast along."""
    from simdist.runtime.ops.math import unbroadcast
    ga, gb = _matmul_grads(op, grad)
    return [unbroadcast(ga, op.inputs[0].shape.as_list()), unbroadcast(gb, op.inputs[1].shape.as_list())]


def _install_operators() -> None:
    Tensor.__matmul__ = lambda self, o: matmul(self, o)    # type: ignore[assignment]
    Tensor.__rmatmul__ = lambda self, o: matmul(o, self)   # type: ignore[assignment]


_install_operators()
