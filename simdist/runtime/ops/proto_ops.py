"""`tf.io.decode_proto` and `tf.io.encode_proto` (TF 2.21: core/kernels/decode_proto_op.cc, encode_proto_op.cc,
core/util/proto/descriptors.cc; observed on TF 2.21: tests/ops/test_fz56b_proto_tf.py; clause io.tensor-codec).

- The descriptor source: "" or "local://" the descriptors linked into the process (simdist: protobuf's default
  pool, then the private pools of tf.train.Example's and TensorProto's messages), "bytes://<FileDescriptorSet>",
  or the path of a file holding a serialized FileDescriptorSet. An unknown type is InvalidArgumentError "No
  descriptor found for message type T", an unknown field "Unknown field: f in message type T", field_names and
  output_types of different lengths "field_names and output_types attributes must have the same length".
- decode_proto(bytes, message_type, field_names, output_types, descriptor_source, message_format, sanitize):
  each field's output type must be one its wire type converts to (`_ALLOWED`, "Unexpected output type for
  T.f: int32 to DT_FLOAT"); the messages (binary, or text with message_format="text") are parsed ("CountFields:
  Failed to consume entire buffer" DataLossError for bytes that do not parse); sizes int32 [batch..., fields] (a
  repeated field's count, a singular one's presence), each value [batch..., max(1, the largest count)] padded with
  the field's default (a message, group or bytes field its serialized bytes).
- encode_proto(sizes, values, field_names, message_type, descriptor_source): sizes [batch..., fields], values
  [batch..., n] each; each value's dtype must fit its field ("Incompatible type for field f.  Saw dtype: float but
  field type is: string"), a size above the value's last dimension is "Size to write must not be larger than value
  tensor; but saw: 2 > 1 at message 0 field 0"; the messages are protobuf's serialization of the fields set
  (field-number order, packed as the descriptor says).
Not modelled: `sanitize` (TF's cleaning of string values) is accepted and ignored; a proto3 scalar without
presence encoded with its zero value is left out of the message (TF's writer keeps it).
"""

from __future__ import annotations

import os
from typing import Any, Sequence

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["decode_proto", "encode_proto"]

builtins_bytes = type(b"")   # (decode_proto's first parameter is named `bytes`, as TF's)

# (FieldDescriptor.TYPE_* -> the dtypes decode_proto_op.cc's CheckOutputType lets it convert to; observed on TF
# 2.21 for int32 -> int64, double, uint64, bool, enum, string, bytes and messages)
_ALLOWED = {1: ("float64",), 2: ("float32", "float64"), 3: ("int64",), 4: ("uint64",), 5: ("int32", "int64"),
            6: ("uint64",), 7: ("uint32", "uint64"), 8: ("bool",), 9: ("string",), 10: ("string",),
            11: ("string",), 12: ("string",), 13: ("uint32", "uint64"), 14: ("int32", "int64"),
            15: ("int32", "int64"), 16: ("int64",), 17: ("int32", "int64"), 18: ("int64",)}
# (the messages name a field's C++ type, FieldDescriptor::CppTypeName: fixed64 is "uint64", bytes "string";
# observed on TF 2.21)
_TYPE_NAMES = {1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "uint64", 7: "uint32", 8: "bool",
               9: "string", 10: "message", 11: "message", 12: "string", 13: "uint32", 14: "enum", 15: "int32",
               16: "int64", 17: "int32", 18: "int64"}
_DT_NAMES = {"float32": "DT_FLOAT", "float64": "DT_DOUBLE", "int32": "DT_INT32", "int64": "DT_INT64",
             "uint32": "DT_UINT32", "uint64": "DT_UINT64", "bool": "DT_BOOL", "string": "DT_STRING"}
_C_NAMES = {"float32": "float", "float64": "double"}


