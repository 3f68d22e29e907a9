"""`keras.layers.Conv3D` (keras/src/layers/convolutional/conv3d.py): BaseConv of rank 3 (a
`tf.nn.convolution` in NDHWC or NCDHW, the bias by `ops.add`, the activation)."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.convolutional import BaseConv

__all__ = ["Conv3D", "Convolution3D"]


class Conv3D(BaseConv):
    """`keras.layers.Conv3D(filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format=None,
    dilation_rate=(1, 1, 1), groups=1, ...)`: a (k1, k2, k3, in/groups, filters) kernel."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1, 1), padding: str = "valid",
                 data_format: str | None = None, dilation_rate: Any = (1, 1, 1), groups: int = 1,
                 **kwargs: Any) -> None:
        super().__init__(rank=3, filters=filters, kernel_size=kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, groups=groups, **kwargs)


Convolution3D = Conv3D
