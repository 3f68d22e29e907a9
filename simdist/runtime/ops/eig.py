"""tf.linalg.eig and eigvals: TF's Eig op (linalg/eig_op_impl.h). A complex matrix runs Eigen's
ComplexEigenSolver (complex_eigen.py transcribes it); a real matrix's eigenvalues come from Eigen's
real EigenSolver (real_eigen.py: the real Schur form, 2x2 blocks giving conjugate pairs), eigenvectors
included. Outputs are complex64 for float32/complex64 inputs, complex128
for float64/complex128 (clause ops.complex).

A real matrix's eigenvectors are EigenSolver's too (real_eigen.py `real_eig`: the real Schur form with
its U, hqr2's back substitution, each vector normalized), so their order and phases are TF's.

A matrix holding NaN or an infinity, or one whose Schur reduction does not converge, is TF's
InvalidArgumentError; another input dtype is TF 2.21's own UnboundLocalError (linalg_ops.eig picks
the output type from the four it knows and leaves it unbound otherwise: observed).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import args, dispatch
from simdist.runtime.ops.args import raw_attribute, t as _t
from simdist.runtime.ops.linalg_more import _PER_MATRIX, _square
from simdist.runtime.ops.registry import RegisterGradient, register
from simdist.runtime.tensor import Tensor

__all__ = ["eig", "eigvals"]

_OUT = {"float32": dtypes.complex64, "complex64": dtypes.complex64, "float64": dtypes.complex128,
        "complex128": dtypes.complex128}
_FAILED = "Eigen decomposition was not successful. The input might not be valid. [Op:Eig]"


def _eig(a: np.ndarray, Tout: dtypes.DType, compute_v: bool) -> tuple[np.ndarray, np.ndarray]:
    from simdist.runtime.ops.complex_eigen import eig as solve
    from simdist.runtime.ops.real_eigen import real_eig
    ct = Tout._np
    n = a.shape[-1]
    batch = a.shape[:-2]
    vals = np.zeros(batch + (n,), ct)
    vecs = np.zeros(batch + (n, n), ct) if compute_v else np.zeros((0,), ct)
    for ix in np.ndindex(*batch):
        if not np.all(np.isfinite(a[ix])):
            raise errors.InvalidArgumentError(None, None, _FAILED)
        if a.dtype.kind == "f":   # a real matrix: Eigen's EigenSolver (real Schur, hqr2's back substitution)
            e, v, ok = real_eig(a[ix].copy(), compute_v)
        else:
            e, v, ok = solve(a[ix].astype(ct), compute_v)
        if not ok:
            raise errors.InvalidArgumentError(None, None, _FAILED)
        vals[ix] = e
        if compute_v:
            vecs[ix] = v
    return vals, vecs


def _rule(dts: Any, attrs: Any) -> tuple:
    d = dts[0]
    if d.name not in _OUT:
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {args.tf_name(d)} is not in the list of "
                                          "allowed values: float, double, complex64, complex128 [Op:Eig]")
    return (attrs["Tout"], attrs["Tout"])


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    n = arrays[0].shape[-1]
    return float(int(np.prod(arrays[0].shape[:-2], dtype=np.int64)) * 25 * n ** 3)


EIG = register("Eig", _eig, _rule, _flops, num_outputs=2, kind="contraction", fusion=_PER_MATRIX)


def _safe_reciprocal(x: Tensor, epsilon: float = 1e-20) -> Tensor:
    """linalg_grad._SafeReciprocal: x / (x * x + epsilon)."""
    from simdist.runtime.ops.unary import reciprocal
    return x * reciprocal(x * x + epsilon)


@RegisterGradient("Eig")
def _eig_grad(op: Any, grad_e: Tensor, grad_v: Tensor | None = None) -> list:
    """linalg_grad._EigGrad: with the eigenvectors, V^-H (diag(grad_e) + F o (V^H grad_v - V^H V
    diag(re(diag(V^H grad_v))))) V^H with F_ij = conj(1 / (e_j - e_i)) off the diagonal;
    eigenvalues only: V^-H diag(grad_e) V^H, V from a fresh Eig. Cast to the input's dtype."""
    from simdist.runtime.ops import array, math
    from simdist.runtime.ops.complex_math import conj, real
    from simdist.runtime.ops.diag import diag, diag_part
    from simdist.runtime.ops.linalg import matmul
    from simdist.runtime.ops.linalg_more import adjoint, set_diag, solve
    e = op.outputs[0]
    if op.get_attr("compute_v"):
        v = op.outputs[1]
        vt = adjoint(v)
        f = set_diag(_safe_reciprocal(array.expand_dims(e, -2) - array.expand_dims(e, -1)), array.zeros_like(e))
        f = conj(f)
        gv = grad_v if grad_v is not None else array.zeros_like(v)
        vgv = matmul(vt, gv)
        mid = diag(grad_e)
        diag_grad_part = diag(diag_part(math.cast(real(vgv), vgv.dtype)))
        mid = mid + f * (vgv - matmul(matmul(vt, v), diag_grad_part))
        grad_a = solve(vt, matmul(mid, vt))
    else:
        e2, v = _run(op.inputs[0], True)
        if op.inputs[0].dtype.kind == "f":   # the vectors' solver orders by modulus: pair them with e's order
            from simdist.runtime.ops.reductions import argmin
            from simdist.runtime.ops.unary import abs_
            nearest = argmin(abs_(array.expand_dims(e, -1) - array.expand_dims(e2, -2)), axis=-1)
            v = array.gather(v, nearest, axis=-1, batch_dims=v.ndim - 2)
        vt = adjoint(v)
        grad_a = solve(vt, matmul(diag(grad_e), vt))
    return [math.cast(grad_a, op.inputs[0].dtype)]


def _run(tensor: Any, compute_v: bool) -> tuple[Tensor, Tensor]:
    raw_attribute(tensor, "dtype")      # (linalg_ops.eig compares `tensor.dtype` before converting it)
    x = _t(tensor)
    out = _OUT.get(x.dtype.name)
    if out is None:
        raise UnboundLocalError("cannot access local variable 'out_dtype' where it is not associated with a value")
    try:
        _square(x, "Eig")
    except errors.InvalidArgumentError as e:
        # (a check the graph cannot make, a dimension it does not know: the kernel's when the graph runs, so a
        # tf.function that never uses the Eig prunes it and returns; fz37b, fz14 seed 1420373006 #299. A check
        # the shape function makes stays the trace's ValueError: dispatch.refused raises a marked error)
        shape = x.shape.as_list()
        return (dispatch.refused(e, out, shape[:-1], pruned=True), dispatch.refused(e, out, shape, pruned=True))
    return dispatch.execute(EIG, (x,), {"Tout": out, "compute_v": compute_v})


def eig(tensor: Any, name: str | None = None) -> tuple[Tensor, Tensor]:
    """`tf.linalg.eig`: (eigenvalues, eigenvectors as columns) of each innermost square matrix,
    complex, in Eigen's order (ascending modulus)."""
    return _run(tensor, True)


def eigvals(tensor: Any, name: str | None = None) -> Tensor:
    """`tf.linalg.eigvals`: the eigenvalues of each innermost square matrix (complex)."""
    return _run(tensor, False)[0]
