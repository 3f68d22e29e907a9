"""Activation layers (keras/src/layers/activations/ and core/identity.py): LeakyReLU, ELU,
Identity, ThresholdedReLU. (ReLU and Softmax live in core.py.)"""

from __future__ import annotations

import warnings
from typing import Any

from simdist import tf
from simdist.keras import activations
from simdist.keras.layers.layer import Layer

__all__ = ["LeakyReLU", "ELU", "Identity", "ThresholdedReLU"]


class LeakyReLU(Layer):
    """`keras.layers.LeakyReLU(negative_slope=0.3)`: x if x >= 0 else negative_slope * x
    (`alpha=` is Keras's deprecated spelling, with a warning)."""

    def __init__(self, negative_slope: float = 0.3, **kwargs: Any) -> None:
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
            warnings.warn("Argument `alpha` is deprecated. Use `negative_slope` instead.")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError("The negative_slope value of a Leaky ReLU layer cannot be None or negative value. "
                             f"Expected a float. Received: negative_slope={negative_slope}")
        self.negative_slope = negative_slope
        self.supports_masking = True
        self._build_at_init()

    def call(self, inputs: Any) -> Any:
        return activations.leaky_relu(inputs, negative_slope=self.negative_slope)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "negative_slope": self.negative_slope}


class ELU(Layer):
    """`keras.layers.ELU(alpha=1.0)`: x if x > 0 else alpha * (exp(x) - 1). (Keras 3.15's ELU has
    no get_config: Keras's auto-config records the constructor's `alpha`, keras/auto_config.py.)"""

    def __init__(self, alpha: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alpha = alpha
        self.supports_masking = True
        self._build_at_init()

    def call(self, inputs: Any) -> Any:
        return activations.elu(inputs, alpha=self.alpha)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape


class Identity(Layer):
    """`keras.layers.Identity()`: returns its inputs unchanged (a structure of tensors too)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.supports_masking = True
        self._build_at_init()

    def call(self, inputs: Any) -> Any:
        return inputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape


class ThresholdedReLU(Layer):
    """`tf.keras.layers.ThresholdedReLU(theta=1.0)` (Keras's deprecated legacy layer, still in
    tf.keras): `inputs * cast(inputs > theta)`, theta a tensor of the compute dtype."""

    def __init__(self, theta: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if theta is None:
            raise ValueError(f"Theta of a Thresholded ReLU layer cannot be None, expecting a float. Received: {theta}")
        if theta < 0:
            raise ValueError(f"The theta value of a Thresholded ReLU layer should be >=0. Received: {theta}")
        self.supports_masking = True
        self.theta = tf.convert_to_tensor(theta, dtype=self.compute_dtype)

    def call(self, inputs: Any) -> Any:
        return inputs * tf.cast(tf.greater(inputs, self.theta), self.compute_dtype)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "theta": float(self.theta)}

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape
