"""TF's on-disk format of `Dataset.save` (TF 2.21's snapshot version 2, SaveDatasetV2Op; clause
dataset.save-load), encoded without a protobuf dependency.

A saved directory holds `dataset_spec.pb` (the element spec as a StructuredValue:
nested_structure_coder), `snapshot.metadata` (a SnapshotMetadataRecord: run_id, version 2, the
flat dtypes, num_elements, finalized) and `<run_id>/<shard:08d>.shard/<checkpoint:08d>.snapshot`
files: TFRecord framing (readers.py), GZIP/ZLIB over the whole file when compressed, one record
per component of each element, each a TensorProto {dtype, tensor_shape, tensor_content} (strings'
content: the varint32 lengths, then the bytes: EncodeStringList).

Supported element specs: TensorSpec, tuple, list and dict (of them) and None. Dict entries are
written in sorted key order (TF's protobuf map order differs; readers do not depend on it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.spec import TensorShape, TensorSpec
from simdist.runtime.proto_wire import key as _key, read_varint as _read_varint, varint as _varint

__all__ = ["encode_tensor", "decode_tensor", "encode_structure", "decode_structure", "encode_metadata",
           "decode_metadata"]


# --- protobuf wire format ----------------------------------------------------------------------------------


def _int_field(field: int, value: int) -> bytes:
    return _key(field, 0) + _varint(value)


def _bytes_field(field: int, data: bytes) -> bytes:
    return _key(field, 2) + _varint(len(data)) + data


def _fields(data: bytes) -> list[tuple[int, Any]]:
    """The (field number, value) pairs of a message: ints for varints, bytes for length-delimited."""
    out, pos = [], 0
    while pos < len(data):
        key, pos = _read_varint(data, pos)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _read_varint(data, pos)
        elif wire == 2:
            n, pos = _read_varint(data, pos)
            value, pos = data[pos:pos + n], pos + n
        elif wire == 1:
            value, pos = data[pos:pos + 8], pos + 8
        elif wire == 5:
            value, pos = data[pos:pos + 4], pos + 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        out.append((field, value))
    return out


def _signed(n: int) -> int:
    return n - (1 << 64) if n >= 1 << 63 else n


# --- TensorShapeProto, TensorProto ------------------------------------------------------------------------
def _encode_shape(dims: list[int | None] | None) -> bytes:
    if dims is None:
        return _int_field(3, 1)
    body = b""
    for d in dims:
        size = -1 if d is None else int(d)
        body += _bytes_field(2, _int_field(1, size) if size else b"")
    return body


def _decode_shape(data: bytes) -> list[int | None] | None:
    dims: list[int | None] = []
    for field, value in _fields(data):
        if field == 3 and value:
            return None
        if field == 2:
            size = 0
            for f, v in _fields(value):
                if f == 1:
                    size = _signed(v)
            dims.append(None if size == -1 else size)
    return dims


def _dtype_from_enum(enum: int) -> dtypes.DType:
    for name in dir(dtypes):
        dt = getattr(dtypes, name)
        if isinstance(dt, dtypes.DType):
            try:
                if dt.as_datatype_enum == enum:
                    return dt
            except KeyError:
                continue
    raise ValueError(f"unsupported DataType enum {enum}")


def encode_tensor(array: np.ndarray, dt: dtypes.DType) -> bytes:
    """A TensorProto of `array` with its content in tensor_content (Tensor::AsProtoTensorContent)."""
    a = np.asarray(array)
    if dt is dtypes.string:
        items = [x if isinstance(x, bytes) else str(x).encode() for x in a.reshape(-1).tolist()]
        content = b"".join(_varint(len(x)) for x in items) + b"".join(items)
    else:
        content = np.ascontiguousarray(a, dtype=dt.np).tobytes()
    body = _int_field(1, dt.as_datatype_enum) + _bytes_field(2, _encode_shape(list(a.shape)))
    return body + (_bytes_field(4, content) if content else b"")


def decode_tensor(data: bytes) -> tuple[dtypes.DType, np.ndarray]:
    """A TensorProto written with tensor_content: its dtype and value."""
    enum, dims, content = 0, [], b""
    for field, value in _fields(data):
        if field == 1:
            enum = value
        elif field == 2:
            dims = _decode_shape(value) or []
        elif field == 4:
            content = value
        elif field >= 5:
            raise ValueError("a TensorProto with typed value fields (not tensor_content) is not supported")
    dt = _dtype_from_enum(enum)
    shape = tuple(int(d) for d in dims)
    n = int(np.prod(shape)) if shape else 1
    if dt is dtypes.string:
        lengths, pos = [], 0
        for _ in range(n):
            length, pos = _read_varint(content, pos)
            lengths.append(length)
        items = []
        for length in lengths:
            items.append(content[pos:pos + length])
            pos += length
        out = np.empty(n, dtype=object)
        out[:] = items
        return dt, out.reshape(shape)
    return dt, np.frombuffer(content, dtype=dt.np, count=n).reshape(shape).copy()


# --- StructuredValue (nested_structure_coder) ----------------------------------------------------------------
def encode_structure(spec: Any) -> bytes:
    """The StructuredValue of an element spec."""
    if spec is None:
        return _bytes_field(1, b"")
    if isinstance(spec, TensorSpec):
        dims = None if spec.shape.rank is None else spec.shape.as_list()
        body = (_bytes_field(1, spec.name.encode()) if getattr(spec, "name", None) else b"")
        body += _bytes_field(2, _encode_shape(dims)) + _int_field(3, spec.dtype.as_datatype_enum)
        return _bytes_field(33, body)
    if isinstance(spec, tuple) and not hasattr(spec, "_fields"):
        return _bytes_field(52, b"".join(_bytes_field(1, encode_structure(s)) for s in spec))
    if isinstance(spec, list):
        return _bytes_field(51, b"".join(_bytes_field(1, encode_structure(s)) for s in spec))
    if isinstance(spec, dict):
        entries = b"".join(_bytes_field(1, _bytes_field(1, str(k).encode()) + _bytes_field(2, encode_structure(v)))
                           for k, v in sorted(spec.items()))
        return _bytes_field(53, entries)
    raise NotImplementedError(f"simdist's Dataset.save does not encode element specs of type {type(spec).__name__} "
                              "(TensorSpec, tuple, list, dict and None only)")


def decode_structure(data: bytes) -> Any:
    """The element spec a StructuredValue encodes."""
    for field, value in _fields(data):
        if field == 1:
            return None
        if field == 33:
            name, dims, enum = None, [], 0
            for f, v in _fields(value):
                if f == 1:
                    name = v.decode()
                elif f == 2:
                    dims = _decode_shape(v)
                elif f == 3:
                    enum = v
            return TensorSpec(TensorShape(dims), _dtype_from_enum(enum), name=name)
        if field in (51, 52):
            items = [decode_structure(v) for f, v in _fields(value) if f == 1]
            return items if field == 51 else tuple(items)
        if field == 53:
            out = {}
            for f, entry in _fields(value):
                if f == 1:
                    parts = dict(_fields(entry))
                    out[parts[1].decode()] = decode_structure(parts.get(2, b""))
            return out   # (in the file's entry order, as TF's decoder gives it)
        raise NotImplementedError(f"simdist's Dataset.load does not decode StructuredValue field {field} (a "
                                  "TypeSpec other than TensorSpec, tuple, list, dict or None)")
    raise ValueError("an empty StructuredValue")


# --- SnapshotMetadataRecord --------------------------------------------------------------------------------
def encode_metadata(run_id: str, dtype_enums: list[int], num_elements: int) -> bytes:
    """A finalized version-2 SnapshotMetadataRecord (no creation_timestamp: simdist reads no clock)."""
    packed = b"".join(_varint(e) for e in dtype_enums)
    return (_bytes_field(2, run_id.encode()) + _int_field(4, 2) + _bytes_field(5, packed)
            + (_int_field(6, num_elements) if num_elements else b"") + _int_field(1000, 1))


def decode_metadata(data: bytes) -> dict[str, Any]:
    """run_id, version, dtypes (enums), num_elements and finalized of a SnapshotMetadataRecord."""
    out: dict[str, Any] = {"run_id": "", "version": 0, "dtypes": [], "num_elements": 0, "finalized": False}
    for field, value in _fields(data):
        if field == 2:
            out["run_id"] = value.decode()
        elif field == 4:
            out["version"] = _signed(value)
        elif field == 5:
            if isinstance(value, bytes):
                pos = 0
                while pos < len(value):
                    e, pos = _read_varint(value, pos)
                    out["dtypes"].append(e)
            else:
                out["dtypes"].append(value)
        elif field == 6:
            out["num_elements"] = _signed(value)
        elif field == 1000:
            out["finalized"] = bool(value)
    return out

