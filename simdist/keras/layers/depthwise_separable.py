"""`keras.layers.DepthwiseConv2D`, `SeparableConv1D` and `SeparableConv2D`
(keras/src/layers/convolutional/base_depthwise_conv.py, base_separable_conv.py), computed as
Keras 3.15's TensorFlow backend computes them on a CPU (backend/tensorflow/nn.py
`depthwise_conv`, `separable_conv`): `tf.nn.depthwise_conv2d` / `tf.nn.separable_conv2d` in
NHWC (channels-first inputs transposed there and back; 1-D inputs given a unit height with
ExpandDims and squeezed after), then the bias through Keras's `ops.add`, then the activation."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import constraints
from simdist.keras import activations, initializers, regularizers
from simdist.keras.layers.argument_validation import (compute_conv_output_shape, standardize_data_format,
                                                      standardize_padding, standardize_tuple)
from simdist.keras.layers.convolutional import add_bias
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["DepthwiseConv2D", "SeparableConv1D", "SeparableConv2D", "SeparableConvolution1D",
           "SeparableConvolution2D", "depthwise_conv", "separable_conv"]


def _channels_last(inputs: Any, data_format: str) -> tuple[Any, bool]:
    """Keras's _transpose_spatial_inputs on a CPU: channels-first -> channels-last."""
    if data_format != "channels_first":
        return inputs, False
    rank = len(inputs.shape)
    return tf.transpose(inputs, [0] + list(range(2, rank)) + [1]), True


def _channels_first(outputs: Any) -> Any:
    rank = len(outputs.shape)
    return tf.transpose(outputs, [0, rank - 1] + list(range(1, rank - 1)))


def _prepare(inputs: Any, kernels: list, strides: tuple, dilation_rate: tuple, data_format: str,
             op: str) -> tuple[Any, list, list, tuple, bool, bool]:
    """The shared argument handling of Keras's depthwise_conv and separable_conv."""
    inputs = tf.convert_to_tensor(inputs)
    nsp = len(inputs.shape) - 2
    if nsp not in (1, 2):
        raise ValueError(f"`inputs` rank must be 3 (1D conv) or 4 (2D conv). Received: {len(inputs.shape)}.")
    if any(s > 1 for s in strides) and any(d > 1 for d in dilation_rate):
        raise NotImplementedError(f"simdist: keras's {op} with strides {strides} and dilation_rate {dilation_rate} "
                                  "(Keras decomposes it into strided convolutions); strides or dilations of 1 are "
                                  "implemented")
    inputs, transposed = _channels_last(inputs, data_format)
    one_d = nsp == 1
    if one_d:
        inputs = tf.expand_dims(inputs, 1)
        kernels = [tf.expand_dims(k, 0) for k in kernels]
        strides = (1,) + tuple(strides) * 2 + (1,)
        dilation_rate = (1,) + tuple(dilation_rate)
    else:
        strides = (1,) + tuple(strides) + (1,)
    return inputs, kernels, list(strides), dilation_rate, one_d, transposed


def _finish(outputs: Any, one_d: bool, transposed: bool) -> Any:
    if one_d:
        outputs = tf.squeeze(outputs, [1])
    return _channels_first(outputs) if transposed else outputs


def depthwise_conv(inputs: Any, kernel: Any, strides: tuple, padding: str, data_format: str,
                   dilation_rate: tuple) -> Any:
    """Keras's `ops.depthwise_conv` on TF (CPU)."""
    x, (k,), st, dl, one_d, tr = _prepare(inputs, [kernel], strides, dilation_rate, data_format, "depthwise_conv")
    return _finish(tf.nn.depthwise_conv2d(x, k, st, padding.upper(), data_format="NHWC", dilations=dl), one_d, tr)


def separable_conv(inputs: Any, depthwise_kernel: Any, pointwise_kernel: Any, strides: tuple, padding: str,
                   data_format: str, dilation_rate: tuple) -> Any:
    """Keras's `ops.separable_conv` on TF (CPU)."""
    x, (dk, pk), st, dl, one_d, tr = _prepare(inputs, [depthwise_kernel, pointwise_kernel], strides, dilation_rate,
                                              data_format, "separable_conv")
    return _finish(tf.nn.separable_conv2d(x, dk, pk, st, padding.upper(), data_format="NHWC", dilations=dl),
                   one_d, tr)


