"""Reshaping layers (keras/src/layers/reshaping/): Flatten and Reshape, with Keras's shape rules."""

from __future__ import annotations

import math
from typing import Any

from simdist import tf
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["Flatten", "Reshape", "compute_reshape_output_shape"]


class Flatten(Layer):
    """`keras.layers.Flatten(data_format=None)`: (batch, ...) -> (batch, product of the rest);
    "channels_first" moves the channel axis last first."""

    def __init__(self, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        data_format = "channels_last" if data_format is None else str(data_format).lower()
        if data_format not in {"channels_first", "channels_last"}:
            raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                             f"Received: data_format={data_format}")
        self.data_format = data_format
        self.input_spec = InputSpec(min_ndim=1)
        self._channels_first = data_format == "channels_first"

    def call(self, inputs: Any) -> Any:
        shape = inputs.shape.as_list()
        rank = len(shape)
        if self._channels_first and rank > 1:
            inputs = tf.transpose(inputs, perm=(0, *range(2, rank), 1))
        non_batch = shape[1:]
        if not non_batch:
            flat = 1
        elif any(d is None for d in non_batch):
            flat = -1
        else:
            flat = math.prod(non_batch)
        return tf.reshape(inputs, (tf.shape(inputs)[0] if shape[0] is None else shape[0], flat))

    def compute_output_shape(self, input_shape: Any) -> tuple:
        non_batch = input_shape[1:]
        if len(non_batch) == 0:
            flat: Any = 1
        elif any(d is None for d in non_batch):
            flat = None
        else:
            flat = math.prod(non_batch)
        return (input_shape[0], flat)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "data_format": self.data_format}


def validate_reshape_shape(newshape: Any, arg: str = "newshape") -> None:
    neg = 0
    for dim in newshape:
        if not isinstance(dim, int):
            continue
        if dim < -1:
            raise ValueError(f"Each dimension in `{arg}` must be a non-negative integer, or `-1` for a single unknown "
                             f"dimension. Received: {arg}={newshape}.")
        if dim == -1:
            neg += 1
    if neg > 1:
        raise ValueError(f"There must be at most one unknown dimension (-1) in `{arg}`. Received: {arg}={newshape}.")


def compute_reshape_output_shape(input_shape: Any, newshape: Any, arg: str) -> tuple:
    """The shape a reshape gives (batch axis not special): -1 resolved when the input is known;
    ValueError when the sizes cannot match (Keras's messages)."""
    validate_reshape_shape(newshape, arg)
    newshape = tuple(d if isinstance(d, int) else None for d in newshape)
    unknown = newshape.count(-1)
    if None in input_shape or None in newshape:
        return tuple(d if d != -1 else None for d in newshape)
    size = math.prod(input_shape)
    if unknown == 0:
        if size != math.prod(newshape):
            raise ValueError(f"The total size of the tensor must be unchanged. Received: input_shape={input_shape}, "
                             f"{arg}={newshape}")
        return newshape
    known, index = 1, None
    for i, d in enumerate(newshape):
        if d == -1:
            index = i
        else:
            known *= d
    if known == 0 or size % known != 0:
        raise ValueError("The total size of the tensor must be unchanged, however, the input size cannot by divided by "
                         f"the specified dimensions in {arg}. Received: input_shape={input_shape}, {arg}={newshape}")
    out = list(newshape)
    out[index] = size // known   # type: ignore[index]
    return tuple(out)


class Reshape(Layer):
    """`keras.layers.Reshape(target_shape)`: each example reshaped to `target_shape` (one -1 allowed)."""

    def __init__(self, target_shape: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        target_shape = tuple(target_shape)
        validate_reshape_shape(target_shape, "target_shape")
        self.target_shape = target_shape
        self.built = True

    def compute_output_shape(self, input_shape: Any) -> tuple:
        return (input_shape[0], *compute_reshape_output_shape(tuple(input_shape[1:]), self.target_shape,
                                                              "target_shape"))

    def call(self, inputs: Any) -> Any:
        resolved = compute_reshape_output_shape(tuple(inputs.shape.as_list()[1:]), self.target_shape, "target_shape")
        resolved = tuple(-1 if d is None else d for d in resolved)
        from simdist.keras import ops   # (Keras's ops.reshape: its validate_reshape_shape refuses two -1s, a
        # float target_shape's, with ValueError before TF's op sees them; keras.layer.arguments, asweep65)
        return ops.reshape(inputs, (tf.shape(inputs)[0],) + resolved)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "target_shape": self.target_shape}
