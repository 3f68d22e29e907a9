"""harden16 (issue 29): static output shapes of the conv, pool, upsampling, cropping, padding and
reshape layers, by enumeration.

For ranks 1-3 and both data formats: Conv, ConvTranspose, SeparableConv and DepthwiseConv (rank <
3) over padding valid/same (and causal), strides 1-3 and dilation 1-2; Max/AveragePooling over
padding, pool sizes and strides (None included); global pooling with and without keepdims;
UpSampling, Cropping and ZeroPadding with per-side amounts; Reshape (with -1), Flatten, Permute,
RepeatVector. Each layer's ``compute_output_shape((None,) + shape)`` and the shape of its output on
``keras.Input(shape)`` (or the class of the error raised) are TF 2.21's
(harden16_reference.json.gz).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden16_observe as observe
from simdist.conformance.suite import harden16_reference as reference

clause = pytest.mark.clause

FAMILIES = {
    "conv": ("Conv1D", "Conv2D", "Conv3D"),
    "conv_transpose": ("Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose"),
    "separable_depthwise": ("SeparableConv", "DepthwiseConv"),
    "pooling": ("MaxPooling", "AveragePooling", "GlobalMaxPooling", "GlobalAveragePooling"),
    "resizing": ("UpSampling", "Cropping", "ZeroPadding", "Reshape", "Flatten", "Permute", "RepeatVector"),
}


def _family(name):
    cls = observe.SHAPE_CASES[name][0]
    for fam, prefixes in FAMILIES.items():
        if fam == "conv" and "Transpose" in cls:
            continue
        if cls.startswith(prefixes):
            return fam
    raise KeyError(cls)


@clause("keras.layer.conv-family.symbolic", ref="tf221")
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_harden16_static_output_shapes(keras, family, budget):
    """compute_output_shape and the symbolic output shape of every case of one family are TF's."""
    recorded = reference.load()["shapes"]
    names = [n for n in sorted(observe.SHAPE_CASES) if _family(n) == family]
    assert_true(len(names) > 0, f"no shape cases of family {family}", call="harden16 SHAPE_CASES")
    problems = []
    for name in budget(names):
        cls, kw, shape = observe.SHAPE_CASES[name]
        got = observe.observe_shape(keras, name)
        for d in observe.differences(got, recorded[name]):
            problems.append(f"{cls}(**{kw}) on Input({tuple(shape)}): {d}")
    assert_true(not problems, f"{len(problems)} shapes differ from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:25]), call=f"static output shapes of the {family} layers")
