"""The float32/half matrix-product family with tagged NaNs, infinities, subnormals and signed zeros at each kernel
threshold (sixty-third session, msweep63; msweep63_cases.py): tf.matmul on every path simdist's float32 MatMul takes
(one row with and without transpose_b, one column, x^T @ column, transpose_b of 2..15 rows, the plain no-copy sgemm
and its k blocks, the copy-based sgemm of 101 columns), traced, BatchMatMulV2 with broadcast batch dims, einsum,
tensordot, linalg.matvec, one row split by oneDNN's threads, Keras Dense/EinsumDense and bias_add and their
gradients, matmul's gradients (each operand alone, batched with a broadcast operand), float16/bfloat16 and float64,
crossed with NaNs whose payloads and signs name their operand (one operand, both at one k, early and late, across k
blocks, whole rows/columns, signalling), inf · 0, inf − inf, infinities, subnormals and -0.0: every value's bits
against TF 2.21's recorded results (`python -m simdist.conformance.suite.test_msweep63 --record` rewrites
msweep63_reference.json.gz). Recorded on this session's AVX-512 Xeon with oneDNN on: simdist runs the programs under
its reference model on any CPU. OPEN (msweep63_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.msweep63_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", _ids("m-f32-"))
def test_msweep63_float32_matmul_paths_with_nan_payloads(backend: Any, name: str) -> None:
    """float32 products on every kernel path and at its thresholds, eager, traced, batched, einsum/tensordot/matvec,
    Keras Dense/EinsumDense/bias_add and gradients, with tagged NaNs, infinities, subnormals and -0.0: the bits."""
    _check(backend, name)


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", _ids("m-f16-") + _ids("m-bf16-") + _ids("m-f64-"))
def test_msweep63_half_and_float64_matmul_with_nan_payloads(backend: Any, name: str) -> None:
    """float16/bfloat16 (oneDNN's half kernels) and float64 (control) MatMul and BatchMatMulV2 with tagged NaNs in
    both operands, inf · 0 and overflow: the bits."""
    _check(backend, name)


assert sorted(_ids("m-f32-") + _ids("m-f16-") + _ids("m-bf16-") + _ids("m-f64-")) == sorted(REF.programs)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
