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


@register("FusedPadConv2D", "FusedResizeAndPadConv2D")
def _fused_conv(c: Ctx) -> None:
    """nn_ops.cc CommonFusedConvCalculations (observed on TF 2.21): input of rank 4; size a vector of 2 (the
    resize); paddings a matrix of 2 columns whose rows are the input's rank ("Shape must be rank 3 but is rank 4");
    filter of rank 4; its depth the input's ("Dimensions must be equal, but are 1 and 2"); with paddings (and size)
    known, a VALID window no larger than the padded input ("Negative dimension size caused by subtracting 5 from
    4")."""
    x = c.with_rank(c.input("input"), 4)
    hw = [c.dim(x, 1), c.dim(x, 2)]
    if c.op == "FusedResizeAndPadConv2D":
        size = c.with_rank(c.input("size"), 1)
        c.with_value(c.dim(size, 0), 2)
        v = c.value("size")
        hw = [int(d) for d in v.reshape(-1)] if v is not None else [None, None]
    p = c.with_rank(c.input("paddings"), 2)
    c.with_value(c.dim(p, 1), 2)
    if c.dim(p, 0) is not None:
        c.with_rank(x, c.dim(p, 0))
    pv = c.value("paddings")
    f = c.with_rank(c.input("filter"), 4)
    c.merge_dim(c.dim(x, 3), c.dim(f, 2))
    if pv is not None and c.attr("padding") == "VALID":
        for i in (0, 1):
            if hw[i] is None or c.dim(f, i) is None:
                continue
            padded = hw[i] + int(pv[i + 1, 0]) + int(pv[i + 1, 1])
            if padded < c.dim(f, i):
                c.fail(f"Negative dimension size caused by subtracting {c.dim(f, i)} from {padded}")
