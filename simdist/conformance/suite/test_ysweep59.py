"""The Keras core, convolution, pooling, reshaping and merging layer sweep (fifty-ninth session, ysweep59;
ysweep59_cases.py): Dense/EinsumDense/Embedding, Conv1D/2D/3D and their transposes, SeparableConv1D/2D and
DepthwiseConv1D/2D, every pooling layer, Reshape/Flatten/Permute/RepeatVector/Cropping*/ZeroPadding*/UpSampling*,
the merging layers, the dropout and noise layers with seeds, ActivityRegularization, Lambda, Identity and
TimeDistributed — each with its defaults and each constructor option off its default, in float32, float64,
mixed_float16 and mixed_bfloat16, in fit-like use (a training=True call under a GradientTape) eagerly and inside a
tf.function: outputs and the gradients of a non-uniform upstream w.r.t. every input and trainable weight, compared
bit for bit with TF 2.21's recorded results (`python -m simdist.conformance.suite.test_ysweep59 --record` rewrites
ysweep59_reference.json.gz). Recorded on this session's AVX-512 Xeon with oneDNN on: simdist runs the programs under
its reference model on any CPU. OPEN (ysweep59_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.ysweep59_cases import DTYPES, FAMILIES, REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("name", _ids("y-core-") + _ids("y-opt-"))
def test_ysweep59_dense_einsum_dense_embedding(backend: Any, name: str) -> None:
    """Dense (use_bias, activations, regularizers' penalties as outputs, constraints, lora_rank/lora_alpha, a 3-D
    input, seeded initializers as built), EinsumDense (bias_axes, 3-D equations, lora) and Embedding (mask_zero's
    mask, a constraint, lora): outputs and gradients, TF 2.21's bits; one SGD step through weight constraints."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.conv-family.arguments")
@pytest.mark.parametrize("name", _ids("y-conv-"))
def test_ysweep59_convolutions_every_option(backend: Any, name: str) -> None:
    """Conv1D/2D/3D (valid/same/causal, strides, dilation, groups, channels_first), their transposes (output_padding,
    strides, dilation), SeparableConv1D/2D and DepthwiseConv1D/2D (depth_multiplier, strides, dilation, padding):
    outputs and gradients, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.pooling.window")
@pytest.mark.parametrize("name", _ids("y-pool-"))
def test_ysweep59_pooling_every_option(backend: Any, name: str) -> None:
    """Max/AveragePooling 1D/2D/3D (pool_size, strides, same padding's partial windows, channels_first) and the
    global poolings (keepdims, channels_first, a mask): outputs and gradients, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.upsampling-padding")
@pytest.mark.parametrize("name", _ids("y-reshape-"))
def test_ysweep59_reshaping_layers(backend: Any, name: str) -> None:
    """Reshape, Flatten (channels_first), Permute, RepeatVector, Cropping1D/2D/3D, ZeroPadding1D/2D/3D, UpSampling1D/
    2D (nearest, bilinear, bicubic, area)/3D: outputs and gradients, TF 2.21's bits (a refusal is a result too)."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("name", _ids("y-merge-"))
def test_ysweep59_merging_layers_over_value_classes(backend: Any, name: str) -> None:
    """Add, Subtract, Multiply, Average, Maximum, Minimum (two and three inputs; -0.0, inf, NaN, subnormals, ties),
    Concatenate (axes, masks) and Dot (axes, pairs, normalize, a zero row): outputs and gradients, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.noise")
@pytest.mark.parametrize("name", _ids("y-misc-"))
def test_ysweep59_dropout_noise_and_wrappers(backend: Any, name: str) -> None:
    """Dropout (noise_shape, rate 0), SpatialDropout1D/2D/3D, GaussianNoise, GaussianDropout and AlphaDropout with
    seeds in training, ActivityRegularization's penalty, Lambda, Identity, TimeDistributed: outputs and gradients,
    TF 2.21's bits."""
    _check(backend, name)


assert len(REF.programs) == len(FAMILIES) * len(DTYPES) + 1

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
