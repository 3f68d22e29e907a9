"""`keras.layers.RandomSharpness` (Keras 3.15's random_sharpness.py): per image (drawn at every
call) `f = uniform(lower, upper)`; in training the images smoothed by a depthwise 3x3 kernel
(1/13 around, 5/13 in the centre; SAME padding, channels-last), then `x + (1 - 2f) (smooth - x)`
clipped to `value_range`. `factor` lies in [0, 1]: a number f means (0, f)."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.layers.preprocessing.image.random_saturation import batch_size_of
from simdist.keras.layers.preprocessing.image.value_range import sorted_value_range

__all__ = ["RandomSharpness"]


class RandomSharpness(BaseImagePreprocessingLayer):
    """`keras.layers.RandomSharpness(factor, value_range=(0, 255), data_format=None, seed=None)`."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor: Any, value_range: Any = (0, 255), data_format: str | None = None,
                 seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = sorted_value_range(value_range)
        self.seed = seed
        self.generator = random.SeedGenerator(seed)

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        batch_size = batch_size_of(self.backend.shape(data["images"] if isinstance(data, dict) else data))
        if seed is None:
            seed = self._get_seed_generator()
        return {"factor": self.backend.random.uniform((batch_size,), minval=self.factor[0], maxval=self.factor[1],
                                                      seed=seed)}

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        ops, np_ = self.backend, self.backend.numpy
        images = ops.cast(images, self.compute_dtype)
        if not training:
            return images
        if self.data_format == "channels_first":
            images = np_.swapaxes(images, -3, -1)
        sharpness = np_.reshape(ops.cast(transformation["factor"] * 2, dtype=self.compute_dtype), (-1, 1, 1, 1))
        num_channels = ops.shape(images)[-1]
        a, b = 1.0 / 13.0, 5.0 / 13.0
        kernel = ops.convert_to_tensor([[a, a, a], [a, b, a], [a, a, a]], dtype=self.compute_dtype)
        kernel = np_.tile(np_.reshape(kernel, (3, 3, 1, 1)), [1, 1, num_channels, 1])
        kernel = ops.cast(kernel, self.compute_dtype)
        smoothed = ops.nn.depthwise_conv(images, kernel, strides=1, padding="same", data_format="channels_last")
        smoothed = ops.cast(smoothed, dtype=self.compute_dtype)
        images = images + (1.0 - sharpness) * (smoothed - images)
        images = np_.clip(images, self.value_range[0], self.value_range[1])
        if self.data_format == "channels_first":
            images = np_.swapaxes(images, -3, -1)
        return images

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}
