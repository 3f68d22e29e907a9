"""The op table's entries for the raw ops the thirty-seventh session added (clause ops.raw-ops): the serialized
SparseTensors, SparseCrossHashed and DecodeJSONExample, each a raw op only of string or int64 outputs (or of a
string input), compared with TF 2.21 byte for byte (values, errors, tf.function, tape) in
tests/ops/test_rawops37_tf.py."""

import simdist.tf  # noqa: F401 - registers the ops below

_WHERE = "tests/ops/test_rawops37_tf.py"
_NO_GRAD = ("a raw op only, of string or int64 outputs (or a string input), whose gradient TF does not register "
            f"(a tape through it is LookupError); against TF's kernel: {_WHERE} (ops.raw-ops)")
UNTESTED_OPS: dict[str, str] = {
    "SerializeSparse": _NO_GRAD,
    "SerializeManySparse": _NO_GRAD,
    "DeserializeSparse": _NO_GRAD,
    "DeserializeManySparse": _NO_GRAD,
    "SparseCrossHashed": _NO_GRAD,
    "DecodeJSONExample": _NO_GRAD,
}
