"""`keras.layers.RandomPosterization` (Keras 3.15's random_posterization.py): per image a bit
count `randint(lower, upper)` (uint8; when lower == upper, that count without a draw), in training
the images mapped from `value_range` to [0, 255], cast to uint8 (truncation), their low
`8 - bits` bits cleared by a right then left shift, and mapped back. `factor` lies in [1, 8]:
a number f means (1, f); the draw's upper end is exclusive."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.layers.preprocessing.image.random_saturation import batch_size_of
from simdist.keras.layers.preprocessing.image.value_range import sorted_value_range

__all__ = ["RandomPosterization"]

_MAX_FACTOR = 8


class RandomPosterization(BaseImagePreprocessingLayer):
    """`keras.layers.RandomPosterization(factor, value_range=(0, 255), data_format=None, seed=None)`."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (1, 8)

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
        if self.factor[0] != self.factor[1]:
            factor = self.backend.random.randint((batch_size,), minval=self.factor[0], maxval=self.factor[1],
                                                 seed=seed, dtype="uint8")
        else:
            factor = self.backend.numpy.ones((batch_size,), dtype="uint8") * self.factor[0]
        return {"shift_factor": _MAX_FACTOR - factor}

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        if not training:
            return images
        ops, np_ = self.backend, self.backend.numpy
        shift = transformation["shift_factor"]
        shift = np_.reshape(shift, ops.shape(shift) + (1, 1, 1))
        images = self._transform_value_range(images, original_range=self.value_range, target_range=(0, 255),
                                             dtype=self.compute_dtype)
        images = ops.cast(images, "uint8")
        images = np_.bitwise_left_shift(np_.bitwise_right_shift(images, shift), shift)
        images = ops.cast(images, self.compute_dtype)
        return self._transform_value_range(images, original_range=(0, 255), target_range=self.value_range,
                                           dtype=self.compute_dtype)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}
