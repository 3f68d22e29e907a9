"""`keras.layers.DepthwiseConv1D` (keras/src/layers/convolutional/depthwise_conv1d.py): Keras's
depthwise base of rank 1, computed as DepthwiseConv2D on a unit height (Keras's TF
`depthwise_conv`: ExpandDims, `tf.nn.depthwise_conv2d` in NHWC, Squeeze)."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.depthwise_separable import DepthwiseConv2D, _DepthwiseBase

__all__ = ["DepthwiseConv1D"]


class DepthwiseConv1D(DepthwiseConv2D):
    """`keras.layers.DepthwiseConv1D(kernel_size, strides=1, padding="valid", depth_multiplier=1,
    data_format=None, dilation_rate=1, ...)`: kernel (k, in, depth_multiplier), bias (in * depth_multiplier,)."""

    def __init__(self, kernel_size: Any, strides: Any = 1, padding: str = "valid", depth_multiplier: int = 1,
                 data_format: str | None = None, dilation_rate: Any = 1, activation: Any = None,
                 use_bias: bool = True, depthwise_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", depthwise_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, depthwise_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any) -> None:
        _DepthwiseBase.__init__(self, 1, depth_multiplier, kernel_size, strides, padding, data_format, dilation_rate,
                                activation, use_bias, depthwise_initializer, bias_initializer, depthwise_regularizer,
                                bias_regularizer, activity_regularizer, depthwise_constraint, bias_constraint,
                                **kwargs)
        self._check_sizes("The argument `kernel_size` cannot contain 0. Received ",
                          "The argument `strides` cannot contains 0. Received ")
