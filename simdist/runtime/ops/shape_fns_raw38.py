"""Shape functions of the raw ops the thirty-eighth session added (tensorflow/core/ops/image_ops.cc, checkpoint_ops.cc, TF 2.21), on
infer_ctx's InferenceContext (clause function.trace-time-errors): the ranks they refuse as a tf.function adds the
node (ValueError), observed on TF 2.21."""

from __future__ import annotations

from simdist.runtime.ops.infer_ctx import Ctx, register

__all__: list[str] = []


@register("EncodeJpegVariableQuality")
def _encode_jpeg_variable_quality(c: Ctx) -> None:
    """images of rank 3 ("Shape must be rank 3 but is rank 2"); quality's rank is the kernel's."""
    c.with_rank(c.input("images"), 3)


@register("GenerateVocabRemapping")
def _generate_vocab_remapping(c: Ctx) -> None:
    """checkpoint_ops.cc: both file names scalars ("Shape must be rank 0 but is rank 1")."""
    c.with_rank(c.input("new_vocab_file"), 0)
    c.with_rank(c.input("old_vocab_file"), 0)
