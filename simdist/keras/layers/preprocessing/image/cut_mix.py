"""`keras.layers.CutMix` (Keras 3.15's cut_mix.py): in training, for a batch (one image: no
change), `alpha = uniform((), lower, upper) + 1e-6`, per image `w = beta(alpha, alpha)`, a box of
sides sqrt(1 - w) * (width, height) at `uniform() * (size - side)` (x then y), a permutation of
the batch (`keras.random.shuffle`, int32); pixels inside an image's box come from its partner
image, labels mix by the box's area fraction. `factor` lies in [0, 1]."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer

__all__ = ["CutMix"]


class CutMix(BaseImagePreprocessingLayer):
    """`keras.layers.CutMix(factor=1.0, seed=None, data_format=None)`."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor: Any = 1.0, seed: int | None = None, data_format: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        if self.data_format == "channels_first":
            self.height_axis, self.width_axis, self.channel_axis = -2, -1, -3
        else:
            self.height_axis, self.width_axis, self.channel_axis = -3, -2, -1

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if not training:
            return None
        shape = self.backend.shape(data["images"] if isinstance(data, dict) else data)
        if len(shape) == 3:
            return None
        batch_size, height, width = shape[0], shape[self.height_axis], shape[self.width_axis]
        seed = seed or self._get_seed_generator()
        uniform = self.backend.random.uniform
        alpha = uniform(shape=(), minval=self.factor[0], maxval=self.factor[1], dtype=self.compute_dtype,
                        seed=seed) + 1e-6
        mix_weight = self.backend.random.beta((batch_size,), alpha, alpha, seed=seed, dtype=self.compute_dtype)
        ratio = self.backend.numpy.sqrt(1.0 - mix_weight)
        x0, x1 = self._crop_bounds(batch_size, width, ratio, seed)
        y0, y1 = self._crop_bounds(batch_size, height, ratio, seed)
        batch_masks, mix_weight = self._batch_mask(shape, (x0, x1, y0, y1))
        permutation_order = self.backend.random.shuffle(self.backend.numpy.arange(0, batch_size, dtype="int32"),
                                                        seed=seed)
        return {"permutation_order": permutation_order, "batch_masks": batch_masks, "mix_weight": mix_weight}

    def _batch_mask(self, shape: tuple, box: tuple) -> tuple[Any, Any]:
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
        masks = np_.repeat(masks, shape[self.channel_axis], axis=self.channel_axis)
        return masks, 1.0 - (x1 - x0) * (y1 - y0) / (width * height)

    def _crop_bounds(self, batch_size: Any, length: Any, ratio: Any, seed: Any) -> tuple[Any, Any]:
        crop = self.backend.cast(ratio * length, dtype=self.compute_dtype)
        start = self.backend.random.uniform(shape=[batch_size], minval=0, maxval=1, dtype=self.compute_dtype,
                                            seed=seed) * (length - crop)
        return start, start + crop

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        if training and transformation is not None:
            images = self.backend.cast(images, self.compute_dtype)
            partners = self.backend.numpy.take(images, transformation["permutation_order"], axis=0)
            images = self.backend.numpy.where(transformation["batch_masks"], partners, images)
        return self.backend.cast(images, self.compute_dtype)

    def transform_labels(self, labels: Any, transformation: Any, training: bool = True) -> Any:
        if training and transformation is not None:
            np_ = self.backend.numpy
            others = np_.take(labels, transformation["permutation_order"], axis=0)
            weight = np_.reshape(transformation["mix_weight"], [-1, 1])
            labels = weight * labels + (1.0 - weight) * others
        return labels

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return self.transform_images(segmentation_masks, transformation, training)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "seed": self.seed}
