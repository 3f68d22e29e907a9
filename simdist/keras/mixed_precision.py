"""`keras.mixed_precision` (Keras 3.15's names): the global policy (`set_global_policy` /
`global_policy`, the same as keras.config's `set_dtype_policy` / `dtype_policy`), `Policy`
(= `DTypePolicy`: "mixed_float16" and "mixed_bfloat16" compute in 16 bits with float32
variables) and `LossScaleOptimizer` (dynamic loss scaling). Under "mixed_float16", `compile`
wraps the optimizer in a LossScaleOptimizer (clause keras.mixed-precision.auto-loss-scale)."""

from __future__ import annotations

from simdist.keras.dtype_policies import DTypePolicy
from simdist.keras.dtype_policies import dtype_policy
from simdist.keras.dtype_policies import set_dtype_policy
from simdist.keras.optimizers.loss_scale_optimizer import LossScaleOptimizer


Policy = DTypePolicy
global_policy = dtype_policy
set_global_policy = set_dtype_policy


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.mixed_precision names simdist has (one a line; clause api.namespaces)
    "DTypePolicy",
    "LossScaleOptimizer",
    "Policy",
    "dtype_policy",
    "global_policy",
    "set_dtype_policy",
    "set_global_policy",
]
__dir__ = _api.dir_of(__name__)
