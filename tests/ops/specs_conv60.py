"""The op table's entry for the op the sixtieth session added: _OneDnnConvBiasGrad (clause function.onednn-fused-contraction),
simdist's name for the bias output of TF's _MklConv2DBackpropFilterWithBias, which only the graph rewrite makes (no tf
API, no raw op), compared with TF 2.21 in tests/ops/test_conv60_bias_fusion_tf.py."""

import simdist.tf  # noqa: F401 - registers the op below

UNTESTED_OPS: dict[str, str] = {
    "_OneDnnConvBiasGrad": ("made only by the rewrite of a BiasAddGrad whose input is also a Conv2DBackpropFilter's "
                            "out_backprop inside a tf.function on a oneDNN CPU (TF's layout pass merging the two); a "
                            "tape replaying a rewritten recording runs BiasAddGrad instead (OpDef.taped_form); values "
                            "against TF's: tests/ops/test_conv60_bias_fusion_tf.py (function.onednn-fused-contraction)"),
}
