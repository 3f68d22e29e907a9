"""tf.strings.substr (TF's Substr kernel, substr_op.cc): from each string, `len` units from `pos`.

- `unit` "BYTE" or "UTF8_CHAR" (a character: a byte that is not a continuation byte 0b10xxxxxx and
  the continuation bytes after it); `pos` and `len` int32 or int64, of one shape
  (InvalidArgumentError "pos and len should have the same shape, got: [2] vs. []"), not empty;
- shapes: `pos` a scalar or of the input's shape applies elementwise; otherwise the input and
  `pos` broadcast (NumPy's rule; "Incompatible shapes: ..." else) to a result of rank 1 or 2 (a
  higher rank is UnimplementedError "Substr broadcast not implemented for 3 dimensions");
- BYTE: a negative pos counts from the end; pos outside [-size, size] is InvalidArgumentError
  "pos 3 out of range for string b'ab' at index 1" (a 2-D broadcast: "at index (i, j)"; a
  string that is not UTF-8 makes TF's Python fail to decode the message: UnicodeDecodeError); a
  negative len (a huge size_t to C++) takes the rest;
- UTF8_CHAR: pos beyond the character count either way is "pos 8 out of range for string at
  index 0" (the row index in a 2-D broadcast); a non-negative pos with a negative len gives b"";
  a negative pos walks back from the end as UpdateNegativePosAndLenForUtf8 does (with a negative
  len that is out of range too).
Not differentiable (TF registers no gradient: LookupError). Clause ops.strings-substr.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import attr_rules, dispatch, trace_errors
from simdist.runtime.ops.args import dims
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, check_unit, string_tensor, want_string
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["substr"]


def _trail(b: int) -> bool:
    return (b & 0xC0) == 0x80


def _forward(s: bytes, n: int, pos: int) -> tuple[bool, int]:
    """ForwardNUTF8CharPositions: (whether n characters were passed, the byte position)."""
    counted = 0
    while pos < len(s) and counted < n:
        pos += 1
        while pos < len(s) and _trail(s[pos]):
            pos += 1
        counted += 1
    return counted == n, pos


def _back(s: bytes, n: int, pos: int) -> tuple[bool, int]:
    """BackNUTF8CharPositions: (whether n characters were passed, the byte position)."""
    counted = 0
    while counted < n and pos > 0:
        pos -= 1
        while _trail(s[pos]) and pos > 0:
            pos -= 1
        counted += 1
    return counted == n, pos


def _utf8_span(s: bytes, pos: int, length: int) -> tuple[int, int] | None:
    """(byte start, byte length) of UTF8_CHAR pos and len, or None where pos is out of range."""
    if pos >= 0:
        ok, start = _forward(s, pos, 0)
        if not ok:
            return None
        _, end = _forward(s, length, start)
        return start, end - start
    skip = max(-pos - length, 0)
    ok, end = _back(s, skip, len(s))
    if not ok:
        return None
    ok, start = _back(s, -pos - skip, end)
    if not ok:
        return None
    return start, end - start


def _one(s: bytes, pos: int, length: int, unit: str, where: str) -> bytes:
    if unit == "UTF8_CHAR":
        span = _utf8_span(s, pos, length)
        if span is None:
            raise errors.InvalidArgumentError(None, None, f"pos {pos} out of range for string at index {where} "
                                              "[Op:Substr]")
        return s[span[0]:span[0] + span[1]]
    start = len(s) + pos if pos < 0 else pos
    if not 0 <= start <= len(s):
        text = s.decode("utf-8")     # (TF's message holds the raw bytes: Python's decoding of it fails)
        raise errors.InvalidArgumentError(None, None, f"pos {pos} out of range for string b'{text}' at index {where} "
                                          "[Op:Substr]")
    return s[start:] if length < 0 else s[start:start + length]


def _substr(x: np.ndarray, pos: np.ndarray, ln: np.ndarray, unit: str = "BYTE") -> np.ndarray:
    if pos.shape != ln.shape:
        raise errors.InvalidArgumentError(None, None, f"pos and len should have the same shape, got: {dims(pos.shape)} "
                                          f"vs. {dims(ln.shape)} [Op:Substr]")
    if pos.ndim == 0 or x.shape == pos.shape:
        out = np.empty(x.shape, dtype=object)
        flat, res = x.reshape(-1), out.reshape(-1)
        ps, ls = np.broadcast_to(pos, x.shape).reshape(-1), np.broadcast_to(ln, x.shape).reshape(-1)
        for i in range(flat.size):
            res[i] = _one(as_bytes(flat[i]), int(ps[i]), int(ls[i]), unit, str(i))
        return out
    try:
        shape = np.broadcast_shapes(x.shape, pos.shape)
    except ValueError:
        raise errors.InvalidArgumentError(None, None, f"Incompatible shapes: {dims(x.shape)} vs. {dims(pos.shape)} "
                                          "[Op:Substr]") from None
    if len(shape) not in (1, 2):
        raise errors.UnimplementedError(None, None, f"Substr broadcast not implemented for {len(shape)} dimensions "
                                        "[Op:Substr]")
    xs, ps, ls = (np.broadcast_to(a, shape) for a in (x, pos, ln))
    out = np.empty(shape, dtype=object)
    for ix in np.ndindex(*shape):
        where = str(ix[0]) if len(shape) == 1 or unit == "UTF8_CHAR" else f"({ix[0]}, {ix[1]})"
        out[ix] = _one(as_bytes(xs[ix]), int(ps[ix]), int(ls[ix]), unit, where)
    return out


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    want_string("Substr", dts)
    if dts[1] not in (dtypes.int32, dtypes.int64):
        raise trace_errors.attr_not_allowed("Substr", "T", dts[1], "int32, int64")
    if dts[2] != dts[1]:
        raise trace_errors.static(errors.InvalidArgumentError(
            None, None, f"cannot compute Substr as input #2(zero-based) was expected to be a {dts[1].name} tensor but "
            f"is a {dts[2].name} tensor [Op:Substr]"), TypeError,
            f"Input 'len' of 'Substr' Op has type {dts[2].name} that does not match type {dts[1].name} of argument "
            "'pos'.")
    return dtypes.string


SUBSTR = register("Substr", _substr, _rule, kind="elementwise",
                  fusion=lanes("cuts each string in Python: no stacked form written"), **STRING_COST)
no_tf_gradient("Substr")


def substr(input: Any, pos: Any, len: Any, unit: Any = "BYTE", name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.strings.substr`: `len` bytes or UTF-8 characters of each string from `pos`."""
    u = check_unit("Substr", unit)
    if not attr_rules.fast_path_takes("Substr", (input, pos, len)) and not context.in_function() \
            and (isinstance(input, Tensor) or hasattr(input, "_as_tensor")):
        # (the eager fallback, for an input CheckOneInput refuses, an np.int64 len: args_to_matching_eager
        # of pos and len, then convert_to_tensor(input, string), so an int16 tensor input is its
        # ValueError, not the kernel's InvalidArgumentError; fz27b, fz14 seed 1420272701 #31)
        attr_rules.fallback_matching([pos, len])
        attr_rules.fallback_conversion(input, dtypes.string)
    x = string_tensor(input, "Substr")
    p = pos if isinstance(pos, Tensor) else None
    n = len if isinstance(len, Tensor) else None
    # (the op's type attr T: from the first tensor among pos and len, the other converted to it)
    if p is None and n is None:
        p = convert_to_tensor(pos)
        n = convert_to_tensor(len, dtype=p.dtype) if p.dtype in (dtypes.int32, dtypes.int64) else convert_to_tensor(len)
    elif p is None:
        p = convert_to_tensor(pos, dtype=n.dtype) if n.dtype in (dtypes.int32, dtypes.int64) else convert_to_tensor(pos)
    elif n is None:
        n = convert_to_tensor(len, dtype=p.dtype) if p.dtype in (dtypes.int32, dtypes.int64) else convert_to_tensor(len)
    return dispatch.execute(SUBSTR, (x, p, n), {"unit": u})
