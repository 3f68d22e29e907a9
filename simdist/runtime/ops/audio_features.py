"""TF's audio feature kernels (raw ops only): AudioSpectrogram and Mfcc, as tensorflow/core/kernels/spectrogram_op.cc,
spectrogram.cc, mfcc_op.cc, mfcc.cc, mfcc_mel_filterbank.cc and mfcc_dct.cc compute them (clause ops.audio-features).

AudioSpectrogram: each channel of a [samples, channels] float32 input, windows of `window_size` samples every `stride`
(1 + (samples - window_size) // stride of them, none when shorter), each multiplied in double by the periodic Hann
window 0.5 - 0.5 cos(2πi/window_size), zero-padded to the next power of two and transformed by a real FFT in double
(TF: Ooura's rdft; here NumPy's, whose last double bits may differ: the float32 results agree unless a bin's value
lies within a double rounding of a float32 boundary, or a bin that is exactly zero comes out of one FFT as a tiny
residue); each bin re² + im² in double, rounded to float32, and sqrtf of that unless magnitude_squared. Output
[channels, windows, 1 + fft_length / 2].

Mfcc: each [spectrogram channels] frame in double: the mel filterbank (triangles between mel-spaced centres,
1127·log1p(f / 700), DC excluded as HTK does, sqrt of each bin weighted into its two bands, in bin order), the log of
each band floored at 1e-12, then the DCT-II with sqrt(2 / bands) · cos(π i (j + 0.5) / bands), summed in order;
rounded to float32. An upper frequency limit above the spectrum's last bin leaves the filterbank empty: every
coefficient 0 (TF logs "Input too short to compute filterbank"). Neither op has a registered gradient (a tape
through one: LookupError).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register

__all__ = ["AUDIO_SPECTROGRAM", "MFCC", "audio_spectrogram", "mfcc"]


def _bad(op: str, text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")


def _shape_text(shape: tuple) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def _next_pow2(n: int) -> int:
    return 1 << (n - 1).bit_length()


def audio_spectrogram(input: np.ndarray, window_size: int, stride: int,  # noqa: A002 - TF's name
                      magnitude_squared: bool = False) -> np.ndarray:
    """The AudioSpectrogram kernel: the input's rank, then Spectrogram::Initialize (a window of at least 2 samples, a
    positive stride; TF 2.21's texts, observed), then each channel's windows."""
    op = "AudioSpectrogram"
    if input.ndim != 2:
        raise _bad(op, f"input must be 2-dimensional{_shape_text(input.shape)}")
    if window_size < 2 or stride < 1:
        raise _bad(op, f"Spectrogram initialization failed for window size {window_size} and stride {stride}")
    samples, channels = input.shape
    fft_length = _next_pow2(window_size)
    width = 1 + fft_length // 2
    height = 0 if samples < window_size else 1 + (samples - window_size) // stride
    out = np.zeros((channels, height, width), np.float32)
    if not height or not channels:
        return out
    i = np.arange(window_size, dtype=np.float64)
    window = 0.5 - 0.5 * np.cos((2 * math.pi * i) / window_size)
    starts = np.arange(height) * stride
    frames = input.astype(np.float64).T[:, starts[:, None] + np.arange(window_size)[None, :]]   # [ch, h, window]
    spectrum = np.fft.rfft(frames * window, n=fft_length, axis=-1)
    re, im = spectrum.real, spectrum.imag
    power = (re * re + im * im).astype(np.float32)
    if magnitude_squared:
        return power
    return np.sqrt(power)


_FLOOR = 1e-12   # (mfcc.cc kFilterbankFloor)


def _sqrt(x: float) -> float:
    """C's sqrt: NaN below zero (Python's raises)."""
    return math.sqrt(x) if not x < 0 else math.nan


def _freq_to_mel(f: float) -> float:
    return 1127.0 * math.log1p(f / 700.0)


class _Filterbank:
    """MfccMelFilterbank::Initialize's band mapping and weights (double)."""

    def __init__(self, n: int, rate: float, channels: int, lower: float, upper: float) -> None:
        self.ok = channels >= 1 and rate > 0 and n >= 2 and lower >= 0 and upper > lower
        if not self.ok:
            return
        self.channels = channels
        mel_low, mel_hi = _freq_to_mel(lower), _freq_to_mel(upper)
        spacing = (mel_hi - mel_low) / float(channels + 1)
        centres = [mel_low + spacing * (i + 1) for i in range(channels + 1)]
        hz = 0.5 * rate / float(n - 1)
        self.start, self.end = int(1.5 + lower / hz), int(upper / hz)
        self.mapper, self.weights = [-2] * n, [0.0] * n
        ch = 0
        for i in range(n):
            melf = _freq_to_mel(i * hz)
            if i < self.start or i > self.end:
                continue
            while ch < channels and centres[ch] < melf:
                ch += 1
            self.mapper[i] = ch - 1
        for i in range(n):
            if i < self.start or i > self.end:
                continue
            c = self.mapper[i]
            melf = _freq_to_mel(i * hz)
            if c >= 0:
                self.weights[i] = (centres[c + 1] - melf) / (centres[c + 1] - centres[c])
            else:
                self.weights[i] = (centres[0] - melf) / (centres[0] - mel_low)

    def compute(self, frame: list) -> list:
        if len(frame) <= self.end:   # ("Input too short to compute filterbank": nothing written)
            return []
        out = [0.0] * self.channels
        for i in range(self.start, self.end + 1):
            spec = _sqrt(frame[i])
            weighted = spec * self.weights[i]
            c = self.mapper[i]
            if c >= 0:
                out[c] += weighted
            c += 1
            if c < self.channels:
                out[c] += spec - weighted
        return out


