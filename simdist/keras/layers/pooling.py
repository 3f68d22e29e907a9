"""Pooling layers (keras/src/layers/pooling/): MaxPooling2D, AveragePooling2D,
GlobalAveragePooling2D, GlobalMaxPooling2D, computed as Keras 3.15's TensorFlow backend does:
`tf.nn.max_pool` / `tf.nn.avg_pool` in NHWC (a channels-first input is transposed to NHWC and
back, as Keras does on TF), global pooling as a mean / max over the spatial axes."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.argument_validation import (compute_pooling_output_shape, standardize_data_format,
                                                      standardize_tuple)
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["BasePooling", "MaxPooling2D", "AveragePooling2D", "MaxPool2D", "AvgPool2D", "BaseGlobalPooling",
           "GlobalAveragePooling2D", "GlobalMaxPooling2D", "GlobalAvgPool2D", "GlobalMaxPool2D", "max_pool",
           "average_pool"]

_TO_LAST = {3: (0, 2, 1), 4: (0, 2, 3, 1), 5: (0, 2, 3, 4, 1)}
_TO_FIRST = {3: (0, 2, 1), 4: (0, 3, 1, 2), 5: (0, 4, 1, 2, 3)}
_CHANNELS_LAST = {3: "NWC", 4: "NHWC", 5: "NDHWC"}


def _pool(fn: Any, inputs: Any, pool_size: Any, strides: Any, padding: str, data_format: Any) -> Any:
    """Keras's max_pool / average_pool on TF: the op in channels-last, transposing a
    channels-first input (Keras's _transpose_spatial_inputs/outputs)."""
    data_format = standardize_data_format(data_format)
    strides = pool_size if strides is None else strides
    padding = padding.upper()
    inputs = tf.convert_to_tensor(inputs)
    ndim = len(inputs.shape)
    if ndim not in _CHANNELS_LAST:
        raise ValueError(f"Input rank not supported: {ndim}. Expected values are [3, 4, 5]")
    if data_format == "channels_first":
        inputs = tf.transpose(inputs, _TO_LAST[ndim])
    outputs = fn(inputs, pool_size, strides, padding, _CHANNELS_LAST[ndim])
    if data_format == "channels_first":
        outputs = tf.transpose(outputs, _TO_FIRST[ndim])
    return outputs


def max_pool(inputs: Any, pool_size: Any, strides: Any = None, padding: str = "valid",
             data_format: Any = None) -> Any:
    """Keras's `ops.max_pool` on TF."""
    return _pool(tf.nn.max_pool, inputs, pool_size, strides, padding, data_format)


def average_pool(inputs: Any, pool_size: Any, strides: Any = None, padding: str = "valid",
                 data_format: Any = None) -> Any:
    """Keras's `ops.average_pool` on TF (SAME padding averages the in-bounds elements only)."""
    return _pool(tf.nn.avg_pool, inputs, pool_size, strides, padding, data_format)


class BasePooling(Layer):
    """Keras's base pooling layer: `padding` is kept as given (the op upper-cases it)."""

    def __init__(self, pool_size: Any, strides: Any, pool_dimensions: int, pool_mode: str = "max",
                 padding: str = "valid", data_format: Any = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        self.pool_size = standardize_tuple(pool_size, pool_dimensions, "pool_size")
        strides = pool_size if strides is None else strides
        self.strides = standardize_tuple(strides, pool_dimensions, "strides", allow_zero=True)
        self.pool_mode = pool_mode
        self.padding = padding
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=pool_dimensions + 2)
        self._build_at_init()

    def call(self, inputs: Any) -> Any:
        if self.pool_mode == "max":
            return max_pool(inputs, pool_size=self.pool_size, strides=self.strides, padding=self.padding,
                            data_format=self.data_format)
        if self.pool_mode == "average":
            return average_pool(inputs, pool_size=self.pool_size, strides=self.strides, padding=self.padding,
                                data_format=self.data_format)
        raise ValueError(f"`pool_mode` must be either 'max' or 'average'. Received: {self.pool_mode}.")

    def compute_output_shape(self, input_shape: Any) -> tuple:
        return compute_pooling_output_shape(input_shape, self.pool_size, self.strides, self.padding,
                                            self.data_format)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "pool_size": self.pool_size, "padding": self.padding,
                "strides": self.strides, "data_format": self.data_format}


