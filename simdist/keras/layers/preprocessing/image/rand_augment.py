"""`keras.layers.RandAugment` (Keras 3.15's rand_augment.py): in training, `num_ops` indices
`randint(0, 11)` from the layer's SeedGenerator, then every one of the eleven sub-layers
(augment_ops.py, in _AUGMENT_LAYERS' order) draws its transformation from that same generator;
for each op i, each sub-layer in order transforms the images so far and keeps the result where
index i is its own. `factor` lies in [0, 1] (a number f: (0, f)). Inference passes through."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.augment_ops import make_augment_layer
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer

__all__ = ["RandAugment"]


class RandAugment(BaseImagePreprocessingLayer):
    """`keras.layers.RandAugment(value_range=(0, 255), num_ops=2, factor=0.5,
    interpolation="bilinear", seed=None, data_format=None)`."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)
    _AUGMENT_LAYERS = ("random_shear", "random_translation", "random_rotation", "random_brightness",
                       "random_color_degeneration", "random_contrast", "random_sharpness", "random_posterization",
                       "solarization", "auto_contrast", "equalization")

    def __init__(self, value_range: Any = (0, 255), num_ops: int = 2, factor: Any = 0.5,
                 interpolation: str = "bilinear", seed: int | None = None, data_format: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self.value_range = value_range
        self.num_ops = num_ops
        self._set_factor(factor)
        self.interpolation = interpolation
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        for name in self._AUGMENT_LAYERS:
            setattr(self, name, make_augment_layer(name, self.factor, value_range, interpolation, seed, data_format,
                                                   kwargs))

    def build(self, input_shape: Any) -> None:
        for name in self._AUGMENT_LAYERS:
            getattr(self, name).build(input_shape)
        super().build(input_shape)

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if not training:
            return None
        layer_idxes = self.backend.random.randint((self.num_ops,), 0, len(self._AUGMENT_LAYERS),
                                                  seed=self._get_seed_generator())
        transforms = {name: getattr(self, name).get_random_transformation(data, training=training,
                                                                         seed=self._get_seed_generator())
                      for name in self._AUGMENT_LAYERS}
        return {"transforms": transforms, "layer_idxes": layer_idxes}

    def transform_images(self, images: Any, transformation: Any, training: bool = True) -> Any:
        np_ = self.backend.numpy
        if training:
            images = self.backend.cast(images, self.compute_dtype)
            layer_idxes = transformation["layer_idxes"]
            for i in range(self.num_ops):
                for idx, (name, value) in enumerate(transformation["transforms"].items()):
                    images = np_.where(layer_idxes[i] == idx, getattr(self, name).transform_images(images, value),
                                       images)
        return self.backend.cast(images, self.compute_dtype)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        np_ = self.backend.numpy
        if training:
            layer_idxes = transformation["layer_idxes"]
            for i in range(self.num_ops):
                for idx, (name, value) in enumerate(transformation["transforms"].items()):
                    segmentation_masks = np_.where(
                        layer_idxes[i] == idx,
                        getattr(self, name).transform_segmentation_masks(segmentation_masks, value),
                        segmentation_masks)
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "value_range": self.value_range, "num_ops": self.num_ops,
                "factor": self.factor, "interpolation": self.interpolation, "seed": self.seed}
