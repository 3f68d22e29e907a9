"""The op table's entry for the op the sixty-first session added: BatchMatMulV3 of bfloat16 into bfloat16 (clause
ops.packet-paths), simdist's own op for TF's kernel (reached through tf.raw_ops.BatchMatMulV3 only: tf.matmul with an
output_type equal to its operands' is BatchMatMulV2), compared with TF 2.21 in
tests/ops/test_fz61_batch_matmul_v3_bf16_tf.py."""

import simdist.tf  # noqa: F401 - registers the op below

UNTESTED_OPS: dict[str, str] = {
    "BatchMatMulV3": ("bfloat16 only (the kernel's in-order float32 sum truncated to bfloat16), which finite "
                      "differences cannot check; values, eager and traced, and its gradient (BatchMatMulV2's "
                      "function, as math_grad.py registers it) against TF's: "
                      "tests/ops/test_fz61_batch_matmul_v3_bf16_tf.py (ops.packet-paths)"),
}
