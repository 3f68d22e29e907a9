"""`keras.layers.Dot` and `dot` (keras/src/layers/merging/dot.py): Keras's `batch_dot` of two
inputs over one axis each (the batch axis excluded), optionally of their L2-normalized forms;
on TF the product is a batched `tf.matmul` of (batch, m, k) by (batch, k, n)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.merging import Merge

__all__ = ["Dot", "dot", "batch_dot", "l2_normalize"]

EPSILON = 1e-7   # keras.config.epsilon()


def l2_normalize(x: Any, axis: Any, epsilon: float = EPSILON) -> Any:
    """Keras's `ops.normalize(x, axis, order=2, epsilon)`: `x * min(rsqrt(sum(x**2)), 1 / epsilon)`."""
    square_sum = tf.reduce_sum(tf.square(x), axis=axis, keepdims=True)
    inv_norm = tf.minimum(tf.math.rsqrt(square_sum), tf.cast(1.0 / epsilon, x.dtype))
    return x * inv_norm


def batch_dot(x: Any, y: Any, axes: Any) -> Any:
    """Keras's `batch_dot(x, y, axes)`: rank-2 operands get an axis of 1 (and lose it again), the
    contracted axes are moved last in x and second in y, ranks above 3 are squashed to 3."""
    x_ndim, y_ndim = len(x.shape), len(y.shape)
    if x_ndim < 2 or y_ndim < 2:
        raise ValueError(f"Cannot do batch_dot on inputs with rank < 2. Received inputs with shapes {x.shape} and "
                         f"{y.shape}.")
    if isinstance(axes, int):
        axes = [axes, axes]
    axes = list(axes)
    if axes[0] < 0:
        axes[0] += x_ndim
    if axes[1] < 0:
        axes[1] += y_ndim
    if 0 in axes:
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not batched, add a dummy batch "
                         "dimension to your inputs using keras.ops.expand_dims(x, 0)")
    a0, a1 = axes
    d1, d2 = x.shape[a0], y.shape[a1]
    if d1 is not None and d2 is not None and d1 != d2:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes {x.shape} and {y.shape} with axes={axes}. "
                         f"x.shape[{axes[0]}] != y.shape[{axes[1]}] ({d1} != {d2}).")
    orig_x_ndim, orig_y_ndim = x_ndim, y_ndim
    if x_ndim == 2:
        x = tf.expand_dims(x, 1)
        a0 += 1
        x_ndim += 1
    if y_ndim == 2:
        y = tf.expand_dims(y, 2)
        y_ndim += 1
    if a0 != x_ndim - 1:
        pattern = list(range(x_ndim))
        for i in range(a0, x_ndim - 1):
            pattern[i] = pattern[i + 1]
        pattern[-1] = a0
        x = tf.transpose(x, pattern)
    if a1 != 1:
        pattern = list(range(y_ndim))
        for i in range(a1, 1, -1):
            pattern[i] = pattern[i - 1]
        pattern[1] = a1
        y = tf.transpose(y, pattern)
    x_mid = y_trail = None
    if x_ndim > 3:
        x_mid = list(x.shape[1:-1])
        x = tf.reshape(x, [-1 if x.shape[0] is None else x.shape[0], -1, x.shape[-1]])
    if y_ndim > 3:
        y_trail = list(y.shape[2:])
        y = tf.reshape(y, [-1 if y.shape[0] is None else y.shape[0], y.shape[1], -1])
    result = tf.matmul(x, y)
    if x_mid is not None or y_trail is not None:
        shape = [-1] + (x_mid if x_mid is not None else [result.shape[1]])
        shape += y_trail if y_trail is not None else [result.shape[-1]]
        result = tf.reshape(result, shape)
    if orig_x_ndim == 2:
        result = tf.squeeze(result, 1)
    elif orig_y_ndim == 2:
        result = tf.squeeze(result, -1)
    return result


class Dot(Merge):
    """`keras.layers.Dot(axes, normalize=False)`: on [x, y], `batch_dot(x, y, axes)`; `axes` an int
    (both inputs) or a pair; negative axes count from each input's rank; no output mask."""

    def __init__(self, axes: Any, normalize: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)):
                raise TypeError(f"Invalid type for argument `axes`: it should be a list or an int. Received: "
                                f"axes={axes}")
            if len(axes) != 2:
                raise ValueError(f"Invalid format for argument `axes`: it should contain two elements. Received: "
                                 f"axes={axes}")
            if not isinstance(axes[0], int) or not isinstance(axes[1], int):
                raise ValueError(f"Invalid format for argument `axes`: list elements should be integers. Received: "
                                 f"axes={axes}")
        self.axes = axes
        self.normalize = normalize
        self.supports_masking = True
        self._reshape_required = False

    def _axes_for(self, rank1: int, rank2: int) -> list[int]:
        if isinstance(self.axes, int):
            return [self.axes % rank1, self.axes % rank2] if self.axes < 0 else [self.axes] * 2
        return [a % r if a < 0 else a for a, r in zip(self.axes, (rank1, rank2))]

    def build(self, input_shape: Any) -> None:
        if not isinstance(input_shape[0], (tuple, list)) or len(input_shape) != 2:
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs. Received: "
                             f"input_shape={input_shape}")
        shape1, shape2 = input_shape
        if shape1 is None or shape2 is None:
            return
        axes = self._axes_for(len(shape1), len(shape2))
        if shape1[axes[0]] != shape2[axes[1]]:
            raise ValueError(f"Incompatible input shapes: axis values {shape1[axes[0]]} (at axis {axes[0]}) != "
                             f"{shape2[axes[1]]} (at axis {axes[1]}). Full input shapes: {shape1}, {shape2}")

    def _merge_function(self, inputs: list[Any]) -> Any:
        if len(inputs) != 2:
            raise ValueError(f"A `Dot` layer should be called on exactly 2 inputs. Received: inputs={inputs}")
        x1, x2 = inputs
        axes = self._axes_for(len(x1.shape), len(x2.shape))
        if self.normalize:
            x1 = l2_normalize(x1, axes[0])
            x2 = l2_normalize(x2, axes[1])
        return batch_dot(x1, x2, axes)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        if not isinstance(input_shape, (tuple, list)) or len(input_shape) != 2:
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs. Received: "
                             f"input_shape={input_shape}")
        shape1, shape2 = list(input_shape[0]), list(input_shape[1])
        axes = self._axes_for(len(shape1), len(shape2))
        shape1.pop(axes[0])
        shape2.pop(axes[1])
        shape2.pop(0)
        output_shape = shape1 + shape2
        if len(output_shape) == 1:
            output_shape += [1]
        return tuple(output_shape)

    def compute_mask(self, inputs: Any, mask: Any = None) -> None:
        return None

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "axes": self.axes, "normalize": self.normalize}


def dot(inputs: list[Any], axes: Any = -1, **kwargs: Any) -> Any:
    """`keras.layers.dot(inputs, axes=-1)`: `Dot(axes)(inputs)`."""
    return Dot(axes=axes, **kwargs)(inputs)
