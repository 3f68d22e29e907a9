"""`keras.layers.STFTSpectrogram` (Keras 3.15's stft_spectrogram.py): the short-time Fourier
transform as 1-D convolutions with fixed kernels (keras.initializers.STFT real and imaginary
parts, (frame_length, 1, fft_length // 2 + 1) weights built at first call), strides
`frame_step` (default frame_length // 2), `padding` valid/same, over each channel; then the mode:
real, imag, angle (arctan2), stft (real and imaginary bins stacked), psd (power with the inner
bins doubled), magnitude (sqrt(max(power, eps))) or log (log(max(magnitude, eps))); channels
flattened into the bins or (expand_dims) kept as an axis."""

from __future__ import annotations

import math
import warnings
from typing import Any

from simdist.keras import config as keras_config
from simdist.keras import dtype_policies as dtypes
from simdist.keras import initializers
from simdist.keras.layers import argument_validation
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer
from simdist.keras.ops import tf_core, tf_nn, tf_numpy as knp
from simdist.keras.ops.op_utils import compute_conv_output_shape

__all__ = ["STFTSpectrogram"]

_MODES = ["log", "magnitude", "psd", "real", "imag", "angle", "stft"]


class STFTSpectrogram(Layer):
    """`keras.layers.STFTSpectrogram(mode="log", frame_length=256, frame_step=None, fft_length=None,
    window="hann", periodic=False, scaling="density", padding="valid", expand_dims=False,
    data_format=None)`."""

    def __init__(self, mode: str = "log", frame_length: int = 256, frame_step: int | None = None,
                 fft_length: int | None = None, window: Any = "hann", periodic: bool = False,
                 scaling: str | None = "density", padding: str = "valid", expand_dims: bool = False,
                 data_format: str | None = None, **kwargs: Any) -> None:
        if frame_step is not None and (frame_step > frame_length or frame_step < 1):
            raise ValueError("`frame_step` should be a positive integer not greater than `frame_length`. Received "
                             f"frame_step={frame_step}, frame_length={frame_length}")
        if fft_length is not None and fft_length < frame_length:
            raise ValueError("`fft_length` should be not less than `frame_length`. Received "
                             f"fft_length={fft_length}, frame_length={frame_length}")
        if fft_length is not None and fft_length & -fft_length != fft_length:
            warnings.warn(f"`fft_length` is recommended to be a power of two. Received fft_length={fft_length}")
        if mode not in _MODES:
            raise ValueError(f"Output mode is invalid, it must be one of {', '.join(_MODES)}. Received: mode={mode}")
        if scaling is not None and scaling not in ["density", "spectrum"]:
            raise ValueError("Scaling is invalid, it must be `None`, 'density' or 'spectrum'. "
                             f"Received scaling={scaling}")
        if padding not in ["valid", "same"]:
            raise ValueError(f"Padding is invalid, it should be 'valid', 'same'. Received: padding={padding}")
        if isinstance(window, str):
            initializers._scipy_window(window, 1)
        super().__init__(**kwargs)
        self.mode = mode
        self.frame_length = frame_length
        self.frame_step = frame_step
        self._frame_step = frame_step or frame_length // 2
        self.fft_length = fft_length
        self._fft_length = fft_length or 2 ** int(math.ceil(math.log2(frame_length)))
        self.window = window
        self.periodic = periodic
        self.scaling = scaling
        self.padding = padding
        self.expand_dims = expand_dims
        self.data_format = argument_validation.standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=3)

    def build(self, input_shape: Any) -> None:
        shape = (self.frame_length, 1, self._fft_length // 2 + 1)
        if self.mode != "imag":
            self.real_kernel = self.add_weight(name="real_kernel", shape=shape, initializer=initializers.STFT(
                "real", self.window, self.scaling, self.periodic))
        if self.mode != "real":
            self.imag_kernel = self.add_weight(name="imag_kernel", shape=shape, initializer=initializers.STFT(
                "imag", self.window, self.scaling, self.periodic))
        self.built = True

    def _adjust_shapes(self, outputs: Any) -> Any:
        _, channels, freq_channels, time_seq = tf_core.shape(outputs)
        if self.expand_dims:
            return knp.transpose(outputs, [0, 3, 2, 1] if self.data_format == "channels_last" else [0, 1, 3, 2])
        outputs = knp.reshape(outputs, [-1, channels * freq_channels, time_seq])
        return knp.transpose(outputs, [0, 2, 1]) if self.data_format == "channels_last" else outputs

    def _apply_conv(self, inputs: Any, kernel: Any) -> Any:
        if self.data_format == "channels_last":
            _, time_seq, channels = tf_core.shape(inputs)
            inputs = knp.reshape(knp.transpose(inputs, [0, 2, 1]), [-1, time_seq, 1])
        else:
            _, channels, time_seq = tf_core.shape(inputs)
            inputs = knp.reshape(inputs, [-1, 1, time_seq])
        outputs = tf_nn.conv(inputs, tf_core.cast(kernel, dtypes.standardize_dtype(inputs.dtype)),
                             padding=self.padding, strides=self._frame_step, data_format=self.data_format)
        if self.data_format == "channels_last":
            _, time_seq, freq_channels = tf_core.shape(outputs)
            outputs = knp.transpose(outputs, [0, 2, 1])
        else:
            _, freq_channels, time_seq = tf_core.shape(outputs)
        return knp.reshape(outputs, [-1, channels, freq_channels, time_seq])

    def call(self, inputs: Any) -> Any:
        dtype = inputs.dtype
        if dtypes.standardize_dtype(dtype) not in {"float16", "float32", "float64"}:
            raise TypeError("Invalid input type. Expected `float16`, `float32` or `float64`. "
                            f"Received: input type={dtype}")
        real = self._apply_conv(inputs, self.real_kernel) if self.mode != "imag" else None
        imag = self._apply_conv(inputs, self.imag_kernel) if self.mode != "real" else None
        if self.mode == "real":
            return self._adjust_shapes(real)
        if self.mode == "imag":
            return self._adjust_shapes(imag)
        if self.mode == "angle":
            return self._adjust_shapes(knp.arctan2(imag, real))
        if self.mode == "stft":
            return self._adjust_shapes(knp.concatenate([real, imag], axis=2))
        power = knp.square(real) + knp.square(imag)
        if self.mode == "psd":
            return self._adjust_shapes(power + knp.pad(power[:, :, 1:-1, :], [[0, 0], [0, 0], [1, 1], [0, 0]]))
        linear_stft = self._adjust_shapes(knp.sqrt(knp.maximum(power, keras_config.epsilon())))
        if self.mode == "magnitude":
            return linear_stft
        return knp.log(knp.maximum(linear_stft, keras_config.epsilon()))

    def compute_output_shape(self, input_shape: Any) -> Any:
        channels = input_shape[-1] if self.data_format == "channels_last" else input_shape[1]
        freq_channels = self._fft_length // 2 + 1
        if self.mode == "stft":
            freq_channels *= 2
        shape = compute_conv_output_shape(input_shape, freq_channels * channels, (self.frame_length,),
                                          strides=self._frame_step, padding=self.padding,
                                          data_format=self.data_format)
        batch_size, time_seq = (shape[0], shape[1]) if self.data_format == "channels_last" else (shape[0], shape[2])
        if self.expand_dims:
            if self.data_format == "channels_last":
                return (batch_size, time_seq, freq_channels, channels)
            return (batch_size, channels, time_seq, freq_channels)
        return shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "mode": self.mode, "frame_length": self.frame_length,
                "frame_step": self.frame_step, "fft_length": self.fft_length, "window": self.window,
                "periodic": self.periodic, "scaling": self.scaling, "padding": self.padding,
                "data_format": self.data_format, "expand_dims": self.expand_dims}
