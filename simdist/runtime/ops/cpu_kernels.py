"""TF 2.21's CPU kernel registrations for ops whose op def lists dtypes no CPU kernel takes, and
the order an eager call meets its errors in (clause ops.argument-errors).

An eager TF op infers its type attr from its first input and then, in this order: checks it
against the op def's list (InvalidArgumentError "Value for attr 'T' of ... is not in the list of
allowed values"), looks up the CPU kernel for it (NotFoundError "Could not find device for node"),
and only then compares the other inputs' dtypes with it (InvalidArgumentError "cannot compute
MatMul as input #1(zero-based) was expected to be a uint16 tensor but is a int64 tensor") and
runs the kernel's shape checks. So `uint16_matrix @ int64_matrix` and a complex64
SpaceToBatchND of the wrong rank are NotFoundError. Inside a tf.function the graph build checks
the inputs first (op_def_library's TypeError, the shape function's ValueError) and the lookup
fails when the graph runs (InvalidArgumentError "No OpKernel was registered", trace_errors).

The tables are TF's (`kernels.get_registered_kernels_for_op(op)`, device CPU, attr T; and the op
def's allowed list, None where it allows every type), for the ops listed only (the linalg ops' own rule, linalg_more._linalg_rule, keeps theirs)."""

from __future__ import annotations

from typing import Any, Callable

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import args

__all__ = ["KERNELS", "lookup", "kernel_first"]

_FLOATS = ("bfloat16", "float16", "float32", "float64")
_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_COMPLEX = ("complex64", "complex128")
_MATMUL_LISTED = _FLOATS + ("int32", "int64", "uint8", "uint16", "uint32", "uint64") + _COMPLEX

# op -> (the op def's list for T, or None for every type; the T of TF's CPU kernels)
KERNELS: dict[str, tuple[tuple[str, ...] | None, tuple[str, ...]]] = {
    "MatMul": (_MATMUL_LISTED, _FLOATS + ("int16", "int32", "int64") + _COMPLEX),
    "BatchMatMulV2": (_MATMUL_LISTED + ("int16",), _FLOATS + ("int16", "int32", "int64") + _COMPLEX),
    "SpaceToBatchND": (None, _FLOATS + _INTS),
    "BatchToSpaceND": (None, _FLOATS + _INTS),
    "TensorScatterAdd": (None, _FLOATS + _INTS + _COMPLEX),
    "TensorScatterSub": (None, _FLOATS + _INTS + _COMPLEX),
    "TensorScatterMin": (None, _FLOATS + _INTS),
    "TensorScatterMax": (None, _FLOATS + _INTS),
}


def lookup(op: str, d: dtypes.DType, eager_only: bool = True) -> None:
    """NotFoundError when the op def lists `d` for the op's T but no CPU kernel takes it (a type
    the op def refuses is left to the op's own rule, whose error comes first); eagerly only
    unless told (the caller's graph-mode checks come first)."""
    listed, kernels = KERNELS[op]
    if d.name in kernels or (listed is not None and d.name not in listed):
        return
    if eager_only and not context.executing_eagerly():
        return
    raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {op}}}}} = "
                               f"{op}[T=DT_{args.tf_name(d).upper()}] [Op:{op}]")


def kernel_first(op: str, rule: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """An op's dtype rule with the kernel lookup for its first input's dtype: eagerly before it
    (before the rule's comparison of the other inputs' dtypes), in a graph after it."""
    def checked(dts: Any, attrs: Any) -> Any:
        if context.executing_eagerly():
            lookup(op, dts[0])
            return rule(dts, attrs)
        out = rule(dts, attrs)     # (a graph: the build's checks, then the run's lookup)
        lookup(op, dts[0], eager_only=False)
        return out
    checked.__doc__ = rule.__doc__
    return checked
