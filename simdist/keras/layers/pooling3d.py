"""3-D pooling layers (keras/src/layers/pooling/max_pooling3d.py, average_pooling3d.py,
global_*_pooling3d.py): MaxPooling3D / MaxPool3D, AveragePooling3D / AvgPool3D (`tf.nn.max_pool` /
`tf.nn.avg_pool` in NDHWC, channels-first transposed there and back) and the global forms
(mean / max over the three spatial axes), on simdist's pooling bases."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.pooling import BasePooling, GlobalAveragePooling2D, GlobalMaxPooling2D

__all__ = ["MaxPooling3D", "AveragePooling3D", "MaxPool3D", "AvgPool3D", "GlobalAveragePooling3D",
           "GlobalMaxPooling3D", "GlobalAvgPool3D", "GlobalMaxPool3D"]


class MaxPooling3D(BasePooling):
    """`keras.layers.MaxPooling3D(pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None)`."""

    def __init__(self, pool_size: Any = (2, 2, 2), strides: Any = None, padding: str = "valid",
                 data_format: Any = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, pool_dimensions=3, pool_mode="max", padding=padding,
                         data_format=data_format, name=name, **kwargs)


class AveragePooling3D(BasePooling):
    """`keras.layers.AveragePooling3D(pool_size, strides=None, padding="valid", data_format=None)`:
    the mean of each window's in-bounds elements."""

    def __init__(self, pool_size: Any, strides: Any = None, padding: str = "valid", data_format: Any = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, pool_dimensions=3, pool_mode="average", padding=padding,
                         data_format=data_format, name=name, **kwargs)


class GlobalAveragePooling3D(GlobalAveragePooling2D):
    """`keras.layers.GlobalAveragePooling3D(data_format=None, keepdims=False)`."""

    def __init__(self, data_format: Any = None, keepdims: bool = False, **kwargs: Any) -> None:
        super(GlobalAveragePooling2D, self).__init__(pool_dimensions=3, data_format=data_format, keepdims=keepdims,
                                                     **kwargs)


class GlobalMaxPooling3D(GlobalMaxPooling2D):
    """`keras.layers.GlobalMaxPooling3D(data_format=None, keepdims=False)`."""

    def __init__(self, data_format: Any = None, keepdims: bool = False, **kwargs: Any) -> None:
        super(GlobalMaxPooling2D, self).__init__(pool_dimensions=3, data_format=data_format, keepdims=keepdims,
                                                 **kwargs)


MaxPool3D = MaxPooling3D
AvgPool3D = AveragePooling3D
GlobalAvgPool3D = GlobalAveragePooling3D
GlobalMaxPool3D = GlobalMaxPooling3D
