"""tf.debugging.check_numerics (TF's CheckNumerics op, check_numerics_op.cc) and
tf.debugging.assert_all_finite, which runs it for its check only: the input itself, or
InvalidArgumentError "<message> : Tensor had NaN values" (Inf values; Inf and NaN values) when it
holds any.
T: bfloat16, half, float, double (others: InvalidArgumentError eagerly, TypeError while
tracing). Stateful in TF (a tf.function keeps it even when its output is unused). Gradient:
array_grad._CheckNumericsGrad, check_numerics of the incoming gradient with the message
"Not a number (NaN) or infinity (Inf) values detected in gradient. b'<message>'" (the attribute as bytes).
CheckNumericsV2 (the raw op) the same, its message naming -Inf and +Inf apart, its gradient
array_grad._CheckNumericsV2Grad (check_numerics_v2 of the incoming gradient).
Clause ops.debugging-checks. FLOPs: one per element (the test).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, trace_errors
from simdist.runtime.ops.registry import RegisterGradient, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["check_numerics", "assert_all_finite"]

_ALLOWED = ("bfloat16", "float16", "float32", "float64")
_CPP = {"float16": "half", "float32": "float", "float64": "double"}


def _forward(x: np.ndarray, message: str = "") -> np.ndarray:
    with np.errstate(invalid="ignore"):
        v = x.astype(np.float32) if x.dtype.kind == "V" else x
        nan = bool(np.isnan(v).any())
        inf = bool(np.isinf(v).any())
    if nan or inf:
        what = "Inf and NaN" if nan and inf else "NaN" if nan else "Inf"
        raise errors.InvalidArgumentError(None, None, f"{message} : Tensor had {what} values [Op:CheckNumerics]")
    return x


def _forward_v2(x: np.ndarray, message: str = "") -> np.ndarray:
    """CheckNumericsV2 tells -Inf from +Inf ("m : Tensor had -Inf, +Inf, and NaN values")."""
    with np.errstate(invalid="ignore"):
        v = x.astype(np.float32) if x.dtype.kind == "V" else x
        parts = [name for name, hit in (("-Inf", np.isneginf(v).any()), ("+Inf", np.isposinf(v).any()),
                                        ("NaN", np.isnan(v).any())) if hit]
    if parts:
        said = parts[0] if len(parts) == 1 else (" and ".join(parts) if len(parts) == 2 else
                                                 f"{parts[0]}, {parts[1]}, and {parts[2]}")
        raise errors.InvalidArgumentError(None, None, f"{message} : Tensor had {said} values [Op:CheckNumericsV2]")
    return x


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    d = dts[0]
    if d.name not in _ALLOWED:
        raise trace_errors.static(errors.InvalidArgumentError(
            None, None, f"Value for attr 'T' of {_CPP.get(d.name, d.name)} is not in the list of allowed values: "
            "bfloat16, half, float, double [Op:CheckNumerics]"), TypeError,
            f"Value passed to parameter 'tensor' has DataType {d.name} not in list of allowed values: bfloat16, "
            "float16, float32, float64")
    return d


CHECK_NUMERICS = register("CheckNumerics", _forward, _rule, lambda a, out, at: float(a[0].size),
                          kind="elementwise", stateful=True, subnormals="keep")
CHECK_NUMERICS_V2 = register("CheckNumericsV2", _forward_v2, _rule, lambda a, out, at: float(a[0].size),
                             kind="elementwise", stateful=True, subnormals="keep")


def check_numerics(tensor: Any, message: str, name: str | None = None) -> Tensor:
    """`tf.debugging.check_numerics`: `tensor`, or InvalidArgumentError if it holds NaN or Inf."""
    if not isinstance(message, (str, bytes)):
        raise TypeError(f"Expected string for argument 'message' not {message!r}.")
    x = tensor if isinstance(tensor, Tensor) else convert_to_tensor(tensor)
    msg = message.decode() if isinstance(message, bytes) else message
    return dispatch.execute(CHECK_NUMERICS, (x,), {"message": msg})


def assert_all_finite(x: Any, message: str, name: str | None = None) -> Tensor:
    """`tf.debugging.assert_all_finite` (verify_tensor_all_finite_v2): check_numerics(x, message) run for its
    check only; the result is x itself (eagerly the converted input, in a tf.function an Identity of it after the
    check: control_flow_ops.with_dependencies), so a gradient through it is not checked (no CheckNumerics on the
    path; observed on TF 2.21: d sqrt(assert_all_finite(x)) at x = 0 is inf, not an error)."""
    from simdist.runtime import context
    t = x if isinstance(x, Tensor) else convert_to_tensor(x)
    check_numerics(t, message)
    if context.in_function():
        from simdist.runtime.ops import array
        return array.identity(t)
    return t


def check_numerics_v2(tensor: Any, message: str) -> Tensor:
    """The raw CheckNumericsV2: `tensor`, or InvalidArgumentError naming -Inf, +Inf and NaN apart."""
    x = tensor if isinstance(tensor, Tensor) else convert_to_tensor(tensor)
    msg = message.decode() if isinstance(message, bytes) else message
    return dispatch.execute(CHECK_NUMERICS_V2, (x,), {"message": msg})


def _gradient_message(op: Any) -> str:
    """The gradient's message formats the op's attribute, bytes on TF ("... in gradient. b'msg' : Tensor had Inf
    values", observed on TF 2.21)."""
    message = op.get_attr("message")
    message = message if isinstance(message, bytes) else message.encode("utf-8")
    return "Not a number (NaN) or infinity (Inf) values detected in gradient. %s" % message


@RegisterGradient("CheckNumerics")
def _check_numerics_grad(op: Any, grad: Any) -> list:
    """array_grad._CheckNumericsGrad: check_numerics of the incoming gradient."""
    return [check_numerics(grad, _gradient_message(op))]


@RegisterGradient("CheckNumericsV2")
def _check_numerics_v2_grad(op: Any, grad: Any) -> list:
    """array_grad._CheckNumericsV2Grad: check_numerics_v2 of the incoming gradient (a non-finite upstream gradient
    is refused; before this, simdist's V2 passed it through as an Identity: grad_edges)."""
    return [check_numerics_v2(grad, _gradient_message(op))]
