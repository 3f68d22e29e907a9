"""The sub-layers RandAugment and AugMix choose among (Keras 3.15's rand_augment.py and
aug_mix.py build the same ones): shear, translation and rotation by `factor`, brightness, colour
degeneration, contrast and sharpness by `factor` on `value_range`, solarization with both factors
`factor`, posterization with `max(1, int(8 * factor[1]))` bits, AutoContrast and Equalization;
each gets the parent's `seed`, `data_format` and other keyword arguments."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.preprocessing.image.auto_contrast import AutoContrast
from simdist.keras.layers.preprocessing.image.equalization import Equalization
from simdist.keras.layers.preprocessing.image.random_brightness import RandomBrightness
from simdist.keras.layers.preprocessing.image.random_color_degeneration import RandomColorDegeneration
from simdist.keras.layers.preprocessing.image.random_contrast import RandomContrast
from simdist.keras.layers.preprocessing.image.random_posterization import RandomPosterization
from simdist.keras.layers.preprocessing.image.random_rotation import RandomRotation
from simdist.keras.layers.preprocessing.image.random_sharpness import RandomSharpness
from simdist.keras.layers.preprocessing.image.random_shear import RandomShear
from simdist.keras.layers.preprocessing.image.random_translation import RandomTranslation
from simdist.keras.layers.preprocessing.image.solarization import Solarization

__all__ = ["make_augment_layer"]


def make_augment_layer(name: str, factor: tuple[float, float], value_range: Any, interpolation: str,
                       seed: int | None, data_format: str | None, kwargs: dict[str, Any]) -> Any:
    """The sub-layer `name` (an attribute name of Keras's RandAugment/AugMix) as Keras builds it."""
    common = {"seed": seed, "data_format": data_format, **kwargs}
    colour = {"value_range": value_range, **common}
    if name == "random_shear":
        return RandomShear(x_factor=factor, y_factor=factor, interpolation=interpolation, **common)
    if name == "random_translation":
        return RandomTranslation(height_factor=factor, width_factor=factor, interpolation=interpolation, **common)
    if name == "random_rotation":
        return RandomRotation(factor=factor, interpolation=interpolation, **common)
    if name == "random_brightness":
        return RandomBrightness(factor=factor, **colour)
    if name == "random_color_degeneration":
        return RandomColorDegeneration(factor=factor, **colour)
    if name == "random_contrast":
        return RandomContrast(factor=factor, **colour)
    if name == "random_sharpness":
        return RandomSharpness(factor=factor, **colour)
    if name == "solarization":
        return Solarization(addition_factor=factor, threshold_factor=factor, **colour)
    if name == "random_posterization":
        return RandomPosterization(factor=max(1, int(8 * factor[1])), **colour)
    if name == "auto_contrast":
        return AutoContrast(value_range=value_range, data_format=data_format, **kwargs)
    if name == "equalization":
        return Equalization(value_range=value_range, data_format=data_format, **kwargs)
    raise ValueError(f"unknown augmentation layer {name}")
