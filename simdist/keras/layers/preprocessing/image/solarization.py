"""`keras.layers.Solarization` (Keras 3.15's solarization.py): in training, per image an addition
`uniform(a_lower, a_upper * 255)` then a threshold `uniform(t_lower, t_upper * 255)` (compute
dtype, the layer's SeedGenerator); the images mapped from `value_range` to [0, 255], the addition
added and clipped to [0, 255], pixels at or above the threshold replaced by 255 - x, then mapped
back. A factor f in [0, 1] means (0, f); a pair is sorted."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.layers.preprocessing.image.value_range import sorted_value_range
from simdist.keras.ops.op_core import _saturate_cast
from simdist.keras.ops.shim import is_int_dtype

__all__ = ["Solarization"]

_ERROR = ("The `addition_factor` and `threshold_factor` arguments should be a number (or a list of two numbers) "
          "in the range [0, 1]. ")


def _unit_factor(factor: Any, factor_name: str) -> tuple[float, float]:
    def check(x: float) -> None:
        if x > 1.0 or x < 0:
            raise ValueError(_ERROR + f"Received: input_number={x}")

    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(_ERROR + f"Received: {factor_name}={factor}")
        check(factor[0])
        check(factor[1])
        lower, upper = sorted(factor)
        return lower, upper
    if isinstance(factor, (int, float)):
        check(factor)
        return 0, factor
    raise ValueError(_ERROR + f"Received: {factor_name}={factor}")


class Solarization(BaseImagePreprocessingLayer):
    """`keras.layers.Solarization(addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255),
    seed=None)`."""

    _USE_BASE_FACTOR = False

    def __init__(self, addition_factor: Any = 0.0, threshold_factor: Any = 0.0, value_range: Any = (0, 255),
                 seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        self.addition_factor = _unit_factor(addition_factor, "addition_factor")
        self.threshold_factor = _unit_factor(threshold_factor, "threshold_factor")
        self.value_range = sorted_value_range(value_range)

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if not training:
            return None
        shape = self.backend.shape(data["images"] if isinstance(data, dict) else data)
        factor_shape = (shape[0], 1, 1, 1) if len(shape) == 4 else (1, 1, 1)
        if seed is None:
            seed = self._get_seed_generator()
        uniform = self.backend.random.uniform
        additions = uniform(minval=self.addition_factor[0], maxval=self.addition_factor[1] * 255, shape=factor_shape,
                            seed=seed, dtype=self.compute_dtype)
        thresholds = uniform(minval=self.threshold_factor[0], maxval=self.threshold_factor[1] * 255,
                             shape=factor_shape, seed=seed, dtype=self.compute_dtype)
        return {"additions": additions, "thresholds": thresholds}

    def transform_images(self, images: Any, transformation: Any, training: bool = True) -> Any:
        images = self.backend.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        np_ = self.backend.numpy
        x = self._transform_value_range(images, original_range=self.value_range, target_range=(0, 255),
                                        dtype=self.compute_dtype)
        results = np_.clip(x + transformation["additions"], 0, 255)
        results = np_.where(results < transformation["thresholds"], results, 255 - results)
        results = self._transform_value_range(results, original_range=(0, 255), target_range=self.value_range,
                                              dtype=self.compute_dtype)
        if results.dtype == images.dtype:
            return results
        if is_int_dtype(images.dtype):
            results = np_.round(results)
        return _saturate_cast(results, images.dtype.name, self.backend)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "value_range": self.value_range, "addition_factor": self.addition_factor,
                "threshold_factor": self.threshold_factor, "seed": self.seed}
