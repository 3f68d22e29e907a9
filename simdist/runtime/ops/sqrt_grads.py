"""TF 2.21's SqrtGrad and RsqrtGrad kernels (tensorflow/core/kernels/cwise_ops_gradients.h), the gradients of
Sqrt and Rsqrt, as registered ops with math_grad.py's gradients of them (_SqrtGradGrad, _RsqrtGradGrad).

Like every Eigen elementwise kernel they compute the elements of full SIMD packets (AVX: 8 float32, 4 float64,
4 complex64, 2 complex128, the flat order) with the functor's packetOp and the rest with its scalar operator(),
and the two are different formulas:

- SqrtGrad(y, dy): packets mul_no_nan(0.5 / conj(y), dy) (0 where dy == 0); the tail 0 where dy == 0, else
  (0.5 · dy) / conj(y). In float32 the two round differently (d sqrt at 0.5: 2.1213202 in a packet,
  2.1213205 in the tail); in complex a packet multiplies and divides by Eigen's textbook pmul and
  pdiv_complex, the tail by std::complex's operators (libgcc's Annex G recovery of infinities), so an
  infinite part gives inf in one and NaN in the other.
- RsqrtGrad(y, dy): packets mul_no_nan(-0.5 · (c · c), mul_no_nan(c, dy)) with c = conj(y); the tail 0 where
  dy == 0, else (-0.5 · (dy · c)) · (c · c).

Every operation reads its operands under DAZ and flushes its result (FTZ). float16 and bfloat16 run packets of 8
(each operation in float32, rounded to the type): SqrtGrad's packet formula there, RsqrtGrad the tail's formula
throughout (`_half`). Clause ops.complex-division, ops.packet-paths.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.subnormals import flushed
from simdist.runtime.ops import complex_div, complex_mul, dispatch
from simdist.runtime.ops.nn_rules import FLOATS_COMPLEX, typed
from simdist.runtime.ops.registry import RegisterGradient, binary
from simdist.runtime.ops.simd import packet_mask

__all__ = ["SQRT_GRAD", "RSQRT_GRAD", "RECIPROCAL_GRAD", "sqrt_grad", "rsqrt_grad", "reciprocal_grad"]

LANES = {"float32": 8, "float64": 4, "complex64": 4, "complex128": 2}


def _ftz(v: np.ndarray) -> np.ndarray:
    """subnormals.flushed, a complex array part by part."""
    if v.dtype.kind == "c":
        out = np.empty(v.shape, v.dtype)
        out.real, out.imag = flushed(np.ascontiguousarray(v.real)), flushed(np.ascontiguousarray(v.imag))
        return out
    return flushed(v)


def _textbook(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Eigen's complex pmul: (ac - bd, ad + bc), each product and sum rounded and flushed."""
    a, b, c, d = _ftz(x.real), _ftz(x.imag), _ftz(y.real), _ftz(y.imag)
    out = np.empty(np.broadcast_shapes(x.shape, y.shape), x.dtype)
    out.real = _ftz(_ftz(a * c) - _ftz(b * d))
    out.imag = _ftz(_ftz(a * d) + _ftz(b * c))
    return out


