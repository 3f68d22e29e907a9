"""`keras.layers.GlobalAveragePooling1D` and `GlobalMaxPooling1D` (keras/src/layers/pooling/):
a reduction over the steps axis of a (batch, steps, features) input (channels_last) or a
(batch, features, steps) one (channels_first)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.pooling import BaseGlobalPooling


class GlobalAveragePooling1D(BaseGlobalPooling):
    """The mean over the steps axis. With `mask` (True: a real step), the mean over the unmasked
    steps only (Keras's masked formula: sum of the kept steps / their count; all-masked gives NaN)."""

    def __init__(self, data_format: Any = None, keepdims: bool = False, **kwargs: Any) -> None:
        super().__init__(pool_dimensions=1, data_format=data_format, keepdims=keepdims, **kwargs)

    @property
    def supports_masking(self) -> bool:
        return True

    def call(self, inputs: Any, mask: Any = None) -> Any:
        inputs = tf.convert_to_tensor(inputs)
        steps_axis = 1 if self.data_format == "channels_last" else 2
        if mask is not None:
            mask_expanded = tf.expand_dims(tf.convert_to_tensor(mask), 2 if self.data_format == "channels_last" else 1)
            mask_expanded = tf.cast(mask_expanded, tf.bool)
            inputs = tf.where(mask_expanded, inputs, tf.zeros_like(inputs))
            float_mask = tf.cast(mask_expanded, inputs.dtype)
            return (tf.reduce_sum(inputs, axis=steps_axis, keepdims=self.keepdims)
                    / tf.reduce_sum(float_mask, axis=steps_axis, keepdims=self.keepdims))
        ori = inputs.dtype
        compute = ori if ori in (tf.float32, tf.float64) else tf.float32
        result = compute if (ori.is_integer or ori.is_bool) else ori
        out = tf.reduce_mean(tf.cast(inputs, compute), axis=steps_axis, keepdims=self.keepdims)
        return tf.cast(out, result)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        return None


class GlobalMaxPooling1D(BaseGlobalPooling):
    """The maximum over the steps axis (Keras's ops.max: an empty input raises when executing eagerly)."""

    def __init__(self, data_format: Any = None, keepdims: bool = False, **kwargs: Any) -> None:
        super().__init__(pool_dimensions=1, data_format=data_format, keepdims=keepdims, **kwargs)

    def call(self, inputs: Any) -> Any:
        x = tf.convert_to_tensor(inputs)
        steps_axis = 1 if self.data_format == "channels_last" else 2
        from simdist.keras.ops import tf_numpy  # noqa: PLC0415 - Keras's ops.max (TF backend)
        # (its empty-input assert runs eagerly only: in a traced step an empty replica batch passes; kfuzz40)
        return tf_numpy.max(x, axis=steps_axis, keepdims=self.keepdims)


GlobalAvgPool1D = GlobalAveragePooling1D
GlobalMaxPool1D = GlobalMaxPooling1D
