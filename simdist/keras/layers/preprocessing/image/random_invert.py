"""`keras.layers.RandomInvert` (Keras 3.15's random_invert.py): in training, per image a
probability `uniform(factor[0], factor[1])` then a threshold `uniform(0, 1)` (two draws of the
layer's SeedGenerator); where threshold < probability the image becomes `value_range[1] - x`."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer

__all__ = ["RandomInvert"]


class RandomInvert(BaseImagePreprocessingLayer):
    """`keras.layers.RandomInvert(factor=1.0, value_range=(0, 255), seed=None, data_format=None)`."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor: Any = 1.0, value_range: Any = (0, 255), seed: int | None = None,
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = value_range
        self.seed = seed
        self.generator = random.SeedGenerator(seed)

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if not training:
            return None
        seed = seed or self._get_seed_generator()
        shape = self.backend.shape(data["images"] if isinstance(data, dict) else data)
        if len(shape) not in (3, 4):
            raise ValueError(f"Expected the input image to be rank 3 or 4. Received inputs.shape={shape}")
        batch_size = 1 if len(shape) == 3 else shape[0]
        uniform = self.backend.random.uniform
        probability = uniform(shape=(batch_size,), minval=self.factor[0], maxval=self.factor[1], seed=seed)
        threshold = uniform(shape=(batch_size,), minval=0, maxval=1, seed=seed)
        return {"apply_inversion": threshold < probability}

    def transform_images(self, images: Any, transformation: Any, training: bool = True) -> Any:
        if not training:
            return images
        images = self.backend.cast(images, self.compute_dtype)
        return self.backend.numpy.where(transformation["apply_inversion"][:, None, None, None],
                                        self.value_range[1] - images, images)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}
