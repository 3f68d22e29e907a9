"""The op table's entry for the op the fifty-sixth session added (clause function.onednn-swish): _MklSwish, which
only Grappler's remapper makes (no tf API, no raw op), compared with TF 2.21 in tests/ops/test_fz56_swish_tf.py."""

import simdist.tf  # noqa: F401 - registers the op below

UNTESTED_OPS: dict[str, str] = {
    "_MklSwish": ("made only by the remapper's rewrite of Mul(x, Sigmoid(x)) inside a tf.function on a oneDNN CPU, "
                  "after tf.gradients walked the graph as written; a tape replaying a rewritten recording runs "
                  "Sigmoid and Mul instead (OpDef.taped_form); values and gradients against TF's: "
                  "tests/ops/test_fz56_swish_tf.py (function.onednn-swish)"),
}
