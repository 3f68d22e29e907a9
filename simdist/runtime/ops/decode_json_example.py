"""TF's DecodeJSONExample (a raw op only; tensorflow/core/kernels/example_parsing_ops.cc DecodeJSONExampleOp, clause
ops.raw-ops): each string, a tf.train.Example in protobuf's JSON mapping, as the
binary Example protobuf's JsonToBinaryString writes it, element for element (the output has the input's shape).

What TF 2.21 writes (observed): the fields in the order the JSON gives them, each occurrence written (a repeated
"features" twice); a map entry per "feature" key in the JSON's order (a key given twice is an error), its value
always written when not null (an empty Feature as an empty message); a Feature's one kind ("bytesList" or
"bytes_list", "floatList", "int64List", ...; a second kind is an error) written even when empty; list values
unpacked (float as fixed32, int64 as varint, bytes as length-delimited), a lone value taken as a list of one. A
JSON null omits its field. int64 values are integral JSON numbers or strings in int64's range; float values
numbers or strings (with "NaN", "Infinity", "-Infinity"), a finite value rounding to float's infinity an error;
bytes values standard or web-safe base64, padding optional. Other JSON (a syntax error, trailing characters, an
unknown field, a value of the wrong JSON type) is InvalidArgumentError "Error while parsing JSON: ..." (protobuf's
texts, with whitespace protobuf varies on purpose, are not copied). TF registers no gradient (string output)."""

from __future__ import annotations

import base64
import json
import re
import struct
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, want_string
from simdist.runtime.proto_wire import length_delimited as _field, varint as _varint

__all__ = ["DECODE_JSON_EXAMPLE", "json_to_example_bytes"]

_OP = "DecodeJSONExample"
_INT = re.compile(r"-?(0|[1-9][0-9]*)")
_KINDS = {"bytesList": 1, "bytes_list": 1, "floatList": 2, "float_list": 2, "int64List": 3, "int64_list": 3}


class _Bad(Exception):
    """A JSON text protobuf's parser refuses."""




def _pairs(v: Any, where: str) -> list[tuple[str, Any]]:
    if not isinstance(v, _Obj):
        raise _Bad(f"{where}: expected an object")
    return v.pairs


class _Obj:
    """A JSON object's (key, value) pairs in their order, repeats kept."""
    __slots__ = ("pairs",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        self.pairs = pairs


def _int64(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise _Bad("int64: expected number or string")
    if isinstance(v, str):
        if not _INT.fullmatch(v.strip()):
            raise _Bad("int64: invalid integer")
        v = int(v.strip())
    elif isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")) or v != int(v):
            raise _Bad("int64: expected integer, but JSON number had fractional part")
        v = int(v)
    if not -(1 << 63) <= v < (1 << 63):
        raise _Bad("int64: JSON number out of range for int")
    return v


def _float(v: Any) -> bytes:
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise _Bad("float: expected number or string")
    if isinstance(v, str):
        special = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}
        if v in special:
            return struct.pack("<f", special[v])
        try:
            d = float(v)
        except ValueError:
            raise _Bad("float: invalid number") from None
    else:
        d = float(v)
    f = np.float32(d) if abs(d) < 3.5e38 else np.float32(np.inf if d > 0 else -np.inf)
    if np.isinf(f) and not np.isinf(d):
        raise _Bad("float: float out of range")
    return struct.pack("<f", f)


def _bytes(v: Any) -> bytes:
    if not isinstance(v, str):
        raise _Bad("bytes: expected string")
    text = v.replace("-", "+").replace("_", "/").rstrip("=")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except ValueError:
        raise _Bad("bytes: corrupt base64") from None


def _list(kind: int, v: Any) -> bytes:
    out = b""
    for key, val in _pairs(v, "list"):
        if key != "value":
            raise _Bad(f"no such field: '{key}'")
        if val is None:
            continue
        for item in val if isinstance(val, list) else [val]:
            if kind == 1:
                out += _field(1, _bytes(item))
            elif kind == 2:
                out += b"\x0d" + _float(item)
            else:
                out += b"\x08" + _varint(_int64(item))
    return out


def _feature(v: Any) -> bytes:
    out, seen = b"", False
    for key, val in _pairs(v, "Feature"):
        if key not in _KINDS:
            raise _Bad(f"no such field: '{key}'")
        if seen:
            raise _Bad(f"'{key}' has already been set (either directly or as part of a oneof)")
        seen = True
        if val is not None:
            out += _field(_KINDS[key], _list(_KINDS[key], val))
    return out


def _features(v: Any) -> bytes:
    out = b""
    for key, val in _pairs(v, "Features"):
        if key != "feature":
            raise _Bad(f"no such field: '{key}'")
        if val is None:
            continue
        keys: list[str] = []
        for name, feat in _pairs(val, "feature map"):
            if name in keys:
                raise _Bad("got unexpectedly-repeated repeated map key")
            keys.append(name)
            entry = _field(1, name.encode("utf-8", "surrogatepass"))
            if feat is not None:
                entry += _field(2, _feature(feat))
            out += _field(1, entry)
    return out


def _refuse_constant(name: str) -> Any:
    raise _Bad(f"unexpected character: '{name[0]}'")


def json_to_example_bytes(text: bytes) -> bytes:
    """One JSON Example as binary Example bytes (JsonToBinaryString with TF's Example type); _Bad when refused."""
    try:
        doc = json.loads(text.decode("utf-8"), object_pairs_hook=_Obj, parse_constant=_refuse_constant)
    except (ValueError, UnicodeDecodeError) as e:
        raise _Bad(str(e)) from None
    out = b""
    for key, val in _pairs(doc, "Example"):
        if key != "features":
            raise _Bad(f"no such field: '{key}'")
        if val is not None:
            out += _field(1, _features(val))
    return out


def _decode(json_examples: np.ndarray) -> np.ndarray:
    """DecodeJSONExampleOp::Compute: element by element."""
    flat = json_examples.reshape(-1)
    out = np.empty(flat.shape, dtype=object)
    for i, v in enumerate(flat):
        try:
            out[i] = json_to_example_bytes(as_bytes(v))
        except _Bad as e:
            raise errors.InvalidArgumentError(
                None, None, f"{{{{function_node __wrapped__{_OP}_device_/job:localhost/replica:0/task:0/device:CPU:0}}}}"
                f" Error while parsing JSON: invalid JSON in type.googleapis.com/tensorflow.Example: {e} [Op:{_OP}]") \
                from None
    return out.reshape(json_examples.shape)


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    want_string(_OP, dts, 0, "json_examples")
    return dtypes.string


DECODE_JSON_EXAMPLE = register(_OP, _decode, _rule, kind="io",
                               fusion=lanes("parses JSON in Python: no stacked form written"), **STRING_COST)
no_tf_gradient(_OP)
