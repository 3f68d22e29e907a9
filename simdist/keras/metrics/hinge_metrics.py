"""Keras 3.15's hinge metrics (keras/src/metrics/hinge_metrics.py): means over samples of the
hinge losses' per-sample values (simdist/keras/losses/hinge_losses.py), which `keras.metrics`
also exports as functions."""

from __future__ import annotations

from typing import Any

from simdist.keras.losses.hinge_losses import categorical_hinge, hinge, squared_hinge
from simdist.keras.metrics.reduction_metrics import MeanMetricWrapper


class Hinge(MeanMetricWrapper):
    """The mean over samples of `hinge`."""

    def __init__(self, name: str = "hinge", dtype: Any = None) -> None:
        super().__init__(fn=hinge, name=name, dtype=dtype)
        self._direction = "down"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}


class SquaredHinge(MeanMetricWrapper):
    """The mean over samples of `squared_hinge`."""

    def __init__(self, name: str = "squared_hinge", dtype: Any = None) -> None:
        super().__init__(fn=squared_hinge, name=name, dtype=dtype)
        self._direction = "down"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}


class CategoricalHinge(MeanMetricWrapper):
    """The mean over samples of `categorical_hinge`."""

    def __init__(self, name: str = "categorical_hinge", dtype: Any = None) -> None:
        super().__init__(fn=categorical_hinge, name=name, dtype=dtype)
        self._direction = "down"

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}
