"""TF's ToBool op (a raw op only: tf.raw_ops.ToBool; TF's Python calls it nowhere): a scalar is its value
!= 0 (a string non-empty, NaN true) for the dtypes tensor_util's TensorToBool lists (float32, float64,
the signed ints, uint8, string, bool; half, bfloat16, uint16-uint64 and complex are the kernel's
InvalidArgumentError "half cannot be converted to a boolean"), any other tensor whether it has elements.
TF registers no gradient for it: a tape through it is LookupError (fuzz20 tape seed 2920261202 #180).
Registered at import, so that the op registry does not depend on which raw ops ran. Clause ops.fuzz-raw."""

from __future__ import annotations

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register

__all__ = ["TO_BOOL"]

_TO_BOOL_TYPES = ("float32", "float64", "int32", "uint8", "int16", "int8", "string", "int64", "bool")


def _to_bool(x: np.ndarray) -> np.ndarray:
    if x.ndim != 0:
        return np.asarray(x.size > 0)
    dt = dtypes.string if x.dtype == object else dtypes.as_dtype(x.dtype)
    if dt.name not in _TO_BOOL_TYPES:
        from simdist.runtime.ops.args import tf_name
        raise errors.InvalidArgumentError(None, None, f"{tf_name(dt)} cannot be converted to a boolean [Op:ToBool]")
    v = x.item()
    return np.asarray(bool(len(v)) if isinstance(v, bytes) else bool(v))


TO_BOOL = register("ToBool", _to_bool, lambda dts, attrs: dtypes.bool_, lambda *a, **k: 0.0, kind="reduction",
                   fusion=lanes("one scalar per call"))
no_tf_gradient("ToBool")
