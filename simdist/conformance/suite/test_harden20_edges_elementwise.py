"""harden20 (issue 29): elementwise rules at the edges their own source states.

For every activation function, activation layer, tf.nn activation and keras.ops elementwise numeric of
harden20_cases (``elementwise`` and ``axis`` kinds), the constants of TF 2.21 + Keras 3.15's own source
(harden20_edges: signature defaults, literals, the case's own options, the kernel constants TF's C++
states) give the inputs: each threshold exactly, one float32 ulp either side, and its negative; the
magnitudes where an epsilon is 10-100% of the result; halves where a rounding function is named. The
output and d sum(w * out) / dx per group must be TF's (harden20_reference: recorded on TF 2.21, within
harden19's tolerance; a branch taken at the wrong side of a threshold moves a value by the input's size).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden20_compare as compare

clause = pytest.mark.clause


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_harden20_edges_elementwise_thresholds_and_epsilons(tf, budget):
    """Every elementwise target at each of its source's thresholds (and one ulp either side) and epsilon
    magnitudes: values and gradients as TF's."""
    n, found = compare.problems(tf, "elementwise", budget)
    assert_true(not found, compare.message(n, found, "elementwise targets"), call="elementwise edges")


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_harden20_edges_default_axes_on_a_rank3_input(tf, budget):
    """Softmax-like and norm-like rules at their default axis on a (2, 3, 4) input, at scale 1 and at
    1e-7 (where a norm's epsilon decides): output shape, values and gradients as TF's."""
    n, found = compare.problems(tf, "axis", budget)
    assert_true(not found, compare.message(n, found, "axis targets"), call="default axes")


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_harden20_edges_dot_axes_per_input(tf, budget):
    """Dot(axes=(a, b), normalize) over every valid axis pair (negative too) of inputs of ranks 3 and 3,
    3 and 2, 2 and 3, one sample at norm ~1e-6 (l2_normalize's epsilon): shape, values, gradients."""
    n, found = compare.problems(tf, "dot", budget)
    assert_true(not found, compare.message(n, found, "Dot settings"), call="Dot axes per input")


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_harden20_edges_weights_moved_off_their_initial_constant(tf, budget):
    """Layers whose weights start at ones or zeros (Attention's scale and concat_score_weight, the
    normalizations' gamma and beta, PReLU's alpha), built with the options that make them and every weight
    set to seeded values off its constant: output and the gradients w.r.t. inputs and weights as TF's (at
    the initial 1 a scale applied in the wrong place gives the same value)."""
    n, found = compare.problems(tf, "trained", budget)
    assert_true(not found, compare.message(n, found, "trained layers"), call="weights off their initial value")
