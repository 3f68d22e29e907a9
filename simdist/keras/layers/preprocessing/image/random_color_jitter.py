"""`keras.layers.RandomColorJitter` (Keras 3.15's random_color_jitter.py): RandomBrightness,
RandomContrast, RandomSaturation and RandomHue sub-layers (each built only when its factor is
given; `value_range` and `seed` passed on, `data_format` not: the sub-layers use the default);
in training each in that order draws its transformation from the jitter's own SeedGenerator
(not its own) on the images so far and applies it. Inference passes the images through."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.layers.preprocessing.image.random_brightness import RandomBrightness
from simdist.keras.layers.preprocessing.image.random_contrast import RandomContrast
from simdist.keras.layers.preprocessing.image.random_hue import RandomHue
from simdist.keras.layers.preprocessing.image.random_saturation import RandomSaturation

__all__ = ["RandomColorJitter"]


class RandomColorJitter(BaseImagePreprocessingLayer):
    """`keras.layers.RandomColorJitter(value_range=(0, 255), brightness_factor=None,
    contrast_factor=None, saturation_factor=None, hue_factor=None, seed=None, data_format=None)`."""

    def __init__(self, value_range: Any = (0, 255), brightness_factor: Any = None, contrast_factor: Any = None,
                 saturation_factor: Any = None, hue_factor: Any = None, seed: int | None = None,
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self.value_range = value_range
        self.brightness_factor = brightness_factor
        self.contrast_factor = contrast_factor
        self.saturation_factor = saturation_factor
        self.hue_factor = hue_factor
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        common = {"value_range": value_range, "seed": seed}
        self.random_brightness = None if brightness_factor is None else RandomBrightness(factor=brightness_factor,
                                                                                         **common)
        self.random_contrast = None if contrast_factor is None else RandomContrast(factor=contrast_factor, **common)
        self.random_saturation = None if saturation_factor is None else RandomSaturation(factor=saturation_factor,
                                                                                         **common)
        self.random_hue = None if hue_factor is None else RandomHue(factor=hue_factor, **common)

    def _sublayers(self) -> list[Any]:
        return [s for s in (self.random_brightness, self.random_contrast, self.random_saturation, self.random_hue)
                if s is not None]

    def build(self, input_shape: Any) -> None:
        for sub in self._sublayers():
            sub.build(input_shape)
        super().build(input_shape)

    def transform_images(self, images: Any, transformation: Any, training: bool = True) -> Any:
        if not training:
            return images
        images = self.backend.cast(images, self.compute_dtype)
        for sub in self._sublayers():
            sub_transformation = sub.get_random_transformation(images, seed=self._get_seed_generator())
            if sub is self.random_contrast:
                sub_transformation["contrast_factor"] = self.backend.cast(sub_transformation["contrast_factor"],
                                                                          dtype=self.compute_dtype)
            images = sub.transform_images(images, sub_transformation)
        return self.backend.cast(images, self.compute_dtype)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "value_range": self.value_range, "brightness_factor": self.brightness_factor,
                "contrast_factor": self.contrast_factor, "saturation_factor": self.saturation_factor,
                "hue_factor": self.hue_factor, "seed": self.seed}
