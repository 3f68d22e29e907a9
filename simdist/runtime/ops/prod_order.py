"""TF 2.21's float32/float64 Prod (reduce_prod) in Eigen's evaluation order: which products are
formed decides whether a slice holding zeros and infinities, or values that overflow or underflow
in one order and not in another, gives 0, ±inf or NaN.

The order is that of minmax_zeros.py (ReductionHelper's collapsed shape, then Eigen's
evaluators): a slice reduced along its contiguous elements multiplies four packet accumulators
over blocks of 4·P elements (P = 8 float32, 4 float64), folds them ((a0·a1)·a2)·a3, then one
accumulator over the remaining whole packets, the scalar tail one at a time from 1, the packet's
lanes as a halving tree (lane i times lane i + width/2), and last tail · tree; a reduction that
keeps the innermost dimension multiplies whole output packets with InnerMostDimPreserver (from 16
reduced rows on four interleaved accumulators, folded before the remaining rows) and every other
output element one row at a time in traversal order. So `reduce_prod([3, -1.5, 2, -0.0, -1e308,
-1e308])` in float64 is NaN in TF (one packet holding the zero, then a tail of -1e308 · -1e308 =
inf; inf · 0), where a left-to-right product is 0. Observed on TF 2.21 (clause ops.packet-paths).
float16 follows the same order with 8-lane half packets: every product rounded to float16 (so an
overflow to inf meets a later zero: NaN, where NumPy's float16 reduction keeps a float32 running
product), except the packet's lanes, multiplied out in float32 and rounded once. Slices longer than P·1024 elements (Eigen's tree reduction) or tensors over
2**17 elements keep NumPy's order. Sums run the same order vectorised (sum_order.py; `eigen_prod`
with np.add is its packet-by-packet reference in tests/ops/test_sum_order.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes

from simdist.runtime.ops.minmax_zeros import _collapse, _packet_outputs

__all__ = ["eigen_prod", "eigen_sum", "sum_needs_order"]

_LANES = {"float32": 8, "float64": 4, "float16": 8, "bfloat16": 8, "complex64": 4, "complex128": 2}   # (complex: AVX packets)
_MAX_SIZE = 1 << 17


def complex_multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a * b of complex arrays with each product rounded, as Eigen's complex pmul (mul, mul,
    addsub: no fused multiply-add, which NumPy's complex loop uses), parts under DAZ/FTZ."""
    from simdist.runtime.ops.complex_mul import _ftz
    ar, ai, br, bi = (_ftz(np.asarray(v)) for v in (a.real, a.imag, b.real, b.imag))
    re = _ftz(_ftz(ar * br) - _ftz(ai * bi))
    im = _ftz(_ftz(ar * bi) + _ftz(ai * br))
    out = np.empty(np.broadcast_shapes(np.shape(a), np.shape(b)), np.result_type(a, b))
    out.real, out.imag = re, im
    return out


def complex_multiply_scalar(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a * b element by element as std::complex's operator* (libgcc's __mulsc3/__muldc3: Annex G's
    recovery of a NaN + NaNj product), parts under DAZ/FTZ: the reducer's scalar steps."""
    from simdist.runtime.ops.complex_mul import _annex_g, _ftz
    out = complex_multiply(a, b)
    both = np.isnan(out.real) & np.isnan(out.imag)
    if both.any():
        ab, bb = np.broadcast_arrays(a, b)
        for i in zip(*np.nonzero(both)):
            parts = [_ftz(np.asarray(v))[()] for v in (ab[i].real, ab[i].imag, bb[i].real, bb[i].imag)]
            re, im = _annex_g(*parts)
            out[i] = complex(re, im)
    return out


