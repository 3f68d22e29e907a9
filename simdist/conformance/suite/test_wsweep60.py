"""The tf.data IO byte-format and options sweep (sixtieth session, wsweep60; wsweep60_cases.py): TFRecord files from
both writers under every compression (zlib's deflate parameters, flushes), records of 0, 1, 255, 256 and 65536 bytes,
files cut and damaged at each part of a record; serialize_tensor/parse_tensor over every dtype and value class,
decode_raw (endianness, fixed_length), base64 (pad), tf.train.Example bytes and parse_example/parse_single_example
with each feature kind; padded_batch's padding values of each dtype, cache to a file, Dataset.save/load and
tf.data.Options' nested groups merged — compared byte for byte and bit for bit with TF 2.21's recorded results
(`python -m simdist.conformance.suite.test_wsweep60 --record` rewrites wsweep60_reference.json.gz). Host-independent.
OPEN (wsweep60_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.wsweep60_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("dataset.readers")
@pytest.mark.parametrize("name", _ids("w-tfrecord-") + _ids("w-readers-") + _ids("w-io-"))
def test_wsweep60_tfrecord_bytes(backend: Any, name: str) -> None:
    """TFRecord files written by tf.io.TFRecordWriter and tf.data.experimental.TFRecordWriter ('', GZIP, ZLIB; levels,
    mem_level, strategies; flushes) byte for byte, read back by TFRecordDataset (lists, tensors, datasets of names,
    buffer_size, num_parallel_reads), and the error classes of cut, damaged and mis-compressed files."""
    _check(backend, name)


@pytest.mark.clause("io.tensor-codec")
@pytest.mark.parametrize("name", _ids("w-serialize-") + _ids("w-decode-") + _ids("w-base64"))
def test_wsweep60_tensor_bytes(backend: Any, name: str) -> None:
    """serialize_tensor/parse_tensor of every dtype, rank and value class; decode_raw (every out_type, big-endian,
    fixed_length); encode_base64/decode_base64 (pad, web-safe alphabet, bad input): bytes and values, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("io.parse-example")
@pytest.mark.parametrize("name", _ids("w-example-") + _ids("w-parse-"))
def test_wsweep60_example_bytes_and_parsing(backend: Any, name: str) -> None:
    """tf.train.Example/Feature serialization bytes over value ranges; parse_example and parse_single_example with
    FixedLenFeature (default or not), VarLenFeature, RaggedFeature, FixedLenSequenceFeature (allow_missing)."""
    _check(backend, name)


@pytest.mark.clause("dataset.batching")
@pytest.mark.parametrize("name", _ids("w-data-padded") + _ids("w-data-batch"))
def test_wsweep60_padded_batch_values(backend: Any, name: str) -> None:
    """padded_batch's padding values of each dtype (a tensor, a Python scalar, another dtype's TypeError), padded
    shapes None, -1 and given: elements, specs, cardinality."""
    _check(backend, name)


@pytest.mark.clause("dataset.save-load")
@pytest.mark.parametrize("name", _ids("w-data-cache") + _ids("w-data-save"))
def test_wsweep60_cache_file_and_save_load(backend: Any, name: str) -> None:
    """cache to a file over epochs and partial passes, cache in memory after a shuffle; Dataset.save/load
    (compression, shard_func, element_spec omitted): elements, specs, cardinality."""
    _check(backend, name)


@pytest.mark.clause("dataset.api-surface")
@pytest.mark.parametrize("name", _ids("w-data-options"))
def test_wsweep60_options_nested_groups(backend: Any, name: str) -> None:
    """tf.data.Options' nested groups set through attribute access, merged by with_options twice, by merge(), over
    zip/concatenate/interleave: the fields' values and the cardinality."""
    _check(backend, name)


assert len(set(_ids("w-"))) == len(REF.programs) == 16   # every program in one test above

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
