"""Issue 29's fourth batch of ops — clauses ops.linalg-tridiagonal (tridiagonal_solve),
ops.linalg-lstsq, ops.linalg-sqrtm (TF 2.21 only).

Each test runs on the backend's `tf` alone. Expected values are NumPy references computed here
from the rule each clause states (docs/spec.md); the comparison with TF 2.21 itself, case by case,
is in tests/ops/test_op_gap4_tf.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_true, raises, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause


def _dense(diags):
    sup, main, sub = diags
    return np.diag(main) + np.diag(sup[:-1], 1) + np.diag(sub[1:], -1)


@clause("ops.linalg-tridiagonal", ref="tf221")
def test_tridiagonal_solve(tf):
    diags = np.array([[1.0, 2.0, -1.0, 9.0], [0.5, 4.0, 3.0, 2.0], [9.0, 6.0, 1.0, -2.0]])   # the 9s are not read
    rhs = np.array([[1.0, 0.0], [2.0, 1.0], [3.0, -1.0], [4.0, 2.0]])
    want = np.linalg.solve(_dense(diags), rhs)
    for piv in (True, False):
        assert_close(tf.linalg.tridiagonal_solve(tf.constant(diags), tf.constant(rhs), partial_pivoting=piv), want,
                     call=f"tridiagonal_solve(partial_pivoting={piv})")
    assert_close(tf.linalg.tridiagonal_solve(tf.constant(_dense(diags)), tf.constant(rhs), diagonals_format="matrix"),
                 want, call="tridiagonal_solve(matrix format)")
    # a singular matrix: NaN for that matrix, no error; with perturb_singular a finite solution
    singular = tf.constant(np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 1.0], [0.0, 0.0, 0.0]]))
    out = to_numpy(tf.linalg.tridiagonal_solve(singular, tf.ones((3, 1), tf.float64)))
    assert_true(np.isnan(out).all(), f"out={out.ravel()}, but should be all NaN [singular, partial pivoting]",
                call="tridiagonal_solve(singular)")
    out = to_numpy(tf.linalg.tridiagonal_solve(singular, tf.ones((3, 1), tf.float64), perturb_singular=True))
    assert_true(np.isfinite(out).all(), f"out={out.ravel()}, but should be finite [perturb_singular]",
                call="tridiagonal_solve(singular, perturb_singular=True)")
    with raises(ValueError, call="tridiagonal_solve(perturb_singular=True, partial_pivoting=False)"):
        tf.linalg.tridiagonal_solve(tf.constant(diags), tf.constant(rhs), partial_pivoting=False,
                                    perturb_singular=True)
    with raises(tf.errors.InvalidArgumentError, call="tridiagonal_solve(int32)"):
        tf.linalg.tridiagonal_solve(tf.constant([[1, 2], [3, 4], [5, 6]]), tf.constant([[1], [2]]))
    # the gradient: d/d rhs of sum(x) is the solve with the transposed matrix of ones
    v = tf.Variable(tf.constant(rhs))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.tridiagonal_solve(tf.constant(diags), v))
    assert_close(tape.gradient(y, v), np.linalg.solve(_dense(diags).T, np.ones_like(rhs)),
                 call="gradient of tridiagonal_solve w.r.t. rhs")


@clause("ops.linalg-lstsq", ref="tf221")
def test_lstsq(tf):
    rng = np.random.default_rng(29)
    a, b = rng.normal(size=(6, 3)), rng.normal(size=(6, 2))
    want = np.linalg.lstsq(a, b, rcond=None)[0]
    for fast in (True, False):
        assert_close(tf.linalg.lstsq(tf.constant(a), tf.constant(b), fast=fast), want, call=f"lstsq(fast={fast})")
    lam = 0.5
    assert_close(tf.linalg.lstsq(tf.constant(a), tf.constant(b), l2_regularizer=lam),
                 np.linalg.solve(a.T @ a + lam * np.eye(3), a.T @ b), call="lstsq(l2_regularizer=0.5)")
    wide = a.T    # underdetermined: the minimum-norm solution
    assert_close(tf.linalg.lstsq(tf.constant(wide), tf.constant(b[:3])), np.linalg.pinv(wide) @ b[:3],
                 call="lstsq(3x6)")
    deficient = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    rhs = np.array([[1.0], [2.0], [2.0]])
    assert_close(tf.linalg.lstsq(tf.constant(deficient), tf.constant(rhs), fast=False), np.linalg.pinv(deficient) @ rhs,
                 call="lstsq(rank deficient, fast=False)")
    # fast=True: the Gramian is singular, TF 2.21's Cholesky returns NaN (no error), and so does the solve
    out = to_numpy(tf.linalg.lstsq(tf.constant(deficient), tf.constant(rhs)))
    assert_true(np.isnan(out).all(), f"out={out.ravel()}, but should be all NaN [Cholesky of a singular Gramian]",
                call="lstsq(rank deficient, fast=True)")
    v = tf.Variable(tf.constant(a))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.lstsq(v, tf.constant(b), fast=False))
    with raises(ValueError, call="gradient of lstsq(fast=False)"):
        tape.gradient(y, v)


@clause("ops.linalg-sqrtm", ref="tf221")
def test_sqrtm(tf):
    rng = np.random.default_rng(30)
    x = rng.normal(size=(4, 4))
    spd = x @ x.T + 4 * np.eye(4)
    w, v = np.linalg.eigh(spd)
    assert_close(tf.linalg.sqrtm(tf.constant(spd)), (v * np.sqrt(w)) @ v.T, call="sqrtm(spd)")
    assert_close(tf.matrix_square_root(tf.constant(np.diag([4.0, 9.0]))), np.diag([2.0, 3.0]),
                 call="matrix_square_root(diag([4, 9]))")
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])     # eigenvalues ±i: the root is the rotation by 45°
    c = np.sqrt(0.5)
    assert_close(tf.linalg.sqrtm(tf.constant(rot)), np.array([[c, -c], [c, c]]), call="sqrtm(rotation by 90°)")
    out = to_numpy(tf.linalg.sqrtm(tf.constant(np.diag([-1.0, 1.0]))))
    assert_true(np.isnan(out).all(), f"out={out.ravel()}, but should be all NaN [a negative eigenvalue]",
                call="sqrtm(diag([-1, 1]))")
    with raises(tf.errors.InvalidArgumentError, call="sqrtm(int32)"):
        tf.linalg.sqrtm(tf.constant([[1, 0], [0, 1]]))
    with raises(tf.errors.InvalidArgumentError, call="sqrtm(2x3)"):
        tf.linalg.sqrtm(tf.constant(np.zeros((2, 3))))
    # the gradient of sum(sqrtm(A)) at A = diag(d): 1 / (2 sqrt(d_i)) on the diagonal, 1 / (sqrt(d_i) + sqrt(d_j))
    # off it
    d = np.array([1.0, 4.0, 9.0])
    va = tf.Variable(tf.constant(np.diag(d)))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.sqrtm(va))
    s = np.sqrt(d)
    assert_close(tape.gradient(y, va), 1.0 / (s[:, None] + s[None, :]), call="gradient of sqrtm at diag(1, 4, 9)")


def _ptanh_float(x):
    """Eigen's ptanh_float as the clause states it, step by step in float32."""
    f = np.float32
    x = np.clip(np.asarray(x, f), f(-7.90738964080810547), f(7.90738964080810547))
    x2 = x * x
    p = ((f(1.394553628e-8) * x2 + f(2.102733560e-5)) * x2 + f(3.520756727e-3)) * x2 + f(1.340216100e-1)
    q = (((f(8.015776984e-7) * x2 + f(3.326951409e-4)) * x2 + f(2.597254514e-2)) * x2 + f(4.673548340e-1)) * x2 + f(1)
    return (x2 * x * p + x) / q


