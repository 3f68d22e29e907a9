"""The eigen-decomposition kernels transcribed for tf.linalg.eig/eigvals (simdist/runtime/ops/
complex_eigen.py: Eigen's ComplexEigenSolver; real_eigen.py: EigenSolver's eigenvalues through
RealSchur) against TF 2.21's Eig op on the same matrices: eigenvalues in TF's order and (complex
inputs) eigenvectors with TF's phases, within a few ulps of the kernel's precision. The facade
functions wait for complex dtypes in simdist (docs/ops-coverage.md), so the kernels are called
directly here on NumPy arrays. Needs the `tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_workers
from simdist.runtime.ops import complex_eigen, real_eigen

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _mat(n: int, seed: int, dt: str, cplx: bool = False) -> np.ndarray:
    g = np.random.default_rng(2911 + seed)
    a = g.normal(size=(n, n))
    if cplx:
        return (a + 1j * g.normal(size=(n, n))).astype(dt)
    return a.astype(dt)


CASES: list[tuple[str, np.ndarray]] = [
    *[(f"real-{dt}-{n}", _mat(n, n, dt)) for dt in ("float32", "float64") for n in (1, 2, 3, 5, 8, 13)],
    ("real-diagonal", np.diag([3.0, 1.0, 2.0, -4.0])),
    ("real-rotation", np.array([[0.0, 1.0], [-1.0, 0.0]])),
    ("real-zeros", np.zeros((3, 3))),
    ("real-jordan", np.triu(np.ones((4, 4)))),
    ("real-graded", np.array([[1.0, 1e8], [1e-8, 1.0]])),
    ("real-companion", np.array([[0, 0, 0, -6.0], [1, 0, 0, 11.0], [0, 1, 0, -6.0], [0, 0, 1, 0.5]])),
    *[(f"complex-{dt}-{n}", _mat(n, 40 + n, dt, True)) for dt in ("complex64", "complex128") for n in (1, 2, 3, 5, 8)],
    ("complex-diagonal", np.diag([3.0 + 1j, 1.0, -2.0j]).astype(np.complex128)),
]


def tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    out: dict[int, Any] = {}
    for k in indices:
        a = CASES[k][1]
        if np.iscomplexobj(a):
            e, v = tf.linalg.eig(a)
            out[k] = (e.numpy(), v.numpy())
        else:
            out[k] = (tf.linalg.eigvals(a).numpy(), None)
    return out


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.parametrize("k", range(len(CASES)), ids=[c[0] for c in CASES])
def test_eigen_kernels_match_tf(k: int, tf_results: dict[int, Any]) -> None:
    name, a = CASES[k]
    want_e, want_v = tf_results[k]
    eps = np.finfo(np.float32 if a.dtype in (np.float32, np.complex64) else np.float64).eps
    scale = max(1.0, float(np.max(np.abs(want_e)))) if want_e.size else 1.0
    if np.iscomplexobj(a):
        got_e, got_v, ok = complex_eigen.eig(a, True)
    else:
        got_e, ok = real_eigen.real_eigvals(a)
        got_v = None
    assert ok, f"the kernel did not converge on {name}, but TF 2.21 returns {want_e}"
    assert got_e.dtype == want_e.dtype, f"eigenvalues hold {got_e.dtype}, but TF 2.21's hold {want_e.dtype} [{name}]"
    err = float(np.max(np.abs(got_e - want_e))) / scale if want_e.size else 0.0
    assert err <= 64 * eps * a.shape[0], f"eigenvalues {got_e}, but TF 2.21 gives {want_e} (relative error {err:.2e}) [{name}]"
    if want_v is not None:
        verr = float(np.max(np.abs(got_v - want_v)))
        assert verr <= 256 * eps * a.shape[0], f"eigenvectors differ from TF 2.21's by {verr:.2e} [{name}]: {got_v} vs {want_v}"


if __name__ == "__main__":  # TF worker: python test_eigen_solvers_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(tf_worker)