def _annex(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """std::complex's operator* (libgcc's __mulsc3/__muldc3 with Annex G's recovery)."""
    xb, yb = np.broadcast_arrays(x, y)
    return complex_mul.multiply(np.ascontiguousarray(xb), np.ascontiguousarray(yb), packets=False)


def _split(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    mask = packet_mask(shape, dtype, LANES)
    return np.zeros(shape, bool) if mask is None else mask


def _is_zero(v: np.ndarray) -> np.ndarray:
    return (v.real == 0) & (v.imag == 0) if v.dtype.kind == "c" else v == 0


def _sqrt_grad(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    t = y.dtype.type
    with np.errstate(all="ignore"):
        if y.dtype.kind == "c":
            c = np.conjugate(_ftz(y))
            half = np.full(y.shape, 0.5, y.dtype)
            pr, pi = complex_div.pdiv_parts(half.real, half.imag, c.real, c.imag)
            q = np.empty(y.shape, y.dtype)
            q.real, q.imag = pr, pi
            packet = _textbook(q, _ftz(dy))
            tail = complex_div.quotient(_annex(np.asarray(t(0.5)), _ftz(dy)), c, packet=False)
        else:
            c, g = _ftz(y), _ftz(dy)
            packet = _ftz(_ftz(t(0.5) / c) * g)
            tail = _ftz(_ftz(t(0.5) * g) / c)
        out = np.where(_split(y.shape, y.dtype), packet, tail)
        return np.where(_is_zero(_ftz(dy)), np.zeros((), y.dtype), out).astype(y.dtype, copy=False)


def _rsqrt_grad(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    t = y.dtype.type
    with np.errstate(all="ignore"):
        c, g = np.conjugate(_ftz(y)), _ftz(dy)
        zero = np.zeros((), y.dtype)
        if y.dtype.kind == "c":
            inner = np.where(_is_zero(g), zero, _textbook(c, g))
            packet = np.where(_is_zero(inner), zero, _textbook(_textbook(np.asarray(t(-0.5)), _textbook(c, c)), inner))
            tail = _annex(_annex(np.asarray(t(-0.5)), _annex(g, c)), _annex(c, c))
        else:
            inner = np.where(g == 0, zero, _ftz(c * g))
            packet = np.where(inner == 0, zero, _ftz(_ftz(t(-0.5) * _ftz(c * c)) * inner))
            tail = _ftz(_ftz(t(-0.5) * _ftz(g * c)) * _ftz(c * c))
        out = np.where(_split(y.shape, y.dtype), packet, tail)
        return np.where(_is_zero(g), zero, out).astype(y.dtype, copy=False)


def _kernel(fn: Any) -> Any:
    def forward(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
        yb, gb = np.broadcast_arrays(y, dy)
        if yb.dtype.name not in LANES:   # (float16, bfloat16: the tail's formula, each step rounded in the type)
            return _half(fn, yb, gb)
        # (np.ascontiguousarray makes a 0-d array 1-d: the result takes the broadcast shape back)
        return fn(np.ascontiguousarray(yb), np.ascontiguousarray(gb)).reshape(yb.shape)
    return forward


#: the half types' packets (Packet8h, Packet8bf: each operation in float32, rounded to the type)
HALF_LANES = {"float16": 8, "bfloat16": 8}


def _half(fn: Any, y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """float16/bfloat16, each step rounded in the type. SqrtGrad: the packet formula mul_no_nan(0.5 / y, dy) on
    the flat array's packets of 8, the tail's (0.5 * dy) / y on the rest (TF 2.21: 5 to 11 of 37 elements
    differed where the tail's formula ran throughout; sqrt_half_probe2). RsqrtGrad: the tail's formula (agrees
    with TF 2.21 on the same 296 elements)."""
    t = y.dtype.type
    with np.errstate(all="ignore"):
        if fn is _sqrt_grad:
            out = (t(0.5) * dy).astype(y.dtype) / y
            mask = packet_mask(y.shape, y.dtype, HALF_LANES)
            if mask is not None:
                out = np.where(mask, (t(0.5) / y).astype(y.dtype) * dy, out)
        else:
            out = (t(-0.5) * (dy * y).astype(y.dtype)).astype(y.dtype) * (y * y).astype(y.dtype)
            mask = packet_mask(y.shape, y.dtype, HALF_LANES)
            if mask is not None:   # (the packets' mul_no_nan steps: a zero y * dy gives +0, rsqrt(inf)'s gradient;
                inner = (y * dy).astype(y.dtype)                    # usweep58 u-unary-rsqrt)
                half = (t(-0.5) * (y * y).astype(y.dtype)).astype(y.dtype)
                packet = np.where(inner == 0, np.zeros((), y.dtype), (half * inner).astype(y.dtype))
                out = np.where(mask, packet, out.astype(y.dtype))
        return np.where(dy == 0, np.zeros((), y.dtype), out.astype(y.dtype))


def _reciprocal_grad(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """scalar_inverse_gradient_op: -(y · y) · dy of real T (packets and tail alike), -dy · (c · c) of complex
    (c = conj(y)), +0 where dy is 0; each step under DAZ/FTZ."""
    with np.errstate(all="ignore"):
        if y.dtype.kind == "c":   # (-dy · (c · c), c = conj(y): Eigen's pmul in packets, std::complex's in the tail)
            c, g = np.conjugate(_ftz(y)), _ftz(dy)
            packet = _textbook(-g, _textbook(c, c))
            tail = _annex(-g, _annex(c, c))
            out = np.where(_split(y.shape, y.dtype), packet, tail)
            return np.where(_is_zero(g), np.zeros((), y.dtype), out).astype(y.dtype, copy=False)
        c, g = _ftz(y), _ftz(dy)
        out = _ftz(-_ftz(c * c) * g)
        return np.where(g == 0, np.zeros((), y.dtype), out).astype(y.dtype, copy=False)


def _reciprocal_half(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """float16/bfloat16 ReciprocalGrad: each step in float32, rounded to the type."""
    with np.errstate(all="ignore"):
        out = (-(y * y).astype(y.dtype) * dy).astype(y.dtype)
        return np.where(dy == 0, np.zeros((), y.dtype), out)


def _recip_kernel(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    yb, gb = np.broadcast_arrays(y, dy)
    if yb.dtype.name not in LANES:
        return _reciprocal_half(yb, gb)
    return _reciprocal_grad(np.ascontiguousarray(yb), np.ascontiguousarray(gb)).reshape(yb.shape)


SQRT_GRAD = binary("SqrtGrad", _kernel(_sqrt_grad), typed("SqrtGrad", FLOATS_COMPLEX))
RSQRT_GRAD = binary("RsqrtGrad", _kernel(_rsqrt_grad), typed("RsqrtGrad", FLOATS_COMPLEX))
#: ReciprocalGrad as one kernel (a chain of Neg/Mul ops in a tf.function's graph was re-associated by the
#: Grappler model's Mul rules, which TF's single ReciprocalGrad node never meets: gsweep67 g-unary reciprocal traced)
RECIPROCAL_GRAD = binary("ReciprocalGrad", _recip_kernel, typed("ReciprocalGrad", FLOATS_COMPLEX))


def sqrt_grad(y: Any, dy: Any) -> Any:
    """The SqrtGrad kernel of y = sqrt(x) and the upstream gradient dy (Sqrt's gradient)."""
    return dispatch.execute(SQRT_GRAD, (y, dy))


def rsqrt_grad(y: Any, dy: Any) -> Any:
    """The RsqrtGrad kernel of y = rsqrt(x) and the upstream gradient dy (Rsqrt's gradient)."""
    return dispatch.execute(RSQRT_GRAD, (y, dy))


def reciprocal_grad(y: Any, dy: Any) -> Any:
    """The ReciprocalGrad kernel of y = 1 / x and the upstream gradient dy (Reciprocal's gradient)."""
    return dispatch.execute(RECIPROCAL_GRAD, (y, dy))


@RegisterGradient("SqrtGrad")
def _sqrt_grad_grad(op: Any, grad: Any) -> list:
    """math_grad._SqrtGradGrad: ga = grad / a; (-conj(ga) * y, 0.5 * ga)."""
    from simdist.runtime.ops.complex_math import conj_of
    a, out = op.inputs[0], op.outputs[0]
    ga = grad / a
    return [-conj_of(ga) * out, 0.5 * ga]


@RegisterGradient("RsqrtGrad")
def _rsqrt_grad_grad(op: Any, grad: Any) -> list:
    """math_grad._RsqrtGradGrad: (-1.5 * conj(grad) * b * conj(a)^2, rsqrt_grad(conj(a), grad))."""
    from simdist.runtime.ops import unary
    from simdist.runtime.ops.complex_math import conj_of
    a, b = op.inputs
    ca, cg = conj_of(a), conj_of(grad)
    return [-1.5 * cg * b * unary.square(ca), rsqrt_grad(ca, grad)]


@RegisterGradient("ReciprocalGrad")
def _reciprocal_grad_grad(op: Any, grad: Any) -> list:
    """math_grad._ReciprocalGradGrad: (conj(grad) · -2 · b · conj(a), reciprocal_grad(conj(a), grad))."""
    from simdist.runtime.ops import unary
    from simdist.runtime.ops.complex_math import conj_of
    a, b = op.inputs
    ca, cg = conj_of(a), conj_of(grad)
    return [cg * -2.0 * b * ca, unary.reciprocal_grad(ca, grad)]
