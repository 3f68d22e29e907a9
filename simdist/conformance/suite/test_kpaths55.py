"""The op-path sweep on an AVX-512 CPU with oneDNN (fifty-fifth session): kpaths54's programs whose TF 2.21 bits
differ there from the AVX2 host's, recorded on an Intel Xeon with AVX-512, AVX512-FP16 and AMX (kpaths55_cases.py).
On the simdist backend they run under its reference model (that kind of CPU), so the default run checks oneDNN's
batch-norm, pooling, MatMul, Conv2D and softmax kernels and Intel's estimate tables bit for bit; on TF they run on
such a CPU only (`python -m simdist.conformance.suite.test_kpaths55 --record` records there)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.kpaths55_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.host-cpu")
@pytest.mark.parametrize("name", _ids("k-batchnorm-") + _ids("k-pool-") + _ids("k-matmul-") + _ids("k-conv2d-"))
def test_kpaths55_onednn_layer_kernels(backend: Any, name: str) -> None:
    """FusedBatchNormV3, AvgPool/MaxPool, MatMul/BatchMatMul and Conv2D with their gradients, where oneDNN runs them
    (float32; bfloat16 and float16 where the CPU takes them): TF 2.21's bits on an AVX-512 oneDNN CPU."""
    _check(backend, name)


@pytest.mark.clause("nn.softmax-eigen")
@pytest.mark.parametrize("name", _ids("k-softmax-") + _ids("k-xent-"))
def test_kpaths55_softmax_family(backend: Any, name: str) -> None:
    """Softmax and LogSoftmax (oneDNN's kernel for float32, bfloat16 and float16 there) and the cross-entropies over
    1 to 17 rows of 1 to 129 classes, with gradients: TF 2.21's bits on an AVX-512 oneDNN CPU."""
    _check(backend, name)


@pytest.mark.clause("ops.eigen-kernels")
@pytest.mark.parametrize("name", _ids("k-unary-") + _ids("k-grad2-") + _ids("k-train-"))
def test_kpaths55_intel_estimate_tables(backend: Any, name: str) -> None:
    """Eigen's float32 reciprocal, rsqrt and log packets (Intel's vrcpps/vrsqrtps tables) under Reciprocal, Rsqrt, Log,
    Log1p, GELU, the second-order gradients and the Adagrad, Adadelta and ProximalAdagrad kernels: TF 2.21's bits on an
    AVX-512 Intel CPU."""
    _check(backend, name)


assert len(REF.programs) == len(_ids("k-")) == 21

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
