"""tf.io's wrappers of the serialized-SparseTensor ops and of DecodeJSONExample (TF 2.21's sparse_ops.py
serialize_sparse_v2, serialize_many_sparse_v2, deserialize_many_sparse, parsing_ops.decode_json_example): the
raw ops (simdist/runtime/ops/sparse_serialize.py, the DecodeJSONExample kernel) with the wrappers' own steps, the
SparseTensor check and deserialize_many_sparse's set_shape of the indices and shape by `rank`. Clause ops.sparse."""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes
from simdist.runtime.sparse_tensor import SparseTensor

__all__ = ["serialize_sparse", "serialize_many_sparse", "deserialize_many_sparse", "decode_json_example"]


def _sparse(sp_input: Any) -> SparseTensor:
    """sparse_ops._convert_to_sparse_tensor: a SparseTensor, else TypeError."""
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    return sp_input


def serialize_sparse(sp_input: Any, out_type: Any = dtypes.string, name: str | None = None) -> Any:
    """`tf.io.serialize_sparse`: SerializeSparse of the SparseTensor's indices, values and dense shape."""
    from simdist.tf import raw_ops
    sp = _sparse(sp_input)
    return raw_ops.SerializeSparse(sparse_indices=sp.indices, sparse_values=sp.values, sparse_shape=sp.dense_shape,
                                   out_type=out_type, name=name)


def serialize_many_sparse(sp_input: Any, out_type: Any = dtypes.string, name: str | None = None) -> Any:
    """`tf.io.serialize_many_sparse`: SerializeManySparse (one row per entry of the first dimension)."""
    from simdist.tf import raw_ops
    sp = _sparse(sp_input)
    return raw_ops.SerializeManySparse(sparse_indices=sp.indices, sparse_values=sp.values,
                                       sparse_shape=sp.dense_shape, out_type=out_type, name=name)


def deserialize_many_sparse(serialized_sparse: Any, dtype: Any, rank: Any = None, name: str | None = None) -> Any:
    """`tf.io.deserialize_many_sparse`: DeserializeManySparse, its indices set to shape [None, rank] and its dense
    shape to [rank] (set_shape: a rank the result does not have is ValueError)."""
    from simdist.tf import raw_ops
    indices, values, shape = raw_ops.DeserializeManySparse(serialized_sparse=serialized_sparse, dtype=dtype,
                                                           name=name)
    indices.set_shape([None, rank])
    shape.set_shape([rank])
    return SparseTensor(indices, values, shape)


def decode_json_example(json_examples: Any, name: str | None = None) -> Any:
    """`tf.io.decode_json_example`: DecodeJSONExample (JSON tf.train.Example records to their binary protos)."""
    from simdist.tf import raw_ops
    return raw_ops.DecodeJSONExample(json_examples=json_examples, name=name)