class MaxPooling2D(BasePooling):
    """`keras.layers.MaxPooling2D(pool_size=(2, 2), strides=None, padding="valid", data_format=None)`:
    the maximum of each window (strides default to pool_size)."""

    def __init__(self, pool_size: Any = (2, 2), strides: Any = None, padding: str = "valid", data_format: Any = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, pool_dimensions=2, pool_mode="max", padding=padding,
                         data_format=data_format, name=name, **kwargs)


class AveragePooling2D(BasePooling):
    """`keras.layers.AveragePooling2D(pool_size, strides=None, padding="valid", data_format=None)`:
    the mean of each window's in-bounds elements (unlike MaxPooling2D, pool_size has no default
    in Keras 3.15)."""

    def __init__(self, pool_size: Any, strides: Any = None, padding: str = "valid", data_format: Any = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, pool_dimensions=2, pool_mode="average", padding=padding,
                         data_format=data_format, name=name, **kwargs)


class BaseGlobalPooling(Layer):
    """Keras's base global pooling layer: a reduction over every spatial axis."""

    def __init__(self, pool_dimensions: int, data_format: Any = None, keepdims: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        self.keepdims = keepdims
        self.input_spec = InputSpec(ndim=pool_dimensions + 2)
        self._build_at_init()

    def _spatial_axes(self, inputs: Any) -> list[int]:
        nsp = len(inputs.shape) - 2
        return list(range(1, 1 + nsp)) if self.data_format == "channels_last" else list(range(2, 2 + nsp))

    def compute_output_shape(self, input_shape: Any) -> tuple:
        input_shape = tuple(input_shape)
        nsp = len(input_shape) - 2
        if self.data_format == "channels_last":
            if self.keepdims:
                return (input_shape[0],) + (1,) * nsp + (input_shape[-1],)
            return (input_shape[0], input_shape[-1])
        if self.keepdims:
            return (input_shape[0], input_shape[1]) + (1,) * nsp
        return (input_shape[0], input_shape[1])

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "data_format": self.data_format, "keepdims": self.keepdims}


class GlobalAveragePooling2D(BaseGlobalPooling):
    """`keras.layers.GlobalAveragePooling2D(data_format=None, keepdims=False)`: the mean over
    height and width (Keras's ops.mean: computed in at least float32, integers give floats)."""

    def __init__(self, data_format: Any = None, keepdims: bool = False, **kwargs: Any) -> None:
        super().__init__(pool_dimensions=2, data_format=data_format, keepdims=keepdims, **kwargs)

    def call(self, inputs: Any) -> Any:
        x = tf.convert_to_tensor(inputs)
        ori = x.dtype
        compute = ori if ori in (tf.float32, tf.float64) else tf.float32
        result = compute if (ori.is_integer or ori.is_bool) else ori
        out = tf.reduce_mean(tf.cast(x, compute), axis=self._spatial_axes(x), keepdims=self.keepdims)
        return tf.cast(out, result)


class GlobalMaxPooling2D(BaseGlobalPooling):
    """`keras.layers.GlobalMaxPooling2D(data_format=None, keepdims=False)`: the maximum over
    height and width (Keras's ops.max: an empty input raises when executing eagerly)."""

    def __init__(self, data_format: Any = None, keepdims: bool = False, **kwargs: Any) -> None:
        super().__init__(pool_dimensions=2, data_format=data_format, keepdims=keepdims, **kwargs)

    def call(self, inputs: Any) -> Any:
        x = tf.convert_to_tensor(inputs)
        from simdist.keras.ops import tf_numpy  # noqa: PLC0415 - Keras's ops.max (TF backend)
        # (its empty-input assert runs eagerly only: in a traced step an empty replica batch passes; kfuzz40)
        return tf_numpy.max(x, axis=self._spatial_axes(x), keepdims=self.keepdims)


MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalMaxPool2D = GlobalMaxPooling2D
