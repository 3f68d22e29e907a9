"""Keras 3.15's probabilistic metrics (keras/src/metrics/probabilistic_metrics.py): means over
samples of the crossentropy, KL-divergence and Poisson losses' per-sample values."""

from __future__ import annotations

from typing import Any

from simdist.keras.losses.losses import binary_crossentropy, categorical_crossentropy, sparse_categorical_crossentropy
from simdist.keras.losses.probabilistic_losses import kl_divergence, poisson
from simdist.keras.metrics.reduction_metrics import MeanMetricWrapper


class KLDivergence(MeanMetricWrapper):
    """The mean over samples of `kl_divergence`."""

    def __init__(self, name: str = "kl_divergence", dtype: Any = None) -> None:
        super().__init__(fn=kl_divergence, name=name, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}


class Poisson(MeanMetricWrapper):
    """The mean over samples of `poisson`."""

    def __init__(self, name: str = "poisson", dtype: Any = None) -> None:
        super().__init__(fn=poisson, name=name, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}


class BinaryCrossentropy(MeanMetricWrapper):
    """The mean binary crossentropy of the samples seen."""

    def __init__(self, name: str = "binary_crossentropy", dtype: Any = None, from_logits: bool = False,
                 label_smoothing: float = 0) -> None:
        super().__init__(binary_crossentropy, name, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self._direction = "down"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype, "from_logits": self.from_logits,
                "label_smoothing": self.label_smoothing}


class CategoricalCrossentropy(MeanMetricWrapper):
    """The mean categorical crossentropy of the samples seen."""

    def __init__(self, name: str = "categorical_crossentropy", dtype: Any = None, from_logits: bool = False,
                 label_smoothing: float = 0, axis: int = -1) -> None:
        super().__init__(categorical_crossentropy, name, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis
        self._direction = "down"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype, "from_logits": self.from_logits,
                "label_smoothing": self.label_smoothing, "axis": self.axis}


class SparseCategoricalCrossentropy(MeanMetricWrapper):
    """The mean sparse categorical crossentropy of the samples seen."""

    def __init__(self, name: str = "sparse_categorical_crossentropy", dtype: Any = None, from_logits: bool = False,
                 ignore_class: Any = None, axis: int = -1) -> None:
        super().__init__(sparse_categorical_crossentropy, name=name, dtype=dtype, from_logits=from_logits,
                         ignore_class=ignore_class, axis=axis)
        self.from_logits = from_logits
        self.ignore_class = ignore_class
        self.axis = axis
        self._direction = "down"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype, "from_logits": self.from_logits,
                "ignore_class": self.ignore_class, "axis": self.axis}
