"""harden19a (issue 29): every value-computing layer at its DEFAULTS — outputs and gradients as TF 2.21's.

Each layer of harden19_layers.LAYER_CASES (every layer class of tf.keras that computes values; the
structural ones and StringLookup are listed in harden19_layers.STRUCTURAL) is built with only its
required arguments after ``keras.utils.set_random_seed(1919)``: its default initial weights must be
TF's bit for bit (stateless seeded draws; the Orthogonal recurrent kernels within 1e-5). Then its
weights are set from a seeded NumPy generator, and it is called on seeded inputs at
two scales — typical (~1) and tiny (~1e-3, where an epsilon 1e-6 vs 1e-7 or a threshold shows;
index layers on indices) — with training=False and, where it differs deterministically
(BatchNormalization, SpectralNormalization), training=True: the weights' names and shapes, the
outputs (dtype and values), the gradient of sum(output * fixed random weights) w.r.t. the float
inputs and the trainable weights, and the weights after the calls (moving statistics) must be TF
2.21 + Keras 3.15's (harden19_reference.json.gz), element-wise within 1e-5 relative plus 1e-6 of
the array's largest value — for gradients, of the call's largest gradient (harden19_reference: a
few ulps of float32 reordering pass, a default that moves does not).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden19_layers as layers
from simdist.conformance.suite import harden19_reference as reference

clause = pytest.mark.clause

#: family -> class-name prefixes (a layer goes to the first family whose prefix it has).
FAMILIES = {
    "normalization": ("BatchNormalization", "LayerNormalization", "GroupNormalization", "RMSNormalization",
                      "UnitNormalization", "SpectralNormalization", "Normalization"),
    "recurrent": ("SimpleRNN", "GRU", "LSTM", "RNN", "Bidirectional", "TimeDistributed", "ConvLSTM"),
    "convolution": ("Conv", "SeparableConv", "DepthwiseConv"),
    "pooling": ("MaxPooling", "AveragePooling", "GlobalMaxPooling", "GlobalAveragePooling", "Adaptive"),
    "attention_merging": ("Attention", "AdditiveAttention", "MultiHeadAttention", "GroupQueryAttention", "Add",
                          "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate", "Dot"),
    "preprocessing": ("Random", "Resizing", "CenterCrop", "Solarization", "AutoContrast", "MixUp", "CutMix",
                      "CategoryEncoding", "Hashing", "HashedCrossing", "Discretization", "IntegerLookup", "Rescaling"),
    "core_activation_regularization": ("",),
}


def family_of(name: str) -> str:
    for fam, prefixes in FAMILIES.items():
        if name.startswith(prefixes):
            return fam
    raise KeyError(name)


@clause("keras.layer.forward-and-gradients", ref="tf221")
@clause("keras.init.layer-defaults", ref="tf221")
@pytest.mark.parametrize("family", list(FAMILIES))
def test_harden19_defaults_layer_values_and_gradients(tf, family, budget):
    """Every layer of one family at its defaults, on inputs ~1 and ~1e-3: outputs and gradients as TF's."""
    recorded = reference.load()["layers"]
    names = [n for n in sorted(layers.LAYER_CASES) if family_of(n) == family]
    assert_true(len(names) > 0, f"no layer cases of family {family}", call="harden19_layers.LAYER_CASES")
    problems = []
    for name in budget(names):
        case = layers.LAYER_CASES[name]
        call = f"tf.keras.layers.{case['cls']}(**{case['kwargs']})"
        try:
            got = layers.observe_layer(tf, name)
        except Exception as e:  # noqa: BLE001 - reported with the call, as a failure
            problems.append(f"{call}: raised {type(e).__name__}: {str(e)[:200]}")
            continue
        problems += [f"{call}: {d}" for d in reference.layer_differences(got, recorded[name])[:4]]
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:25]), call=f"the {family} layers at their defaults")


@clause("ops.nn-3d", ref="tf221")
def test_harden19_max_pool3d_gradient_reaches_every_element_near_the_maximum(tf):
    """MaxPooling3D and AdaptiveMaxPooling3D (MaxPool3D windows) at inputs ~1e-3: TF's MaxPool3DGrad
    gives a window's gradient to every element within 1e-5 of its maximum, so near-ties both get it."""
    recorded = reference.load()["layers"]
    problems = [f"tf.keras.layers.{name}(): {d}" for name in ("MaxPooling3D", "AdaptiveMaxPooling3D")
                for d in reference.layer_differences(layers.observe_layer(tf, name), recorded[name])[:4]]
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems), call="MaxPool3D's gradient on near-tied inputs ~1e-3")
