"""`keras.layers.UpSampling3D` (keras/src/layers/reshaping/up_sampling3d.py): each of the three
spatial axes repeated size[i] times (`ops.repeat`, i.e. tf.repeat, axis by axis)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.argument_validation import standardize_data_format, standardize_tuple
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["UpSampling3D"]


class UpSampling3D(Layer):
    """`keras.layers.UpSampling3D(size=(2, 2, 2), data_format=None)`."""

    def __init__(self, size: Any = (2, 2, 2), data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        self.size = standardize_tuple(size, 3, "size")
        self.input_spec = InputSpec(ndim=5)

    def _first_axis(self) -> int:
        return 2 if self.data_format == "channels_first" else 1

    def compute_output_shape(self, input_shape: Any) -> tuple:
        # (Keras builds the output from positions 0 .. 4 of the input shape: a longer shape loses its last entries,
        # a shorter one is an IndexError)
        out = [input_shape[i] for i in range(5)]
        for i in range(3):
            axis = self._first_axis() + i
            out[axis] = None if out[axis] is None else self.size[i] * out[axis]
        return tuple(out)

    def call(self, inputs: Any) -> Any:
        x = inputs
        for i in range(3):
            x = tf.repeat(x, self.size[i], axis=self._first_axis() + i)
        return x

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "size": self.size, "data_format": self.data_format}
