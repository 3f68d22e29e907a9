"""Which zero TF 2.21's float32/float64 Max/Min (reduce_max/reduce_min) return when the extreme
of a reduced slice is a zero held with both signs: the one Eigen's evaluation order keeps.

TF reduces with MaxReducer/MinReducer<T, PropagateNaN> after collapsing the shape
(reduction_ops_common.h ReductionHelper: size-1 dimensions dropped, neighbouring dimensions of
the same kind merged). Ties between a running value and a new element go:
- a slice reduced along its innermost (contiguous) elements (a full reduction, the rows of
  [A, B] reduced over B, or the transposed rows of higher ranks) runs InnerMostDimReducer: four
  packet accumulators over blocks of 4·P elements (P = 8 float32, 4 float64), then one over the
  remaining whole packets, each packet step keeping the new lane of a tie; the accumulators
  folded 1, 2, 3 into 0 (ties: the later); the scalar tail folded one at a time from the start
  (ties: the new element); the packet's lanes folded as a halving tree (lane i against lane
  i + width/2, ties: the upper lane); finally the tail's value against the tree's (ties: the
  tail's);
- a reduction that keeps the innermost dimension (the columns of [A, B], the middle of
  [A, B, C]) computes whole output packets (flat order, not crossing a row) with
  InnerMostDimPreserver, which keeps the later of a tie, with four interleaved accumulators from
  16 reduced elements on (folded 1, 2, 3 into 0 before the remainder);
- every other output element (and axes 0 and 2 of [A, B, C]) keeps the last zero of its slice
  in traversal order.
float16 and bfloat16 (sixty-first session, fz61: /work/wt/fz61_logs/q_mm3.py, 128 reductions of 32 shapes and axes,
all as TF 2.21 on the Xeon host) take the same paths with 8-lane packets whose steps keep the accumulator's lane of a
tie (their pmin/pmax go through float32 with the operands the other way round), the lanes' halving tree and the scalar
tail as float32's: so a [4, 10] half tensor reduced over axis 0 keeps the first row's zero in columns 0-7 and the
last row's in columns 8-9.
Observed on TF 2.21 (tests/ops/test_op_edges_tf.py, clause ops.simd-signed-zeros). A NaN result is the NaN
the same order keeps, its payload and sign intact (MaxReducer<T, PropagateNaN>: each step returns its accumulator if
that is a NaN, else the new element if that is; the lanes' tree keeps the lower lane's, the scalar tail's accumulator
goes before the packets'; fix63e, tests/ops/test_fix63e_minmax_nan_tf.py). Not modelled: the sharding of very large full reductions over threads.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["zero_signs"]

_LANES = {"float32": 8, "float64": 4, "float16": 8, "bfloat16": 8}


def _collapse(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[list[int], list[bool]]:
    """ReductionHelper's simplified shape: size-1 dimensions dropped, runs of reduced or kept
    dimensions merged; (sizes, reduced flags)."""
    sizes: list[int] = []
    flags: list[bool] = []
    for d, n in enumerate(shape):
        if n == 1:
            continue
        r = d in axes
        if flags and flags[-1] == r:
            sizes[-1] *= n
        else:
            sizes.append(n)
            flags.append(r)
    return sizes, flags


def _op(a: np.ndarray, b: np.ndarray, lowest: bool, tie_b: bool, nan_b_first: bool = False) -> np.ndarray:
    """One step of MaxReducer/MinReducer<PropagateNaN>: the extreme (ties as `tie_b`); a NaN operand is the result,
    the accumulator's first (a, or b with `nan_b_first`), its bits kept (pminmax_propagate_nan)."""
    beyond = (b > a) if lowest else (b < a)
    out = np.where(beyond | ((a == b) if tie_b else False), b, a)
    first, second = (b, a) if nan_b_first else (a, b)
    return np.where(np.isnan(first), first, np.where(np.isnan(second), second, out))


