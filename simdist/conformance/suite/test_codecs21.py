"""Image and audio codecs and Keras's image_dataset_from_directory pipeline — clauses
io.image-codecs, io.audio-codecs, keras.dataset-from-directory (TF 2.21, Keras 3.15). The bytes
(SHA-1), pixels, file orders and labels below were observed with TF 2.21 and Keras 3.15;
tests/runtime/test_codecs21_tf.py and tests/keras/test_dataset_from_directory_tf.py run simdist
beside live TF on many more cases."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sys
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_same, raises

clause = pytest.mark.clause


def _image() -> np.ndarray:
    return (np.indices((5, 7, 3)).sum(0) * 37 % 256).astype(np.uint8)


@clause("io.image-codecs", ref="tf221")
def test_png_bytes_and_samples(tf):
    a = _image()
    png = tf.io.encode_png(a).numpy()
    assert_same((len(png), hashlib.sha1(png).hexdigest()), (77, "4062f6e2ff4fea0b384203564238ff0d797225b1"),
                call="encode_png (libpng's filters, zlib level 6)")
    png16 = tf.io.encode_png(a.astype(np.uint16) * 257 + 1, compression=9).numpy()
    assert_same((len(png16), hashlib.sha1(png16).hexdigest()), (81, "e75d0c7a331771d261fc66afe592b427855a5fc3"),
                call="encode_png of uint16 at compression 9")
    assert_same(tf.io.decode_png(png).numpy().tolist(), a.tolist(), call="decode_png: the samples back")
    assert_same(tf.io.decode_png(png, channels=1).numpy()[1, :4, 0].tolist(), [67, 104, 141, 178],
                call="decode_png(channels=1): libpng's rgb_to_gray")
    assert_same(tf.io.decode_png(png, channels=4, dtype=tf.uint16).numpy()[0, 1].tolist(), [9509, 19018, 28527, 65535],
                call="decode_png(channels=4, dtype=uint16): x * 257, alpha 65535")
    with raises(tf.errors.InvalidArgumentError, call="decode_png(channels=2)",
                match=re.escape("`channels` must be 0, 1, 3 or 4 but got 2")):
        tf.io.decode_png(png, channels=2)
    with raises(tf.errors.InvalidArgumentError, call="decode_image of unknown bytes",
                match=re.escape("Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required.")):
        tf.io.decode_image(b"xx")


@clause("io.image-codecs", ref="tf221")
def test_jpeg_bytes_and_pixels(tf):
    a = _image()
    jpg = tf.io.encode_jpeg(a, quality=80).numpy()
    assert_same((len(jpg), hashlib.sha1(jpg).hexdigest()), (690, "466c51a114e19cd35b3f188ee61c37d9b083762b"),
                call="encode_jpeg(quality=80): libjpeg-turbo's bytes, 4:2:0, 300 dpi")
    d = tf.io.decode_jpeg(jpg).numpy()
    assert_same((d[0, :3].tolist(), d[4, 6].tolist()), ([[0, 47, 97], [14, 66, 106], [80, 122, 144]], [119, 148, 188]),
                call="decode_jpeg: JDCT_IFAST with fancy upsampling (TF's default)")
    d = tf.io.decode_jpeg(jpg, dct_method="INTEGER_ACCURATE").numpy()
    assert_same(d[0, :3].tolist(), [[0, 47, 99], [16, 65, 108], [81, 123, 147]], call="decode_jpeg(INTEGER_ACCURATE)")
    assert_same(tf.io.extract_jpeg_shape(jpg).numpy().tolist(), [5, 7, 3], call="extract_jpeg_shape")
    assert_same([bool(tf.io.is_jpeg(jpg)), bool(tf.io.is_jpeg(b"\x89PNG"))], [True, False], call="is_jpeg")
    with raises(tf.errors.InvalidArgumentError, call="decode_image(channels=4) of a JPEG",
                match=re.escape("JPEG does not support 4 channels")):
        tf.io.decode_image(jpg, channels=4)


@clause("io.audio-codecs", ref="tf221")
def test_wav_bytes_and_samples(tf):
    wav = tf.audio.encode_wav(np.array([[0.25], [-0.5], [1.25]], np.float32), 8000).numpy()
    assert_same(wav.hex(), "524946462a00000057415645666d74201000000001000100401f0000803e0000020010006461746106000000"
                "002000c0ff7f", call="encode_wav: PCM16, 1.25 clamped to 32767")
    got = tf.audio.decode_wav(wav, desired_channels=2)
    assert_same((got.audio.numpy().tolist(), int(got.sample_rate)),
                ([[0.25, 0.25], [-0.5, -0.5], [0.999969482421875, 0.999969482421875]], 8000),
                call="decode_wav(desired_channels=2): the last channel repeated")
    with raises(tf.errors.InvalidArgumentError, call="decode_wav of a short header",
                match=re.escape("Data too short when trying to read string")):
        tf.audio.decode_wav(b"RIFF\x00\x00\x00\x00WAVEfmt ")


@clause("keras.dataset-from-directory", ref="tf221")
def test_image_dataset_from_directory_order_labels_and_split(tf, keras):
    with tempfile.TemporaryDirectory() as d:
        for ci, cls in enumerate(("ants", "bees", "wasps")):
            for i in range(3 + ci):
                img = (np.indices((4 + i, 6, 3)).sum(0) * (11 + 5 * ci) % 256).astype(np.uint8)
                tf.io.write_file(os.path.join(d, cls, f"{i}.png"), tf.io.encode_png(img))
        tf.io.write_file(os.path.join(d, "bees", "skip.txt"), "not an image")
        with contextlib.redirect_stdout(sys.stderr):
            ds = keras.utils.image_dataset_from_directory(d, seed=42, image_size=(4, 4), batch_size=4, verbose=False)
            tr, va = keras.utils.image_dataset_from_directory(d, seed=42, image_size=(4, 4), batch_size=4,
                                                              validation_split=0.25, subset="both", verbose=False)
            ordered = keras.utils.image_dataset_from_directory(d, shuffle=False, image_size=(2, 3), batch_size=None,
                                                               label_mode="categorical", verbose=False)
            rel = lambda paths: [os.path.relpath(p, d) for p in paths]  # noqa: E731
            order = ["wasps/3.png", "wasps/2.png", "ants/0.png", "wasps/1.png", "bees/2.png", "ants/2.png",
                     "ants/1.png", "wasps/4.png", "bees/1.png", "wasps/0.png", "bees/0.png", "bees/3.png"]
            assert_same((rel(ds.file_paths), ds.class_names), (order, ["ants", "bees", "wasps"]),
                        call="image_dataset_from_directory(seed=42): Keras's file order for the seed, class_names")
            assert_same((rel(tr.file_paths), rel(va.file_paths)), (order[:9], order[9:]),
                        call="validation_split=0.25, subset='both': the last 3 files are validation")
            assert_same(sorted(int(v) for _, y in ds for v in y.numpy()), [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2],
                        call="an epoch's labels")
            el = [(x.numpy(), y.numpy()) for x, y in ordered]
            assert_same([int(y.argmax()) for _, y in el], [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2],
                        call="shuffle=False, categorical: classes in order")
            assert_same((el[0][0].shape, el[0][0].dtype.name), ((2, 3, 3), "float32"), call="a resized image")
            assert_same(el[5][0][1].tolist(), [[72.0, 88.0, 104.0], [104.0, 120.0, 136.0], [136.0, 152.0, 168.0]],
                        call="decode_image + resize(bilinear) of bees/1.png, row 1")
