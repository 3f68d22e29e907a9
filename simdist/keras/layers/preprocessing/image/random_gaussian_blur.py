"""`keras.layers.RandomGaussianBlur` (Keras 3.15's random_gaussian_blur.py): in training, per
image a blur probability `uniform(factor)` and a threshold `uniform(0, 1)`, then one pair of
sigmas `uniform((2,), sigma) + 1e-6` for the batch; images where threshold < probability are
blurred by `keras.ops.image.gaussian_blur(kernel_size, sigmas)` (a depthwise SAME convolution),
and all are clipped to `value_range`. `factor` and `sigma` lie in [0, 1]; `kernel_size` is odd."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.layers.preprocessing.image.factors import named_factor

__all__ = ["RandomGaussianBlur"]


def _kernel_size(value: Any, name: str) -> tuple[Any, Any]:
    """Keras's `_set_kernel_size`: an odd number, or a pair of odd numbers."""
    error_msg = f"{name} must be an odd number. Received: {name}={value}"
    if isinstance(value, (tuple, list)):
        if len(value) != 2:
            raise ValueError(f"The `{name}` argument should be a number (or a list of two numbers) "
                             f"Received: {name}={value}")
        if value[0] % 2 == 0 or value[1] % 2 == 0:
            raise ValueError(error_msg)
        return value[0], value[1]
    if isinstance(value, (int, float)):
        if value % 2 == 0:
            raise ValueError(error_msg)
        return value, value
    raise ValueError(error_msg)


class RandomGaussianBlur(BaseImagePreprocessingLayer):
    """`keras.layers.RandomGaussianBlur(factor=1.0, kernel_size=3, sigma=1.0, value_range=(0, 255),
    data_format=None, seed=None)`."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor: Any = 1.0, kernel_size: Any = 3, sigma: Any = 1.0, value_range: Any = (0, 255),
                 data_format: str | None = None, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.kernel_size = _kernel_size(kernel_size, "kernel_size")
        self.sigma = named_factor(sigma, "sigma", self._FACTOR_BOUNDS)
        self.value_range = value_range
        self.seed = seed
        self.generator = random.SeedGenerator(seed)

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if not training:
            return None
        shape = self.backend.shape(data["images"] if isinstance(data, dict) else data)
        if len(shape) not in (3, 4):
            raise ValueError(f"Expected the input image to be rank 3 or 4. Received inputs.shape={shape}")
        batch_size = 1 if len(shape) == 3 else shape[0]
        seed = seed or self._get_seed_generator()
        uniform = self.backend.random.uniform
        probability = uniform(shape=(batch_size,), minval=self.factor[0], maxval=self.factor[1], seed=seed)
        threshold = uniform(shape=(batch_size,), minval=0.0, maxval=1.0, seed=seed)
        blur_factor = uniform(shape=(2,), minval=self.sigma[0], maxval=self.sigma[1], seed=seed,
                              dtype=self.compute_dtype) + 1e-6
        return {"should_apply_blur": threshold < probability, "blur_factor": blur_factor}

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        ops, np_ = self.backend, self.backend.numpy
        images = ops.cast(images, self.compute_dtype)
        if training and transformation is not None:
            blurred = ops.image.gaussian_blur(images, kernel_size=self.kernel_size,
                                              sigma=transformation["blur_factor"], data_format=self.data_format)
            images = np_.where(transformation["should_apply_blur"][:, None, None, None], blurred, images)
            images = np_.clip(images, self.value_range[0], self.value_range[1])
            images = ops.cast(images, dtype=self.compute_dtype)
        return images

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "kernel_size": self.kernel_size, "sigma": self.sigma,
                "value_range": self.value_range, "seed": self.seed}
