"""`keras.layers.Permute` (keras/src/layers/reshaping/permute.py): a transpose of the axes after
the batch axis, `dims` numbered from 1."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["Permute"]


class Permute(Layer):
    """`keras.layers.Permute(dims)`: output axis i + 1 is input axis dims[i]; the batch axis stays first."""

    def __init__(self, dims: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(dims) != list(range(1, len(dims) + 1)):
            raise ValueError("Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` must "
                             f"be consecutive and start from 1. Received dims={dims}")
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        return (input_shape[0],) + tuple(input_shape[dim] for dim in self.dims)

    def call(self, inputs: Any) -> Any:
        from simdist.keras import ops   # (Keras's ops.transpose: float dims are its canonicalize_axis's TypeError;
        return ops.transpose(inputs, (0,) + self.dims)   # keras.layer.arguments, asweep65)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "dims": self.dims}
