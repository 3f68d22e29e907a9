"""survey21 (issue 29, session 21): options of tf.raw_ops that the option survey
(benchmarks/suite_options.py, stricter rule: set AND output-changing) found uncovered, set to values that
change the output. Each test runs its cases of survey21_cases on the backend and compares them with TF
2.21's recorded outputs (survey21_reference); under `--profile ci` the first case only."""

from __future__ import annotations

import pytest

from simdist.conformance.suite import survey21_check

clause = pytest.mark.clause


@clause("ops.raw-ops", ref="tf221")
def test_survey21_raw_ops_python_values_beside_tensors(tf, budget):
    """a Python value beside a tensor of another dtype than the value's own (float16, int64, int8, float64), in scalar, list and list-input positions: converted to the tensor's dtype."""
    survey21_check.check_cases(tf, "raw_ops", ['raw_python_values_beside_tensors'], budget)
