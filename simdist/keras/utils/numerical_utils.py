"""`keras.utils.to_categorical` and `keras.utils.normalize` (keras/src/utils/numerical_utils.py):
class indices to one-hot rows, and an array scaled to unit norm along an axis."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["to_categorical", "normalize"]


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


def normalize(x: Any, axis: int = -1, order: int = 2) -> Any:
    """`x` divided by its `order`-norm along `axis`, as Keras 3.15: a NumPy array by
    `np.linalg.norm` with zero norms replaced by 1; a tensor by keras.ops.normalize (order 2:
    `x * min(rsqrt(sum(x**2)), 1/epsilon)`; another order: `x / max(norm, epsilon)`)."""
    if isinstance(x, np.ndarray):
        norm = np.atleast_1d(np.linalg.norm(x, order, axis))
        norm[norm == 0] = 1
        axis = axis or -1    # Keras's: axis cannot be None (nor 0) here
        return x / np.expand_dims(norm, axis)
    from simdist import tf
    from simdist.keras import config
    if not isinstance(order, int) or not order >= 1:
        raise ValueError(f"Argument `order` must be an int >= 1. Received: order={order}")
    x = tf.convert_to_tensor(x)
    if len(x.shape) == 0:
        x = tf.expand_dims(x, axis=0)
    epsilon = config.epsilon()
    if order == 2:
        inv_norm = tf.math.rsqrt(tf.reduce_sum(tf.square(x), axis=axis, keepdims=True))
        return x * tf.minimum(inv_norm, 1.0 / epsilon)
    # (Keras's TF linalg.norm: the order a tensor of x's dtype and the root's exponent `1.0 / ord` divided in that
    # dtype, not the Python float 1/order, which tf.cast rounds to float32 first: a float64 norm one float32
    # rounding off, clause keras.utils.data-tools)
    ord_t = tf.convert_to_tensor(order, dtype=x.dtype)
    norm = tf.pow(tf.reduce_sum(tf.pow(tf.abs(x), ord_t), axis=axis, keepdims=True), 1.0 / ord_t)
    return tf.divide(x, tf.maximum(norm, epsilon))
