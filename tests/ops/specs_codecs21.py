"""The op table's entries for the image and audio codec ops of the twenty-first session (clauses
io.image-codecs, io.audio-codecs): string inputs or outputs, not differentiable, compared with TF 2.21
in tests/runtime/test_codecs21_tf.py (bytes, pixels, samples, errors, tf.function) and the suite's
test_codecs21.py."""

_WHY = ("encoded bytes in or out (not differentiable): bytes, pixels and errors are compared with TF 2.21's in "
        "tests/runtime/test_codecs21_tf.py ({})")

UNTESTED_OPS: dict[str, str] = {
    **{op: _WHY.format("io.image-codecs") for op in ("DecodePng", "DecodeJpeg", "DecodeAndCropJpeg", "DecodeBmp",
                                                      "DecodeImage", "EncodePng", "EncodeJpeg", "ExtractJpegShape")},
    **{op: _WHY.format("io.audio-codecs") for op in ("EncodeWav", "DecodeWav")},
}
