"""The `__name__` of facade functions whose TF 2.21 Python definition is named otherwise than the export.

TF exports `tf.nn.silu` and `tf.nn.swish` from `def swish`, `tf.nn.softmax` from `softmax_v2`, `tf.nn.log_softmax`
from `log_softmax_v2`, `tf.nn.crelu` from `crelu_v2` (tf_export names them, Python keeps the def's name). Keras
serializes a plain function by that name (serialize_keras_object: `{"class_name": "function", "config":
fn.__name__}`; activations.serialize keeps a bare string only for its own activation names), so
`Dense(activation=tf.nn.silu).get_config()` is the function dict {"config": "swish"} on TF, not "silu"
(asweep65's note, fix65k; observed on TF 2.21). `apply` renames the facade's own wrappers (functools.wraps
copies, never the runtime's op functions, whose names other code reads).
"""

from __future__ import annotations

import types
from typing import Any

__all__ = ["TF_NAMES", "apply"]

#: export path under tf -> the TF 2.21 function's __name__ (observed: `tf.nn.silu.__name__` & co.)
TF_NAMES: dict[str, str] = {
    "nn.silu": "swish", "nn.swish": "swish",
    "nn.softmax": "softmax_v2", "math.softmax": "softmax_v2",
    "nn.log_softmax": "log_softmax_v2", "math.log_softmax": "log_softmax_v2",
    "nn.crelu": "crelu_v2",
}


def apply(tf: Any) -> None:
    """Give each listed facade function (a wrapper of simdist's op) TF's `__name__` and `__qualname__`."""
    for path, name in TF_NAMES.items():
        obj: Any = tf
        for part in path.split("."):
            obj = getattr(obj, part, None)
        if type(obj) is types.FunctionType and hasattr(obj, "__wrapped__"):
            obj.__name__ = obj.__qualname__ = name
