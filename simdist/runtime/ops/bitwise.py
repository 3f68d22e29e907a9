"""`tf.bitwise` (BitwiseAnd/Or/Xor, Invert, LeftShift, RightShift) and the operators `&`, `|`,
`^`, `~` on tensors: bitwise on integers, logical on bools, as TF's math_ops.and_/or_/xor_/invert_
choose by the left operand's dtype (clause ops.bitwise).

Shifts follow TF's Eigen functors (cwise_ops.h left_shift_op/right_shift_op): the shift is clamped
to [0, bits - 1], a left shift is done on the unsigned type (it wraps), a right shift of a signed
integer is arithmetic. None of these ops is differentiable (TF registers no gradient).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context
from simdist.runtime.ops import args, dispatch, math, reflected, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import NotDifferentiable, binary, unary
from simdist.runtime.tensor import Tensor

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]

_INTS = ("iu", "int8, int16, int32, int64, uint8, uint16, uint32, uint64")


def _clamped(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.clip(y, 0, x.dtype.itemsize * 8 - 1).astype(x.dtype)


def _left_shift(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    u = np.dtype(f"u{x.dtype.itemsize}")
    x, s = np.broadcast_arrays(x, _clamped(x, y))
    return np.left_shift(x.astype(u), s.astype(u)).astype(x.dtype)


def _right_shift(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.right_shift(x, _clamped(x, y))


BITWISE_AND = binary("BitwiseAnd", np.bitwise_and, args.allowed("BitwiseAnd", *_INTS))
BITWISE_OR = binary("BitwiseOr", np.bitwise_or, args.allowed("BitwiseOr", *_INTS))
BITWISE_XOR = binary("BitwiseXor", np.bitwise_xor, args.allowed("BitwiseXor", *_INTS))
LEFT_SHIFT = binary("LeftShift", _left_shift, args.allowed("LeftShift", *_INTS))
RIGHT_SHIFT = binary("RightShift", _right_shift, args.allowed("RightShift", *_INTS))
INVERT = unary("Invert", np.invert, args.allowed("Invert", *_INTS))
for _name in ("BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift", "Invert"):
    NotDifferentiable(_name)


def _binary(op: Any, x: Tensor, y: Any, reflected: bool = False) -> Tensor:
    yt = math._operand(y, x.dtype, reflected)   # converted first, as TF does: `bitwise_or(bool, 2)` is TypeError
    op.dtype((x.dtype, x.dtype), None)    # integers only: `binary`'s fast path skips the dtype rules
    return math.binary(op, x, yt, reflected)


def _call(op: Any, x: Any, y: Any) -> Tensor:
    """A non-tensor x beside a tensor y takes y's dtype (math.gen_operands)."""
    xt, yt = math.gen_operands(op, x, y)
    return _binary(op, xt, yt)


def bitwise_and(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _call(BITWISE_AND, x, y)


def bitwise_or(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _call(BITWISE_OR, x, y)


def bitwise_xor(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _call(BITWISE_XOR, x, y)


def left_shift(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _call(LEFT_SHIFT, x, y)


def right_shift(x: Any, y: Any, name: str | None = None) -> Tensor:
    return _call(RIGHT_SHIFT, x, y)


def invert(x: Any, name: str | None = None) -> Tensor:
    return dispatch.execute(INVERT, (_t(x),))


# --- Tensor's operators: logical on bools, bitwise otherwise (TF's math_ops.and_ and its kin) --------
def _install_operators() -> None:
    def choose(logical: Any, bitwise: Any, name: str) -> tuple[Any, Any]:
        def fwd(self: Tensor, o: Any) -> Tensor:
            try:
                return logical(self, o) if self.dtype.is_bool else _binary(bitwise, self, o)
            except Exception as e:  # noqa: BLE001 - binary_op_wrapper's retry decides (ops/reflected.py)
                return reflected.retry(e, self, o, name)

        def rev(self: Tensor, o: Any) -> Tensor:
            # TF converts the left operand to the tensor's dtype, then applies the same choice
            return logical(o, self) if self.dtype.is_bool else _binary(bitwise, self, o, True)
        return fwd, rev

    for name, logical, bitwise in (("and", math.logical_and, BITWISE_AND), ("or", math.logical_or, BITWISE_OR),
                                   ("xor", math.logical_xor, BITWISE_XOR)):
        fwd, rev = choose(logical, bitwise, name)
        setattr(Tensor, f"__{name}__", fwd)
        setattr(Tensor, f"__r{name}__", rev)
    Tensor.__invert__ = lambda self: (math.logical_not(self) if self.dtype.is_bool   # type: ignore[assignment]
                                      else dispatch.execute(INVERT, (self,)))


_install_operators()