@clause("ops.fast-tanh", ref="tf221")
def test_float32_tanh_is_eigens_rational_approximation(tf):
    x = np.random.default_rng(31).uniform(-9.0, 9.0, 4096).astype(np.float32)
    x[:6] = [0.5, -0.0, 7.9, 7.95, -20.0, 1e-3]
    want = _ptanh_float(x)
    assert_true(np.mean(want != np.tanh(x)) > 0.3, "the reference should differ from np.tanh on many inputs",
                call="ptanh_float reference")
    got = to_numpy(tf.tanh(tf.constant(x)))
    bad = np.flatnonzero(got.view(np.int32) != want.view(np.int32))
    assert_true(bad.size == 0, f"tanh({x[bad[:3]] if bad.size else []})={got[bad[:3]] if bad.size else []}, "
                f"but should be {want[bad[:3]] if bad.size else []} bit for bit ({bad.size} of {x.size} differ)",
                call="tf.tanh(float32)")


def _ctc_nll(logp, label):
    """-log P(label | frames) by summing over every alignment (blank 0): brute force, small cases."""
    import itertools
    t, c = logp.shape
    total = -np.inf
    for path in itertools.product(range(c), repeat=t):
        collapsed = [k for i, k in enumerate(path) if k != 0 and (i == 0 or k != path[i - 1])]
        if collapsed == list(label):
            total = np.logaddexp(total, sum(logp[i, k] for i, k in enumerate(path)))
    return -total


