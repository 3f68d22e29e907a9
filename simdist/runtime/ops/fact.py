"""TF's Fact op (a raw op only, clause ops.raw-ops): no inputs, a scalar string. TF 2.21's CPU kernel gives
b"0! == 1" on every call, eagerly and in a tf.function (observed; tensorflow/core/kernels/fact_op.cc's coded
facts are registered only under kernel labels no raw call selects). No gradient is registered (nothing to
differentiate: it has no inputs)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.string_args import STRING_COST, bytes_array

__all__ = ["FACT", "FACT_TEXT"]

FACT_TEXT = b"0! == 1"


def _fact() -> np.ndarray:
    return bytes_array((), [FACT_TEXT])


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    return dtypes.string


FACT = register("Fact", _fact, _rule, kind="io", fusion=lanes("a constant string: nothing to stack"), **STRING_COST)
no_tf_gradient("Fact")
