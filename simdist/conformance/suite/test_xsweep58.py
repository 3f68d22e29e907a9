"""The contraction sweep (fifty-eighth session, xsweep58; xsweep58_cases.py): matmul, batch_matmul with broadcast
batch dimensions, einsum's contraction forms, tensordot, linalg.matvec and keras.ops.matmul at and around every size
threshold of simdist's contraction code (Eigen's coefficient-based product at m + k + n = 20, the GEBP kernel's
packets, panels and accumulators, one row, one column, k = 1, zero sizes), transposes and adjoints, float64,
complex64/128, int32/int64, float16, bfloat16, -0.0, inf and NaN, values and gradients, eager and traced — bit for
bit with TF 2.21's recorded results (`python -m simdist.conformance.suite.test_xsweep58 --record` rewrites
xsweep58_reference.json.gz; recorded on an AVX-512 Xeon with oneDNN on, every program host-dependent)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.xsweep58_cases import REF

_check, _ids = REF.check, REF.ids


_COMPLEX = ("x-matmul-complex128", "x-matmul-complex64-batch", "x-einsum-complex128")


@pytest.mark.clause("ops.float64-gebp-order")
@pytest.mark.parametrize("name", [n for n in _ids("x-matmul-") if n not in _COMPLEX])
def test_xsweep58_products_at_every_threshold(backend: Any, name: str) -> None:
    """matmul in one dtype, 2-D, batched or broadcast, over 31 shapes around the kernels' thresholds and the four
    transpose (or adjoint) pairs, with gradients: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.complex-gebp-order")
@pytest.mark.parametrize("name", list(_COMPLEX))
def test_xsweep58_complex_products(backend: Any, name: str) -> None:
    """complex64/complex128 matmul (2-D and batched) and einsum over the same shapes, with gradients: TF 2.21's bits
    (Eigen's complex GEBP: four real sums per entry; cplx58)."""
    _check(backend, name)


@pytest.mark.clause("ops.einsum")
@pytest.mark.parametrize("name", [n for n in _ids("x-einsum-") + _ids("x-conv-") if n not in _COMPLEX])
def test_xsweep58_einsum_tensordot_matvec(backend: Any, name: str) -> None:
    """einsum's contraction forms, tensordot, matvec and keras.ops.matmul at the thresholds, with gradients; float64
    conv2d/conv3d (Eigen's spatial convolution: GEBP on the patches) and int32 conv2d's refusal: TF 2.21's bits."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
