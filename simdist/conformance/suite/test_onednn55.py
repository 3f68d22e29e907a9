"""The oneDNN sweep (fifty-fifth session, onednn55; onednn55_cases.py): the paths of the oneDNN kernels simdist
models for an AVX-512 Intel CPU with oneDNN on, crossed by rule (softmax rows of 1..129 classes and longer, non-finite
rows, Keras's cross-entropies on them; MatMul's transpose_b rows and in-order k, n; batch norm's channel counts;
Conv2D and pooling shapes), values and gradients bit for bit, recorded on TF 2.21 on such a Xeon
(`python -m simdist.conformance.suite.test_onednn55 --record` there). On the simdist backend they run under its
reference model; on TF only on such a CPU."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.onednn55_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("nn.softmax-nonfinite")
@pytest.mark.parametrize("name", _ids("o-softmax-") + _ids("o-xent-"))
def test_onednn55_softmax_rows(backend: Any, name: str) -> None:
    """oneDNN's softmax (float32, bfloat16, float16) over rows of 1..129 classes and 144..1000, finite and
    non-finite rows, and Keras's cross-entropies of its probabilities, with gradients: TF 2.21's bits on an
    AVX-512 oneDNN CPU."""
    _check(backend, name)


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", _ids("o-matmul-") + _ids("o-conv2d-"))
def test_onednn55_matmul_and_conv(backend: Any, name: str) -> None:
    """oneDNN's MatMul (transpose_b rows 1..16, in-order k up to 385, n from 1) and Conv2D with their gradients:
    TF 2.21's bits on an AVX-512 oneDNN CPU."""
    _check(backend, name)


@pytest.mark.clause("ops.fused-batch-norm")
@pytest.mark.parametrize("name", _ids("o-batchnorm-"))
def test_onednn55_batch_norm_channels(backend: Any, name: str) -> None:
    """oneDNN's FusedBatchNormV3 over 1..32 channels (jit and C++ kernels), training and inference, float32 and
    bfloat16, with gradients: TF 2.21's bits on an AVX-512 oneDNN CPU."""
    _check(backend, name)


@pytest.mark.clause("nn.max-pool-nan")
@pytest.mark.parametrize("name", _ids("o-pool-"))
def test_onednn55_pooling(backend: Any, name: str) -> None:
    """oneDNN's float32 AvgPool and MaxPool (windows, strides, padding, ties) with gradients: TF 2.21's bits on an
    AVX-512 oneDNN CPU."""
    _check(backend, name)


assert len(REF.programs) == len(_ids("o-")) == 13

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
