"""The op of a function with its own gradient (`tf.custom_gradient`, TF's
`record.record_operation`), registered like any other op.

TF records a custom-gradient call on the tape as one op from the function's inputs (and the
trainable variables it read) to the Identity copies of its results, whose gradient is the user's
`grad_fn` (eager: `record.record_operation(f.__name__, ...)`; graph: an IdentityN node whose
gradient is overridden by a "CustomGradient-<uid>" registration). simdist binds that op,
"CustomGradient", through dispatch (`dispatch.bind`) with the user's backward as its
`grad_fn` attribute; its registered gradient calls it.

Its rules: kind "custom"; it runs lane by lane (the gradient is a Python function of each
call's own tensors); its cost is nothing of its own (the function's ops and the Identity copies
are dispatched ops, counted where they run); the recorder keeps the function's ops, not this op,
and a recorded tf.function call holding one runs its Python again under a gradient tape (the
user's grad_fn closes over the first call's tensors, which a replay does not make again).
"""

from __future__ import annotations

from typing import Any, Sequence

from simdist.runtime.ops import dispatch
from simdist.runtime.ops.registry import RegisterGradient, lanes, register

__all__ = ["CUSTOM_GRADIENT", "bind"]


def _not_run(*arrays: Any, **attrs: Any) -> Any:
    raise RuntimeError("CustomGradient is bound with the outputs its function computed (dispatch.bind); its "
                       "forward never runs")


def _no_dtype(dts: tuple, attrs: dict | None) -> Any:
    return dts


def _nothing(arrays: Any, out: Any, attrs: Any) -> float:
    return 0.0


def _no_bytes(arrays: Any, out: Any, attrs: Any) -> tuple[int, int]:
    return 0, 0


CUSTOM_GRADIENT = register(
    "CustomGradient", _not_run, _no_dtype, _nothing, num_outputs=-1, kind="custom", bytes=_no_bytes,
    fusion=lanes("its gradient is the user's Python function of each call's own tensors"),
    bound="the function's own ops and the Identity copies of its results (dispatched, recorded as they run)",
    tape_replay="its grad_fn closes over the tensors of the call that recorded it, which a replay does not "
                "make again")


@RegisterGradient("CustomGradient")
def _custom_gradient_grad(op: Any, *grads: Any) -> Any:
    """The user's gradient function (TF: the grad_fn record_operation was given)."""
    return op.get_attr("grad_fn")(*grads)


def bind(name: str, inputs: Sequence[Any], outputs: Sequence[Any], grad_fn: Any) -> None:
    """A function `name` with its own gradient computed `outputs` (tensors) from `inputs`
    (tensors, and the keys of the variables it read: tape.variable_key): bind its op.
    `grad_fn(*output_grads)` gives one gradient per input."""
    dispatch.bind(CUSTOM_GRADIENT, inputs, tuple(outputs), {"name": name, "grad_fn": grad_fn})
