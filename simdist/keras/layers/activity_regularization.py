"""`keras.layers.ActivityRegularization` (keras/src/layers/regularization/activity_regularization.py):
the identity, with an `L1L2(l1, l2)` activity regularizer (its penalty on the outputs lands in
`layer.losses` at each call, as for any layer's `activity_regularizer`)."""

from __future__ import annotations

from typing import Any

from simdist.keras import regularizers
from simdist.keras.layers.layer import Layer

__all__ = ["ActivityRegularization"]


class ActivityRegularization(Layer):
    """`keras.layers.ActivityRegularization(l1=0.0, l2=0.0)`."""

    def __init__(self, l1: float = 0.0, l2: float = 0.0, **kwargs: Any) -> None:
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.supports_masking = True
        self.l1 = l1
        self.l2 = l2
        self._build_at_init()

    def call(self, inputs: Any) -> Any:
        return inputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        config.pop("activity_regularizer", None)
        return {**config, "l1": self.l1, "l2": self.l2}
