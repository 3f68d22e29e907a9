"""`keras.layers.Resizing` (Keras 3.15's resizing.py): `keras.ops.image.resize` to (height, width)
with its interpolation, antialias, crop_to_aspect_ratio / pad_to_aspect_ratio (fill_mode,
fill_value); integer images are rounded and saturate-cast back. Applied in training and
inference alike."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers import argument_validation
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.ops.op_core import _saturate_cast
from simdist.keras.ops.shim import is_int_dtype

__all__ = ["Resizing", "resized_shape"]


def resized_shape(input_shape: Any, height: Any, width: Any, data_format: str) -> tuple:
    """The shape with the spatial dimensions replaced (rank 3 or 4, either data format)."""
    shape = list(input_shape)
    first = (1 if len(shape) == 4 else 0) + (1 if data_format == "channels_first" else 0)
    shape[first], shape[first + 1] = height, width
    return tuple(shape)


class Resizing(BaseImagePreprocessingLayer):
    """`keras.layers.Resizing(height, width, interpolation="bilinear", ...)`."""

    _USE_BASE_FACTOR = False

    def __init__(self, height: int, width: int, interpolation: str = "bilinear", crop_to_aspect_ratio: bool = False,
                 pad_to_aspect_ratio: bool = False, fill_mode: str = "constant", fill_value: float = 0.0,
                 antialias: bool = False, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.height = height
        self.width = width
        self.interpolation = interpolation
        self.data_format = argument_validation.standardize_data_format(data_format)
        self.crop_to_aspect_ratio = crop_to_aspect_ratio
        self.pad_to_aspect_ratio = pad_to_aspect_ratio
        self.fill_mode = fill_mode
        self.fill_value = fill_value
        self.antialias = bool(antialias)
        self.height_axis, self.width_axis = (-2, -1) if self.data_format == "channels_first" else (-3, -2)

    def _transform_images(self, images: Any, transformation: Any, interpolation: str) -> Any:
        resized = self.backend.image.resize(
            images, size=(self.height, self.width), interpolation=interpolation, antialias=self.antialias,
            data_format=self.data_format, crop_to_aspect_ratio=self.crop_to_aspect_ratio,
            pad_to_aspect_ratio=self.pad_to_aspect_ratio, fill_mode=self.fill_mode, fill_value=self.fill_value)
        if resized.dtype == images.dtype:
            return resized
        if is_int_dtype(images.dtype):
            resized = self.backend.numpy.round(resized)
        return _saturate_cast(resized, images.dtype.name, self.backend)

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        return self._transform_images(images, transformation, self.interpolation)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any = None,
                                     training: bool = True) -> Any:
        return self._transform_images(segmentation_masks, transformation, "nearest")

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        shape = self.backend.shape(data["images"] if isinstance(data, dict) else data)
        return shape[self.height_axis], shape[self.width_axis]

    def compute_output_shape(self, input_shape: Any) -> Any:
        return resized_shape(input_shape, self.height, self.width, self.data_format)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "height": self.height, "width": self.width,
                "interpolation": self.interpolation, "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
                "pad_to_aspect_ratio": self.pad_to_aspect_ratio, "fill_mode": self.fill_mode,
                "fill_value": self.fill_value, "antialias": self.antialias, "data_format": self.data_format}
