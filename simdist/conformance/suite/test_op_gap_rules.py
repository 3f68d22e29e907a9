"""Issue 29's second batch of ops — clauses ops.special-more, ops.math-composites, ops.array-more,
ops.space-batch, ops.nn-more, ops.linalg-more, ops.control-flow (TF 2.21 only).

Each test runs on the backend's `tf` alone. Expected values are NumPy references computed here
from the rule each clause states (docs/spec.md); the comparison with TF 2.21 itself, case by
case, is in tests/ops/test_op_gap_tf.py and tests/ops/test_op_differential_tf.py (specs_gap.py).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_dtype, assert_true, raises, to_numpy

clause = pytest.mark.clause


def _same(got, want, call):
    g = to_numpy(got)
    w = np.asarray(want)
    assert_true(g.shape == w.shape and np.array_equal(g, w, equal_nan=True), f"out={g!r}, but should be {w!r}",
                call=call)


@clause("ops.special-more", ref="tf221")
def test_special_functions_domains_dtypes_and_gradients(tf):
    # the incomplete gamma functions: x == 0 gives igamma 0 whatever a is; NaN outside a > 0, x >= 0
    a = tf.constant([0.5, -1.0, 1.0, 2.0], tf.float64)
    x = tf.constant([0.0, 0.0, -1.0, 1.0], tf.float64)
    want = np.array([0.0, 0.0, np.nan, 1 - 2 * math.exp(-1)])
    assert_close(tf.math.igamma(a, x), want, call="igamma([0.5, -1, 1, 2], [0, 0, -1, 1])")
    assert_close(tf.math.igammac(a, x), np.array([1.0, np.nan, np.nan, 2 * math.exp(-1)]),
                 call="igammac([0.5, -1, 1, 2], [0, 0, -1, 1])")
    # zeta: x == 1 is inf, x < 1 NaN; zeta(2, 1) = pi^2 / 6
    assert_close(tf.math.zeta(tf.constant([1.0, 0.5, 2.0], tf.float64), tf.constant([3.0, 1.0, 1.0], tf.float64)),
                 np.array([np.inf, np.nan, math.pi ** 2 / 6]), call="zeta([1, 0.5, 2], [3, 1, 1])")
    # erfinv / ndtri at the ends of their domain
    _same(tf.math.erfinv(tf.constant([-1.0, 1.0, 1.5])), np.array([-np.inf, np.inf, np.nan], np.float32),
          call="erfinv([-1, 1, 1.5])")
    _same(tf.math.ndtri(tf.constant([0.0, 0.5, 1.0])), np.array([-np.inf, 0.0, np.inf], np.float32),
          call="ndtri([0, 0.5, 1])")
    # Bessel functions: I0(0) = 1, I1(0) = 0, I0e(x) = exp(-|x|) I0(x)
    assert_close(tf.math.bessel_i0(tf.constant([0.0, 1.0], tf.float64)), np.array([1.0, 1.2660658777520082]),
                 call="bessel_i0([0, 1])")
    assert_close(tf.math.bessel_i0e(tf.constant([-1.0], tf.float64)), np.array([1.2660658777520082 * math.exp(-1)]),
                 call="bessel_i0e([-1])")
    _same(tf.math.nextafter(tf.constant([1.0], tf.float64), tf.constant([2.0], tf.float64)),
          np.array([np.nextafter(1.0, 2.0)]), call="nextafter(1.0, 2.0)")
    # dtypes: integers and half are refused (InvalidArgumentError / NotFoundError); zeta and betainc float/double
    with raises(tf.errors.InvalidArgumentError, call="erfinv(int32)"):
        tf.math.erfinv(tf.constant([1]))
    with raises(tf.errors.NotFoundError, call="ndtri(float16)"):
        tf.math.ndtri(tf.constant([0.5], tf.float16))
    with raises(tf.errors.InvalidArgumentError, call="zeta(float16, float16)"):
        tf.math.zeta(tf.constant([2.0], tf.float16), tf.constant([1.0], tf.float16))
    with raises(tf.errors.InvalidArgumentError, call="betainc with shapes [2], [3], [2]"):
        tf.math.betainc(tf.ones([2]), tf.ones([3]), tf.ones([2]))
    # gradients (math_grad.py): d erfinv = sqrt(pi)/2 exp(erfinv(x)^2); d bessel_i1 at 0 = 1; betainc: x only
    v = tf.constant([0.0, 0.5], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.math.erfinv(v)
    want_g = math.sqrt(math.pi) / 2 * np.exp(to_numpy(y) ** 2)
    assert_close(tape.gradient(y, v), want_g, call="d erfinv(x)/dx at [0, 0.5]")
    z = tf.constant([0.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.math.bessel_i1(z)
    assert_close(tape.gradient(y, z), np.array([1.0]), call="d bessel_i1(x)/dx at 0")
    pa, pb, px = (tf.constant([2.0], tf.float64), tf.constant([3.0], tf.float64), tf.constant([0.25], tf.float64))
    with tf.GradientTape() as tape:
        tape.watch([pa, pb, px])
        y = tf.math.betainc(pa, pb, px)
    ga, gb, gx = tape.gradient(y, [pa, pb, px])
    assert_true(ga is None and gb is None, f"betainc's gradients for a and b are {ga!r}, {gb!r}, but should be None",
                call="betainc gradient")
    assert_close(gx, np.array([12 * 0.25 * 0.75 ** 2]), call="d betainc(2, 3, x)/dx at 0.25")


@clause("ops.math-composites", ref="tf221")
def test_math_composites_follow_their_python_definitions(tf):
    _same(tf.math.reciprocal_no_nan(tf.constant([0.0, 2.0, np.inf])), np.array([0.0, 0.5, 0.0], np.float32),
          call="reciprocal_no_nan([0, 2, inf])")
    with raises(tf.errors.InvalidArgumentError, call="reciprocal_no_nan(int32)"):
        tf.math.reciprocal_no_nan(tf.constant([2]))
    _same(tf.math.polyval([2, 1, 0], 3), np.array(21, np.int32), call="polyval([2, 1, 0], 3)")
    _same(tf.math.polyval([], tf.constant([1.5])), np.array([0.0], np.float32), call="polyval([], [1.5])")
    with raises(ValueError, call="polyval((1.0,), 2.0)"):
        tf.math.polyval((1.0,), 2.0)
    _same(tf.math.scalar_mul(2, tf.constant([1.5, -1.0])), np.array([3.0, -2.0], np.float32),
          call="scalar_mul(2, [1.5, -1])")
    with raises(ValueError, call="scalar_mul([2, 3], x)"):
        tf.math.scalar_mul([2.0, 3.0], tf.constant([1.0, 2.0]))
    _same(tf.math.is_non_decreasing([[1, 2], [2, 3]]), np.array(True), call="is_non_decreasing([[1, 2], [2, 3]])")
    _same(tf.math.is_strictly_increasing([1.0, 2.0, 2.0]), np.array(False), call="is_strictly_increasing([1, 2, 2])")
    _same(tf.math.is_non_decreasing([1.0, np.nan]), np.array(False), call="is_non_decreasing([1, nan])")
    with raises(TypeError, call="is_non_decreasing([True, False])"):
        tf.math.is_non_decreasing([True, False])
    zf = tf.math.zero_fraction([0.0, np.nan, -0.0, 1.0])
    assert_dtype(zf, "float32", call="zero_fraction(float32)")
    _same(zf, np.array(0.5, np.float32), call="zero_fraction([0, nan, -0, 1])")
    assert_close(tf.math.lbeta(tf.constant([[1.0, 2.0]], tf.float64)), np.array([math.log(0.5)]),
                 call="lbeta([[1, 2]])")
    _same(tf.math.accumulate_n([[1, 2], [3, 4]]), np.array([4, 6], np.int32), call="accumulate_n([[1, 2], [3, 4]])")
    _same(tf.math.invert_permutation([2, 0, 1]), np.array([1, 2, 0], np.int32), call="invert_permutation([2, 0, 1])")
    with raises(tf.errors.InvalidArgumentError, call="invert_permutation([0, 0, 1])"):
        tf.math.invert_permutation([0, 0, 1])


@clause("ops.array-more", ref="tf221")
def test_array_ops_values_and_errors(tf):
    _same(tf.roll(tf.reshape(tf.range(6), [2, 3]), [1, 1], [1, 1]), np.roll(np.arange(6).reshape(2, 3), 2, 1),
          call="roll(x, [1, 1], [1, 1])")
    with raises(tf.errors.InvalidArgumentError, call="roll([1, 2, 3], [1, 2], [0])"):
        tf.roll([1, 2, 3], [1, 2], [0])
    _same(tf.reverse_sequence(tf.reshape(tf.range(8), [2, 4]), [3, 0], seq_axis=1, batch_axis=0),
          np.array([[2, 1, 0, 3], [4, 5, 6, 7]], np.int32), call="reverse_sequence(x, [3, 0])")
    s = [0.0, 1.0, 1.0, np.nan]
    _same(tf.searchsorted(s, [1.0, np.nan]), np.array([1, 0], np.int32), call="searchsorted([0, 1, 1, nan], [1, nan])")
    # (upper_bound: the first e with 1 < e; !(1 < nan) holds, so the search passes the NaN)
    _same(tf.searchsorted(s, [1.0], side="right"), np.array([4], np.int32), call="searchsorted(side='right')")
    _same(tf.unravel_index([5, -1], [3, 4]), np.array([[1, 0], [1, -1]], np.int32), call="unravel_index([5, -1], [3, 4])")
    _same(tf.tensor_scatter_nd_max(tf.constant([1.0, np.nan]), [[0], [1]], tf.constant([np.nan, 2.0])),
          np.array([1.0, np.nan], np.float32), call="tensor_scatter_nd_max([1, nan], [nan, 2])")
    _same(tf.tensor_scatter_nd_min(tf.constant([5, 5]), [[0], [0]], [3, 7]), np.array([3, 5], np.int32),
          call="tensor_scatter_nd_min([5, 5], [[0], [0]], [3, 7])")
    _same(tf.broadcast_dynamic_shape([1, 3], [4, 1, 1]), np.array([4, 1, 3], np.int32),
          call="broadcast_dynamic_shape([1, 3], [4, 1, 1])")
    assert_true(tf.broadcast_static_shape(tf.TensorShape([1, 3]), tf.TensorShape([2, 1])).as_list() == [2, 3],
                "broadcast_static_shape([1, 3], [2, 1]) should be [2, 3]", call="broadcast_static_shape")
    with raises(tf.errors.InvalidArgumentError, call="ensure_shape(zeros([2, 3]), [3, 2])"):
        tf.ensure_shape(tf.zeros([2, 3]), [3, 2])
    with raises(RuntimeError, call="parallel_stack (eager)"):
        tf.parallel_stack([tf.constant(1.0)])
    _same(tf.bitcast(tf.constant([1.0]), tf.int32), np.array([1065353216], np.int32), call="bitcast(1.0, int32)")
    _same(tf.bitcast(tf.constant([1], tf.int32), tf.uint8), np.array([[1, 0, 0, 0]], np.uint8),
          call="bitcast(int32 1, uint8)")
    shapes = tf.shape_n([tf.zeros([2, 3]), tf.zeros([4])])
    _same(shapes[0], np.array([2, 3], np.int32), call="shape_n")
    v = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.reduce_sum(tf.roll(v, 1, 0) * tf.constant([1.0, 2.0, 3.0]))
    _same(tape.gradient(y, v), np.array([2.0, 3.0, 1.0], np.float32), call="d sum(roll(v, 1) * [1, 2, 3]) / dv")


@clause("ops.space-batch", ref="tf221")
def test_space_batch_and_depth_moves(tf):
    x = np.arange(16).reshape(1, 4, 4, 1).astype(np.int32)
    want = x.reshape(1, 2, 2, 2, 2, 1).transpose(2, 4, 0, 1, 3, 5).reshape(4, 2, 2, 1)
    got = tf.space_to_batch_nd(tf.constant(x), [2, 2], [[0, 0], [0, 0]])
    _same(got, want, call="space_to_batch_nd(4x4, [2, 2])")
    _same(tf.batch_to_space(got, [2, 2], [[0, 0], [0, 0]]), x, call="batch_to_space(space_to_batch_nd(x))")
    _same(tf.space_to_batch(tf.constant([[[1], [2], [3]]]), [2], [[1, 0]]), np.array([[[0], [2]], [[1], [3]]], np.int32),
          call="space_to_batch([[1, 2, 3]], [2], [[1, 0]])")
    with raises(tf.errors.InvalidArgumentError, call="space_to_batch_nd(3x3, [2, 2])"):
        tf.space_to_batch_nd(tf.zeros([1, 3, 3, 1]), [2, 2], [[0, 0], [0, 0]])
    d = np.arange(8).reshape(1, 1, 1, 8).astype(np.int32)
    _same(tf.nn.depth_to_space(tf.constant(d), 2), d.reshape(1, 1, 1, 2, 2, 2).transpose(0, 1, 3, 2, 4, 5)
          .reshape(1, 2, 2, 2), call="depth_to_space(1x1x8, 2)")
    _same(tf.nn.space_to_depth(tf.nn.depth_to_space(tf.constant(d), 2), 2), d, call="space_to_depth(depth_to_space(x))")
    with raises(tf.errors.InvalidArgumentError, call="depth_to_space(depth 6, 2)"):
        tf.nn.depth_to_space(tf.zeros([1, 1, 1, 6]), 2)


@clause("ops.nn-more", ref="tf221")
def test_nn_additions(tf):
    _same(tf.nn.crelu(tf.constant([1.0, -2.0])), np.array([1.0, 0.0, 0.0, 2.0], np.float32), call="crelu([1, -2])")
    m, v = tf.nn.normalize_moments(tf.constant(2.0), tf.constant([3.0]), tf.constant([5.0]), None)
    _same(m, np.array([1.5], np.float32), call="normalize_moments: mean")
    _same(v, np.array([0.25], np.float32), call="normalize_moments: variance (5 / 2 - 1.5^2)")
    c, ms, vs, _ = tf.nn.sufficient_statistics(tf.constant([[1.0, 2.0], [3.0, 4.0]]), [0])
    _same(c, np.array(2.0, np.float32), call="sufficient_statistics: count")
    _same(vs, np.array([10.0, 20.0], np.float32), call="sufficient_statistics: sum of squares")
    wm, wv = tf.nn.weighted_moments(tf.constant([[1.0, 3.0]]), [1], tf.constant([[1.0, 3.0]]))
    _same(wm, np.array([2.5], np.float32), call="weighted_moments: mean")
    _same(wv, np.array([0.75], np.float32), call="weighted_moments: variance")
    _same(tf.nn.max_pool1d(tf.constant([[[1.0], [5.0], [3.0], [2.0]]]), 2, 2, "VALID"),
          np.array([[[5.0], [3.0]]], np.float32), call="max_pool1d")
    _same(tf.nn.avg_pool1d(tf.constant([[[1.0], [5.0], [3.0]]]), 2, 1, "VALID"), np.array([[[3.0], [4.0]]], np.float32),
          call="avg_pool1d")
    _same(tf.nn.log_poisson_loss(tf.constant([2.0]), tf.constant([0.0])), np.array([1.0], np.float32),
          call="log_poisson_loss(2, 0)")
    x = np.linspace(-1, 1, 6).reshape(1, 1, 1, 6).astype(np.float32)
    sq = x.astype(np.float64) ** 2
    s = np.stack([sq[..., max(0, d - 1):d + 2].sum(-1) for d in range(6)], -1)
    assert_close(tf.nn.lrn(tf.constant(x), 1, 1.0, 0.5, 0.75), x / (1.0 + 0.5 * s) ** 0.75,
                 call="lrn(x, depth_radius=1, bias=1, alpha=0.5, beta=0.75)")
    with raises(tf.errors.InvalidArgumentError, call="lrn(float64)"):
        tf.nn.lrn(tf.zeros([1, 1, 1, 2], tf.float64))


@clause("ops.linalg-more", ref="tf221")
def test_linalg_additions(tf):
    a = np.array([[4.0, 1.0], [2.0, 3.0]])
    t = tf.constant(a, tf.float64)
    assert_close(tf.linalg.det(t), np.array(10.0), call="det([[4, 1], [2, 3]])")
    sign, logabs = tf.linalg.slogdet(tf.constant([[0.0, 2.0], [3.0, 1.0]], tf.float64))
    assert_close(sign, np.array(-1.0), call="slogdet: sign")
    assert_close(logabs, np.array(math.log(6.0)), call="slogdet: log|det|")
    assert_close(tf.linalg.inv(t), np.linalg.inv(a), call="inv")
    assert_close(tf.linalg.solve(t, tf.constant([[1.0], [2.0]], tf.float64)), np.linalg.solve(a, [[1.0], [2.0]]),
                 call="solve")
    with raises(tf.errors.InvalidArgumentError, call="inv(singular)"):
        tf.linalg.inv(tf.constant([[1.0, 2.0], [2.0, 4.0]]))
    spd = np.array([[4.0, 100.0], [2.0, 5.0]])   # the upper triangle is not read
    assert_close(tf.linalg.cholesky(tf.constant(spd, tf.float64)), np.array([[2.0, 0.0], [1.0, 2.0]]),
                 call="cholesky (lower triangle read)")
    bad = to_numpy(tf.linalg.cholesky(tf.constant([[1.0, 2.0], [2.0, 1.0]])))
    assert_true(bool(np.isnan(bad[np.tril_indices(2)]).all()),
                f"cholesky of an indefinite matrix gives {bad!r}, but should be NaN on and below the diagonal "
                "(TF leaves the upper triangle unwritten)", call="cholesky(indefinite)")
    assert_close(tf.linalg.triangular_solve(tf.constant([[2.0, 9.0], [1.0, 4.0]], tf.float64),
                                            tf.constant([[2.0], [5.0]], tf.float64)), np.array([[1.0], [1.0]]),
                 call="triangular_solve (upper triangle not read)")
    q, r = tf.linalg.qr(tf.constant([[3.0, 1.0], [4.0, 2.0], [0.0, 1.0]], tf.float64))
    assert_close(tf.matmul(q, r), np.array([[3.0, 1.0], [4.0, 2.0], [0.0, 1.0]]), call="qr: q @ r")
    _same(tf.linalg.band_part(tf.reshape(tf.range(9), [3, 3]), 0, 1), np.triu(np.arange(9).reshape(3, 3))
          - np.triu(np.arange(9).reshape(3, 3), 2), call="band_part(x, 0, 1)")
    _same(tf.linalg.set_diag(tf.zeros([2, 2], tf.int32), [7, 8]), np.array([[7, 0], [0, 8]], np.int32), call="set_diag")
    _same(tf.linalg.cross([1, 0, 0], [0, 1, 0]), np.array([0, 0, 1], np.int32), call="cross(e1, e2)")
    with raises(tf.errors.FailedPreconditionError, call="cross of 2-vectors"):
        tf.linalg.cross([1.0, 0.0], [0.0, 1.0])
    _same(tf.linalg.tensor_diag([1, 2]), np.diag([1, 2]).astype(np.int32), call="tensor_diag([1, 2])")
    _same(tf.linalg.tensor_diag_part(tf.reshape(tf.range(16), [2, 2, 2, 2])), np.array([[0, 5], [10, 15]], np.int32),
          call="tensor_diag_part")
    n, norm = tf.linalg.normalize(tf.constant([3.0, 4.0]))
    _same(norm, np.array([5.0], np.float32), call="normalize: norm")
    assert_close(n, np.array([0.6, 0.8], np.float32), call="normalize: tensor / norm")
    _same(tf.linalg.adjoint(tf.constant([[1, 2, 3]])), np.array([[1], [2], [3]], np.int32), call="adjoint")
    v = tf.constant(a, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(v)
        d = tf.linalg.det(v)
    assert_close(tape.gradient(d, v), 10.0 * np.linalg.inv(a).T, call="d det(A)/dA = det(A) inv(A)^T")


@clause("ops.control-flow", ref="tf221")
def test_control_flow_eager_and_in_function(tf):
    _same(tf.cond(tf.constant(2.0) > 1, lambda: tf.constant([1, 2]), lambda: tf.constant([3])), np.array([1, 2], np.int32),
          call="cond(2 > 1, [1, 2], [3])")
    assert_true(tf.cond(False, lambda: 1.5, lambda: 2) == 2, "cond(False, ...) should return the false branch's 2",
                call="cond(False, lambda: 1.5, lambda: 2)")
    with raises(TypeError, call="cond(pred, 1, fn)"):
        tf.cond(tf.constant(True), 1, lambda: 2)
    i, s = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2.0), (0, 1.0))
    _same(s, np.array(8.0, np.float32), call="while_loop doubling 3 times")
    capped = tf.while_loop(lambda i: True, lambda i: [i + 1], [tf.constant(0)], maximum_iterations=4)
    _same(capped[0], np.array(4, np.int32), call="while_loop(maximum_iterations=4)")
    _same(tf.map_fn(lambda x: x * 2, tf.constant([1, 2, 3])), np.array([2, 4, 6], np.int32), call="map_fn(x * 2)")
    with raises(tf.errors.InvalidArgumentError, call="map_fn writing float32 into an int32 TensorArray"):
        tf.map_fn(lambda x: tf.cast(x, tf.float32), tf.constant([1, 2]))
    _same(tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4])), np.array([1, 3, 6, 10], np.int32), call="scan(+)")
    _same(tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3]), reverse=True), np.array([6, 5, 3], np.int32),
          call="scan(+, reverse=True)")
    _same(tf.foldr(lambda a, x: a - x, tf.constant([1, 2, 3])), np.array(0, np.int32), call="foldr(a - x, [1, 2, 3])")
    _same(tf.foldl(lambda a, x: a * 10 + x, tf.constant([1, 2, 3]), initializer=0), np.array(123, np.int32),
          call="foldl(a * 10 + x, [1, 2, 3], 0)")
    with raises(tf.errors.OutOfRangeError, call="foldl over empty elems without initializer"):
        tf.foldl(lambda a, x: a + x, tf.zeros([0]))
    v = tf.Variable([1.5, -0.5])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * v), (0, tf.ones([2])))[1])
    _same(tape.gradient(y, v), np.array([3 * 1.5 ** 2, 3 * 0.25], np.float32), call="d sum(v^3) / dv through while_loop")

    out = tf.vectorized_map(lambda r: (tf.reduce_sum(r), 2.0), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    _same(out[0], np.array([3.0, 7.0], np.float32), call="vectorized_map(reduce_sum)")
    _same(out[1], np.array([2.0, 2.0], np.float32), call="vectorized_map: a Python output broadcast")
    _same(tf.switch_case(tf.constant(5), [lambda: tf.constant(1), lambda: tf.constant(2)]), np.array(2, np.int32),
          call="switch_case(5, two branches) runs the last")
    with raises(tf.errors.InvalidArgumentError, call="tf.Assert(False, ...)"):
        tf.Assert(tf.constant(False), ["x"])

    @tf.function
    def f(x):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: -x)
    _same(f(tf.constant([1.0, 2.0])), np.array([2.0, 4.0], np.float32), call="tf.function cond, positive sum")
    _same(f(tf.constant([-1.0, -2.0])), np.array([1.0, 2.0], np.float32), call="tf.function cond, negative sum")
