"""AudioSummaryV2 (raw op only; tensorflow/core/kernels/summary_audio_op.cc SummaryAudioOp, lib/wav/wav_io.cc;
clause ops.raw-ops): a scalar string, a serialized tensorflow.Summary of up to max_outputs Values, each
{tag, audio: Summary.Audio {sample_rate, num_channels, length_frames, encoded_audio_string: a 16-bit PCM WAV,
content_type "audio/wav"}}, written as protobuf's C++ serializer writes it (fields in number order, proto3 zeros
omitted).

Compute, as TF 2.21 runs it (observed): tag a scalar ("Tag must be a scalar"), tensor of rank 2 or 3 ("Tensor must be
3-D or 2-D, got: [3]"; rank 2 is one channel), the sample rate's one value above 0 ("sample_rate must be > 0", NaN
too); Values for the first min(max_outputs, batch) entries, tagged "<tag>/audio/<i>" (max_outputs above 1) or
"<tag>/audio"; each entry's WAV at lrintf(sample_rate) (halves to even; 0 read as 1) by EncodeAudioAsS16LEWav, whose
checks come in its order: no samples with frames ("audio is null": a tensor of no elements but frames), the rate
below 2^32 ("sample_rate must be in (0, 2^32), got: 4294967296"), channels in (0, 2^16) ("num_channels must be in (0,
2^16), got: 0"). A batch of none is the empty Summary (b""). A sample_rate tensor of more than one element aborts TF's
process (a CHECK in Tensor::scalar); simdist raises InvalidArgumentError. AudioSummary (V1, sample_rate an attr) is
removed from TF 2.21's GraphDef (raw_legacy.py). TF declares it not differentiable (logging_ops.py)."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.args import dims_text, dtype_error
from simdist.runtime.ops.audio_codecs import s16le_wav
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, bytes_array, want_string
from simdist.runtime.proto_wire import key, length_delimited as _ld, varint

__all__ = ["AUDIO_SUMMARY_V2", "lrintf"]

_OP = "AudioSummaryV2"


def _bad(text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{{{{function_node __wrapped__{_OP}_device_/job:localhost/replica:0/"
                                                   f"task:0/device:CPU:0}}}} {text} [Op:{_OP}]")


def lrintf(x: np.float32) -> int:
    """C's lrintf under the default rounding (halves to even); a value beyond long's range, or not finite, is
    x86's LONG_MIN (the "integer indefinite" cvtss2si gives), read back as the size_t 2**63."""
    v = float(x)
    if not np.isfinite(v) or abs(v) >= 2.0 ** 63:
        return 1 << 63
    r = round(v)   # (Python's round: halves to even)
    return r if r >= 0 else r + (1 << 64)


def _int64(number: int, n: int) -> bytes:
    return key(number, 0) + varint(n) if n else b""


def _audio_value(tag: bytes, sample_rate: np.float32, channels: int, frames: int, wav: bytes) -> bytes:
    audio = (key(1, 5) + struct.pack("<f", sample_rate) + _int64(2, channels) + _int64(3, frames) + _ld(4, wav)
             + _ld(5, b"audio/wav"))
    return _ld(1, _ld(1, tag) + _ld(6, audio))


def _audio_summary(tag: np.ndarray, tensor: np.ndarray, sample_rate: np.ndarray, max_outputs: int = 3) -> np.ndarray:
    """SummaryAudioOp::Compute (V2: sample_rate an input)."""
    if tag.ndim != 0:
        raise _bad("Tag must be a scalar")
    if tensor.ndim not in (2, 3):
        raise _bad(f"Tensor must be 3-D or 2-D, got: {dims_text(tensor.shape)}")
    if sample_rate.size != 1:
        raise _bad(f"sample_rate must hold one value, got {dims_text(sample_rate.shape)} (TF 2.21's process aborts)")
    rate = np.float32(sample_rate.reshape(-1)[0])
    if not rate > 0:
        raise _bad("sample_rate must be > 0")
    batch, frames = tensor.shape[0], tensor.shape[1]
    channels = 1 if tensor.ndim == 2 else tensor.shape[2]
    base = as_bytes(tag[()])
    wav_rate = lrintf(rate) or 1
    body = b""
    for i in range(min(max_outputs, batch)):
        name = base + (f"/audio/{i}" if max_outputs > 1 else "/audio").encode()
        if tensor.size == 0 and frames > 0:
            raise _bad("audio is null")
        if wav_rate > 0xFFFFFFFF:
            raise _bad(f"sample_rate must be in (0, 2^32), got: {wav_rate}")
        if not 0 < channels <= 0xFFFF:
            raise _bad(f"num_channels must be in (0, 2^16), got: {channels}")
        wav = s16le_wav(tensor[i].reshape(frames, channels), wav_rate)
        body += _audio_value(name, rate, channels, frames, wav)
    return bytes_array((), [body])


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    want_string(_OP, dts, 0, "tag")
    for i in (1, 2):
        if dts[i] != dtypes.float32:
            raise dtype_error(_OP, i, dtypes.float32, dts[i])
    return dtypes.string


AUDIO_SUMMARY_V2 = register(_OP, _audio_summary, _rule, kind="io", fusion=lanes(
    "writes one summary protocol message: no stacked form written"), **STRING_COST)
NotDifferentiable(_OP)   # (logging_ops.py declares AudioSummaryV2 not differentiable: a tape's gradient is None)
