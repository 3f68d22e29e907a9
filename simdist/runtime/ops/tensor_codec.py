"""`tf.io.serialize_tensor` and `tf.io.parse_tensor` (TF 2.21's SerializeTensor and ParseTensor
kernels, core/kernels/parse_tensor_op.cc) over TF's TensorProto bytes (runtime/tensor_proto_wire.py).

SerializeTensor writes Tensor::AsProtoTensorContent: dtype, the shape's dims (always present, a
zero dim without its size), the values as raw little-endian tensor_content (omitted when empty;
bool as bytes, complex as (re, im) pairs, half and bfloat16 as their 16-bit patterns), strings
as string_val: bytes equal TF's. ParseTensor reverses Tensor::FromProto: tensor_content, else the
typed value list (a short list padded with its last value, none: zeros), with the kernel's
InvalidArgumentErrors: a non-scalar input "Expected `serialized` to be a scalar, got shape: [1]",
bytes that are no TensorProto "Could not parse `serialized` as TensorProto, base64: <standard
base64>", a proto that is no tensor (unknown dtype, content of the wrong size, too many values)
"Cannot parse tensor from proto: ...", another dtype than out_type "Type mismatch between parsed
tensor (float) and dtype (int32)". Not differentiable (TF: none registered). Clause io.tensor-codec.
"""

from __future__ import annotations

import base64
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, static_shapes
from simdist.runtime.ops.args import tf_name
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, string_tensor, want_string
from simdist.runtime.tensor import Tensor, convert_to_tensor
from simdist.runtime import tensor_proto_wire

__all__ = ["serialize_tensor", "parse_tensor"]

_WHY = lanes("encodes or decodes a protocol message in Python: no stacked form written")


def _c_name(dt: dtypes.DType) -> str:
    """DataTypeString."""
    return {"float16": "half"}.get(dt.name, tf_name(dt))


def _serialize(x: np.ndarray, enum: int = 0) -> np.ndarray:
    out = np.empty((), dtype=object)
    out[()] = tensor_proto_wire.serialize(x, enum)
    return out


def _cannot(proto: Any) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"Cannot parse tensor from proto: {proto} [Op:ParseTensor]")


def _parse(serialized: np.ndarray, out_type: str = "float32") -> np.ndarray:
    from google.protobuf.message import DecodeError

    from simdist.runtime.tensor_proto_message import make_ndarray
    if serialized.ndim != 0:
        raise errors.InvalidArgumentError(None, None, "Expected `serialized` to be a scalar, got shape: "
                                          f"[{','.join(str(d) for d in serialized.shape)}] [Op:ParseTensor]")
    raw = as_bytes(serialized[()])
    try:
        proto = tensor_proto_wire.tensor_proto_class().FromString(raw)
    except DecodeError:
        raise errors.InvalidArgumentError(None, None, "Could not parse `serialized` as TensorProto, base64: "
                                          f"{base64.b64encode(raw).decode()} [Op:ParseTensor]") from None
    try:
        dt = dtypes.as_dtype(proto.dtype)
    except (TypeError, ValueError):
        raise _cannot(proto) from None
    shape = [d.size for d in proto.tensor_shape.dim]
    if proto.tensor_shape.unknown_rank or any(d < 0 for d in shape):
        raise _cannot(proto)
    n = int(np.prod(shape, dtype=np.int64))
    if proto.tensor_content and dt is not dtypes.string:
        if len(proto.tensor_content) != n * dt.np.itemsize:
            raise _cannot(proto)
    elif dt is dtypes.string:
        if len(proto.string_val) > n:
            raise _cannot(proto)
    else:
        from simdist.runtime.tensor_proto_message import _FIELD
        count = len(getattr(proto, _FIELD[dt.name]))
        if (count // 2 if dt.is_complex else count) > n:
            raise _cannot(proto)
    if dt.name != out_type:
        raise errors.InvalidArgumentError(None, None, f"Type mismatch between parsed tensor ({_c_name(dt)}) and dtype "
                                          f"({_c_name(dtypes.as_dtype(out_type))}) [Op:ParseTensor]")
    arr = make_ndarray(proto)
    if dt is dtypes.string:
        return arr.astype(object)
    return np.array(arr, dtype=dt.np)


def _serialize_rule(dts: Any, attrs: Any) -> dtypes.DType:
    return dtypes.string


def _parse_rule(dts: Any, attrs: Any) -> dtypes.DType:
    want_string("ParseTensor", dts, 0, "serialized")
    return dtypes.as_dtype(attrs["out_type"])


SERIALIZE_TENSOR = register("SerializeTensor", _serialize, _serialize_rule, kind="gather/scatter", fusion=_WHY,
                            **STRING_COST)
PARSE_TENSOR = register("ParseTensor", _parse, _parse_rule, kind="gather/scatter", fusion=_WHY, **STRING_COST)
NotDifferentiable("SerializeTensor")
NotDifferentiable("ParseTensor")


def serialize_tensor(tensor: Any, name: str | None = None) -> Tensor:
    """`tf.io.serialize_tensor`: the tensor as a serialized TensorProto (a string scalar)."""
    t = tensor if isinstance(tensor, Tensor) else convert_to_tensor(tensor)
    return dispatch.execute(SERIALIZE_TENSOR, (t,), {"enum": t.dtype.as_datatype_enum})


def parse_tensor(serialized: Any, out_type: Any, name: str | None = None) -> Tensor:
    """`tf.io.parse_tensor`: the tensor a serialized TensorProto holds (its dtype must be out_type)."""
    dt = dtypes.as_dtype(out_type)
    out = dispatch.execute(PARSE_TENSOR, (string_tensor(serialized, "ParseTensor", "serialized"),),
                           {"out_type": dt.name})
    return static_shapes.mark_rank_unknown(out)
