"""`keras.layers.MixUp` (Keras 3.15's mix_up.py): per call (inference too) a permutation of the
batch (`keras.random.shuffle` of arange) and per image a weight `beta(alpha, alpha)`; in training
images become `w * x + (1 - w) * x[perm]` and labels likewise. Keras's segmentation-mask path
takes the masks at the permutation without an axis (of the flattened masks): transcribed as is."""

from __future__ import annotations

from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer

__all__ = ["MixUp"]


class MixUp(BaseImagePreprocessingLayer):
    """`keras.layers.MixUp(alpha=0.2, data_format=None, seed=None)`."""

    def __init__(self, alpha: float = 0.2, data_format: str | None = None, seed: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self.alpha = alpha
        self.seed = seed
        self.generator = random.SeedGenerator(seed)

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        shape = self.backend.shape(data["images"] if isinstance(data, dict) else data)
        batch_size = 1 if len(shape) == 3 else shape[0]
        if seed is None:
            seed = self._get_seed_generator()
        permutation_order = self.backend.random.shuffle(self.backend.numpy.arange(0, batch_size, dtype="int64"),
                                                        seed=seed)
        mix_weight = self.backend.random.beta((batch_size,), self.alpha, self.alpha, seed=seed)
        return {"mix_weight": mix_weight, "permutation_order": permutation_order}

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        if not training:
            return images
        ops, np_ = self.backend, self.backend.numpy
        images = ops.cast(images, self.compute_dtype)
        weight = ops.cast(np_.reshape(transformation["mix_weight"], [-1, 1, 1, 1]), dtype=self.compute_dtype)
        mixed = ops.cast(np_.take(images, transformation["permutation_order"], axis=0), dtype=self.compute_dtype)
        return weight * images + (1.0 - weight) * mixed

    def transform_labels(self, labels: Any, transformation: Any, training: bool = True) -> Any:
        if not training:
            return labels
        np_ = self.backend.numpy
        others = np_.take(labels, transformation["permutation_order"], axis=0)
        weight = np_.reshape(transformation["mix_weight"], [-1, 1])
        return weight * labels + (1.0 - weight) * others

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        if not training:
            return segmentation_masks
        np_ = self.backend.numpy
        weight = np_.reshape(transformation["mix_weight"], [-1, 1, 1, 1])
        others = np_.take(segmentation_masks, transformation["permutation_order"])
        return weight * segmentation_masks + (1.0 - weight) * others

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "alpha": self.alpha, "seed": self.seed}