class _DepthwiseBase(Layer):
    """The arguments Keras's depthwise and separable bases share, checked as Keras checks them."""

    def __init__(self, rank: int, depth_multiplier: int, kernel_size: Any, strides: Any, padding: str,
                 data_format: str | None, dilation_rate: Any, activation: Any, use_bias: bool,
                 depthwise_initializer: Any, bias_initializer: Any, depthwise_regularizer: Any,
                 bias_regularizer: Any, activity_regularizer: Any, depthwise_constraint: Any, bias_constraint: Any,
                 *, pointwise_initializer: Any = None, **kwargs: Any) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.rank = rank
        self.depth_multiplier = depth_multiplier
        self.kernel_size = standardize_tuple(kernel_size, rank, "kernel_size")
        self.strides = standardize_tuple(strides, rank, "strides")
        self.dilation_rate = standardize_tuple(dilation_rate, rank, "dilation_rate")
        self.padding = standardize_padding(padding)
        self.data_format = standardize_data_format(data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        if pointwise_initializer is not None:   # (a separable conv's, made between the depthwise and the bias
            # initializers as Keras's BaseSeparableConv makes them: each unseeded initializer draws its default seed
            # from the global stream when made; keras.init.seeding, asweep65)
            self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=self.rank + 2)
        if self.depth_multiplier is not None and self.depth_multiplier <= 0:
            raise ValueError(f"Invalid value for argument `depth_multiplier`. Expected a strictly positive value. "
                             f"Received depth_multiplier={self.depth_multiplier}.")

    def _check_sizes(self, kernel_message: str, strides_message: str) -> None:
        if not all(self.kernel_size):
            raise ValueError(kernel_message + f"kernel_size={self.kernel_size}.")
        if not all(self.strides):
            raise ValueError(strides_message + f"strides={self.strides}")

    def _input_channel(self, input_shape: Any) -> Any:
        return input_shape[-1] if self.data_format == "channels_last" else input_shape[1]

    def _spec(self, input_shape: Any) -> Any:
        channel_axis = -1 if self.data_format == "channels_last" else 1
        input_channel = self._input_channel(input_shape)
        self.input_spec = InputSpec(min_ndim=self.rank + 2, axes={channel_axis: input_channel})
        return input_channel

    def _output_shape(self, input_shape: Any, channels: int) -> tuple:
        return compute_conv_output_shape(input_shape, channels, self.kernel_size, strides=self.strides,
                                         padding=self.padding, data_format=self.data_format,
                                         dilation_rate=self.dilation_rate)

    def _shared_config(self) -> dict[str, Any]:
        return {"depth_multiplier": self.depth_multiplier, "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding, "data_format": self.data_format,
                "dilation_rate": self.dilation_rate, "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias,
                "depthwise_initializer": initializers.serialize(self.depthwise_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "depthwise_regularizer": regularizers.serialize(self.depthwise_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                "depthwise_constraint": constraints.serialize(self.depthwise_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint)}


class DepthwiseConv2D(_DepthwiseBase):
    """`keras.layers.DepthwiseConv2D(kernel_size, strides=(1, 1), padding="valid",
    depth_multiplier=1, data_format=None, dilation_rate=(1, 1), ...)`: each input channel
    convolved with its own depth_multiplier filters; kernel (kh, kw, in, depth_multiplier),
    bias (in * depth_multiplier,)."""

    def __init__(self, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid", depth_multiplier: int = 1,
                 data_format: str | None = None, dilation_rate: Any = (1, 1), activation: Any = None,
                 use_bias: bool = True, depthwise_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", depthwise_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, depthwise_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(2, depth_multiplier, kernel_size, strides, padding, data_format, dilation_rate, activation,
                         use_bias, depthwise_initializer, bias_initializer, depthwise_regularizer, bias_regularizer,
                         activity_regularizer, depthwise_constraint, bias_constraint, **kwargs)
        self._check_sizes("The argument `kernel_size` cannot contain 0. Received ",
                          "The argument `strides` cannot contains 0. Received ")

    def build(self, input_shape: Any) -> None:
        input_channel = self._spec(input_shape)
        self.compute_output_shape(input_shape)
        self.kernel = self.add_weight(name="kernel", shape=self.kernel_size + (input_channel, self.depth_multiplier),
                                      initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
                                      constraint=self.depthwise_constraint, trainable=True, dtype=self.dtype)
        self.bias = self.add_weight(name="bias", shape=(self.depth_multiplier * input_channel,),
                                    initializer=self.bias_initializer, regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint, trainable=True,
                                    dtype=self.dtype) if self.use_bias else None
        self.built = True

    def call(self, inputs: Any) -> Any:
        outputs = depthwise_conv(inputs, self.kernel, strides=self.strides, padding=self.padding,
                                 data_format=self.data_format, dilation_rate=self.dilation_rate)
        return add_bias(self, outputs, self.depth_multiplier * self._input_channel(inputs.shape))

    def compute_output_shape(self, input_shape: Any) -> tuple:
        return self._output_shape(input_shape, self.depth_multiplier * self._input_channel(input_shape))

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), **self._shared_config()}


