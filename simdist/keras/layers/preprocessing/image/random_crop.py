"""`keras.layers.RandomCrop` (Keras 3.15's random_crop.py): in training, one (h_start, w_start)
per call (the whole batch shares it), each `int32(uniform((), 0, size - target + 1))` from the
layer's SeedGenerator (height first); when the image is not larger than the target in both
dimensions, the centred window of the target aspect ratio instead, resized (bilinear) to the
target. In inference the images pass through unchanged (Keras 3.15 does not crop them)."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers import argument_validation
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer

__all__ = ["RandomCrop"]


class RandomCrop(BaseImagePreprocessingLayer):
    """`keras.layers.RandomCrop(height, width, seed=None, data_format=None)`."""

    def __init__(self, height: int, width: int, seed: int | None = None, data_format: str | None = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        self.height = height
        self.width = width
        self.seed = seed if seed is not None else random.make_default_seed()
        self.generator = random.SeedGenerator(seed)
        self.data_format = argument_validation.standardize_data_format(data_format)
        self.height_axis, self.width_axis = (-2, -1) if self.data_format == "channels_first" else (-3, -2)
        self.supports_masking = False
        self._convert_input_args = False

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if seed is None:
            seed = self._get_seed_generator()
        shape = self.backend.shape(data["images"] if isinstance(data, dict) else data)
        input_height, input_width = shape[self.height_axis], shape[self.width_axis]
        if input_height is None or input_width is None:
            raise ValueError("RandomCrop requires the input to have a fully defined height and width. "
                             f"Received: images.shape={shape}")
        if training and input_height > self.height and input_width > self.width:
            ops = self.backend
            h_start = ops.cast(ops.random.uniform((), 0, maxval=float(input_height - self.height + 1), seed=seed),
                               "int32")
            w_start = ops.cast(ops.random.uniform((), 0, maxval=float(input_width - self.width + 1), seed=seed),
                               "int32")
            # (Keras keeps the int32 tensors: `h_start + height` is then AddV2's, a float height its
            # InvalidArgumentError; asweep65, fix65k)
            return h_start, w_start
        crop_height = max(min(input_height, int(float(input_width * self.height) / self.width)), 1)
        crop_width = max(min(input_width, int(float(input_height * self.width) / self.height)), 1)
        return int(float(input_height - crop_height) / 2), int(float(input_width - crop_width) / 2)

    def transform_images(self, images: Any, transformation: Any, training: bool = True) -> Any:
        if not training:
            return images
        images = self.backend.cast(images, self.compute_dtype)
        h0, w0 = transformation
        index = [slice(None)] * len(images.shape)
        index[self.height_axis] = slice(h0, h0 + self.height)
        index[self.width_axis] = slice(w0, w0 + self.width)
        images = images[tuple(index)]
        shape = self.backend.shape(images)
        if shape[self.height_axis] != self.height or shape[self.width_axis] != self.width:
            images = self.backend.image.resize(images, size=(self.height, self.width), data_format=self.data_format)
            images = self.backend.cast(images, self.compute_dtype)
        return images

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return self.transform_images(segmentation_masks, transformation)

    def compute_output_shape(self, input_shape: Any, *args: Any, **kwargs: Any) -> Any:
        shape = list(input_shape)
        shape[self.height_axis] = self.height
        shape[self.width_axis] = self.width
        return tuple(shape)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "height": self.height, "width": self.width, "seed": self.seed,
                "data_format": self.data_format}
