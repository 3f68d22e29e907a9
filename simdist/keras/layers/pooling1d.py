"""1-D window pooling layers (keras/src/layers/pooling/max_pooling1d.py, average_pooling1d.py):
MaxPooling1D / MaxPool1D and AveragePooling1D / AvgPool1D, on simdist's BasePooling
(`tf.nn.max_pool` / `tf.nn.avg_pool` in NWC)."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.pooling import BasePooling

__all__ = ["MaxPooling1D", "AveragePooling1D", "MaxPool1D", "AvgPool1D"]


class MaxPooling1D(BasePooling):
    """`keras.layers.MaxPooling1D(pool_size=2, strides=None, padding="valid", data_format=None)`:
    the maximum of each window (strides default to pool_size)."""

    def __init__(self, pool_size: Any = 2, strides: Any = None, padding: str = "valid", data_format: Any = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, pool_dimensions=1, pool_mode="max", padding=padding,
                         data_format=data_format, name=name, **kwargs)


class AveragePooling1D(BasePooling):
    """`keras.layers.AveragePooling1D(pool_size, strides=None, padding="valid", data_format=None)`:
    the mean of each window's in-bounds elements (pool_size has no default in Keras 3.15)."""

    def __init__(self, pool_size: Any, strides: Any = None, padding: str = "valid", data_format: Any = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, pool_dimensions=1, pool_mode="average", padding=padding,
                         data_format=data_format, name=name, **kwargs)


MaxPool1D = MaxPooling1D
AvgPool1D = AveragePooling1D
