"""tf.strings.to_number (TF's StringToNumber kernel: strings::SafeStringToNumeric, i.e. absl's
SimpleAtof/SimpleAtod and SimpleAtoi): each string parsed as `out_type` (float32, float64,
int32, int64, uint32, uint64; another dtype is the attr InvalidArgumentError).

- every type: ASCII whitespace (" \\t\\n\\v\\f\\r") trimmed at both ends; anything else left over
  is InvalidArgumentError "StringToNumberOp could not correctly convert string: <s>";
- integers: an optional sign ("+" or "-"; unsigned types take no "-", not even "-0") and decimal
  digits only, in range (else the same error);
- floats: an optional "+" (not "+-") and absl::from_chars' grammar: decimal ("1", "1.", ".5",
  exponent "e"/"E" with sign), hexadecimal with "0x"/"0X" (optional "p" binary exponent), "inf",
  "infinity", "nan", "nan(chars)" with letters, digits and "_" (case-insensitive; "-nan" has the
  sign bit), correctly rounded to the type (float32 directly, not through float64); beyond the
  range ±inf, below it ±0.
Not differentiable (TF: NotDifferentiable). Clause ops.strings-to-number.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import attr_rules, dispatch
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import ASCII_SPACE, STRING_COST, as_bytes, string_tensor, want_string
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["to_number", "parse_float"]

_DEC = re.compile(rb"(-?)(\d+\.?\d*|\.\d+)(?:[eE]([+-]?\d+))?")
_HEX = re.compile(rb"(-?)0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP]([+-]?\d+))?")
_SPECIAL = re.compile(rb"(-?)(inf|infinity|nan|nan\([0-9A-Za-z_]*\))", re.IGNORECASE)
_INT = re.compile(rb"([+-]?)(\d+)")
_FORMATS = {"float32": (24, -149, 127), "float64": (53, -1074, 1023)}   # (mantissa bits, min exponent, max)
_INT_RANGE = {"int32": (-2 ** 31, 2 ** 31 - 1), "int64": (-2 ** 63, 2 ** 63 - 1), "uint32": (0, 2 ** 32 - 1),
              "uint64": (0, 2 ** 64 - 1)}
_ALLOWED = "float, double, int32, int64, uint32, uint64"


def _round(q: Fraction, fmt: str) -> float:
    """The non-negative exact value q rounded to nearest-even in the format (inf beyond it)."""
    bits, lowest, highest = _FORMATS[fmt]
    if q == 0:
        return 0.0
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1                               # now 2**e <= q < 2**(e+1)
    step_exp = max(e - bits + 1, lowest)      # the spacing of representable values around q
    scaled = q / Fraction(2) ** step_exp
    n = math.floor(scaled)
    rest = scaled - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2):
        n += 1
    if n and n.bit_length() + step_exp - 1 > highest:
        return math.inf
    return math.ldexp(float(n), step_exp)


def _exact(s: bytes) -> tuple[bool, Fraction | None, float | None] | None:
    """(negative, exact value, or the special value) of a float text, or None if it is not one."""
    m = _SPECIAL.fullmatch(s)
    if m:
        return m.group(1) == b"-", None, math.nan if m.group(2)[:1] in b"nN" else math.inf
    m = _HEX.fullmatch(s)
    if m:
        whole, _, frac = m.group(2).partition(b".")
        digits = (whole + frac) or b"0"
        exp = int(m.group(3) or 0) - 4 * len(frac)
        if abs(exp) > 100000:
            return m.group(1) == b"-", None, 0.0 if exp < 0 or int(digits, 16) == 0 else math.inf
        return m.group(1) == b"-", Fraction(int(digits, 16)) * Fraction(2) ** exp, None
    m = _DEC.fullmatch(s)
    if m:
        whole, _, frac = m.group(2).partition(b".")
        digits = int((whole + frac) or b"0")
        exp = int(m.group(3) or 0) - len(frac)
        if digits == 0:
            return m.group(1) == b"-", Fraction(0), None
        if exp > 400:
            return m.group(1) == b"-", None, math.inf
        if exp + len(str(digits)) < -400:
            return m.group(1) == b"-", None, 0.0
        return m.group(1) == b"-", Fraction(digits) * Fraction(10) ** exp, None
    return None


def parse_float(s: bytes, fmt: str = "float64") -> float | None:
    """absl::SimpleAtof/SimpleAtod of s rounded to `fmt`, or None where they refuse it."""
    s = s.strip(ASCII_SPACE)
    if s.startswith(b"+"):
        s = s[1:]
        if s.startswith(b"-"):
            return None
    got = _exact(s)
    if got is None:
        return None
    negative, q, special = got
    v = special if q is None else _round(q, fmt)
    return -v if negative else v


def _parse_int(s: bytes, dt: str) -> int | None:
    m = _INT.fullmatch(s.strip(ASCII_SPACE))
    if m is None or (m.group(1) == b"-" and dt.startswith("u")):
        return None
    v = int(m.group(2)) * (-1 if m.group(1) == b"-" else 1)
    lo, hi = _INT_RANGE[dt]
    return v if lo <= v <= hi else None


def _to_number(x: np.ndarray, out_type: str = "float32") -> np.ndarray:
    flat = x.reshape(-1)
    out = np.empty(flat.shape, np.dtype(out_type))
    for i, v in enumerate(flat):
        s = as_bytes(v)
        got = parse_float(s, out_type) if out_type in _FORMATS else _parse_int(s, out_type)
        if got is None:     # (the message is a C string: it ends at a NUL)
            text = s.split(b"\0", 1)[0].decode("utf-8", "replace")
            raise errors.InvalidArgumentError(None, None, "StringToNumberOp could not correctly convert string: "
                                              f"{text} [Op:StringToNumber]")
        out[i] = got
    return out.reshape(x.shape)


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    want_string("StringToNumber", dts, 0, "string_tensor")
    return dtypes.as_dtype(attrs["out_type"])


TO_NUMBER = register("StringToNumber", _to_number, _rule, kind="elementwise",
                     fusion=lanes("parses each string in Python: no stacked form written"), **STRING_COST)
NotDifferentiable("StringToNumber")


def to_number(input: Any, out_type: Any = dtypes.float32, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.strings.to_number`: each string parsed as a number of `out_type` (default float32)."""
    dt = dtypes.as_dtype(out_type)
    if (isinstance(input, Tensor) or hasattr(input, "_as_tensor")) and not context.in_function() and \
            not attr_rules.fast_path_takes("StringToNumber", out_type=out_type):
        # an out_type the fast path does not parse (np.int64, "int64": no DType) sends the call to
        # the eager fallback, whose convert_to_tensor(input, string) of a tensor or variable of
        # another dtype is ValueError, before the kernel's out_type and input checks
        # (InvalidArgumentError on the fast path; fz30b: seed 1420303001 #77)
        convert_to_tensor(input, dtype=dtypes.string)
    if dt.name not in _FORMATS and dt.name not in _INT_RANGE:
        if context.in_function():
            # (a graph build: op_def_library checks the input's type first, then the out_type attr,
            # TypeError both; `to_number(int16 variable, out_type=tf.int16)` traced is the input's;
            # fz35b, fourteenth generator seed 1420353004 #24)
            string_tensor(input, "StringToNumber", "string_tensor")
            raise TypeError(f"Value passed to parameter 'out_type' has DataType {dt.name} not in list of allowed "
                            "values: float32, float64, int32, int64, uint32, uint64")
        c_name = {"float16": "half", "bfloat16": "bfloat16"}.get(dt.name, dt.name)
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'out_type' of {c_name} is not in the list of "
                                          f"allowed values: {_ALLOWED}\n\t; NodeDef: {{{{node StringToNumber}}}}; "
                                          "[Op:StringToNumber]")
    return dispatch.execute(TO_NUMBER, (string_tensor(input, "StringToNumber", "string_tensor"),), {"out_type": dt.name})
