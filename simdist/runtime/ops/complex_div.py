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

Every instruction's NaN is the one x86 returns (the first NaN operand in the compiled order, quieted, else the
default negative NaN of an invalid operation): which part of a non-finite quotient is NaN, its sign and payload,
by packet and tail (fix64c: all 38,416 combinations of parts in {±0, 1.5, -2, -1, ±inf, four NaNs of both signs
with payloads, a subnormal, a huge and the smallest normal}, as x / y and 1 / y, packets and tails, match TF 2.21).

Observed on TF 2.21, bit for bit with signs: 4,000 random divisions per dtype (magnitudes 2**-30
to 2**30) and all 10,000 combinations of parts in {±0, 1.5, -2, ±inf, NaN, a subnormal, a huge
and a tiny normal}, as one-element tensors (tail) and as one tensor (packets).
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops.nan_operands import quieted

__all__ = ["divide", "divide_no_nan", "pdiv_parts", "quotient", "DIV_LANES"]

# complex numbers per SIMD packet of TF's kernels (AVX: 4 complex64, 2 complex128)
DIV_LANES = {"complex64": 4, "complex128": 2}


def _ftz(v: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return np.where(np.abs(v) < np.finfo(v.dtype).tiny, v * v.dtype.type(0), v)


def _x86(r: np.ndarray, s1: np.ndarray, s2: np.ndarray) -> np.ndarray:
    """r = s1 op s2 (NumPy's value) as an SSE/AVX instruction returns it: s1's NaN, else s2's (quieted), else the
    default NaN (negative) of an invalid operation; then flushed (FTZ)."""
    nan = np.isnan(r)
    if nan.any():
        s1b, s2b = (np.broadcast_to(np.asarray(v, r.dtype), r.shape) for v in (s1, s2))
        default = np.full_like(r, -np.nan)
        r = np.where(np.isnan(s1b), quieted(s1b.copy()), np.where(np.isnan(s2b), quieted(s2b.copy()),
                                                                    np.where(nan, default, r)))
    return _ftz(r)


def _mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _x86(a * b, a, b)


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _x86(a + b, a, b)


def _sub(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _x86(a - b, a, b)


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _x86(a / b, a, b)


def _pmax(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Eigen's AVX pmax(a, b) = max_ps(b, a): a where either is a NaN."""
    return np.where(np.isnan(a) | np.isnan(b), a, np.maximum(a, b))


def _pdiv(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray,
          y_first: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Eigen's pdiv_complex of (a + bi) / (c + di), part by part, each instruction's NaN as x86 returns it: the
    lanes' max of |c|, |d| (pmax keeps the lane's own |part| when either is a NaN, so the two lanes may scale by
    different NaNs), y / max, pconj (flips the sign of a NaN imaginary part), pmul's
    addsub(x.re * conj, x.im * flip(conj)) and the two divisions, x's operand first. `y_first`: the x.im product
    compiled as flip(conj) * x.im (DivNoNan's packetOp, where the compiler inlined pdiv with that mulps's operands
    swapped: `divide_no_nan`)."""
    ca, da = np.abs(c), np.abs(d)
    mr, mi = _pmax(ca, da), _pmax(da, ca)
    cs, ds = _div(c, mr), _div(d, mi)
    sr, si = _mul(cs, cs), _mul(ds, ds)
    dc = -ds
    bd, bc = (_mul(dc, b), _mul(cs, b)) if y_first else (_mul(b, dc), _mul(b, cs))
    re = _sub(_mul(a, cs), bd)
    im = _add(_mul(a, dc), bc)
    return _div(_div(re, _add(sr, si)), mr), _div(_div(im, _add(si, sr)), mi)


def pdiv_parts(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(re, im) of Eigen's pdiv_complex of (a + bi) / (c + di) (parts read and written under DAZ/FTZ)."""
    with np.errstate(all="ignore"):
        return _pdiv(_ftz(a), _ftz(b), _ftz(c), _ftz(d))


def _smith(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """libgcc's __divsc3/__divdc3 (Smith's method, then Annex G's recovery), part by part, each instruction's NaN
    as x86 returns it (the first NaN operand in the compiled order: `b - ratio * a` for the imaginary part of the
    |c| >= |d| branch, the source's order elsewhere; measured on TF 2.21)."""
    t = a.dtype.type
    lt = np.abs(c) < np.abs(d)
    r = np.where(lt, _div(c, d), _div(d, c))
    den = np.where(lt, _add(_mul(c, r), d), _add(_mul(d, r), c))
    x = np.where(lt, _add(_mul(a, r), b), _add(_mul(b, r), a))
    y = np.where(lt, _sub(_mul(b, r), a), _sub(b, _mul(r, a)))
    x, y = _div(x, den), _div(y, den)
    both = np.isnan(x) & np.isnan(y)
    if not both.any():
        return x, y
    one, zero, inf = t(1), t(0), t(np.inf)
    by_zero = both & (c == 0) & (d == 0) & ~(np.isnan(a) & np.isnan(b))
    s = np.copysign(inf, c)
    x = np.where(by_zero, _mul(s, a), x)
    y = np.where(by_zero, _mul(s, b), y)
    inf_num = both & ~by_zero & (np.isinf(a) | np.isinf(b)) & np.isfinite(c) & np.isfinite(d)
    a1, b1 = (np.copysign(np.where(np.isinf(v), one, zero), v) for v in (a, b))
    x = np.where(inf_num, _mul(inf, _add(_mul(a1, c), _mul(b1, d))), x)
    y = np.where(inf_num, _mul(inf, _sub(_mul(b1, c), _mul(a1, d))), y)
    inf_den = both & ~by_zero & ~inf_num & (np.isinf(c) | np.isinf(d)) & np.isfinite(a) & np.isfinite(b)
    c1, d1 = (np.copysign(np.where(np.isinf(v), one, zero), v) for v in (c, d))
    x = np.where(inf_den, _mul(zero, _add(_mul(a, c1), _mul(b, d1))), x)
    y = np.where(inf_den, _mul(zero, _sub(_mul(b, c1), _mul(a, d1))), y)
    return x, y


def divide(x: np.ndarray, y: np.ndarray, y_first: bool = False) -> np.ndarray:
    """Complex x / y of one dtype (broadcast) as TF's kernel: packets pdiv_complex (`y_first`: `_pdiv`'s), tail
    libgcc."""
    from simdist.runtime.ops.simd import packet_mask
    xb, yb = np.broadcast_arrays(x, y)
    part = np.float32 if xb.dtype == np.complex64 else np.float64
    a, b = _ftz(xb.real.astype(part)), _ftz(xb.imag.astype(part))
    c, d = _ftz(yb.real.astype(part)), _ftz(yb.imag.astype(part))
    with np.errstate(all="ignore"):
        pr, pi = _pdiv(a, b, c, d, y_first)
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
    `(rhs - band * x) / s` the second (observed on TF 2.21)."""
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
    when x * conj(y) is not 0, e.g. x infinite). The packets' quotient takes the x.im product's NaN from y's
    operand first (`_pdiv`'s y_first): (1 + sNaN j) / (0 + inf j) is +NaN + NaN j with the default NaN pconj made
    positive, where Div's keeps the quieted sNaN in the real part (fix66n: all 6,561 combinations of parts in {1.5,
    -2, ±0, ±inf, two quiet NaNs of both signs, a signalling NaN} as packets match TF 2.21, 372 did not)."""
    from simdist.runtime.ops import complex_mul
    from simdist.runtime.ops.simd import packet_mask
    xb, yb = np.broadcast_arrays(x, y)
    num = complex_mul.multiply(xb, np.conjugate(yb))
    mask = packet_mask(xb.shape, xb.dtype, DIV_LANES)
    packed = mask if mask is not None else np.zeros(xb.shape, bool)
    tiny = np.finfo(xb.real.dtype).tiny
    y_zero = np.where(packed, (yb.real == 0) & (yb.imag == 0), (np.abs(yb.real) < tiny) & (np.abs(yb.imag) < tiny))
    zero = y_zero | ((num.real == 0) & (num.imag == 0))
    return np.where(zero, np.zeros((), xb.dtype), divide(xb, yb, True))
