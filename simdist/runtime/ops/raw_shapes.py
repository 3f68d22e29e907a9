"""The shape checks of TF's elementwise kernels, for raw calls of the ops simdist runs with NumPy's
broadcasting (clause ops.raw-ops).

simdist's elementwise ops broadcast as NumPy does, and their public functions check the shapes
first (math.py's binary wrappers, tf.where, ...); a `tf.raw_ops` call reaches the op without them,
so NumPy's ValueError would come out where TF's kernel raises InvalidArgumentError. TF's kernels
check in one of these ways (tensorflow/core/kernels/cwise_ops_common.h, relu_op.h, betainc_op.cc,
cwise_op_clip.cc, cross_op.cc, cwise_op_select.cc):

- BinaryOp (the broadcasting ones): "Incompatible shapes: [2] vs. [3]";
- SimpleBinaryOp (TanhGrad, SigmoidGrad, SqrtGrad, RsqrtGrad, ReciprocalGrad, InvGrad): the same
  number of elements, not the same shape; the result has the first input's shape;
- ValidateInputsAreSameShape (ReluGrad & co.): "Inputs to operation ReluGrad of type ReluGrad must
  have the same size and shape.  Input 0: [2] != input 1: [3]";
- their own: Betainc (non-scalar a, b, x equal), ClipByValue (bounds scalar or t's shape), Cross
  (equal shapes), SelectV2 (condition, then and else broadcastable).

`check(name, tensors)` raises TF's error, or returns the tensors the op should get (SimpleBinaryOp's
second input in the first one's shape).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import errors

__all__ = ["check", "SAME_COUNT", "SAME_SHAPE"]

SAME_COUNT = frozenset({"TanhGrad", "SigmoidGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad", "InvGrad"})
# image kernels that check their factor themselves (a scalar: "scale must be scalar: [2]"), not BinaryOps
OWN_CHECKS = frozenset({"AdjustHue", "AdjustSaturation"})
SAME_SHAPE = frozenset({"ReluGrad", "Relu6Grad", "EluGrad", "SeluGrad", "LeakyReluGrad", "SoftsignGrad",
                        "SoftplusGrad"})


def _dims(shape: Sequence[int]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def _invalid(op: str, text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")


def check(name: str, tensors: list[Any], broadcasting: bool = True) -> list[Any]:
    """TF's shape check of elementwise op `name` on `tensors` (shapes with an unknown dimension,
    inside a trace, are left to the op). `broadcasting`: the op is a BinaryOp when no other rule
    names it."""
    shapes = [t.shape.as_list() if t.shape.rank is not None else None for t in tensors]
    if len(tensors) < 2 or any(s is None or None in s for s in shapes) or name in OWN_CHECKS:
        return tensors
    if name in SAME_COUNT:
        n, m = (int(np.prod(s, dtype=np.int64)) for s in shapes[:2])
        if n != m:
            raise _invalid(name, f"The two arguments to a cwise op must have same number of elements, got {n} and {m}")
        if shapes[1] != shapes[0]:
            from simdist.runtime.ops import array
            tensors = [tensors[0], array.reshape(tensors[1], shapes[0]), *tensors[2:]]
        return tensors
    if name in SAME_SHAPE:
        for i, s in enumerate(shapes[1:], 1):
            if s != shapes[0]:
                raise _invalid(name, f"Inputs to operation {name} of type {name} must have the same size and shape.  "
                                     f"Input 0: {_dims(shapes[0])} != input {i}: {_dims(s)}")
        return tensors
    if name == "Betainc":
        for (i, a), (j, b) in (((0, "a"), (1, "b")), ((0, "a"), (2, "x")), ((1, "b"), (2, "x"))):
            if shapes[i] and shapes[j] and shapes[i] != shapes[j]:
                raise _invalid(name, f"Shapes of {a} and {b} are inconsistent: {_dims(shapes[i])} vs. "
                                     f"{_dims(shapes[j])}")
        return tensors
    if name == "ClipByValue":
        if any(s and s != shapes[0] for s in shapes[1:]):
            raise _invalid(name, "clip_value_min and clip_value_max must be either of the same shape as input, or a "
                                 f"scalar. input shape: {_dims(shapes[0])}clip_value_min shape: {_dims(shapes[1])}"
                                 f"clip_value_max shape: {_dims(shapes[2])}")
        return tensors
    if name == "Cross":
        if shapes[0] != shapes[1]:
            raise _invalid(name, f"Both inputs must be of same shape: {_dims(shapes[0])} vs. {_dims(shapes[1])}")
        return tensors
    try:
        np.broadcast_shapes(*[tuple(s) for s in shapes])
    except ValueError:
        if name == "SelectV2":
            raise _invalid(name, f"condition {_dims(shapes[0])}, then {_dims(shapes[1])}, and else "
                                 f"{_dims(shapes[2])} must be broadcastable") from None
        if not broadcasting:
            raise
        raise _invalid(name, f"Incompatible shapes: {_dims(shapes[0])} vs. {_dims(shapes[1])}") from None
    return tensors
