"""The op table's entries for the ops the fifty-sixth session added: _MklSwish (clause function.onednn-swish), which
only Grappler's remapper makes (no tf API, no raw op), compared with TF 2.21 in tests/ops/test_fz56_swish_tf.py; and
fz56b's image decoders DecodeWebP and DecodeJxl (clause io.image-codecs), compared in tests/ops/test_fz56b_codecs_tf.py."""

import simdist.tf  # noqa: F401 - registers the op below

UNTESTED_OPS: dict[str, str] = {
    "_MklSwish": ("made only by the remapper's rewrite of Mul(x, Sigmoid(x)) inside a tf.function on a oneDNN CPU, "
                  "after tf.gradients walked the graph as written; a tape replaying a rewritten recording runs "
                  "Sigmoid and Mul instead (OpDef.taped_form); values and gradients against TF's: "
                  "tests/ops/test_fz56_swish_tf.py (function.onednn-swish)"),
    **{op: ("encoded bytes in, pixels out (not differentiable): pixels, shapes and errors are compared with TF 2.21's "
            "in tests/ops/test_fz56b_codecs_tf.py (io.image-codecs)") for op in ("DecodeWebP", "DecodeJxl")},
}
