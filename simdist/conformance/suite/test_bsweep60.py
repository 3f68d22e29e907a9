"""The normalization-in-training sweep (sixtieth session, bsweep60; bsweep60_cases.py): FusedBatchNormV3 crossed by rule
(training with exponential_avg_factor 1/0.5/0.01, statistics given or empty, inference; NHWC and NCHW; epsilon
omitted, tiny and large; float32, float16 and bfloat16 x; 1, 2, 3, 30 and 144 rows per channel; 3 and 8 channels),
its value classes (constant, large mean, NaN, inf, zeros, tiny) and its gradients; tf.nn.moments,
sufficient_statistics + normalize_moments, weighted_moments, batch_normalization and l2_normalize in four float dtypes,
values and gradients, eagerly and traced; keras BatchNormalization through Model.fit's steps — compared bit for bit
with TF 2.21's recorded results (`python -m simdist.conformance.suite.test_bsweep60 --record` rewrites
bsweep60_reference.json.gz). Recorded on this session's AVX-512 Xeon with oneDNN on: simdist runs the programs under
its reference model on any CPU. OPEN (bsweep60_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.bsweep60_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.fused-batch-norm")
@pytest.mark.parametrize("name", _ids("b-fbn-"))
def test_bsweep60_fused_batch_norm(backend: Any, name: str) -> None:
    """FusedBatchNormV3 and tf.compat.v1.nn.fused_batch_norm over every option, dtype, layout, size class and value
    class, and their gradients: all six outputs (and dx, dscale, doffset), TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.nn-more")
@pytest.mark.parametrize("name", _ids("b-nn-"))
def test_bsweep60_moments_and_normalize(backend: Any, name: str) -> None:
    """tf.nn.moments, sufficient_statistics + normalize_moments, weighted_moments, batch_normalization and
    l2_normalize over their options in float16, bfloat16, float32 and float64: values, dtypes and gradients, eager and
    traced, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.batchnorm")
@pytest.mark.parametrize("name", _ids("b-keras-fit"))
def test_bsweep60_batchnorm_in_fit(backend: Any, name: str) -> None:
    """keras BatchNormalization in Model.fit for three epochs of two steps (momentum, epsilon, center/scale off, axis
    1, mixed_float16): loss, weights and moving statistics after each, then predict and calls, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.layernorm")
@pytest.mark.parametrize("name", _ids("b-keras-layers"))
def test_bsweep60_normalization_layers_options(backend: Any, name: str) -> None:
    """LayerNormalization (axis lists, rms_scaling, center/scale off, float16, mixed_float16), GroupNormalization
    (groups 1, C, -1, between, axis 1), UnitNormalization (axis lists, tiny rows) and BatchNormalization (frozen, mask,
    axis 1, renorm clipping, renorm without scale, mixed_float16, center/scale off) in a training call: outputs,
    gradients, state, config and static shape, TF 2.21's bits."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
