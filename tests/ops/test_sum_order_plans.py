"""simdist/runtime/ops/sum_order.py's vectorised sums against prod_order.py's packet-by-packet
simulation of the same Eigen order (`eigen_prod` with np.add, and a recursive reference of Eigen's
tree reduction here), bit for bit, on seeded layouts of every reduction shape ReductionHelper makes,
with NaN, infinities, overflow and signed zeros; and the NumPy reduction orders sum_order.py relies
on (a NumPy release that changed them would fail here, not silently in a TF comparison).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from simdist.runtime import dtypes
from simdist.runtime.ops import prod_order
from simdist.runtime.ops.minmax_zeros import _collapse
from simdist.runtime.ops.sum_order import LANES, LEAF, eigen_order_sum, full_limit, full_threads

clause = pytest.mark.clause
_BF16 = np.dtype(dtypes.bfloat16._np)
_DTYPES = [np.dtype(d) for d in ("float32", "float64", "float16", "complex64", "complex128")] + [_BF16]


def _tree_ref(rows: np.ndarray, lanes: int, first: int) -> np.ndarray:
    """Eigen's tree reduction of each row, leaves by prod_order's packet-by-packet InnerMostDimReducer."""
    n = rows.shape[1]
    if n <= lanes * LEAF:
        return prod_order._inner_rows(rows, lanes, np.add)
    left = min(lanes * -(-(first + -(-n // 2)) // lanes) - first, n)
    acc = np.zeros(rows.shape[0], rows.dtype) + _tree_ref(rows[:, :left], lanes, first)
    return acc + _tree_ref(rows[:, left:], lanes, (first + left) % lanes)


def _threaded_ref(flat: np.ndarray, lanes: int, threads: int) -> np.ndarray:
    """FullReducer<ThreadPoolDevice>: blocks of n // threads from 0 (each a tree from its absolute start), the rest
    first, then the blocks added in order."""
    n = flat.shape[1]
    size = n // threads
    count = n // size
    acc = _tree_ref(flat[:, count * size:], lanes, (count * size) % lanes) if count * size < n \
        else np.zeros(1, flat.dtype)
    for i in range(count):
        acc = acc + _tree_ref(flat[:, i * size:(i + 1) * size], lanes, (i * size) % lanes)
    return acc


def _reference(x: np.ndarray, axis: Any, keepdims: bool) -> np.ndarray:
    out = np.add.reduce(x, axis=axis, keepdims=keepdims)
    axes = tuple(range(x.ndim)) if axis is None else axis
    sizes, flags = _collapse(x.shape, axes)
    lanes = LANES[x.dtype.name]
    if flags == [True] and full_threads(x.size, x.dtype) > 1:
        return _threaded_ref(x.reshape(1, -1), lanes, full_threads(x.size, x.dtype)).reshape(out.shape)
    if flags == [True] and x.size > lanes * LEAF:
        return _tree_ref(x.reshape(1, -1), lanes, 0).reshape(out.shape)
    if flags == [False, True] and sizes[1] > lanes * LEAF:
        rows = x.reshape(sizes)
        return np.concatenate([_tree_ref(rows[r:r + 1], lanes, (r * sizes[1]) % lanes)
                               for r in range(sizes[0])]).reshape(out.shape)
    return np.asarray(prod_order.eigen_prod(x, axis, keepdims, out, np.add))


def _cases(seed: int, count: int) -> list[tuple[np.ndarray, Any, bool]]:
    rng = np.random.default_rng(seed)
    cases = []
    while len(cases) < count:
        dt = _DTYPES[len(cases) % len(_DTYPES)]
        nd = int(rng.integers(1, 5))
        shape = tuple(int(s) for s in rng.choice([1, 2, 3, 5, 7, 8, 9, 16, 17, 33, 40, 70, 130], nd))
        if np.prod(shape) > 1 << 16:
            continue
        axes = None if rng.random() < 0.2 else tuple(sorted(rng.choice(nd, int(rng.integers(1, nd + 1)),
                                                                       replace=False).tolist()))
        sizes, flags = _collapse(shape, tuple(range(nd)) if axes is None else axes)
        if len(sizes) > 3 and max(sizes) > 1000:   # transposed rows beyond a leaf: not in the reference
            continue
        x = rng.standard_normal(shape) * 10 ** rng.uniform(-3, 3, shape)
        special = rng.random()
        if special < 0.15:   # signed zeros
            x = np.where(rng.random(shape) < 0.5, -0.0, 0.0)
        elif special < 0.3:   # infinities, NaN, values that overflow in some orders
            big = float(np.finfo(np.float16 if dt in (np.float16,) else np.float32).max)
            x = rng.choice([np.inf, -np.inf, np.nan, big, -big, 1.0], shape, p=[.05, .05, .02, .3, .3, .28])
        if dt.kind == "c":
            x = x + 1j * rng.standard_normal(shape)
        cases.append((x.astype(dt), axes, bool(rng.random() < 0.5)))
    return cases


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    nan = np.isnan(a.astype(np.complex128)) & np.isnan(b.astype(np.complex128))
    return bool(np.all(nan | (a.reshape(-1).view(np.uint8).reshape(a.size, -1) ==
                              b.reshape(-1).view(np.uint8).reshape(b.size, -1)).all(axis=-1).reshape(a.shape)))


@clause("ops.sum-order")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_vectorised_order_is_the_packet_simulation(seed: int) -> None:
    bad = []
    with np.errstate(all="ignore"):
        for x, axes, keepdims in _cases(seed, 400):
            got = eigen_order_sum(x, axes, keepdims)
            flags = _collapse(x.shape, tuple(range(x.ndim)) if axes is None else axes)[1]
            if not any(flags):
                assert got is None, f"eigen_order_sum({x.dtype}{list(x.shape)}, {axes}) is not modelled: None"
                continue
            assert got is not None, f"eigen_order_sum({x.dtype}{list(x.shape)}, {axes}) is None, but should be a sum"
            want = _reference(x, axes, keepdims)
            if not _same_bits(got, want):
                bad.append(f"{x.dtype.name}{list(x.shape)} axis={axes}: {np.ravel(got)[:3]} vs {np.ravel(want)[:3]}")
    assert not bad, f"{len(bad)} of 400 sums differ from the packet simulation, e.g. {bad[:3]}"


@clause("ops.sum-order")
@pytest.mark.parametrize("dtype, shape, axis", [
    ("float32", (20002,), None), ("float32", (100000,), None), ("float64", (4097,), None),
    ("float64", (54000,), None), ("float32", (3, 9001), (1,)), ("float64", (2, 40000), (1,)),
    ("complex64", (3, 5003), (1,)), ("float16", (30000,), None),
])
def test_tree_reduction_above_a_leaf(dtype: str, shape: tuple[int, ...], axis: Any) -> None:
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(shape) * 10 ** rng.uniform(-3, 3, shape)).astype(dtype)
    got = eigen_order_sum(x, axis, False)
    want = _reference(x, axis, False)
    assert _same_bits(got, want), f"out={np.ravel(got)[:3]}, but should be {np.ravel(want)[:3]} [sum {dtype}{list(shape)} tree]"


@clause("ops.sum-order")
def test_full_reductions_over_the_thread_limit_split_in_blocks() -> None:
    for dt in ("float32", "float64", "complex64", "complex128"):
        n = full_limit(np.dtype(dt))
        assert full_threads(n - 1, np.dtype(dt)) == 1, f"{dt}: {n - 1} elements: one thread"
        assert full_threads(n, np.dtype(dt)) == 2, f"{dt}: {n} elements: two threads on the 2-core reference host"
        x = np.random.default_rng(n).standard_normal(2 * n + 3).astype(dt)
        got = eigen_order_sum(x, None, False)
        want = _reference(x, None, False)
        assert _same_bits(got, want), f"sum of {dt}[{2 * n + 3}]: {got}, but the blocks' order gives {want}"
    assert (full_limit(np.dtype("float32")), full_limit(np.dtype("float64"))) == (108388, 54194), \
        "TF 2.21's one-thread limits measured: 108,388 float32, 54,194 float64 elements"


@clause("ops.sum-order")
def test_sums_are_never_negative_zero() -> None:
    for dt in ("float32", "float64", "float16", "complex64"):
        for shape, axis in (((9,), None), ((3, 40), (1,)), ((40, 9), (0,)), ((4, 3, 5), (0, 2))):
            got = eigen_order_sum(np.full(shape, -0.0, dt), axis, False)
            assert not np.signbit(np.real(got)).any(), f"sum of -0.0 {dt}{list(shape)} axis={axis} is -0.0, but should be 0.0"


def test_numpy_reduction_orders() -> None:
    """What sum_order.py assumes of NumPy: a reduce over a non-innermost axis is sequential when the
    innermost length is >= 2; over 8 contiguous elements it is ((0+1)+(2+3))+((4+5)+(6+7))."""
    rng = np.random.default_rng(11)
    for dt in (np.float32, np.float64):
        x = (rng.standard_normal((3, 50, 2)) * 10 ** rng.uniform(-6, 6, (3, 50, 2))).astype(dt)
        seq = x[:, 0]
        for j in range(1, 50):
            seq = seq + x[:, j]
        assert np.array_equal(np.add.reduce(x, axis=1), seq), f"np.add.reduce over axis 1 of [3, 50, 2] {dt} is not sequential"
        r = (rng.standard_normal((40, 8)) * 10 ** rng.uniform(-6, 6, (40, 8))).astype(dt)
        pw = ((r[:, 0] + r[:, 1]) + (r[:, 2] + r[:, 3])) + ((r[:, 4] + r[:, 5]) + (r[:, 6] + r[:, 7]))
        assert np.array_equal(np.add.reduce(r, axis=1), pw), f"np.add.reduce of 8 contiguous {dt} is not the pairwise tree"
        t = r[:, :7]
        s7 = t[:, 0]
        for j in range(1, 7):
            s7 = s7 + t[:, j]
        assert np.array_equal(np.add.reduce(t, axis=1), s7), f"np.add.reduce of 7 contiguous {dt} is not sequential"
