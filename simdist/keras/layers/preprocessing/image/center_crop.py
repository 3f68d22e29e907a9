"""`keras.layers.CenterCrop` (Keras 3.15's center_crop.py): the centred (height, width) window
(start = (size - target) // 2) in training and inference; an image smaller than the target in
either dimension is `smart_resize`d instead (largest centred window of the target aspect ratio,
bilinear resize)."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer
from simdist.keras.layers.preprocessing.image.resizing import resized_shape
from simdist.keras.utils.image_utils import smart_resize

__all__ = ["CenterCrop"]


class CenterCrop(BaseImagePreprocessingLayer):
    """`keras.layers.CenterCrop(height, width, data_format=None)`."""

    _USE_BASE_FACTOR = False

    def __init__(self, height: int, width: int, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self.height = height
        self.width = width

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        return {"input_shape": self.backend.core.shape(data["images"] if isinstance(data, dict) else data)}

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        return self.transform_images(segmentation_masks, transformation, training=training)

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        inputs = self.backend.cast(images, self.compute_dtype)
        shape = self.backend.shape(inputs)
        first = len(shape) - 3 + (1 if self.data_format == "channels_first" else 0)
        h_diff, w_diff = shape[first] - self.height, shape[first + 1] - self.width
        if h_diff >= 0 and w_diff >= 0:
            rows = slice(h_diff // 2, h_diff // 2 + self.height)
            cols = slice(w_diff // 2, w_diff // 2 + self.width)
            index = [slice(None)] * len(shape)
            index[first], index[first + 1] = rows, cols
            return inputs[tuple(index)]
        return smart_resize(inputs, [self.height, self.width], data_format=self.data_format,
                            backend_module=self.backend)

    def compute_output_shape(self, input_shape: Any) -> Any:
        input_shape = list(input_shape)
        if isinstance(input_shape[0], (list, tuple)) or len(input_shape) not in (3, 4):
            raise ValueError("`input_shape` must be a non-nested tuple or list of rank-1 with size 3 (unbatched) "
                             "or 4 (batched). ")
        return resized_shape(input_shape, self.height, self.width, self.data_format)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "height": self.height, "width": self.width, "data_format": self.data_format}
