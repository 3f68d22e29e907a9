"""`keras.layers.RandomContrast` (Keras 3.15's random_contrast.py): in training, per image a
factor `uniform(1 - lower, 1 + upper)` (compute dtype, the layer's SeedGenerator), then
`(x - mean) * factor + mean` with the mean over height then width (per channel), clipped to
`value_range`. `factor` lies in [0, 1]. Inference passes the images through."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer

__all__ = ["RandomContrast", "per_image_shape"]


def per_image_shape(shape: tuple) -> Any:
    """(1, 1, 1) for one image, (batch, 1, 1, 1) for a batch; else Keras's ValueError."""
    if len(shape) == 3:
        return (1, 1, 1)
    if len(shape) == 4:
        return [shape[0], 1, 1, 1]
    raise ValueError(f"Expected the input image to be rank 3 or 4. Received inputs.shape={shape}")


class RandomContrast(BaseImagePreprocessingLayer):
    """`keras.layers.RandomContrast(factor, value_range=(0, 255), seed=None)`."""

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor: Any, value_range: Any = (0, 255), seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._set_factor(factor)
        self.value_range = value_range
        self.seed = seed
        self.generator = random.SeedGenerator(seed)

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        factor_shape = per_image_shape(self.backend.shape(data["images"] if isinstance(data, dict) else data))
        if not training:
            return {"contrast_factor": self.backend.numpy.zeros(factor_shape)}
        if seed is None:
            seed = self._get_seed_generator()
        factor = self.backend.random.uniform(shape=factor_shape, minval=1.0 - self.factor[0],
                                             maxval=1.0 + self.factor[1], seed=seed, dtype=self.compute_dtype)
        return {"contrast_factor": factor}

    def transform_images(self, images: Any, transformation: Any, training: bool = True) -> Any:
        if not training:
            return images
        np_ = self.backend.numpy
        height_axis, width_axis = (-2, -1) if self.data_format == "channels_first" else (-3, -2)
        mean = np_.mean(np_.mean(images, axis=height_axis, keepdims=True), axis=width_axis, keepdims=True)
        outputs = (images - mean) * transformation["contrast_factor"] + mean
        return np_.clip(outputs, self.value_range[0], self.value_range[1])

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}
