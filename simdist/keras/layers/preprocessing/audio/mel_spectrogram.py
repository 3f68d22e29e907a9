"""`keras.layers.MelSpectrogram` (Keras 3.15's mel_spectrogram.py): a centred STFT
(`keras.ops.stft`, window `window`, `sequence_length` default fft_length), magnitude raised to
`mag_exp`, a mel filter bank (linear_to_mel_weight_matrix: triangles between `num_mel_bins + 2`
mel-spaced edges over [min_freq, max_freq], first bin zero), then (power_to_db) 10 log10 of
max(x, min_power) relative to `ref_power` and floored at the maximum minus `top_db`; output
(..., num_mel_bins, frames) in the compute dtype (float32 below float32)."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.preprocessing.data_layer import DataLayer

__all__ = ["MelSpectrogram"]

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


class MelSpectrogram(DataLayer):
    """`keras.layers.MelSpectrogram(fft_length=2048, sequence_stride=512, sequence_length=None,
    window="hann", sampling_rate=16000, num_mel_bins=128, min_freq=20.0, max_freq=None,
    power_to_db=True, top_db=80.0, mag_exp=2.0, min_power=1e-10, ref_power=1.0)`."""

    def __init__(self, fft_length: int = 2048, sequence_stride: int = 512, sequence_length: int | None = None,
                 window: str | None = "hann", sampling_rate: int = 16000, num_mel_bins: int = 128,
                 min_freq: float = 20.0, max_freq: float | None = None, power_to_db: bool = True,
                 top_db: float = 80.0, mag_exp: float = 2.0, min_power: float = 1e-10, ref_power: float = 1.0,
                 **kwargs: Any) -> None:
        self.fft_length = fft_length
        self.sequence_stride = sequence_stride
        self.sequence_length = sequence_length or fft_length
        if self.fft_length < self.sequence_length:
            raise ValueError("`fft_length` must be greater than or equal to   `sequence_length`. Received: "
                             f"`sequence_length`={self.sequence_length}, `fft_length`={self.fft_length}.")
        self.window = window
        self.sampling_rate = sampling_rate
        self.num_mel_bins = num_mel_bins
        self.min_freq = min_freq
        self.max_freq = max_freq or int(sampling_rate / 2)
        self.power_to_db = power_to_db
        self.top_db = top_db
        self.mag_exp = mag_exp
        self.min_power = min_power
        self.ref_power = ref_power
        super().__init__(**kwargs)

    def call(self, inputs: Any) -> Any:
        ops = self.backend
        dtype = "float32" if self.compute_dtype not in ["float32", "float64"] else self.compute_dtype
        inputs = ops.convert_to_tensor(inputs, dtype=dtype)
        outputs = self._melscale(self._spectrogram(inputs))
        if self.power_to_db:
            outputs = self._dbscale(outputs)
        outputs = ops.numpy.swapaxes(outputs, -1, -2)
        return ops.cast(outputs, self.compute_dtype)

    def _spectrogram(self, inputs: Any) -> Any:
        np_ = self.backend.numpy
        real, imag = self.backend.math.stft(inputs, sequence_length=self.sequence_length,
                                            sequence_stride=self.sequence_stride, fft_length=self.fft_length,
                                            window=self.window, center=True)
        spec = np_.sqrt(np_.add(np_.square(real), np_.square(imag)))
        return np_.power(spec, self.mag_exp)

    def _melscale(self, inputs: Any) -> Any:
        matrix = self.linear_to_mel_weight_matrix(num_mel_bins=self.num_mel_bins,
                                                  num_spectrogram_bins=self.backend.shape(inputs)[-1],
                                                  sampling_rate=self.sampling_rate, lower_edge_hertz=self.min_freq,
                                                  upper_edge_hertz=self.max_freq)
        return self.backend.numpy.tensordot(inputs, matrix, axes=1)

    def _dbscale(self, inputs: Any) -> Any:
        ops, np_ = self.backend, self.backend.numpy
        log_spec = 10.0 * np_.log10(np_.maximum(inputs, self.min_power))
        ref_value = np_.abs(ops.convert_to_tensor(self.ref_power))
        log_spec -= 10.0 * np_.log10(np_.maximum(ref_value, self.min_power))
        return np_.maximum(log_spec, np_.max(log_spec) - self.top_db)

    def _hertz_to_mel(self, frequencies_hertz: Any) -> Any:
        return _MEL_HIGH_FREQUENCY_Q * self.backend.numpy.log(1.0 + frequencies_hertz / _MEL_BREAK_FREQUENCY_HERTZ)

    def linear_to_mel_weight_matrix(self, num_mel_bins: int = 20, num_spectrogram_bins: int = 129,
                                    sampling_rate: int = 8000, lower_edge_hertz: float = 125.0,
                                    upper_edge_hertz: float = 3800.0, dtype: str = "float32") -> Any:
        """Keras's (num_spectrogram_bins, num_mel_bins) triangular filter bank (HTK mel scale)."""
        ops, np_ = self.backend, self.backend.numpy
        sampling_rate = ops.cast(sampling_rate, dtype)
        lower_edge_hertz = ops.convert_to_tensor(lower_edge_hertz, dtype)
        upper_edge_hertz = ops.convert_to_tensor(upper_edge_hertz, dtype)
        zero = ops.convert_to_tensor(0.0, dtype)
        bands_to_zero = 1
        nyquist_hertz = sampling_rate / 2.0
        linear_frequencies = np_.linspace(zero, nyquist_hertz, num_spectrogram_bins)[bands_to_zero:]
        spectrogram_bins_mel = np_.expand_dims(self._hertz_to_mel(linear_frequencies), 1)
        band_edges_mel = ops.math.extract_sequences(
            np_.linspace(self._hertz_to_mel(lower_edge_hertz), self._hertz_to_mel(upper_edge_hertz), num_mel_bins + 2),
            sequence_length=3, sequence_stride=1)
        lower_edge_mel, center_mel, upper_edge_mel = tuple(
            np_.reshape(t, [1, num_mel_bins]) for t in np_.split(band_edges_mel, 3, axis=1))
        lower_slopes = (spectrogram_bins_mel - lower_edge_mel) / (center_mel - lower_edge_mel)
        upper_slopes = (upper_edge_mel - spectrogram_bins_mel) / (upper_edge_mel - center_mel)
        mel_weights_matrix = np_.maximum(zero, np_.minimum(lower_slopes, upper_slopes))
        return np_.pad(mel_weights_matrix, [[bands_to_zero, 0], [0, 0]])

    def compute_output_shape(self, input_shape: Any) -> Any:
        def frames(n: Any) -> Any:
            return (n + self.sequence_stride + 1) // self.sequence_stride if n is not None else None

        if len(input_shape) == 1:
            return [self.num_mel_bins, frames(input_shape[0])]
        return [input_shape[0], self.num_mel_bins, frames(input_shape[1])]

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "fft_length": self.fft_length, "sequence_stride": self.sequence_stride,
                "sequence_length": self.sequence_length, "window": self.window, "sampling_rate": self.sampling_rate,
                "num_mel_bins": self.num_mel_bins, "min_freq": self.min_freq, "max_freq": self.max_freq,
                "power_to_db": self.power_to_db, "top_db": self.top_db, "mag_exp": self.mag_exp,
                "min_power": self.min_power, "ref_power": self.ref_power}
