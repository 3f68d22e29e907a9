"""harden19b (issue 29): keras.utils' data tools over option grids, by enumeration.

split_dataset (left/right sizes as ints, fractions and None, sizes TF refuses, shuffle with a
seed; arrays, tuples, lists, dicts and tf.data of tuples and dicts), timeseries_dataset_from_array
(sequence_length, sequence_stride, sampling_rate, targets, start/end_index, batch_size, shuffle
False), pad_sequences (maxlen x padding x truncating x value/dtype over ragged int and float
input), to_categorical, normalize, and the other keras.utils functions simdist ships
(pack/unpack_x_y_sample_weight, standardize_dtype, get_registered_name, serialize/deserialize,
is_keras_tensor, get_source_inputs): every output (elements, dtypes, cardinalities) or error class
is TF 2.21's, recorded by ``python -m simdist.conformance.suite.harden19b_record``
(harden19b_reference.json.gz).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden19b_reference as reference
from simdist.conformance.suite import harden19b_utils as utils
from simdist.conformance.suite.harden16_observe import differences

clause = pytest.mark.clause


def _check(area, got, call, want=None):
    want = reference.load()[area] if want is None else want
    problems = differences(got, want, rtol=0.0, atol=0.0)
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 (got, but should be):\n  "
                + "\n  ".join(problems[:20]), call=call)


@clause("keras.utils.data-tools", ref="tf221")
def test_harden19_utils_recording_is_current():
    """The recording was made from this checkout's case tables and programs (else re-record)."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"harden19b reference data is stale (recorded from tables {meta['tables'][:12]}, these are "
                f"{reference.tables_hash()[:12]}): re-run `{reference.RECORD_COMMAND}`")


@clause("keras.utils.data-tools", ref="tf221")
def test_harden19_utils_split_dataset_grid(tf, budget):
    """split_dataset of every kind of data and size pair: both parts element by element (or the
    error's class), as TF."""
    want = reference.load()["split"]
    names = budget(sorted(utils.SPLIT_CASES))
    got = {n: utils.observe_split(tf, n) for n in names}
    _check("split", got, "tf.keras.utils.split_dataset grid", {n: want[n] for n in names})


@clause("keras.utils.data-tools", ref="tf221")
def test_harden19_utils_timeseries_dataset_grid(tf, budget):
    """timeseries_dataset_from_array over its options: every batch of windows and targets as TF."""
    want = reference.load()["timeseries"]
    names = budget(sorted(utils.TIMESERIES_CASES))
    got = {n: utils.observe_timeseries(tf, n) for n in names}
    _check("timeseries", got, "tf.keras.utils.timeseries_dataset_from_array grid", {n: want[n] for n in names})


@clause("keras.utils.data-tools", ref="tf221")
def test_harden19_utils_pad_sequences_grid(tf):
    """pad_sequences over maxlen x padding x truncating x value/dtype: dtype and values as TF."""
    _check("pad", utils.observe_pad(tf), "tf.keras.utils.pad_sequences grid")


@clause("keras.utils.to-categorical", ref="tf221")
def test_harden19_utils_to_categorical_and_normalize(tf):
    """to_categorical (flat, column, matrix labels, num_classes) and normalize (axes, orders, a
    zero row): dtype, shape and values as TF."""
    _check("categorical", utils.observe_categorical(tf), "tf.keras.utils.to_categorical")
    _check("normalize", utils.observe_normalize(tf), "tf.keras.utils.normalize")


@clause("keras.utils.data-tools", ref="tf221")
def test_harden19_utils_other_functions(tf):
    """pack/unpack_x_y_sample_weight, standardize_dtype, get_registered_name, serialize and
    deserialize of a loss, is_keras_tensor and get_source_inputs as TF."""
    _check("misc", utils.observe_misc(tf), "tf.keras.utils (other functions)")
