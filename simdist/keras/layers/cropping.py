"""`keras.layers.Cropping2D` and `Cropping3D` (keras/src/layers/reshaping/cropping2d.py,
cropping3d.py): each spatial axis loses `cropping[i][0]` elements at its start and
`cropping[i][1]` at its end (a strided slice); channels_last or channels_first."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.argument_validation import standardize_data_format, standardize_tuple
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["Cropping2D", "Cropping3D", "standardize_pairs"]

_ORDINALS = ("1st", "2nd", "3rd")


def standardize_pairs(value: Any, rank: int, name: str, help_text: str) -> tuple:
    """Keras's spatial cropping/padding argument: an int (every side), or `rank` entries each an
    int (both sides) or a pair (start, end); ints >= 0."""
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"`{name}` cannot be negative. Received: {name}={value}.")
        return ((value, value),) * rank
    if hasattr(value, "__len__"):
        if len(value) != rank:   # (Keras's two messages: Cropping2D's names the argument, the 3-D ones do not)
            shown = f"{name}={value}" if rank == 2 else f"{value}"
            raise ValueError(f"`{name}` should have {'two' if rank == 2 else rank} elements. Received: {shown}.")
        return tuple(standardize_tuple(v, 2, f"{_ORDINALS[i]} entry of {name}", allow_zero=True)
                     for i, v in enumerate(value))
    raise ValueError(help_text + f" Received: {name}={value}.")


class _Cropping(Layer):
    """N-D cropping of the spatial axes (rank 2 or 3)."""

    rank = 0

    def __init__(self, cropping: Any, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        help_text = (f"`cropping` should be either an int, a tuple of {self.rank} ints, or a tuple of {self.rank} "
                     "tuples of 2 ints ((start_crop, end_crop) per spatial dimension).")
        self.cropping = standardize_pairs(cropping, self.rank, "cropping", help_text)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def _spatial_axes(self) -> range:
        start = 2 if self.data_format == "channels_first" else 1
        return range(start, start + self.rank)

    def _check(self, shape: Any, what: str) -> None:
        for crop, axis in zip(self.cropping, self._spatial_axes()):
            if shape[axis] is not None and sum(crop) >= shape[axis]:
                raise ValueError("Values in `cropping` argument should be smaller than the corresponding spatial "
                                 f"dimension of the input. Received: {what}={shape}, cropping={self.cropping}")

    def compute_output_shape(self, input_shape: Any) -> tuple:
        self._check(tuple(input_shape), "input_shape")
        # (Keras builds the output from positions 0 .. rank + 1 of the input shape: a longer shape loses its last
        # entries, a shorter one is an IndexError)
        out = [input_shape[i] for i in range(self.rank + 2)]
        for crop, axis in zip(self.cropping, self._spatial_axes()):
            if out[axis] is not None:
                out[axis] -= sum(crop)
        return tuple(out)

    def call(self, inputs: Any) -> Any:
        self._check(tuple(inputs.shape), "inputs.shape")
        index = [slice(None)] * (self.rank + 2)
        for (start, end), axis in zip(self.cropping, self._spatial_axes()):
            index[axis] = slice(start, -end if end else None)
        return inputs[tuple(index)]

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "cropping": self.cropping, "data_format": self.data_format}


class Cropping2D(_Cropping):
    """`keras.layers.Cropping2D(cropping=((0, 0), (0, 0)), data_format=None)`: crops height and width."""

    rank = 2

    def __init__(self, cropping: Any = ((0, 0), (0, 0)), data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(cropping, data_format=data_format, **kwargs)


class Cropping3D(_Cropping):
    """`keras.layers.Cropping3D(cropping=((1, 1), (1, 1), (1, 1)), data_format=None)`: crops three
    spatial axes."""

    rank = 3

    def __init__(self, cropping: Any = ((1, 1), (1, 1), (1, 1)), data_format: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(cropping, data_format=data_format, **kwargs)
