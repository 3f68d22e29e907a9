"""survey21 (issue 29, session 21): options of tf.random that the option survey
(benchmarks/suite_options.py, stricter rule: set AND output-changing) found uncovered, set to values that
change the output. Each test runs its cases of survey21_cases on the backend and compares them with TF
2.21's recorded outputs (survey21_reference); under `--profile ci` the first case only."""

from __future__ import annotations

import pytest

from simdist.conformance.suite import survey21_check

clause = pytest.mark.clause


@clause("ops.random-gamma-poisson", ref="tf221")
def test_survey21_random_stateful_options(tf, budget):
    """uniform's minval/maxval with an int dtype and float64, normal/truncated_normal's mean and stddev, categorical's dtype, poisson's dtype, gamma's beta, shuffle, all seeded after set_seed: TF's draws."""
    survey21_check.check_cases(tf, "random", ['random_stateful_options'], budget)


@clause("ops.stateless-random", ref="tf221")
def test_survey21_random_stateless_options(tf, budget):
    """the stateless draws' minval, maxval, mean, stddev, dtype and output_dtype, and stateless_parameterized_truncated_normal's bounds: TF's draws."""
    survey21_check.check_cases(tf, "random", ['random_stateless_options'], budget)
