"""The op table's entries for the tf.strings ops of the sixteenth session (clauses ops.strings-*,
ops.string-hash-bucket): string inputs, not differentiable (TF declares StringJoin, ReduceJoin,
StringToNumber, RegexReplace, StringSplit and the hash-bucket ops NotDifferentiable and registers
no gradient for the others), compared with TF 2.21 in tests/ops/test_str15_strings_tf.py (a module
of their own, so that no golden importing the other area modules goes stale)."""

_WHY = ("string inputs (not differentiable): values, errors, gradients through chains, tf.function and "
        "strategy.run are compared with TF 2.21's in tests/ops/test_str15_strings_tf.py ({})")

UNTESTED_OPS: dict[str, str] = {
    **{op: _WHY.format("ops.strings-case") for op in ("StringLower", "StringUpper", "StringStrip", "StringLength")},
    **{op: _WHY.format("ops.string-hash-bucket") for op in ("StringToHashBucket", "StringToHashBucketStrong")},
    **{op: _WHY.format("ops.strings-join") for op in ("StringJoin", "ReduceJoin", "UnsortedSegmentJoin")},
    "Substr": _WHY.format("ops.strings-substr"),
    "StringToNumber": _WHY.format("ops.strings-to-number"),
    **{op: _WHY.format("ops.strings-regex") for op in ("StaticRegexFullMatch", "RegexFullMatch",
                                                        "StaticRegexReplace", "RegexReplace")},
    **{op: _WHY.format("ops.strings-unicode") for op in ("UnicodeEncode", "UnicodeTranscode")},
    **{op: _WHY.format("ops.strings-ragged") for op in ("StringSplitV2", "StringSplit", "UnicodeDecode",
                                                         "UnicodeDecodeWithOffsets", "StringNGrams")},
    # (fz17, eighteenth session)
    "UnicodeScript": ("int32 code points in, int32 script codes out (no gradient registered): values over every "
                      "code point, conversions and errors are compared with TF 2.21's in "
                      "tests/ops/test_fz17_edges_tf.py (ops.strings-unicode-script)"),
}
