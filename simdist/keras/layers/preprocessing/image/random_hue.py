"""`keras.layers.RandomHue` (Keras 3.15's random_hue.py): per image (drawn at every call) a sign
(-1 where `uniform() > 0.5`) and `uniform(lower, upper)`, the hue shift `sign * f * 0.5`; in
training the images mapped from `value_range` to [0, 1], the HSV hue shifted and wrapped into
[0, 1], back to RGB, clipped to [0, 1] and mapped back. `factor` lies in [0, 1]."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.layers.preprocessing.image.random_saturation import batch_size_of

__all__ = ["RandomHue"]


class RandomHue(BaseImagePreprocessingLayer):
    """`keras.layers.RandomHue(factor, value_range=(0, 255), data_format=None, seed=None)`."""

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor: Any, value_range: Any = (0, 255), data_format: str | None = None,
                 seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = value_range
        self.seed = seed
        self.generator = random.SeedGenerator(seed)

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        batch_size = batch_size_of(self.backend.shape(data["images"] if isinstance(data, dict) else data))
        if seed is None:
            seed = self._get_seed_generator()
        np_ = self.backend.numpy
        invert = self.backend.random.uniform((batch_size,), seed=seed)
        invert = np_.where(invert > 0.5, -np_.ones_like(invert), np_.ones_like(invert))
        factor = self.backend.random.uniform((batch_size,), minval=self.factor[0], maxval=self.factor[1], seed=seed)
        return {"factor": invert * factor * 0.5}

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        if not training:
            return images
        ops, np_ = self.backend, self.backend.numpy
        images = ops.cast(images, self.compute_dtype)
        images = self._transform_value_range(images, self.value_range, (0, 1))
        shift = np_.expand_dims(np_.expand_dims(ops.cast(transformation["factor"], images.dtype), -1), -1)
        images = ops.image.rgb_to_hsv(images, data_format=self.data_format)
        channels_first = self.data_format == "channels_first"
        h, s, v = ((images[:, 0, :, :], images[:, 1, :, :], images[:, 2, :, :]) if channels_first
                   else (images[..., 0], images[..., 1], images[..., 2]))
        h = h + shift
        h = np_.where(h > 1.0, h - 1.0, h)
        h = np_.where(h < 0.0, h + 1.0, h)
        images = np_.stack([h, s, v], axis=1 if channels_first else -1)
        images = np_.clip(ops.image.hsv_to_rgb(images, data_format=self.data_format), 0, 1)
        images = self._transform_value_range(images, (0, 1), self.value_range)
        return ops.cast(images, self.compute_dtype)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}
