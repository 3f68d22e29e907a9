"""survey21 (issue 29, session 21): options of tf.io decoding and parsing that the option survey
(benchmarks/suite_options.py, stricter rule: set AND output-changing) found uncovered, set to values that
change the output. Each test runs its cases of survey21_cases on the backend and compares them with TF
2.21's recorded outputs (survey21_reference); under `--profile ci` the first case only."""

from __future__ import annotations

import pytest

from simdist.conformance.suite import survey21_check

clause = pytest.mark.clause


@clause("io.tensor-codec", ref="tf221")
def test_survey21_io_decoding_options(tf, budget):
    """decode_csv's field_delim, na_value, use_quote_delim=False and select_cols; decode_raw's little_endian=False and fixed_length (padding and truncating); encode_base64(pad=True); decode_compressed's ZLIB and GZIP."""
    survey21_check.check_cases(tf, "io", ['io_decode_csv_options', 'io_decode_raw_options', 'io_base64_and_compressed'], budget)


@clause("io.parse-example", ref="tf221")
def test_survey21_io_feature_fields(tf, budget):
    """FixedLenFeature with a falsy default, FixedLenSequenceFeature(allow_missing=True, default_value=-3) padding, RaggedFeature(row_splits_dtype=int32) and value_key, SparseFeature(already_sorted=False) with unsorted indices, parse_single_sequence_example's context and sequence features."""
    survey21_check.check_cases(tf, "io", ['io_parse_example_features', 'io_parse_sparse_feature', 'io_parse_sequence_example'], budget)
