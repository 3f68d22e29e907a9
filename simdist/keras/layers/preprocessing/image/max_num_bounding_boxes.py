"""`keras.layers.MaxNumBoundingBoxes` (Keras 3.15's max_num_bounding_box.py): images, labels and segmentation
masks pass through unchanged; a dict's "bounding_boxes" ({"boxes": [batch, n, 4], "labels": [batch, n]}) are
cut to `max_number` boxes per image or padded to it with `fill_value`. The one image layer of simdist that
takes bounding boxes (the base refuses them: base.py)."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer

__all__ = ["MaxNumBoundingBoxes"]


class MaxNumBoundingBoxes(BaseImagePreprocessingLayer):
    """`keras.layers.MaxNumBoundingBoxes(max_number, fill_value=-1)`."""

    _USE_BASE_FACTOR = False

    def __init__(self, max_number: Any, fill_value: Any = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_number = int(max_number)
        self.fill_value = int(fill_value)

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        return images

    def transform_labels(self, labels: Any, transformation: Any = None, training: bool = True) -> Any:
        return labels

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any = None,
                                     training: bool = True) -> Any:
        return self.transform_images(segmentation_masks)

    def transform_bounding_boxes(self, bounding_boxes: dict, transformation: Any = None, training: bool = True) -> dict:
        """Each image's boxes and labels cut to, or padded with fill_value to, max_number."""
        ops = self.backend
        boxes, labels = bounding_boxes["boxes"], bounding_boxes["labels"]
        shape = ops.shape(boxes)
        batch_size, num_boxes = shape[0], shape[1]
        pad_size = ops.numpy.maximum(ops.numpy.subtract(self.max_number, num_boxes), 0)
        boxes = ops.numpy.pad(boxes[:, : self.max_number, ...], [[0, 0], [0, pad_size], [0, 0]],
                              constant_values=self.fill_value)
        labels = ops.numpy.pad(labels[:, : self.max_number], [[0, 0], [0, pad_size]], constant_values=self.fill_value)
        out = bounding_boxes.copy()
        out["boxes"] = ops.numpy.reshape(boxes, [batch_size, self.max_number, 4])
        out["labels"] = ops.numpy.reshape(labels, [batch_size, self.max_number])
        return out

    def call(self, data: Any, training: bool = True) -> Any:
        if isinstance(data, dict) and "bounding_boxes" in data:
            if not self.bounding_box_format:
                raise ValueError("You passed an input with a 'bounding_boxes' key, but you didn't specify a bounding "
                                 "box format. Pass a `bounding_box_format` argument to your "
                                 f"{self.__class__.__name__} layer, e.g. `bounding_box_format='xyxy'`.")
            rest = {k: v for k, v in data.items() if k != "bounding_boxes"}
            batched = self._is_batched(data["images"])
            out = super().call(rest, training=training)
            convert = self.backend.convert_to_tensor
            boxes = {k: convert(v) for k, v in data["bounding_boxes"].items()}
            if batched:
                out["bounding_boxes"] = self.transform_bounding_boxes(boxes, training=training)
            else:   # (transform_single_bounding_box: a batch of one)
                ops = self.backend
                one = self.transform_bounding_boxes({k: ops.numpy.expand_dims(v, 0) for k, v in boxes.items()},
                                                    training=training)
                out["bounding_boxes"] = {k: ops.numpy.squeeze(v, 0) for k, v in one.items()}
            return out
        return super().call(data, training=training)

    def compute_output_shape(self, input_shape: Any) -> Any:
        if isinstance(input_shape, dict) and "bounding_boxes" in input_shape:
            extra = set(input_shape["bounding_boxes"].keys()) - {"boxes", "labels"}
            if extra:
                raise KeyError(f"There are unsupported keys in `bounding_boxes`: {list(extra)}. "
                               "Only `boxes` and `labels` are supported.")
            boxes = list(input_shape["bounding_boxes"]["boxes"])
            boxes[1] = self.max_number
            labels = list(input_shape["bounding_boxes"]["labels"])
            labels[1] = self.max_number
            input_shape["bounding_boxes"]["boxes"] = boxes
            input_shape["bounding_boxes"]["labels"] = labels
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "max_number": self.max_number}
