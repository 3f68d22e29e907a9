"""op_def_library's input checks while a tf.function's graph is built, before its attr checks.

`_apply_op_helper` converts an op's inputs in OpDef order and checks each input's type attr as it
goes (`_SatisfiesTypeConstraint`: "Value passed to parameter 'input' has DataType uint32 not in
list of allowed values: ..."; a later input of the same attr that is a tensor of another dtype:
"Input 'filter' of 'Conv2D' Op has type bool that does not match type float32 of argument
'input'."); only then does it read the remaining attrs (a padding string outside the OpDef's list
is its ValueError). Eagerly the kernel's attr checks come in another order, so this applies in a
graph only. Clause function.trace-time-errors (fz23b: seed 1420262301 #125, #131, #246).
"""

from __future__ import annotations

from typing import Any, Sequence

from simdist.runtime import context, dtypes
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["check", "convert"]


def check(op: str, values: Sequence[Any]) -> None:
    """Raise op_def_library's error for the first of `values` (the op's inputs in OpDef order, as
    the caller gives them) that TF refuses while it builds a graph; nothing outside a tf.function,
    for an op the recorded OpDefs lack, or for values TF converts (a tensor captured from eager
    code for an input of fixed dtype fails with AssertionError in TF 2.21, which simdist does not
    tell apart: trace_errors.fixed_type). List inputs and type attrs the caller passes end the
    check."""
    if not context.in_function():
        return
    from simdist.runtime.ops import raw_ops
    spec = raw_ops.opdefs()["ops"].get(op)
    if spec is None:
        return
    inputs = [a for a in spec["args"] if "input" in a]
    given = {a["attr"] for a in spec["args"] if "attr" in a}   # (type attrs the caller passes: the inputs take them)
    fixed: dict[str, tuple[str, dtypes.DType]] = {}   # type attr -> (the input that fixed it, its dtype)
    for a, v in zip(inputs, values):
        attr = a.get("type_attr")
        if "type_list_attr" in a and a["type_list_attr"] not in given:
            # (each tensor's dtype against the list attr's allowed types, _SatisfiesTypeConstraint: DecodeCSV's
            # record_defaults of uint64; fuzz20 sig seed 3020261205 #126)
            allowed = spec["inferred"].get(a["type_list_attr"], {}).get("allowed")
            for t in (v if isinstance(v, (list, tuple)) else [v]):
                # (a Variable by its dtype too: fz31a, function seed 3120261210 #18)
                if allowed and (isinstance(t, Tensor) or _is_variable(t)) and t.dtype.name not in allowed:
                    raise TypeError(f"Value passed to parameter '{a['input']}' has DataType {t.dtype.name} not in "
                                    f"list of allowed values: {', '.join(allowed)}")
        if "number_attr" in a and attr is not None and attr not in given and attr not in fixed \
                and isinstance(v, (list, tuple)):
            # (op_def_library: a list of one type attr whose tensors' dtypes differ, before the attr's constraint;
            # `raw_ops.AddN(inputs=[bool, float32])` in a tf.function; fz38b)
            dts = [_dtype_of(t) for t in v]
            if all(d is not None for d in dts) and len(set(d.name for d in dts)) > 1:
                raise TypeError(f"Tensors in list passed to '{a['input']}' of '{op}' Op have types "
                                f"[{', '.join(d.name for d in dts)}] that don't all match.")
        if "number_attr" in a or "type_list_attr" in a or attr in given:
            return
        if attr is None:   # (an input of a fixed dtype: converted to it)
            if "dtype" in a:
                _convert(op, a["input"], v, None, dtypes.as_dtype(a["dtype"]))
            continue
        if attr in fixed:
            _convert(op, a["input"], v, *fixed[attr])
            continue
        info = spec["inferred"].get(attr, {})
        t = _first(v, info.get("allowed"), info.get("default"))
        if t is None:
            return
        allowed = info.get("allowed")
        if allowed and t.name not in allowed:
            raise TypeError(f"Value passed to parameter '{a['input']}' has DataType {t.name} not in list of "
                            f"allowed values: {', '.join(allowed)}")
        fixed[attr] = (a["input"], t)


def convert(op: str, v: Any, name: str | None = None) -> Tensor:
    """`v`, the op's input `name` (default its first) and the first of its type attr, as
    op_def_library converts it in a graph: a tensor as it is, a value by its own dtype when the
    type attr allows it, else preferring the attr's default (`invert_permutation(True)` is int32
    there); unchanged rules for an op the OpDefs lack."""
    if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
        return convert_to_tensor(v)
    from simdist.runtime.ops import raw_ops
    spec = raw_ops.opdefs()["ops"].get(op)
    arg = next((a for a in spec["args"] if "input" in a and name in (None, a["input"])), None) \
        if spec is not None else None
    info = spec["inferred"].get(arg.get("type_attr"), {}) if arg is not None else {}
    dt = _first(v, info.get("allowed"), info.get("default"))
    return convert_to_tensor(v) if dt is None else convert_to_tensor(v, dtype=dt)


def _dtype_of(v: Any) -> dtypes.DType | None:
    """A tensor's or a variable's dtype (what a graph converts it to), else None."""
    if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
        return dtypes.as_dtype(v.dtype)
    return None


def _first(v: Any, allowed: Sequence[str] | None, default: str | None) -> dtypes.DType | None:
    """The dtype the first input of a type attr fixes: a tensor's own; a Python value's inferred
    conversion when its dtype is allowed, else its conversion preferring the attr's default; None
    when it does not convert (the op raises that error itself)."""
    dt = _dtype_of(v)
    if dt is not None:
        return dt
    try:
        t = convert_to_tensor(v)
        if not allowed or t.dtype.name in allowed:
            return t.dtype
    except (TypeError, ValueError):
        pass
    try:
        return convert_to_tensor(v, dtype_hint=default).dtype
    except (TypeError, ValueError):
        return None


def _convert(op: str, name: str, v: Any, first: str | None, want: dtypes.DType) -> None:
    """A later input of a type attr that input `first` fixed to `want`, or an input of fixed dtype
    `want` (first None): a tensor of another dtype, or a value that does not convert to it
    (op_def_library's two TypeErrors)."""
    dt = _dtype_of(v)
    if dt is None:
        try:
            convert_to_tensor(v, dtype=want)
            return
        except TypeError as err:
            raise TypeError(f"Expected {want.name} passed to parameter '{name}' of op '{op}', got {v!r} of type "
                            f"'{type(v).__name__}' instead. Error: {err}") from None
        except ValueError:
            try:
                dt = convert_to_tensor(v).dtype
            except (TypeError, ValueError):
                return
    if dt != want:
        what = f"expected type of {want.name}" if first is None else f"type {want.name} of argument '{first}'"
        raise TypeError(f"Input '{name}' of '{op}' Op has type {dt.name} that does not match {what}.")


def _is_variable(v: Any) -> bool:
    """Whether v is a simdist Variable (op_def_library reads its dtype as a tensor's)."""
    from simdist.runtime.variables import Variable
    return isinstance(v, Variable)
