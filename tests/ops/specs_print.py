"""The op table's entries for tf.print's ops (clause ops.print): string outputs and a write, not
differentiable, compared with TF 2.21 in tests/ops/test_print_tf.py (a module of their own, so
that no golden importing the other area modules goes stale)."""

UNTESTED_OPS: dict[str, str] = {
    "StringFormat": "a string output (not differentiable): tf.strings.format's texts are compared with TF 2.21's in "
                    "tests/ops/test_print_tf.py (ops.print)",
    "PrintV2": "writes its message (no tensor output in TF, not differentiable): what it writes is compared with "
               "TF 2.21's in tests/ops/test_print_tf.py (ops.print)",
}
