"""Issue 29's third batch of ops — clauses ops.nn-3d, ops.nn-morphology, ops.nn-isotonic, ops.nn-accidental-hits, ops.nn-composites, ops.linalg-spectral,
ops.linalg-lu, ops.linalg-tridiagonal, ops.linalg-expm, ops.as-string, ops.function-utilities (TF 2.21 only).

Each test runs on the backend's `tf` alone. Expected values are NumPy references computed here
from the rule each clause states (docs/spec.md); the comparison with TF 2.21 itself, case by case,
is in tests/ops/test_op_gap3_tf.py and tests/ops/test_op_differential_tf.py (specs_gap3.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_true, raises, to_numpy

clause = pytest.mark.clause


def _same(got, want, call):
    g = to_numpy(got)
    w = np.asarray(want)
    assert_true(g.shape == w.shape and np.array_equal(g, w, equal_nan=True), f"out={g!r}, but should be {w!r}",
                call=call)


def _conv3d_valid(x, f):
    n, d, h, w, _ = x.shape
    kd, kh, kw, _, co = f.shape
    out = np.zeros((n, d - kd + 1, h - kh + 1, w - kw + 1, co))
    for a in range(kd):
        for i in range(kh):
            for j in range(kw):
                out += np.einsum("ndhwc,co->ndhwo", x[:, a:a + out.shape[1], i:i + out.shape[2], j:j + out.shape[3]],
                                 f[a, i, j])
    return out


@clause("ops.nn-3d", ref="tf221")
def test_3d_convolution_and_pooling(tf, onednn_float32):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(1, 3, 4, 3, 2))
    f = rng.normal(size=(2, 2, 2, 2, 3))
    assert_close(tf.nn.conv3d(tf.constant(x), tf.constant(f), [1, 1, 1, 1, 1], "VALID"), _conv3d_valid(x, f),
                 call="conv3d(VALID, float64)")
    with raises(tf.errors.InvalidArgumentError, call="conv3d(float64, dilations [1, 2, 1, 1, 1])"):
        tf.nn.conv3d(tf.constant(x), tf.constant(f), [1, 1, 1, 1, 1], "VALID", dilations=[1, 2, 1, 1, 1])
    with raises(tf.errors.InvalidArgumentError, call="conv3d with a filter of another input depth"):
        tf.nn.conv3d(tf.constant(x), tf.constant(f[:, :, :, :1]), [1, 1, 1, 1, 1], "VALID")
    # conv3d_transpose is the adjoint of conv3d: <conv3d(x, f), y> == <x, conv3d_transpose(y, f)>
    y = rng.normal(size=(1, 2, 3, 2, 3))
    xt = tf.nn.conv3d_transpose(tf.constant(y), tf.constant(f), [1, 3, 4, 3, 2], 1, "VALID")
    assert_close(np.sum(to_numpy(xt) * x), np.sum(_conv3d_valid(x, f) * y), call="<x, conv3d_transpose(y, f)>")
    # MaxPool3D skips NaN, an all-NaN/-inf window is -FLT_MAX; its gradient reaches every tied maximum
    p = np.array([1, 3, 3, 2, np.nan, 0, -np.inf, 5.0], np.float32).reshape(1, 2, 2, 2, 1)
    v = tf.Variable(tf.constant(p))
    with tf.GradientTape() as tape:
        out = tf.nn.max_pool3d(v, [1, 2, 2], 1, "VALID")
    _same(out, np.array([3.0, 5.0], np.float32).reshape(1, 2, 1, 1, 1), call="max_pool3d with NaN")
    _same(tape.gradient(out, v), np.array([0, 1, 1, 0, 0, 0, 0, 1], np.float32).reshape(1, 2, 2, 2, 1),
          call="max_pool3d's gradient with tied maxima")
    _same(tf.nn.max_pool3d(tf.constant([[[[[np.nan]], [[-np.inf]]]]]), [1, 2, 1], 1, "VALID"),
          np.full((1, 1, 1, 1, 1), np.finfo(np.float32).min, np.float32), call="max_pool3d of [NaN, -inf]")
    with raises(tf.errors.NotFoundError, call="max_pool3d(float16)"):
        tf.nn.max_pool3d(tf.zeros([1, 2, 2, 2, 1], tf.float16), 2, 1, "VALID")
    # AvgPool3D averages the in-bounds elements of a SAME window
    a = np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2, 1)
    _same(tf.nn.avg_pool3d(tf.constant(a), 2, 2, "SAME"), np.array(3.5, np.float32).reshape(1, 1, 1, 1, 1),
          call="avg_pool3d(SAME)")
    _same(tf.nn.avg_pool(tf.constant(a), [1, 1, 2], 1, "VALID"),
          np.array([0.5, 2.5, 4.5, 6.5], np.float32).reshape(1, 2, 2, 1, 1), call="avg_pool of rank 5")
    # extract_volume_patches of the whole 2x2x2 volume is its 8 elements in (d, h, w, c) order
    _same(tf.extract_volume_patches(tf.constant(a), [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID"),
          np.arange(8, dtype=np.float32).reshape(1, 1, 1, 1, 8), call="extract_volume_patches")


@clause("ops.nn-morphology", ref="tf221")
def test_window_maxima_with_positions(tf):
    x = np.array([1, 3, 3, 2, 0, 5, -1, 2.0], np.float32).reshape(1, 2, 4, 1)
    f = np.array([0.0, 0.5], np.float32).reshape(1, 2, 1)
    v, w = tf.Variable(tf.constant(x)), tf.Variable(tf.constant(f))
    with tf.GradientTape() as tape:
        out = tf.nn.dilation2d(v, w, [1, 1, 1, 1], "VALID", "NHWC", [1, 1, 1, 1])
    # max(x[w] + 0, x[w + 1] + 0.5): [3.5, 3.5, 3] and [5.5, 5, 2.5]
    _same(out, np.array([3.5, 3.5, 3.0, 5.5, 5.0, 2.5], np.float32).reshape(1, 2, 3, 1), call="dilation2d")
    gx, gf = tape.gradient(out, [v, w])
    _same(gx, np.array([0, 1, 2, 0, 0, 2, 0, 1], np.float32).reshape(1, 2, 4, 1), call="dilation2d: input gradient")
    _same(gf, np.array([2.0, 4.0], np.float32).reshape(1, 2, 1), call="dilation2d: filter gradient")
    _same(tf.nn.erosion2d(tf.constant(x), tf.constant(f), [1, 1, 1, 1], "VALID", "NHWC", [1, 1, 1, 1]),
          np.array([0.5, 2.5, 2.0, -0.5, -1.0, -1.5], np.float32).reshape(1, 2, 3, 1),
          call="erosion2d: min(x[w] - 0.5, x[w + 1])")
    p = np.array([1, 3, 3, 2, np.nan, 0, -np.inf, 5.0, 7, 7, 1, 2], np.float32).reshape(1, 3, 2, 2)
    y, idx = tf.nn.max_pool_with_argmax(tf.constant(p), 2, 1, "VALID")
    _same(y, np.array([3.0, 5.0, np.nan, 7.0], np.float32).reshape(1, 2, 1, 2), call="max_pool_with_argmax: values")
    _same(idx, np.array([2, 7, 4, 9], np.int64).reshape(1, 2, 1, 2), call="max_pool_with_argmax: indices")
    with raises(ValueError, call="max_pool_with_argmax(NCHW)"):
        tf.nn.max_pool_with_argmax(tf.constant(p), 2, 1, "VALID", data_format="NCHW")


@clause("ops.nn-isotonic", ref="tf221")
def test_isotonic_regression(tf):
    v = tf.Variable(tf.constant([[1.0, 3.0, 2.0, 4.0, 0.0]]))
    with tf.GradientTape() as tape:
        y, segments = tf.nn.isotonic_regression(v)
        loss = tf.reduce_sum(y * tf.constant([[1.0, 2.0, 3.0, 4.0, 5.0]]))
    _same(y, np.array([[2.5, 2.5, 2.5, 2.5, 0.0]], np.float32), call="isotonic_regression: pooled means")
    _same(segments, np.array([[0, 0, 0, 0, 1]], np.int32), call="isotonic_regression: segments")
    _same(tape.gradient(loss, v), np.array([[2.5, 2.5, 2.5, 2.5, 5.0]], np.float32),
          call="isotonic_regression: gradient averaged over each segment")
    y, _ = tf.nn.isotonic_regression(tf.constant([[1, 3, 2]]), decreasing=False)
    _same(y, np.array([[1.0, 2.5, 2.5]]), call="isotonic_regression(int32, increasing): float64 means")


@clause("ops.nn-accidental-hits", ref="tf221")
def test_accidental_hits(tf):
    rows, ids, weights = tf.nn.compute_accidental_hits(tf.constant([[1, 2], [3, 1], [5, 5]], tf.int64),
                                                       tf.constant([1, 5, 1, 7, 3], tf.int64), 2)
    _same(rows, np.array([0, 1, 1, 2, 2], np.int32), call="compute_accidental_hits: rows")
    _same(ids, np.array([2, 4, 2, 1, 1], np.int64), call="compute_accidental_hits: last sampled positions")
    _same(weights, np.full(5, np.finfo(np.float32).min, np.float32), call="compute_accidental_hits: weights")
    with raises(tf.errors.InvalidArgumentError, call="compute_accidental_hits(int32 true classes)"):
        tf.nn.compute_accidental_hits(tf.constant([[1, 2]]), tf.constant([1], tf.int64), 2)


@clause("ops.nn-composites", ref="tf221")
def test_space_to_batch_compositions(tf):
    paddings, crops = tf.required_space_to_batch_paddings([7, 6], [2, 4], [[1, 2], [0, 3]])
    _same(paddings, np.array([[1, 2], [0, 6]], np.int32), call="required_space_to_batch_paddings: paddings")
    _same(crops, np.array([[0, 0], [0, 3]], np.int32), call="required_space_to_batch_paddings: crops")
    # a dilated max pool over VALID windows: element i pooled with i + rate
    x = np.array([1.0, 7.0, 2.0, 5.0, 4.0, 3.0], np.float32).reshape(1, 6, 1)
    _same(tf.nn.pool(tf.constant(x), [2], "MAX", padding="VALID", dilations=[2]),
          np.array([2.0, 7.0, 4.0, 5.0], np.float32).reshape(1, 4, 1), call="pool(MAX, dilations=[2])")
    with raises(ValueError, call="pool(SAME, dilations=[2])"):
        tf.nn.pool(tf.constant(x), [2], "MAX", padding="SAME", dilations=[2])
    # with_space_to_batch of the identity op with rate 2 gives the input back
    img = np.arange(30, dtype=np.float32).reshape(1, 5, 6, 1)
    _same(tf.nn.with_space_to_batch(tf.constant(img), [2, 2], "VALID", lambda i, n, p: i), img,
          call="with_space_to_batch(identity)")
    # atrous_conv2d_transpose with rate 1 is conv2d_transpose with stride 1
    v = np.random.default_rng(5).normal(size=(1, 4, 4, 2)).astype(np.float32)
    f = np.random.default_rng(6).normal(size=(3, 3, 1, 2)).astype(np.float32)
    assert_close(tf.nn.atrous_conv2d_transpose(tf.constant(v), tf.constant(f), [1, 4, 4, 1], 1, "SAME"),
                 to_numpy(tf.nn.conv2d_transpose(tf.constant(v), tf.constant(f), [1, 4, 4, 1], 1, "SAME")),
                 call="atrous_conv2d_transpose(rate 1)")
    labels, lengths = tf.nn.collapse_repeated(tf.constant([[1, 1, 2, 2, 3, 0], [4, 4, 4, 0, 0, 0]]), [6, 2])
    _same(labels, np.array([[1, 2, 3, 0], [4, 0, 0, 0]], np.int32), call="collapse_repeated: labels")
    _same(lengths, np.array([4, 1], np.int32), call="collapse_repeated: lengths")


@clause("ops.linalg-spectral", ref="tf221")
def test_spectral_decompositions(tf):
    a = np.array([[2.0, 100.0, 0.5], [1.0, 3.0, 7.0], [0.5, -1.0, 4.0]])   # the upper triangle is not read
    lower = np.tril(a) + np.tril(a, -1).T
    e, v = tf.linalg.eigh(tf.constant(a))
    assert_close(e, np.linalg.eigvalsh(lower), call="eigh: eigenvalues ascending, from the lower triangle")
    vn = to_numpy(v)
    assert_close(vn @ np.diag(to_numpy(e)) @ vn.T, lower, call="eigh: v diag(e) v^T")
    b = np.random.default_rng(4).normal(size=(4, 3))
    s, u, vv = tf.linalg.svd(tf.constant(b))
    assert_close(s, np.linalg.svd(b, compute_uv=False), call="svd: s descending")
    assert_close(to_numpy(u) * to_numpy(s)[None, :] @ to_numpy(vv).T, b, call="svd: u diag(s) v^T")
    assert_close(tf.linalg.pinv(tf.constant(b)), np.linalg.pinv(b), call="pinv")
    _same(tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]], tf.float64)), np.array(1, np.int32),
          call="matrix_rank of a rank-1 matrix")
    with raises(tf.errors.InvalidArgumentError, call="eigh of a NaN matrix"):
        tf.linalg.eigh(tf.constant([[np.nan, 1.0], [1.0, 2.0]]))
    with raises(tf.errors.NotFoundError, call="svd(float16)"):
        tf.linalg.svd(tf.ones([2, 2], tf.float16))
    # d(sum of eigenvalues)/dA = I (the trace), in the lower triangle
    t = tf.Variable(tf.constant(lower))
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(tf.linalg.eigvalsh(t))
    assert_close(tape.gradient(total, t), np.eye(3), scale=np.ones((3, 3)), call="d sum(eigvalsh(A)) / dA")


@clause("ops.linalg-lu", ref="tf221")
def test_lu_family(tf):
    a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])
    packed, perm = tf.linalg.lu(tf.constant(a))
    lu_, p = to_numpy(packed), to_numpy(perm)
    _same(p, np.array([2, 0, 1], np.int32), call="lu: the permutation (largest pivot first)")
    lower = np.tril(lu_, -1) + np.eye(3)
    assert_close(lower @ np.triu(lu_), a[p], call="lu: L @ U == A[p]")
    assert_close(tf.linalg.lu_reconstruct(packed, perm), a, call="lu_reconstruct")
    assert_close(tf.linalg.lu_matrix_inverse(packed, perm), np.linalg.inv(a), call="lu_matrix_inverse")
    b = np.array([[1.0], [0.0], [2.0]])
    assert_close(tf.linalg.lu_solve(packed, perm, tf.constant(b)), np.linalg.solve(a, b), call="lu_solve")
    with raises(tf.errors.InvalidArgumentError, call="lu of a singular matrix"):
        tf.linalg.lu(tf.constant([[1.0, 2.0], [2.0, 4.0]]))
    with raises(LookupError, call="the gradient of lu (TF registers none)"):
        v = tf.Variable(tf.constant(a))
        with tf.GradientTape() as tape:
            out = tf.reduce_sum(tf.linalg.lu(v)[0])
        tape.gradient(out, v)


@clause("ops.linalg-tridiagonal", ref="tf221")
def test_tridiagonal_matmul(tf):
    diags = np.array([[1.0, 2.0, 9.0], [3.0, 4.0, 5.0], [9.0, 6.0, 7.0]])   # the 9s are not read
    dense = np.array([[3.0, 1.0, 0.0], [6.0, 4.0, 2.0], [0.0, 7.0, 5.0]])
    rhs = np.array([[1.0], [2.0], [3.0]])
    assert_close(tf.linalg.tridiagonal_matmul(tf.constant(diags), tf.constant(rhs)), dense @ rhs,
                 call="tridiagonal_matmul(compact)")
    assert_close(tf.linalg.tridiagonal_matmul(tf.constant(dense), tf.constant(rhs), diagonals_format="matrix"),
                 dense @ rhs, call="tridiagonal_matmul(matrix)")
    with raises(tf.errors.InvalidArgumentError, call="tridiagonal_matmul(int32)"):
        tf.linalg.tridiagonal_matmul(tf.constant([[1, 2], [3, 4], [5, 6]]), tf.constant([[1], [2]]))


@clause("ops.linalg-expm", ref="tf221")
def test_expm(tf):
    # exp of a diagonal matrix is the exponentials of its diagonal; of [[0, t], [-t, 0]] a rotation by t
    assert_close(tf.linalg.expm(tf.constant(np.diag([0.5, -1.0, 2.0]))), np.diag(np.exp([0.5, -1.0, 2.0])),
                 scale=np.full((3, 3), 8.0), call="expm(diag([0.5, -1, 2]))")
    t = 3.0   # a 1-norm above float64's 13th-order threshold: scaling and squaring
    rot = np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    assert_close(tf.linalg.expm(tf.constant([[0.0, t], [-t, 0.0]], tf.float64)), rot, scale=np.ones((2, 2)),
                 call="expm([[0, 3], [-3, 0]])")
    with raises(ValueError, call="expm(int32)"):
        tf.linalg.expm(tf.constant([[1, 0], [0, 1]]))


@clause("ops.as-string", ref="tf221")
def test_as_string(tf):
    def strs(t):
        return [v.decode() for v in to_numpy(t).reshape(-1)]
    x = tf.constant([1.5, -0.0, np.inf, -np.nan], tf.float64)
    got = strs(tf.as_string(x))
    assert_true(got == ["1.500000", "-0.000000", "inf", "-nan"], f"as_string gives {got}, but should be "
                "['1.500000', '-0.000000', 'inf', '-nan']", call="as_string(float64)")
    got = strs(tf.as_string(x, width=8, fill="0", precision=2))
    assert_true(got == ["00001.50", "-0000.00", "     inf", "    -nan"], f"as_string gives {got}",
                call="as_string(width=8, fill='0', precision=2)")
    got = strs(tf.as_string(tf.constant([3, -5]), width=4, fill="0")) + strs(tf.as_string(tf.constant([True])))
    assert_true(got == ["0003", "-005", "true"], f"as_string gives {got}", call="as_string of ints and bools")
    with raises(tf.errors.InvalidArgumentError, call="as_string(scientific=True, shortest=True)"):
        tf.as_string(x, scientific=True, shortest=True)


@clause("ops.function-utilities", ref="tf221")
def test_case_and_function_queries(tf):
    x = tf.constant(2.0)
    _same(tf.case([(x > 1, lambda: x * 2), (x > 0, lambda: x * 3)], default=lambda: x), np.float32(4.0),
          call="case: the first true pair")
    _same(tf.case([(x > 5, lambda: x * 2), (x > 0, lambda: x * 3)]), np.float32(6.0),
          call="case: the last pair as the default")
    with raises(tf.errors.InvalidArgumentError, call="case with no true predicate and no default"):
        tf.case([(x > 5, lambda: x * 2), (x > 3, lambda: x * 3)])
    with raises(TypeError, call="case with a Python bool predicate"):
        tf.case([(True, lambda: x)])
    assert_true(tf.inside_function() is False, "tf.inside_function() is True eagerly", call="inside_function()")

    @tf.function
    def f(y):
        return y + (1.0 if tf.inside_function() else 0.0)
    _same(f(tf.constant(1.0)), np.float32(2.0), call="inside_function() in a tf.function")
    v = tf.Variable(tf.constant([0.4, 1.6]))
    with tf.GradientTape() as tape:
        out = tf.grad_pass_through(tf.round)(v) * 3.0
    _same(out, np.array([0.0, 6.0], np.float32), call="grad_pass_through(round): value")
    _same(tape.gradient(out, v), np.array([3.0, 3.0], np.float32), call="grad_pass_through(round): gradient")
    # numpy_function keeps the dtype its function returns; py_function converts to Tout and is differentiable
    out = tf.numpy_function(lambda a: a.astype(np.float64) * 2, [tf.constant([1.0, 2.0])], tf.float32)
    _same(out, np.array([2.0, 4.0]), call="numpy_function returning float64 with Tout float32")
    w = tf.Variable(tf.constant([1.0, 2.0]))
    with tf.GradientTape() as tape:
        sq = tf.py_function(lambda a: a * a, [w], tf.float32)
    _same(tape.gradient(sq, w), np.array([2.0, 4.0], np.float32), call="py_function(a * a): gradient")
    with raises(tf.errors.UnknownError, call="py_function whose function raises"):
        tf.py_function(lambda a: 1 / 0, [tf.constant(1.0)], tf.float32)
    with tf.name_scope("a") as outer:
        with tf.name_scope("b") as inner:
            current = tf.get_current_name_scope()
    assert_true((outer, inner, current) == ("a/", "a/b/", "a/b"),
                f"name scopes {(outer, inner, current)}, but should be ('a/', 'a/b/', 'a/b')", call="name_scope")
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        with tf.init_scope():
            y = x * 3.0
        z = x * x + y
    _same(tape.gradient(z, x), np.float32(4.0), call="init_scope pauses the tape: d(x*x + [x*3])/dx")