def _inner_rows(x: np.ndarray, lowest: bool, lanes: int, half: bool = False) -> np.ndarray:
    """Eigen's vectorized InnerMostDimReducer over each row of x [R, n] (`half`: float16/bfloat16, whose packet
    steps keep the accumulator's lane of a tie)."""
    rows, n = x.shape
    init = -np.inf if lowest else np.inf
    start = 0
    acc = np.full((rows, lanes), init, x.dtype)
    if n >= 4 * lanes:
        end4 = (n // (4 * lanes)) * 4 * lanes
        accs = [acc.copy() for _ in range(4)]
        for j in range(0, end4, 4 * lanes):
            for k in range(4):
                accs[k] = _op(accs[k], x[:, j + k * lanes:j + (k + 1) * lanes], lowest, not half)
        acc = accs[0]
        for k in (1, 2, 3):
            acc = _op(acc, accs[k], lowest, not half)
        start = end4
    end = (n // lanes) * lanes
    if start <= n - lanes:
        for j in range(start, end, lanes):
            acc = _op(acc, x[:, j:j + lanes], lowest, not half)
        start = end
    tail = np.full(rows, init, x.dtype)
    for j in range(start, n):
        tail = _op(x[:, j], tail, lowest, False)
    if x.dtype.name == "bfloat16" and start:   # (the packet steps' float32 → bfloat16 conversion: a NaN keeps its
        # sign, not its payload: TF 2.21, fix63e's p_mm.py)
        bits = acc.view(np.uint16)
        acc = np.where(np.isnan(acc), (0x7FC0 | (bits & 0x8000)).astype(np.uint16).view(x.dtype), acc)
    while acc.shape[1] > 1:
        h = acc.shape[1] // 2
        acc = _op(acc[:, :h], acc[:, h:2 * h], lowest, True)
    return _op(tail, acc[:, 0], lowest, False)


def _preserved_columns(x: np.ndarray, lowest: bool, half: bool = False) -> np.ndarray:
    """Eigen's InnerMostDimPreserver over each row of x [R, n] (an output element of a packet):
    from 16 reduced elements on, four accumulators take elements j = k (mod 4) of the first
    (n // 4)·4 and fold 1, 2, 3 into 0 before the rest; every step keeps the later of a tie (`half`: the earlier)."""
    rows, n = x.shape
    init = -np.inf if lowest else np.inf
    tie = not half
    if n < 16:
        acc = np.full(rows, init, x.dtype)
        for j in range(n):
            acc = _op(acc, x[:, j], lowest, tie)
        return acc
    accs = [np.full(rows, init, x.dtype) for _ in range(4)]
    unrolled = (n // 4) * 4
    for j in range(unrolled):
        accs[j % 4] = _op(accs[j % 4], x[:, j], lowest, tie)
    acc = accs[0]
    for k in (1, 2, 3):
        acc = _op(acc, accs[k], lowest, tie)
    for j in range(unrolled, n):
        acc = _op(acc, x[:, j], lowest, tie)
    return acc


def _packet_outputs(total: int, inner: int, lanes: int) -> np.ndarray:
    """Which output elements Eigen computes as a packet of a reduction that keeps the innermost
    dimension: those of whole packets (flat order) that do not cross a row of `inner`."""
    i = np.arange(total)
    start = i - i % lanes
    return (i < (total // lanes) * lanes) & (start % inner + lanes - 1 < inner)


def _last_zero_negative(x: np.ndarray) -> np.ndarray:
    """For each row of x [R, n] whose extreme is zero: whether its last zero is -0.0."""
    zero = x == 0
    last = x.shape[1] - 1 - np.argmax(zero[:, ::-1], axis=1)
    return np.signbit(x[np.arange(x.shape[0]), last])


def _extremes(v: np.ndarray, axis: Any, out: np.ndarray, lowest: bool, fix_of: Any) -> np.ndarray | None:
    """`out`'s elements at fix_of(flat out) recomputed along Eigen's path for their slices (module docstring);
    `first` paths (no packets) keep the slice's first NaN or last zero. None where nothing is to fix."""
    lanes = _LANES[v.dtype.name]
    half = v.dtype.name in ("float16", "bfloat16")
    axes = tuple(range(v.ndim)) if axis is None else tuple(a % v.ndim for a in axis)
    sizes, flags = _collapse(v.shape, axes)
    if not any(flags):
        return None
    kept = [i for i, f in enumerate(flags) if not f]
    red = [i for i, f in enumerate(flags) if f]
    x = v.reshape(sizes) if sizes else v.reshape(1)
    if len(sizes) == 3 and flags == [True, False, True]:
        rows = np.transpose(x, (1, 2, 0)).reshape(sizes[1], -1)   # Eigen's loops: dim 2 outside, dim 0 inside
        inner = False
    else:
        rows = np.transpose(x, kept + red).reshape(int(np.prod([sizes[i] for i in kept], dtype=np.int64)), -1)
        inner = len(sizes) > 3 or flags[-1]   # TF transposes four or more runs to [kept, reduced] rows
    res = np.array(out, copy=True).reshape(-1)
    fix = fix_of(res)
    if not fix.size:
        return None
    sub = rows[fix]
    if inner:
        got = _inner_rows(sub, lowest, lanes, half)
    else:
        got = _scalar_rows(sub, lowest)
        if flags in ([True, False], [False, True, False]):
            packed = _packet_outputs(res.size, sizes[-1], lanes)[fix]
            if packed.any():
                got[packed] = _preserved_columns(sub[packed], lowest, half)
    res[fix] = got
    return res.reshape(np.shape(out)).astype(v.dtype)


def _scalar_rows(x: np.ndarray, lowest: bool) -> np.ndarray:
    """The generic (scalar) path over each row of x [R, n]: a zero extreme is the row's last zero, a NaN its last
    (each scalar step puts the new element first)."""
    res = np.where(_last_zero_negative(x), -0.0, 0.0).astype(x.dtype)
    nan = np.isnan(x)
    has = nan.any(axis=1)
    if has.any():
        res[has] = x[np.flatnonzero(has), x.shape[1] - 1 - np.argmax(nan[has][:, ::-1], axis=1)]
    return res


def zero_signs(v: np.ndarray, axis: Any, keepdims: bool, out: np.ndarray, lowest: bool) -> np.ndarray:
    """`out` (NumPy's max (lowest=True: Max) or min of v) with its zeros given TF's signs and its NaNs TF's bits
    (the NaN Eigen's order keeps, payload and sign: esweep63's e-gr-monotonic, fix63e)."""
    if v.dtype.name not in _LANES or not v.size:
        return out
    if np.isnan(np.min(out)) if np.size(out) else False:
        got = _extremes(v, axis, out, lowest, lambda r: np.flatnonzero(np.isnan(r)))
        out = out if got is None else got
        if v.dtype == np.float16 and v.size >= _LANES["float16"] * max(np.size(out), 1):
            # (float16's packet steps go through float32: a signalling NaN comes back quieted, 0x7c01 as 0x7e01,
            # where fewer than a packet's elements per result compare as half and keep it; TF 2.21, bsweep65: full
            # reductions of 1-3 and 16-40 elements)
            from simdist.runtime.ops.nan_operands import quieted
            o = np.asarray(out)
            out = np.where(np.isnan(o), quieted(o), o).astype(o.dtype)
    zero = v == 0
    if not zero.any():
        return out
    neg = np.signbit(v)
    if not (zero & neg).any() or not (zero & ~neg).any():
        return out   # zeros of one sign: NumPy already returns that sign
    got = _extremes(v, axis, out, lowest, lambda r: np.flatnonzero(r == 0))
    return out if got is None else got
