"""tf.linalg.logm (TF's MatrixLogarithm op): the principal logarithm of each innermost square
complex matrix, which TF computes with Eigen's MatrixBase::log (unsupported/Eigen/src/
MatrixFunctions/MatrixLogarithm.h: a complex Schur decomposition, the triangular factor's
logarithm by blocks — 1×1: std::log of the eigenvalue, larger blocks: inverse scaling and
squaring with Padé approximants — and the Parlett recurrence between blocks).

simdist computes a diagonal matrix's logarithm as Eigen's 1×1 blocks do (the complex log of each
diagonal entry, exact) and any other matrix with SciPy's logm (Higham and Al-Mohy's inverse
scaling and squaring over a Schur form: the same family of algorithm, not Eigen's steps) in
complex128, rounded to the input's dtype: within about 1e-14 of the largest entry in complex128
and the rounding of complex64 (TF computes complex64 in single precision: about 1e-6). A matrix
with an eigenvalue 0 (exactly, in its Schur form) has no logarithm: TF's result is NaN
everywhere, and so is simdist's (a 1×1 zero: -inf+nanj in complex64). Subnormal parts are read as
zeros and the result's are flushed (DAZ/FTZ). complex64 and complex128 only (the op's list); not square:
"Input matrix must be square."; TF registers no gradient (LookupError).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.args import t as _t, tf_name
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.linalg_more import _PER_MATRIX, _square
from simdist.runtime.ops.registry import register
from simdist.runtime.subnormals import flush_parts
from simdist.runtime.tensor import Tensor

__all__ = ["logm"]


def _logm_one(a: np.ndarray) -> np.ndarray:
    import scipy.linalg
    n = a.shape[0]
    if n == 1 and not np.isfinite(a[0, 0]):
        # (a non-finite 1×1 matrix, observed on TF 2.21 (fz3 --ext8 seed 2402 #261): complex128 gives
        # nan+nanj for any of them; complex64 gives a NaN imaginary part and the real part log|z|
        # would have: inf where a part is infinite (a NaN beside it too, as hypot), else NaN)
        z = a[0, 0]
        if a.dtype == np.complex64 and (np.isinf(z.real) or np.isinf(z.imag)):
            return np.full((1, 1), complex(np.inf, np.nan), a.dtype)
        return np.full((1, 1), complex(np.nan, np.nan), a.dtype)
    if n == 1 and a[0, 0] == 0:
        # (a zero 1×1 matrix, a flushed subnormal too: complex64 -inf+nanj, complex128 nan+nanj on TF 2.21; fz50)
        return np.full((1, 1), complex(-np.inf if a.dtype == np.complex64 else np.nan, np.nan), a.dtype)
    if n == 1:                                       # one 1×1 block: std::log
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(a)
    if not np.all(np.isfinite(a)):
        return np.full((n, n), np.nan + 1j * np.nan)
    if np.all(a[~np.eye(n, dtype=bool)] == 0):      # diagonal: Eigen's 1×1 blocks, std::log in the input's dtype
        if np.any(np.diagonal(a) == 0):
            return np.full((n, n), np.nan + 1j * np.nan)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.diag(np.log(np.diagonal(a)))
    t, _ = scipy.linalg.schur(a.astype(np.complex128), output="complex")
    if np.any(np.diagonal(t) == 0):
        return np.full((n, n), np.nan + 1j * np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(scipy.linalg.logm(a.astype(np.complex128)), np.complex128)


def _logm(a: np.ndarray) -> np.ndarray:
    n = a.shape[-1]
    out = np.zeros(a.shape, a.dtype)
    if n == 0:
        return out
    # (the kernel reads subnormal parts as zeros and flushes its result's (DAZ/FTZ): [[1e-40]] of complex64 has no
    # logarithm, [[2, 1e-40], [0, 3]] is diagonal; fz50, fz3 --ext8 seed 5001 #66)
    flat, oflat = flush_parts(a).reshape((-1, n, n)), out.reshape((-1, n, n))
    for i in range(flat.shape[0]):
        oflat[i] = _logm_one(flat[i]).astype(a.dtype)
    return flush_parts(out)


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[0] not in (dtypes.complex64, dtypes.complex128):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {tf_name(dts[0])} is not in the list of "
                                                      "allowed values: complex64, complex128 [Op:MatrixLogarithm]")
    return dts[0]


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    n = arrays[0].shape[-1]
    return float(int(np.prod(arrays[0].shape[:-2], dtype=np.int64)) * 60 * n ** 3)


MATRIX_LOGARITHM = register("MatrixLogarithm", _logm, _rule, _flops, kind="contraction", fusion=_PER_MATRIX)
no_tf_gradient("MatrixLogarithm")


def logm(input: Any, name: str | None = None) -> Tensor:  # noqa: A002 - TF's name
    """`tf.linalg.logm`: the principal logarithm of each innermost square complex matrix."""
    x = _t(input)
    MATRIX_LOGARITHM.dtype((x.dtype,), None)
    _square(x, "MatrixLogarithm")
    return dispatch.execute(MATRIX_LOGARITHM, (x,))
