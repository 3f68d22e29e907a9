"""`tf.audio.decode_wav`, `tf.audio.encode_wav` (TF 2.21's DecodeWavOp, EncodeWavOp;
core/lib/wav/wav_io.cc EncodeAudioAsS16LEWav, DecodeLin16WaveAsFloatVector).

- encode_wav(audio [frames, channels] float32, sample_rate): a 44-byte RIFF/WAVE header (fmt
  chunk of 16 bytes, PCM, 16 bits) and each sample as roundf(x * 32768) clamped to int16
  ("audio must be 2-dimensional[3]", "Input sample_rate should be a scalar tensor, got [2]").
- decode_wav(contents, desired_channels=-1, desired_samples=-1): 16-bit PCM as x / 32768, the
  file's sample rate; more samples than the file has are zeros, more channels than it has repeat
  its last; JUNK/bext/... chunks before "fmt " and any chunk but "data" after it skipped; a short
  read InvalidArgumentError "Data too short when trying to read string", another format "Bad audio
  format for WAV: Expected 1 (PCM), but got3", other bit depths "Can only read 16-bit WAV files,
  but received 8", and the other checks of DecodeLin16WaveAsFloatVector with its messages.
Not differentiable. Clause io.audio-codecs.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, static_shapes
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, bytes_array, string_tensor, want_string
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["decode_wav", "encode_wav", "s16le_wav"]

_WHY = lanes("decodes or encodes each file's bytes in Python: no stacked form")


def _bad(op: str, msg: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{msg} [Op:{op}]")


def _found(raw: bytes) -> str:
    """Bytes of the file that a kernel message quotes as they are (wav_io.cc's "but found ..."): TF's
    Python decodes the status message as UTF-8, so bytes that are not (b'\xc3\xa9t\xc3', a character
    cut short) make the call's error Python's UnicodeDecodeError instead of the kernel's
    InvalidArgumentError, eagerly and from a tf.function (TF 2.21 observed; fz46, twentieth generator
    eager seed 4620261208 #110); valid UTF-8 reads as text ("é")."""
    return raw.decode("utf-8")


def _encode(audio: np.ndarray, sample_rate: np.ndarray) -> np.ndarray:
    op = "EncodeWav"
    if audio.ndim != 2:
        raise _bad(op, f"audio must be 2-dimensional[{','.join(str(d) for d in audio.shape)}]")
    if sample_rate.ndim != 0:
        raise _bad(op, "Input sample_rate should be a scalar tensor, got "
                   f"[{','.join(str(d) for d in sample_rate.shape)}] instead.")
    if int(sample_rate) <= 0:   # (EncodeWavOp: after the shapes, before the samples; fz31a, seed 3120261208 #5)
        raise _bad(op, f"sample_rate must be in (0, 2^32), got: {int(sample_rate)}")
    return bytes_array((), [s16le_wav(audio, int(sample_rate))])


def s16le_wav(audio: np.ndarray, rate: int) -> bytes:
    """wav_io.cc EncodeAudioAsS16LEWav's bytes of `audio` [frames, channels] at `rate` (its checks are its
    callers'): a 44-byte RIFF/WAVE header (fmt chunk of 16 bytes, PCM, 16 bits; bytes per second and per frame
    truncated to the fields' 32 and 16 bits, as EncodeFixed32/16 store them) and each sample as
    roundf(x * 32768) clamped to int16 (FloatToInt16Sample)."""
    channels = audio.shape[1]
    scaled = audio.astype(np.float32) * np.float32(32768.0)
    t = np.trunc(scaled).astype(np.float64)
    x = np.where(np.abs(scaled - t) >= 0.5, t + np.sign(scaled), t)   # (roundf: halves away from zero)
    pcm = np.clip(x, -32768, 32767).astype("<i2")
    data = pcm.tobytes()
    return (b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " +
            struct.pack("<IHHIIHH", 16, 1, channels, rate & 0xFFFFFFFF, (rate * channels * 2) & 0xFFFFFFFF,
                        (channels * 2) & 0xFFFF, 16) + b"data" + struct.pack("<I", len(data)) + data)


class _Reader:
    """wav_io.cc's cursor: every short read is "Data too short when trying to read string"."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise _bad("DecodeWav", "Data too short when trying to read string")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def value(self, fmt: str) -> int:
        return struct.unpack("<" + fmt, self.take(struct.calcsize(fmt)))[0]

    def text(self, want: bytes) -> None:
        got = self.take(len(want))
        if got != want:
            raise _bad("DecodeWav", f"Header mismatch: Expected {want.decode()} but found {_found(got)}")


_SKIPPED = (b"JUNK", b"bext", b"iXML", b"qlty", b"mext", b"levl", b"link", b"axml")


def _lin16(data: bytes) -> tuple[np.ndarray, int, int, int]:
    """DecodeLin16WaveAsFloatVector: (samples, sample count, channel count, sample rate)."""
    def bad(msg: str) -> errors.InvalidArgumentError:
        return _bad("DecodeWav", msg)
    r = _Reader(data)
    r.text(b"RIFF")
    r.value("I")
    r.text(b"WAVE")
    found = r.take(4)
    while found != b"fmt ":
        if found not in _SKIPPED:
            raise bad(f"Unexpected field {_found(found)}")
        size = r.value("I")
        r.take(size)
        found = r.take(4)
    fmt_size = r.value("I")
    if fmt_size not in (16, 18):
        raise bad(f"Bad format chunk size for WAV: Expected 16 or 18, but got{fmt_size}")
    fmt_tag = r.value("H")
    if fmt_tag != 1:
        raise bad(f"Bad audio format for WAV: Expected 1 (PCM), but got{fmt_tag}")
    channels = r.value("H")
    if channels < 1:
        raise bad(f"Bad number of channels for WAV: Expected at least 1, but got {channels}")
    rate = r.value("I")
    per_second = r.value("I")
    per_sample = r.value("H")
    bits = r.value("H")
    if bits != 16:
        raise bad(f"Can only read 16-bit WAV files, but received {bits}")
    want_per_sample = (bits * channels + 7) // 8
    if per_sample != want_per_sample:
        raise bad(f"Bad bytes per sample in WAV header: Expected {want_per_sample} but got {per_sample}")
    if per_second != per_sample * rate:
        raise bad(f"Bad bytes per second in WAV header: Expected {per_sample * rate} but got {per_second} "
                  f"(sample_rate={rate}, bytes_per_sample={per_sample})")
    if fmt_size == 18:
        r.pos += 2
    samples, count = None, 0
    while r.pos < len(r.data):
        chunk = r.take(4)
        size = r.value("I")
        if size > 2 ** 31 - 1:
            raise bad(f"WAV data chunk '{_found(chunk)}' is too large: {size} bytes, but the limit is "
                      f"{2 ** 31 - 1}")
        if chunk == b"data":
            if samples is not None:
                raise bad("More than one data chunk found in WAV")
            count = size // per_sample
            n = count * channels
            raw = r.take(2 * n)
            samples = np.frombuffer(raw, "<i2").astype(np.float32) * np.float32(1.0 / 32768)
        else:
            r.pos += size
    if samples is None:
        raise bad("No data chunk found in WAV")
    return samples, count, channels, rate


def _decode(contents: np.ndarray, desired_channels: int = -1, desired_samples: int = -1) -> tuple:
    op = "DecodeWav"
    if contents.ndim != 0:
        raise _bad(op, f"contents must be scalar, got shape [{','.join(str(d) for d in contents.shape)}]")
    samples, n, channels, rate = _lin16(as_bytes(contents[()]))
    decoded = samples.reshape(n, channels)
    out_n = n if desired_samples == -1 else desired_samples
    out_c = channels if desired_channels == -1 else desired_channels
    out = np.zeros((out_n, out_c), np.float32)
    if out_c:
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
no_tf_gradient("EncodeWav")   # (TF 2.21 registers none: LookupError on a tape; seed 3020261201)
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
    # (TF's shape function: [desired_samples, desired_channels], each unknown where -1: a graph's static shape, and a
    # tf.data function's element spec when its probes cannot run it)
    static_shapes.declare(audio, [None if desired_samples == -1 else int(desired_samples),
                                  None if desired_channels == -1 else int(desired_channels)])
    return namedtuple("DecodeWav", ["audio", "sample_rate"])(audio, rate)
