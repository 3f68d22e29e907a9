"""`keras.layers.RandomGrayscale` (Keras 3.15's random_grayscale.py): per image a draw
`uniform(batch)` (drawn at every call, inference too) and, in training, the image replaced by
`keras.ops.image.rgb_to_grayscale` (broadcast over the channels) where the draw is below `factor`."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers import argument_validation
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer

__all__ = ["RandomGrayscale"]


class RandomGrayscale(BaseImagePreprocessingLayer):
    """`keras.layers.RandomGrayscale(factor=0.5, data_format=None, seed=None)`."""

    def __init__(self, factor: float = 0.5, data_format: str | None = None, seed: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if factor < 0 or factor > 1:
            raise ValueError(f"`factor` should be between 0 and 1. Received: factor={factor}")
        self.factor = factor
        self.data_format = argument_validation.standardize_data_format(data_format)
        self.seed = seed
        self.generator = random.SeedGenerator(seed)

    def get_random_transformation(self, images: Any, training: bool = True, seed: Any = None) -> Any:
        if seed is None:
            seed = self._get_seed_generator()
        batch_size = self.backend.core.shape(images)[0] if len(images.shape) == 4 else 1
        draws = self.backend.random.uniform(shape=(batch_size,), minval=0, maxval=1, seed=seed)
        return self.backend.numpy.expand_dims(draws < self.factor, axis=[1, 2, 3])

    def transform_images(self, images: Any, transformation: Any, training: bool = True) -> Any:
        if not training:
            return images
        should_apply = transformation if transformation is not None else self.get_random_transformation(images)
        gray = self.backend.image.rgb_to_grayscale(images, data_format=self.data_format)
        return self.backend.numpy.where(should_apply, gray, images)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any = None, **kwargs: Any) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor}
