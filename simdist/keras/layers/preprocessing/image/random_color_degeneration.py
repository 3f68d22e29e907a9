"""`keras.layers.RandomColorDegeneration` (Keras 3.15's random_color_degeneration.py): per image
(drawn at every call) `f = uniform((batch, 1, 1, 1), lower, upper)` from the layer's SeedGenerator;
in training the images move towards their grayscale (`keras.ops.image.rgb_to_grayscale`) by f,
`x + f * (gray - x)`, clipped to `value_range`. `factor` lies in [-1, 1] (the base rule)."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.layers.preprocessing.image.random_saturation import batch_size_of
from simdist.keras.layers.preprocessing.image.value_range import sorted_value_range

__all__ = ["RandomColorDegeneration"]


class RandomColorDegeneration(BaseImagePreprocessingLayer):
    """`keras.layers.RandomColorDegeneration(factor, value_range=(0, 255), data_format=None, seed=None)`."""

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
        factor = self.backend.random.uniform((batch_size, 1, 1, 1), minval=self.factor[0], maxval=self.factor[1],
                                             seed=seed)
        return {"factor": factor}

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        if not training:
            return images
        ops = self.backend
        images = ops.cast(images, self.compute_dtype)
        factor = ops.cast(transformation["factor"], self.compute_dtype)
        degenerates = ops.image.rgb_to_grayscale(images, data_format=self.data_format)
        images = images + factor * (degenerates - images)
        images = ops.numpy.clip(images, self.value_range[0], self.value_range[1])
        return ops.cast(images, self.compute_dtype)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        if len(input_shape) not in (3, 4):
            raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                             f"Received: input_shape={input_shape}")
        channels = input_shape[-1 if self.data_format == "channels_last" else -3]
        if channels is not None and channels != 3:
            raise ValueError(f"Input images must have 3 channels, but received images with {channels} channels.")
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}
