"""`keras.layers.RandomRotation` (Keras 3.15's random_rotation.py): in training, one angle per
image, `uniform(batch, factor[0] * 360, factor[1] * 360)` degrees from the layer's SeedGenerator,
rotating about the image centre through `keras.ops.image.affine_transform`
(ImageProjectiveTransformV3; fill_mode reflect/wrap/constant/nearest, interpolation
bilinear/nearest). `factor` f in [-1, 1] means [-|f|, |f|] of a full turn."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer, check_choice

__all__ = ["RandomRotation", "FILL_MODES", "INTERPOLATIONS"]

FILL_MODES = ("reflect", "wrap", "constant", "nearest")
INTERPOLATIONS = ("nearest", "bilinear")


class RandomRotation(BaseImagePreprocessingLayer):
    """`keras.layers.RandomRotation(factor, fill_mode="reflect", interpolation="bilinear", seed=None,
    fill_value=0.0, data_format=None)`."""

    def __init__(self, factor: Any, fill_mode: str = "reflect", interpolation: str = "bilinear",
                 seed: int | None = None, fill_value: float = 0.0, data_format: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(factor=factor, data_format=data_format, **kwargs)
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        self.fill_mode = fill_mode
        self.interpolation = interpolation
        self.fill_value = fill_value
        check_choice(fill_mode, FILL_MODES, "fill_mode")
        check_choice(interpolation, INTERPOLATIONS, "interpolation")

    def _transform_images(self, images: Any, transformation: Any, interpolation: str) -> Any:
        return self.backend.image.affine_transform(
            images=images, transform=transformation["rotation_matrix"], interpolation=interpolation,
            fill_mode=self.fill_mode, fill_value=self.fill_value, data_format=self.data_format)

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        ops = self.backend
        if not training:
            return None
        shape = ops.core.shape(data["images"] if isinstance(data, dict) else data)
        batch_size = shape[0] if len(shape) == 4 else 1
        first = len(shape) - 3 + (0 if self.data_format == "channels_last" else 1)
        image_height, image_width = shape[first], shape[first + 1]
        if seed is None:
            seed = self._get_seed_generator()
        angle = ops.random.uniform(shape=(batch_size,), minval=self.factor[0] * 360.0,
                                   maxval=self.factor[1] * 360.0, seed=seed)
        zeros = ops.numpy.zeros([batch_size])
        rotation_matrix = self._compute_affine_matrix(
            center_x=0.5, center_y=0.5, angle=angle, translate_x=zeros, translate_y=zeros,
            scale=ops.numpy.ones([batch_size]), shear_x=zeros, shear_y=zeros, height=image_height,
            width=image_width)
        if len(shape) == 3:
            rotation_matrix = ops.numpy.squeeze(rotation_matrix, axis=0)
        return {"angle": angle, "rotation_matrix": rotation_matrix, "image_height": image_height,
                "image_width": image_width, "batch_size": batch_size}

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "data_format": self.data_format,
                "fill_mode": self.fill_mode, "fill_value": self.fill_value, "interpolation": self.interpolation,
                "seed": self.seed}
