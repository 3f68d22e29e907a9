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
        def plain(v: Any) -> Any:   # (Keras's serialize_keras_object: a NumPy scalar as its Python item)
            if isinstance(v, (str, int, float, bool)):   # (its PLAIN_TYPES first: a np.float64, a float, kept as
                return v                                 # it is, so a float64 layer re-made scales by it exactly)
            if isinstance(v, np.generic) or (isinstance(v, np.ndarray) and v.ndim == 0):
                return v.item()
            return np.asarray(v).tolist() if isinstance(v, np.ndarray) else v
        return {**super().get_config(), "scale": plain(self.scale), "offset": plain(self.offset)}