class _SeparableConv(_DepthwiseBase):
    """Keras's BaseSeparableConv: a depthwise kernel (k..., in, depth_multiplier), a pointwise
    kernel (1..., in * depth_multiplier, filters) and a bias (filters,)."""

    def __init__(self, rank: int, filters: int, kernel_size: Any, strides: Any, padding: str,
                 data_format: str | None, dilation_rate: Any, depth_multiplier: int, activation: Any, use_bias: bool,
                 depthwise_initializer: Any, pointwise_initializer: Any, bias_initializer: Any,
                 depthwise_regularizer: Any, pointwise_regularizer: Any, bias_regularizer: Any,
                 activity_regularizer: Any, depthwise_constraint: Any, pointwise_constraint: Any,
                 bias_constraint: Any, **kwargs: Any) -> None:
        super().__init__(rank, depth_multiplier, kernel_size, strides, padding, data_format, dilation_rate,
                         activation, use_bias, depthwise_initializer, bias_initializer, depthwise_regularizer,
                         bias_regularizer, activity_regularizer, depthwise_constraint, bias_constraint,
                         pointwise_initializer=pointwise_initializer, **kwargs)
        self.filters = filters
        if pointwise_initializer is None:
            self.pointwise_initializer = None
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.pointwise_constraint = constraints.get(pointwise_constraint)
        if self.filters is not None and self.filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. Received "
                             f"filters={self.filters}.")
        self._check_sizes("The argument `kernel_size` cannot contain 0. Received: ",
                          "The argument `strides` cannot contains 0(s). Received: ")

    def build(self, input_shape: Any) -> None:
        input_channel = self._spec(input_shape)
        # (Keras computes both kernel shapes before compute_output_shape's checks: an unknown channel count is
        # the TypeError of `depth_multiplier * None`, not the output shape's error)
        depthwise_shape = self.kernel_size + (input_channel, self.depth_multiplier)
        pointwise_shape = (1,) * self.rank + (self.depth_multiplier * input_channel, self.filters)
        self.compute_output_shape(input_shape)
        self.depthwise_kernel = self.add_weight(
            name="depthwise_kernel", shape=depthwise_shape,
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint, trainable=True, dtype=self.dtype)
        self.pointwise_kernel = self.add_weight(
            name="pointwise_kernel", shape=pointwise_shape,
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint, trainable=True, dtype=self.dtype)
        self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint,
                                    trainable=True, dtype=self.dtype) if self.use_bias else None
        self.built = True

    def call(self, inputs: Any) -> Any:
        outputs = separable_conv(inputs, self.depthwise_kernel, self.pointwise_kernel, strides=self.strides,
                                 padding=self.padding, data_format=self.data_format,
                                 dilation_rate=self.dilation_rate)
        return add_bias(self, outputs, self.filters)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        return self._output_shape(input_shape, self.filters)

    def get_config(self) -> dict[str, Any]:
        config = {**super().get_config(), **self._shared_config(), "filters": self.filters,
                  "pointwise_initializer": initializers.serialize(self.pointwise_initializer),
                  "pointwise_regularizer": regularizers.serialize(self.pointwise_regularizer),
                  "pointwise_constraint": constraints.serialize(self.pointwise_constraint)}
        return config


def _separable_init(rank: int) -> Any:
    """The public constructor of SeparableConv{rank}D (Keras's argument order and defaults)."""
    one = 1 if rank == 1 else (1, 1)

    def __init__(self: Any, filters: int, kernel_size: Any, strides: Any = one, padding: str = "valid",
                 data_format: str | None = None, dilation_rate: Any = one, depth_multiplier: int = 1,
                 activation: Any = None, use_bias: bool = True, depthwise_initializer: Any = "glorot_uniform",
                 pointwise_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 depthwise_regularizer: Any = None, pointwise_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, depthwise_constraint: Any = None,
                 pointwise_constraint: Any = None, bias_constraint: Any = None, **kwargs: Any) -> None:
        _SeparableConv.__init__(self, rank, filters, kernel_size, strides, padding, data_format, dilation_rate,
                                depth_multiplier, activation, use_bias, depthwise_initializer, pointwise_initializer,
                                bias_initializer, depthwise_regularizer, pointwise_regularizer, bias_regularizer,
                                activity_regularizer, depthwise_constraint, pointwise_constraint, bias_constraint,
                                **kwargs)
    return __init__


class SeparableConv1D(_SeparableConv):
    """`keras.layers.SeparableConv1D(filters, kernel_size, strides=1, padding="valid", ...)`."""
    __init__ = _separable_init(1)


class SeparableConv2D(_SeparableConv):
    """`keras.layers.SeparableConv2D(filters, kernel_size, strides=(1, 1), padding="valid", ...)`."""
    __init__ = _separable_init(2)


SeparableConvolution1D = SeparableConv1D
SeparableConvolution2D = SeparableConv2D
