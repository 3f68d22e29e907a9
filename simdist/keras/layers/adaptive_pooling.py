"""Keras's adaptive pooling layers (keras/src/layers/pooling/base_adaptive_pooling.py and
adaptive_{average,max}_pooling{1,2,3}d.py): pool each spatial axis to `output_size` by
`keras.ops.adaptive_average_pool` / `adaptive_max_pool` (simdist/keras/ops, transcribed from Keras's
TF backend: windows of the two sizes floor(in / out) and that + 1, as PyTorch's adaptive pools)."""

from __future__ import annotations

from typing import Any

from simdist.keras import config
from simdist.keras.layers.layer import Layer

__all__ = ["AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D", "AdaptiveAveragePooling3D",
           "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D", "AdaptiveMaxPooling3D"]


def _output_size(output_size: Any, rank: int) -> tuple:
    """Each class's own output_size rule, with its messages."""
    if isinstance(output_size, int):
        return (output_size,) * rank
    if rank == 1:
        if isinstance(output_size, (tuple, list)):
            if len(output_size) != 1:
                raise ValueError(f"For 1D input, `output_size` tuple must have length 1. Received: {output_size}")
            return tuple(output_size)
        raise TypeError(f"`output_size` must be an integer or tuple of 1 integer. Received: {output_size} of type "
                        f"{type(output_size)}")
    if isinstance(output_size, (tuple, list)) and len(output_size) == rank:
        return tuple(output_size)
    what = "(height, width)" if rank == 2 else "(depth, height, width)"
    raise TypeError(f"`output_size` must be an integer or {what} tuple. Received: {output_size} of type "
                    f"{type(output_size)}")


class BaseAdaptivePooling(Layer):
    """Keras's BaseAdaptivePooling: output_size per spatial axis, data_format."""

    _rank = 0

    def __init__(self, output_size: Any, data_format: str | None = None, **kwargs: Any) -> None:
        output_size = _output_size(output_size, self._rank)
        super().__init__(**kwargs)
        self.output_size = output_size
        self.data_format = data_format or config.image_data_format()
        if self.data_format not in {"channels_first", "channels_last"}:
            raise ValueError(f"Invalid data_format: {self.data_format}. Expected 'channels_first' or 'channels_last'.")

    def compute_output_shape(self, input_shape: Any) -> tuple:
        batch_size = input_shape[0]
        if self.data_format == "channels_last":
            return (batch_size, *self.output_size, input_shape[-1])
        return (batch_size, input_shape[1], *self.output_size)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "output_size": self.output_size, "data_format": self.data_format}


class _Average(BaseAdaptivePooling):
    def call(self, inputs: Any) -> Any:
        from simdist.keras import ops
        return ops.adaptive_average_pool(inputs, output_size=self.output_size, data_format=self.data_format)


class _Max(BaseAdaptivePooling):
    def call(self, inputs: Any) -> Any:
        from simdist.keras import ops
        return ops.adaptive_max_pool(inputs, output_size=self.output_size, data_format=self.data_format)


class AdaptiveAveragePooling1D(_Average):
    """`keras.layers.AdaptiveAveragePooling1D(output_size, data_format=None)`."""
    _rank = 1


class AdaptiveAveragePooling2D(_Average):
    """`keras.layers.AdaptiveAveragePooling2D(output_size, data_format=None)`."""
    _rank = 2


class AdaptiveAveragePooling3D(_Average):
    """`keras.layers.AdaptiveAveragePooling3D(output_size, data_format=None)`."""
    _rank = 3


class AdaptiveMaxPooling1D(_Max):
    """`keras.layers.AdaptiveMaxPooling1D(output_size, data_format=None)`."""
    _rank = 1


class AdaptiveMaxPooling2D(_Max):
    """`keras.layers.AdaptiveMaxPooling2D(output_size, data_format=None)`."""
    _rank = 2


class AdaptiveMaxPooling3D(_Max):
    """`keras.layers.AdaptiveMaxPooling3D(output_size, data_format=None)`."""
    _rank = 3
