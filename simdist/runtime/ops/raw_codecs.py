"""`tf.io.decode_raw`, `tf.io.encode_base64`, `tf.io.decode_base64`, `tf.io.decode_compressed` (TF
2.21's DecodeRaw, DecodePaddedRaw, EncodeBase64, DecodeBase64, DecodeCompressed kernels;
python/ops/parsing_ops.py decode_raw).

- decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None): each string read as an
  array of out_type (output shape input.shape + [n]); without fixed_length every string must have
  the first one's length ("DecodeRaw requires input strings to all be the same size, but element 1
  has size 2 != 4": the first's size, then this one's), a multiple of the type's size ("Input to
  DecodeRaw has length 3 that is not a multiple of 2, the size of int16"); with fixed_length
  (DecodePaddedRaw) each string is cut or zero-padded to fixed_length bytes, which must be a
  multiple of the type's size; big-endian values byte-swapped. out_type: half, float, double, int32,
  uint16, uint8, int16, int8, int64, complex64, complex128, bool, bfloat16 (DecodePaddedRaw: no
  complex, no bool), else the attr InvalidArgumentError.
- encode_base64(input, pad=False): web-safe base64 ("-" and "_"), "=" padding only with pad.
- decode_base64(input): web-safe base64 with or without padding; another character (a "+", "/",
  whitespace, "=" inside) is "Invalid character found in base64.", a length of 1 modulo 4 "Base64
  string length cannot be 1 modulo 4.".
- decode_compressed(bytes, compression_type=""): each string inflated as DecodeCompressed's
  ZlibInputStream reads it ("ZLIB", "GZIP": what inflates before the stream ends or the input runs
  out, trailing bytes and a missing checksum ignored, gzip members one after another; a bad stream
  is DataLossError "inflate() failed with error -3: incorrect header check"), "" kept; another
  name (lower case too) InvalidArgumentError "Only ZLIB, ZSTD, GZIP or NONE are supported
  compressions"; "ZSTD" is NotImplementedError (no zstd decoder in simdist).
Not differentiable (TF: NotDifferentiable). Clause io.tensor-codec.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.attr_rules import make_bool as _make_bool   # (the wrappers' make_bool: ops.attr-types)
from simdist.runtime.ops.args import tf_name
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, bytes_array, string_tensor, want_string
from simdist.runtime.tensor import Tensor

__all__ = ["decode_raw", "encode_base64", "decode_base64", "decode_compressed"]

_WHY = lanes("decodes each string's bytes in Python: no stacked form written")
_RAW = ("float16", "float32", "float64", "int32", "uint16", "uint8", "int16", "int8", "int64", "complex64",
        "complex128", "bool", "bfloat16")
_PADDED = _RAW[:9] + ("bfloat16",)
_ENUMS = {"float16": "DT_HALF", "float32": "DT_FLOAT", "float64": "DT_DOUBLE", "int32": "DT_INT32",
          "uint16": "DT_UINT16", "uint8": "DT_UINT8", "int16": "DT_INT16", "int8": "DT_INT8", "int64": "DT_INT64",
          "complex64": "DT_COMPLEX64", "complex128": "DT_COMPLEX128", "bool": "DT_BOOL", "bfloat16": "DT_BFLOAT16"}
_SIGNATURE = {"DecodeRaw": "bytes:string -> output:out_type",
              "DecodePaddedRaw": "input_bytes:string, fixed_length:int32 -> output:out_type"}


def _c_name(name: str) -> str:
    return {"float16": "half"}.get(name, tf_name(dtypes.as_dtype(name)))


def _values(data: bytes, dt: dtypes.DType, little_endian: bool) -> np.ndarray:
    np_dt = dt.np.newbyteorder("<" if little_endian else ">") if dt.np.itemsize > 1 else dt.np
    if dt.is_complex:   # (each part swapped on its own, as the kernel swaps the part-sized words)
        part = np.dtype(f"{'<' if little_endian else '>'}f{dt.np.itemsize // 2}")
        return np.frombuffer(data, part).astype(dt.np.type(0).real.dtype).view(dt.np)
    return np.frombuffer(data, np_dt).astype(dt.np)


def _decode_raw(x: np.ndarray, out_type: str = "uint8", little_endian: bool = True) -> np.ndarray:
    dt = dtypes.as_dtype(out_type)
    flat = [as_bytes(v) for v in x.reshape(-1)]
    size = dt.np.itemsize
    if not flat:
        return np.zeros(x.shape + (0,), dt.np)
    width = len(flat[0])
    for i, s in enumerate(flat):
        if len(s) != width:
            raise errors.InvalidArgumentError(None, None, "DecodeRaw requires input strings to all be the same size, "
                                              f"but element {i} has size {width} != {len(s)} [Op:DecodeRaw]")
    if width % size:
        raise errors.InvalidArgumentError(None, None, f"Input to DecodeRaw has length {width} that is not a multiple "
                                          f"of {size}, the size of {_c_name(dt.name)} [Op:DecodeRaw]")
    out = np.stack([_values(s, dt, little_endian) for s in flat]) if flat else np.zeros((0, 0), dt.np)
    return out.reshape(x.shape + (width // size,))


def _decode_padded(x: np.ndarray, fixed_length: np.ndarray, out_type: str = "uint8",
                   little_endian: bool = True) -> np.ndarray:
    """DecodePaddedRawOp (decode_padded_raw_op.cc): fixed_length a scalar ("k must be scalar, got shape [2]"), a
    multiple of out_type's size, then greater than zero (fz31a: eager seed 3120261206 #137, where a length of -4
    or 0 gave an empty result), each string cut or zero-padded to it."""
    dt = dtypes.as_dtype(out_type)
    if np.ndim(fixed_length) != 0:
        raise errors.InvalidArgumentError(None, None, f"k must be scalar, got shape "
                                          f"[{','.join(map(str, np.shape(fixed_length)))}] [Op:DecodePaddedRaw]")
    n = int(fixed_length)
    size = dt.np.itemsize
    if n % size:
        raise errors.InvalidArgumentError(None, None, f"fixed_length ({n}) must be a multiple of the size of out_type "
                                          f"({size}) [Op:DecodePaddedRaw]")
    if n <= 0:
        raise errors.InvalidArgumentError(None, None, f"fixed_length ({n}) must be greater than zero. "
                                          "[Op:DecodePaddedRaw]")
    rows = [_values(as_bytes(v)[:n].ljust(n, b"\0"), dt, little_endian) for v in x.reshape(-1)]
    out = np.stack(rows) if rows else np.zeros((0, n // size), dt.np)
    return out.reshape(x.shape + (n // size,))


def _raw_rule(op: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        want_string(op, dts, 0, "bytes" if op == "DecodeRaw" else "input_bytes")
        return dtypes.as_dtype(attrs["out_type"])
    return rule


DECODE_RAW = register("DecodeRaw", _decode_raw, _raw_rule("DecodeRaw"), kind="gather/scatter", fusion=_WHY,
                      **STRING_COST)
DECODE_PADDED_RAW = register("DecodePaddedRaw", _decode_padded, _raw_rule("DecodePaddedRaw"), kind="gather/scatter",
                             fusion=_WHY, **STRING_COST)


def _check_out_type(op: str, dt: dtypes.DType, allowed: tuple) -> None:
    if dt.name not in allowed:
        names = ", ".join(_c_name(a) for a in allowed)
        enums = ", ".join(_ENUMS[a] for a in allowed)
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'out_type' of {_c_name(dt.name)} is not in the list of allowed values: "
            f"{names}\n\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; signature={_SIGNATURE[op]}; "
            f"attr=out_type:type,allowed=[{enums}]; attr=little_endian:bool,default=true> [Op:{op}]")


def decode_raw(input_bytes: Any, out_type: Any, little_endian: bool = True, fixed_length: Any = None,
               name: str | None = None) -> Tensor:
    """`tf.io.decode_raw`: each string's bytes as a vector of out_type."""
    dt = dtypes.as_dtype(out_type)
    x = string_tensor(input_bytes, "DecodeRaw", "bytes")
    if fixed_length is None:
        _check_out_type("DecodeRaw", dt, _RAW)
        return dispatch.execute(DECODE_RAW, (x,), {"out_type": dt.name,
                                                   "little_endian": _make_bool(little_endian, "little_endian", "DecodeRaw")})
    _check_out_type("DecodePaddedRaw", dt, _PADDED)
    from simdist.runtime.tensor import convert_to_tensor
    n = convert_to_tensor(fixed_length, dtype=dtypes.int32)
    return dispatch.execute(DECODE_PADDED_RAW, (x, n), {"out_type": dt.name, "little_endian": _make_bool(
        little_endian, "little_endian", "DecodePaddedRaw")})


