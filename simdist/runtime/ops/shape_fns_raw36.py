"""Shape functions of raw ops that fz36a transcribed (session 36, the twentieth fuzzer's fresh seeds
3620261201-), on infer_ctx's InferenceContext (clause function.trace-time-errors): the checks TF 2.21's
shape functions make as a tf.function adds the node, a ValueError at trace where simdist's kernel refused
the call only when the graph ran. Each was observed on TF 2.21 (function seed 3620261201 #42 and sig seed
3620261202 #120 Gather; sig seed 3620261218 #194 AddN)."""

from __future__ import annotations

from simdist.runtime.ops.infer_ctx import Ctx, ShapeFnError, register

__all__: list[str] = []


@register("Gather")
def _gather(c: Ctx) -> None:
    """array_ops.cc's Gather (V1): params of rank at least 1 ("Shape must be at least rank 1 but is rank 0"),
    the output indices' shape then params' without its first dimension; indices are not checked."""
    c.with_rank_at_least(c.input("params"), 1)


@register("AddN")
def _add_n(c: Ctx) -> None:
    """math_ops.cc's AddN: from the last input back to the first, each merged with the shapes after it (an
    unknown rank merging with any), the failure "<Merge's text>\n\tFrom merging shape i with other shapes."
    (TF_RETURN_WITH_CONTEXT_IF_ERROR): [3, ?] beside [?, 3, 0, 1] refuses at trace whatever the values."""
    shapes = c.input("inputs")
    cur = shapes[-1]
    for i in range(len(shapes) - 2, -1, -1):
        try:
            cur = c.merge(shapes[i], cur)
        except ShapeFnError as e:
            c.fail(f"{e.text}\n\tFrom merging shape {i} with other shapes.")
