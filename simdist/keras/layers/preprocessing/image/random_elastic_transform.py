"""`keras.layers.RandomElasticTransform` (Keras 3.15's random_elastic_transform.py): in training
(when scale and factor are not 0 at the top), per image a probability `uniform(factor)` and a
threshold `uniform(0, 1)`, one distortion `d = uniform((), scale)`; the transform draws its
displacement fields from the layer's SeedGenerator (`keras.ops.image.elastic_transform` with
alpha = max(h, w) * 0.1 d, sigma = min(h, w) * 0.05 d), and the images where threshold <
probability take it; all are clipped to `value_range`. A segmentation mask draws new fields."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.layers.preprocessing.image.factors import named_factor
from simdist.keras.layers.preprocessing.image.random_rotation import INTERPOLATIONS

__all__ = ["RandomElasticTransform"]

FILL_MODES = frozenset({"constant", "nearest", "wrap", "mirror", "reflect"})


class RandomElasticTransform(BaseImagePreprocessingLayer):
    """`keras.layers.RandomElasticTransform(factor=1.0, scale=1.0, interpolation="bilinear",
    fill_mode="reflect", fill_value=0.0, value_range=(0, 255), seed=None, data_format=None)`."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor: Any = 1.0, scale: Any = 1.0, interpolation: str = "bilinear",
                 fill_mode: str = "reflect", fill_value: float = 0.0, value_range: Any = (0, 255),
                 seed: int | None = None, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale = named_factor(scale, "scale", self._FACTOR_BOUNDS)
        self.interpolation = interpolation
        self.fill_mode = fill_mode
        self.fill_value = fill_value
        self.value_range = value_range
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        if interpolation not in INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one {INTERPOLATIONS}.")
        if fill_mode not in FILL_MODES:
            # Keras prints its set of modes (an order that depends on Python's string hashing)
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {set(sorted(FILL_MODES))}.")
        if self.data_format == "channels_first":
            self.height_axis, self.width_axis, self.channel_axis = -2, -1, -3
        else:
            self.height_axis, self.width_axis, self.channel_axis = -3, -2, -1

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if not training or self.scale[1] == 0 or self.factor[1] == 0:
            return None
        shape = self.backend.shape(data["images"] if isinstance(data, dict) else data)
        batch_size = 1 if len(shape) == 3 else shape[0]
        seed = seed or self._get_seed_generator()
        uniform = self.backend.random.uniform
        probability = uniform(shape=(batch_size,), minval=self.factor[0], maxval=self.factor[1], seed=seed)
        threshold = uniform(shape=(batch_size,), minval=0.0, maxval=1.0, seed=seed)
        distortion = uniform(shape=(), minval=self.scale[0], maxval=self.scale[1], seed=seed, dtype=self.compute_dtype)
        return {"apply_transform": threshold < probability, "distortion_factor": distortion, "seed": seed}

    def _transform_images(self, images: Any, transformation: Any, interpolation: str) -> Any:
        if transformation is None:
            return images
        np_ = self.backend.numpy
        apply_transform = transformation["apply_transform"]
        factor = transformation["distortion_factor"]
        height, width = images.shape[self.height_axis], images.shape[self.width_axis]
        alpha, sigma = max(height, width) * (0.1 * factor), min(height, width) * (0.05 * factor)
        transformed = self.backend.image.elastic_transform(
            images, alpha=alpha, sigma=sigma, interpolation=interpolation, fill_mode=self.fill_mode,
            fill_value=self.fill_value, seed=transformation["seed"], data_format=self.data_format)
        apply_transform = apply_transform[:, None, None] if len(images.shape) == 3 else \
            apply_transform[:, None, None, None]
        images = np_.where(apply_transform, transformed, images)
        images = np_.clip(images, self.value_range[0], self.value_range[1])
        return self.backend.cast(images, self.compute_dtype)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "scale": self.scale,
                "interpolation": self.interpolation, "fill_mode": self.fill_mode, "fill_value": self.fill_value,
                "value_range": self.value_range, "seed": self.seed}
