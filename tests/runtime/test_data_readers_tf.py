"""TFRecord files cross between TF 2.21 and simdist (clause dataset.readers): a file written by TF's
tf.io.TFRecordWriter reads back in simdist's TFRecordDataset and the other way round, for every
compression_type, and uncompressed files are equal byte for byte. Needs the `tf` extra."""

from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.tf

real_tf = pytest.importorskip("tensorflow")

from simdist import tf as sim_tf  # noqa: E402

RECORDS = [b"", b"a", b"hello world", bytes(range(256)) * 3, b"\n\r\x00" * 100]


def _write(tf, path: str, comp: str) -> None:
    with tf.io.TFRecordWriter(path, options=comp) as w:
        for r in RECORDS:
            w.write(r)


def _read(tf, path: str, comp: str) -> list[bytes]:
    return [x.numpy() for x in tf.data.TFRecordDataset(path, compression_type=comp)]


@pytest.mark.parametrize("comp", ["", "GZIP", "ZLIB"])
def test_tfrecord_files_cross_both_ways(tmp_path, comp):
    for writer, reader, wname, rname in ((real_tf, sim_tf, "tf", "simdist"), (sim_tf, real_tf, "simdist", "tf")):
        path = os.path.join(tmp_path, f"{wname}.tfr")
        _write(writer, path, comp)
        got = _read(reader, path, comp)
        assert got == RECORDS, f"records={got!r}, but should be {RECORDS!r} [{wname} writes, {rname} reads, {comp!r}]"


def test_uncompressed_tfrecord_bytes_equal(tmp_path):
    a, b = os.path.join(tmp_path, "tf.tfr"), os.path.join(tmp_path, "sd.tfr")
    _write(real_tf, a, "")
    _write(sim_tf, b, "")
    want, got = open(a, "rb").read(), open(b, "rb").read()
    assert got == want, f"simdist's file={got[:40]!r}..., but should be TF's {want[:40]!r}... [TFRecordWriter bytes]"


def test_text_lines_and_corruption_agree(tmp_path):
    path = os.path.join(tmp_path, "t.txt")
    with open(path, "wb") as f:
        f.write(b"line1\nline2\r\n\nlast")
    want = [x.numpy() for x in real_tf.data.TextLineDataset(path)]
    got = [x.numpy() for x in sim_tf.data.TextLineDataset(path)]
    assert got == want, f"lines={got!r}, but should be {want!r} [TextLineDataset]"
    good = os.path.join(tmp_path, "g.tfr")
    _write(real_tf, good, "")
    data = open(good, "rb").read()
    for name, blob in (("corrupt", data[:14] + bytes([data[14] ^ 1]) + data[15:]), ("truncated", data[:-70]),
                       ("cut header", data[:5])):
        path = os.path.join(tmp_path, f"{name}.tfr")
        open(path, "wb").write(blob)
        outs = []
        for tf in (real_tf, sim_tf):
            try:
                outs.append(("ok", len(list(tf.data.TFRecordDataset(path)))))
            except tf.errors.DataLossError as e:
                outs.append(("DataLossError", e.message.split("}} ")[-1].split(" [Op:")[0]))
        assert outs[1] == outs[0], f"simdist={outs[1]!r}, but should be {outs[0]!r} [TFRecordDataset of a {name} file]"
