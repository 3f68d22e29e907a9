"""`tf.nn.embedding_lookup_sparse` and `tf.nn.safe_embedding_lookup_sparse` as TF 2.21's
embedding_ops.py composes them (clause ops.sparse-segments): without weights and max_norm, the
rows are reduced by SparseSegmentSum/Mean/SqrtN with `sparse_gradient=True` (an IndexedSlices
gradient); otherwise the unique ids' rows are gathered (max_norm clipped), scaled by the weights
and reduced by SegmentSum, divided by the weights' (squared) sums with div_no_nan. The safe variant
reshapes ids to 2-D, prunes ids < 0 (and weights <= 0 unless combiner is sum), fills empty rows
with default_id (their output 0 when default_id is None)."""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes
from simdist.runtime.ops import array, math, reductions, scatter, slicing, unary
from simdist.runtime.ops.counting import unique
from simdist.runtime.ops import nn as _nn
from simdist.runtime.ops import sparse_api, sparse_segments
from simdist.runtime.sparse_tensor import SparseTensor
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["embedding_lookup_sparse", "safe_embedding_lookup_sparse"]


def embedding_lookup_sparse(params: Any, sp_ids: Any, sp_weights: Any, combiner: str | None = None,
                            max_norm: Any = None, name: str | None = None, allow_fast_lookup: bool = False) -> Tensor:
    """`tf.nn.embedding_lookup_sparse` (v2): each row of sp_ids' ids combined (sum/mean/sqrtn)."""
    combiner = "mean" if combiner is None else combiner
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")
    plist = list(params) if isinstance(params, (list, tuple)) else [params]
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids)}")
    ignore_weights = sp_weights is None
    if not ignore_weights:
        if not isinstance(sp_weights, SparseTensor):
            raise TypeError(f"sp_weights must be either None or SparseTensor,got {type(sp_weights)}")
        # (embedding_ops.py checks the static shapes of the two sparse tensors' parts before any op: ValueError
        # "Shapes (3,) and (1,) are incompatible"; fz63, fz62gen seeds 63401 #7, 63404 #7)
        sp_ids.values.shape.assert_is_compatible_with(sp_weights.values.shape)
        sp_ids.indices.shape.assert_is_compatible_with(sp_weights.indices.shape)
        sp_ids.dense_shape.shape.assert_is_compatible_with(sp_weights.dense_shape.shape)
    segment_ids = sp_ids.indices[:, 0]
    ids = sp_ids.values
    if len(plist) == 1 and not hasattr(plist[0], "dtype"):
        plist = [convert_to_tensor(plist[0])]
    fast = len(plist) == 1 and not hasattr(plist[0], "_gather_rows") and max_norm is None and \
        (allow_fast_lookup or ignore_weights)
    if fast:
        idx, embeddings = ids, plist[0]
        if hasattr(embeddings, "read_value"):
            embeddings = embeddings.read_value()
    else:
        ids, idx = unique(ids)
        embeddings = _nn.embedding_lookup(plist if len(plist) > 1 else plist[0], ids, max_norm=max_norm)
    if not ignore_weights:
        if segment_ids.dtype != dtypes.int32:
            segment_ids = math.cast(segment_ids, dtypes.int32)
        weights = sp_weights.values
        embeddings = array.gather(embeddings, idx)
        original = embeddings.dtype
        if embeddings.dtype in (dtypes.float16, dtypes.bfloat16):
            embeddings = math.cast(embeddings, dtypes.float32)
        if weights.dtype != embeddings.dtype:
            weights = math.cast(weights, embeddings.dtype)
        ones = [1] * (embeddings.shape.rank - 1)
        weights = array.reshape(weights, [-1] + ones)
        embeddings = math.multiply(embeddings, weights)
        summed = scatter.segment_sum(embeddings, segment_ids)
        if combiner == "sum":
            embeddings = summed
        elif combiner == "mean":
            embeddings = math.divide_no_nan(summed, scatter.segment_sum(weights, segment_ids))
        else:
            squared = scatter.segment_sum(math.pow_(weights, 2), segment_ids)
            embeddings = math.divide_no_nan(summed, unary.sqrt(squared))
        if embeddings.dtype != original:
            embeddings = math.cast(embeddings, original)
        return embeddings
    if segment_ids.dtype not in (dtypes.int32, dtypes.int64):
        segment_ids = math.cast(segment_ids, dtypes.int32)
    fn = {"sum": sparse_segments.segment_sum, "mean": sparse_segments.segment_mean,
          "sqrtn": sparse_segments.segment_sqrt_n}[combiner]
    return fn(embeddings, idx, segment_ids, sparse_gradient=not allow_fast_lookup)


def safe_embedding_lookup_sparse(embedding_weights: Any, sparse_ids: Any, sparse_weights: Any = None,
                                 combiner: str = "mean", default_id: Any = None, max_norm: Any = None,
                                 name: str | None = None, allow_fast_lookup: bool = False) -> Tensor:
    """`tf.nn.safe_embedding_lookup_sparse` (v2): invalid ids pruned, empty rows filled."""
    if embedding_weights is None:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    weights_list = list(embedding_weights) if isinstance(embedding_weights, (list, tuple)) else [embedding_weights]
    if len(weights_list) < 1:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    dtype = sparse_weights.dtype if sparse_weights is not None else None
    weights_list = [w if (hasattr(w, "assign") and dtype in (None, w.dtype)) else
                    (w if isinstance(w, Tensor) and dtype in (None, w.dtype) else convert_to_tensor(w, dtype=dtype))
                    for w in weights_list]
    original_shape = sparse_ids.dense_shape
    rank = int(original_shape.shape[0])
    sparse_ids = sparse_api.reshape(sparse_ids, array.stack([
        reductions.reduce_prod(slicing.slice_(original_shape, [0], [rank - 1])), original_shape[rank - 1]]))
    if sparse_weights is not None:
        sparse_weights = SparseTensor(sparse_ids.indices, sparse_weights.values, sparse_ids.dense_shape)
    valid = math.greater_equal(sparse_ids.values, 0)
    if sparse_weights is not None:
        valid = math.logical_and(valid, array.ones_like(sparse_weights.values, dtype=dtypes.bool_))
    sparse_ids = sparse_api.retain(sparse_ids, valid)
    if sparse_weights is not None:
        sparse_weights = sparse_api.retain(sparse_weights, valid)
    if combiner != "sum" and sparse_weights is not None:
        good = math.greater(sparse_weights.values, 0)
        sparse_ids = sparse_api.retain(sparse_ids, good)
        sparse_weights = sparse_api.retain(sparse_weights, good)
    sparse_ids, is_row_empty = sparse_api.fill_empty_rows(sparse_ids, default_id or 0)
    if sparse_weights is not None:
        sparse_weights, _ = sparse_api.fill_empty_rows(sparse_weights, 1.0)
    result = embedding_lookup_sparse(weights_list if len(weights_list) > 1 else weights_list[0], sparse_ids,
                                     sparse_weights, combiner=combiner, max_norm=max_norm,
                                     allow_fast_lookup=allow_fast_lookup)
    if default_id is None:
        empty = slicing.tile(array.reshape(is_row_empty, [-1, 1]), array.stack([1, array.shape(result)[1]]))
        result = math.where(empty, array.zeros_like(result), result)
    return array.reshape(result, array.concat([slicing.slice_(math.cast(original_shape, dtypes.int32), [0],
                                                              [rank - 1]),
                                               slicing.slice_(array.shape(result), [1], [-1])], 0))
