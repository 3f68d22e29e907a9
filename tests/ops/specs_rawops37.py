"""The op table's entries for the raw ops the thirty-seventh session added (clause ops.raw-ops): the serialized
SparseTensors, SparseCrossHashed, DecodeJSONExample, the stateless summary kernels and the tfdbg kernels, each a raw op only of string or int64 outputs (or of a
string input), compared with TF 2.21 byte for byte (values, errors, tf.function, tape) in
tests/ops/test_rawops37_tf.py."""

import simdist.tf  # noqa: F401 - registers the ops below

_WHERE = "tests/ops/test_rawops37_tf.py"
_NO_GRAD = ("a raw op only, of string or int64 outputs (or a string input), whose gradient TF does not register "
            f"(a tape through it is LookupError); against TF's kernel: {_WHERE} (ops.raw-ops)")
_NOT_DIFF = ("a raw op only, of a string output, that TF declares not differentiable (logging_ops.py: a tape's "
             f"gradient through it is None); against TF's kernel: {_WHERE} (ops.raw-ops)")
UNTESTED_OPS: dict[str, str] = {
    "SerializeSparse": _NO_GRAD,
    "SerializeManySparse": _NO_GRAD,
    "DeserializeSparse": _NO_GRAD,
    "DeserializeManySparse": _NO_GRAD,
    "SparseCrossHashed": _NO_GRAD,
    "DecodeJSONExample": _NO_GRAD,
    "SdcaFprint": _NO_GRAD,
    "ScalarSummary": _NOT_DIFF,
    "HistogramSummary": _NOT_DIFF,
    "MergeSummary": _NOT_DIFF,
    "TensorSummary": _NOT_DIFF,
    "TensorSummaryV2": _NOT_DIFF,
    "DebugIdentity": _NO_GRAD.replace("of string or int64 outputs (or a string input)", "of a debugging kernel"),
    "DebugNanCount": _NO_GRAD.replace("of string or int64 outputs (or a string input)", "of a debugging kernel"),
    "DebugNumericSummary": _NO_GRAD.replace("of string or int64 outputs (or a string input)", "of a debugging kernel"),
    "DebugNumericSummaryV2": _NO_GRAD.replace("of string or int64 outputs (or a string input)", "of a debugging kernel"),
    "DebugGradientIdentity": ("a raw op only, whose registered gradient (debug_gradients.py) needs a GradientsDebugger's "
                              f"op name: a tape through it is AttributeError; against TF: {_WHERE} (ops.raw-ops)"),
}
