"""`keras.layers.RandomSaturation` (Keras 3.15's random_saturation.py): per image (drawn at every
call) `f = uniform(lower, upper)`, factor `f / (1 - f + epsilon)`; in training the HSV saturation
is multiplied by it and clipped to `value_range` (keras.ops.image.rgb_to_hsv / hsv_to_rgb).
`factor` lies in [-1, 1] (the base rule)."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.config import epsilon
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.layers.preprocessing.image.value_range import sorted_value_range

__all__ = ["RandomSaturation", "batch_size_of"]


def batch_size_of(shape: tuple) -> Any:
    """1 for one image, the batch for a batch; else Keras's ValueError."""
    if len(shape) == 3:
        return 1
    if len(shape) == 4:
        return shape[0]
    raise ValueError(f"Expected the input image to be rank 3 or 4. Received: inputs.shape={shape}")


class RandomSaturation(BaseImagePreprocessingLayer):
    """`keras.layers.RandomSaturation(factor, value_range=(0, 255), data_format=None, seed=None)`."""

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
        factor = self.backend.random.uniform((batch_size,), minval=self.factor[0], maxval=self.factor[1], seed=seed)
        return {"factor": factor / (1 - factor + epsilon())}

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        if not training:
            return images
        ops, np_ = self.backend, self.backend.numpy
        factors = ops.cast(transformation["factor"], self.compute_dtype)
        factors = np_.reshape(factors, ops.shape(factors) + (1, 1))
        images = ops.image.rgb_to_hsv(images, data_format=self.data_format)
        lo, hi = self.value_range
        if self.data_format == "channels_first":
            s = np_.clip(np_.multiply(images[:, 1, :, :], factors), lo, hi)
            images = np_.stack([images[:, 0, :, :], s, images[:, 2, :, :]], axis=1)
        else:
            s = np_.clip(np_.multiply(images[..., 1], factors), lo, hi)
            images = np_.stack([images[..., 0], s, images[..., 2]], axis=-1)
        return ops.image.hsv_to_rgb(images, data_format=self.data_format)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}