def _bad(op: str, msg: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{msg} [Op:{op}]")


def _pool(op: str, source: Any) -> list:
    """The descriptor pools `source` names, in lookup order."""
    from google.protobuf import descriptor_pb2, descriptor_pool
    if isinstance(source, builtins_bytes) and source.startswith(b"bytes://"):
        src, raw = "bytes://", source[len(b"bytes://"):]
    else:
        src = source.decode("latin-1") if isinstance(source, builtins_bytes) else str(source)
        raw = src[len("bytes://"):].encode("latin-1") if src.startswith("bytes://") else None
    if src in ("", "local://"):
        from simdist.runtime import example_proto, tensor_proto_wire
        pools = [descriptor_pool.Default()]
        pools.append(example_proto.message_class("Example").DESCRIPTOR.file.pool)
        pools.append(tensor_proto_wire.tensor_proto_class().DESCRIPTOR.file.pool)
        return pools
    if raw is None:
        if not os.path.exists(src):
            raise errors.NotFoundError(None, None, f"{src}; No such file or directory [Op:{op}]")
        with open(src, "rb") as fh:
            raw = fh.read()
    fds = descriptor_pb2.FileDescriptorSet()
    try:
        fds.ParseFromString(raw)
    except Exception:   # noqa: BLE001 - protobuf's DecodeError: TF's message
        raise _bad(op, f"Unable to parse FileDescriptorSet from descriptor_source {src[:40]!r}") from None
    pool = descriptor_pool.DescriptorPool()
    for f in fds.file:
        pool.Add(f)
    return [pool]


def _message(op: str, pools: list, message_type: str) -> Any:
    for pool in pools:
        try:
            return pool.FindMessageTypeByName(message_type)
        except KeyError:
            continue
    raise _bad(op, f"No descriptor found for message type {message_type}")


def _fields(op: str, desc: Any, names: Sequence[str]) -> list:
    out = []
    for n in names:
        f = desc.fields_by_name.get(n)
        if f is None:
            raise _bad(op, f"Unknown field: {n} in message type {desc.full_name}")
        out.append(f)
    return out


def _repeated(f: Any) -> bool:
    return bool(f.is_repeated) if hasattr(f, "is_repeated") else f.label == f.LABEL_REPEATED


def _items(msg: Any, f: Any) -> list:
    """The field's values in one message: every element of a repeated field, a singular one's value where it is
    present (its presence: HasField, or a value other than its default without one)."""
    v = getattr(msg, f.name)
    if _repeated(f):
        vals = list(v)
    elif f.has_presence:
        vals = [v] if msg.HasField(f.name) else []
    else:
        vals = [v] if v != f.default_value else []
    if f.type in (10, 11):
        return [m.SerializeToString(deterministic=True) for m in vals]
    return vals


def _default(f: Any) -> Any:
    """The padding: a singular field's default, a repeated one's type's zero (observed: public_dependency 0)."""
    if f.type in (9, 10, 11, 12):
        if _repeated(f) or f.type != 9 and f.type != 12:
            return b""
    elif _repeated(f):
        return False if f.type == 8 else 0
    d = f.default_value
    return d.encode() if isinstance(d, str) else d


def decode_proto(bytes: Any, message_type: Any, field_names: Any, output_types: Any,  # noqa: A002
                 descriptor_source: Any = "local://", message_format: Any = "binary", sanitize: bool = False,
                 name: str | None = None) -> tuple:
    """`tf.io.decode_proto`: (sizes, [values per field]) of the serialized messages (module docstring)."""
    op = "DecodeProtoV2"
    from google.protobuf import message_factory, text_format
    names = [n.decode() if isinstance(n, builtins_bytes) else str(n) for n in field_names]
    types = [dtypes.as_dtype(t) for t in output_types]
    if len(names) != len(types):
        raise _bad(op, "field_names and output_types attributes must have the same length")
    mtype = message_type.decode() if isinstance(message_type, builtins_bytes) else str(message_type)
    desc = _message(op, _pool(op, descriptor_source), mtype)
    fields = _fields(op, desc, names)
    for f, t in zip(fields, types):
        if t.name not in _ALLOWED.get(f.type, ()):
            raise _bad(op, f"Unexpected output type for {f.full_name}: {_TYPE_NAMES[f.type]} to "
                       f"{_DT_NAMES.get(t.name, 'DT_' + t.name.upper())}")
    fmt = message_format.decode() if isinstance(message_format, builtins_bytes) else str(message_format)
    x = bytes if isinstance(bytes, Tensor) else convert_to_tensor(bytes, dtype=dtypes.string)
    batch = x._v.shape
    cls = message_factory.GetMessageClass(desc)
    per: list[list[list]] = []   # (message, field) -> values
    for raw in x._v.reshape(-1).tolist():
        m = cls()
        try:
            if fmt == "text":
                text_format.Parse(raw.decode() if isinstance(raw, builtins_bytes) else raw, m)
            else:
                m.ParseFromString(raw)
        except Exception:   # noqa: BLE001 - protobuf's error: TF's
            raise errors.DataLossError(None, None, f"CountFields: Failed to consume entire buffer [Op:{op}]") \
                from None
        per.append([_items(m, f) for f in fields])
    sizes = np.array([[len(vs) for vs in row] for row in per], np.int32).reshape(batch + (len(fields),))
    values = []
    for j, (f, t) in enumerate(zip(fields, types)):
        width = max([1] + [len(row[j]) for row in per])
        npd = object if t.name == "string" else t.as_numpy_dtype
        arr = np.empty((len(per), width), dtype=npd)
        arr[...] = _default(f) if t.name != "string" else _default(f) or b""
        for i, row in enumerate(per):
            vs = row[j]
            if vs:
                if t.name == "string":
                    arr[i, :len(vs)] = [v.encode() if isinstance(v, str) else v for v in vs]
                else:
                    arr[i, :len(vs)] = np.array([int(v) if t.is_integer else v for v in vs]).astype(npd)
        values.append(convert_to_tensor(arr.reshape(batch + (width,)), dtype=t))
    return convert_to_tensor(sizes, dtype=dtypes.int32), values


def encode_proto(sizes: Any, values: Any, field_names: Any, message_type: Any, descriptor_source: Any = "local://",
                 name: str | None = None) -> Tensor:
    """`tf.io.encode_proto`: the serialized messages of the values (module docstring)."""
    op = "EncodeProto"
    from google.protobuf import message_factory
    names = [n.decode() if isinstance(n, bytes) else str(n) for n in field_names]
    mtype = message_type.decode() if isinstance(message_type, bytes) else str(message_type)
    desc = _message(op, _pool(op, descriptor_source), mtype)
    fields = _fields(op, desc, names)
    s = sizes if isinstance(sizes, Tensor) else convert_to_tensor(sizes, dtype=dtypes.int32)
    vals = [v if isinstance(v, Tensor) else convert_to_tensor(v) for v in values]
    for f, v in zip(fields, vals):
        if v.dtype.name not in _ALLOWED.get(f.type, ()):
            dt = _C_NAMES.get(v.dtype.name, v.dtype.name)
            raise _bad(op, f"Incompatible type for field {f.name}.  Saw dtype: {dt} but field type is: "
                       f"{_TYPE_NAMES[f.type]}")
    batch = s._v.shape[:-1]
    sv = s._v.reshape(-1, len(fields)) if len(fields) else s._v.reshape(-1, 0)
    flat = [v._v.reshape(-1, v._v.shape[-1]) for v in vals]
    cls = message_factory.GetMessageClass(desc)
    out = []
    for i in range(sv.shape[0]):
        m = cls()
        for j, f in enumerate(fields):
            n = int(sv[i, j])
            if n > flat[j].shape[1]:
                raise _bad(op, f"Size to write must not be larger than value tensor; but saw: {n} > "
                           f"{flat[j].shape[1]} at message {i} field {j}")
            items = [_py(f, x) for x in flat[j][i, :n].tolist()]
            if _repeated(f):
                target = getattr(m, f.name)
                if f.type in (10, 11):
                    for x in items:
                        target.add().ParseFromString(x)
                else:
                    target.extend(items)
            elif items:
                if f.type in (10, 11):
                    getattr(m, f.name).ParseFromString(items[-1])
                else:
                    setattr(m, f.name, items[-1])
        out.append(m.SerializeToString(deterministic=True))
    arr = np.empty(len(out), dtype=object)
    arr[:] = out
    return convert_to_tensor(arr.reshape(batch), dtype=dtypes.string)


def _py(f: Any, x: Any) -> Any:
    """A value as the field's Python type (a string field's bytes decoded; an int32 field's int64 wrapped)."""
    if f.type == 9:
        return x.decode("utf-8") if isinstance(x, bytes) else x
    if f.type in (5, 15, 17) and isinstance(x, int):
        return int(np.int64(x).astype(np.int32))
    if f.type in (13, 7) and isinstance(x, int):
        return int(np.int64(x).astype(np.uint32))
    if f.type in (3, 16, 18) and isinstance(x, int):
        return int(np.uint64(x % 2**64).astype(np.int64)) if x >= 2**63 else x
    if f.type in (4, 6) and isinstance(x, int):
        return x % 2**64
    return x
