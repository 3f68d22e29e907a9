"""`keras.layers.Conv1D` and `Conv2D` (keras/src/layers/convolutional/base_conv.py, conv1d.py,
conv2d.py), computed as
Keras 3.15's TensorFlow backend computes it (backend/tensorflow/nn.py `conv`, numpy.py `add`):
`tf.nn.convolution` in NHWC or NCHW, then the bias through Keras's `ops.add`, then the
activation."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import constraints
from simdist.keras import activations, dtype_promotion, initializers, regularizers
from simdist.keras.layers.argument_validation import (compute_conv_output_shape, standardize_data_format,
                                                      standardize_padding, standardize_tuple)
from simdist.keras.layers import lora
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["BaseConv", "Conv1D", "Convolution1D", "Conv2D", "Convolution2D", "keras_add", "conv", "add_bias"]


def _tf_data_format(data_format: str, ndim: int) -> str:
    """Keras's _convert_data_format."""
    if data_format == "channels_last":
        names = {3: "NWC", 4: "NHWC", 5: "NDHWC"}
    elif data_format == "channels_first":
        names = {3: "NCW", 4: "NCHW", 5: "NCDHW"}
    else:
        raise ValueError(f"Invalid data_format: {data_format}. Expected values are [\"channels_first\", "
                         "\"channels_last\"]")
    if ndim not in names:
        raise ValueError(f"Input rank not supported: {ndim}. Expected values are [3, 4, 5]")
    return names[ndim]


def conv(inputs: Any, kernel: Any, strides: Any = 1, padding: str = "valid", data_format: str | None = None,
         dilation_rate: Any = 1) -> Any:
    """Keras's `ops.conv` (the layers' convolution_op calls it): keras.ops' transcription, whose TF backend
    runs `tf.nn.convolution`, refuses an empty output from a non-empty input, and routes grouped and
    channels-first 3-D convolutions through an XLA-compiled function (keras/ops/tf_nn.py `conv`)."""
    from simdist.keras.ops import op_nn  # noqa: PLC0415 - keras.ops imports the layers' package (a cycle)
    return op_nn.conv(tf.convert_to_tensor(inputs), kernel, strides, padding, data_format, dilation_rate)


def keras_add(x1: Any, x2: Any) -> Any:
    """Keras's `ops.add` on TF: a bias-like x2 (one dimension above 1, matching x1's second or
    last axis) goes through `tf.nn.bias_add` — along the LAST axis whenever that one matches,
    even for a channels-first x1 (Keras's rule, kept as is) — else `tf.add`; both operands first
    promoted to their result type (simdist/keras/dtype_promotion.py)."""
    (x1, x2), _ = dtype_promotion.promote(x1, x2)
    squeezed = [d for d in x2.shape.as_list() if d is None or d > 1]
    dims = x1.shape.as_list()
    if len(squeezed) == 1 and len(dims) > 1 and squeezed[0] is not None and squeezed[0] in {dims[1], dims[-1]}:
        data_format = "NHWC" if dims[-1] == squeezed[0] else "NCHW"
        if len(x2.shape) > 1:
            x2 = tf.squeeze(x2)
        return tf.nn.bias_add(x1, x2, data_format=data_format)
    return tf.add(x1, x2)


def add_bias(layer: Any, outputs: Any, channels: int) -> Any:
    """The tail of Keras's convolution layers' `call`: the bias reshaped to broadcast along the
    channel axis and added by `ops.add`, then the activation."""
    if layer.use_bias:
        if layer.data_format == "channels_last":
            bias_shape = (1,) * (layer.rank + 1) + (channels,)
        else:
            bias_shape = (1, channels) + (1,) * layer.rank
        outputs = keras_add(outputs, tf.reshape(layer.bias, bias_shape))
    if layer.activation is not None:
        return layer.activation(outputs)
    return outputs


