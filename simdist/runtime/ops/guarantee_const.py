"""tf.guarantee_const (TF's GuaranteeConst op, deprecated "Not for public use"): the input itself,
a promise to the runtime that its value does not change. Any dtype (strings too). TF 2.21
registers no gradient for it: a tape that differentiates through it raises the gradient
registry's LookupError ("gradient registry has no entry for: GuaranteeConst").
"""

from __future__ import annotations

from typing import Any

from simdist.runtime.ops import args, dispatch
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import RESHAPED, register
from simdist.runtime.tensor import Tensor

__all__ = ["guarantee_const"]

GUARANTEE_CONST = register("GuaranteeConst", lambda a: a, args.first, args.zero_flops, kind="shape", fusion=RESHAPED)
no_tf_gradient("GuaranteeConst")    # TF registers none: LookupError at backprop


def guarantee_const(input: Any, name: str | None = None) -> Tensor:  # noqa: A002 - TF's name
    """`tf.guarantee_const`: the same value (no gradient registered)."""
    return dispatch.execute(GUARANTEE_CONST, (_t(input),))
