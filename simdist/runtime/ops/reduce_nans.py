"""Which NaN Eigen's InnerMostDimReducer returns from a Sum or Prod of a row holding several NaNs (clause
ops.packet-paths, nsweep64).

The value order is sum_order.py's / prod_order.py's; the NaN an x86 addition or product keeps is its first NaN
operand, and which operand comes first is the compiled code's choice, not the source's. Observed on TF 2.21 on the
AVX-512 Xeon (/work/wt/nsweep64_logs/p_pairs.py, fit.py: every pair of two NaNs of distinct payloads over 23 to
100 elements in float32/float64/float16, reduce_sum and reduce_prod of rows, 4,554 of 4,554 fitted):
- the four packet accumulators take the blocks in order, each keeping its first NaN (float16 products: its last);
- they fold as Eigen's ((a0 + a1) + a2) + a3, compiled with the operands a3 + (a2 + (a0 + a1)) in float32/float64,
  a3 + (a2 + (a1 + a0)) in float16 (first operand first; fix65n: a NaN made by a3 · a2 would show the
  grouping (a3 + a2) + (a0 + a1) that the pairs of input NaNs alone could not tell apart, and TF 2.21 has none);
- the remaining whole packets then join the fold, which keeps its NaN first;
- the lanes' halving tree keeps the lower lane's NaN; the scalar tail its first NaN;
- finalizeBoth keeps the packets' NaN in float32/float64, the tail's in float16.
A NaN a step makes from numbers (inf - inf, 0 · inf: x86's default NaN, negative) is a NaN like an input's in
that order: it wins where it comes first (bsweep65, fix65n). A NaN result whose row holds no NaN keeps the value
model's default NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.ops.nan_operands import quieted

__all__ = ["row_nans"]


_MADE = -2   # the id of a NaN a step makes from numbers


def _step(a: np.ndarray, ai: np.ndarray, b: np.ndarray, bi: np.ndarray, op: Any) -> tuple[np.ndarray, np.ndarray]:
    """One instruction `op(a, b)` on values with their NaN ids (an input's index, _MADE for a NaN the reducer made,
    -1 for a number): the first operand's NaN where it holds one, else the second's, else _MADE where the result
    is a NaN (inf · 0, inf - inf: x86's default NaN)."""
    v = op(a, b)
    i = np.where(ai != -1, ai, np.where(bi != -1, bi, np.where(np.isnan(v), _MADE, -1)))
    return v, i


def row_nans(x: np.ndarray, res: np.ndarray, lanes: int, product: bool, half: bool) -> np.ndarray:
    """`res` [R] (the sum or product of each row of x [R, n] by InnerMostDimReducer without the tree split) with
    each NaN set to the NaN Eigen's compiled reducer returns: an input's, quieted, or the default NaN of an
    invalid step that comes first in the instruction order (bsweep65's float64 Prod of 40 elements: a lane's
    0 · inf ahead of an input NaN); `half`: the reducer is float16's (x may be its float32 copy)."""
    if x.dtype.char not in "efd":
        return res
    nan_res = np.isnan(res)
    if not nan_res.any():
        return res
    rows, n = x.shape
    if not np.isnan(x).any():
        return res
    op = np.multiply if product else np.add
    idx = np.where(np.isnan(x), np.arange(n), -1)
    src, x = x, x.astype(np.float16) if half else x   # (the values as the reducer has them: float16's steps overflow)
    unit = np.array(1 if product else 0, x.dtype)
    blocks = n // (4 * lanes)
    b4 = blocks * 4 * lanes
    end = (n // lanes) * lanes
    got = None
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        if end:
            pv, pi = np.full((rows, lanes), unit), np.full((rows, lanes), -1)
            start = 0
            if blocks:
                acc = [(pv, pi)] * 4
                for j in range(0, b4, 4 * lanes):
                    for k in range(4):
                        sl = slice(j + k * lanes, j + (k + 1) * lanes)
                        av, ai = acc[k]
                        # (each accumulator keeps its first NaN; float16 products their last)
                        acc[k] = (_step(x[:, sl], idx[:, sl], av, ai, op) if half and product
                                  else _step(av, ai, x[:, sl], idx[:, sl], op))
                # (Eigen's ((a0 · a1) · a2) · a3, the operands as compiled: a3 · (a2 · (a0 · a1)), float16's
                # a3 · (a2 · (a1 · a0)))
                low = _step(*acc[1], *acc[0], op) if half else _step(*acc[0], *acc[1], op)
                pv, pi = _step(*acc[3], *_step(*acc[2], *low, op), op)
                start = b4
            for j in range(start, end, lanes):
                pv, pi = _step(pv, pi, x[:, j:j + lanes], idx[:, j:j + lanes], op)
            if half:
                pv = pv.astype(np.float32)   # (the half packet's lanes are combined in float32)
            while pv.shape[1] > 1:
                h = pv.shape[1] // 2
                pv, pi = _step(pv[:, :h], pi[:, :h], pv[:, h:], pi[:, h:], op)
            got = (pv[:, 0].astype(x.dtype), pi[:, 0])
        if end < n:
            tv, ti = np.full(rows, unit), np.full(rows, -1)
            for j in range(end, n):
                tv, ti = _step(tv, ti, x[:, j], idx[:, j], op)
            got = (tv, ti) if got is None else (_step(tv, ti, *got, op) if half else _step(*got, tv, ti, op))
    gi = got[1]
    take = nan_res & (gi != -1)
    if not take.any():
        return res
    out = np.array(res, copy=True)
    r = np.nonzero(take & (gi >= 0))[0]
    out[r] = quieted(src[r, gi[r]].astype(out.dtype))
    out[take & (gi == _MADE)] = -np.array(np.nan, out.dtype)
    return out
