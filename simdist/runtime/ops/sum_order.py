"""TF 2.21's sums in Eigen's SumReducer order, vectorised: a fixed sequence of NumPy reductions
over reshaped views, bit for bit the order of prod_order.py's packet-by-packet simulation.

Eigen's order (TensorReduction.h, after ReductionHelper's collapsed shape; P = 8 float32, float16
and bfloat16 lanes, 4 float64 and complex64, 2 complex128 on the AVX2 host):
- a slice reduced along its contiguous elements (a full reduction, the rows of [A, B] over B, the
  transposed [kept, reduced] rows of four or more runs) runs InnerMostDimReducer: four packet
  accumulators over blocks of 4·P elements, folded ((a0 + a1) + a2) + a3, then the remaining whole
  packets into a0, the scalar tail from 0, the packet's lanes as a halving tree (lane i + lane
  i + P/2; half types in float32, rounded once), and tail + tree. A slice longer than P·1024
  (kLeafSize) is split at a packet boundary of its absolute start (`split = P·ceil((first +
  ceil(n/2)) / P)`) and the halves' sums added (the tree reduction, recursively);
- a reduction that keeps the innermost dimension computes whole output packets (flat order, not
  crossing a row) with InnerMostDimPreserver: from 16 reduced rows on, four accumulators take the
  rows j = k (mod 4) of the first (n // 4)·4, folded 1, 2, 3 into 0, then the remaining rows;
  every other output element adds its slice one element at a time in traversal order
  (GenericDimReducer; [A, B, C] over axes 0 and 2: axis 2 outside, axis 0 inside).
Every accumulator starts at +0, so a sum (of two or more elements) is never -0.0.

How the order is kept with NumPy (NumPy 2.x, checked against the simulation by
tests/ops/test_sum_order.py): `np.add.reduce` over an axis that is not the innermost of a
C-ordered view whose innermost length is >= 2 adds whole rows one after another (strictly
sequential per element); over the innermost axis it sums pairwise, which for fewer than 8
elements is sequential and for 8 contiguous elements is ((x0 + x1) + (x2 + x3)) + ((x4 + x5) +
(x6 + x7)), so the 8-lane tree is one reduce of the lanes taken in the order 0 4 2 6 1 5 3 7.
Where the innermost length would be 1, `np.add.accumulate` (sequential by definition) is used.

Full reductions whose cost TF's thread-pool cost model splits over several threads
(FullReducer<ThreadPoolDevice>: a block per thread, then added; the block count depends on the
host's cores) are not modelled: `full_limit` gives the size from which NumPy's order is kept
(108,388 float32 and 54,194 float64 elements, measured).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops.minmax_zeros import _collapse, _packet_outputs
from simdist.runtime.ops.reduce_nans import complex_row_nans, row_nans

__all__ = ["eigen_order_sum", "full_limit", "full_threads", "LANES", "LEAF"]

LANES = {"float32": 8, "float64": 4, "float16": 8, "bfloat16": 8, "complex64": 4, "complex128": 2}
_BY_CHAR = {"f": 8, "d": 4, "e": 8, "F": 4, "D": 2}   # (dtype.char: dtype.name costs ~1.4 us a call)
_BF16 = np.dtype(dtypes.bfloat16._np)
LEAF = 1024   # Eigen's kLeafSize: inner slices longer than P·LEAF are tree-reduced
_TREE8 = np.array([0, 4, 2, 6, 1, 5, 3, 7])   # NumPy's pairwise sum of 8 in this order = Eigen's lane tree
_PAIRWISE_SAFE = "fd"   # dtype chars (float32, float64) whose innermost NumPy reduce is the pairwise sum above
_reduce = np.add.reduce
_accumulate = np.add.accumulate


def full_limit(dtype: np.dtype, loads: int = 1) -> int:
    """The element count from which TF 2.21's full reduction runs on more than one thread
    (TensorCostModel::numThreads >= 2: n·cost >= 210000 cycles, kStartupCycles 100000 plus
    kPerThreadCycles 100000 less the 0.9 rounding). Measured on TF 2.21 (bisection of full sums
    whose halves are not packet-aligned): float32 from 108,388 elements, float64 from 54,194, i.e. a
    cost of 31/64 cycles per byte loaded; `loads` (bytes read per element / itemsize) scales it
    for an expression such as EuclideanNorm's x·x (not measured)."""
    return -(-210000 * 64 // (31 * dtype.itemsize * loads))


def full_threads(n: int, dtype: np.dtype, loads: int = 1) -> int:
    """The threads TF 2.21's FullReducer<ThreadPoolDevice> splits a full reduction of n elements over
    (TensorCostModel::numThreads: (cost - kStartupCycles) / kPerThreadCycles + 0.9 truncated, the cost
    `full_limit`'s 31/64 cycles per byte loaded, at most the intra-op pool's threads: the host model's parallelism,
    TF's port::MaxParallelism)."""
    from simdist.runtime import host_cpu
    cycles = n * dtype.itemsize * loads * 31 / 64
    return max(1, min(host_cpu.current().parallelism, int((cycles - 100000) / 100000 + 0.9)))


def _threaded_plan(rows: int, n: int, lanes: int, dtype: np.dtype, threads: int) -> Callable[[np.ndarray], np.ndarray]:
    """FullReducer<ThreadPoolDevice> (TensorReduction.h) of each row of x [rows, n]: blocks of n // threads elements
    from 0, each an InnerMostDimReducer (its tree split at packet boundaries of its absolute start), the last
    n - blocks·size elements reduced by the calling thread into the final shard (else +0), then each block's sum
    added to it in order: ((rest + s0) + s1) + ... (the AUC of 10^6 thresholds sums 999,999 float32 areas so)."""
    size = n // threads
    count = n // size
    shards = [_inner_plan(rows, size, lanes, dtype, (i * size) % lanes, rows == 1) for i in range(count)]
    rest = n - count * size
    last = _inner_plan(rows, rest, lanes, dtype, (count * size) % lanes, rows == 1) if rest else None

    def run(x: np.ndarray) -> np.ndarray:
        acc = last(x[:, count * size:]) if last is not None else np.zeros(rows, x.dtype)
        for i, f in enumerate(shards):
            acc = acc + f(x[:, i * size:(i + 1) * size])
        return acc
    return run


def _lanes(dtype: np.dtype) -> int:
    return 8 if dtype == _BF16 else _BY_CHAR[dtype.char]


def _seq(x3: np.ndarray) -> np.ndarray:
    """Sum over axis 1 of x3 [K, m, C], strictly in order of m, from +0."""
    if x3.shape[2] >= 2:
        return _reduce(x3, axis=1)
    return _accumulate(x3, axis=1)[:, -1] + np.zeros((), x3.dtype)   # (+0: as Eigen's accumulator)


def _lane_tree(acc: np.ndarray) -> np.ndarray:
    """Eigen's predux of each row of acc [R, P]: a halving tree (lane i + lane i + width/2)."""
    width = acc.shape[1]
    if acc.dtype.char in _PAIRWISE_SAFE:
        if width == 8:   # NumPy's pairwise sum of 8 contiguous lanes, taken in bit-reversed order
            return _reduce(np.take(acc, _TREE8, axis=1), axis=1)
        if width == 4:   # (l0 + l2) + (l1 + l3): two lanes' reduce is sequential, from +0
            return _reduce(acc[:, :2] + acc[:, 2:], axis=1)
    while acc.shape[1] > 1:
        h = acc.shape[1] // 2
        acc = acc[:, :h] + acc[:, h:]
    return acc[:, 0]


def _tail(x: np.ndarray) -> np.ndarray:
    """The scalar tail of each row of x [R, t], 2 <= t < P, added one element at a time."""
    if x.dtype.char in _PAIRWISE_SAFE:   # fewer than 8 elements: NumPy's pairwise sum is sequential
        return _reduce(x, axis=1)
    acc = x[:, 0] + x[:, 1]
    for j in range(2, x.shape[1]):
        acc = acc + x[:, j]
    return acc


def _leaf_plan(rows: int, n: int, lanes: int, dtype: np.dtype) -> Callable[[np.ndarray], np.ndarray]:
    """InnerMostDimReducer (no tree) of each row of x [rows, n] (rows contiguous in the last axis)."""
    packets = n // lanes
    end = packets * lanes
    blocks = n // (4 * lanes)
    b4 = blocks * 4 * lanes
    extra = packets - 4 * blocks
    half = dtype.char == "e" or dtype == _BF16

    # many rows of many blocks: the blocks moved outermost first (one copy), so each addition is a
    # whole row of rows·4·P elements instead of rows·blocks additions of 4·P (22 against 45 us on
    # [128, 784] float32; the same additions in the same order)
    outer = rows >= 8 and blocks >= 4

    def packets_sum(x: np.ndarray) -> np.ndarray:
        if blocks:
            if outer:
                moved = np.ascontiguousarray(x[:, :b4].reshape(rows, blocks, 4 * lanes).transpose(1, 0, 2))
                parts = _reduce(moved, axis=0).reshape(rows, 4, lanes)
            else:
                parts = _reduce(x[:, :b4].reshape(rows, blocks, 4 * lanes), axis=1).reshape(rows, 4, lanes)
            if extra:   # the fold of the four, then the remaining packets: one sequential pass
                parts = np.concatenate((parts, x[:, b4:end].reshape(rows, extra, lanes)), axis=1)
            acc = _reduce(parts, axis=1)
        else:
            acc = _reduce(x[:, :end].reshape(rows, packets, lanes), axis=1)
        if half:   # the half packet's lanes combine in float32
            return _lane_tree(acc.astype(np.float32)).astype(dtype)
        return _lane_tree(acc)

    if end == n:
        run = packets_sum
    elif not packets:
        run = (lambda x: _tail(x)) if n > 1 else (lambda x: x[:, 0] + np.zeros((), dtype))
    elif n - end == 1:
        run = lambda x: x[:, end] + packets_sum(x)   # finalizeBoth: saccum + predux(vaccum)
    else:
        run = lambda x: _tail(x[:, end:]) + packets_sum(x)

    def with_nans(x: np.ndarray) -> np.ndarray:   # (which NaN of several: reduce_nans.py)
        if x.dtype.kind == "c":   # (a complex packet adds its parts as lanes: each part's NaN as a real sum's)
            return complex_row_nans(x, run(x), lanes, False)
        return row_nans(x, run(x), lanes, False, half)
    return with_nans


def _inner_plan(rows: int, n: int, lanes: int, dtype: np.dtype, first: int,
                contiguous: bool) -> Callable[[np.ndarray], np.ndarray]:
    """InnerMostDimReducer with Eigen's tree over each row of x [rows, n], every row starting at
    `first` modulo the packet size: above P·LEAF elements split at a packet boundary and the
    halves' sums added (accum = 0 + left, then + right). Equal aligned halves of a C-contiguous
    x run as one batch of 2·rows rows."""
    if n <= lanes * LEAF:
        return _leaf_plan(rows, n, lanes, dtype)
    left = lanes * -(-(first + -(-n // 2)) // lanes) - first
    if contiguous and 2 * left == n and first % lanes == 0:
        both = _inner_plan(2 * rows, left, lanes, dtype, 0, True)
        return lambda x: _pairs(both(x.reshape(2 * rows, left)).reshape(rows, 2))
    lhs = _inner_plan(rows, left, lanes, dtype, first, contiguous and rows == 1)
    rhs = _inner_plan(rows, n - left, lanes, dtype, (first + left) % lanes, contiguous and rows == 1)
    return lambda x: lhs(x[:, :left]) + rhs(x[:, left:])


def _pairs(r: np.ndarray) -> np.ndarray:
    return r[:, 0] + r[:, 1]


def _rows_plan(rows: int, n: int, lanes: int, dtype: np.dtype, period: int) -> Callable[[np.ndarray], np.ndarray]:
    """Each row of x [rows, n] reduced; row r starts at element (r mod period)·n of its tensor."""
    if n <= lanes * LEAF or n % lanes == 0:
        return _inner_plan(rows, n, lanes, dtype, 0, rows == 1)
    each = [_inner_plan(1, n, lanes, dtype, ((r % period) * n) % lanes, True) for r in range(rows)]   # unaligned
    return lambda x: np.concatenate([f(x[r:r + 1]) for r, f in enumerate(each)])


def _preserved(x3: np.ndarray) -> np.ndarray:
    """InnerMostDimPreserver over axis 1 of x3 [K, A, C] for every output column."""
    k, a, c = x3.shape
    if a < 16:
        return _seq(x3)
    unrolled = (a // 4) * 4
    acc4 = _reduce(x3[:, :unrolled].reshape(k, unrolled // 4, 4 * c), axis=1).reshape(k, 4, c)
    if unrolled < a:
        acc4 = np.concatenate((acc4, x3[:, unrolled:]), axis=1)
    return _seq(acc4)


def _kept_inner_plan(k: int, c: int, lanes: int, copies: int) -> Callable[[np.ndarray], np.ndarray]:
    """[copies·K, A, C] reduced over A, each of `copies` tensors [K, A, C] on its own: packet
    outputs through InnerMostDimPreserver, the rest in order."""
    if c < lanes:
        return _seq
    if k == 1:
        whole = (c // lanes) * lanes
        if whole == c:
            return _preserved
        return lambda x3: np.concatenate((_preserved(x3[:, :, :whole]), _seq(x3[:, :, whole:])), axis=1)
    packed = _packet_outputs(k * c, c, lanes).reshape(k, c)
    if packed.all():
        return _preserved
    packed = np.tile(packed, (copies, 1))
    return lambda x3: np.where(packed, _preserved(x3), _seq(x3))


def _plan(full: tuple[int, ...], axes: tuple[int, ...], keepdims: bool, dtype: np.dtype, loads: int,
          stacked: bool) -> Any:
    """What eigen_order_sum runs for this layout: a function of v, or None (not modelled).
    `stacked`: v's axis 0 holds replica lanes, each reduced as its own tensor."""
    copies, shape = (full[0], full[1:]) if stacked else (1, full)
    if stacked:
        if 0 in axes:
            return None
        axes = tuple(a - 1 for a in axes)
    lanes = _lanes(dtype)
    sizes, flags = _collapse(shape, axes)
    if not any(flags):
        return None
    out_shape = tuple(1 if d in axes else n for d, n in enumerate(shape)) if keepdims else \
        tuple(n for d, n in enumerate(shape) if d not in axes)
    if stacked:
        out_shape = (copies,) + out_shape
    size = int(np.prod(sizes, dtype=np.int64))
    if flags == [True]:
        threads = full_threads(size, dtype, loads)
        run = _inner_plan(copies, size, lanes, dtype, 0, True) if threads == 1 else \
            _threaded_plan(copies, size, lanes, dtype, threads)
        return lambda v: run(v.reshape(copies, size)).reshape(out_shape)
    if flags == [True, False, True]:   # GenericDimReducer: axis 2 outside, axis 0 inside
        a, b, c = sizes
        return lambda v: _seq(np.ascontiguousarray(v.reshape(copies, a, b, c).transpose(0, 3, 1, 2))
                              .reshape(copies, c * a, b)).reshape(out_shape)
    if len(sizes) > 3 or flags[-1]:   # [A, B] over B, or TF's transpose to [kept, reduced] rows
        kept = [i for i, f in enumerate(flags) if not f]
        red = [i for i, f in enumerate(flags) if f]
        rows = int(np.prod([sizes[i] for i in kept], dtype=np.int64))
        run = _rows_plan(copies * rows, size // rows, lanes, dtype, rows)
        if flags == [False, True]:
            return lambda v: run(v.reshape(copies * rows, -1)).reshape(out_shape)
        order = (0,) + tuple(i + 1 for i in kept + red)
        lead = (copies,) + tuple(sizes)
        return lambda v: run(np.ascontiguousarray(v.reshape(lead).transpose(order)).reshape(copies * rows, -1)
                             ).reshape(out_shape)
    k = size // (sizes[-2] * sizes[-1])
    run = _kept_inner_plan(k, sizes[-1], lanes, copies)   # [A, C] over A, [K, A, C] over A
    return lambda v: run(v.reshape(copies * k, sizes[-2], sizes[-1])).reshape(out_shape)


def eigen_order_sum(v: np.ndarray, axis: Any, keepdims: bool, loads: int = 1,
                    stacked: bool = False) -> np.ndarray | None:
    """The sum of v over `axis` (None: all) in Eigen's SumReducer order, in v's dtype (float16/
    bfloat16: every addition rounded to it but the lanes' tree), or None where the order is not
    modelled (another dtype, an empty tensor, nothing reduced, a full reduction TF splits over
    threads: the caller keeps NumPy's; `loads`: full_limit's). `stacked`: v's axis 0 holds a fused
    replay's replica lanes (never reduced), each summed as its own tensor, as TF sums each replica's
    (the packet outputs of a kept inner dimension, the tree's alignment are per lane). Plans are
    memoised per layout."""
    dtype = v.dtype
    if (dtype.char not in _BY_CHAR and dtype != _BF16) or not v.size:
        return None
    # (a strided view another op left, depthwise_conv2d's output or a transpose, held contiguously first: the plan's
    # NumPy reductions follow the strides in their pairwise inner loops, so `reduce_mean(depthwise_conv2d(x, k),
    # [1, 2])` differed from the same values held contiguously, which are Eigen's sum; fz61, tf.image.ssim)
    v = v if v.flags.c_contiguous else np.ascontiguousarray(v)   # (a 0-d array stays 0-d)
    axes = tuple(range(v.ndim)) if axis is None else tuple(sorted({a % v.ndim for a in axis}))
    key = (v.shape, axes, keepdims, dtype, loads, stacked)
    try:
        run = _PLANS[key]
    except KeyError:
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.clear()
        run = _PLANS[key] = _plan(v.shape, axes, keepdims, dtype, loads, stacked)
    if run is None:
        return None
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        res = run(v)
        if dtype.char not in _PAIRWISE_SAFE:   # a half/complex result of plain additions: no -0.0
            res = np.add(res, np.zeros((), dtype))
        if dtype.char == "e":
            res = _half_nans(res, run, v)
    return res


def _half_nans(res: np.ndarray, run: Callable[[np.ndarray], np.ndarray], v: np.ndarray) -> np.ndarray:
    """float16 sums' NaNs as Eigen's half additions choose them: each addition (in float) keeps its first NaN
    operand, where NumPy's float16 `a + b` keeps b's; so the same plan runs on v's float32 copy (a float16 NaN's
    payload survives the round trip) and its NaN fills each NaN of `res` that is a NaN there too (an overflow's
    inf - inf stays `res`'s own). TF 2.21 on the AVX-512 Xeon, nsweep64 (ops.packet-paths)."""
    nan = np.isnan(res)
    if not nan.any():
        return res
    alt = np.asarray(run(v.astype(np.float32))).astype(np.float16)
    take = nan & np.isnan(alt)
    return np.where(take, alt, res)


_PLANS: dict[Any, Any] = {}
_MAX_PLANS = 4096
