"""`tf.audio`: decode_wav and encode_wav (simdist/runtime/ops/audio_codecs.py, clause io.audio-codecs)."""

from simdist.runtime.ops.audio_codecs import decode_wav, encode_wav  # noqa: F401
