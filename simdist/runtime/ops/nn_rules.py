"""Dtype rules and argument checks shared by the nn op modules (activations, losses, conv,
pooling, normalization), with TF's own type names in its messages.

TF names types by their C++ names in kernel errors ("half", "float", "double"), so
`Value for attr 'T' of double is not in the list of allowed values: half, bfloat16, float`
and `cannot compute BiasAdd as input #1(zero-based) was expected to be a float tensor but is a
int32 tensor`; the rules here produce exactly those.
"""

from __future__ import annotations

from typing import Any, Sequence

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import trace_errors
from simdist.runtime.ops.args import _TF_NAMES as _C_NAMES, dtype_error as mismatch_error, tf_name as cname

__all__ = ["cname", "tf_repr", "typed", "FLOATS", "FLOATS_COMPLEX", "REAL_NUMBERS", "CONV", "attr_error",
           "mismatch_error"]


# TF's allowed-type lists, in TF's order and spelling (simdist stores a subset of these dtypes)
FLOATS = "half, bfloat16, float, double"
FLOATS_COMPLEX = "bfloat16, half, float, double, complex64, complex128"
REAL_NUMBERS = ("float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64")
CONV = "half, bfloat16, float, double, int32"


def tf_repr(dt: dtypes.DType) -> str:
    """A dtype as TF's messages print it (`<dtype: 'int32'>`)."""
    return f"<dtype: '{dt.name}'>"


def attr_error(op: str, dt: dtypes.DType, allowed: str, attr: str = "T") -> errors.InvalidArgumentError:
    """The eager error; for attr T marked with the TypeError a graph build raises (trace_errors)."""
    err = errors.InvalidArgumentError(
        None, None, f"Value for attr '{attr}' of {cname(dt)} is not in the list of allowed values: {allowed} "
        f"[Op:{op}]")
    return trace_errors.not_allowed(err, op, dt, allowed) if attr == "T" else \
        trace_errors.attr_not_allowed(op, attr, dt, allowed)


def _allowed_set(allowed: str) -> frozenset[str]:
    back = {v: k for k, v in _C_NAMES.items()}
    return frozenset(back.get(n.strip(), n.strip()) for n in allowed.split(","))


def typed(op: str, allowed: str, inputs: Sequence[int] | None = None) -> Any:
    """A dtype rule: the inputs at positions `inputs` (default: all) share input 0's dtype (checked
    first, as TF's eager op builder does), which must be one of `allowed` (TF's list); the
    output has it."""
    ok = _allowed_set(allowed)

    def rule(dts: Sequence[dtypes.DType], attrs: Any) -> dtypes.DType:
        d0 = dts[0]
        for i in (range(1, len(dts)) if inputs is None else inputs):
            d = dts[i]
            if d is not d0 and d != d0:
                raise mismatch_error(op, i, d0, d)
        if d0.name not in ok:
            raise attr_error(op, d0, allowed)
        return d0
    return rule
