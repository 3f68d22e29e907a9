"""TF 2.21's CPU Mul of complex64/complex128 (Eigen's scalar_product_op): the elements of full
SIMD packets (4 complex64, 2 complex128 with AVX: the output's flat order) are the textbook
product (ac - bd, ad + bc), as NumPy's; the scalar tail is std::complex's operator*, which the
compiler lowers to __mulsc3/__muldc3 with C99 Annex G's recovery of infinities (a product whose
parts are both NaN is recomputed with the infinite factor boxed: (6e-8 + 0j) * (inf - infj) is
inf - infj in the tail, NaN + NaNj in a packet). Both read the parts under DAZ and flush
subnormal results (FTZ). SquaredDifference's v * conj(v) is this product too. Clause ops.complex; fz5 ext seed 61 #1, #20,
#130.
"""

from __future__ import annotations

import numpy as np

__all__ = ["multiply", "squared_difference", "cumprod"]

_LANES = {np.dtype(np.complex64): 4, np.dtype(np.complex128): 2}


def _ftz(v: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return np.where(np.abs(v) < np.finfo(v.dtype).tiny, v * v.dtype.type(0), v)


def _nan_ordered(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray, scalar: np.ndarray,
                 square: bool, left_scalar: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(ac - bd, ad + bc) with each NaN part the one x86's instructions return, each product, sum and difference
    taking its first NaN operand (quieted): in packets Eigen's pmul (dup(re x) · y, then dup(im x) · swapped y, the
    two joined by addsub: a, c, b, d for the real part, a, d, b, c for the imaginary), Square's packets the
    imaginary part's b before a; in the scalar tail (`scalar`) std::complex's product whose imaginary part's b·c is
    computed c·b (TF 2.21, fix65c: the tail's (1.5 + NaN_b j)(NaN_c + 1.5j) is NaN_c + NaN_c j, a packet's
    NaN_c + NaN_b j; Square's packets of NaN_a + NaN_b j are NaN_a + NaN_b j, its tail NaN_a + NaN_a j).
    `left_scalar`: x = a + bj is one element broadcast to y's shape (TF's scalar_left functor, `s * x`): in the packets
    the compiled code multiplies with the tensor's register first (dup(re s) and dup(im s) are the hoisted loop
    constants), c·a and d·a, then d·b and c·b, joined by addsub as before (TF 2.21, fix66c p_smul.py: (NaN_a + NaN_b j)
    · (NaN_c + NaN_d j) is NaN_c + NaN_d j in a packet, NaN_a + NaN_a j in the tail)."""
    from simdist.runtime.ops.nan_operands import first_nan

    def mul(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        return first_nan(u * v, u, v)
    if left_scalar:   # (packets tensor-first; the tail keeps std::complex's order below)
        ac, bd, ad = np.where(scalar, mul(a, c), mul(c, a)), np.where(scalar, mul(b, d), mul(d, b)), \
            np.where(scalar, mul(a, d), mul(d, a))
        bc = mul(c, b)
    else:
        ac, bd, ad = mul(a, c), mul(b, d), mul(a, d)
        bc = np.where(scalar, mul(c, b), mul(b, c))
    re = first_nan(ac - bd, ac, bd)
    im = first_nan(ad + bc, ad, bc)
    if square:
        im = np.where(scalar, im, first_nan(bc + ad, bc, ad))
    return re, im


def multiply(x: np.ndarray, y: np.ndarray, packets: bool = True, scalar_at: np.ndarray | None = None,
             square: bool = False, left_scalar: bool = False) -> np.ndarray:
    """x * y of complex arrays of one dtype (broadcast), as TF's kernel (packets=False: every
    element the scalar operator*, Annex G's recovery included; `scalar_at`, a bool array of the
    broadcast shape, says which elements are scalars where the flat order's packets do not apply,
    e.g. under a reduction: reduce_packets.py; `square`: Square's kernel, x the same as y; `left_scalar`: x is one
    element broadcast over y, TF's scalar_left functor). A NaN part is the one the CPU's instructions pick
    (`_nan_ordered`), not NumPy's."""
    xb, yb = np.broadcast_arrays(x, y)
    part = np.float32 if x.dtype == np.complex64 else np.float64
    a, b = _ftz(xb.real.astype(part)).ravel(), _ftz(xb.imag.astype(part)).ravel()
    c, d = _ftz(yb.real.astype(part)).ravel(), _ftz(yb.imag.astype(part)).ravel()
    with np.errstate(all="ignore"):
        p = _LANES[x.dtype]
        k = (a.size // p) * p if packets else 0
        if scalar_at is not None:
            scalar = np.broadcast_to(scalar_at, xb.shape).ravel()
        else:
            scalar = np.arange(a.size) >= k
        re, im = _nan_ordered(a, b, c, d, scalar, square, left_scalar)
        both = np.isnan(re) & np.isnan(im) & scalar
        idx = np.flatnonzero(both)
        if idx.size:
            re[idx], im[idx] = annex_g(a[idx], b[idx], c[idx], d[idx], plain=(re[idx], im[idx]))
    out = np.empty(xb.shape, x.dtype)
    out.real, out.imag = _ftz(re).reshape(xb.shape), _ftz(im).reshape(xb.shape)
    return out


def _annex_g(a: np.floating, b: np.floating, c: np.floating, d: np.floating) -> tuple:
    """__mulsc3/__muldc3's recovery for a product whose parts are both NaN (libgcc's order)."""
    t = type(a)
    one, zero, inf = t(1), t(0), t(np.inf)
    ac, bd, ad, bc = a * c, b * d, a * d, b * c
    recalc = False
    if np.isinf(a) or np.isinf(b):
        a, b = np.copysign(one if np.isinf(a) else zero, a), np.copysign(one if np.isinf(b) else zero, b)
        c = np.copysign(zero, c) if np.isnan(c) else c
        d = np.copysign(zero, d) if np.isnan(d) else d
        recalc = True
    if np.isinf(c) or np.isinf(d):
        c, d = np.copysign(one if np.isinf(c) else zero, c), np.copysign(one if np.isinf(d) else zero, d)
        a = np.copysign(zero, a) if np.isnan(a) else a
        b = np.copysign(zero, b) if np.isnan(b) else b
        recalc = True
    if not recalc and (np.isinf(ac) or np.isinf(bd) or np.isinf(ad) or np.isinf(bc)):
        a, b, c, d = (np.copysign(zero, v) if np.isnan(v) else v for v in (a, b, c, d))
        recalc = True
    if recalc:
        return t(inf * (a * c - b * d)), t(inf * (a * d + b * c))
    return t(a * c - b * d), t(a * d + b * c)


def annex_g(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray,
            plain: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`_annex_g` element-wise over arrays of one float dtype: the same steps as masks (an element each step
    leaves alone keeps its value), so the same bits; `plain`, the product's parts as computed (NaNs in the CPU's
    order), is returned where no infinity is recovered. (The per-element loop was 9.7 s of a 121 s profile of the
    suite's gradient-edge tests, which multiply NaN and infinite parts by the thousand; 2026-12-05.)"""
    t = a.dtype.type
    one, zero, inf = t(1), t(0), t(np.inf)

    def unit(v: np.ndarray) -> np.ndarray:
        return np.copysign(np.where(np.isinf(v), one, zero), v)

    def nan_to_zero(v: np.ndarray, where: np.ndarray) -> np.ndarray:
        return np.where(where & np.isnan(v), np.copysign(zero, v), v)
    with np.errstate(all="ignore"):
        ac, bd, ad, bc = a * c, b * d, a * d, b * c
        first = np.isinf(a) | np.isinf(b)
        a, b = np.where(first, unit(a), a), np.where(first, unit(b), b)
        c, d = nan_to_zero(c, first), nan_to_zero(d, first)
        second = np.isinf(c) | np.isinf(d)
        c, d = np.where(second, unit(c), c), np.where(second, unit(d), d)
        a, b = nan_to_zero(a, second), nan_to_zero(b, second)
        third = ~(first | second) & (np.isinf(ac) | np.isinf(bd) | np.isinf(ad) | np.isinf(bc))
        a, b, c, d = (nan_to_zero(v, third) for v in (a, b, c, d))
        recalc = first | second | third
        re, im = a * c - b * d, a * d + b * c
        if plain is not None:
            re, im = np.where(recalc, re, plain[0]), np.where(recalc, im, plain[1])
        return np.where(recalc, inf * re, re).astype(a.dtype), np.where(recalc, inf * im, im).astype(a.dtype)


def squared_difference(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """TF's complex SquaredDifference functor: v = x - y (parts under DAZ/FTZ), then v * conj(v)
    with the product above (packets textbook, tail Annex G); fz5 ext seeds 61 #7, 63."""
    xb, yb = np.broadcast_arrays(x, y)
    part = np.float32 if x.dtype == np.complex64 else np.float64
    with np.errstate(all="ignore"):
        re = _ftz(_ftz(xb.real.astype(part)) - _ftz(yb.real.astype(part)))
        im = _ftz(_ftz(xb.imag.astype(part)) - _ftz(yb.imag.astype(part)))
    v = np.empty(xb.shape, x.dtype)
    v.real, v.imag = re, im
    return multiply(v, np.conjugate(v))


def cumprod(x: np.ndarray, axis: int, exclusive: bool, reverse: bool) -> np.ndarray:
    """TF's complex Cumprod (Eigen's TensorScanOp with scalar_product_op): an accumulator starting at
    1 + 0j multiplied by each element in turn, acc * x, with the product above; along the scan, the
    inner block of `stride` elements (the dimensions after the axis) runs as packets of _LANES
    elements (the textbook product) and its remainder as scalars (Annex G's recovery). So the
    first element is (1 + 0j) * x: inf - 1e-45j is inf + NaNj (0 * inf), and (0 - 0.003j) * (NaN - infj)
    is -inf + NaNj. Observed on TF 2.21 (fuzz20 tape seed 2620261202 #117)."""
    v = np.moveaxis(np.flip(x, axis) if reverse else x, axis, 0)
    n = v.shape[0]
    inner = v.reshape(n, -1, int(np.prod(x.shape[axis + 1:], dtype=np.int64)) or 1) if v.size else v.reshape(n, 0, 1)
    stride = inner.shape[2]
    p = _LANES[x.dtype]
    cut = (stride // p) * p
    acc = np.ones(inner.shape[1:], x.dtype)
    out = np.empty_like(inner)
    for k in range(n):
        if exclusive:
            out[k] = acc
        nxt = np.empty_like(acc)
        if cut:
            nxt[:, :cut] = multiply(acc[:, :cut], inner[k][:, :cut])
        if cut < stride:
            nxt[:, cut:] = multiply(acc[:, cut:], inner[k][:, cut:], packets=False)
        acc = nxt
        if not exclusive:
            out[k] = acc
    res = np.moveaxis(out.reshape(v.shape), 0, axis)
    return np.flip(res, axis) if reverse else res
