"""`keras.layers.Equalization` (Keras 3.15's equalization.py): in training (deterministic), per
channel over the whole batch: the channel mapped from `value_range` to [0, 255] (always: Keras
compares the sorted list with a tuple), a `bins`-bin histogram of int32(x * (bins - 1) / 255)
clipped, and where more than one bin is filled the lookup table round((cdf - cdf_min) * 255 /
(cdf[-1] - cdf_min)) clipped to [0, 255], indexed by int32(clip(x / 255 * (bins - 1))); mapped
back. Inference passes the images through."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers import argument_validation
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer

__all__ = ["Equalization"]


def _scale_values(values: Any, source_range: Any, target_range: Any) -> Any:
    source_min, source_max = source_range
    target_min, target_max = target_range
    scale = (target_max - target_min) / (source_max - source_min)
    return values * scale + (target_min - source_min * scale)


class Equalization(BaseImagePreprocessingLayer):
    """`keras.layers.Equalization(value_range=(0, 255), bins=256, data_format=None)`."""

    def __init__(self, value_range: Any = (0, 255), bins: int = 256, data_format: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bins = bins
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            # Keras reads a _VALUE_RANGE_VALIDATION_ERROR the class does not define
            raise AttributeError("'Equalization' object has no attribute '_VALUE_RANGE_VALIDATION_ERROR'")
        self.value_range = sorted(value_range)
        self.data_format = argument_validation.standardize_data_format(data_format)

    def _histogram(self, values: Any) -> Any:
        ops, np_ = self.backend, self.backend.numpy
        nbins = self.bins
        values = ops.cast(values, "float32")
        value_min, value_max = ops.cast(0, "float32"), ops.cast(255, "float32")
        scaled = (values - value_min) * (nbins - 1) / (value_max - value_min)
        indices = np_.clip(ops.cast(scaled, "int32"), 0, nbins - 1)
        return np_.bincount(np_.reshape(indices, [-1]), minlength=nbins)

    def _equalize_channel(self, channel: Any) -> Any:
        np_ = self.backend.numpy
        channel = _scale_values(channel, self.value_range, (0, 255))
        hist = self._histogram(channel)
        equalized = np_.where(np_.count_nonzero(hist) <= 1, channel, self._apply_equalization(channel, hist))
        return _scale_values(equalized, (0, 255), self.value_range)

    def _apply_equalization(self, channel: Any, hist: Any) -> Any:
        ops, np_ = self.backend, self.backend.numpy
        cdf = np_.cumsum(hist)
        cdf_min = np_.take(cdf, np_.nonzero(cdf)[0][0])
        denominator = cdf[-1] - cdf_min
        denominator = np_.where(denominator == 0, np_.ones_like(1, dtype=denominator.dtype), denominator)
        lookup_table = np_.clip(np_.round((cdf - cdf_min) * 255 / denominator), 0, 255)
        scaled = channel / 255.0 * (self.bins - 1)
        return np_.take(lookup_table, ops.cast(np_.clip(scaled, 0, self.bins - 1), "int32"))

    def transform_images(self, images: Any, transformation: Any, training: bool = True) -> Any:
        if not training:
            return images
        ops, np_ = self.backend, self.backend.numpy
        images = ops.cast(images, self.compute_dtype)
        axis = -3 if self.data_format == "channels_first" else -1
        channels = [self._equalize_channel(images[..., i, :, :] if axis == -3 else images[..., i])
                    for i in range(ops.core.shape(images)[axis])]
        return ops.cast(np_.stack(channels, axis=axis), self.compute_dtype)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "bins": self.bins, "value_range": self.value_range}
