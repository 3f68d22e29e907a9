"""TF's stateless summary kernels (raw ops only; tensorflow/core/kernels/summary_op.cc, summary_tensor_op.cc,
lib/histogram/histogram.cc; clause ops.raw-ops): ScalarSummary, HistogramSummary, MergeSummary,
TensorSummary and TensorSummaryV2, each a scalar string, a serialized tensorflow.Summary written field by field as protobuf's C++
serializer writes it (fields in number order; proto3: empty strings and zero scalars omitted, a oneof member and a
set message always written).

ScalarSummary: tags and values of the same shape, or both scalars ("tags and values are not the same shape: [1] !=
[2] (tag 'a')", the tag named when there is one); a Value {tag, simple_value: float(value)} per element.
HistogramSummary: tag a scalar ("tags must be scalar"); values added in order to a histogram::Histogram over TF's
default buckets (1e-12 growing by 10% to 1e20, their negatives, 0 and ±DBL_MAX; each value into the bucket
upper_bound finds), NaN ("Nan in summary histogram for: HistogramSummary") and infinities ("Infinity in Histogram
for: HistogramSummary") refused; min, max, num, sum, sum of squares in double, then the buckets with each run of
empty ones collapsed into its last (none at all: one empty bucket at DBL_MAX). MergeSummary: every input string
parsed as a Summary ("Could not parse one of the summary inputs"), their Values in order, a non-empty tag twice
"Duplicate tag a found in summary inputs " (a Value is kept as its bytes: TF re-serializes it, which gives the same
bytes for a Value in canonical field order). TensorSummaryV2: tag and metadata scalars ("tag must be scalar",
"serialized_summary_metadata must be scalar"); a Value {tag, tensor: the TensorProto (AsProtoTensorContent, a
string tensor's values as string_val), metadata: the metadata parsed, as far as it parses, and re-serialized}.
TensorSummary (V1): a Value {node_name "TensorSummary", tensor} (its description, labels and display_name unused).
TF declares each not differentiable (logging_ops.py: a tape's gradient through one is None)."""

from __future__ import annotations

import bisect
import functools
import struct
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, want_string
from simdist.runtime.proto_wire import length_delimited as _ld, varint as _varint

__all__ = ["SCALAR_SUMMARY", "HISTOGRAM_SUMMARY", "MERGE_SUMMARY", "TENSOR_SUMMARY", "TENSOR_SUMMARY_V2"]

_DBL_MAX = float(np.finfo(np.float64).max)


