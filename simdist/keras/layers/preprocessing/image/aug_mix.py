"""`keras.layers.AugMix` (Keras 3.15's aug_mix.py): in training, chain weights from a Dirichlet
(`gamma([num_chains], alpha)` normalised) and a mix weight `beta((), alpha, alpha)` from one seed
(the layer's SeedGenerator), then per chain `chain_depth` picks of Python's global `random.choice`
among the sub-layers (augment_ops.py; all eleven, or the seven geometric/tone ones when
`all_ops=False`) and None (a skipped step), each picked sub-layer drawing its transformation from
the layer's generator; the images are `w x + (1 - w) sum_c weight_c chain_c(x)` clipped to
`value_range`. The picks follow Python's `random` state, as in Keras (seed it with
`keras.utils.set_random_seed` or `random.seed` for repeatable picks). `factor` lies in [0, 1]."""

from __future__ import annotations

import random as py_random
from typing import Any

from simdist.keras import random
from simdist.keras.layers.preprocessing.image.augment_ops import make_augment_layer
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer

__all__ = ["AugMix"]

AUGMENT_LAYERS_ALL = ["random_shear", "random_translation", "random_rotation", "random_posterization", "solarization",
                      "auto_contrast", "equalization", "random_brightness", "random_color_degeneration",
                      "random_contrast", "random_sharpness"]
AUGMENT_LAYERS = AUGMENT_LAYERS_ALL[:7]


class AugMix(BaseImagePreprocessingLayer):
    """`keras.layers.AugMix(value_range=(0, 255), num_chains=3, chain_depth=3, factor=0.3, alpha=1.0,
    all_ops=True, interpolation="bilinear", seed=None, data_format=None)`."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, value_range: Any = (0, 255), num_chains: int = 3, chain_depth: int = 3, factor: Any = 0.3,
                 alpha: float = 1.0, all_ops: bool = True, interpolation: str = "bilinear", seed: int | None = None,
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(data_format=data_format, **kwargs)
        self.value_range = value_range
        self.num_chains = num_chains
        self.chain_depth = chain_depth
        self._set_factor(factor)
        self.alpha = alpha
        self.all_ops = all_ops
        self.interpolation = interpolation
        self.seed = seed
        self.generator = random.SeedGenerator(seed)
        self._augment_layers = AUGMENT_LAYERS_ALL if all_ops else AUGMENT_LAYERS
        for name in self._augment_layers:
            setattr(self, name, make_augment_layer(name, self.factor, value_range, interpolation, seed, data_format,
                                                   kwargs))

    def build(self, input_shape: Any) -> None:
        for name in self._augment_layers:
            getattr(self, name).build(input_shape)
        super().build(input_shape)

    def get_random_transformation(self, data: Any, training: bool = True, seed: Any = None) -> Any:
        if not training:
            return None
        seed = seed or self._get_seed_generator()
        gamma_sample = self.backend.random.gamma(shape=[self.num_chains], alpha=self.alpha, seed=seed)
        chain_mixing_weights = gamma_sample / self.backend.numpy.sum(gamma_sample, axis=-1, keepdims=True)
        weight_sample = self.backend.random.beta(shape=(), alpha=self.alpha, beta=self.alpha, seed=seed)
        chain_transforms = []
        for _ in range(self.num_chains):
            depth_transforms = []
            for _ in range(self.chain_depth):
                name = py_random.choice(self._augment_layers + [None])
                if name is None:
                    continue
                depth_transforms.append({"layer_name": name, "transformation": getattr(self, name)
                                         .get_random_transformation(data, seed=self._get_seed_generator())})
            chain_transforms.append(depth_transforms)
        return {"chain_mixing_weights": chain_mixing_weights, "weight_sample": weight_sample,
                "chain_transforms": chain_transforms}

    def _mix(self, values: Any, transformation: Any, method: str) -> Any:
        ops, np_ = self.backend, self.backend.numpy
        chain_mixing_weights = ops.cast(transformation["chain_mixing_weights"], dtype=self.compute_dtype)
        weight_sample = ops.cast(transformation["weight_sample"], dtype=self.compute_dtype)
        mixed = np_.zeros_like(values)
        for idx, chain in enumerate(transformation["chain_transforms"]):
            copied = np_.copy(values)
            for step in chain:
                copied = getattr(getattr(self, step["layer_name"]), method)(copied, step["transformation"])
            mixed += copied * chain_mixing_weights[idx]
        return weight_sample * values + (1 - weight_sample) * mixed

    def transform_images(self, images: Any, transformation: Any, training: bool = True) -> Any:
        if training:
            images = self.backend.cast(images, self.compute_dtype)
            images = self._mix(images, transformation, "transform_images")
            images = self.backend.numpy.clip(images, self.value_range[0], self.value_range[1])
        return self.backend.cast(images, self.compute_dtype)

    def transform_segmentation_masks(self, segmentation_masks: Any, transformation: Any, training: bool = True) -> Any:
        if training:
            segmentation_masks = self._mix(segmentation_masks, transformation, "transform_segmentation_masks")
        return segmentation_masks

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "value_range": self.value_range, "num_chains": self.num_chains,
                "chain_depth": self.chain_depth, "factor": self.factor, "alpha": self.alpha, "all_ops": self.all_ops,
                "interpolation": self.interpolation, "seed": self.seed}
