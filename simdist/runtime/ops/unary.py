"""Element-wise functions of one tensor (neg, abs, sqrt, exp, log, ...), with their gradients.

Gradients use the Tensor operators (installed by ops.math), so they are dispatched ops too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.ops import args, dispatch
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import RegisterGradient, register
from simdist.runtime.tensor import Tensor

__all__ = ["negative", "abs_", "sign", "sqrt", "exp", "log", "square"]


def _log(a: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):   # log(0) = -inf, log(-1) = nan, as TF
        return np.log(a)


NEG = register("Neg", np.negative, args.first)
ABS = register("Abs", np.abs, args.first)
SIGN = register("Sign", np.sign, args.first)
SQRT = register("Sqrt", np.sqrt, args.first)
EXP = register("Exp", np.exp, args.first)
LOG = register("Log", _log, args.allowed("Log", "fc", "half, bfloat16, float, double, complex64, complex128"))
SQUARE = register("Square", np.square, args.first)


def _unary(op: Any, x: Any) -> Tensor:
    return dispatch.execute(op, (_t(x),))


def negative(x: Any, name: str | None = None) -> Tensor:
    return _unary(NEG, x)


def abs_(x: Any, name: str | None = None) -> Tensor:
    return _unary(ABS, x)


def sign(x: Any, name: str | None = None) -> Tensor:
    return _unary(SIGN, x)


def sqrt(x: Any, name: str | None = None) -> Tensor:
    return _unary(SQRT, x)


def exp(x: Any, name: str | None = None) -> Tensor:
    return _unary(EXP, x)


def log(x: Any, name: str | None = None) -> Tensor:
    return _unary(LOG, x)


def square(x: Any, name: str | None = None) -> Tensor:
    return _unary(SQUARE, x)


@RegisterGradient("Neg")
def _neg_grad(op: Any, grad: Any) -> list:
    return [-grad]


@RegisterGradient("Abs")
def _abs_grad(op: Any, grad: Any) -> list:
    return [grad * sign(op.inputs[0])]


@RegisterGradient("Sqrt")
def _sqrt_grad(op: Any, grad: Any) -> list:
    return [grad * 0.5 / op.outputs[0]]   # TF's SqrtGrad: grad * 0.5 / y


@RegisterGradient("Exp")
def _exp_grad(op: Any, grad: Any) -> list:
    return [grad * op.outputs[0]]


@RegisterGradient("Log")
def _log_grad(op: Any, grad: Any) -> list:
    return [grad * (1.0 / op.inputs[0])]   # TF: grad * reciprocal(x)


@RegisterGradient("Sign")
def _sign_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import array
    return [array.zeros_like(op.inputs[0])]   # TF's _SignGrad: zeros, not None


@RegisterGradient("Square")
def _square_grad(op: Any, grad: Any) -> list:
    x = op.inputs[0]
    return [grad * (x * (2.0 if x.dtype.is_floating else 2))]


def _install_operators() -> None:
    Tensor.__neg__ = lambda self: dispatch.execute(NEG, (self,))   # type: ignore[assignment]
    Tensor.__abs__ = lambda self: dispatch.execute(ABS, (self,))   # type: ignore[assignment]


_install_operators()