@clause("ops.nn-ctc", ref="tf221")
def test_ctc_loss(tf):
    rng = np.random.default_rng(32)
    logits = rng.normal(size=(4, 2, 3)).astype(np.float32)
    labels = np.array([[1, 2], [1, 1]], np.int32)
    logp = logits - np.log(np.sum(np.exp(logits), axis=-1, keepdims=True))
    want = [_ctc_nll(logp[:, 0], [1, 2]), _ctc_nll(logp[:, 1], [1, 1])]
    got = tf.nn.ctc_loss(tf.constant(labels), tf.constant(logits), tf.constant([2, 2]), tf.constant([4, 4]))
    # (float32 log_softmax, exp and log over a few dozen steps: a few float32 ulps)
    assert_close(got, want, tolerance=Tolerance(rtol=1e-5, atol=1e-6),
                 call="ctc_loss against the sum over every alignment")
    # three frames cannot hold 1, 1 with the blank they need between them: log(1e-307) stands for log(0)
    short = to_numpy(tf.nn.ctc_loss(tf.constant(labels), tf.constant(logits[:2]), tf.constant([2, 2]),
                                    tf.constant([2, 2])))
    assert_true(np.isfinite(short[1]) and short[1] > 600, f"loss={short[1]}, but should be finite and about 707 "
                "[an impossible alignment]", call="ctc_loss(labels [1, 1], 2 frames)")
    # the gradient w.r.t. the logits is softmax - posterior: each frame's entries sum to 0
    v = tf.Variable(tf.constant(logits))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.ctc_loss(tf.constant(labels), v, tf.constant([2, 2]), tf.constant([4, 3])))
    g = to_numpy(tape.gradient(loss, v))
    assert_close(g.sum(axis=-1), np.zeros((4, 2)), tolerance=Tolerance(rtol=1e-5, atol=1e-6),
                 call="ctc_loss gradient's sum per frame")
    assert_true(np.all(g[3, 1] == 0), f"grad[3, 1]={g[3, 1]}, but should be 0 [past logit_length]",
                call="ctc_loss gradient past logit_length")


@clause("ops.tf-utilities", ref="tf221")
def test_assert_rank_guarantee_const_get_logger(tf):
    tf.assert_rank(tf.constant(np.zeros((2, 3))), 2)
    with raises(ValueError, call="assert_rank(rank-1 tensor, 2)"):
        tf.assert_rank(tf.constant([1.0, 2.0]), 2)
    with raises(TypeError, call="assert_rank(x, 1.0)"):
        tf.assert_rank(tf.constant([1.0, 2.0]), 1.0)
    x = np.array([1.5, -2.0], np.float32)
    assert_close(tf.guarantee_const(tf.constant(x)), x, call="guarantee_const")
    v = tf.Variable(tf.constant(x))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.guarantee_const(v))
    with raises(LookupError, call="gradient through guarantee_const"):
        tape.gradient(y, v)
    logger = tf.get_logger()
    assert_true(getattr(logger, "name", None) == "tensorflow", f"get_logger().name={getattr(logger, 'name', None)!r}, "
                "but should be 'tensorflow'", call="get_logger()")


@clause("ops.linalg-banded-solve", ref="tf221")
def test_banded_triangular_solve(tf):
    lower_bands = np.array([[2.0, 3.0, 4.0], [9.0, 1.0, 2.0]])     # the 9 is not read (right-aligned subdiagonal)
    dense = np.array([[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [0.0, 2.0, 4.0]])
    rhs = np.array([[1.0], [2.0], [3.0]])
    assert_close(tf.linalg.banded_triangular_solve(tf.constant(lower_bands), tf.constant(rhs)),
                 np.linalg.solve(dense, rhs), call="banded_triangular_solve(lower)")
    assert_close(tf.linalg.banded_triangular_solve(tf.constant(lower_bands), tf.constant(rhs), adjoint=True),
                 np.linalg.solve(dense.T, rhs), call="banded_triangular_solve(lower, adjoint)")
    upper_bands = np.array([[1.0, 2.0, 9.0], [2.0, 3.0, 4.0]])     # the 9 is not read (left-aligned superdiagonal)
    assert_close(tf.linalg.banded_triangular_solve(tf.constant(upper_bands), tf.constant(rhs), lower=False),
                 np.linalg.solve(dense.T, rhs), call="banded_triangular_solve(upper)")
    with raises(tf.errors.InvalidArgumentError, call="banded_triangular_solve with a zero on the diagonal"):
        tf.linalg.banded_triangular_solve(tf.constant([[2.0, 0.0, 4.0], [0.0, 1.0, 2.0]]), tf.constant(rhs))


@clause("ops.cond-in-function", ref="tf221")
def test_cond_predicate_inside_a_function(tf):
    x = tf.constant(2.0)
    with raises(TypeError, call="tf.cond(True, ...) inside tf.function"):
        tf.function(lambda a: tf.cond(True, lambda: a, lambda: a * 2))(x)
    with raises(tf.errors.InvalidArgumentError, call="tf.cond(float tensor, ...) inside tf.function"):
        tf.function(lambda a: tf.cond(a, lambda: a, lambda: a * 2))(x)
    assert_close(tf.function(lambda a: tf.cond(a > 3.0, lambda: a, lambda: a * 2))(x), 4.0,
                 call="tf.cond(a > 3, ...) inside tf.function")
    assert_close(tf.cond(True, lambda: x, lambda: x * 2), 2.0, call="eager tf.cond(True, ...)")
