"""`keras.layers.RandomZoom` (Keras 3.15's random_zoom.py): in training, per image a height zoom
`uniform(1 + lower, 1 + upper)` and (when `width_factor` is given, a second draw) a width zoom,
else the height one; the projective rows [zx, 0, (w-1)/2 (1-zx), 0, zy, (h-1)/2 (1-zy), 0, 0]
through `keras.ops.image.affine_transform`. Factors lie in (-1, 1]; a positive factor zooms out."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers import argument_validation
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer, check_choice
from simdist.keras.layers.preprocessing.image.factors import lower_upper
from simdist.keras.layers.preprocessing.image.random_rotation import FILL_MODES, INTERPOLATIONS

__all__ = ["RandomZoom"]

_ERROR = ("The `height_factor` and `width_factor` arguments should be a number (or a list of two numbers) "
          "in the range (-1.0, 1.0]. ")


class RandomZoom(BaseImagePreprocessingLayer):
    """`keras.layers.RandomZoom(height_factor, width_factor=None, fill_mode="reflect",
    interpolation="bilinear", seed=None, fill_value=0.0, data_format=None)`."""

    _USE_BASE_FACTOR = False

    def __init__(self, height_factor: Any, width_factor: Any = None, fill_mode: str = "reflect",
                 interpolation: str = "bilinear", seed: int | None = None, fill_value: float = 0.0,
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)

        def in_range(x: float) -> bool:
            return -1.0 < x <= 1.0

        self.height_factor = height_factor
        self.height_lower, self.height_upper = lower_upper(height_factor, "height_factor", _ERROR, in_range)
        self.width_factor = width_factor
        if width_factor is not None:
            self.width_lower, self.width_upper = lower_upper(width_factor, "width_factor", _ERROR, in_range)
        check_choice(fill_mode, FILL_MODES, "fill_mode")
        check_choice(interpolation, INTERPOLATIONS, "interpolation")
        self.fill_mode = fill_mode
        self.fill_value = fill_value
        self.interpolation = interpolation
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        self.data_format = argument_validation.standardize_data_format(data_format)

    def _transform_images(self, images: Any, transformation: Any, interpolation: str) -> Any:
        return self._zoom_inputs(images, transformation, interpolation)

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if not training:
            return None
        shape = self.backend.shape(data["images"] if isinstance(data, dict) else data)
        zoom_factor_shape = (shape[0], 1) if len(shape) == 4 else (1, 1)
        if seed is None:
            seed = self._get_seed_generator()
        uniform = self.backend.random.uniform
        height_zoom = uniform(minval=1.0 + self.height_lower, maxval=1.0 + self.height_upper,
                              shape=zoom_factor_shape, seed=seed)
        width_zoom = height_zoom
        if self.width_factor is not None:
            width_zoom = uniform(minval=1.0 + self.width_lower, maxval=1.0 + self.width_upper,
                                 shape=zoom_factor_shape, seed=seed)
        return {"height_zoom": height_zoom, "width_zoom": width_zoom, "input_shape": shape}

    def _zoom_inputs(self, inputs: Any, transformation: Any, interpolation: str) -> Any:
        if transformation is None:
            return inputs
        ops = self.backend
        zooms = ops.cast(ops.numpy.concatenate([transformation["width_zoom"], transformation["height_zoom"]], axis=1),
                         dtype="float32")
        unbatched = len(ops.shape(inputs)) == 3
        if unbatched:
            inputs = ops.numpy.expand_dims(inputs, axis=0)
        shape = ops.shape(inputs)
        height, width = (shape[-2], shape[-1]) if self.data_format == "channels_first" else (shape[-3], shape[-2])
        outputs = ops.image.affine_transform(inputs, transform=self._get_zoom_matrix(zooms, height, width),
                                             interpolation=interpolation, fill_mode=self.fill_mode,
                                             fill_value=self.fill_value, data_format=self.data_format)
        return ops.numpy.squeeze(outputs, axis=0) if unbatched else outputs

    def _get_zoom_matrix(self, zooms: Any, image_height: Any, image_width: Any) -> Any:
        ops = self.backend
        n = ops.shape(zooms)[0]
        x_offset = ((ops.cast(image_width, "float32") - 1.0) / 2.0) * (1.0 - zooms[:, 0:1])
        y_offset = ((ops.cast(image_height, "float32") - 1.0) / 2.0) * (1.0 - zooms[:, 1:])
        zeros = ops.numpy.zeros
        return ops.numpy.concatenate([zooms[:, 0:1], zeros((n, 1)), x_offset, zeros((n, 1)), zooms[:, 1:], y_offset,
                                      zeros((n, 2))], axis=1)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "height_factor": self.height_factor, "width_factor": self.width_factor,
                "fill_mode": self.fill_mode, "interpolation": self.interpolation, "seed": self.seed,
                "fill_value": self.fill_value, "data_format": self.data_format}