def _bad(op: str, text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{{{{function_node __wrapped__{op}_device_/job:localhost/"
                                       f"replica:0/task:0/device:CPU:0}}}} {text} [Op:{op}]")




def _string(number: int, text: bytes) -> bytes:
    """A proto3 string field: omitted when empty."""
    return _ld(number, text) if text else b""


def _scalar_out(raw: bytes) -> np.ndarray:
    out = np.empty((), dtype=object)
    out[()] = raw
    return out


def _dims(shape: Any) -> str:
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


# --- ScalarSummary -------------------------------------------------------------------------------------------------

def _scalar_summary(tags: np.ndarray, values: np.ndarray) -> np.ndarray:
    """SummaryScalarOp::Compute."""
    op = "ScalarSummary"
    if not (tags.shape == values.shape or (tags.ndim == 0 and values.ndim == 0)):
        single = f" (tag '{as_bytes(tags.reshape(-1)[0]).decode('utf-8', 'replace')}')" if tags.size == 1 else ""
        raise _bad(op, f"tags and values are not the same shape: {_dims(tags.shape)} != {_dims(values.shape)}{single}")
    body = b""
    with np.errstate(over="ignore"):   # (static_cast<float>: beyond float's range is an infinity)
        floats = values.reshape(-1).astype(np.float32)
    for tag, v in zip(tags.reshape(-1), floats):
        value = _string(1, as_bytes(tag)) + b"\x15" + struct.pack("<f", v)
        body += _ld(1, value)
    return _scalar_out(body)


# --- HistogramSummary ----------------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _default_limits() -> tuple[float, ...]:
    """histogram.cc InitDefaultBucketsInner."""
    pos, v = [], 1.0e-12
    while v < 1.0e20:
        pos.append(v)
        v *= 1.1
    pos.append(_DBL_MAX)
    return tuple([-x for x in reversed(pos)] + [0.0] + pos)


def _doubles(number: int, values: list[float]) -> bytes:
    """A packed repeated double field (omitted when empty)."""
    return _ld(number, struct.pack(f"<{len(values)}d", *values)) if values else b""


def _double(number: int, v: float) -> bytes:
    """A proto3 double field: omitted when it is +0.0."""
    return b"" if v == 0.0 and struct.pack("<d", v) == b"\0" * 8 else _varint(number << 3 | 1) + struct.pack("<d", v)


def _histogram_proto(values: list[float]) -> bytes:
    """histogram::Histogram's Add of each value, then EncodeToProto(preserve_zero_buckets=false)."""
    limits = _default_limits()
    buckets = [0.0] * len(limits)
    lo, hi, num, total, squares = limits[-1], -_DBL_MAX, 0.0, 0.0, 0.0
    for v in values:
        buckets[bisect.bisect_right(limits, v)] += 1.0
        lo, hi = min(lo, v), max(hi, v)
        num += 1.0
        total += v
        squares += v * v
    out_limits, out_counts = [], []
    i = 0
    while i < len(buckets):
        end, count = limits[i], buckets[i]
        i += 1
        if count <= 0.0:
            while i < len(buckets) and buckets[i] <= 0.0:
                end, count = limits[i], buckets[i]
                i += 1
        out_limits.append(end)
        out_counts.append(count)
    if not out_limits:
        out_limits, out_counts = [_DBL_MAX], [0.0]
    return (_double(1, lo) + _double(2, hi) + _double(3, num) + _double(4, total) + _double(5, squares)
            + _doubles(6, out_limits) + _doubles(7, out_counts))


def _histogram_summary(tag: np.ndarray, values: np.ndarray) -> np.ndarray:
    """SummaryHistoOp::Compute."""
    op = "HistogramSummary"
    if tag.ndim:
        raise _bad(op, "tags must be scalar")
    flat = [float(v) for v in values.reshape(-1).astype(np.float64)]
    for v in flat:
        if v != v:
            raise _bad(op, f"Nan in summary histogram for: {op}")
        if v in (float("inf"), float("-inf")):
            raise _bad(op, f"Infinity in Histogram for: {op}")
    value = _string(1, as_bytes(tag[()])) + _ld(5, _histogram_proto(flat))
    return _scalar_out(_ld(1, value))


# --- protobuf wire reading (MergeSummary, TensorSummaryV2's metadata) ---------------------------------------------

class _Malformed(Exception):
    """Bytes that are no protobuf message."""


def _read_varint(raw: bytes, pos: int) -> tuple[int, int]:
    n, shift = 0, 0
    while True:
        if pos >= len(raw) or shift > 63:
            raise _Malformed
        b = raw[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n & ((1 << 64) - 1), pos


def _fields(raw: bytes) -> list[tuple[int, int, Any, bytes]]:
    """The message's fields in order: (number, wire type, value, the field's own bytes); _Malformed on a bad tag,
    a truncated value, an unmatched group or a wire type 6/7. (A partial list: the _Malformed's `args[0]`.)"""
    out: list[tuple[int, int, Any, bytes]] = []
    pos = 0
    while pos < len(raw):
        start = pos
        try:
            key, pos = _read_varint(raw, pos)
            number, wt = key >> 3, key & 7
            if number == 0:
                raise _Malformed
            if wt == 0:
                value, pos = _read_varint(raw, pos)
            elif wt == 1 or wt == 5:
                size = 8 if wt == 1 else 4
                if pos + size > len(raw):
                    raise _Malformed
                value, pos = raw[pos:pos + size], pos + size
            elif wt == 2:
                size, pos = _read_varint(raw, pos)
                if pos + size > len(raw):
                    raise _Malformed
                value, pos = raw[pos:pos + size], pos + size
            elif wt == 3:
                pos = _skip_group(raw, pos, number)
                value = None
            else:
                raise _Malformed
        except _Malformed:
            raise _Malformed(out) from None
        out.append((number, wt, value, raw[start:pos]))
    return out


def _skip_group(raw: bytes, pos: int, number: int) -> int:
    while True:
        key, pos = _read_varint(raw, pos)
        n, wt = key >> 3, key & 7
        if wt == 4:
            if n != number:
                raise _Malformed
            return pos
        if n == 0:
            raise _Malformed
        if wt == 0:
            _, pos = _read_varint(raw, pos)
        elif wt in (1, 5):
            pos += 8 if wt == 1 else 4
        elif wt == 2:
            size, pos = _read_varint(raw, pos)
            pos += size
        elif wt == 3:
            pos = _skip_group(raw, pos, n)
        else:
            raise _Malformed
        if pos > len(raw):
            raise _Malformed


# Summary.Value's message fields (image, histo, audio, tensor, metadata): parsed in turn by TF
_VALUE_MESSAGES = (4, 5, 6, 8, 9)


def _value_tag(raw: bytes) -> bytes:
    """A Summary.Value's tag (its last tag field), checking that the Value and its messages parse."""
    tag = b""
    for number, wt, value, _ in _fields(raw):
        if wt == 2 and number == 1:
            try:
                value.decode("utf-8")
            except UnicodeDecodeError:
                raise _Malformed([]) from None
            tag = value
        elif wt == 2 and number in _VALUE_MESSAGES:
            _fields(value)
    return tag


def _merge_summary(*inputs: np.ndarray) -> np.ndarray:
    """SummaryMergeOp::Compute."""
    op = "MergeSummary"
    seen: set[bytes] = set()
    body = b""
    for t in inputs:
        for s in t.reshape(-1):
            try:
                values = [v for number, wt, v, _ in _fields(as_bytes(s)) if number == 1 and wt == 2]
                tags = [_value_tag(v) for v in values]
            except _Malformed:
                raise _bad(op, "Could not parse one of the summary inputs") from None
            for tag, v in zip(tags, values):
                if tag and tag in seen:
                    raise _bad(op, f"Duplicate tag {tag.decode()} found in summary inputs ")
                seen.add(tag)
                body += _ld(1, v)
    return _scalar_out(body)


# --- TensorSummaryV2 -----------------------------------------------------------------------------------------------

def _canonical(fields: list[tuple[int, int, Any, bytes]], known: dict[int, str]) -> bytes:
    """A proto3 message re-serialized: its known fields (number -> "string" | "varint" | "message:<kind>") in number
    order, the last occurrence of each (a message's occurrences merged), defaults omitted, then the unknown fields
    (a known number of another wire type is unknown) in their order."""
    last: dict[int, Any] = {}
    unknown = b""
    for number, wt, value, raw in fields:
        kind = known.get(number)
        want = 0 if kind == "varint" else 2
        if kind is None or wt != want:
            unknown += raw
        elif kind.startswith("message"):
            last[number] = last.get(number, []) + list(_fields(value))
        else:
            last[number] = value
    out = b""
    for number in sorted(last):
        kind, v = known[number], last[number]
        if kind == "varint":
            out += _varint(number << 3) + _varint(v) if v else b""
        elif kind == "string":
            out += _string(number, v)
        else:
            out += _ld(number, _canonical(v, _PLUGIN_DATA))
    return out + unknown


_PLUGIN_DATA = {1: "string", 2: "string"}
_METADATA = {1: "message:plugin_data", 2: "string", 3: "string", 4: "varint"}


def _metadata(raw: bytes) -> bytes:
    """SummaryMetadata ParseFromString (what parsed before a malformed field kept), re-serialized."""
    try:
        fields = _fields(raw)
    except _Malformed as e:
        fields = e.args[0] if e.args else []
    try:
        return _canonical(fields, _METADATA)
    except _Malformed:
        return b""


def _tensor_summary_v2(tag: np.ndarray, tensor: np.ndarray, serialized_summary_metadata: np.ndarray) -> np.ndarray:
    """SummaryTensorOpV2::Compute."""
    from simdist.runtime import tensor_proto_wire
    op = "TensorSummaryV2"
    if tag.ndim:
        raise _bad(op, "tag must be scalar")
    if serialized_summary_metadata.ndim:
        raise _bad(op, "serialized_summary_metadata must be scalar")
    enum = dtypes.string.as_datatype_enum if tensor.dtype == object else dtypes.as_dtype(tensor.dtype).as_datatype_enum
    proto = tensor_proto_wire.serialize(tensor, enum)
    value = (_string(1, as_bytes(tag[()])) + _ld(8, proto)
             + _ld(9, _metadata(as_bytes(serialized_summary_metadata[()]))))
    return _scalar_out(_ld(1, value))


def _tensor_summary(tensor: np.ndarray, description: str = "", labels: Any = (), display_name: str = "") -> np.ndarray:
    """SummaryTensorOp::Compute (V1): a Value {node_name: the kernel's name, tensor}; description, labels and
    display_name are not written (observed). The kernel's name is the op type eagerly; in a tf.function TF
    writes the graph node's name (a `name` given, a second node's "TensorSummary_1"), which simdist does not
    track: it writes "TensorSummary"."""
    from simdist.runtime import tensor_proto_wire
    enum = dtypes.string.as_datatype_enum if tensor.dtype == object else dtypes.as_dtype(tensor.dtype).as_datatype_enum
    value = _string(7, b"TensorSummary") + _ld(8, tensor_proto_wire.serialize(tensor, enum))
    return _scalar_out(_ld(1, value))


# --- registration --------------------------------------------------------------------------------------------------

_REAL = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.uint8, dtypes.int16, dtypes.int8, dtypes.int64,
         dtypes.bfloat16, dtypes.uint16, dtypes.float16, dtypes.uint32, dtypes.uint64)
_REAL_NAMES = "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64"


def _real_rule(op: str, tag_arg: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        from simdist.runtime.ops.nn_rules import attr_error
        want_string(op, dts, 0, tag_arg)
        if dts[1] not in _REAL:
            raise attr_error(op, dts[1], _REAL_NAMES)
        return dtypes.string
    return rule


def _merge_rule(dts: Any, attrs: Any) -> dtypes.DType:
    for i in range(len(dts)):
        want_string("MergeSummary", dts, i, "inputs")
    return dtypes.string


def _tensor_rule(dts: Any, attrs: Any) -> dtypes.DType:
    want_string("TensorSummaryV2", dts, 0, "tag")
    want_string("TensorSummaryV2", dts, 2, "serialized_summary_metadata")
    return dtypes.string


_WHY = lanes("writes one summary protocol message: no stacked form written")
SCALAR_SUMMARY = register("ScalarSummary", _scalar_summary, _real_rule("ScalarSummary", "tags"), kind="io",
                          fusion=_WHY, **STRING_COST)
HISTOGRAM_SUMMARY = register("HistogramSummary", _histogram_summary, _real_rule("HistogramSummary", "tag"), kind="io",
                             fusion=_WHY, **STRING_COST)
MERGE_SUMMARY = register("MergeSummary", _merge_summary, _merge_rule, kind="io", fusion=_WHY, **STRING_COST)
TENSOR_SUMMARY = register("TensorSummary", _tensor_summary, lambda dts, attrs: dtypes.string, kind="io",
                          fusion=_WHY, **STRING_COST)
TENSOR_SUMMARY_V2 = register("TensorSummaryV2", _tensor_summary_v2, _tensor_rule, kind="io", fusion=_WHY,
                             **STRING_COST)
for _op in ("ScalarSummary", "HistogramSummary", "MergeSummary", "TensorSummary", "TensorSummaryV2"):
    NotDifferentiable(_op)   # (logging_ops.py)


def _merge_raw(inputs: list) -> Any:
    """MergeSummary's raw form: its list input as the op's tensors."""
    from simdist.runtime.ops import dispatch
    return dispatch.execute(MERGE_SUMMARY, tuple(inputs), {})


def _declare() -> None:
    from simdist.runtime.ops import registry
    from simdist.runtime.ops.raw_args import RawArgs
    registry.set_raw_args("MergeSummary", RawArgs(via=_merge_raw))


_declare()
