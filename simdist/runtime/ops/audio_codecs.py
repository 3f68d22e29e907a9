"""`tf.audio.decode_wav`, `tf.audio.encode_wav` (TF 2.21's DecodeWavOp, EncodeWavOp;
core/lib/wav/wav_io.cc EncodeAudioAsS16LEWav, DecodeLin16WaveAsFloatVector).

- encode_wav(audio [frames, channels] float32, sample_rate): a 44-byte RIFF/WAVE header (fmt
  chunk of 16 bytes, PCM, 16 bits) and each sample as round(x * 32768) clamped to int16
  ("audio must be 2-dimensional[3]", "Input sample_rate should be a scalar tensor, got [2]").
- decode_wav(contents, desired_channels=-1, desired_samples=-1): 16-bit PCM as x / 32768, the
  file's sample rate; more samples than the file has are zeros, more channels than it has repeat
  its last; chunks before "data" skipped; a short header InvalidArgumentError "Data too short when
  trying to read string", another format "Bad audio format for WAV: Expected 1 (PCM), or 0xFFFE
  (WAVE_FORMAT_EXTENSIBLE), but got<n>", other bit depths "Can only read 16-bit WAV files, but
  received <n>".
Not differentiable. Clause io.audio-codecs.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, bytes_array, string_tensor, want_string
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["decode_wav", "encode_wav"]

_WHY = lanes("decodes or encodes each file's bytes in Python: no stacked form")


def _bad(op: str, msg: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{msg} [Op:{op}]")


def _encode(audio: np.ndarray, sample_rate: np.ndarray) -> np.ndarray:
    op = "EncodeWav"
    if audio.ndim != 2:
        raise _bad(op, f"audio must be 2-dimensional[{','.join(str(d) for d in audio.shape)}]")
    if sample_rate.ndim != 0:
        raise _bad(op, "Input sample_rate should be a scalar tensor, got "
                   f"[{','.join(str(d) for d in sample_rate.shape)}] instead.")
    frames, channels = audio.shape
    x = np.rint(audio.astype(np.float32) * np.float32(32768.0))   # (roundf: halves away from zero)
    x = np.where(np.abs(audio.astype(np.float32) * np.float32(32768.0) - np.trunc(audio * np.float32(32768.0)))
                 == 0.5, np.trunc(audio * np.float32(32768.0)) + np.sign(audio), x)
    pcm = np.clip(x, -32768, 32767).astype("<i2")
    rate = int(sample_rate)
    data = pcm.tobytes()
    hdr = (b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " +
           struct.pack("<IHHIIHH", 16, 1, channels, rate, rate * channels * 2, channels * 2, 16) +
           b"data" + struct.pack("<I", len(data)))
    return bytes_array((), [hdr + data])


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def take(self, n: int, what: str) -> bytes:
        if self.pos + n > len(self.data):
            raise _bad("DecodeWav", f"Data too short when trying to read {what}")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def text(self, want: bytes) -> None:
        got = self.take(len(want), "string")
        if got != want:
            raise _bad("DecodeWav", f"Header mismatch: Expected {want.decode()} but found {got.decode('latin-1')}")


def _decode(contents: np.ndarray, desired_channels: int = -1, desired_samples: int = -1) -> tuple:
    op = "DecodeWav"
    if contents.ndim != 0:
        raise _bad(op, f"contents must be scalar, got shape [{','.join(str(d) for d in contents.shape)}]")
    r = _Reader(as_bytes(contents[()]))
    r.text(b"RIFF")
    r.take(4, "int32")
    r.text(b"WAVE")
    r.text(b"fmt ")
    fmt_size = struct.unpack("<I", r.take(4, "int32"))[0]
    fmt_tag = struct.unpack("<H", r.take(2, "int16"))[0]
    if fmt_tag not in (1, 0xFFFE):
        raise _bad(op, "Bad audio format for WAV: Expected 1 (PCM), or 0xFFFE (WAVE_FORMAT_EXTENSIBLE), but "
                   f"got{fmt_tag}")
    channels = struct.unpack("<H", r.take(2, "int16"))[0]
    rate = struct.unpack("<I", r.take(4, "int32"))[0]
    r.take(4, "int32")
    r.take(2, "int16")
    bits = struct.unpack("<H", r.take(2, "int16"))[0]
    if bits != 16:
        raise _bad(op, f"Can only read 16-bit WAV files, but received {bits}")
    if fmt_size > 16:
        r.take(fmt_size - 16, "string")
    while True:
        kind = r.take(4, "string")
        size = struct.unpack("<I", r.take(4, "int32"))[0]
        if kind == b"data":
            break
        r.take(size, "string")
    size = min(size, len(r.data) - r.pos)
    samples = np.frombuffer(r.data, "<i2", size // 2, r.pos).astype(np.float32) / np.float32(32768.0)
    n = samples.size // channels if channels else 0
    decoded = samples[:n * channels].reshape(n, channels)
    out_n = n if desired_samples == -1 else desired_samples
    out_c = channels if desired_channels == -1 else desired_channels
    out = np.zeros((out_n, out_c), np.float32)
    if out_c and channels:
        src = np.minimum(np.arange(out_c), channels - 1)
        k = min(out_n, n)
        out[:k] = decoded[:k][:, src]
    return out, np.array(rate, np.int32)


def _enc_rule(dts: Any, attrs: Any) -> dtypes.DType:
    return dtypes.string


def _dec_rule(dts: Any, attrs: Any) -> tuple:
    want_string("DecodeWav", dts, 0, "contents")
    return dtypes.float32, dtypes.int32


ENCODE_WAV = register("EncodeWav", _encode, _enc_rule, kind="io", fusion=_WHY, **STRING_COST)
DECODE_WAV = register("DecodeWav", _decode, _dec_rule, num_outputs=2, kind="io", fusion=_WHY, **STRING_COST)
NotDifferentiable("EncodeWav")
NotDifferentiable("DecodeWav")


def encode_wav(audio: Any, sample_rate: Any, name: str | None = None) -> Tensor:
    """`tf.audio.encode_wav`: float32 [frames, channels] as 16-bit PCM WAV bytes."""
    return dispatch.execute(ENCODE_WAV, (convert_to_tensor(audio, dtype=dtypes.float32),
                                         convert_to_tensor(sample_rate, dtype=dtypes.int32)))


def decode_wav(contents: Any, desired_channels: int = -1, desired_samples: int = -1, name: str | None = None) -> Any:
    """`tf.audio.decode_wav`: (audio [samples, channels] float32, sample_rate int32)."""
    if desired_channels < -1:
        raise _bad("DecodeWav", f"desired_channels must be >= -1, got {desired_channels}")
    if desired_samples < -1:
        raise _bad("DecodeWav", f"desired_samples must be >= -1, got {desired_samples}")
    from collections import namedtuple
    audio, rate = dispatch.execute(DECODE_WAV, (string_tensor(contents, "DecodeWav", "contents"),),
                                   {"desired_channels": int(desired_channels), "desired_samples": int(desired_samples)})
    return namedtuple("DecodeWav", ["audio", "sample_rate"])(audio, rate)
