"""survey21 (issue 29, session 21): options of tf.data.Dataset methods and tf.data.experimental that the option survey
(benchmarks/suite_options.py, stricter rule: set AND output-changing) found uncovered, set to values that
change the output. Each test runs its cases of survey21_cases on the backend and compares them with TF
2.21's recorded outputs (survey21_reference); under `--profile ci` the first case only."""

from __future__ import annotations

import pytest

from simdist.conformance.suite import survey21_check

clause = pytest.mark.clause


@clause("dataset.batching", ref="tf221")
def test_survey21_data_range_and_batching(tf, budget):
    """range(start, stop, negative step, output_type), batch(drop_remainder=True), padded_batch with padded_shapes, padding_values and drop_remainder, unbatch and unique: TF's elements."""
    survey21_check.check_cases(tf, "data", ['data_range_step_dtype', 'data_batch_drop_remainder', 'data_padded_batch_values', 'data_unbatch_unique_padded_drop'], budget)


@clause("dataset.window", ref="tf221")
def test_survey21_data_window_shift_stride(tf, budget):
    """window(size, shift, stride, drop_remainder) with a shift and a stride that skip elements."""
    survey21_check.check_cases(tf, "data", ['data_window_shift_stride'], budget)


@clause("dataset.shuffle", ref="tf221")
def test_survey21_data_shuffle_reshuffle_each_iteration(tf, budget):
    """shuffle(reshuffle_each_iteration=False): every epoch (new iterator or repeat) repeats the first epoch's order; the default reshuffles."""
    survey21_check.check_cases(tf, "data", ['data_shuffle_no_reshuffle'], budget)


@clause("dataset.interleave", ref="tf221")
def test_survey21_data_interleave_block_length(tf, budget):
    """interleave(cycle_length=2, block_length=3) over inputs of 5 elements: TF's order."""
    survey21_check.check_cases(tf, "data", ['data_interleave_block_length'], budget)


@clause("dataset.api-surface", ref="tf221")
def test_survey21_data_enumerate_shard_repeat_counter(tf, budget):
    """enumerate(start), shard(n, index != 0), repeat(count), skip/take past the end, Dataset.counter and experimental.Counter with start, step (negative) and dtype."""
    survey21_check.check_cases(tf, "data", ['data_enumerate_start_shard_index', 'data_repeat_count_skip_take', 'data_counter_and_random'], budget)


@clause("dataset.rebatch", ref="tf221")
def test_survey21_data_rebatch_drop_remainder(tf, budget):
    """rebatch(3) and rebatch(3, drop_remainder=True) of batches of 4."""
    survey21_check.check_cases(tf, "data", ['data_rebatch_drop_remainder'], budget)


@clause("dataset.group-by-window", ref="tf221")
def test_survey21_data_bucket_and_group_options(tf, budget):
    """bucket_by_sequence_length with pad_to_bucket_boundary and padding_values; group_by_window with a window_size_func per key."""
    survey21_check.check_cases(tf, "data", ['data_bucket_by_sequence_length', 'data_group_by_window_size_func'], budget)


@clause("dataset.sample-choose", ref="tf221")
def test_survey21_data_stop_on_empty_dataset(tf, budget):
    """sample_from_datasets(stop_on_empty_dataset=True) stops at the first exhausted input; choose_from_datasets(stop_on_empty_dataset=False) skips it."""
    survey21_check.check_cases(tf, "data", ['data_sample_and_choose_stop_on_empty'], budget)


@clause("dataset.readers", ref="tf221")
def test_survey21_data_reader_options(tf, budget):
    """FixedLengthRecordDataset's header_bytes and footer_bytes over two files, TextLineDataset(compression_type='GZIP') with a CRLF line and no final newline, TFRecordWriter/TFRecordDataset with ZLIB options."""
    survey21_check.check_cases(tf, "data", ['data_fixed_length_record_header_footer', 'data_text_line_gzip', 'data_tfrecord_zlib'], budget)


@clause("dataset.csv", ref="tf221")
def test_survey21_data_csv_options(tf, budget):
    """CsvDataset(header=True) over two files with field_delim, a quoted delimiter, na_value, select_cols and exclude_cols; make_csv_dataset with label_name, select_columns and column_defaults filling an empty field."""
    survey21_check.check_cases(tf, "data", ['data_csv_dataset_options', 'data_make_csv_dataset_options'], budget)
