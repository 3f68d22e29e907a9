"""The op table's entries for fused batch normalization (clause ops.fused-batch-norm): five and six outputs with
float32 statistics, compared with TF 2.21 bit for bit (values, gradients, errors, tf.function) in
tests/ops/test_fused_batch_norm_tf.py and by the suite's test_fused_batch_norm.py, whose gradient test checks the
registered gradient against the analytic one."""

import simdist.tf  # noqa: F401 - registers the ops below (simdist.tf.compat imports them)

_WHERE = "tests/ops/test_fused_batch_norm_tf.py and suite/test_fused_batch_norm.py (ops.fused-batch-norm)"
UNTESTED_OPS: dict[str, str] = {
    **{op: f"x normalized per channel, running statistics; its gradient the Grad kernel of the reserve spaces: "
           f"{_WHERE}" for op in ("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3")},
    **{op: f"the forward's backprop kernel (its own gradient, TF's _FusedBatchNormGradGrad, is not modelled: "
           f"NotImplementedError): {_WHERE}" for op in ("FusedBatchNormGrad", "FusedBatchNormGradV2",
                                                         "FusedBatchNormGradV3")},
}
