"""Noise layers (keras/src/layers/regularization/gaussian_noise.py, gaussian_dropout.py,
alpha_dropout.py): in training only, GaussianNoise adds N(0, stddev) noise, GaussianDropout
multiplies by N(1, sqrt(rate / (1 - rate))) noise, AlphaDropout sets dropped inputs to SELU's
negative saturation and rescales affinely (mean and variance kept). Each draws from its own
SeedGenerator (state [seed, n], advanced per call) with TF's stateless Philox ops, so seeded
layers give TF's values bit for bit (clause keras.layer.noise)."""

from __future__ import annotations

import math
from typing import Any

from simdist import tf
from simdist.keras import random
from simdist.keras.layers.layer import Layer

__all__ = ["GaussianNoise", "GaussianDropout", "AlphaDropout"]


def _check_unit(name: str, value: float) -> None:
    if not 0 <= value <= 1:
        raise ValueError(f"Invalid value received for argument `{name}`. Expected a float value between 0 and 1. "
                         f"Received: {name}={value}")


class _Noise(Layer):
    """A layer that is the identity at inference and adds seeded noise in training."""

    def __init__(self, amount: float, amount_name: str, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _check_unit(amount_name, amount)
        self.seed = seed
        if amount > 0:
            self.seed_generator = random.SeedGenerator(seed)
        self.supports_masking = True

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape


class GaussianNoise(_Noise):
    """`keras.layers.GaussianNoise(stddev, seed=None)`: `inputs + normal(0, stddev)` in training."""

    def __init__(self, stddev: float, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(stddev, "stddev", seed=seed, **kwargs)
        self.stddev = stddev
        self._build_at_init()

    def call(self, inputs: Any, training: bool = False) -> Any:
        if training and self.stddev > 0:
            return inputs + random.normal(shape=inputs.shape, mean=0.0, stddev=self.stddev, dtype=self.compute_dtype,
                                          seed=self.seed_generator)
        return inputs

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "stddev": self.stddev, "seed": self.seed}


class GaussianDropout(_Noise):
    """`keras.layers.GaussianDropout(rate, seed=None)`: `inputs * normal(1, sqrt(rate / (1 - rate)))`
    in training."""

    def __init__(self, rate: float, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(rate, "rate", seed=seed, **kwargs)
        self.rate = rate
        self._build_at_init()

    def call(self, inputs: Any, training: bool = False) -> Any:
        if training and self.rate > 0:
            stddev = math.sqrt(self.rate / (1.0 - self.rate))
            return inputs * random.normal(shape=inputs.shape, mean=1.0, stddev=stddev, dtype=self.compute_dtype,
                                          seed=self.seed_generator)
        return inputs

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}


SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


class AlphaDropout(Layer):
    """`tf.keras.layers.AlphaDropout(rate, noise_shape=None, seed=None)`: tf.keras's is Keras's
    deprecated `keras.src.legacy.layers.AlphaDropout` (no check of `rate`, no `noise_shape` in its
    config, a concrete `noise_shape` only). In training, kept where `uniform(noise_shape) >= rate`,
    else `alpha_p = -alpha * scale` (SELU's), then `a * x + b` with
    `a = ((1 - rate) * (1 + rate * alpha_p**2)) ** -0.5`, `b = -a * alpha_p * rate`."""

    def __init__(self, rate: float, noise_shape: Any = None, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rate = rate
        self.seed = seed
        self.noise_shape = noise_shape
        self.seed_generator = random.SeedGenerator(seed)
        self.supports_masking = True
        self.built = True

    def _concrete_noise_shape(self, inputs: Any) -> list:
        if self.noise_shape is None:
            return list(inputs.shape)
        if any(not isinstance(d, int) for d in self.noise_shape):
            raise ValueError(f"AlphaDropout: every entry of `noise_shape` must be an int (tf.keras's legacy "
                             f"AlphaDropout passes it to uniform() as is). Received: noise_shape={self.noise_shape}")
        return list(self.noise_shape)

    def call(self, inputs: Any, training: bool = False) -> Any:
        if training and self.rate > 0:
            alpha_p = -SELU_ALPHA * SELU_SCALE
            draws = random.uniform(self._concrete_noise_shape(inputs), seed=self.seed_generator)
            kept_idx = tf.cast(tf.greater_equal(draws, tf.cast(self.rate, draws.dtype)), inputs.dtype)
            a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
            b = -a * alpha_p * self.rate
            x = inputs * kept_idx + alpha_p * (1 - kept_idx)
            return a * x + b
        return inputs

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape
