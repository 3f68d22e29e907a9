"""survey21 (issue 29, session 21): options of tf.* and keras initializers that the option survey
(benchmarks/suite_options.py, stricter rule: set AND output-changing) found uncovered, set to values that
change the output. Each test runs its cases of survey21_cases on the backend and compares them with TF
2.21's recorded outputs (survey21_reference); under `--profile ci` the first case only."""

from __future__ import annotations

import pytest

from simdist.conformance.suite import survey21_check

clause = pytest.mark.clause


@clause("ops.initializers", ref="tf221")
def test_survey21_initializers_tf_initializers_defaults_and_dtypes(tf, budget):
    """tf.random_normal_initializer and random_uniform_initializer at their defaults and with their options, constant/ones/zeros_initializer's dtype argument."""
    survey21_check.check_cases(tf, "initializers", ['init_tf_defaults'], budget)


@clause("keras.init.distributions", ref="tf221")
def test_survey21_initializers_keras_initializer_options(tf, budget):
    """VarianceScaling's scale, mode and distribution, Orthogonal's and Identity's gain, TruncatedNormal/RandomUniform/RandomNormal's ranges, Constant's value, the seeded Glorot/He/Lecun draws and Zeros/Ones dtypes."""
    survey21_check.check_cases(tf, "initializers", ['init_keras_options'], budget)