def _inner_rows(x: np.ndarray, lanes: int, op: Any = np.multiply, scalar_op: Any = None,
                half: bool | None = None) -> np.ndarray:
    """Eigen's vectorized InnerMostDimReducer of a product (or `op`: np.add, a sum) over each
    row of x [R, n]; `scalar_op` (default op) for the scalar steps: the tail and the final
    combination of the scalar accumulator with the packet's. A NaN result is the input NaN Eigen's
    compiled reducer keeps (reduce_nans.py; `half`: float16's reducer, x maybe its float32 copy)."""
    scalar_op = scalar_op or op
    half = x.dtype.char == "e" if half is None else half
    rows, n = x.shape
    start = 0
    unit = 0 if op is np.add else 1
    acc = np.full((rows, lanes), unit, x.dtype)
    if n >= 4 * lanes:
        end4 = (n // (4 * lanes)) * 4 * lanes
        accs = [acc.copy() for _ in range(4)]
        for j in range(0, end4, 4 * lanes):
            for k in range(4):
                accs[k] = op(accs[k], x[:, j + k * lanes:j + (k + 1) * lanes])
        acc = accs[0]
        for k in (1, 2, 3):
            acc = op(acc, accs[k])
        start = end4
    end = (n // lanes) * lanes
    if start <= n - lanes:
        for j in range(start, end, lanes):
            acc = op(acc, x[:, j:j + lanes])
        start = end
    if x.dtype.name == "bfloat16" and n >= lanes:   # (each packet product goes back to bfloat16 through F32ToBf16:
        # a NaN is the positive 0x7fc0; TF 2.21's bfloat16 Prod of 16-40 elements holding a negative NaN, bsweep65)
        acc = np.where(np.isnan(acc.astype(np.float32)), np.array(0x7FC0, np.uint16).view(x.dtype), acc)
    tail = np.full(rows, unit, x.dtype)
    for j in range(start, n):
        tail = scalar_op(tail, x[:, j])
    if x.dtype.name in ("float16", "bfloat16"):
        acc = acc.astype(np.float32)   # the half/bfloat16 packet's lanes are combined in float32
    while acc.shape[1] > 1:
        h = acc.shape[1] // 2
        acc = op(acc[:, :h], acc[:, h:2 * h])
    res = scalar_op(tail, acc[:, 0].astype(x.dtype))
    if x.dtype.kind == "f" and n <= lanes * 1024:   # (which NaN of several: reduce_nans.py)
        from simdist.runtime.ops.reduce_nans import row_nans
        res = row_nans(x, res, lanes, op is np.multiply, half)
    return res


def _preserved(x: np.ndarray, op: Any = np.multiply) -> np.ndarray:
    """InnerMostDimPreserver's product (or `op`) over each row of x [R, n]."""
    rows, n = x.shape
    unit = 0 if op is np.add else 1
    if n < 16:
        return _sequential(x, op)
    accs = [np.full(rows, unit, x.dtype) for _ in range(4)]
    unrolled = (n // 4) * 4
    for j in range(unrolled):
        accs[j % 4] = op(accs[j % 4], x[:, j])
    acc = accs[0]
    for k in (1, 2, 3):
        acc = op(acc, accs[k])
    for j in range(unrolled, n):
        acc = op(acc, x[:, j])
    return acc


def _sequential(x: np.ndarray, op: Any = np.multiply) -> np.ndarray:
    acc = np.full(x.shape[0], 0 if op is np.add else 1, x.dtype)
    for j in range(x.shape[1]):
        acc = op(acc, x[:, j])
    return acc


# how much smaller than its largest term a sum may be before its order shows beyond the fuzzer's
# tolerance (eps · max|term| / |sum| against 2e-5 for float32, 1e-11 for float64)
_CANCEL = {"float32": 300.0, "float64": 1e4}
_CANCEL_SIZE = 1 << 12   # the simulation runs a NumPy step per packet block: small tensors only


def sum_needs_order(v: np.ndarray, out: np.ndarray | None = None) -> bool:
    """Whether a float32/float64 sum of v may differ from NumPy's beyond rounding: v holds a
    non-finite value, its values could overflow when added in some order, or (tensors up to
    2**12 elements, given NumPy's sums `out`) a sum cancels to far below its largest term."""
    if v.dtype.name not in ("float32", "float64") or not v.size:
        return False
    big = float(np.max(np.abs(v)))   # NaN or inf when v holds one
    if not big * v.size < float(dtypes.finfo(v.dtype).max) / 2:
        return True
    return out is not None and v.size <= _CANCEL_SIZE and bool(np.any(np.abs(out) * _CANCEL[v.dtype.name] < big))


def eigen_sum(v: np.ndarray, axis: Any, keepdims: bool, out: np.ndarray) -> np.ndarray:
    """`out` (NumPy's sum of v) recomputed in Eigen's SumReducer order (sum_order.py, vectorised;
    `out` where that order is not modelled)."""
    from simdist.runtime.ops.sum_order import eigen_order_sum
    ordered = eigen_order_sum(v, axis, keepdims)
    return out if ordered is None else ordered


def eigen_prod(v: np.ndarray, axis: Any, keepdims: bool, out: np.ndarray, op: Any = np.multiply,
               scalar_op: Any = None) -> np.ndarray:
    """`out` (NumPy's product of v) recomputed in TF's order for float16/float32/float64 tensors
    (`op` np.add: a sum, in the same order; complex: `op` the packets' product, `scalar_op` the
    scalar steps')."""
    scalar_op = scalar_op or op
    lanes = _LANES.get(v.dtype.name)
    if lanes is None or not v.size or v.size > _MAX_SIZE:
        return out
    res = _ordered(v, axis, keepdims, out, op, scalar_op, lanes, None)
    if v.dtype == np.float16 and op is np.multiply and np.isnan(res).any():
        # (Eigen's half products keep their first NaN operand, NumPy's float16 `a * b` b's: the same order run on
        # v's float32 copy names each NaN, a float16 NaN's payload surviving the round trip; nsweep64)
        alt = _ordered(v.astype(np.float32), axis, keepdims, out.astype(np.float32), op, op, lanes, True)
        res = np.where(np.isnan(res) & np.isnan(alt), alt.astype(np.float16), res)
    return res


def _ordered(v: np.ndarray, axis: Any, keepdims: bool, out: np.ndarray, op: Any, scalar_op: Any, lanes: int,
             half: bool | None) -> np.ndarray:
    """eigen_prod's order over v (`half`: _inner_rows's)."""
    axes = tuple(range(v.ndim)) if axis is None else tuple(a % v.ndim for a in axis)
    sizes, flags = _collapse(v.shape, axes)
    if not any(flags):
        return out
    kept = [i for i, f in enumerate(flags) if not f]
    red = [i for i, f in enumerate(flags) if f]
    x = v.reshape(sizes)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        if len(sizes) == 3 and flags == [True, False, True]:
            res = _sequential(np.transpose(x, (1, 2, 0)).reshape(sizes[1], -1), scalar_op)
        else:
            rows = np.transpose(x, kept + red).reshape(int(np.prod([sizes[i] for i in kept], dtype=np.int64)), -1)
            if len(sizes) > 3 or flags[-1]:
                if rows.shape[1] > lanes * 1024:
                    return out
                res = _inner_rows(rows, lanes, op, scalar_op, half)
            else:
                res = _sequential(rows, scalar_op)
                packed = _packet_outputs(res.size, sizes[-1], lanes)
                if packed.any():
                    res[packed] = _preserved(rows[packed], op)
    return res.reshape(np.shape(out)).astype(v.dtype)
