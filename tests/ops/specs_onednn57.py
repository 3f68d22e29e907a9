"""The op table's entries for the ops the fifty-seventh session added: the activations of oneDNN's fused contraction
(clause function.onednn-fused-contraction), which only Grappler's remapper makes inside a tf.function on a oneDNN CPU
(no tf API, no raw op), compared with TF 2.21 in tests/ops/test_onednn57_fused_tf.py and suite/test_fused57.py."""

import simdist.tf  # noqa: F401 - registers the ops below

UNTESTED_OPS: dict[str, str] = {
    f"_MklFusedActivation{act}": (
        "made only by the remapper's rewrite of act(MatMul/Conv2D + bias) inside a tf.function on a oneDNN CPU (the "
        "post-op of _MklNativeFusedMatMul/_FusedConv2D), its gradient the activation's from its output; values, the "
        "patterns that fuse and those that do not, Keras Dense/Conv2D in fit and predict, against TF's: "
        "tests/ops/test_onednn57_fused_tf.py (function.onednn-fused-contraction)")
    for act in ("Tanh", "Sigmoid", "Elu", "Relu", "Relu6", "ReluAlpha0")
}
