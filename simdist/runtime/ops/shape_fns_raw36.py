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


@register("ParseSequenceExampleV2")
def _parse_sequence_example_v2(c: Ctx) -> None:
    """The shape function's first step (ParseSequenceExampleAttrs::Init, then FinishInit for op version 2,
    example_proto_helper.cc): each count attr against its list's size, context sparse, context dense (types and
    shapes), feature-list sparse, feature-list dense (types and shapes). TF 2.21's graph refuses Ncontext_sparse=1
    beside no context_sparse_types at trace (ValueError "num_context_sparse (1) must match the size of
    context_sparse_types (0)"; fz36a, function seed 3620261212 #84), where simdist's kernel refused it when the
    graph ran; the shape function's input checks that follow are not transcribed (fz20_known.py)."""
    def n(name: str) -> int:
        v = c.attr(name)
        return len(v) if isinstance(v, (list, tuple)) else 0
    ncs = int(c.attr("Ncontext_sparse", 0) or 0)
    if ncs != n("context_sparse_types"):
        c.fail(f"num_context_sparse ({ncs}) must match the size of context_sparse_types ({n('context_sparse_types')})")
    defaults = c.input("context_dense_defaults")
    ncd = len(defaults) if isinstance(defaults, list) else n("Tcontext_dense")
    if ncd != n("context_dense_shapes"):
        c.fail(f"num_context_dense ({ncd}) must match the size of context_dense_types ({ncd}) and "
               f"context_dense_shapes ({n('context_dense_shapes')})")
    nfs = int(c.attr("Nfeature_list_sparse", 0) or 0)
    if nfs != n("feature_list_sparse_types"):
        c.fail(f"num_feature_list_sparse ({nfs}) must match the size of feature_list_sparse_types "
               f"({n('feature_list_sparse_types')})")
    nfd = int(c.attr("Nfeature_list_dense", 0) or 0)
    if nfd != n("feature_list_dense_types") or nfd != n("feature_list_dense_shapes"):
        c.fail(f"num_feature_list_dense ({nfd}) must match the size of feature_list_dense_types "
               f"({n('feature_list_dense_types')}) and feature_list_dense_shapes ({n('feature_list_dense_shapes')})")
