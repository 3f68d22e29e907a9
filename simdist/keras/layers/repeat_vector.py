"""`keras.layers.RepeatVector` (keras/src/layers/reshaping/repeat_vector.py): (batch, features)
-> (batch, n, features), via a reshape to (batch, 1, features) and `ops.repeat` along axis 1."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["RepeatVector"]


class RepeatVector(Layer):
    """`keras.layers.RepeatVector(n)`: the input repeated `n` times along a new axis 1."""

    def __init__(self, n: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"Expected an integer value for `n`, got {type(n)}.")
        if n <= 0:
            raise ValueError(f"Argument `n` should be a positive integer. Received: n={n}")
        self.n = n
        self.input_spec = InputSpec(ndim=2)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        return (input_shape[0], self.n, input_shape[1])

    def call(self, inputs: Any) -> Any:
        shape = tf.shape(inputs)
        reshaped = tf.reshape(inputs, tf.stack([shape[0], 1, shape[1]]))
        return tf.repeat(reshaped, self.n, axis=1)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "n": self.n}
