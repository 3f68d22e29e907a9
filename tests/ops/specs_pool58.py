"""The op table's entries for the ops pool58 added (clause function.pool-graph-kernels): _FoldedAvgPoolGrad and
_FoldedAvgPool3DGrad (an average pool's gradient that Grappler's constant folding computes with TF's own kernel) and
_MklNativeMaxPool3DGrad (oneDNN's max_pool3d gradient in a graph), which only simdist's Grappler rules make inside a
tf.function (no tf API, no raw op); compared with TF 2.21 in tests/ops/test_pool58_grads_tf.py."""

import simdist.tf  # noqa: F401 - registers the ops below

UNTESTED_OPS: dict[str, str] = {
    op: ("made only by a Grappler rule inside a tf.function, in place of the op it stands for, whose gradient it "
         "takes (TF differentiates the graph as written); values against TF's: tests/ops/test_pool58_grads_tf.py "
         "(function.pool-graph-kernels)")
    for op in ("_FoldedAvgPoolGrad", "_FoldedAvgPool3DGrad", "_MklNativeMaxPool3DGrad")
}
