"""`keras.layers.UnitNormalization` (keras/src/layers/normalization/unit_normalization.py): each
input scaled to unit L2 norm along `axis`, by Keras's `ops.normalize(order=2, epsilon=1e-12)`:
`x * min(rsqrt(sum(x**2)), 1e12)`."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.dot import l2_normalize
from simdist.keras.layers.layer import Layer

__all__ = ["UnitNormalization", "check_axes"]


def check_axes(axis: Any, input_shape: Any, shown: Any) -> None:
    """Keras's compute_output_shape check of the normalization layers: every axis in range."""
    for a in ([axis] if isinstance(axis, int) else axis):
        if a >= len(input_shape) or a < -len(input_shape):
            raise ValueError(f"Axis {a} is out of bounds for input shape {input_shape}. Received: axis={shown}")


class UnitNormalization(Layer):
    """`keras.layers.UnitNormalization(axis=-1)`: an int or a list of ints."""

    def __init__(self, axis: Any = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis: Any = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError(f"Invalid value for `axis` argument: expected an int or a list/tuple of ints. Received: "
                            f"axis={axis}")
        self.supports_masking = True
        self._build_at_init()

    def call(self, inputs: Any) -> Any:
        return l2_normalize(tf.convert_to_tensor(inputs), self.axis, epsilon=1e-12)

    def compute_output_shape(self, input_shape: Any) -> Any:
        for a in ([self.axis] if isinstance(self.axis, int) else self.axis):
            if a >= len(input_shape) or a < -len(input_shape):
                raise ValueError(f"Axis {self.axis} is out of bounds for input shape {input_shape}.")
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "axis": self.axis}
