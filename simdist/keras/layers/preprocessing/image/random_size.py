"""tf.keras's `RandomHeight` and `RandomWidth` (Keras 3.15's legacy/layers.py, plain layers, not
image preprocessing ones): in training, one factor per call `uniform((), 1 + lower, 1 + upper)`
from the layer's SeedGenerator scales the height (width) to `int32(factor * size)` through
`tf.image.resize(method=interpolation)`; the other dimension is kept. Channels-last only. A
number f means (-f, f); the bounds must be ordered and above -1."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import random
from simdist.keras.layers.layer import Layer

__all__ = ["RandomHeight", "RandomWidth"]


class _RandomSize(Layer):
    """Resizes one spatial axis (`_AXIS`: -3 height, -2 width) by a random factor in training."""

    _AXIS = -3
    _WHAT = "lesser"

    def __init__(self, factor: Any, interpolation: str = "bilinear", seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seed_generator = random.SeedGenerator(seed)
        self.factor = factor
        lower, upper = (factor[0], factor[1]) if isinstance(factor, (tuple, list)) else (-factor, factor)
        if upper < lower:
            raise ValueError(f"`factor` argument cannot have an upper bound {self._WHAT} than the lower bound. "
                             f"Received: factor={factor}")
        if lower < -1.0 or upper < -1.0:
            raise ValueError(f"`factor` argument must have values larger than -1. Received: factor={factor}")
        self._lower, self._upper = lower, upper
        self.interpolation = interpolation
        self.seed = seed

    def call(self, inputs: Any, training: bool = True) -> Any:
        inputs = tf.convert_to_tensor(inputs, dtype=self.compute_dtype)
        if not training:
            return inputs
        shape = tf.shape(inputs)
        factor = random.uniform(shape=[], minval=1.0 + self._lower, maxval=1.0 + self._upper, seed=self.seed_generator)
        size = [shape[-3], shape[-2]]
        axis = 0 if self._AXIS == -3 else 1
        size[axis] = tf.cast(factor * tf.cast(size[axis], tf.float32), tf.int32)
        output = tf.image.resize(images=inputs, size=tf.stack(size), method=self.interpolation)
        return tf.cast(output, self.compute_dtype)

    def compute_output_shape(self, input_shape: Any) -> Any:
        shape = list(input_shape)
        shape[self._AXIS] = None
        return tuple(shape)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "factor": self.factor, "interpolation": self.interpolation, "seed": self.seed}


class RandomHeight(_RandomSize):
    """`tf.keras.layers.RandomHeight(factor, interpolation="bilinear", seed=None)`."""

    _AXIS = -3
    _WHAT = "lesser"


class RandomWidth(_RandomSize):
    """`tf.keras.layers.RandomWidth(factor, interpolation="bilinear", seed=None)`."""

    _AXIS = -2
    _WHAT = "less"
