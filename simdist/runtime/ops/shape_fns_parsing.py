"""Shape functions of the V1 Example parsers (tensorflow/core/ops/parsing_ops.cc), on infer_ctx's InferenceContext
(clauses ops.raw-ops, function.trace-time-errors): what a tf.function refuses as it adds the node (a ValueError at
trace; observed on TF 2.21)."""

from __future__ import annotations

from simdist.runtime.ops.infer_ctx import Ctx, register

__all__: list[str] = []


@register("ParseExample", "ParseSequenceExample")
def _parse_example(c: Ctx) -> None:
    """serialized of rank 1 (a scalar passes eagerly: the kernels take it)."""
    c.with_rank(c.input("serialized"), 1)


@register("ParseSingleExample")
def _parse_single_example(c: Ctx) -> None:
    """ParseSingleExampleAttrs' counts ("num_sparse (2) must match the size of sparse_keys (1) and sparse_types (1)"),
    then serialized a scalar."""
    n, keys, types = c.attr("num_sparse"), c.attr("sparse_keys") or [], c.attr("sparse_types") or []
    if isinstance(n, int) and (n != len(keys) or n != len(types)):
        c.fail(f"num_sparse ({n}) must match the size of sparse_keys ({len(keys)}) and sparse_types ({len(types)})")
    c.with_rank(c.input("serialized"), 0)


@register("ParseSingleSequenceExample")
def _parse_single_sequence_example(c: Ctx) -> None:
    """serialized a scalar."""
    c.with_rank(c.input("serialized"), 0)
