"""Sum order — clause ops.sum-order (TF 2.21 only).

float32/float64 Sum and Mean add in Eigen's SumReducer order (AVX2 packets of 8 float32 / 4 float64
lanes), which differs from NumPy's pairwise sum in the last bit. The expected values are computed
here from the rule docs/spec.md states, one packet at a time; the comparison with TF 2.21 on 145
cases is tests/ops/test_eigsum_tf.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_true, to_numpy

clause = pytest.mark.clause


def _inner(x: np.ndarray) -> np.generic:
    """InnerMostDimReducer over a 1-D slice of at most P·1024 elements, packet by packet."""
    lanes = 8 if x.dtype == np.float32 else 4
    n, zero = x.size, x.dtype.type(0)
    accs = [np.zeros(lanes, x.dtype) for _ in range(4)]
    end4 = (n // (4 * lanes)) * 4 * lanes
    for j in range(0, end4, 4 * lanes):   # four accumulators over blocks of 4·P
        for k in range(4):
            accs[k] = accs[k] + x[j + k * lanes:j + (k + 1) * lanes]
    acc = ((accs[0] + accs[1]) + accs[2]) + accs[3]
    end = (n // lanes) * lanes
    for j in range(end4, end, lanes):   # the remaining whole packets
        acc = acc + x[j:j + lanes]
    tail = zero
    for j in range(end, n):   # the scalar tail, from 0
        tail = x.dtype.type(tail + x[j])
    while acc.size > 1:   # the lanes as a halving tree
        acc = acc[:acc.size // 2] + acc[acc.size // 2:]
    return x.dtype.type(tail + acc[0])


def _preserved_column(col: np.ndarray) -> np.generic:
    """InnerMostDimPreserver's value of one column of >= 16 rows: four interleaved accumulators."""
    accs = [col.dtype.type(0)] * 4
    unrolled = (col.size // 4) * 4
    for j in range(unrolled):
        accs[j % 4] = col.dtype.type(accs[j % 4] + col[j])
    acc = col.dtype.type(col.dtype.type(col.dtype.type(accs[0] + accs[1]) + accs[2]) + accs[3])
    for j in range(unrolled, col.size):
        acc = col.dtype.type(acc + col[j])
    return acc


def _data(shape: tuple[int, ...], dtype: type, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 10 ** rng.uniform(-3, 3, shape)).astype(dtype)


def _same(got, want: np.ndarray, call: str) -> None:
    g = to_numpy(got)
    assert_true(g.shape == want.shape and g.dtype == want.dtype and np.array_equal(g, want),
                f"out={g!r}, but should be {want!r} (Eigen's order)", call=call)


@clause("ops.sum-order", ref="tf221")
def test_sums_add_in_eigen_packet_order(tf):
    differs = 0
    for dtype in (np.float32, np.float64):
        for n, seed in ((37, 1), (200, 2), (1000, 3)):
            x = _data((n,), dtype, seed)
            want = np.asarray(_inner(x))
            differs += int(want != np.add.reduce(x))
            _same(tf.reduce_sum(tf.constant(x)), want, call=f"reduce_sum({n} {np.dtype(dtype).name})")
            _same(tf.reduce_mean(tf.constant(x)), np.asarray(want / dtype(n)).astype(dtype),
                  call=f"reduce_mean({n} {np.dtype(dtype).name})")
        rows = _data((3, 45), dtype, 4)   # rows reduced along their contiguous elements
        _same(tf.reduce_sum(tf.constant(rows), axis=1), np.array([_inner(r) for r in rows], dtype),
              call=f"reduce_sum([3, 45] {np.dtype(dtype).name}, axis=1)")
        lanes = 8 if dtype == np.float32 else 4
        cols = _data((21, lanes), dtype, 5)   # one whole output packet: InnerMostDimPreserver
        _same(tf.reduce_sum(tf.constant(cols), axis=0), np.array([_preserved_column(c) for c in cols.T], dtype),
              call=f"reduce_sum([21, {lanes}] {np.dtype(dtype).name}, axis=0)")
    assert differs, "the data should hold sums where NumPy's pairwise order differs from Eigen's"
