"""`keras.layers.RandomFlip` (Keras 3.15's random_flip.py): in training, one draw per image
(`uniform(batch, 1, 1, 1) <= 0.5`, from the layer's SeedGenerator) decides whether it is flipped;
a flipped image is mirrored along its width ("horizontal"), its height ("vertical") or both
("horizontal_and_vertical", the default). Inference passes the images through."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer

__all__ = ["RandomFlip", "HORIZONTAL", "VERTICAL", "HORIZONTAL_AND_VERTICAL"]

HORIZONTAL = "horizontal"
VERTICAL = "vertical"
HORIZONTAL_AND_VERTICAL = "horizontal_and_vertical"


class RandomFlip(BaseImagePreprocessingLayer):
    """`keras.layers.RandomFlip(mode="horizontal_and_vertical", seed=None, data_format=None)`."""

    _USE_BASE_FACTOR = False

    def __init__(self, mode: str = HORIZONTAL_AND_VERTICAL, seed: int | None = None, data_format: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        self.mode = mode
        self._convert_input_args = False

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if not training:
            return None
        shape = self.backend.core.shape(data["images"] if isinstance(data, dict) else data)
        flips_shape = (1, 1, 1) if len(shape) == 3 else (shape[0], 1, 1, 1)
        if seed is None:
            seed = self._get_seed_generator()
        flips = self.backend.numpy.less_equal(self.backend.random.uniform(shape=flips_shape, seed=seed), 0.5)
        return {"flips": flips, "input_shape": shape}

    def transform_images(self, images: Any, transformation: Any, training: bool = True) -> Any:
        images = self.backend.cast(images, self.compute_dtype)
        if training:
            return self._flip_inputs(images, transformation)
        return images

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return self.transform_images(segmentation_masks, transformation, training=training)

    def _flip_inputs(self, inputs: Any, transformation: Any) -> Any:
        if transformation is None:
            return inputs
        np_ = self.backend.numpy
        flips = transformation["flips"]
        unbatched = len(self.backend.shape(inputs)) == 3
        if unbatched:
            inputs = np_.expand_dims(inputs, axis=0)
        horizontal_axis, vertical_axis = (-2, -3) if self.data_format == "channels_last" else (-1, -2)
        out = inputs
        if self.mode in (HORIZONTAL, HORIZONTAL_AND_VERTICAL):
            out = np_.where(flips, np_.flip(out, axis=horizontal_axis), out)
        if self.mode in (VERTICAL, HORIZONTAL_AND_VERTICAL):
            out = np_.where(flips, np_.flip(out, axis=vertical_axis), out)
        return np_.squeeze(out, axis=0) if unbatched else out

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "seed": self.seed, "mode": self.mode, "data_format": self.data_format}
