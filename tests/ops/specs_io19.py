"""The op table's entries for tf.io's parsing and codec ops of the nineteenth session (clauses
io.parse-example, io.tensor-codec): string inputs or file effects, not differentiable, compared
with TF 2.21 in tests/runtime/test_io_parsing_tf.py (values, bytes, errors, tf.function and tf.data
pipelines) and the suite's test_io_parsing.py."""

_WHY = ("string inputs (not differentiable): values, bytes and errors are compared with TF 2.21's in "
        "tests/runtime/test_io_parsing_tf.py ({})")

UNTESTED_OPS: dict[str, str] = {
    "ParseExampleV2": _WHY.format("io.parse-example"),
    "ParseSequenceExampleV2": _WHY.format("io.parse-example"),
    **{op: _WHY.format("io.tensor-codec") for op in ("SerializeTensor", "ParseTensor", "DecodeRaw", "DecodePaddedRaw",
                                                      "EncodeBase64", "DecodeBase64", "DecodeCompressed", "ReadFile", "WriteFile",
                                                      "MatchingFiles", "DecodeCSV")},
}
