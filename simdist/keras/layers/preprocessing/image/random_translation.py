"""`keras.layers.RandomTranslation` (Keras 3.15's random_translation.py): in training, per image
a vertical shift `uniform(h_lower, h_upper) * height` then a horizontal one
`uniform(w_lower, w_upper) * width` (two draws of the layer's SeedGenerator), applied as the
projective rows [1, 0, -dx, 0, 1, -dy, 0, 0] through `keras.ops.image.affine_transform`.
Factors lie in [-1, 1]."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer, check_choice
from simdist.keras.layers.preprocessing.image.factors import lower_upper
from simdist.keras.layers.preprocessing.image.random_rotation import FILL_MODES, INTERPOLATIONS

__all__ = ["RandomTranslation"]

_ERROR = "The `factor` argument should be a number (or a list of two numbers) in the range [-1.0, 1.0]. "


class RandomTranslation(BaseImagePreprocessingLayer):
    """`keras.layers.RandomTranslation(height_factor, width_factor, fill_mode="reflect",
    interpolation="bilinear", seed=None, fill_value=0.0, data_format=None)`."""

    _USE_BASE_FACTOR = False

    def __init__(self, height_factor: Any, width_factor: Any, fill_mode: str = "reflect",
                 interpolation: str = "bilinear", seed: int | None = None, fill_value: float = 0.0,
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)

        def in_range(x: float) -> bool:
            return -1.0 <= x <= 1.0

        self.height_factor = height_factor
        self.height_lower, self.height_upper = lower_upper(height_factor, "height_factor", _ERROR, in_range)
        self.width_factor = width_factor
        self.width_lower, self.width_upper = lower_upper(width_factor, "width_factor", _ERROR, in_range)
        check_choice(fill_mode, FILL_MODES, "fill_mode")
        check_choice(interpolation, INTERPOLATIONS, "interpolation")
        self.fill_mode = fill_mode
        self.fill_value = fill_value
        self.interpolation = interpolation
        self.seed = seed
        self.generator = random.SeedGenerator(seed)

    def _transform_images(self, images: Any, transformation: Any, interpolation: str) -> Any:
        if transformation is None:
            return images
        ops = self.backend
        unbatched = len(ops.shape(images)) == 3
        if unbatched:
            images = ops.numpy.expand_dims(images, axis=0)
        outputs = ops.image.affine_transform(images, transform=self._get_translation_matrix(
            transformation["translations"]), interpolation=interpolation, fill_mode=self.fill_mode,
            fill_value=self.fill_value, data_format=self.data_format)
        return ops.numpy.squeeze(outputs, axis=0) if unbatched else outputs

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if not training:
            return None
        ops = self.backend
        shape = ops.shape(data["images"] if isinstance(data, dict) else data)
        batch_size = 1 if len(shape) == 3 else shape[0]
        height, width = (shape[-2], shape[-1]) if self.data_format == "channels_first" else (shape[-3], shape[-2])
        if seed is None:
            seed = self._get_seed_generator()
        height_translate = ops.numpy.multiply(ops.random.uniform(minval=self.height_lower, maxval=self.height_upper,
                                                                 shape=[batch_size, 1], seed=seed), height)
        width_translate = ops.numpy.multiply(ops.random.uniform(minval=self.width_lower, maxval=self.width_upper,
                                                                shape=[batch_size, 1], seed=seed), width)
        translations = ops.cast(ops.numpy.concatenate([width_translate, height_translate], axis=1), dtype="float32")
        return {"translations": translations, "input_shape": shape}

    def _get_translation_matrix(self, translations: Any) -> Any:
        ops = self.backend
        n = ops.shape(translations)[0]
        ones, zeros = ops.numpy.ones, ops.numpy.zeros
        return ops.numpy.concatenate([ones((n, 1)), zeros((n, 1)), -translations[:, 0:1], zeros((n, 1)),
                                      ones((n, 1)), -translations[:, 1:], zeros((n, 2))], axis=1)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "height_factor": self.height_factor, "width_factor": self.width_factor,
                "fill_mode": self.fill_mode, "interpolation": self.interpolation, "seed": self.seed,
                "fill_value": self.fill_value, "data_format": self.data_format}
