"""`keras.layers.RMSNormalization` (keras/src/layers/normalization/rms_normalization.py): Keras's
`ops.rms_normalization` on TF, `x * rsqrt(mean(x**2, axis) + epsilon) * scale` in at least
float32, a trainable `scale` (initialized to ones) over the normalized axes."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import dtype_promotion
from simdist.keras.layers.layer import Layer
from simdist.keras.layers.unit_normalization import check_axes

__all__ = ["RMSNormalization", "rms_normalization"]


def rms_normalization(x: Any, scale: Any = None, axis: Any = -1, epsilon: float | None = None) -> Any:
    """Keras's `ops.rms_normalization` (TF backend; epsilon None is keras.config.epsilon(), as the layer's
    epsilon=None gives it)."""
    if epsilon is None:
        from simdist.keras import config
        epsilon = config.epsilon()
    x = tf.convert_to_tensor(x)
    original = x.dtype
    compute = tf.as_dtype(dtype_promotion.result_type(original.name, "float32"))
    x = x if x.dtype == compute else tf.cast(x, compute)
    if isinstance(axis, (tuple, list)):
        axis = sorted(axis)
    if len(x.shape) == 0:
        x = tf.expand_dims(x, 0)
    rrms = tf.math.rsqrt(tf.reduce_mean(tf.square(x), axis=axis, keepdims=True) + epsilon)
    outputs = x * rrms
    if scale is not None:
        scale = tf.convert_to_tensor(scale)
        outputs = outputs * (scale if scale.dtype == compute else tf.cast(scale, compute))
    return outputs if outputs.dtype == original else tf.cast(outputs, original)


class RMSNormalization(Layer):
    """`keras.layers.RMSNormalization(axis=-1, epsilon=1e-6)`."""

    def __init__(self, axis: Any = -1, epsilon: float = 1e-6, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis
        self.epsilon = epsilon

    def build(self, input_shape: Any) -> None:
        if isinstance(self.axis, (list, tuple)):
            self.axis = sorted(self.axis)
            shape = tuple(input_shape[dim] for dim in self.axis)
        else:
            shape = (input_shape[self.axis],)
            self.axis = [self.axis]
        self.scale = self.add_weight(name="scale", shape=shape, initializer="ones")
        self.built = True

    def call(self, x: Any) -> Any:
        return rms_normalization(x, scale=self.scale, axis=self.axis, epsilon=self.epsilon)

    def compute_output_shape(self, input_shape: Any) -> Any:
        check_axes(self.axis, input_shape, self.axis)
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon}
