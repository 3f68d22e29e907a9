"""`keras.layers.ZeroPadding3D` (keras/src/layers/reshaping/zero_padding3d.py): zeros added at
the start and end of three spatial axes, by `ops.pad` (tf.pad)."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.argument_validation import standardize_data_format
from simdist.keras.layers.cropping import standardize_pairs
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["ZeroPadding3D"]


class ZeroPadding3D(Layer):
    """`keras.layers.ZeroPadding3D(padding=((1, 1), (1, 1), (1, 1)), data_format=None)`."""

    def __init__(self, padding: Any = ((1, 1), (1, 1), (1, 1)), data_format: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        help_text = ("`padding` should be either an int, a tuple of 3 ints (symmetric_dim1_pad, symmetric_dim2_pad, "
                     "symmetric_dim3_pad), or a tuple of 3 tuples of 2 ints ((left_dim1_pad, right_dim1_pad), "
                     "(left_dim2_pad, right_dim2_pad), (left_dim3_pad, right_dim2_pad)).")
        if isinstance(padding, int):   # (Keras 3.15 checks no sign here: ZeroPadding3D(-1) is accepted, as
            self.padding = ((padding, padding),) * 3   # ZeroPadding2D(-1) is; Cropping3D(-1) is refused)
        else:
            self.padding = standardize_pairs(padding, 3, "padding", help_text)
        self.input_spec = InputSpec(ndim=5)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        out = list(input_shape)
        offset = 2 if self.data_format == "channels_first" else 1
        for i in range(3):
            if out[i + offset] is not None:
                out[i + offset] += self.padding[i][0] + self.padding[i][1]
        return tuple(out)

    def call(self, inputs: Any) -> Any:
        if self.data_format == "channels_first":
            pads = ((0, 0), (0, 0), *self.padding)
        else:
            pads = ((0, 0), *self.padding, (0, 0))
        from simdist.keras.layers.upsampling_padding import _pad   # (the float widths' cast: keras.layer.arguments)
        return _pad(inputs, pads)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "padding": self.padding, "data_format": self.data_format}