def _encode(x: np.ndarray, pad: bool = False) -> np.ndarray:
    out = []
    for v in x.reshape(-1):
        text = base64.urlsafe_b64encode(as_bytes(v))
        out.append(text if pad else text.rstrip(b"="))
    return bytes_array(x.shape, out)


_ALPHABET = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _decode_one(s: bytes) -> bytes:
    body = s
    if len(s) % 4 == 0 and s.endswith(b"="):        # (padding only at the end of a whole quantum)
        body = s[:-2] if s.endswith(b"==") else s[:-1]
    if any(c not in _ALPHABET for c in body):
        raise errors.InvalidArgumentError(None, None, "Invalid character found in base64. [Op:DecodeBase64]")
    if len(body) % 4 == 1:
        raise errors.InvalidArgumentError(None, None, "Base64 string length cannot be 1 modulo 4. [Op:DecodeBase64]")
    try:
        return base64.urlsafe_b64decode(body + b"=" * (-len(body) % 4))
    except binascii.Error:
        raise errors.InvalidArgumentError(None, None, "Invalid character found in base64. [Op:DecodeBase64]") from None


def _decode(x: np.ndarray) -> np.ndarray:
    return bytes_array(x.shape, [_decode_one(as_bytes(v)) for v in x.reshape(-1)])


