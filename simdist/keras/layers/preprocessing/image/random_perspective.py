"""`keras.layers.RandomPerspective` (Keras 3.15's random_perspective.py): in training, per image
a probability `uniform(factor)` and a threshold `uniform(0, 1)`, then corner offsets
`uniform((batch, 4, 2), -scale/2, scale/2)` (compute dtype); the corners (0, 0), (w-1, 0),
(0, h-1), (w-1, h-1) move by corner * offset, and `keras.ops.image.perspective_transform`
(constant `fill_value`) maps the images where threshold < probability. `factor` lies in [0, 1];
`scale` in [0, 1]."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer, check_choice
from simdist.keras.layers.preprocessing.image.random_rotation import INTERPOLATIONS

__all__ = ["RandomPerspective"]


class RandomPerspective(BaseImagePreprocessingLayer):
    """`keras.layers.RandomPerspective(factor=1.0, scale=1.0, interpolation="bilinear",
    fill_value=0.0, seed=None, data_format=None)`."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor: Any = 1.0, scale: float = 1.0, interpolation: str = "bilinear",
                 fill_value: float = 0.0, seed: int | None = None, data_format: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale = scale
        self.fill_value = fill_value
        self.interpolation = interpolation
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        if scale < 0.0 or scale > 1.0:
            raise ValueError(f"The `scale` argument should be a number in the range [0,1]. Received: scale={scale}")
        check_choice(interpolation, INTERPOLATIONS, "interpolation")
        if self.data_format == "channels_first":
            self.height_axis, self.width_axis, self.channel_axis = -2, -1, -3
        else:
            self.height_axis, self.width_axis, self.channel_axis = -3, -2, -1

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if not training:
            return None
        ops = self.backend
        images = data["images"] if isinstance(data, dict) else data
        shape = ops.shape(images)
        batch_size = 1 if len(shape) == 3 else shape[0]
        height, width = images.shape[self.height_axis], images.shape[self.width_axis]
        seed = seed or self._get_seed_generator()
        uniform = ops.random.uniform
        probability = uniform(shape=(batch_size,), minval=self.factor[0], maxval=self.factor[1], seed=seed)
        threshold = uniform(shape=(batch_size,), minval=0.0, maxval=1.0, seed=seed)
        perspective_factor = uniform(shape=(batch_size, 4, 2), minval=-0.5 * self.scale, maxval=0.5 * self.scale,
                                     seed=seed, dtype=self.compute_dtype)
        start_points = ops.convert_to_tensor([[[0.0, 0.0], [width - 1, 0.0], [0.0, height - 1],
                                               [width - 1, height - 1]]], dtype=self.compute_dtype)
        start_points = ops.numpy.repeat(start_points, batch_size, axis=0)
        return {"apply_perspective": threshold < probability, "start_points": start_points,
                "end_points": start_points + start_points * perspective_factor, "input_shape": shape}

    def _transform_images(self, images: Any, transformation: Any, interpolation: str) -> Any:
        if transformation is None:
            return images
        ops, np_ = self.backend, self.backend.numpy
        unbatched = len(ops.shape(images)) == 3
        if unbatched:
            images = np_.expand_dims(images, axis=0)
        outputs = ops.image.perspective_transform(images, transformation["start_points"],
                                                  transformation["end_points"], interpolation=interpolation,
                                                  fill_value=self.fill_value, data_format=self.data_format)
        outputs = np_.where(transformation["apply_perspective"][:, None, None, None], outputs, images)
        return np_.squeeze(outputs, axis=0) if unbatched else outputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "scale": self.scale,
                "interpolation": self.interpolation, "fill_value": self.fill_value, "seed": self.seed}
