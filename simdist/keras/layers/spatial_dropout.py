"""`keras.layers.SpatialDropout1D/2D/3D` (keras/src/layers/regularization/spatial_dropout.py):
Dropout whose noise shape is (batch, 1.., channels), so a whole feature map is kept or dropped
together (clause keras.layer.dropout: the same seeded stateless dropout as Dropout)."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.argument_validation import standardize_data_format
from simdist.keras.layers.core import Dropout
from simdist.keras.layers.input_spec import InputSpec

__all__ = ["SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D"]


class _SpatialDropout(Dropout):
    """Dropout of whole channels; rank is the number of spatial axes."""

    rank = 1

    def __init__(self, rate: float, data_format: str | None = None, seed: int | None = None, name: str | None = None,
                 dtype: Any = None) -> None:
        super().__init__(rate, seed=seed, name=name, dtype=dtype)
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def _noise_shape(self, inputs: Any) -> list:
        shape = list(inputs.shape)
        if self.data_format == "channels_first":
            return shape[:2] + [1] * self.rank
        return [shape[0]] + [1] * self.rank + [shape[-1]]

    def call(self, inputs: Any, training: bool = False) -> Any:
        if training and self.rate > 0:
            return random.dropout(inputs, self.rate, noise_shape=self._noise_shape(inputs), seed=self.seed_generator)
        return inputs

    def get_config(self) -> dict[str, Any]:
        return {"rate": self.rate, "seed": self.seed, "name": self.name, "dtype": self.dtype,
                "data_format": self.data_format}


class SpatialDropout1D(_SpatialDropout):
    """`keras.layers.SpatialDropout1D(rate, seed=None)`: noise shape (batch, 1, channels)."""

    rank = 1

    def __init__(self, rate: float, seed: int | None = None, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(rate, data_format="channels_last", seed=seed, name=name, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return {"rate": self.rate, "seed": self.seed, "name": self.name, "dtype": self.dtype}


class SpatialDropout2D(_SpatialDropout):
    """`keras.layers.SpatialDropout2D(rate, data_format=None, seed=None)`."""

    rank = 2


class SpatialDropout3D(_SpatialDropout):
    """`keras.layers.SpatialDropout3D(rate, data_format=None, seed=None)`."""

    rank = 3
