"""Issue 29's fourth batch of ops against real TensorFlow 2.21: tf.linalg.tridiagonal_solve,
banded_triangular_solve,
tf.linalg.lstsq and tf.linalg.sqrtm (tf.matrix_square_root), tf.nn.ctc_loss (dense labels), tf.assert_rank, tf.guarantee_const,
tf.get_logger, tf.approx_top_k, tf.cond's predicate inside tf.function, and float32 tanh
(Eigen's ptanh_float, bit for bit) — values and gradients on ordinary
inputs, the dtypes each accepts or refuses (and with which error class), singular and non-finite
inputs, argument and shape errors. Each program runs on both backends and gives the same dtype and
values (within a few float32 ulps where TF runs Eigen or LAPACK-like kernels in another order, NaN
matching NaN) or raises the same exception class. Needs the `tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_RNG_SEED = 2904


def _arr(shape: tuple, seed: int = 0, dt: str = "float32") -> np.ndarray:
    return np.random.default_rng(_RNG_SEED + seed).normal(size=shape).astype(dt)


def _grads(tf: Any, fn: Callable[..., Any], *xs: np.ndarray) -> Any:
    """[fn(*vs), d loss / d v for each v] with loss = sum(fn(*vs) * (1, 2, 3, ...))."""
    vs = [tf.Variable(tf.constant(x)) for x in xs]
    with tf.GradientTape() as tape:
        y = fn(*vs)
        loss = tf.reduce_sum(y * tf.reshape(tf.range(1, tf.size(y) + 1, dtype=y.dtype), tf.shape(y)))
    return [y] + [tf.convert_to_tensor(g) for g in tape.gradient(loss, vs)]


def _spd(n: int, seed: int, dt: str = "float64", batch: tuple = ()) -> np.ndarray:
    a = _arr(batch + (n, n), seed, "float64")
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dt)


def _tri(n: int, seed: int, dt: str = "float32", batch: tuple = ()) -> np.ndarray:
    return _arr(batch + (3, n), seed, dt)


_TANH_X = np.concatenate([np.random.default_rng(_RNG_SEED).uniform(-10, 10, 20000),
                          np.random.default_rng(_RNG_SEED + 1).normal(size=5000) * 1e-2]).astype(np.float32)


def _bands(k: int, m: int, seed: int, lower: bool, dt: str = "float32", batch: tuple = ()) -> np.ndarray:
    """[..., k, m] bands whose diagonal (row 0 lower, row k - 1 upper) is kept away from 0."""
    b = _arr(batch + (k, m), seed, "float64")
    d = 0 if lower else k - 1
    b[..., d, :] = np.sign(b[..., d, :]) * (np.abs(b[..., d, :]) + 1.5)
    return b.astype(dt)


_CTC_LABELS = np.array([[1, 2, 2], [3, 1, 0], [4, 4, 4]], np.int32)


def _c(tf: Any, x: Any) -> Any:
    return tf.constant(x)


_RAW: list[tuple[str, str, Callable[[Any], Any]]] = [
    # --- tridiagonal_solve ---------------------------------------------------------------------------------------------
    *[(f"tridiagonal-solve-{dt}-{piv}", "ops.linalg-tridiagonal", (lambda dt, piv: lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _tri(7, 1, dt, (2,))), _c(tf, _arr((2, 7, 3), 2, dt)), partial_pivoting=piv))(dt, piv))
      for dt in ("float32", "float64") for piv in (True, False)],
    ("tridiagonal-solve-perturb-singular", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _tri(6, 3)), _c(tf, _arr((6, 2), 4)), perturb_singular=True)),
    ("tridiagonal-solve-singular-pivoting", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, np.array([[[1, 1, 1, 0], [1, 0, 1, 1], [0, 0, 0, 0]], [[1, 1, 1, 0], [2, 2, 2, 2], [0, 1, 1, 1]]],
                        np.float32)), tf.ones((2, 4, 1)))),
    ("tridiagonal-solve-singular-thomas", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, np.array([[1, 1, 1, 0], [1, 1, 1, 1], [0, 1, 1, 1]], np.float32)), tf.ones((4, 2)),
        partial_pivoting=False)),
    ("tridiagonal-solve-singular-perturbed", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, np.array([[0, 0, 0, 0], [1, 0, 1, 1], [0, 0, 0, 0]], np.float32)), tf.ones((4, 1)),
        perturb_singular=True)),
    ("tridiagonal-solve-tiny-pivot-perturbed", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, np.array([[1, 1e-30, 0], [1e-30, 1, 1e-38], [0, 1e-30, 1]], np.float32)), _c(tf, np.array(
            [[1e30], [2.0], [-3.0]], np.float32)), perturb_singular=True)),
    ("tridiagonal-solve-size-1", "ops.linalg-tridiagonal", lambda tf: [tf.linalg.tridiagonal_solve(
        _c(tf, np.array([[9], [d], [9]], np.float64)), _c(tf, np.array([[3.0, -1.0]]))) for d in (2.0, 0.0)]),
    ("tridiagonal-solve-size-1-perturbed", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, np.array([[9], [0.0], [9]], np.float64)), _c(tf, np.array([[3.0, -1.0]])), perturb_singular=True)),
    ("tridiagonal-solve-nan", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, np.array([[1, 2, 0], [4, np.nan, 5], [0, 1, 1]], np.float32)), tf.ones((3, 1)))),
    ("tridiagonal-solve-empty", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, np.zeros((2, 3, 0), np.float32)), _c(tf, np.zeros((2, 0, 3), np.float32)))),
    ("tridiagonal-solve-vector-rhs", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _tri(5, 5, "float64")), _c(tf, _arr((5,), 6, "float64")), transpose_rhs=True)),
    ("tridiagonal-solve-transpose-rhs", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _tri(5, 7)), _c(tf, _arr((2, 5), 8)), transpose_rhs=True, conjugate_rhs=True)),
    ("tridiagonal-solve-sequence", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        [_c(tf, _arr((4,), 9)), _c(tf, _arr((5,), 10)), _c(tf, _arr((4,), 11))], _c(tf, _arr((5, 2), 12)),
        diagonals_format="sequence")),
    ("tridiagonal-solve-sequence-full-length", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        [_c(tf, _arr((5,), 9)), _c(tf, _arr((5,), 10)), _c(tf, _arr((5,), 11))], _c(tf, _arr((5,), 12)),
        diagonals_format="sequence")),
    ("tridiagonal-solve-sequence-bad-length", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        [_c(tf, _arr((3,), 9)), _c(tf, _arr((5,), 10)), _c(tf, _arr((4,), 11))], _c(tf, _arr((5,), 12)),
        diagonals_format="sequence")),
    ("tridiagonal-solve-sequence-of-2", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        [_c(tf, _arr((4,), 9)), _c(tf, _arr((5,), 10))], _c(tf, _arr((5,), 12)), diagonals_format="sequence")),
    ("tridiagonal-solve-matrix", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _arr((2, 4, 4), 13)), _c(tf, _arr((2, 4, 3), 14)), diagonals_format="matrix")),
    ("tridiagonal-solve-matrix-not-square", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _arr((4, 3), 13)), _c(tf, _arr((4, 1), 14)), diagonals_format="matrix")),
    ("tridiagonal-solve-bad-format", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _tri(3, 1)), tf.ones((3, 1)), diagonals_format="banded")),
    ("tridiagonal-solve-perturb-without-pivoting", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _tri(3, 1)), tf.ones((3, 1)), partial_pivoting=False, perturb_singular=True)),
    ("tridiagonal-solve-numpy-diagonals", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _tri(3, 1), tf.ones((3, 1)))),
    ("tridiagonal-solve-list-rhs", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _tri(3, 1)), [[1.0], [2.0], [3.0]])),
    ("tridiagonal-solve-4-diagonals", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _arr((4, 3), 1)), tf.ones((3, 1)))),
    ("tridiagonal-solve-rank-1", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _arr((3,), 1)), tf.ones((3,)))),
    ("tridiagonal-solve-rhs-rank", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _tri(3, 1)), tf.ones((2, 2, 3, 1)))),
    ("tridiagonal-solve-batch-mismatch", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _tri(3, 1, batch=(2,))), tf.ones((3, 3, 1)))),
    ("tridiagonal-solve-size-mismatch", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _tri(3, 1)), tf.ones((4, 1)))),
    ("tridiagonal-solve-dtype-mismatch", "ops.linalg-tridiagonal", lambda tf: tf.linalg.tridiagonal_solve(
        _c(tf, _tri(3, 1)), tf.ones((3, 1), tf.float64))),
    *[(f"tridiagonal-solve-{dt}", "ops.linalg-tridiagonal", (lambda dt: lambda tf: tf.linalg.tridiagonal_solve(
        tf.cast(_c(tf, _tri(3, 1)), getattr(tf, dt)), tf.ones((3, 1), getattr(tf, dt))))(dt))
      for dt in ("float16", "bfloat16", "int32", "int64")],
    *[(f"tridiagonal-solve-grads-{piv}", "ops.linalg-tridiagonal", (lambda piv: lambda tf: _grads(
        tf, lambda d, r: tf.linalg.tridiagonal_solve(d, r, partial_pivoting=piv), _tri(5, 15, "float64", (2,)),
        _arr((2, 5, 2), 16, "float64")))(piv)) for piv in (True, False)],
    ("tridiagonal-solve-grads-matrix-format", "ops.linalg-tridiagonal", lambda tf: _grads(
        tf, lambda d, r: tf.linalg.tridiagonal_solve(d, r, diagonals_format="matrix"), _arr((4, 4), 17),
        _arr((4, 2), 18))),
    ("tridiagonal-solve-grads-vector", "ops.linalg-tridiagonal", lambda tf: _grads(
        tf, tf.linalg.tridiagonal_solve, _tri(4, 19), _arr((4,), 20))),
    # --- lstsq -----------------------------------------------------------------------------------------------------------
    *[(f"lstsq-{dt}-{m}x{n}-fast-{fast}", "ops.linalg-lstsq", (lambda dt, m, n, fast: lambda tf: tf.linalg.lstsq(
        _arr((2, m, n), 21, dt), _arr((2, m, 3), 22, dt), fast=fast))(dt, m, n, fast))
      for dt in ("float32", "float64") for (m, n) in ((6, 3), (3, 5), (4, 4)) for fast in (True, False)],
    *[(f"lstsq-l2-{l2}-{m}x{n}-fast-{fast}", "ops.linalg-lstsq", (lambda l2, m, n, fast: lambda tf: tf.linalg.lstsq(
        _arr((m, n), 23, "float64"), _arr((m, 2), 24, "float64"), l2_regularizer=l2, fast=fast))(l2, m, n, fast))
      for l2 in (0.5, 3.0) for (m, n) in ((6, 3), (3, 5)) for fast in (True, False)],
    ("lstsq-l2-tensor", "ops.linalg-lstsq", lambda tf: tf.linalg.lstsq(
        _arr((5, 3), 25, "float64"), _arr((5, 2), 26, "float64"), l2_regularizer=tf.constant(0.25, tf.float64))),
    ("lstsq-l2-float32-tensor-on-float64", "ops.linalg-lstsq", lambda tf: tf.linalg.lstsq(
        _arr((5, 3), 25, "float64"), _arr((5, 2), 26, "float64"), l2_regularizer=tf.constant(0.25))),
    ("lstsq-negative-l2-kernel", "ops.linalg-lstsq", lambda tf: tf.linalg.lstsq(
        _arr((5, 3), 25, "float64"), _arr((5, 2), 26, "float64"), l2_regularizer=-1.0, fast=False)),
    ("lstsq-kernel-path-large-batch", "ops.linalg-lstsq", lambda tf: tf.linalg.lstsq(
        _arr((400, 12, 5), 27), _arr((400, 12, 2), 28))),
    ("lstsq-kernel-path-large-batch-rank-deficient", "ops.linalg-lstsq", lambda tf: tf.linalg.lstsq(
        np.zeros((400, 12, 5), np.float32), _arr((400, 12, 2), 28))),
    ("lstsq-rank-deficient-fast", "ops.linalg-lstsq", lambda tf: tf.linalg.lstsq(
        np.ones((4, 2)), _arr((4, 1), 29, "float64"))),
    ("lstsq-rank-deficient-complete-orthogonal", "ops.linalg-lstsq", lambda tf: tf.linalg.lstsq(
        np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]), np.array([[1.0], [2.0], [2.0]]), fast=False)),
    # (TF's kernel leaves the [3, 2] output of a 0-row system unwritten: its values are whatever the allocator held)
    ("lstsq-empty-kernel-shape", "ops.linalg-lstsq", lambda tf: tf.shape(tf.linalg.lstsq(
        np.zeros((0, 3)), np.zeros((0, 2)), fast=False))),
    ("lstsq-empty-fast", "ops.linalg-lstsq", lambda tf: tf.linalg.lstsq(np.zeros((0, 3)), np.zeros((0, 2)))),
    ("lstsq-no-columns", "ops.linalg-lstsq", lambda tf: tf.linalg.lstsq(np.zeros((3, 0)), np.ones((3, 2)))),
    ("lstsq-row-mismatch", "ops.linalg-lstsq", lambda tf: tf.linalg.lstsq(_arr((5, 3), 30), _arr((4, 2), 31))),
    ("lstsq-row-mismatch-kernel", "ops.linalg-lstsq", lambda tf: tf.linalg.lstsq(
        _arr((5, 3), 30), _arr((4, 2), 31), fast=False)),
    *[(f"lstsq-{dt}-fast-{fast}", "ops.linalg-lstsq", (lambda dt, fast: lambda tf: tf.linalg.lstsq(
        tf.cast(_arr((4, 2), 32), getattr(tf, dt)), tf.cast(_arr((4, 1), 33), getattr(tf, dt)), fast=fast))(dt, fast))
      for dt in ("float16", "int32") for fast in (True, False)],
    *[(f"lstsq-grads-{m}x{n}-l2-{l2}", "ops.linalg-lstsq", (lambda m, n, l2: lambda tf: _grads(
        tf, lambda a, b: tf.linalg.lstsq(a, b, l2_regularizer=l2), _arr((m, n), 34, "float64"),
        _arr((m, 2), 35, "float64")))(m, n, l2)) for (m, n) in ((6, 3), (3, 5)) for l2 in (0.0, 0.5)],
    ("lstsq-grads-kernel-path", "ops.linalg-lstsq", lambda tf: _grads(
        tf, tf.linalg.lstsq, _arr((300, 12, 5), 36, "float64"), _arr((300, 12, 2), 37, "float64"))),
    ("lstsq-grads-kernel-path-underdetermined", "ops.linalg-lstsq", lambda tf: _grads(
        tf, lambda a, b: tf.linalg.lstsq(a, b, l2_regularizer=0.5), _arr((400, 5, 12), 36, "float64"),
        _arr((400, 5, 2), 37, "float64"))),
    ("lstsq-grads-not-fast", "ops.linalg-lstsq", lambda tf: _grads(
        tf, lambda a, b: tf.linalg.lstsq(a, b, fast=False), _arr((6, 3), 34, "float64"), _arr((6, 2), 35, "float64"))),
    # --- sqrtm -----------------------------------------------------------------------------------------------------------
    *[(f"sqrtm-spd-{dt}", "ops.linalg-sqrtm", (lambda dt: lambda tf: tf.linalg.sqrtm(_spd(5, 40, dt, (2,))))(dt))
      for dt in ("float32", "float64")],
    ("sqrtm-general-batch", "ops.linalg-sqrtm", lambda tf: tf.linalg.sqrtm(
        np.stack([_spd(4, 41) + _arr((4, 4), 42, "float64"), _spd(4, 43) * 0.1 + np.triu(_arr((4, 4), 44, "float64"))]))),
    ("sqrtm-complex-eigenvalues", "ops.linalg-sqrtm", lambda tf: tf.linalg.sqrtm(
        np.array([[1.0, -2.0, 0.5, 0.0], [2.0, 1.0, 0.0, 0.3], [0.0, 0.0, 3.0, -1.0], [0.0, 0.0, 1.0, 3.0]]))),
    ("sqrtm-rotation-and-real", "ops.linalg-sqrtm", lambda tf: tf.linalg.sqrtm(
        np.array([[4.0, 1.0, 2.0], [0.0, 0.5, -1.5], [0.0, 1.5, 0.5]]))),
    ("sqrtm-negative-eigenvalue", "ops.linalg-sqrtm", lambda tf: tf.linalg.sqrtm(
        np.array([[[-1.0, 0.0], [0.0, 1.0]], [[2.0, 1.0], [1.0, 2.0]]]))),
    ("sqrtm-singular-nilpotent", "ops.linalg-sqrtm", lambda tf: tf.linalg.sqrtm(np.array([[0.0, 1.0], [0.0, 0.0]]))),
    ("sqrtm-zero", "ops.linalg-sqrtm", lambda tf: tf.linalg.sqrtm(np.zeros((3, 3), np.float32))),
    ("sqrtm-nan", "ops.linalg-sqrtm", lambda tf: tf.linalg.sqrtm(np.array([[np.nan, 1.0], [0.0, 1.0]]))),
    ("sqrtm-inf", "ops.linalg-sqrtm", lambda tf: tf.linalg.sqrtm(np.array([[np.inf, 0.0], [0.0, 1.0]], np.float32))),
    ("sqrtm-1x1", "ops.linalg-sqrtm", lambda tf: tf.linalg.sqrtm(np.array([[[4.0]], [[-4.0]]]))),
    ("sqrtm-empty", "ops.linalg-sqrtm", lambda tf: tf.linalg.sqrtm(np.zeros((2, 0, 0), np.float32))),
    ("sqrtm-not-square", "ops.linalg-sqrtm", lambda tf: tf.linalg.sqrtm(np.zeros((2, 3)))),
    ("sqrtm-rank-1", "ops.linalg-sqrtm", lambda tf: tf.linalg.sqrtm(np.zeros((3,)))),
    *[(f"sqrtm-{dt}", "ops.linalg-sqrtm", (lambda dt: lambda tf: tf.linalg.sqrtm(
        tf.cast(np.eye(2), getattr(tf, dt))))(dt)) for dt in ("float16", "bfloat16", "int32")],
    ("matrix-square-root", "ops.linalg-sqrtm", lambda tf: tf.matrix_square_root(_spd(3, 45))),
    ("sqrtm-grads", "ops.linalg-sqrtm", lambda tf: _grads(tf, tf.linalg.sqrtm, _spd(4, 46, "float64", (2,)))),
    ("sqrtm-grads-float32", "ops.linalg-sqrtm", lambda tf: _grads(tf, tf.linalg.sqrtm, _spd(3, 47, "float32"))),
    # --- ctc_loss (dense labels: ctc_loss_dense) ------------------------------------------------------------------------
    ("ctc-loss-basic", "ops.nn-ctc", lambda tf: tf.nn.ctc_loss(_CTC_LABELS, _arr((6, 3, 5), 50), [3, 2, 3], [6, 5, 2])),
    ("ctc-loss-grads", "ops.nn-ctc", lambda tf: _grads(tf, lambda v: tf.nn.ctc_loss(
        _CTC_LABELS, v, [3, 2, 3], [6, 5, 4]), _arr((6, 3, 5), 51))),
    ("ctc-loss-batch-major-blank-2", "ops.nn-ctc", lambda tf: _grads(tf, lambda v: tf.nn.ctc_loss(
        _CTC_LABELS, v, [3, 2, 3], [6, 5, 6], logits_time_major=False, blank_index=2), _arr((3, 6, 5), 52))),
    ("ctc-loss-blank-last", "ops.nn-ctc", lambda tf: tf.nn.ctc_loss(
        _CTC_LABELS - 1, _arr((6, 3, 5), 53), [3, 2, 3], [6, 6, 6], blank_index=-1)),
    ("ctc-loss-large", "ops.nn-ctc", lambda tf: _grads(tf, lambda v: tf.nn.ctc_loss(
        np.random.default_rng(54).integers(1, 30, size=(4, 8)), v, [8, 5, 1, 7], [20, 18, 9, 16]),
        _arr((20, 4, 30), 55) * 3)),
    ("ctc-loss-repeats", "ops.nn-ctc", lambda tf: tf.nn.ctc_loss(
        np.array([[1, 1, 1], [2, 2, 3]]), _arr((5, 2, 4), 56), [3, 3], [5, 4])),
    ("ctc-loss-impossible", "ops.nn-ctc", lambda tf: tf.nn.ctc_loss(
        np.array([[1, 1, 1], [1, 2, 3]]), _arr((4, 2, 4), 57), [3, 3], [4, 2])),
    ("ctc-loss-lengths-out-of-range", "ops.nn-ctc", lambda tf: tf.nn.ctc_loss(
        _CTC_LABELS, _arr((6, 3, 5), 58), [0, 5, -1], [9, 0, 6])),
    ("ctc-loss-int64-labels", "ops.nn-ctc", lambda tf: tf.nn.ctc_loss(
        _CTC_LABELS.astype(np.int64), _arr((6, 3, 5), 59), np.array([3, 2, 3], np.int64), [6, 5, 2])),
    ("ctc-loss-in-function", "ops.nn-ctc", lambda tf: tf.function(lambda x: tf.nn.ctc_loss(
        _CTC_LABELS, x, [3, 2, 3], [6, 5, 2]))(tf.constant(_arr((6, 3, 5), 60)))),
    ("ctc-loss-float16", "ops.nn-ctc", lambda tf: _grads(tf, lambda v: tf.nn.ctc_loss(
        _CTC_LABELS, v, [3, 2, 3], [6, 5, 6]), _arr((6, 3, 5), 61, "float16"))),
    ("ctc-loss-bfloat16", "ops.nn-ctc", lambda tf: tf.cast(tf.nn.ctc_loss(
        _CTC_LABELS, tf.cast(_arr((6, 3, 5), 62), tf.bfloat16), [3, 2, 3], [6, 5, 6]), tf.float32)),
    ("ctc-loss-float64", "ops.nn-ctc", lambda tf: tf.nn.ctc_loss(
        _CTC_LABELS, _arr((6, 3, 5), 63, "float64"), [3, 2, 3], [6, 5, 6])),
    ("ctc-loss-int-logits", "ops.nn-ctc", lambda tf: tf.nn.ctc_loss(
        _CTC_LABELS, np.ones((6, 3, 5), np.int32), [3, 2, 3], [6, 5, 6])),
    ("ctc-loss-float-labels", "ops.nn-ctc", lambda tf: tf.nn.ctc_loss(
        _CTC_LABELS.astype(np.float32), _arr((6, 3, 5), 64), [3, 2, 3], [6, 5, 6])),
    ("ctc-loss-no-label-length", "ops.nn-ctc", lambda tf: tf.nn.ctc_loss(
        _CTC_LABELS, _arr((6, 3, 5), 64), None, [6, 5, 6])),
    # --- banded_triangular_solve -------------------------------------------------------------------------------------
    *[(f"banded-solve-lower-{lo}-adjoint-{adj}", "ops.linalg-banded-solve", (lambda lo, adj: lambda tf: _grads(
        tf, lambda b, r: tf.linalg.banded_triangular_solve(b, r, lower=lo, adjoint=adj), _bands(3, 6, 80, lo),
        _arr((6, 2), 81)))(lo, adj)) for lo in (True, False) for adj in (False, True)],
    ("banded-solve-float64-batch", "ops.linalg-banded-solve", lambda tf: tf.linalg.banded_triangular_solve(
        _bands(2, 5, 82, True, "float64", (2,)), _arr((2, 5, 3), 83, "float64"))),
    ("banded-solve-broadcast-grads", "ops.linalg-banded-solve", lambda tf: _grads(
        tf, tf.linalg.banded_triangular_solve, _bands(3, 5, 84, True, "float64", (1,)),
        _arr((2, 5, 2), 85, "float64"))),
    ("banded-solve-wide-bands", "ops.linalg-banded-solve", lambda tf: tf.linalg.banded_triangular_solve(
        _bands(7, 5, 86, False), _arr((5, 1), 87), lower=False)),
    ("banded-solve-singular-first", "ops.linalg-banded-solve", lambda tf: tf.linalg.banded_triangular_solve(
        np.array([[1.0, 0.0, 2.0], [1.0, 1.0, 1.0]], np.float32), tf.ones((3, 1)))),
    ("banded-solve-singular-second", "ops.linalg-banded-solve", lambda tf: tf.linalg.banded_triangular_solve(
        np.array([[[1.0, 3.0, 2.0], [1.0, 1.0, 1.0]], [[1.0, 0.0, 2.0], [1.0, 1.0, 1.0]]], np.float32),
        tf.ones((3, 1)))),
    ("banded-solve-vector-rhs", "ops.linalg-banded-solve", lambda tf: tf.linalg.banded_triangular_solve(
        _bands(2, 4, 88, True), _arr((4,), 89))),
    ("banded-solve-empty", "ops.linalg-banded-solve", lambda tf: tf.linalg.banded_triangular_solve(
        np.zeros((1, 0), np.float32), np.zeros((0, 1), np.float32))),
    ("banded-solve-size-mismatch", "ops.linalg-banded-solve", lambda tf: tf.linalg.banded_triangular_solve(
        _bands(2, 4, 88, True), _arr((3, 1), 89))),
    ("banded-solve-batch-mismatch", "ops.linalg-banded-solve", lambda tf: tf.linalg.banded_triangular_solve(
        _bands(2, 4, 88, True, batch=(2,)), _arr((3, 4, 1), 89))),
    *[(f"banded-solve-{dt}", "ops.linalg-banded-solve", (lambda dt: lambda tf: tf.linalg.banded_triangular_solve(
        tf.cast(_bands(2, 3, 90, True), getattr(tf, dt)), tf.ones((3, 1), getattr(tf, dt))))(dt))
      for dt in ("float16", "bfloat16", "int32")],
    # --- tf.cond's predicate inside tf.function ------------------------------------------------------------------------
    *[(f"cond-in-function-pred-{name}", "ops.cond-in-function", (lambda pred: lambda tf: tf.function(
        lambda a: tf.cond(pred(tf, a), lambda: a, lambda: a * 2))(tf.constant(2.0)))(pred)) for name, pred in (
        ("python-true", lambda tf, a: True), ("python-false", lambda tf, a: False), ("python-int", lambda tf, a: 1),
        ("numpy-bool", lambda tf, a: np.bool_(False)), ("bool-tensor", lambda tf, a: a > 1),
        ("float-tensor", lambda tf, a: a), ("int-tensor", lambda tf, a: tf.cast(a, tf.int32)),
        ("python-none", lambda tf, a: None))],
    *[(f"cond-eager-pred-{name}", "ops.cond-in-function", (lambda pred: lambda tf: tf.cond(
        pred, lambda: tf.constant(1.0), lambda: tf.constant(2.0)))(pred)) for name, pred in (
        ("python-true", True), ("python-int", 0), ("float", 0.5))],
    # --- assert_rank, guarantee_const, get_logger ------------------------------------------------------------------
    ("assert-rank-ok", "ops.tf-utilities", lambda tf: [tf.constant(tf.assert_rank(tf.ones((2, 3)), 2) is None),
                                                     tf.constant(tf.debugging.assert_rank(np.zeros((1,)), 1) is None)]),
    ("assert-rank-bad", "ops.tf-utilities", lambda tf: tf.assert_rank(tf.ones((3,)), 2)),
    ("assert-rank-bad-list", "ops.tf-utilities", lambda tf: tf.assert_rank([[1, 2]], 1, message="m")),
    ("assert-rank-tensor", "ops.tf-utilities", lambda tf: tf.assert_rank(tf.ones((3,)), tf.constant(3))),
    ("assert-rank-vector", "ops.tf-utilities", lambda tf: tf.assert_rank(tf.ones((3,)), [1])),
    ("assert-rank-float", "ops.tf-utilities", lambda tf: tf.assert_rank(tf.ones((3,)), 1.0)),
    ("assert-rank-int64", "ops.tf-utilities", lambda tf: tf.assert_rank(tf.ones((3,)), tf.constant(1, tf.int64))),
    ("assert-rank-in-function", "ops.tf-utilities", lambda tf: tf.function(
        lambda a: (tf.assert_rank(a, 2), a)[1])(tf.ones((3,)))),
    ("guarantee-const", "ops.tf-utilities", lambda tf: [tf.guarantee_const(tf.constant([1.0, 2.0])),
                                                       tf.guarantee_const([1, 2]), tf.guarantee_const("abc")]),
    ("guarantee-const-in-function", "ops.tf-utilities", lambda tf: tf.function(
        lambda a: tf.guarantee_const(a) + 1)(tf.constant([1.0, 2.0]))),
    ("guarantee-const-gradient", "ops.tf-utilities", lambda tf: _grads(tf, tf.guarantee_const, _arr((3,), 70))),
    ("get-logger", "ops.tf-utilities", lambda tf: tf.constant(tf.get_logger().name)),
    ("approx-top-k", "ops.tf-utilities", lambda tf: tf.approx_top_k(_arr((3, 7), 71), 3)),
    ("approx-top-k-keywords", "ops.tf-utilities", lambda tf: tf.approx_top_k(
        input=_arr((2, 6), 72, "float16"), k=2, recall_target=0.5, aggregate_to_topk=False)),
    ("approx-top-k-min", "ops.tf-utilities", lambda tf: tf.approx_top_k(_arr((3, 7), 71), 3, is_max_k=False)),
    ("approx-top-k-dimension-1", "ops.tf-utilities", lambda tf: tf.approx_top_k(_arr((3, 7), 71), 3,
                                                                                reduction_dimension=1)),
    ("approx-top-k-float64", "ops.tf-utilities", lambda tf: tf.approx_top_k(_arr((3, 7), 71, "float64"), 3)),
    ("approx-top-k-k-too-large", "ops.tf-utilities", lambda tf: tf.approx_top_k(_arr((3, 7), 71), 9)),
    # --- float32 tanh: Eigen's ptanh_float, bit for bit ---------------------------------------------------------------
    ("tanh-float32-wide", "ops.fast-tanh", lambda tf: tf.tanh(_TANH_X)),
    ("tanh-float32-small-and-specials", "ops.fast-tanh", lambda tf: tf.math.tanh(np.array(
        [np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-30, -3e-20, 1e-8, 4e-4, 7.90738964080810547, 7.9074, 8.0,
         -8.5, 1e30, -1e30, 1.17549435e-38], np.float32))),
    ("tanh-float32-in-function", "ops.fast-tanh", lambda tf: tf.function(lambda a: tf.nn.tanh(a) * 1.0)(
        tf.constant(_TANH_X[:999]))),
    ("tanh-float32-sizes", "ops.fast-tanh", lambda tf: [tf.tanh(_TANH_X[:n]) for n in (1, 3, 7, 9, 17)]),
    ("tanh-float32-gradient", "ops.fast-tanh", lambda tf: _grads(tf, tf.tanh, _TANH_X[:500])),
    ("tanh-float16", "ops.fast-tanh", lambda tf: tf.tanh(np.linspace(-10, 10, 4001).astype(np.float16))),
    ("tanh-bfloat16", "ops.fast-tanh", lambda tf: tf.cast(tf.tanh(tf.cast(np.linspace(-10, 10, 2001).astype(
        np.float32), tf.bfloat16)), tf.float32)),
]

# lstsq's normal equations amplify a matmul's float32 rounding (TF's summation order, not NumPy's) by cond(A)²
_RTOL = {"ops.linalg-tridiagonal": 1e-6, "ops.linalg-lstsq": 1e-4, "ops.linalg-sqrtm": 2e-5, "ops.fast-tanh": 0.0, "ops.nn-ctc": 2e-5, "ops.tf-utilities": 0.0, "ops.linalg-banded-solve": 1e-5, "ops.cond-in-function": 0.0}
CASES: list[tuple[str, str, Callable[[Any], Any], float]] = [(n, c, f, _RTOL[c]) for n, c, f in _RAW]


# the tolerances of test_op_gap3_tf.py (float16/bfloat16 floors, atol a tenth of rtol)
EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.within(
    case[3], {"float16": 2e-3, "bfloat16": 1.6e-2}, atol_ratio=0.1))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.linalg-tridiagonal")
@EDGES.parametrize("ops.linalg-tridiagonal")
def test_tridiagonal_solve(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-lstsq")
@EDGES.parametrize("ops.linalg-lstsq")
def test_lstsq(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-sqrtm")
@EDGES.parametrize("ops.linalg-sqrtm")
def test_sqrtm(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-ctc")
@EDGES.parametrize("ops.nn-ctc")
def test_ctc_loss(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-banded-solve")
@EDGES.parametrize("ops.linalg-banded-solve")
def test_banded_triangular_solve(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.cond-in-function")
@EDGES.parametrize("ops.cond-in-function")
def test_cond_predicate_in_function(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.tf-utilities")
@EDGES.parametrize("ops.tf-utilities")
def test_tf_utilities(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.fast-tanh")
@EDGES.parametrize("ops.fast-tanh")
def test_fast_tanh(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_op_gap4_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
