"""`keras.layers.UpSampling1D/2D` and `ZeroPadding1D/2D` (keras/src/layers/reshaping/), computed
as Keras 3.15's TensorFlow backend computes them: nearest upsampling is `ops.repeat` (tf.repeat:
ExpandDims, Tile, Reshape) along each spatial axis, zero padding is `ops.pad` (tf.pad)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.argument_validation import standardize_data_format, standardize_tuple
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["UpSampling1D", "UpSampling2D", "ZeroPadding1D", "ZeroPadding2D"]


def _times(size: int, dim: Any) -> Any:
    return None if dim is None else size * dim


class UpSampling1D(Layer):
    """`keras.layers.UpSampling1D(size=2)`: (batch, steps, features) -> (batch, steps * size,
    features), each step repeated `size` times."""

    def __init__(self, size: int = 2, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(size, int) or isinstance(size, bool):
            raise TypeError(f"Expected an integer value for `size`, got {type(size)}.")
        if size <= 0:
            raise ValueError(f"Argument `size` should be a positive integer. Received: size={size}")
        self.size = size
        self.input_spec = InputSpec(ndim=3)

    def compute_output_shape(self, input_shape: Any) -> list:
        return [input_shape[0], _times(self.size, input_shape[1]), input_shape[2]]

    def call(self, inputs: Any) -> Any:
        return tf.repeat(inputs, self.size, axis=1)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "size": self.size}


class UpSampling2D(Layer):
    """`keras.layers.UpSampling2D(size=(2, 2), data_format=None, interpolation="nearest")`:
    "nearest" repeats rows size[0] and columns size[1] times (Keras's `ops.repeat` path); any other
    interpolation resizes to (h * size[0], w * size[1]) with `keras.ops.image.resize`, which refuses an
    unknown one when called (Keras 3.15 stores the argument unchecked: kargs)."""

    def __init__(self, size: Any = (2, 2), data_format: str | None = None, interpolation: str = "nearest",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        self.size = standardize_tuple(size, 2, "size")
        self.interpolation = interpolation.lower()
        self.input_spec = InputSpec(ndim=4)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        if self.data_format == "channels_first":
            return (input_shape[0], input_shape[1], _times(self.size[0], input_shape[2]),
                    _times(self.size[1], input_shape[3]))
        return (input_shape[0], _times(self.size[0], input_shape[1]), _times(self.size[1], input_shape[2]),
                input_shape[3])

    def call(self, inputs: Any) -> Any:
        x = inputs
        if self.data_format == "channels_first":
            x = tf.transpose(x, [0, 2, 3, 1])
        if self.interpolation == "nearest":
            x = tf.repeat(x, self.size[0], axis=1)
            x = tf.repeat(x, self.size[1], axis=2)
        else:
            from simdist.keras import ops
            shape = x.shape.as_list()
            x = ops.image.resize(x, (shape[1] * self.size[0], shape[2] * self.size[1]), data_format="channels_last",
                                 interpolation=self.interpolation)
        if self.data_format == "channels_first":
            x = tf.transpose(x, [0, 3, 1, 2])
        return x

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "size": self.size, "data_format": self.data_format,
                "interpolation": self.interpolation}


def _pad(inputs: Any, widths: Any) -> Any:
    """Keras's `ops.pad` on TF: the widths as an int32 tensor, mode CONSTANT. Keras's convert_to_tensor(widths,
    "int32") converts without a dtype and casts (keras.layer.arguments): float widths (ZeroPadding2D(((1.0, 1.0),
    ...))) are truncated, not refused."""
    return tf.pad(inputs, tf.cast(tf.constant([list(w) for w in widths]), "int32"), "CONSTANT")


class ZeroPadding1D(Layer):
    """`keras.layers.ZeroPadding1D(padding=1, data_format=None)`: zeros added before and after
    the steps axis (an int, or a (before, after) pair)."""

    def __init__(self, padding: Any = 1, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        self.padding = standardize_tuple(padding, 2, "padding", allow_zero=True)
        self.input_spec = InputSpec(ndim=3)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        out = list(input_shape)
        axis = 2 if self.data_format == "channels_first" else 1
        if out[axis] is not None:
            out[axis] += self.padding[0] + self.padding[1]
        return tuple(out)

    def call(self, inputs: Any) -> Any:
        if self.data_format == "channels_first":
            return _pad(inputs, [(0, 0), (0, 0), self.padding])
        return _pad(inputs, [(0, 0), self.padding, (0, 0)])

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "padding": self.padding, "data_format": self.data_format}


class ZeroPadding2D(Layer):
    """`keras.layers.ZeroPadding2D(padding=(1, 1), data_format=None)`: zeros around the rows
    and columns (an int, a (rows, cols) pair, or ((top, bottom), (left, right)))."""

    def __init__(self, padding: Any = (1, 1), data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        if isinstance(padding, int):
            self.padding = ((padding, padding), (padding, padding))
        elif hasattr(padding, "__len__"):
            if len(padding) != 2:
                raise ValueError(f"`padding` should have two elements. Received: padding={padding}.")
            self.padding = (standardize_tuple(padding[0], 2, "1st entry of padding", allow_zero=True),
                            standardize_tuple(padding[1], 2, "2nd entry of padding", allow_zero=True))
        else:
            raise ValueError("`padding` should be either an int, a tuple of 2 ints (symmetric_height_crop, "
                             "symmetric_width_crop), or a tuple of 2 tuples of 2 ints ((top_crop, bottom_crop), "
                             f"(left_crop, right_crop)). Received: padding={padding}.")
        self.input_spec = InputSpec(ndim=4)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        out = list(input_shape)
        offset = 2 if self.data_format == "channels_first" else 1
        for i in range(2):
            if out[i + offset] is not None:
                out[i + offset] += self.padding[i][0] + self.padding[i][1]
        return tuple(out)

    def call(self, inputs: Any) -> Any:
        if self.data_format == "channels_first":
            return _pad(inputs, [(0, 0), (0, 0), *self.padding])
        return _pad(inputs, [(0, 0), *self.padding, (0, 0)])

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "padding": self.padding, "data_format": self.data_format}
