"""The op table's entries for the raw ops the thirty-eighth session added (clause ops.raw-ops): the media summary
kernels, EncodeJpegVariableQuality and the k-means helper kernels, each a raw op only, compared with TF 2.21 byte for byte
(values, errors, tf.function, tape) in tests/ops/test_rawops38_tf.py."""

import simdist.tf  # noqa: F401 - registers the ops below

_WHERE = "tests/ops/test_rawops38_tf.py"
_NOT_DIFF = ("a raw op only, of a string output, that TF declares not differentiable (logging_ops.py: a tape's "
             f"gradient through it is None); against TF's kernel: {_WHERE} (ops.raw-ops)")
UNTESTED_OPS: dict[str, str] = {
    "AudioSummaryV2": _NOT_DIFF,
    "ImageSummary": _NOT_DIFF,
    "EncodeJpegVariableQuality": ("a raw op only, of a uint8 image and a string output, whose gradient TF does not "
                                  f"register (LookupError); against TF's kernel: {_WHERE} (ops.raw-ops)"),
    **{op: ("a raw op only (k-means helpers: sampling and selection), whose gradient TF does not register (a tape "
            f"through it is LookupError); against TF's kernel: {_WHERE} (ops.raw-ops)")
       for op in ("KMC2ChainInitialization", "KmeansPlusPlusInitialization", "NearestNeighbors")},
    **{op: ("a raw op only (a fused mirror-pad, resize and convolution), whose gradient TF does not register (a "
            f"tape through it is LookupError); against TF's kernel: {_WHERE} (ops.raw-ops)")
       for op in ("FusedPadConv2D", "FusedResizeAndPadConv2D")},
    "GenerateVocabRemapping": ("a raw op only, of int64 and int32 outputs read from two vocabulary files, that TF "
                               "declares not differentiable (training/checkpoint_ops.py); against TF's kernel: "
                               "tests/ops/test_raw_file_ops_tf.py (ops.raw-ops)"),
}
