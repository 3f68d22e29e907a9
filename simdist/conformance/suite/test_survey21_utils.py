"""survey21 (issue 29, session 21): options of keras.utils that the option survey
(benchmarks/suite_options.py, stricter rule: set AND output-changing) found uncovered, set to values that
change the output. Each test runs its cases of survey21_cases on the backend and compares them with TF
2.21's recorded outputs (survey21_reference); under `--profile ci` the first case only."""

from __future__ import annotations

import pytest

from simdist.conformance.suite import survey21_check

clause = pytest.mark.clause


@clause("keras.utils.data-tools", ref="tf221")
def test_survey21_utils_sequence_and_dataset_tools(tf, budget):
    """pad_sequences' maxlen, dtype, padding, truncating and value; to_categorical's num_classes; normalize's axis and order; timeseries_dataset_from_array's sequence_stride, sampling_rate, start_index and end_index; split_dataset's left_size and right_size."""
    survey21_check.check_cases(tf, "utils", ['utils_sequences_and_categorical', 'utils_timeseries_options', 'utils_split_dataset_options'], budget)
