"""`keras.layers.RandomBrightness` (Keras 3.15's random_brightness.py): in training, per image a
delta `uniform(lower, upper) * (value_range[1] - value_range[0])` (the layer's SeedGenerator)
added to every pixel, clipped to `value_range` (sorted). `factor` lies in [-1, 1]. Inference
passes the images through."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.layers.preprocessing.image.random_contrast import per_image_shape
from simdist.keras.layers.preprocessing.image.value_range import sorted_value_range

__all__ = ["RandomBrightness"]


class RandomBrightness(BaseImagePreprocessingLayer):
    """`keras.layers.RandomBrightness(factor, value_range=(0, 255), seed=None)`."""

    def __init__(self, factor: Any, value_range: Any = (0, 255), seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(factor=factor, **kwargs)
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        self.value_range = sorted_value_range(value_range)

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        delta_shape = per_image_shape(self.backend.shape(data["images"] if isinstance(data, dict) else data))
        if not training:
            return {"rgb_delta": self.backend.numpy.zeros(delta_shape)}
        if seed is None:
            seed = self._get_seed_generator()
        rgb_delta = self.backend.random.uniform(minval=self.factor[0], maxval=self.factor[1], shape=delta_shape,
                                                seed=seed)
        return {"rgb_delta": rgb_delta * (self.value_range[1] - self.value_range[0])}

    def transform_images(self, images: Any, transformation: Any, training: bool = True) -> Any:
        if not training:
            return images
        images = images + self.backend.cast(transformation["rgb_delta"], images.dtype)
        return self.backend.numpy.clip(images, self.value_range[0], self.value_range[1])

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}
