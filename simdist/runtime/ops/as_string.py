"""tf.as_string (TF's AsString op): each element printed with C's printf, as TF 2.21's
as_string_op.cc builds the format: "%" + fill flag + width + "." + precision + conversion.

- fill: "" or one of " ", "+", "-", "0", "#" (a printf flag); longer is InvalidArgumentError
  "Fill string must be one or fewer characters", another character "Fill argument not supported";
- floats (half, bfloat16, float, double, printed as double): "f", "e" with scientific, "g" with
  shortest (both: InvalidArgumentError); printf's default precision 6; complex64/complex128 as
  "(re,im)", each part with the float format (the width and fill apply to each part);
- integers "d" (unsigned ones "u", which ignores the " " and "+" flags; precision, scientific or
  shortest: InvalidArgumentError); bool "true"/"false"
  whatever the width; strings as they are without a width, else "%s" with the precision (bytes cut)
  padded to the width (scientific, shortest and precision are no error for strings);
- non-finite values as glibc prints them: "inf", "nan" with the sign bit as "-" (a NaN too:
  "-nan"), "+" and " " flags apply, "0" pads with spaces, "-" left-justifies.
Python's % operator formats finite values as C's printf does; the non-finite ones are written here.
The output is a string tensor of the input's shape; not differentiable.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import attr_rules, dispatch
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.tensor import Tensor

__all__ = ["as_string"]

_FLOATS = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")
_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _nonfinite(v: float, fill: str, width: int) -> str:
    sign = "-" if np.signbit(v) else "+" if fill == "+" else " " if fill == " " else ""
    s = sign + ("nan" if np.isnan(v) else "inf")
    if width > len(s):
        s = s.ljust(width) if fill == "-" else s.rjust(width)
    return s


def _format(x: np.ndarray, dtype_name: str, precision: int, scientific: bool, shortest: bool, width: int,
            fill: str) -> np.ndarray:
    out = np.empty(x.shape, dtype=object)
    flat, res = x.reshape(-1), out.reshape(-1)
    spec = "%" + fill + (str(width) if width > -1 else "")
    if dtype_name == "bool":
        for i, v in enumerate(flat):
            res[i] = b"true" if v else b"false"
    elif dtype_name == "string":   # (TF 2.21: unchanged without a width, else "%{fill}{width}.{precision}s" on
        # the bytes, NULs included; scientific and shortest unread: observed, fuzz20 seed 2720261204 #140)
        sfmt = (spec + ("." + str(precision) if precision > -1 else "") + "s").encode()
        for i, v in enumerate(flat):
            b = v if isinstance(v, bytes) else str(v).encode("utf-8", "surrogateescape")
            res[i] = b if width <= -1 else sfmt % b
    elif dtype_name in _INTS:
        if dtype_name.startswith("uint") and fill in " +":   # (TF's "%u"/"%llu": printf's sign flags apply to
            # signed conversions only, so a uint16 with fill " " prints "1"; fz32a, eager seed 3220261206 #178)
            spec = "%" + (str(width) if width > -1 else "")
        for i, v in enumerate(flat):
            res[i] = ((spec + "d") % int(v)).encode()
    else:
        fmt = spec + ("." + str(precision) if precision > -1 else "") + ("g" if shortest else "e" if scientific
                                                                          else "f")
        def one(f: float) -> str:
            return fmt % f if np.isfinite(f) else _nonfinite(f, fill, width)
        for i, v in enumerate(flat):
            if dtype_name.startswith("complex"):   # ("(%f,%f)": each part printed as a double)
                res[i] = f"({one(float(v.real))},{one(float(v.imag))})".encode()
            else:
                res[i] = one(float(v)).encode()
    return out


def _as_string(x: np.ndarray, dtype_name: str = "float32", precision: int = -1, scientific: bool = False,
               shortest: bool = False, width: int = -1, fill: str = "") -> np.ndarray:
    """AsStringOp: its constructor's attr checks (`_constructor`: run-time errors of a graph), then
    each element formatted."""
    _constructor(dtype_name, precision, scientific, shortest, fill)
    if x.dtype.kind == "c":   # (the kernel reads a complex number's parts under DAZ, as the real dtypes' values
        # are read: a subnormal part prints as a zero of its sign; fz35a, seed 3520261216 #64)
        from simdist.runtime import subnormals
        x = subnormals.flush_parts(x)
    return _format(x, dtype_name, precision, scientific, shortest, width, fill)


def _constructor(name_: str, precision: int, scientific: bool, shortest: bool, fill: str) -> None:
    """AsStringOp's constructor (as_string_op.cc), whose OP_REQUIRES fail when the kernel is made:
    eagerly at the call, in a tf.function when the graph runs, so a later op's trace-time error
    comes first (`as_string(int64, precision=5)` then stft's ValueError; fz27b, fz14 seed
    1420262602 #103)."""
    if name_ not in _FLOATS + ("string",):   # (the dtype's checks first; strings take all three: fz27a)
        if scientific or shortest:
            raise errors.InvalidArgumentError(None, None, "scientific and shortest format not supported for datatype "
                                              f"{name_} [Op:AsString]")
        if precision > -1:
            raise errors.InvalidArgumentError(None, None, f"precision not supported for datatype {name_} "
                                              "[Op:AsString]")
    if len(fill) > 1:
        raise errors.InvalidArgumentError(None, None, "Fill string must be one or fewer characters [Op:AsString]")
    if scientific and shortest:
        raise errors.InvalidArgumentError(None, None, "Cannot select both scientific and shortest notation "
                                          "[Op:AsString]")
    if fill and fill not in " +-0#":
        raise errors.InvalidArgumentError(None, None, f"Fill argument not supported: \"{fill}\" [Op:AsString]")


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    d = dts[0]
    if d.name not in _FLOATS + _INTS + ("bool", "string"):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {d.name} is not in the list of allowed "
                                          "values [Op:AsString]")
    return dtypes.string


AS_STRING = register("AsString", _as_string, _rule, kind="elementwise",
                     fusion=lanes("prints each element in Python: no stacked form written"))
NotDifferentiable("AsString")


def as_string(input: Any, precision: int = -1, scientific: bool = False, shortest: bool = False,  # noqa: A002
              width: int = -1, fill: str = "", name: str | None = None) -> Tensor:
    """`tf.as_string` (`tf.strings.as_string`): each element as a string, printf-formatted. An attr given
    as None takes its op def default (gen_string_ops.as_string: `if precision is None: precision = -1`)."""
    precision = -1 if precision is None else precision
    width = -1 if width is None else width
    attr_rules.check("AsString", precision=precision, scientific=scientific, shortest=shortest, width=width,
                     fill=fill)   # (the wrapper's make_*: ops.attr-types)
    # (the input after the attrs: the fast path sets its attrs first and falls back on one it cannot
    # read, and the eager fallback and a graph build run make_* before converting any input, so
    # `as_string([1e300], scientific=1)` is make_bool's TypeError; fz35b, fourteenth generator seed
    # 1420353001 #159)
    x = _t(input)
    fill = "" if fill is None else str(fill)
    name_ = x.dtype.name
    if not context.in_function():   # (eagerly the kernel is made before the type attr's check)
        _constructor(name_, int(precision), bool(scientific), bool(shortest), fill)
    AS_STRING.dtype((x.dtype,), None)
    return dispatch.execute(AS_STRING, (x,), {"dtype_name": name_, "precision": int(precision),
                                             "scientific": bool(scientific), "shortest": bool(shortest),
                                             "width": int(width), "fill": fill})
