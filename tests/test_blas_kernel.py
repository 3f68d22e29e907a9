"""The test run's NumPy computes matrix products with the reference host's BLAS kernels (clause
ops.host-cpu): tests/conftest.py sets OPENBLAS_CORETYPE=Haswell before NumPy loads OpenBLAS, since
the goldens' float32/float64 products and LAPACK results were recorded with simdist on AVX2 kernels
and an AVX-512 host's SkylakeX kernels round some sums otherwise in the last bits. This test says
which kernel runs, so a run where the pin did not take (NumPy imported before tests/conftest.py)
fails here with the reason, not as scattered last-bit differences."""

from __future__ import annotations

import os

import pytest

threadpoolctl = pytest.importorskip("threadpoolctl")


@pytest.mark.clause("ops.host-cpu")
def test_numpy_runs_the_reference_hosts_blas_kernels() -> None:
    import numpy as np
    np.ones((2, 2)) @ np.ones((2, 2))   # (OpenBLAS is loaded with NumPy; this makes sure it ran)
    blas = [i for i in threadpoolctl.threadpool_info() if i.get("internal_api") == "openblas"]
    if not blas:
        pytest.skip("NumPy is not linked against OpenBLAS here: no kernel choice to pin")
    want = os.environ.get("OPENBLAS_CORETYPE", "")
    got = [i.get("architecture") for i in blas]
    assert want == "Haswell", f"OPENBLAS_CORETYPE={want!r}, but tests/conftest.py should set 'Haswell'"
    assert all(a == "Haswell" for a in got), (
        f"OpenBLAS runs the {got} kernels, but the goldens were recorded with the Haswell (AVX2) ones: NumPy was "
        f"imported before tests/conftest.py set OPENBLAS_CORETYPE; run pytest from the checkout's root or set "
        f"OPENBLAS_CORETYPE=Haswell in the environment")