def _string_rule(op: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        want_string(op, dts)
        return dtypes.string
    return rule


ENCODE_BASE64 = register("EncodeBase64", _encode, _string_rule("EncodeBase64"), kind="elementwise",
                         fusion=_WHY, **STRING_COST)
DECODE_BASE64 = register("DecodeBase64", _decode, _string_rule("DecodeBase64"), kind="elementwise",
                         fusion=_WHY, **STRING_COST)
for _op in ("DecodeRaw", "DecodePaddedRaw", "EncodeBase64", "DecodeBase64"):
    NotDifferentiable(_op)


def encode_base64(input: Any, pad: bool = False, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.io.encode_base64`: web-safe base64 of each string ("=" padding only with pad=True)."""
    return dispatch.execute(ENCODE_BASE64, (string_tensor(input, "EncodeBase64"),), {"pad": _make_bool(pad, "pad", "EncodeBase64")})


def decode_base64(input: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.io.decode_base64`: each web-safe base64 string decoded (padding optional)."""
    return dispatch.execute(DECODE_BASE64, (string_tensor(input, "DecodeBase64"),))


_COMPRESSIONS = ("", "ZLIB", "GZIP", "ZSTD")


def _inflate(data: bytes, wbits: int) -> bytes:
    """ZlibInputStream's read of a whole string: what inflates before the stream ends or the input
    runs out (a missing checksum or trailing bytes are not errors; gzip members follow each other)."""
    import zlib
    out = []
    while True:
        d = zlib.decompressobj(wbits)
        try:
            out.append(d.decompress(data))
        except zlib.error as e:   # "Error -3 while decompressing data: incorrect header check"
            code, _, why = str(e).removeprefix("Error ").partition(" while decompressing data: ")
            raise errors.DataLossError(None, None, f"inflate() failed with error {code}: {why} "
                                       "[Op:DecodeCompressed]") from None
        data = d.unused_data
        if not (d.eof and wbits > 16 and data[:2] == b"\x1f\x8b"):
            return b"".join(out)


def _decompress(x: np.ndarray, compression_type: str = "") -> np.ndarray:
    if compression_type not in _COMPRESSIONS:   # (the kernel's constructor: the raw op too; fuzz20 seed 2920261201 #152)
        raise errors.InvalidArgumentError(None, None, "Only ZLIB, ZSTD, GZIP or NONE are supported compressions "
                                          "[Op:DecodeCompressed]")
    if compression_type == "ZSTD":
        raise NotImplementedError("decode_compressed(compression_type='ZSTD'): simdist has no zstd decoder")
    if compression_type == "":
        return x.copy()
    wbits = 15 if compression_type == "ZLIB" else 31
    return bytes_array(x.shape, [_inflate(as_bytes(v), wbits) for v in x.reshape(-1)])


DECODE_COMPRESSED = register("DecodeCompressed", _decompress, _string_rule("DecodeCompressed"), kind="elementwise",
                             fusion=_WHY, **STRING_COST)
NotDifferentiable("DecodeCompressed")


def decode_compressed(bytes: Any, compression_type: str = "", name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.io.decode_compressed`: each string inflated ("ZLIB", "GZIP") or kept ("")."""
    kind = compression_type.decode() if hasattr(compression_type, "decode") else compression_type
    if kind not in _COMPRESSIONS:
        raise errors.InvalidArgumentError(None, None, "Only ZLIB, ZSTD, GZIP or NONE are supported compressions "
                                          "[Op:DecodeCompressed]")
    return dispatch.execute(DECODE_COMPRESSED, (string_tensor(bytes, "DecodeCompressed", "bytes"),),
                            {"compression_type": kind})
