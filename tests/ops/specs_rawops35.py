"""The op table's entries for the raw ops the thirty-fifth session added (clauses ops.linalg-more, ops.ragged):
each a raw op only, compared with TF 2.21 bit for bit (values, errors, tf.function, tape) in
tests/ops/test_rawops35_tf.py."""

import simdist.tf  # noqa: F401 - registers the ops below

_WHERE = "tests/ops/test_rawops35_tf.py"
UNTESTED_OPS: dict[str, str] = {
    "CholeskyGrad": f"a raw op only, whose gradient TF does not register (a tape through it is LookupError); "
                    f"its values against TF's kernel: {_WHERE} (ops.linalg-more)",
}
