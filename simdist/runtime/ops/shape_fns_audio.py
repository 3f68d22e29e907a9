"""Shape functions of the audio feature raw ops (tensorflow/core/ops/audio_ops.cc SpectrogramShapeFn, MfccShapeFn),
on infer_ctx's InferenceContext (clauses ops.audio-features, function.trace-time-errors): the rank checks a
tf.function makes as it adds the node (a ValueError at trace)."""

from __future__ import annotations

from simdist.runtime.ops.infer_ctx import Ctx, register

__all__: list[str] = []


@register("AudioSpectrogram")
def _audio_spectrogram(c: Ctx) -> None:
    """input of rank 2, then the window of more than one sample and the stride positive (TF 2.21's texts,
    observed)."""
    c.with_rank(c.input("input"), 2)
    window, stride = c.attr("window_size"), c.attr("stride")
    if isinstance(window, int) and window <= 1:
        c.fail(f"window size must be > 1, got {window}")
    if isinstance(stride, int) and stride <= 0:
        c.fail(f"stride must be strictly positive, got {stride}")


@register("Mfcc")
def _mfcc(c: Ctx) -> None:
    """spectrogram of rank 3, sample_rate a scalar."""
    c.with_rank(c.input("spectrogram"), 3)
    c.with_rank(c.input("sample_rate"), 0)
