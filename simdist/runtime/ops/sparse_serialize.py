"""TF's serialized SparseTensors (raw ops only; tensorflow/core/kernels/serialize_sparse_op.cc and
deserialize_sparse_string_op.cc, clause ops.raw-ops): SerializeSparse, SerializeManySparse, DeserializeSparse and
DeserializeManySparse with out_type / Tserialized string (TF's variant form is not modelled: simdist has no
variant dtype).

SerializeSparse: indices a matrix, values and shape vectors (TF 2.21's texts, observed), then the three tensors
each as Tensor::AsProtoTensorContent's TensorProto bytes (a string tensor's content as EncodeStringList: every
length as a varint32, then the bytes); nothing else is checked. SerializeManySparse: the same checks, the shape's
rank above 1, the shape's dims not negative, SparseTensor::Create's counts and IndicesValid (in bounds, ordered, no
repeat), then one row [indices, values, shape] per entry of dim 0, the first index dropped (a row with no entries
gets empty indices [0, rank-1] and values [0]). DeserializeSparse (and DeserializeManySparse, the same kernel): the
input's last dimension 3 and at least one row; each row's three protos parsed (Tensor::FromProto) and checked in
GetAndValidateSparseTensor's order; one row of rank 1 is returned as is; otherwise each row's indices get its
position as a first index, in order (no sorting, no bounds check), the dense shape [rows] + each dimension's
largest, then reshaped to the input's leading dimensions. No gradient is registered by TF for any of them (a tape:
LookupError)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, bytes_array
from simdist.runtime.proto_wire import varint as _varint

__all__ = ["SERIALIZE_SPARSE", "SERIALIZE_MANY_SPARSE", "DESERIALIZE_SPARSE", "DESERIALIZE_MANY_SPARSE",
           "encode_string_list", "tensor_bytes"]


def _bad(op: str, text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{{{{function_node __wrapped__{op}_device_/job:localhost/"
                                       f"replica:0/task:0/device:CPU:0}}}} {text} [Op:{op}]")


def _dims(shape: Any) -> str:
    """TensorShape::DebugString."""
    return "[" + ",".join(str(int(d)) for d in shape) + "]"




def encode_string_list(values: list[bytes]) -> bytes:
    """port::EncodeStringList: each string's length as a varint32, then the strings' bytes."""
    return b"".join(_varint(len(v)) for v in values) + b"".join(values)


def _decode_string_list(raw: bytes, n: int) -> list[bytes] | None:
    """port::DecodeStringList: n varint32 lengths whose sum is exactly what remains, else None."""
    pos, sizes = 0, []
    for _ in range(n):
        size, shift = 0, 0
        while True:
            if pos >= len(raw) or shift > 28:
                return None
            b = raw[pos]
            pos += 1
            size |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        sizes.append(size & 0xFFFFFFFF)
    if sum(sizes) != len(raw) - pos:
        return None
    out = []
    for s in sizes:
        out.append(raw[pos:pos + s])
        pos += s
    return out


def tensor_bytes(arr: np.ndarray) -> bytes:
    """Tensor::AsProtoTensorContent's TensorProto, serialized: dtype, the shape's dims, the content (a string
    tensor's as EncodeStringList; none when empty)."""
    from simdist.runtime import tensor_proto_wire
    if arr.dtype != object:
        return tensor_proto_wire.serialize(arr, dtypes.as_dtype(arr.dtype).as_datatype_enum)
    proto = tensor_proto_wire.tensor_proto_class()()
    proto.dtype = dtypes.string.as_datatype_enum
    proto.tensor_shape.SetInParent()
    for d in arr.shape:
        proto.tensor_shape.dim.add(size=int(d))
    proto.tensor_content = encode_string_list([as_bytes(v) for v in arr.reshape(-1)])
    return proto.SerializeToString()


def _check_parts(op: str, ind: np.ndarray, val: np.ndarray, shape: np.ndarray) -> None:
    if ind.ndim != 2:
        raise _bad(op, f"Input indices should be a matrix but received shape {_dims(ind.shape)}")
    if val.ndim != 1:
        raise _bad(op, f"Input values should be a vector but received shape {_dims(val.shape)}")
    if shape.ndim != 1:
        raise _bad(op, f"Input shape should be a vector but received shape {_dims(shape.shape)}")


def _serialize_sparse(sparse_indices: np.ndarray, sparse_values: np.ndarray, sparse_shape: np.ndarray,
                      out_type: str = "string") -> np.ndarray:
    """SerializeSparseOp::Compute."""
    _check_parts("SerializeSparse", sparse_indices, sparse_values, sparse_shape)
    return bytes_array((3,), [tensor_bytes(sparse_indices), tensor_bytes(sparse_values), tensor_bytes(sparse_shape)])


def _serialize_many_sparse(sparse_indices: np.ndarray, sparse_values: np.ndarray, sparse_shape: np.ndarray,
                           out_type: str = "string") -> np.ndarray:
    """SerializeManySparseOp::Compute: one serialized SparseTensor per entry of dimension 0."""
    from simdist.runtime.ops.sparse_core import validate_indices
    op = "SerializeManySparse"
    ind, val, shape = sparse_indices, sparse_values, sparse_shape
    _check_parts(op, ind, val, shape)
    rank = shape.shape[0]
    if rank <= 1:
        raise _bad(op, f"Rank of input SparseTensor should be > 1, but saw rank: {rank}")
    for d in shape.tolist():
        if d < 0:
            raise _bad(op, f"Expected shape dimensions to be non-negative, got {d}")
    if ind.shape[0] != val.shape[0]:
        raise _bad(op, f"indices and values rows (indexing dimension) must match. (indices = {ind.shape[0]}, "
                       f"values = {val.shape[0]})")
    if ind.shape[1] != rank:
        raise _bad(op, "Order length must be SparseTensor rank.")
    try:
        validate_indices(ind, shape, op)
    except errors.InvalidArgumentError as e:
        raise _bad(op, e.message.rsplit(" [Op:", 1)[0]) from None
    n = int(shape[0])
    rows = ind[:, 0]
    tail = tensor_bytes(np.ascontiguousarray(shape[1:]))
    out = []
    for b in range(n):
        sel = rows == b
        out += [tensor_bytes(np.ascontiguousarray(ind[sel, 1:])), tensor_bytes(val[sel]), tail]
    return bytes_array((n, 3), out)


def _from_proto(raw: bytes, op: str) -> np.ndarray:
    """ParseProtoUnlimited, then Tensor::FromProto (its failures: the kernel's two texts)."""
    from google.protobuf.message import DecodeError

    from simdist.runtime import tensor_proto_wire
    from simdist.runtime.tensor_proto_message import _FIELD, make_ndarray
    try:
        proto = tensor_proto_wire.tensor_proto_class().FromString(raw)
    except DecodeError:
        raise _bad(op, "Could not parse serialized proto") from None
    cannot = _bad(op, "Could not construct tensor from proto")
    try:
        dt = dtypes.as_dtype(proto.dtype)
    except (TypeError, ValueError):
        raise cannot from None
    shape = [d.size for d in proto.tensor_shape.dim]
    if proto.tensor_shape.unknown_rank or any(d < 0 for d in shape):
        raise cannot
    n = int(np.prod(shape, dtype=np.int64))
    if dt is dtypes.string:
        if proto.tensor_content:
            vals = _decode_string_list(proto.tensor_content, n)
            if vals is None:
                raise cannot
            return bytes_array(tuple(shape), vals)
        if len(proto.string_val) > n:
            raise cannot
        return make_ndarray(proto).astype(object)
    if proto.tensor_content:
        if len(proto.tensor_content) != n * dt.np.itemsize:
            raise cannot
    else:
        count = len(getattr(proto, _FIELD[dt.name]))
        if (count // 2 if dt.is_complex else count) > n:
            raise cannot
    return np.array(make_ndarray(proto), dtype=dt.np)


def _one(op: str, row: np.ndarray, i: int, dtype: dtypes.DType) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """GetAndValidateSparseTensor: indices a matrix, values a vector of `dtype` and as many, shape a vector of
    as many entries as the indices' columns."""
    from simdist.runtime.ops.args import tf_name
    ind = _from_proto(as_bytes(row[0]), op)
    if ind.ndim != 2:
        raise _bad(op, f"Expected serialized_sparse[{i}, 0] to represent an index matrix but received shape "
                       f"{_dims(ind.shape)}")
    val = _from_proto(as_bytes(row[1]), op)
    if val.ndim != 1:
        raise _bad(op, f"Expected serialized_sparse[{i}, 1] to represent a values vector but received shape "
                       f"{_dims(val.shape)}")
    got = dtypes.string if val.dtype == object else dtypes.as_dtype(val.dtype)
    if got != dtype:
        raise _bad(op, f"Requested SparseTensor of type {tf_name(dtype)} but SparseTensor[{i}].values.dtype() == "
                       f"{tf_name(got)}")
    if ind.shape[0] != val.shape[0]:
        raise _bad(op, f"Expected row counts of SparseTensor[{i}].indices and SparseTensor[{i}].values to match "
                       f"but they do not: {ind.shape[0]} vs. {val.shape[0]}")
    shape = _from_proto(as_bytes(row[2]), op)
    if shape.ndim != 1:
        raise _bad(op, f"Expected serialized_sparse[{i}, 1] to be a shape vector but its shape is "
                       f"{_dims(shape.shape)}")
    if ind.shape[1] != shape.shape[0]:
        raise _bad(op, f"Expected column counts of SparseTensor[{i}].indices to match size of SparseTensor[{i}]"
                       f".shape but they do not: {ind.shape[1]} vs. {shape.shape[0]}")
    if ind.dtype != np.int64 or shape.dtype != np.int64:
        # (TF 2.21 reads them as int64 matrices: another dtype aborts its process in a CHECK)
        raise _bad(op, f"Expected serialized_sparse[{i}]'s indices and shape to be int64")
    return ind, val, shape


def _reshape_indices(ind: np.ndarray, src: list[int], dst: list[int]) -> np.ndarray:
    """reshape_util's Reshape of the indices: each row's linear index in `src`, re-split in `dst` (C++'s
    truncating division)."""
    if src == dst or ind.shape[0] == 0:
        return ind.reshape(ind.shape[0], len(dst)) if src != dst else ind

    def strides(s: list[int]) -> list[int]:
        out = [1] * len(s)
        for j in range(len(s) - 2, -1, -1):
            out[j] = out[j + 1] * s[j + 1]
        return out
    si, so = strides(src), strides(dst)
    out = np.zeros((ind.shape[0], len(dst)), np.int64)
    for r, row in enumerate(ind.tolist()):
        lin = sum(v * s for v, s in zip(row, si))
        for j, s in enumerate(so):
            q = abs(lin) // s if s else 0
            q = -q if lin < 0 else q
            out[r, j] = q
            lin -= q * s
    return out


def _deserialize(op: str, serialized_sparse: np.ndarray, dtype: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """DeserializeSparseOp::Compute (string form), for both ops."""
    s = serialized_sparse
    dt = dtypes.as_dtype(dtype)
    if s.ndim == 0:
        raise _bad(op, f"Serialized sparse should have non-zero rank {_dims(s.shape)}")
    if s.shape[-1] != 3:
        raise _bad(op, f"Serialized sparse should have 3 as the last dimension {_dims(s.shape)}")
    num = int(np.prod(s.shape[:-1], dtype=np.int64))
    if num <= 0:
        raise _bad(op, "Serialized sparse should have at least 1 serialized tensor, but has a zero dimension "
                       f"{_dims(s.shape)}")
    if num == 1 and s.ndim == 1:
        return _one(op, s, 0, dt)
    rows = s.reshape(num, 3)
    inds, vals, dims = [], [], None
    for i in range(num):
        ind, val, shape = _one(op, rows[i], i, dt)
        rank = ind.shape[1]
        if any(d < 0 for d in shape.tolist()):
            # (TF 2.21: a TensorShape of a negative dim aborts its process in a CHECK)
            raise _bad(op, f"Expected shape dimensions to be non-negative, got {min(shape.tolist())}")
        if dims is None:
            dims = shape.tolist()
        elif len(dims) != rank:
            raise _bad(op, f"Inconsistent shape across SparseTensors: rank prior to SparseTensor[{i}] was: "
                           f"{len(dims)} but rank of SparseTensor[{i}] is: {rank}")
        else:
            dims = [max(a, b) for a, b in zip(dims, shape.tolist())]
        inds.append(np.concatenate([np.full((ind.shape[0], 1), i, np.int64), ind], axis=1))
        vals.append(val)
    assert dims is not None
    ind = np.concatenate(inds, axis=0)
    val = np.concatenate(vals).astype(object if dt is dtypes.string else dt.np, copy=False)
    target = [int(d) for d in s.shape[:-1]] + dims
    return _reshape_indices(ind, [num] + dims, target), val, np.array(target, np.int64)


def _deserialize_sparse(serialized_sparse: np.ndarray, dtype: str = "float32") -> tuple:
    return _deserialize("DeserializeSparse", serialized_sparse, dtype)


def _deserialize_many_sparse(serialized_sparse: np.ndarray, dtype: str = "float32") -> tuple:
    return _deserialize("DeserializeManySparse", serialized_sparse, dtype)


def _ser_rule(op: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        from simdist.runtime.ops.args import dtype_error
        for i in (0, 2):
            if dts[i] != dtypes.int64:
                raise dtype_error(op, i, dtypes.int64, dts[i])
        return dtypes.string
    return rule


def _de_rule(op: str) -> Any:
    def rule(dts: Any, attrs: Any) -> tuple:
        from simdist.runtime.ops.args import dtype_error
        from simdist.runtime.ops.nn_rules import attr_error
        if dts[0] != dtypes.string:
            if op == "DeserializeSparse":
                raise attr_error(op, dts[0], "string, variant", attr="Tserialized")
            raise dtype_error(op, 0, dtypes.string, dts[0])
        return (dtypes.int64, dtypes.as_dtype(attrs["dtype"]), dtypes.int64)
    return rule


_WHY = lanes("encodes or decodes protocol messages in Python: no stacked form written")
SERIALIZE_SPARSE = register("SerializeSparse", _serialize_sparse, _ser_rule("SerializeSparse"), kind="gather/scatter",
                            fusion=_WHY, **STRING_COST)
SERIALIZE_MANY_SPARSE = register("SerializeManySparse", _serialize_many_sparse, _ser_rule("SerializeManySparse"),
                                 kind="gather/scatter", fusion=_WHY, **STRING_COST)
DESERIALIZE_SPARSE = register("DeserializeSparse", _deserialize_sparse, _de_rule("DeserializeSparse"), num_outputs=3,
                              kind="gather/scatter", fusion=_WHY, **STRING_COST)
DESERIALIZE_MANY_SPARSE = register("DeserializeManySparse", _deserialize_many_sparse,
                                   _de_rule("DeserializeManySparse"), num_outputs=3, kind="gather/scatter",
                                   fusion=_WHY, **STRING_COST)
for _op in ("SerializeSparse", "SerializeManySparse", "DeserializeSparse", "DeserializeManySparse"):
    no_tf_gradient(_op)