class BaseConv(lora.KernelLoRA, Layer):
    """Keras's abstract N-D convolution layer (simdist ships its rank-1 and rank-2 subclasses)."""

    def __init__(self, rank: int, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: str | None = None, dilation_rate: Any = 1, groups: int = 1, activation: Any = None,
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, lora_rank: Any = None,
                 lora_alpha: Any = None, **kwargs: Any) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.lora_rank = lora_rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank
        self.lora_enabled = False
        self.rank = rank
        self.filters = filters
        self.groups = groups
        self.kernel_size = standardize_tuple(kernel_size, rank, "kernel_size")
        self.strides = standardize_tuple(strides, rank, "strides")
        self.dilation_rate = standardize_tuple(dilation_rate, rank, "dilation_rate")
        self.padding = standardize_padding(padding, allow_causal=rank == 1)
        self.data_format = standardize_data_format(data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.lora_rank = lora_rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank
        self.lora_enabled = False
        self.input_spec = InputSpec(min_ndim=self.rank + 2)
        if self.filters is not None and self.filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. Received "
                             f"filters={self.filters}.")
        if self.groups <= 0:
            raise ValueError(f"The number of groups must be a positive integer. Received: groups={self.groups}.")
        if self.filters is not None and self.filters % self.groups != 0:
            raise ValueError(f"The number of filters must be evenly divisible by the number of groups. Received: "
                             f"groups={self.groups}, filters={self.filters}.")
        if not all(self.kernel_size):
            raise ValueError(f"The argument `kernel_size` cannot contain 0. Received kernel_size={self.kernel_size}.")
        if not all(self.strides):
            raise ValueError(f"The argument `strides` cannot contains 0. Received strides={self.strides}")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             f"strides={self.strides} and dilation_rate={self.dilation_rate}")

    def build(self, input_shape: Any) -> None:
        if self.data_format == "channels_last":
            channel_axis, input_channel = -1, input_shape[-1]
        else:
            channel_axis, input_channel = 1, input_shape[1]
        self.input_spec = InputSpec(min_ndim=self.rank + 2, axes={channel_axis: input_channel})
        if input_channel % self.groups != 0:
            raise ValueError(f"The number of input channels must be evenly divisible by the number of groups. "
                             f"Received groups={self.groups}, but the input has {input_channel} channels (full input "
                             f"shape is {input_shape}).")
        kernel_shape = self.kernel_size + (input_channel // self.groups, self.filters)
        self.compute_output_shape(input_shape)
        self._kernel = self.add_weight(name="kernel", shape=kernel_shape, initializer=self.kernel_initializer,
                                       regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
                                       trainable=True, dtype=self.dtype)
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint,
                                        trainable=True, dtype=self.dtype)
        else:
            self.bias = None
        self.built = True
        if self.lora_rank:
            self.enable_lora(self.lora_rank, lora_alpha=self.lora_alpha)

    def convolution_op(self, inputs: Any, kernel: Any) -> Any:
        return conv(inputs, kernel, strides=list(self.strides), padding=self.padding,
                    dilation_rate=self.dilation_rate, data_format=self.data_format)

    def call(self, inputs: Any) -> Any:
        outputs = self.convolution_op(inputs, self.kernel)
        return add_bias(self, outputs, self.filters)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        return compute_conv_output_shape(input_shape, self.filters, self.kernel_size, strides=self.strides,
                                         padding=self.padding, data_format=self.data_format,
                                         dilation_rate=self.dilation_rate)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "filters": self.filters, "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding, "data_format": self.data_format,
                "dilation_rate": self.dilation_rate, "groups": self.groups,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint),
                **({"lora_rank": self.lora_rank, "lora_alpha": self.lora_alpha} if self.lora_rank else {})}


class Conv2D(BaseConv):
    """`keras.layers.Conv2D(filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
    dilation_rate=(1, 1), groups=1, activation=None, use_bias=True, ...)`: a 2-D
    cross-correlation of the input with a (kh, kw, in/groups, filters) kernel, plus bias."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 data_format: str | None = None, dilation_rate: Any = (1, 1), groups: int = 1,
                 activation: Any = None, use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(rank=2, filters=filters, kernel_size=kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, groups=groups, activation=activation,
                         use_bias=use_bias, kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
                         bias_constraint=bias_constraint, **kwargs)


Convolution2D = Conv2D


class Conv1D(BaseConv):
    """`keras.layers.Conv1D(filters, kernel_size, strides=1, padding="valid", data_format=None,
    dilation_rate=1, groups=1, ...)`: a 1-D cross-correlation with a (k, in/groups, filters)
    kernel; padding "causal" left-pads the steps by dilation_rate * (kernel_size - 1) zeros (an
    `ops.pad`) and convolves "valid", so output t sees inputs up to t only."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: str | None = None, dilation_rate: Any = 1, groups: int = 1, activation: Any = None,
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, **kwargs: Any) -> None:
        super().__init__(rank=1, filters=filters, kernel_size=kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, groups=groups, activation=activation,
                         use_bias=use_bias, kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
                         bias_constraint=bias_constraint, **kwargs)

    def _compute_causal_padding(self) -> list[list[int]]:
        left_pad = self.dilation_rate[0] * (self.kernel_size[0] - 1)
        if self.data_format == "channels_last":
            return [[0, 0], [left_pad, 0], [0, 0]]
        return [[0, 0], [0, 0], [left_pad, 0]]

    def call(self, inputs: Any) -> Any:
        padding = self.padding
        if padding == "causal":
            inputs = tf.pad(inputs, tf.constant(self._compute_causal_padding(), "int32"), "CONSTANT")
            padding = "valid"
        outputs = conv(inputs, self.kernel, strides=list(self.strides), padding=padding,
                       dilation_rate=self.dilation_rate, data_format=self.data_format)
        return add_bias(self, outputs, self.filters)


Convolution1D = Conv1D
