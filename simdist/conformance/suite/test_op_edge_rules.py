"""Op edge rules — clauses ops.xfunctions, ops.truncation, ops.counting, ops.matrix-diag,
ops.simd-signed-zeros, ops.packet-paths, nn.softmax-nonfinite (TF 2.21 only).

Each test runs on the backend's `tf` alone. Expected values are NumPy references computed here
from the rule the clause states (docs/spec.md); the word-for-word comparison with TF 2.21 is in
tests/ops/test_op_edges_tf.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_dtype, assert_true, raises, to_numpy

clause = pytest.mark.clause


def assert_same(got, want, call):
    """Exact equality, NaN equal to NaN."""
    g = to_numpy(got)
    w = np.asarray(want)
    assert_true(g.shape == w.shape and np.array_equal(g, w, equal_nan=True),
                f"out={g!r}, but should be {w!r}", call=call)


def assert_signbits(got, want_neg, call):
    """Which elements are negative zeros (or negative): np.signbit of the result."""
    g = np.signbit(to_numpy(got))
    w = np.asarray(want_neg, bool)
    assert_true(g.shape == w.shape and bool(np.all(g == w)),
                f"signbit(out)={g.tolist()}, but should be {w.tolist()}", call=call)


@clause("ops.xfunctions", ref="tf221")
def test_xfunctions_are_zero_where_x_is_zero(tf):
    x = np.array([0.0, 0.0, 0.0, 2.0, 1.5], np.float32)
    y = np.array([0.0, np.inf, np.nan, 3.0, -0.5], np.float32)
    with np.errstate(all="ignore"):
        want = {"xlogy": np.where(x == 0, 0, x * np.log(y)), "xdivy": np.where(x == 0, 0, x / y),
                "xlog1py": np.where(x == 0, 0, x * np.log1p(y))}
    for name, w in want.items():
        got = getattr(tf.math, name)(tf.constant(x), tf.constant(y))
        assert_dtype(got, "float32", call=f"tf.math.{name}")
        assert_close(got, w.astype(np.float32), call=f"tf.math.{name}({x.tolist()}, {y.tolist()})")
    a = np.array([np.inf, np.nan, 2.0], np.float32)
    b = np.array([0.0, 0.0, 4.0], np.float32)
    with np.errstate(invalid="ignore"):
        want_mnn = np.where(b == 0, 0, a * b).astype(np.float32)
    assert_same(tf.math.multiply_no_nan(tf.constant(a), tf.constant(b)), want_mnn,
                call=f"multiply_no_nan({a.tolist()}, {b.tolist()})")
    with raises(tf.errors.InvalidArgumentError, call="xlogy(int32, int32)"):
        tf.math.xlogy(tf.constant([1, 2]), tf.constant([3, 4]))
    with raises(ValueError, match="Tensor conversion requested dtype", call="multiply_no_nan(f32, int64)"):
        tf.math.multiply_no_nan(tf.constant([1.0]), tf.constant([1], dtype=tf.int64))
    # gradients (math_grad.py): d/dx = xlogy(x != 0, y), d/dy = xdivy(x, y)
    xv = tf.constant([0.0, 2.0])
    yv = tf.constant([0.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch([xv, yv])
        out = tf.math.xlogy(xv, yv)
    gx, gy = tape.gradient(out, [xv, yv])
    assert_close(gx, np.array([0.0, np.log(3.0)], np.float32), call="d xlogy/dx at x=[0, 2], y=[0, 3]")
    assert_close(gy, np.array([0.0, 2.0 / 3.0], np.float32), call="d xlogy/dy at x=[0, 2], y=[0, 3]")


@clause("ops.truncation", ref="tf221")
def test_truncating_division_rint_and_saturate_cast(tf):
    x = np.array([7, -7, 7, -7], np.int32)
    y = np.array([2, 2, -2, -2], np.int32)
    assert_same(tf.truncatediv(tf.constant(x), tf.constant(y)), (np.sign(x * y) * (np.abs(x) // np.abs(y))).astype(np.int32),
                call="truncatediv([7,-7,7,-7], [2,2,-2,-2])")
    assert_same(tf.truncatemod(tf.constant(x), tf.constant(y)), np.fmod(x, y), call="truncatemod(int32)")
    xf = np.array([7.5, -7.5], np.float32)
    yf = np.array([2.0, 2.0], np.float32)
    assert_same(tf.truncatediv(tf.constant(xf), tf.constant(yf)), np.trunc(xf / yf), call="truncatediv(float32)")
    assert_same(tf.truncatemod(tf.constant(xf), tf.constant(yf)), np.fmod(xf, yf), call="truncatemod(float32)")
    with raises(tf.errors.InternalError, call="truncatediv([1], [0])"):
        tf.truncatediv(tf.constant([1]), tf.constant([0]))
    r = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.7], np.float32)
    assert_same(tf.math.rint(tf.constant(r)), np.rint(r), call=f"rint({r.tolist()})")
    s = np.array([1e10, -1e10, 3.7, -3.7], np.float32)
    info = np.iinfo(np.int32)
    hi, lo = np.float32(info.max), np.float32(info.min)
    # a limit not representable in float32 moves one float32 step toward zero
    hi = hi if int(hi) <= info.max else np.nextafter(hi, np.float32(0))
    lo = lo if int(lo) >= info.min else np.nextafter(lo, np.float32(0))
    got = tf.dtypes.saturate_cast(tf.constant(s), tf.int32)
    assert_dtype(got, "int32", call="saturate_cast(float32, int32)")
    assert_same(got, np.clip(s, lo, hi).astype(np.int32), call=f"saturate_cast({s.tolist()}, int32)")
    u = np.array([-5.0, 300.0, 7.9], np.float32)
    assert_same(tf.dtypes.saturate_cast(tf.constant(u), tf.uint8), np.clip(u, 0, 255).astype(np.uint8),
                call=f"saturate_cast({u.tolist()}, uint8)")
    with raises(TypeError, match="Cannot find minimum value", call="saturate_cast(float32, bool)"):
        tf.dtypes.saturate_cast(tf.constant([1.0]), tf.bool)


@clause("ops.counting", ref="tf221")
def test_unique_bincount_count_nonzero_in_top_k(tf):
    v = np.array([3, 1, 3, 2, 1, 5], np.int32)
    vals, first = np.unique(v, return_index=True)
    order = np.argsort(first)
    want_y = vals[order]
    want_idx = np.array([int(np.nonzero(want_y == e)[0][0]) for e in v], np.int32)
    want_count = np.array([int(np.sum(v == e)) for e in want_y], np.int32)
    y, idx, count = tf.unique_with_counts(tf.constant(v))
    assert_same(y, want_y, call=f"unique_with_counts({v.tolist()}).y")
    assert_same(idx, want_idx, call=f"unique_with_counts({v.tolist()}).idx")
    assert_same(count, want_count, call=f"unique_with_counts({v.tolist()}).count")
    z = tf.unique(tf.constant([-0.0, 0.0, 1.0]))[0]
    assert_true(to_numpy(z).shape == (2,), f"unique([-0.0, 0.0, 1.0]).y={to_numpy(z)!r}, but -0.0 and 0.0 are one value",
                call="unique([-0.0, 0.0, 1.0])")
    n = tf.unique(tf.constant([np.nan, np.nan]))[0]
    assert_true(to_numpy(n).shape == (2,), f"unique([nan, nan]).y={to_numpy(n)!r}, but every NaN is a value of its own",
                call="unique([nan, nan])")
    with raises(tf.errors.InvalidArgumentError, call="unique(rank 2)"):
        tf.unique(tf.constant([[1, 2]]))
    b = np.array([1, 1, 3, 7], np.int32)
    assert_same(tf.math.bincount(tf.constant(b), minlength=5), np.bincount(b, minlength=5).astype(np.int32),
                call="bincount([1,1,3,7], minlength=5)")
    assert_same(tf.math.bincount(tf.constant(b), maxlength=4), np.bincount(b)[:4].astype(np.int32),
                call="bincount([1,1,3,7], maxlength=4)")
    with raises(tf.errors.InvalidArgumentError, call="bincount([-1])"):
        tf.math.bincount(tf.constant([-1]))
    c = np.array([0.0, 1.0, np.nan, 0.0, -2.0], np.float32)
    got = tf.math.count_nonzero(tf.constant(c))
    assert_dtype(got, "int64", call="count_nonzero(float32)")
    assert_same(got, np.int64(np.count_nonzero(c)), call=f"count_nonzero({c.tolist()})")
    p = np.array([[0.1, 0.5, 0.5, 0.2], [0.9, 0.1, 0.0, 0.0], [np.nan, 1.0, 0.0, 0.0]], np.float32)
    t = np.array([2, 1, 1], np.int32)
    k = 1
    # in the top k when fewer than k classes predict strictly more; a non-finite row is False
    want = np.array([np.sum(p[i] > p[i, t[i]]) < k and bool(np.all(np.isfinite(p[i]))) for i in range(3)])
    assert_same(tf.math.in_top_k(tf.constant(t), tf.constant(p), k), want, call=f"in_top_k(targets={t.tolist()}, k={k})")


def _diag_part_band(a: np.ndarray, lo: int, hi: int, pad: float) -> np.ndarray:
    """MatrixDiagPartV3 with align RIGHT_LEFT: diagonals hi..lo, superdiagonals right-aligned,
    subdiagonals (and the main one) left-aligned."""
    m, n = a.shape
    width = max(min(m + min(0, d), n - max(0, d)) for d in range(lo, hi + 1))
    rows = []
    for d in range(hi, lo - 1, -1):
        diag = np.diagonal(a, d)
        padding = np.full(width - diag.size, pad, a.dtype)
        rows.append(np.concatenate([padding, diag]) if d > 0 else np.concatenate([diag, padding]))
    return np.stack(rows)


@clause("ops.matrix-diag", ref="tf221")
def test_diag_part_and_diag_with_offsets(tf):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    for k in (0, 1, -1, 2):
        assert_same(tf.linalg.diag_part(tf.constant(a), k=k), np.diagonal(a, k), call=f"diag_part(3x4, k={k})")
    assert_same(tf.linalg.diag_part(tf.constant(a), k=(-1, 2), padding_value=9.0), _diag_part_band(a, -1, 2, 9.0),
                call="diag_part(3x4, k=(-1, 2), padding_value=9)")
    v = np.array([1.0, 2.0], np.float32)
    assert_same(tf.linalg.diag(tf.constant(v), k=1), np.diag(v, 1), call="diag([1, 2], k=1)")
    assert_same(tf.linalg.diag(tf.constant(v), k=-1), np.diag(v, -1), call="diag([1, 2], k=-1)")
    with raises(tf.errors.InvalidArgumentError, call="diag_part(rank 1)"):
        tf.linalg.diag_part(tf.constant([1.0, 2.0]))
    x = tf.constant(a)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = tf.reduce_sum(tf.linalg.diag_part(x, k=1) * tf.constant([1.0, 2.0, 3.0]))
    g = np.zeros_like(a)
    g[np.arange(3), np.arange(3) + 1] = [1.0, 2.0, 3.0]
    assert_same(tape.gradient(out, x), g, call="d sum(diag_part(x, k=1) * [1,2,3])/dx")


@clause("ops.simd-signed-zeros", ref="tf221")
def test_zero_signs_of_packets_and_scalar_tail(tf):
    packet = 8  # float32 lanes of TF 2.21's x86-64 wheel (AVX2); see the clause's hardware note
    n = 19
    tail = n % packet
    want_neg = np.arange(n) >= n - tail
    # np.full, not tf.fill: TF 2.21's eager fill of -0.0 returns +0.0 once a GradientTape has run
    # (observed), which would hide the kernel's rule
    assert_signbits(tf.nn.relu(tf.constant(np.full(n, -0.0, np.float32))), want_neg, call=f"relu(full([{n}], -0.0))")
    assert_signbits(tf.nn.relu(tf.constant([-0.0])), [True], call="relu([-0.0])")
    got = tf.clip_by_value(tf.constant([1.0, -0.0, np.nan]), 0.0, 2.0)
    assert_signbits(got, [False, True, False], call="clip_by_value([1., -0., nan], 0., 2.)")
    assert_same(got, np.array([1.0, 0.0, np.nan], np.float32), call="clip_by_value([1., -0., nan], 0., 2.)")
    x = np.full(n, -0.0, np.float32)
    y = np.full(n, 2.0, np.float32)
    assert_signbits(tf.math.xlogy(tf.constant(x), tf.constant(y)), ~want_neg, call=f"xlogy(fill([{n}], -0.0), 2.0)")


@clause("nn.softmax-nonfinite", ref="tf221")
def test_softmax_rows_with_nan_or_inf(tf, onednn_float32):
    rows = np.array([[np.nan, 1.0, -np.inf], [np.inf, 1.0, 2.0], [-np.inf, -np.inf, -np.inf],
                     [-np.inf, 0.0, 0.0], [1.0, 2.0, 3.0]], np.float32)
    bad = ~np.isfinite(rows) & ~np.isneginf(rows)  # NaN or +inf
    finite = rows[4] - np.max(rows[4])
    ref = np.exp(finite) / np.sum(np.exp(finite))
    # oneDNN (float32): NaN/+inf entries NaN, the rest 0; all -inf: NaN; -inf beside finite: 0
    want32 = np.stack([np.where(bad[0], np.nan, 0.0), np.where(bad[1], np.nan, 0.0), np.full(3, np.nan),
                       [0.0, 0.5, 0.5], ref]).astype(np.float32)
    got = tf.nn.softmax(tf.constant(rows))
    assert_close(got, want32, call="softmax(float32 rows with nan/inf)")
    assert_same(to_numpy(got)[:3], want32[:3], call="softmax(float32 rows with nan/inf)[:3]")
    # Eigen (float64) and log_softmax: NaN across a row holding NaN or +inf
    got64 = to_numpy(tf.nn.softmax(tf.constant(rows.astype(np.float64))))
    assert_true(bool(np.all(np.isnan(got64[:3]))), f"softmax(float64)[:3]={got64[:3]!r}, but should be NaN throughout",
                call="softmax(float64 rows with nan/inf)")
    lsm = to_numpy(tf.nn.log_softmax(tf.constant(rows)))
    assert_true(bool(np.all(np.isnan(lsm[:3]))), f"log_softmax(float32)[:3]={lsm[:3]!r}, but should be NaN throughout",
                call="log_softmax(float32 rows with nan/inf)")
    assert_close(lsm[4], np.log(ref), call="log_softmax([1, 2, 3])")


@clause("ops.packet-paths", ref="tf221")
def test_narrowing_casts_saturate_in_packets_and_wrap_in_the_tail(tf):
    # float32 -> int8: 32-element packets, then one element at a time (the clause's hardware note: AVX2)
    n = 33
    got = tf.cast(tf.constant(np.full(n, 300.0, np.float32)), tf.int8)
    want = np.array([127] * 32 + [44], np.int8)   # packets clip the int32 300; the tail keeps its low bits
    assert_same(got, want, call=f"cast(full([{n}], 300.0), int8)")
    got = tf.cast(tf.constant(np.full(17, np.nan, np.float16)), tf.int8)
    assert_same(got, np.array([-128] * 16 + [0], np.int8), call="cast(full([17], nan, float16), int8)")
    # a zero and an infinity in one product: Eigen's packet order gives NaN where left to right gives 0
    x = tf.constant([[3.0, -1.5], [2.0, -0.0], [-np.finfo(np.float64).max, -np.finfo(np.float64).max]], tf.float64)
    got = tf.reduce_prod(x)
    assert np.isnan(got.numpy()), f"reduce_prod(...)={got.numpy()!r}, but should be nan [reduce_prod(float64, packet order)]"
