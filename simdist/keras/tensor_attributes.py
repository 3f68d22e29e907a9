"""Attributes Keras hangs on tensors: `_keras_logits` (the logits a softmax/sigmoid activation's
output came from) and `_keras_mask`.

Keras 3.15 sets them with `setattr` and, when a tensor type refuses attributes, keeps them in a
dict keyed by id(tensor), cleared by a weakref finalizer (keras/src/backend/common/
tensor_attributes.py). simdist's tensors have a slot for each (runtime/tensor.py), so, as on TF,
`output._keras_mask` reads the mask; other objects take the dict path. Reading `_keras_logits`
lets the crossentropies use the logits, as on TF.
"""

from __future__ import annotations

import weakref
from typing import Any

_ATTRS: dict[str, dict[int, Any]] = {}


def _clear(key: int, attr: str) -> None:
    d = _ATTRS.get(attr)
    if d is not None:
        d.pop(key, None)


def set_tensor_attr(tensor: Any, attr: str, value: Any) -> None:
    """Set `attr` on `tensor` (None clears it)."""
    try:
        setattr(tensor, attr, value)
        return
    except (AttributeError, TypeError):
        pass
    d = _ATTRS.setdefault(attr, {})
    key = id(tensor)
    if value is None:
        d.pop(key, None)
        return
    fresh = key not in d
    d[key] = value
    if fresh:
        weakref.finalize(tensor, _clear, key, attr)


def get_tensor_attr(tensor: Any, attr: str) -> Any:
    """`attr` of `tensor`, or None."""
    try:
        direct = object.__getattribute__(tensor, attr)
    except (AttributeError, TypeError):
        d = _ATTRS.get(attr)
        return None if d is None else d.get(id(tensor))
    return direct


def set_keras_mask(x: Any, mask: Any) -> None:
    set_tensor_attr(x, "_keras_mask", mask)


def get_keras_mask(x: Any) -> Any:
    return get_tensor_attr(x, "_keras_mask")


def set_keras_logits(output: Any, logits: Any) -> None:
    """Record that `output` is softmax(logits) or sigmoid(logits) (Keras's activations do)."""
    set_tensor_attr(output, "_keras_logits", logits)


def get_keras_logits(output: Any) -> Any:
    return get_tensor_attr(output, "_keras_logits")
