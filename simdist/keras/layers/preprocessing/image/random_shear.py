"""`keras.layers.RandomShear` (Keras 3.15's random_shear.py): in training, per image a sign
(-1 where `uniform() > 0.5`), then `shear_y = uniform(y_factor)` and `shear_x = uniform(x_factor)`
(each (batch, 1), compute dtype; y drawn before x), the factors (x, y) times the sign; the
projective rows [1, sx, 0, sy, 1, 0, 0, 0] through `keras.ops.image.affine_transform` (fill_mode
reflect/wrap/constant/nearest, interpolation bilinear/nearest). Each factor lies in [0, 1]: a
number f means (-f, f); a pair is sorted."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer, check_choice
from simdist.keras.layers.preprocessing.image.factors import lower_upper
from simdist.keras.layers.preprocessing.image.random_rotation import FILL_MODES, INTERPOLATIONS

__all__ = ["RandomShear"]

_ERROR = "The `factor` argument should be a number (or a list of two numbers) in the range [0, 1.0]. "


def _in_range(x: float) -> bool:
    return 0.0 <= x <= 1.0


class RandomShear(BaseImagePreprocessingLayer):
    """`keras.layers.RandomShear(x_factor=0.0, y_factor=0.0, interpolation="bilinear",
    fill_mode="reflect", fill_value=0.0, data_format=None, seed=None)`."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, x_factor: Any = 0.0, y_factor: Any = 0.0, interpolation: str = "bilinear",
                 fill_mode: str = "reflect", fill_value: float = 0.0, data_format: str | None = None,
                 seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self.x_factor = lower_upper(x_factor, "x_factor", _ERROR, _in_range)
        self.y_factor = lower_upper(y_factor, "y_factor", _ERROR, _in_range)
        check_choice(fill_mode, FILL_MODES, "fill_mode")
        check_choice(interpolation, INTERPOLATIONS, "interpolation")
        self.fill_mode = fill_mode
        self.fill_value = fill_value
        self.interpolation = interpolation
        self.seed = seed
        self.generator = random.SeedGenerator(seed)

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if not training:
            return None
        ops, np_ = self.backend, self.backend.numpy
        shape = ops.shape(data["images"] if isinstance(data, dict) else data)
        batch_size = 1 if len(shape) == 3 else shape[0]
        if seed is None:
            seed = self._get_seed_generator()
        uniform = ops.random.uniform
        invert = uniform(minval=0, maxval=1, shape=[batch_size, 1], seed=seed, dtype=self.compute_dtype)
        invert = np_.where(invert > 0.5, -np_.ones_like(invert), np_.ones_like(invert))
        shear_y = uniform(minval=self.y_factor[0], maxval=self.y_factor[1], shape=[batch_size, 1], seed=seed,
                          dtype=self.compute_dtype)
        shear_x = uniform(minval=self.x_factor[0], maxval=self.x_factor[1], shape=[batch_size, 1], seed=seed,
                          dtype=self.compute_dtype)
        shear = ops.cast(np_.concatenate([shear_x, shear_y], axis=1), dtype=self.compute_dtype) * invert
        return {"shear_factor": shear, "input_shape": shape}

    def _transform_images(self, images: Any, transformation: Any, interpolation: str) -> Any:
        if transformation is None:
            return images
        ops, np_ = self.backend, self.backend.numpy
        unbatched = len(ops.shape(images)) == 3
        if unbatched:
            images = np_.expand_dims(images, axis=0)
        shear = transformation["shear_factor"]
        n = ops.shape(shear)[0]
        ones, zeros = np_.ones((n,)), np_.zeros((n,))
        matrix = np_.stack([ones, shear[:, 0], zeros, shear[:, 1], ones, zeros, zeros, zeros], axis=1)
        outputs = ops.image.affine_transform(images, transform=matrix, interpolation=interpolation,
                                             fill_mode=self.fill_mode, fill_value=self.fill_value,
                                             data_format=self.data_format)
        return np_.squeeze(outputs, axis=0) if unbatched else outputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "x_factor": self.x_factor, "y_factor": self.y_factor,
                "fill_mode": self.fill_mode, "interpolation": self.interpolation, "seed": self.seed,
                "fill_value": self.fill_value, "data_format": self.data_format}
