"""`BaseImagePreprocessingLayer` (Keras 3.15's base_image_preprocessing_layer.py): `call(data,
training=True)` draws one transformation (`get_random_transformation`) and applies it to the
images (`transform_images`; a rank-3 image goes through `transform_single_image` as a batch of
one) and, for a dict input, to its "labels" and "segmentation_masks" (masks with nearest
interpolation). Augmenting layers augment only in training; `training` defaults to True in a
direct call, and a model's predict/evaluate passes False. Bounding boxes are not modelled: a
"bounding_boxes" key raises NotImplementedError."""

from __future__ import annotations

import math
from typing import Any

from simdist.keras.layers import argument_validation
from simdist.keras.layers.preprocessing.data_layer import DataLayer

__all__ = ["BaseImagePreprocessingLayer", "check_choice"]


def check_choice(value: str, supported: tuple[str, ...], what: str) -> None:
    """Keras's check of `fill_mode` / `interpolation` arguments (NotImplementedError)."""
    if value not in supported:
        raise NotImplementedError(f"Unknown `{what}` {value}. Expected of one {supported}.")


class BaseImagePreprocessingLayer(DataLayer):
    """The base of the image layers: factor validation, the call protocol, the affine matrix."""

    _USE_BASE_FACTOR = True
    _FACTOR_BOUNDS: tuple[float, float] = (-1, 1)

    def __init__(self, factor: Any = None, bounding_box_format: str | None = None, data_format: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bounding_box_format = bounding_box_format
        self.data_format = argument_validation.standardize_data_format(data_format)
        if self._USE_BASE_FACTOR:
            self._set_factor(factor or 0.0)
        elif factor is not None:
            raise ValueError(f"Layer {self.__class__.__name__} does not take a `factor` argument. "
                             f"Received: factor={factor}")

    def _set_factor(self, factor: Any) -> None:
        lo, hi = self._FACTOR_BOUNDS
        error_msg = ("The `factor` argument should be a number (or a list of two numbers) in the range "
                     f"[{lo}, {hi}]. Received: factor={factor}")
        if isinstance(factor, (tuple, list)):
            if len(factor) != 2 or factor[0] > hi or factor[1] < lo:
                raise ValueError(error_msg)
            lower, upper = sorted(factor)
        elif isinstance(factor, (int, float)):
            if factor < lo or factor > hi:
                raise ValueError(error_msg)
            factor = abs(factor)
            lower, upper = max(-factor, lo), factor
        else:
            raise ValueError(error_msg)
        self.factor = lower, upper

    # -- the protocol subclasses fill in
    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        return None

    def _transform_images(self, images: Any, transformation: Any, interpolation: str) -> Any:
        raise NotImplementedError()

    def transform_images(self, images: Any, transformation: Any, training: bool = True) -> Any:
        images = self.backend.cast(images, self.compute_dtype)
        if training:
            images = self._transform_images(images, transformation, self.interpolation)
        return images

    def transform_labels(self, labels: Any, transformation: Any, training: bool = True) -> Any:
        return labels

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        if training:
            segmentation_masks = self._transform_images(segmentation_masks, transformation, "nearest")
        return segmentation_masks

    def _single(self, fn: Any, value: Any, transformation: Any, training: bool) -> Any:
        """`transform_single_*`: a batch of one through `fn`, then squeezed."""
        out = fn(self.backend.numpy.expand_dims(value, axis=0), transformation=transformation, training=training)
        return self.backend.numpy.squeeze(out, axis=0)

    def transform_single_image(self, image: Any, transformation: Any, training: bool = True) -> Any:
        return self._single(self.transform_images, image, transformation, training)

    def _is_batched(self, maybe_image_batch: Any) -> bool:
        shape = self.backend.core.shape(maybe_image_batch)
        if len(shape) == 3:
            return False
        if len(shape) == 4:
            return True
        raise ValueError("Expected image tensor to have rank 3 (single image) or 4 (batch of images). "
                         f"Received: data.shape={shape}")

    def call(self, data: Any, training: bool = True) -> Any:
        transformation = self.get_random_transformation(data, training=training)
        to_tensor = self.backend.convert_to_tensor
        if isinstance(data, dict):
            if "bounding_boxes" in data:
                raise NotImplementedError(f"{type(self).__name__}: simdist does not model bounding boxes "
                                          "(the 'bounding_boxes' key of the input dict)")
            batched = self._is_batched(data["images"])
            if batched:
                data["images"] = self.transform_images(to_tensor(data["images"]), transformation=transformation,
                                                       training=training)
            else:
                data["images"] = self.transform_single_image(to_tensor(data["images"]), transformation=transformation,
                                                             training=training)
            if "labels" in data:
                labels = to_tensor(data["labels"])
                data["labels"] = (self.transform_labels(labels, transformation=transformation, training=training)
                                  if batched else self._single(self.transform_labels, labels, transformation, training))
            if "segmentation_masks" in data:
                masks = data["segmentation_masks"]
                data["segmentation_masks"] = (
                    self.transform_segmentation_masks(masks, transformation=transformation, training=training)
                    if batched else self._single(self.transform_segmentation_masks, masks, transformation, training))
            return data
        if self._is_batched(data):
            return self.transform_images(to_tensor(data), transformation=transformation, training=training)
        return self.transform_single_image(to_tensor(data), transformation=transformation, training=training)

    def get_config(self) -> dict[str, Any]:
        config = {**super().get_config(), "data_format": self.data_format}
        if self.bounding_box_format is not None:
            config["bounding_box_format"] = self.bounding_box_format
        return config

    def _transform_value_range(self, images: Any, original_range: Any, target_range: Any,
                               dtype: str = "float32") -> Any:
        """Keras's linear map of `original_range` onto `target_range` (in `dtype`; the same range:
        the images unchanged)."""
        if original_range[0] == target_range[0] and original_range[1] == target_range[1]:
            return images
        images = self.backend.cast(images, dtype=dtype)
        original_min, original_max = (self.backend.cast(v, dtype=dtype) for v in original_range)
        target_min, target_max = (self.backend.cast(v, dtype=dtype) for v in target_range)
        images = (images - original_min) / (original_max - original_min)
        return images * (target_max - target_min) + target_min

    def _compute_affine_matrix(self, center_x: float, center_y: float, angle: Any, translate_x: Any,
                               translate_y: Any, scale: Any, shear_x: Any, shear_y: Any, height: Any,
                               width: Any) -> Any:
        """Keras's (batch, 8) projective rows of scale * shear * rotation about the centre
        (angles in degrees): a0 = s(cos + shx sin), a1 = s(-sin + shx cos), a2 = tx + cx - cx a0 - cy a1,
        b0 = s(shy cos + sin), b1 = s(-shy sin + cos), b2 = ty + cy - cx b0 - cy b1."""
        ops = self.backend
        degree_to_radian_factor = ops.convert_to_tensor(math.pi / 180.0)
        angle = angle * degree_to_radian_factor
        shear_x = shear_x * degree_to_radian_factor
        shear_y = shear_y * degree_to_radian_factor
        batch_size = ops.shape(angle)[0]
        dtype = angle.dtype
        width = ops.cast(width, dtype)
        height = ops.cast(height, dtype)
        cx = center_x * (width - 1)
        cy = center_y * (height - 1)
        cos_theta = ops.numpy.cos(angle)
        sin_theta = ops.numpy.sin(angle)
        shear_x = ops.numpy.tan(shear_x)
        shear_y = ops.numpy.tan(shear_y)
        a0 = scale * (cos_theta + shear_x * sin_theta)
        a1 = scale * (-sin_theta + shear_x * cos_theta)
        a2 = translate_x + cx - cx * a0 - cy * a1
        b0 = scale * (shear_y * cos_theta + sin_theta)
        b1 = scale * (shear_y * -sin_theta + cos_theta)
        b2 = translate_y + cy - cx * b0 - cy * b1
        return ops.numpy.concatenate([a0[:, None], a1[:, None], a2[:, None], b0[:, None], b1[:, None], b2[:, None],
                                      ops.numpy.zeros((batch_size, 2))], axis=1)
