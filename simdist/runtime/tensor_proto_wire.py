"""TF's TensorProto (tensorflow/core/framework/tensor.proto, tensor_shape.proto) as a protobuf message
class, for tf.io.serialize_tensor / parse_tensor's bytes.

The descriptor is written out field for field from TF 2.21's .proto files (dtype as its varint
enum value, tensor_shape's dims, version_number, tensor_content and every typed value list with
its number and packing; resource_handle_val, variant_val and float8_val are left out: protobuf
keeps them as unknown fields, and simdist has no resource or variant tensors), in a private
descriptor pool, built on first use (protobuf's import is not free). Clause io.tensor-codec.
"""

from __future__ import annotations

import functools
from typing import Any

__all__ = ["tensor_proto_class"]

_OPTIONAL, _REPEATED = 1, 3
_DOUBLE, _FLOAT, _INT64, _UINT64, _INT32, _BOOL, _STRING, _MESSAGE, _BYTES, _UINT32 = 1, 2, 3, 4, 5, 8, 9, 11, 12, 13

# TensorProto's fields: (name, number, label, type, packed)
_TENSOR_FIELDS = (("dtype", 1, _OPTIONAL, _INT32, False), ("version_number", 3, _OPTIONAL, _INT32, False),
                  ("tensor_content", 4, _OPTIONAL, _BYTES, False), ("half_val", 13, _REPEATED, _INT32, True),
                  ("float_val", 5, _REPEATED, _FLOAT, True), ("double_val", 6, _REPEATED, _DOUBLE, True),
                  ("int_val", 7, _REPEATED, _INT32, True), ("string_val", 8, _REPEATED, _BYTES, False),
                  ("scomplex_val", 9, _REPEATED, _FLOAT, True), ("int64_val", 10, _REPEATED, _INT64, True),
                  ("bool_val", 11, _REPEATED, _BOOL, True), ("dcomplex_val", 12, _REPEATED, _DOUBLE, True),
                  ("uint32_val", 16, _REPEATED, _UINT32, True), ("uint64_val", 17, _REPEATED, _UINT64, True))


@functools.lru_cache(maxsize=None)
def tensor_proto_class() -> type:
    """The protobuf class of `tensorflow.TensorProto` (a private pool)."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    fd = descriptor_pb2.FileDescriptorProto(name="tensorflow/core/framework/tensor.proto", package="tensorflow",
                                            syntax="proto3")
    shape = fd.message_type.add(name="TensorShapeProto")
    dim = shape.nested_type.add(name="Dim")
    dim.field.add(name="size", number=1, label=_OPTIONAL, type=_INT64)
    dim.field.add(name="name", number=2, label=_OPTIONAL, type=_STRING)
    shape.field.add(name="dim", number=2, label=_REPEATED, type=_MESSAGE, type_name=".tensorflow.TensorShapeProto.Dim")
    shape.field.add(name="unknown_rank", number=3, label=_OPTIONAL, type=_BOOL)
    tensor = fd.message_type.add(name="TensorProto")
    for name, number, label, ftype, packed in _TENSOR_FIELDS:
        f = tensor.field.add(name=name, number=number, label=label, type=ftype)
        if packed:
            f.options.packed = True
    tensor.field.add(name="tensor_shape", number=2, label=_OPTIONAL, type=_MESSAGE,
                     type_name=".tensorflow.TensorShapeProto")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("tensorflow.TensorProto"))


def serialize(arr: Any, enum: int) -> bytes:
    """The bytes of SerializeTensor: Tensor::AsProtoTensorContent (strings: AsProtoField's string_val)."""
    import numpy as np
    proto = tensor_proto_class()()
    proto.dtype = enum
    proto.tensor_shape.SetInParent()
    for d in arr.shape:
        proto.tensor_shape.dim.add(size=int(d))
    if arr.dtype == object:
        proto.string_val.extend(v if isinstance(v, bytes) else str(v).encode() for v in arr.reshape(-1))
    else:
        proto.tensor_content = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<"), copy=False).tobytes()
    return proto.SerializeToString()
