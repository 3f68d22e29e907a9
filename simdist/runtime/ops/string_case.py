"""tf.strings.lower, upper, strip and length (TF's StringLower, StringUpper, StringStrip and
StringLength kernels): elementwise on a string tensor, the input's shape.

- lower/upper, `encoding` "" (the default): ASCII letters only, every other byte kept (absl's
  AsciiStrToLower/Upper); "utf-8": ICU's full case mapping (Python's str.lower/upper agree: "ß"
  upper is "SS", a final sigma lowers to "ς"), the text read up to its first NUL byte (ICU reads
  a C string) and each ill-formed sequence read as U+FFFD (maximal subparts, as Python's
  "replace" decoder); another encoding is InvalidArgumentError "only utf-8 or '' (no encoding) is
  supported, received <encoding>";
- strip: absl::StripAsciiWhitespace (" \\t\\n\\v\\f\\r" at both ends; U+00A0 is kept);
- length: bytes (`unit` "BYTE"), or UTF-8 characters ("UTF8_CHAR": the bytes that are not
  continuation bytes 0b10xxxxxx, so each stray byte counts one), int32.
A non-string tensor is the kernel's InvalidArgumentError. TF declares none of them differentiable
nor registers a gradient: differentiating their output is LookupError. Clause ops.strings-case.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.string_args import ASCII_SPACE, STRING_COST, as_bytes, check_unit, string_tensor, want_string
from simdist.runtime.tensor import Tensor

__all__ = ["lower", "upper", "strip", "length"]

_PER_STRING = lanes("works on each string in Python: no stacked form written")


def _utf8_case(s: bytes, upper: bool) -> bytes:
    text = s.split(b"\x00", 1)[0].decode("utf-8", "replace")
    return (text.upper() if upper else text.lower()).encode("utf-8")


def _case(x: np.ndarray, upper: bool = False, encoding: str = "") -> np.ndarray:
    out = np.empty(x.shape, dtype=object)
    flat, res = x.reshape(-1), out.reshape(-1)
    for i, v in enumerate(flat):
        s = as_bytes(v)
        res[i] = _utf8_case(s, upper) if encoding else (s.upper() if upper else s.lower())
    return out


def _strip(x: np.ndarray) -> np.ndarray:
    out = np.empty(x.shape, dtype=object)
    flat, res = x.reshape(-1), out.reshape(-1)
    for i, v in enumerate(flat):
        res[i] = as_bytes(v).strip(ASCII_SPACE)
    return out


def utf8_chars(s: bytes) -> int:
    """The number of UTF-8 characters TF counts in s: its bytes that are not continuation bytes."""
    return sum(1 for b in s if (b & 0xC0) != 0x80)


def _length(x: np.ndarray, unit: str = "BYTE") -> np.ndarray:
    flat = x.reshape(-1)
    out = np.empty(flat.shape, np.int32)
    for i, v in enumerate(flat):
        s = as_bytes(v)
        out[i] = len(s) if unit == "BYTE" else utf8_chars(s)
    return out.reshape(x.shape)


def _string_out(op: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        want_string(op, dts)
        return dtypes.string
    return rule


def _length_rule(dts: Any, attrs: Any) -> dtypes.DType:
    want_string("StringLength", dts)
    return dtypes.int32


LOWER = register("StringLower", lambda x, encoding="": _case(x, False, encoding), _string_out("StringLower"),
                 kind="elementwise", fusion=_PER_STRING, **STRING_COST)
UPPER = register("StringUpper", lambda x, encoding="": _case(x, True, encoding), _string_out("StringUpper"),
                 kind="elementwise", fusion=_PER_STRING, **STRING_COST)
STRIP = register("StringStrip", _strip, _string_out("StringStrip"), kind="elementwise", fusion=_PER_STRING,
                 **STRING_COST)
LENGTH = register("StringLength", _length, _length_rule, kind="elementwise", fusion=_PER_STRING, **STRING_COST)
for _name in ("StringLower", "StringUpper", "StringStrip", "StringLength"):
    no_tf_gradient(_name)


def _case_op(op: Any, input: Any, encoding: Any) -> Tensor:  # noqa: A002
    """StringLower/StringUpper: the attr's type (make_str's TypeError), then the input's conversion
    (a non-string: TypeError "Cannot convert True to EagerTensor of dtype string"), then the
    kernel's check of the encoding's value (InvalidArgumentError), in TF 2.21's order."""
    text = encoding.decode() if isinstance(encoding, bytes) else encoding
    if not isinstance(text, str):
        raise TypeError(f"Expected string for argument 'encoding' not {encoding!r}.")
    x = string_tensor(input, op.name)
    op.dtype((x.dtype,), {})   # (the input's type before the kernel reads the attr: op_def_library's TypeError traced)
    if text not in ("", "utf-8"):
        raise errors.InvalidArgumentError(None, None, f"only utf-8 or '' (no encoding) is supported, received {text} "
                                          f"[Op:{op.name}]")
    return dispatch.execute(op, (x,), {"encoding": text})


def lower(input: Any, encoding: Any = "", name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.strings.lower`: each string lowercased (ASCII, or UTF-8 with `encoding="utf-8"`)."""
    return _case_op(LOWER, input, encoding)


def upper(input: Any, encoding: Any = "", name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.strings.upper`: each string uppercased (ASCII, or UTF-8 with `encoding="utf-8"`)."""
    return _case_op(UPPER, input, encoding)


def strip(input: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.strings.strip`: leading and trailing ASCII whitespace removed."""
    return dispatch.execute(STRIP, (string_tensor(input, "StringStrip"),))


def length(input: Any, unit: Any = "BYTE", name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.strings.length`: each string's length in bytes or UTF-8 characters, int32. The generated
    op reads `unit` with make_str first (TypeError for a non-string), converts the input as a string
    (its conversion errors; a graph build then refuses a tensor of another dtype, TypeError), and
    only then is the unit checked against its allowed values (the NodeDef's InvalidArgumentError
    eagerly, ValueError in a graph): `length(np.array([255], np.uint8), 'hello')` is the input's
    ValueError (TF 2.21 observed; fz44b, fz43_gen seeds 43003, 43004)."""
    from simdist.runtime import context
    text = unit.decode() if isinstance(unit, bytes) else unit
    if not isinstance(text, str):
        raise TypeError(f"Expected string for argument 'unit' not {unit!r}.")
    x = string_tensor(input, "StringLength")
    if context.in_function() and x.dtype != dtypes.string:
        raise TypeError(f"Input 'input' of 'StringLength' Op has type {x.dtype.name} that does not match expected "
                        "type of string.")
    u = check_unit("StringLength", unit)
    return dispatch.execute(LENGTH, (x,), {"unit": u})
