"""`keras.utils.to_categorical` (keras/src/utils/numerical_utils.py): class indices to one-hot rows."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["to_categorical"]


def to_categorical(x: Any, num_classes: int | None = None) -> Any:
    """One-hot encode the integer class vector ``x`` as Keras 3.15 does: a NumPy float64 array of
    shape ``x.shape + (num_classes,)`` (a trailing axis of size 1 dropped first); for a tensor,
    ``one_hot`` of it (float32)."""
    from simdist import tf
    if isinstance(x, tf.Tensor):
        if num_classes is None:
            raise ValueError(f"to_categorical: a tensor input needs num_classes (received num_classes=None for {x})")
        if len(x.shape) > 1 and x.shape[-1] == 1:
            x = tf.reshape(x, tuple(x.shape[:-1]))
        return tf.one_hot(x, num_classes)
    x = np.array(x, dtype="int64")
    input_shape = x.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    x = x.reshape(-1)
    if not num_classes:
        num_classes = int(np.max(x)) + 1
    if x.size and (x.min() < 0 or x.max() >= num_classes):
        raise IndexError(f"to_categorical: class indices must be in [0, {num_classes}); received values "
                         f"from {int(x.min())} to {int(x.max())}")
    categorical = np.zeros((x.shape[0], num_classes))
    categorical[np.arange(x.shape[0]), x] = 1
    return np.reshape(categorical, input_shape + (num_classes,))
