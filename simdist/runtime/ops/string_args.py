"""Argument handling shared by the tf.strings ops: a string input converted as TF's generated op
wrappers convert it (a Python value made a string tensor: TypeError "Cannot convert ... to
EagerTensor of dtype string"), the kernel's dtype check of an input TF declares `string`
(InvalidArgumentError "cannot compute <Op> as input #i(zero-based) was expected to be a string
tensor ...", marked with op_def_library's TypeError a graph build raises), bytes of an element,
and TF's string attrs checked against their allowed lists."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import dtypes, errors, tensor_proto
from simdist.runtime.ops import trace_errors
from simdist.runtime.ops.args import dtype_error
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["string_tensor", "want_string", "as_bytes", "check_unit", "bytes_array", "payload", "ASCII_SPACE",
           "STRING_COST"]

# absl's ascii_isspace (StripAsciiWhitespace, SimpleAtoi's and SimpleAtof's trimming)
ASCII_SPACE = b" \t\n\v\f\r"


def _leaf(x: Any) -> Any:
    while isinstance(x, (list, tuple)) and len(x):
        x = x[0]
    return x


def _first_mismatch(x: list, fallback: Any) -> str:
    """make_tensor_proto's _AssertCompatible text for a list converted to string in a graph: the first
    nest.flatten leaf that is not text, printed with str() and its own type name ("Expected string, but
    got 2 of type 'int64'." for ['x', np.int64(2)]; TF 2.21, amut39). `fallback` when every leaf is text."""
    try:
        tensor_proto.assert_compatible(x, dtypes.string)
    except TypeError as e:
        return str(e)
    return f"Expected string, but got {fallback!r} of type '{type(fallback).__name__}'."


def string_tensor(x: Any, op: str = "", arg: str = "input") -> Tensor:
    """x as the string tensor an op's `string` input converts it to, as TF's wrappers do: a tensor or
    Variable is read as it is (its dtype is the kernel's check, `want_string`); a NumPy value that
    is not text is ValueError "Failed to convert a NumPy array to a Tensor (Unsupported object type
    int)." eagerly; a Python value TypeError "Cannot convert [1] to EagerTensor of dtype string";
    inside a tf.function (op_def_library) both are TypeError "Expected string passed to parameter
    'input' of op '<op>', got ..."."""
    if isinstance(x, Tensor):
        return x
    from simdist.runtime import context
    from simdist.runtime.ops import math
    from simdist.runtime.variables import Variable
    if math._distributed_variable(x):
        # (a MirroredVariable is no eager tensor: the generated op's fallback converts it with dtype
        # string, ValueError for another dtype; fz14 seed 1420261218 #251)
        math.distributed_variable_conversion(x, dtypes.string)
    if isinstance(x, Variable):
        return x.read_value()
    tensorlike = (lambda v: isinstance(v, Tensor) or getattr(v, "_as_tensor", None) is not None)
    if context.in_function() and op and isinstance(x, (list, tuple)) and any(tensorlike(v) for v in x):
        # (op_def_library's conversion of a list holding a tensor, or a variable (fz40, fourteenth generator
        # seed 1420403004 #78): an element that is no text is make_tensor_proto's TypeError, where eagerly the
        # list packs and Cast refuses the tensor; fz20: fz14 seed 1420261202 #957)
        bad = next((v for v in x if not (tensorlike(v) or isinstance(v, (str, bytes)))), None)
        if bad is not None:
            bad = bad.item() if isinstance(bad, np.generic) else bad
            raise TypeError(f"Expected string passed to parameter '{arg}' of op '{op}', got {x!r} of type "
                            f"'{type(x).__name__}' instead. Error: Expected binary or unicode string, got {bad!r}")
    try:
        return convert_to_tensor(x, dtype=dtypes.string)
    except (TypeError, ValueError) as e:
        numpy_value = isinstance(x, (np.ndarray, np.generic))
        bad = x.reshape(-1)[0] if isinstance(x, np.ndarray) and x.size else x if numpy_value else _leaf(x)
        bad = bad.item() if isinstance(bad, np.generic) else bad
        if context.in_function() and op:
            why = (f"Expected binary or unicode string, got {bad!r}" if numpy_value or not isinstance(x, list) else
                   _first_mismatch(x, bad))
            raise TypeError(f"Expected string passed to parameter '{arg}' of op '{op}', got {x!r} of type "
                            f"'{type(x).__name__}' instead. Error: {why}") from None
        if numpy_value and context.in_function():
            # (a wrapper's own convert_to_tensor(x, dtype=string) in a graph: make_tensor_proto's
            # TypeError; fz20: fz14 seed 1420261202 #663, #952)
            raise TypeError(f"Expected binary or unicode string, got {bad!r}") from None
        if numpy_value:
            kind = type(np.asarray(x).reshape(-1)[0].item()).__name__ if np.asarray(x).size else "object"
            raise ValueError(f"Failed to convert a NumPy array to a Tensor (Unsupported object type {kind}).") \
                from None
        raise e


def want_string(op: str, dts: Sequence[dtypes.DType], index: int = 0, arg: str = "input") -> None:
    """The kernel's check that input `index` (op_def argument `arg`) is a string tensor."""
    if dts[index] != dtypes.string:
        err = dtype_error(op, index, dtypes.string, dts[index])
        raise trace_errors.static(err, TypeError, f"Input '{arg}' of '{op}' Op has type {dts[index].name} that does "
                                                  "not match expected type of string.")


def as_bytes(v: Any) -> bytes:
    """One element of a string array as bytes (str encoded as UTF-8)."""
    return v if isinstance(v, bytes) else str(v).encode("utf-8", "surrogateescape")


def bytes_array(shape: tuple[int, ...], values: Sequence[bytes]) -> np.ndarray:
    """An object array of `shape` holding `values` (bytes) in row-major order."""
    out = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        out[i] = v
    return out.reshape(shape)


def check_unit(op: str, unit: Any, allowed: Sequence[str] = ("BYTE", "UTF8_CHAR")) -> str:
    """A string attr (`unit`, ...) in its allowed list, else TF's attr InvalidArgumentError."""
    text = unit.decode() if isinstance(unit, bytes) else unit
    if not isinstance(text, str):
        raise TypeError(f"Expected string for argument 'unit' not {unit!r}.")
    if text not in allowed:
        listed = ", ".join(f'"{a}"' for a in allowed)
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'unit' of \"{text}\" is not in the list of "
                                          f"allowed values: {listed}\n\t; NodeDef: {{{{node {op}}}}}; [Op:{op}]")
    return text


def payload(a: np.ndarray) -> int:
    """The bytes an array holds: a string array its strings' lengths summed (TF's tstring data),
    another its nbytes."""
    if a.dtype == object:
        return sum(len(as_bytes(v)) for v in a.reshape(-1))
    return int(a.nbytes)


def _no_flops(arrays: Any, out: Any, attrs: Any) -> float:
    return 0.0


def _string_bytes(arrays: Any, out: Any, attrs: Any) -> tuple[int, int]:
    outs = out if type(out) in (tuple, list) else (out,)
    return sum(payload(np.asarray(a)) for a in arrays), sum(payload(np.asarray(o)) for o in outs)


# The cost rules of a string op: no floating-point work; the strings' bytes read and written.
STRING_COST: dict[str, Any] = {"flops": _no_flops, "bytes": _string_bytes}
