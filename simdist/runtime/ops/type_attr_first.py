"""A type attr's allowed values come before the kernel's input types (clause ops.attr-types).

TF 2.21 makes an eager op's kernel from its NodeDef, and ValidateNodeDef checks each type attr
against the OpDef's allowed list before the kernel's ValidateInputTypeAndPlacement compares the
inputs' dtypes with the ones the attrs fixed: `tf.raw_ops.Atan2(y=int32 tensor, x=float32 tensor)`
is InvalidArgumentError "Value for attr 'T' of int32 is not in the list of allowed values:
bfloat16, half, float, double", not "cannot compute Atan2 as input #1(zero-based) was expected to
be a int32 tensor but is a float tensor" (observed for Atan2, MatMul, Conv2D, BiasAdd,
DepthwiseConv2dNative, MaxPoolGrad; fz38b). A graph build has the same order:
op_def_library._apply_op_helper checks the constraint where the first input infers the attr
("Value passed to parameter 'y' has DataType int32 not in list of allowed values: ..."), before a
later input's "does not match" TypeError. The allowed lists are the OpDefs recorded in
raw_opdefs.json."""

from __future__ import annotations

from typing import Any

from simdist.runtime import context, dtypes, errors

__all__ = ["refusal", "earlier_refusal"]

_C_NAMES = {"float16": "half", "float32": "float", "float64": "double"}


def _attr_of(spec: dict, index: int) -> tuple[str, dict] | None:
    """(type attr, the first input arg it binds) for input `index` where an earlier input (or an
    earlier element of the same list) fixed that attr, else None."""
    pos = 0
    first: dict[str, tuple[int, dict]] = {}
    for a in spec["args"]:
        if "input" not in a:
            continue
        attr = a.get("type_attr")
        is_list = "number_attr" in a or "type_list_attr" in a
        if attr is not None and attr not in first:
            first[attr] = (pos, a)
        if pos == index or (is_list and index >= pos):
            if attr is None or first[attr][0] >= index and not (is_list and index > pos):
                return None
            return attr, first[attr][1]
        if is_list:
            return None
        pos += 1
    return None


def _allowed_error(opname: str, attr: str, arg: dict, allowed: list, want: dtypes.DType) -> Any:
    c_list = ", ".join(_C_NAMES.get(n, n) for n in allowed)
    from simdist.runtime.ops import trace_errors
    err = errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of {_C_NAMES.get(want.name, want.name)} "
                                                  f"is not in the list of allowed values: {c_list} [Op:{opname}]")
    return trace_errors.static(err, TypeError, f"Value passed to parameter '{arg['input']}' has DataType {want.name} "
                                               f"not in list of allowed values: {', '.join(allowed)}")


def earlier_refusal(opname: str, earlier: Any) -> Any:
    """The NodeDef's error for a type attr that one of the inputs before a fixed-dtype input fixed
    (`earlier`: their dtypes, in OpDef order) and the OpDef does not allow, else None: the eager
    kernel's "cannot compute ... as input #2" for the fixed-dtype input comes after it
    (`tf.image.crop_and_resize` of a complex128 image and a bfloat16 box_indices is "Value for attr
    'T' of complex128 is not in the list of allowed values: ..."; TF 2.21 observed, fz39b, fourteenth
    generator seed 1420393002 #112)."""
    from simdist.runtime.ops import raw_ops
    spec = raw_ops.opdefs()["ops"].get(opname)
    if spec is None:
        return None
    inputs = [a for a in spec["args"] if "input" in a]
    for a, want in zip(inputs, earlier):
        attr = a.get("type_attr")
        if attr is None or "number_attr" in a or "type_list_attr" in a:
            continue
        allowed = spec.get("inferred", {}).get(attr, {}).get("allowed")
        if allowed and want.name not in allowed:
            return _allowed_error(opname, attr, a, allowed, want)
    return None


def refusal(opname: str, index: int, want: dtypes.DType) -> Any:
    """The NodeDef's error where input `index`'s type attr took `want` from an earlier input and
    the OpDef does not allow it (eager InvalidArgumentError, marked with op_def_library's TypeError
    for a graph build), else None."""
    from simdist.runtime.ops import raw_ops
    spec = raw_ops.opdefs()["ops"].get(opname)
    if spec is None:
        return None
    found = _attr_of(spec, index)
    if found is None:
        return None
    attr, arg = found
    if context.in_function() and ("number_attr" in arg or "type_list_attr" in arg):
        return None   # (op_def_library: a list's "don't all match" before the attr's constraint)
    allowed = spec.get("inferred", {}).get(attr, {}).get("allowed")
    if not allowed or want.name in allowed:
        return None
    return _allowed_error(opname, attr, arg, allowed, want)
