"""tf.data.TFRecordDataset / TextLineDataset / Dataset.list_files and tf.io.TFRecordWriter — clause
dataset.readers (TF 2.21). Values and errors observed with TF 2.21 on the same files; that files
cross between TF and simdist byte for byte is tests/runtime/test_data_readers_tf.py."""

from __future__ import annotations

import os
import tempfile

import pytest

from simdist.conformance.assertions import assert_same, raises

clause = pytest.mark.clause

RECORDS = [b"", b"a", b"hello world", bytes(range(256)) * 3]


@clause("dataset.readers", ref="tf221")
def test_tfrecords_round_trip_with_each_compression(tf):
    with tempfile.TemporaryDirectory() as d:
        for comp in ("", "GZIP", "ZLIB"):
            path = os.path.join(d, f"r_{comp or 'none'}.tfr")
            with tf.io.TFRecordWriter(path, options=comp) as w:
                for r in RECORDS:
                    w.write(r)
            ds = tf.data.TFRecordDataset(path, compression_type=comp)
            assert_same([x.numpy() for x in ds], RECORDS, call=f"TFRecordDataset(compression_type={comp!r})")
            assert_same((ds.element_spec.dtype.name, ds.element_spec.shape.as_list(), int(ds.cardinality())),
                         ("string", [], -2), call="TFRecordDataset: string scalars, UNKNOWN cardinality")
        path = os.path.join(d, "r_none.tfr")
        assert_same(os.path.getsize(path), sum(16 + len(r) for r in RECORDS),
                     call="a record's framing is 16 bytes (length, its CRC, the data's CRC)")
        ds = tf.data.TFRecordDataset([path, path])
        assert_same(len([x for x in ds]), 2 * len(RECORDS), call="TFRecordDataset of two files: read in order")
        data = open(path, "rb").read()
        bad = os.path.join(d, "bad.tfr")
        open(bad, "wb").write(data[:14] + bytes([data[14] ^ 1]) + data[15:])
        with raises(tf.errors.DataLossError, call="TFRecordDataset of a corrupted record", match="corrupted record at 12"):
            list(tf.data.TFRecordDataset(bad))
        open(bad, "wb").write(data[:-70])
        with raises(tf.errors.DataLossError, call="TFRecordDataset of a file cut in a record's data",
                    match="truncated record at 60"):
            list(tf.data.TFRecordDataset(bad))
        open(bad, "wb").write(data[:5])
        assert_same(len(list(tf.data.TFRecordDataset(bad))), 0, call="a file cut in its first header: no records")


@clause("dataset.readers", ref="tf221")
def test_text_lines_and_list_files(tf):
    with tempfile.TemporaryDirectory() as d:
        for name, body in (("b.txt", b"line1\nline2\r\n\nlast"), ("a.txt", b"x\n")):
            with open(os.path.join(d, name), "wb") as f:
                f.write(body)
        files = tf.data.Dataset.list_files(os.path.join(d, "*.txt"), shuffle=False)
        names = [os.path.basename(x.numpy().decode()) for x in files]
        assert_same(names, ["a.txt", "b.txt"], call="list_files(*.txt, shuffle=False): sorted")
        ds = tf.data.TextLineDataset(files)
        assert_same([x.numpy() for x in ds], [b"x", b"line1", b"line2", b"", b"last"],
                     call="TextLineDataset over list_files: lines without \\n or \\r\\n, the last kept")
        with raises(tf.errors.InvalidArgumentError, call="list_files of a pattern matching nothing",
                    match="No files matched pattern"):
            tf.data.Dataset.list_files(os.path.join(d, "*.nothing"), shuffle=False)


@clause("dataset.readers", ref="tf221")
def test_fixed_length_records(tf):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "a.bin")
        open(path, "wb").write(bytes(range(23)))
        ds = tf.data.FixedLengthRecordDataset(path, 5, header_bytes=2, footer_bytes=1)
        assert_same([x.numpy() for x in ds], [bytes(range(i, i + 5)) for i in (2, 7, 12, 17)],
                     call="FixedLengthRecordDataset(record_bytes=5, header_bytes=2, footer_bytes=1)")
        ds = tf.data.FixedLengthRecordDataset(path, 4, header_bytes=3)
        assert_same([x.numpy() for x in ds], [bytes(range(i, i + 4)) for i in (3, 7, 11, 15, 19)],
                     call="FixedLengthRecordDataset(record_bytes=4, header_bytes=3)")
        with raises(tf.errors.InvalidArgumentError, call="FixedLengthRecordDataset(record_bytes=5) of 23 bytes",
                    match="has body length 23 bytes, which is not an exact multiple of the record length"):
            list(tf.data.FixedLengthRecordDataset(path, 5))
        with raises(tf.errors.InvalidArgumentError, call="FixedLengthRecordDataset(record_bytes=0)",
                    match="`record_bytes` must be > 0"):
            list(tf.data.FixedLengthRecordDataset(path, 0))


@clause("dataset.readers", ref="tf221")
def test_num_parallel_reads_interleaves_the_files(tf):
    with tempfile.TemporaryDirectory() as d:
        files = []
        for i in range(3):
            files.append(os.path.join(d, f"f{i}.tfr"))
            with tf.io.TFRecordWriter(files[-1]) as w:
                for j in range(i + 2):
                    w.write(f"{i}-{j}".encode())
        seq = ["0-0", "0-1", "1-0", "1-1", "1-2", "2-0", "2-1", "2-2", "2-3"]
        for reads, want in ((None, seq), (1, seq), (2, ["0-0", "1-0", "0-1", "1-1", "1-2", "2-0", "2-1", "2-2", "2-3"]),
                            (3, ["0-0", "1-0", "2-0", "0-1", "1-1", "2-1", "1-2", "2-2", "2-3"]),
                            (tf.data.AUTOTUNE, seq)):
            got = [x.numpy().decode() for x in tf.data.TFRecordDataset(files, num_parallel_reads=reads)]
            assert_same(got, want, call=f"TFRecordDataset(3 files, num_parallel_reads={reads})")
