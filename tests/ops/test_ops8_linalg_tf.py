"""tf.linalg.logm (complex128 within 1e-11, complex64 within 1e-4: SciPy's logm, not Eigen's steps;
diagonal matrices exact; singular ones NaN) and tf.linalg.eigh_tridiagonal (TF's Python bisection and inverse iteration over its ops) against
real TensorFlow 2.21: eigenvalues bit for bit (float32, float64, complex; select 'a', 'i', 'v';
tol), eigenvectors bit for bit in float32 and within a few float64 ulps (the inverse iteration's
norms and solves), clustered eigenvalues (QR re-orthogonalization), errors. Needs the `tf` extra
(or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _ab(seed: int, n: int, dtype: str = "float64") -> tuple[np.ndarray, np.ndarray]:
    r = np.random.default_rng(seed)
    if dtype.startswith("complex"):
        return ((r.normal(size=n) + 1j * r.normal(size=n)).astype(dtype),
                (r.normal(size=n - 1) + 1j * r.normal(size=n - 1)).astype(dtype))
    return r.normal(size=n).astype(dtype), r.normal(size=n - 1).astype(dtype)


def _vals(seed: int, n: int, dtype: str, **kw: Any) -> Callable[[Any], Any]:
    a, b = _ab(seed, n, dtype)
    return lambda tf: tf.linalg.eigh_tridiagonal(a, b, **kw)


def _vecs(seed: int, n: int, dtype: str, **kw: Any) -> Callable[[Any], Any]:
    a, b = _ab(seed, n, dtype)
    return lambda tf: list(tf.linalg.eigh_tridiagonal(a, b, eigvals_only=False, **kw))


_EXACT = 0.0
_ULPS = 1e-13       # float64 eigenvectors: the inverse iteration's norms and solves round differently
_C64 = 1e-6        # complex64 solves: NumPy's complex products and quotients, not std::complex's (a few ulps)
_QR = 1e-4          # a float32 cluster's vectors, re-orthogonalized by simdist's QR (not TF's Householder bits)


def _parts(tf: Any, out: list) -> list:
    """Complex eigenvectors as their real and imaginary parts (the tolerance compares floats)."""
    return [out[0], tf.math.real(out[1]), tf.math.imag(out[1])]

_CASES: list[tuple[str, Callable[[Any], Any], float]] = [
    ("values-float32", _vals(1, 7, "float32"), _EXACT),
    ("values-float64", _vals(2, 9, "float64"), _EXACT),
    ("values-float64-long", _vals(3, 40, "float64"), _EXACT),
    ("values-complex64", _vals(4, 6, "complex64"), _EXACT),
    ("values-complex128", _vals(5, 6, "complex128"), _EXACT),
    ("values-select-i", _vals(6, 8, "float64", select="i", select_range=[2, 5]), _EXACT),
    ("values-select-v", _vals(7, 8, "float32", select="v", select_range=[-1.0, 1.5]), _EXACT),
    ("values-tol", _vals(8, 8, "float64", tol=1e-3), _EXACT),
    ("values-n1", lambda tf: tf.linalg.eigh_tridiagonal(np.array([2.5]), np.zeros(0)), _EXACT),
    ("values-n1-complex", lambda tf: tf.linalg.eigh_tridiagonal(np.array([2.5 + 1j]), np.zeros(0, np.complex128)),
     _EXACT),
    ("values-diagonal", lambda tf: tf.linalg.eigh_tridiagonal(np.array([3.0, -1.0, 2.0]), np.zeros(2)), _EXACT),
    ("vectors-float32", _vecs(9, 7, "float32"), _EXACT),
    ("vectors-float64", _vecs(10, 6, "float64"), _ULPS),
    ("vectors-complex128", lambda tf: _parts(tf, _vecs(11, 4, "complex128")(tf)), _ULPS),
    ("vectors-clustered", lambda tf: list(tf.linalg.eigh_tridiagonal(np.ones(5), np.full(4, 1e-9),
                                                                     eigvals_only=False)), _ULPS),
    ("vectors-clustered-float32", lambda tf: list(tf.linalg.eigh_tridiagonal(
        np.ones(5, np.float32), np.full(4, 1e-9, np.float32), eigvals_only=False)), _QR),
    ("err-dtype-mismatch", lambda tf: tf.linalg.eigh_tridiagonal(np.ones(3), np.ones(2, np.float32)), _EXACT),
    ("err-select", lambda tf: tf.linalg.eigh_tridiagonal(np.ones(3), np.ones(2), select="x"), _EXACT),
    ("err-empty-index-range", lambda tf: tf.linalg.eigh_tridiagonal(np.ones(3), np.ones(2), select="i",
                                                                    select_range=[2, 1]), _EXACT),
    ("err-empty-interval", lambda tf: tf.linalg.eigh_tridiagonal(np.ones(3), np.ones(2), select="v",
                                                                 select_range=[1.0, 1.0]), _EXACT),
]

def _perturbed(dtype: str, singular: bool) -> Callable[[Any], Any]:
    """tridiagonal_solve(partial_pivoting, perturb_singular) of complex diagonals (the pivots'
    perturbation takes the sign of their real part), singular (T − λI at an eigenvalue) or not."""
    a, b = _ab(12, 5, dtype)
    rhs = (np.arange(10).reshape(5, 2) * (1 - 0.5j)).astype(dtype)

    def run(tf: Any) -> Any:
        main = tf.constant(a)
        if singular:
            lam = tf.linalg.eigh_tridiagonal(a, b)[1]
            main = main - tf.cast(lam, main.dtype)
            main = tf.complex(tf.math.real(main), tf.zeros_like(tf.math.real(main)))
        sup = tf.concat([tf.constant(b), tf.zeros([1], a.dtype)], 0)
        sub = tf.concat([tf.zeros([1], a.dtype), tf.math.conj(tf.constant(b))], 0)
        x = tf.linalg.tridiagonal_solve([sup, main, sub], tf.constant(rhs), diagonals_format="sequence",
                                        partial_pivoting=True, perturb_singular=True)
        return [tf.math.real(x), tf.math.imag(x)]
    return run


def _cm(seed: int, shape: tuple[int, ...], dtype: str = "complex128", shift: float = 0.0) -> np.ndarray:
    r = np.random.default_rng(seed)
    a = r.normal(size=shape) + 1j * r.normal(size=shape) + shift * np.eye(shape[-1])
    return a.astype(dtype)


def _logm(a: np.ndarray) -> Callable[[Any], Any]:
    return lambda tf: _parts(tf, [tf.constant(0), tf.linalg.logm(a)])[1:]


def _logm_gradient(tf: Any) -> Any:
    x = tf.constant(_cm(30, (3, 3), shift=3.0))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.real(tf.linalg.logm(x)))
    return tape.gradient(y, x)


_LOGM: list[tuple[str, Callable[[Any], Any], float]] = [
    ("logm-complex128", _logm(_cm(20, (4, 4))), 1e-11),
    ("logm-complex128-8", _logm(_cm(21, (8, 8), shift=2.0)), 1e-11),
    ("logm-complex64", _logm(_cm(22, (5, 5), "complex64", shift=1.0)), 1e-4),
    ("logm-batch", _logm(_cm(23, (2, 3, 3, 3), shift=3.0)), 1e-11),
    ("logm-diagonal-exact", _logm(np.diag([-3.0, 2.0, 1j, -1 - 1j]).astype(np.complex128)), _EXACT),
    ("logm-jordan", _logm(np.array([[1, 1], [0, 1]], np.complex128)), 1e-12),
    ("logm-singular-nan", _logm(np.diag([0, 1]).astype(np.complex128)), _EXACT),
    ("logm-zero-nan", _logm(np.zeros((2, 2), np.complex64)), _EXACT),
    ("logm-empty", _logm(np.zeros((0, 0), np.complex64)), _EXACT),
    ("logm-err-real", lambda tf: tf.linalg.logm(np.eye(2)), _EXACT),
    ("logm-err-not-square", lambda tf: tf.linalg.logm(np.zeros((2, 3), np.complex64)), _EXACT),
    ("logm-err-rank-1", lambda tf: tf.linalg.logm(np.zeros((3,), np.complex64)), _EXACT),
    ("logm-gradient-lookup-error", _logm_gradient, _EXACT),
]

_SOLVES: list[tuple[str, Callable[[Any], Any], float]] = [
    ("perturbed-complex128", _perturbed("complex128", False), _ULPS),
    ("perturbed-complex64", _perturbed("complex64", False), _C64),
    ("perturbed-complex128-singular", _perturbed("complex128", True), _ULPS),
]

CASES: list[tuple[str, str, Callable[[Any], Any], float]] = (
    [(n, "ops.linalg-eigh-tridiagonal", f, tol) for n, f, tol in _CASES]
    + [(n, "ops.linalg-tridiagonal", f, tol) for n, f, tol in _SOLVES]
    + [(n, "ops.linalg-logm", f, tol) for n, f, tol in _LOGM])

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.within(case[3]))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.linalg-eigh-tridiagonal")
@EDGES.parametrize("ops.linalg-eigh-tridiagonal")
def test_eigh_tridiagonal(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-tridiagonal")
@EDGES.parametrize("ops.linalg-tridiagonal")
def test_tridiagonal_solve_perturbed_complex(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-logm")
@EDGES.parametrize("ops.linalg-logm")
def test_logm(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_ops8_linalg_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
