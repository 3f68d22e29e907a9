"""`keras.layers.AutoContrast` (Keras 3.15's auto_contrast.py): each image and channel stretched
so that its minimum and maximum over axes (1, 2) map to the ends of [0, 255] (after mapping
`value_range` to [0, 255] and back), clipped; NaN results (a constant channel) keep the input.
Not random, and applied in inference too."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.layers.preprocessing.image.value_range import sorted_value_range
from simdist.keras.ops.op_core import _saturate_cast
from simdist.keras.ops.shim import is_int_dtype

__all__ = ["AutoContrast"]


class AutoContrast(BaseImagePreprocessingLayer):
    """`keras.layers.AutoContrast(value_range=(0, 255))`."""

    _USE_BASE_FACTOR = False

    def __init__(self, value_range: Any = (0, 255), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value_range = sorted_value_range(value_range)

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        np_ = self.backend.numpy
        original_images = images
        images = self._transform_value_range(images, original_range=self.value_range, target_range=(0, 255),
                                             dtype=self.compute_dtype)
        images = self.backend.cast(images, self.compute_dtype)
        low = np_.min(images, axis=(1, 2), keepdims=True)
        high = np_.max(images, axis=(1, 2), keepdims=True)
        scale = 255.0 / (high - low)
        offset = -low * scale
        results = np_.clip(images * scale + offset, 0.0, 255.0)
        results = self._transform_value_range(results, original_range=(0, 255), target_range=self.value_range,
                                              dtype=self.compute_dtype)
        results = np_.where(np_.isnan(results), original_images, results)
        if results.dtype == images.dtype:
            return results
        if is_int_dtype(images.dtype):
            results = np_.round(results)
        return _saturate_cast(results, images.dtype.name, self.backend)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "value_range": self.value_range}
