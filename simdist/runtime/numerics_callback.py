"""`tf.debugging.enable_check_numerics` / `disable_check_numerics` (TF 2.21's
debug/lib/check_numerics_callback.py; clause ops.check-numerics-callback).

While enabled, every op's floating-point output (float16/32/64, bfloat16; not complex, not
integers) is checked as it is made, and one holding NaN or ±Inf raises InvalidArgumentError with
TF's message: "!!! Detected Infinity or NaN in output <slot> of eagerly-executing op "<type>" (# of
outputs: <n>) !!!", the dtype, the shape, the counts of -Inf, +Inf and NaN elements, the input
tensors, then CheckNumericsV2's status ("Tensor had -Inf, +Inf, and NaN values"). TF skips the ops
of its SAFE_OPS and OP_CALLBACK_SKIP_OPS lists (data movement, Identity, Maximum/Minimum, ...)
and FusedBatchNorm's statistics outputs. TF formats the message for every checked output before
the check, with NumPy's isinf of the eager tensor, which fails for a 0-d bfloat16 tensor: every
op making a 0-d bfloat16 output raises ValueError("object __array__ method not producing an
array") while the callback is on. Inside a tf.function the op is a "graph op". dispatch.py calls
`check` after each op (one list lookup when disabled)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, errors

# (stack_height_limit, path_length_limit) while enabled, else None
ENABLED: list[Any] = [None]

IGNORE_OP_OUTPUTS = frozenset(
    [("FusedBatchNorm", s) for s in (1, 2, 3, 4)] + [("FusedBatchNormV2", s) for s in (1, 2, 3, 4)]
    + [("FusedBatchNormV3", s) for s in (1, 2, 3, 4, 5)])

SAFE_OPS = frozenset((
    "Concat", "ConcatV2", "ExpandDims", "Fill", "Gather", "Maximum", "Minimum", "Reshape", "Slice", "Squeeze",
    "Stack", "StridedSlice", "StridedSliceGrad", "TensorListConcatV2", "TensorListGather", "TensorListGetItem",
    "TensorListPopBack", "TensorListStack", "Transpose", "Unpack",
    # op_callbacks_common.OP_CALLBACK_SKIP_OPS
    "Enter", "Exit", "Identity", "If", "LoopCond", "Merge", "NextIteration", "StatelessIf",
    "StatefulPartitionedCall", "Switch", "While", "RemoteCall", "DestroyResourceOp", "CheckNumericsV2"))

_FLOATING = frozenset(("float16", "float32", "float64", "bfloat16"))


def _scalar_bfloat16_error() -> ValueError:
    """TF's ValueError for an op's 0-d bfloat16 output while the callback is on, marked as the callback's: an op
    that turns its kernel's ValueErrors into InvalidArgumentError ("... [Op:Mul]") lets it through unchanged
    (`is_callback_error`), as TF's callback error reaches the caller."""
    err = ValueError("object __array__ method not producing an array")
    err._simdist_numerics_callback = True   # type: ignore[attr-defined]
    return err


def is_callback_error(e: BaseException) -> bool:
    """Whether `e` is the callback's own error rather than the op's."""
    return bool(getattr(e, "_simdist_numerics_callback", False))


def enable(stack_height_limit: int = 30, path_length_limit: int = 50) -> None:
    """Turn the check on (idempotent: a second call keeps the first call's limits, as TF's)."""
    if ENABLED[0] is None:
        ENABLED[0] = (stack_height_limit, path_length_limit)


def disable() -> None:
    """Turn the check off (idempotent)."""
    ENABLED[0] = None


def _status(a: np.ndarray) -> str:
    """CheckNumericsV2's words for what `a` holds."""
    inf = np.isinf(a)
    neg = bool((inf & (a < 0)).any())
    pos = bool((inf & (a > 0)).any())
    nan = bool(np.isnan(a).any())
    parts = [w for w, on in (("-Inf", neg), ("+Inf", pos), ("NaN", nan)) if on]
    if len(parts) == 3:
        return "-Inf, +Inf, and NaN"
    return " and ".join(parts)


def _message(slot: int, n_out: int, op_type: str, out: Any, inputs: Sequence[Any], graph: bool) -> str:
    a = out._v.astype(np.float32) if out._v.dtype.kind == "V" else out._v
    where = "graph" if graph else "eagerly-executing"
    m = (f"\n\n!!! Detected Infinity or NaN in output {slot} of {where} op \"{op_type}\" (# of outputs: {n_out}) !!!\n"
         f"  dtype: <dtype: '{out.dtype.name}'>\n  shape: {out.shape}\n")
    if not graph:
        inf = np.isinf(a)
        for label, count in (("-Inf", int((inf & (a < 0)).sum())), ("+Inf", int((inf & (a > 0)).sum())),
                             ("+NaN", int(np.isnan(a).sum()))):
            if count:
                m += f"  # of {label} elements: {count}\n"
    if len(inputs) > 1:
        m += f"\n  Input tensors ({len(inputs)}):\n"
        for i, t in enumerate(inputs):
            m += f"         {i}: {t}\n"
    elif len(inputs) == 1:
        m += f"\n  Input tensor: {inputs[0]}\n"
    return m + "\n"


def check(op_type: str, inputs: Sequence[Any], outs: Sequence[Any]) -> None:
    """Raise TF's error if a checked floating output of `op_type` holds NaN or Inf."""
    if op_type in SAFE_OPS:
        return
    for slot, out in enumerate(outs):
        dt = out.dtype
        if dt.name not in _FLOATING or (op_type, slot) in IGNORE_OP_OUTPUTS:
            continue
        if dt.name == "bfloat16" and out._v.ndim == 0:
            raise _scalar_bfloat16_error()
        a = out._v.astype(np.float32) if out._v.dtype.kind == "V" else out._v
        with np.errstate(invalid="ignore"):
            if np.isfinite(a).all():
                continue
        graph = context._function_depth > 0
        msg = _message(slot, len(outs), op_type, out, inputs, graph) + f" : Tensor had {_status(a)} values"
        if graph:
            raise errors.InvalidArgumentError(None, None, f"Graph execution error:\n\nDetected at node "
                                              f"{op_type}/CheckNumericsV2:\n{msg}\n\t [[{{{{node {op_type}/CheckNumericsV2}}}}]]")
        raise errors.InvalidArgumentError(
            None, None, f"{{{{function_node __wrapped__CheckNumericsV2_device_{out.device}}}}} {msg} "
            "[Op:CheckNumericsV2] name: ")


def rewritten(op_type: str, inputs: Sequence[Any], rewrite: Any) -> Any:
    """A Grappler rewrite of op `op_type` (dispatch's graph rules) while the check is on: TF
    instruments the op as the program built it, so the rewrite's own ops are not checked and its
    result is checked under the built op's name. The rewrite's result, or None if none applies."""
    saved, ENABLED[0] = ENABLED[0], None
    try:
        out = rewrite()
    finally:
        ENABLED[0] = saved
    if out is not None:
        check(op_type, inputs, out if isinstance(out, tuple) else (out,))
    return out
