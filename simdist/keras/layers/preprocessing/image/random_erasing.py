"""`keras.layers.RandomErasing` (Keras 3.15's random_erasing.py): in training, per image
`uniform((batch, 2), scale)` square-rooted gives a box of sides r0 * width, r1 * height at
`uniform() * (size - side)` (x then y), then an erase probability `uniform(factor)` and a threshold
`uniform(0, 1)`, then (fill_value None) a fill `normal(images.shape) * value_range[1]`, else the
constant fill; the fill is clipped to `value_range` and replaces the box's pixels where
threshold < probability. `factor` and `scale` lie in [0, 1]."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.layers.preprocessing.image.factors import named_factor

__all__ = ["RandomErasing"]


class RandomErasing(BaseImagePreprocessingLayer):
    """`keras.layers.RandomErasing(factor=1.0, scale=(0.02, 0.33), fill_value=None,
    value_range=(0, 255), seed=None, data_format=None)`."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor: Any = 1.0, scale: Any = (0.02, 0.33), fill_value: Any = None,
                 value_range: Any = (0, 255), seed: int | None = None, data_format: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale = named_factor(scale, "scale", self._FACTOR_BOUNDS)
        self.fill_value = fill_value
        self.value_range = value_range
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        if self.data_format == "channels_first":
            self.height_axis, self.width_axis, self.channel_axis = -2, -1, -3
        else:
            self.height_axis, self.width_axis, self.channel_axis = -3, -2, -1

    def _crop_bounds(self, batch_size: Any, length: Any, ratio: Any, seed: Any) -> tuple[Any, Any]:
        crop = self.backend.cast(ratio * length, dtype=self.compute_dtype)
        start = self.backend.random.uniform(shape=[batch_size], minval=0, maxval=1, dtype=self.compute_dtype,
                                            seed=seed) * (length - crop)
        return start, start + crop

    def _batch_mask(self, shape: tuple, box: tuple) -> Any:
        ops, np_ = self.backend, self.backend.numpy
        height, width = shape[self.height_axis], shape[self.width_axis]
        grid_y, grid_x = np_.meshgrid(np_.arange(height, dtype=self.compute_dtype),
                                      np_.arange(width, dtype=self.compute_dtype), indexing="ij")
        index = (None, slice(None), slice(None), None) if self.data_format == "channels_last" else \
            (None, None, slice(None), slice(None))
        grid_x = ops.cast(grid_x[index], dtype=self.compute_dtype)
        grid_y = ops.cast(grid_y[index], dtype=self.compute_dtype)
        x0, x1, y0, y1 = (v[:, None, None, None] for v in box)
        masks = (grid_x >= x0) & (grid_x < x1) & (grid_y >= y0) & (grid_y < y1)
        return np_.repeat(masks, shape[self.channel_axis], axis=self.channel_axis)

    def _fill(self, images: Any, shape: tuple, seed: Any) -> Any:
        np_ = self.backend.numpy
        fill_value = self.fill_value
        if fill_value is None:
            fill_value = self.backend.random.normal(shape, dtype=self.compute_dtype, seed=seed) * self.value_range[1]
        else:
            error_msg = "The `fill_value` argument should be a number (or a list of three numbers) "
            if isinstance(fill_value, (tuple, list)):
                if len(fill_value) != 3:
                    raise ValueError(error_msg)
                fill_value = np_.full_like(images, fill_value, dtype=self.compute_dtype)
            elif isinstance(fill_value, (int, float)):
                fill_value = np_.ones(shape, dtype=self.compute_dtype) * fill_value
            else:
                raise ValueError(error_msg)
        return np_.clip(fill_value, self.value_range[0], self.value_range[1])

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if not training:
            return None
        images = data["images"] if isinstance(data, dict) else data
        shape = self.backend.shape(images)
        if len(shape) not in (3, 4):
            raise ValueError(f"Expected the input image to be rank 3 or 4. Received inputs.shape={shape}")
        batch_size = 1 if len(shape) == 3 else shape[0]
        seed = seed or self._get_seed_generator()
        uniform = self.backend.random.uniform
        ratio = self.backend.numpy.sqrt(uniform(shape=(batch_size, 2), minval=self.scale[0], maxval=self.scale[1],
                                                dtype=self.compute_dtype, seed=seed))
        x0, x1 = self._crop_bounds(batch_size, shape[self.width_axis], ratio[:, 0], seed)
        y0, y1 = self._crop_bounds(batch_size, shape[self.height_axis], ratio[:, 1], seed)
        batch_masks = self._batch_mask(shape, (x0, x1, y0, y1))
        probability = uniform(shape=(batch_size,), minval=self.factor[0], maxval=self.factor[1], seed=seed)
        threshold = uniform(shape=(batch_size,), minval=0.0, maxval=1.0, seed=seed)
        return {"apply_erasing": threshold < probability, "batch_masks": batch_masks,
                "fill_value": self._fill(images, shape, seed)}

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        np_ = self.backend.numpy
        if training:
            images = self.backend.cast(images, self.compute_dtype)
            erased = np_.where(transformation["batch_masks"], transformation["fill_value"], images)
            images = np_.where(transformation["apply_erasing"][:, None, None, None], erased, images)
        return self.backend.cast(images, self.compute_dtype)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "scale": self.scale, "fill_value": self.fill_value,
                "value_range": self.value_range, "seed": self.seed}
