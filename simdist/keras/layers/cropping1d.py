"""`keras.layers.Cropping1D` (keras/src/layers/reshaping/cropping1d.py): drop `cropping[0]` steps
at the start and `cropping[1]` at the end of axis 1 of a (batch, steps, features) input."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.argument_validation import standardize_tuple
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["Cropping1D"]


class Cropping1D(Layer):
    """`keras.layers.Cropping1D(cropping=(1, 1))`: an int crops both ends by that many steps."""

    def __init__(self, cropping: Any = (1, 1), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cropping = standardize_tuple(cropping, 2, "cropping", allow_zero=True)
        self.input_spec = InputSpec(ndim=3)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        if input_shape[1] is not None:
            length = input_shape[1] - self.cropping[0] - self.cropping[1]
            if length <= 0:
                raise ValueError("`cropping` parameter of `Cropping1D` layer must be smaller than the input length. "
                                 f"Received: input_shape={input_shape}, cropping={self.cropping}")
        else:
            length = None
        return (input_shape[0], length, input_shape[2])

    def call(self, inputs: Any) -> Any:
        if inputs.shape[1] is not None and sum(self.cropping) >= inputs.shape[1]:
            raise ValueError("`cropping` parameter of `Cropping1D` layer must be smaller than the input length. "
                             f"Received: inputs.shape={inputs.shape}, cropping={self.cropping}")
        if self.cropping[1] == 0:
            return inputs[:, self.cropping[0]:, :]
        return inputs[:, self.cropping[0]:-self.cropping[1], :]

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "cropping": self.cropping}
