"""Shape functions of the raw ops the thirty-seventh session added (tensorflow/core/ops/sparse_ops.cc:
SerializeSparse, SerializeManySparse, DeserializeSparse, DeserializeManySparse, TF 2.21), on infer_ctx's
InferenceContext (clause function.trace-time-errors): the ranks they refuse as a tf.function adds the node
(ValueError), observed on TF 2.21."""

from __future__ import annotations

from simdist.runtime.ops.infer_ctx import Ctx, register

__all__: list[str] = []


@register("SerializeSparse", "SerializeManySparse")
def _serialize_sparse(c: Ctx) -> None:
    """indices a matrix, values and shape vectors; their counts are the kernel's."""
    c.with_rank(c.input("sparse_indices"), 2)
    c.with_rank(c.input("sparse_values"), 1)
    c.with_rank(c.input("sparse_shape"), 1)


@register("DeserializeSparse")
def _deserialize_sparse(c: Ctx) -> None:
    """serialized_sparse of rank at least 1 whose last dimension is 3 ("Dimension must be 3 but is 2")."""
    s = c.with_rank_at_least(c.input("serialized_sparse"), 1)
    c.with_value(c.dim(s, -1), 3)


@register("DeserializeManySparse")
def _deserialize_many_sparse(c: Ctx) -> None:
    """serialized_sparse a matrix of 3 columns."""
    s = c.with_rank(c.input("serialized_sparse"), 2)
    c.with_value(s[1], 3)


@register("BoostedTreesBucketize")
def _boosted_trees_bucketize(c: Ctx) -> None:
    """boosted_trees_ops.cc: each float_values tensor and each bucket_boundaries tensor a vector (TF 2.21 has no
    kernel for the op: this is the only error a tf.function gives before "No OpKernel was registered")."""
    for name in ("float_values", "bucket_boundaries"):
        shapes = c.input(name)
        for s in shapes if isinstance(shapes, list) else [shapes]:
            c.with_rank(s, 1)


@register("SdcaFprint")
def _sdca_fprint(c: Ctx) -> None:
    """sdca_ops.cc: input a vector ("Shape must be rank 1 but is rank 0", observed on TF 2.21)."""
    c.with_rank(c.input("input"), 1)
