"""The protobuf wire format's encodings that simdist writes by hand (tf.data snapshots, summary protos, serialized
sparse tensors, JSON examples): a base-128 varint (a negative int64 as its two's complement, ten bytes), a field's key,
a length-delimited field; and reading a varint back."""

from __future__ import annotations


def varint(n: int) -> bytes:
    """`n` as a base-128 varint (int64 two's complement for a negative `n`)."""
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field: int, wire: int) -> bytes:
    """A field's key: its number and wire type as a varint."""
    return varint((field << 3) | wire)


def length_delimited(field: int, payload: bytes) -> bytes:
    """Field `field` of wire type 2: its key, the payload's length, the payload."""
    return key(field, 2) + varint(len(payload)) + payload


def read_varint(data: bytes, pos: int) -> tuple[int, int]:
    """The varint at `data[pos:]` and the position after it (ValueError "truncated varint" at the end of data)."""
    shift = result = 0
    while True:
        if pos >= len(data):
            raise ValueError("truncated varint")
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
