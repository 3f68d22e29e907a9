"""harden20 (issue 29): normalizations, constraints and regularizers at their epsilons' magnitudes.

Each target of harden20_cases' ``normalize`` kind runs on rows (BatchNormalization and Normalization:
columns) of one fixed direction scaled to sqrt(eps) * {0.3, 1, 3} and eps * {0.3, 1, 3} for every
epsilon its TF 2.21 / Keras 3.15 source states (its default, keras.config.epsilon() where it calls it),
where that epsilon is 10-100% of the variance or norm it guards, and one row at 1; constraints also get
columns whose norm is exactly each threshold of theirs and one ulp either side. Output, gradient and a
stateful layer's weights after three training calls must be TF's (harden20_reference).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden20_compare as compare

clause = pytest.mark.clause


@clause("keras.layer.option-coverage", ref="tf221")
def test_harden20_edges_normalizations_at_their_epsilons(tf, budget):
    """Normalization layers, tf.nn / keras.ops normalizations, constraints and regularizers where each
    epsilon of theirs shows: values, gradients and state as TF's."""
    n, found = compare.problems(tf, "normalize", budget)
    assert_true(not found, compare.message(n, found, "normalize targets"), call="epsilon magnitudes")
