"""`keras.layers.Conv1DTranspose/Conv2DTranspose/Conv3DTranspose` (keras/src/layers/convolutional/
base_conv_transpose.py), computed as Keras 3.15's TensorFlow backend computes them
(backend/tensorflow/nn.py `conv_transpose`): `tf.nn.conv_transpose` to the output shape of
Keras's `compute_conv_transpose_output_shape`, then the bias through `ops.add`, then the
activation. The kernel is (*kernel_size, filters, input_channels)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import activations, constraints, initializers, regularizers
from simdist.keras.layers.argument_validation import (standardize_data_format, standardize_padding,
                                                      standardize_tuple)
from simdist.keras.layers.convolutional import _tf_data_format, add_bias
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["BaseConvTranspose", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose", "Convolution1DTranspose",
           "Convolution2DTranspose", "Convolution3DTranspose", "transpose_output_size",
           "conv_transpose_output_shape"]


def transpose_output_size(input_size: Any, kernel_size: int, stride: int, padding: str, output_padding: Any,
                          dilation_rate: int) -> Any:
    """Keras's `_get_output_shape_given_tf_padding`: one spatial size of a transposed convolution."""
    if input_size is None:
        return None
    kernel_size = (kernel_size - 1) * dilation_rate + 1
    if padding == "valid":
        if output_padding is None:
            output_padding = max(kernel_size, stride) - kernel_size
        return (input_size - 1) * stride + kernel_size + output_padding
    if output_padding is None:
        return input_size * stride
    return (input_size - 1) * stride + kernel_size % 2 + output_padding


def conv_transpose_output_shape(input_shape: Any, kernel_size: tuple, filters: int, strides: tuple, padding: str,
                                output_padding: Any, data_format: str, dilation_rate: tuple) -> list:
    """Keras's `compute_conv_transpose_output_shape`."""
    rank = len(input_shape) - 2
    spatial = input_shape[1:-1] if data_format == "channels_last" else input_shape[2:]
    sizes = [transpose_output_size(spatial[i], kernel_size[i], strides[i], padding,
                                   None if output_padding is None else output_padding[i], dilation_rate[i])
             for i in range(rank)]
    if data_format == "channels_last":
        return [input_shape[0], *sizes, filters]
    return [input_shape[0], filters, *sizes]


class BaseConvTranspose(Layer):
    """Keras's abstract N-D transposed convolution layer."""

    def __init__(self, rank: int, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 output_padding: Any = None, data_format: str | None = None, dilation_rate: Any = 1,
                 activation: Any = None, use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.rank = rank
        self.filters = filters
        self.kernel_size = standardize_tuple(kernel_size, rank, "kernel_size")
        self.strides = standardize_tuple(strides, rank, "strides")
        self.dilation_rate = standardize_tuple(dilation_rate, rank, "dilation_rate")
        self.padding = standardize_padding(padding)
        self.output_padding = (None if output_padding is None
                               else standardize_tuple(output_padding, rank, "output_padding", allow_zero=True))
        self.data_format = standardize_data_format(data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=self.rank + 2)
        if self.filters is not None and self.filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. Received "
                             f"filters={self.filters}.")
        if not all(self.kernel_size):
            raise ValueError(f"The argument `kernel_size` cannot contain 0. Received kernel_size={self.kernel_size}.")
        if not all(self.strides):
            raise ValueError(f"The argument `strides` cannot contains 0. Received strides={self.strides}.")
        if self.output_padding is not None:
            for i, (op, s) in enumerate(zip(self.output_padding, self.strides)):
                if op >= s:
                    raise ValueError(f"`output_padding` must be strictly less than `strides` for all dimensions. At "
                                     f"dimension {i}, `output_padding` is {op} but `strides` is {s}. Received: "
                                     f"output_padding={self.output_padding}, strides={self.strides}")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             f"strides={self.strides} and dilation_rate={self.dilation_rate}")

    def build(self, input_shape: Any) -> None:
        channel_axis = -1 if self.data_format == "channels_last" else 1
        input_channel = input_shape[channel_axis]
        self.input_spec = InputSpec(min_ndim=self.rank + 2, axes={channel_axis: input_channel})
        self.kernel = self.add_weight(name="kernel", shape=self.kernel_size + (self.filters, input_channel),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, trainable=True, dtype=self.dtype)
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint,
                                        trainable=True, dtype=self.dtype)
        else:
            self.bias = None
        self.built = True

    def call(self, inputs: Any) -> Any:
        inputs = tf.convert_to_tensor(inputs)
        shape = list(inputs.shape)
        dynamic = tf.shape(inputs)
        shape = [dynamic[i] if d is None else d for i, d in enumerate(shape)]
        output_shape = conv_transpose_output_shape(shape, self.kernel_size, self.filters, self.strides, self.padding,
                                                   self.output_padding, self.data_format, self.dilation_rate)
        outputs = tf.nn.conv_transpose(inputs, self.kernel, output_shape, list(self.strides),
                                       padding=self.padding.upper(),
                                       data_format=_tf_data_format(self.data_format, len(inputs.shape)),
                                       dilations=list(self.dilation_rate))
        return add_bias(self, outputs, self.filters)

    def compute_output_shape(self, input_shape: Any) -> list:
        """A list, as Keras's (compute_conv_transpose_output_shape builds one; the other conv layers' are tuples)."""
        return list(conv_transpose_output_shape(list(input_shape), self.kernel_size, self.filters, self.strides,
                                                self.padding, self.output_padding, self.data_format,
                                                self.dilation_rate))

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "filters": self.filters, "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding, "output_padding": self.output_padding,
                "data_format": self.data_format, "dilation_rate": self.dilation_rate,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint)}


def _ranked(rank: int, name: str, doc: str) -> type:
    def __init__(self: Any, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 output_padding: Any = None, data_format: str | None = None, dilation_rate: Any = 1,
                 **kwargs: Any) -> None:
        BaseConvTranspose.__init__(self, rank, filters, kernel_size, strides=strides, padding=padding,
                                   output_padding=output_padding, data_format=data_format,
                                   dilation_rate=dilation_rate, **kwargs)
    # (Keras's class defines its own __init__: a call error names it, "Conv1DTranspose.__init__() got multiple values
    # for argument 'kernel_size'"; fix66n, observed on TF 2.21)
    __init__.__qualname__ = f"{name}.__init__"
    return type(name, (BaseConvTranspose,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


Conv1DTranspose = _ranked(1, "Conv1DTranspose", "`keras.layers.Conv1DTranspose(filters, kernel_size, strides=1, "
                          "padding='valid', output_padding=None, ...)` on (batch, steps, channels).")
Conv2DTranspose = _ranked(2, "Conv2DTranspose", "`keras.layers.Conv2DTranspose(filters, kernel_size, strides=(1, 1), "
                          "padding='valid', output_padding=None, ...)` on (batch, height, width, channels).")
Conv3DTranspose = _ranked(3, "Conv3DTranspose", "`keras.layers.Conv3DTranspose(filters, kernel_size, ...)` on "
                          "(batch, d1, d2, d3, channels).")
Convolution1DTranspose = Conv1DTranspose
Convolution2DTranspose = Conv2DTranspose
Convolution3DTranspose = Conv3DTranspose
