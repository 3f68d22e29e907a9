"""`keras.layers.Masking` (keras/src/layers/core/masking.py): marks the time steps whose features
all equal `mask_value` as masked, zeroes them, and attaches the mask to the output so that the
layers after it (recurrent layers, pooling, losses) skip those steps."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.layer import Layer
from simdist.keras.tensor_attributes import set_keras_mask


def _keep(inputs: Any, mask_value: Any, keepdims: bool) -> Any:
    """True where any feature differs from mask_value (Keras's ops.any(ops.not_equal(...)): keras.ops' type
    promotion of the pair, which refuses a str mask_value with ValueError; keras.layer.arguments)."""
    from simdist.keras import ops
    inputs = tf.convert_to_tensor(inputs)
    return tf.reduce_any(ops.not_equal(inputs, mask_value), axis=-1, keepdims=keepdims)


class Masking(Layer):
    """`keras.layers.Masking(mask_value=0.0)` (clause keras.mask.propagation)."""

    def __init__(self, mask_value: Any = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True
        self._build_at_init()

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        return _keep(inputs, self.mask_value, keepdims=False)

    def call(self, inputs: Any) -> Any:
        boolean_mask = _keep(inputs, self.mask_value, keepdims=True)
        outputs = tf.where(boolean_mask, inputs, tf.zeros_like(inputs))
        set_keras_mask(outputs, tf.squeeze(boolean_mask, axis=-1))
        return outputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "mask_value": self.mask_value}
