"""Shape functions of raw ops that fz36a transcribed (session 36, the twentieth fuzzer's fresh seeds
3620261201-), on infer_ctx's InferenceContext (clause function.trace-time-errors): the checks TF 2.21's
shape functions make as a tf.function adds the node, a ValueError at trace where simdist's kernel refused
the call only when the graph ran. Each was observed on TF 2.21 (function seed 3620261201 #42 and sig seed
3620261202 #120 Gather)."""

from __future__ import annotations

from simdist.runtime.ops.infer_ctx import Ctx, register

__all__: list[str] = []


@register("Gather")
def _gather(c: Ctx) -> None:
    """array_ops.cc's Gather (V1): params of rank at least 1 ("Shape must be at least rank 1 but is rank 0"),
    the output indices' shape then params' without its first dimension; indices are not checked."""
    c.with_rank_at_least(c.input("params"), 1)