def mfcc(spectrogram: np.ndarray, sample_rate: np.ndarray, upper_frequency_limit: float = 4000.0,
         lower_frequency_limit: float = 20.0, filterbank_channel_count: int = 40,
         dct_coefficient_count: int = 13) -> np.ndarray:
    """The Mfcc kernel: the input checks, Mfcc::Initialize (its failure TF's one message), then each frame."""
    op = "Mfcc"
    if spectrogram.ndim != 3:
        raise _bad(op, f"spectrogram must be 3-dimensional{_shape_text(spectrogram.shape)}")
    if sample_rate.ndim:
        raise _bad(op, f"Input sample_rate should be a scalar tensor, got {_shape_text(sample_rate.shape)} instead.")
    rate = int(sample_rate)
    audio, frames, n = spectrogram.shape
    upper, lower = float(np.float32(upper_frequency_limit)), float(np.float32(lower_frequency_limit))
    bank = _Filterbank(n, float(rate), filterbank_channel_count, lower, upper)
    k = dct_coefficient_count
    dct_ok = k >= 1 and filterbank_channel_count >= 1 and k <= filterbank_channel_count
    if not (bank.ok and dct_ok):
        raise _bad(op, f"Mfcc initialization failed for channel count {n}, sample rate {rate} and "
                       f"filterbank_channel_count {filterbank_channel_count}")
    bands = filterbank_channel_count
    fnorm, arg = math.sqrt(2.0 / bands), math.pi / bands
    cosines = [[fnorm * math.cos(i * arg * (j + 0.5)) for j in range(bands)] for i in range(k)]
    out = np.zeros((audio, frames, k), np.float32)
    data = spectrogram.astype(np.float64)
    for a in range(audio):
        for s in range(frames):
            working = [math.log(_FLOOR if v < _FLOOR else v) for v in bank.compute(data[a, s].tolist())]
            length = min(len(working), bands)
            for i in range(k):
                acc = 0.0
                for j in range(length):
                    acc += cosines[i][j] * working[j]
                out[a, s, i] = acc
    return out


def _float_only(op: str, n_in: int) -> Any:
    def rule(dts: Any, attrs: Any) -> Any:
        from simdist.runtime.ops.args import dtype_error
        for i, want in enumerate((dtypes.float32, dtypes.int32)[:n_in]):
            if dts[i] != want:
                raise dtype_error(op, i, want, dts[i])
        return dtypes.float32
    return rule


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    return 20.0 * float(np.size(arrays[0]))


def _register(op: str, fn: Any, n_in: int) -> Any:
    d = register(op, fn, _float_only(op, n_in), _flops, kind="nn",
                 fusion=lanes("a per-channel transform over one lane's audio: no stacked form written"))
    from simdist.runtime.ops import infer_ctx
    d.trace_shape = infer_ctx.trace_shape(op)
    no_tf_gradient(op)
    return d


AUDIO_SPECTROGRAM = _register("AudioSpectrogram", audio_spectrogram, 1)
MFCC = _register("Mfcc", mfcc, 2)
