"""`keras.layers.Rescaling` (keras/src/layers/preprocessing/rescaling.py): `inputs * scale +
offset` in the compute dtype (a per-channel scale is reshaped to (C, 1, 1) when the image data
format is channels_first)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist import tf
from simdist.keras.layers import argument_validation
from simdist.keras.layers.layer import Layer

__all__ = ["Rescaling"]


class Rescaling(Layer):
    """`keras.layers.Rescaling(scale, offset=0.0)`: scale and offset numbers or arrays."""

    def __init__(self, scale: Any, offset: Any = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scale = scale
        self.offset = offset
        self.supports_masking = True
        self._allow_non_tensor_positional_args = True   # (Keras's TFDataLayer)

    def call(self, inputs: Any) -> Any:
        dtype = self.compute_dtype
        scale = tf.cast(self.scale, dtype)
        offset = tf.cast(self.offset, dtype)
        scale_shape = tuple(scale.shape)
        if len(scale_shape) > 0 and argument_validation.standardize_data_format(None) == "channels_first":
            scale = tf.reshape(scale, scale_shape + (1,) * (3 - len(scale_shape)))
        return tf.cast(inputs, dtype) * scale + offset

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        """Keras's: scale and offset through serialize_keras_object (a np.float64 kept, as a float subclass, so a
        float64 layer re-made scales by it exactly; an array or tensor as its "__numpy__"/"__tensor__" dict)."""
        from simdist.keras.serialization import serialize_value
        return {**super().get_config(), "scale": serialize_value(self.scale), "offset": serialize_value(self.offset)}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: Any = None) -> Any:
        """Keras's: scale and offset through deserialize_keras_object (the dicts back to an array or a tensor)."""
        from simdist.keras.serialization import deserialize_value
        config = dict(config)
        config["scale"] = deserialize_value(config["scale"])
        config["offset"] = deserialize_value(config["offset"])
        return cls(**config)
