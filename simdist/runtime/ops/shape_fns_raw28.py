"""Shape functions of raw ops bound in session 28 (raw_legacy.py, the rawops28 forms), on infer_ctx's
InferenceContext (clause function.trace-time-errors): the checks TF 2.21's shape functions make as a
tf.function adds the node, a ValueError at trace where simdist's kernels refused the call only when the
graph ran. Each was observed on TF 2.21 with inputs of a wrong rank (fuzz20 sig seed 2920261203:
#27 Bincount, #28 DecodePng (now shape_fns_raw31's, with the channels attr), #49 DrawBoundingBoxes, #56 StringSplit, #61 SegmentMaxV2, #65
MaxPoolGradGradWithArgmax, #85 CudnnRNN, #86 DecodeJpeg, #88 SparseSegmentSqrtNGradV2, #89 UniqueV2,
#90 SparseFillEmptyRowsGrad, #105 StringSplitV2, #108 StringFormat, #135 StatelessTruncatedNormal,
#170 SpaceToBatch; #4 StringJoin)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.ops.infer_ctx import Ctx, register
from simdist.runtime.ops.shape_fns_nn import _max_pool

__all__: list[str] = []


@register("DecodeAndCropJpeg")
def _decode_and_crop(c: Ctx) -> None:
    c.with_rank(c.input("contents"), 0)
    c.with_rank(c.input("crop_window"), 1)


@register("StringSplit")
def _string_split(c: Ctx) -> None:
    c.with_rank(c.input("input"), 1)
    c.with_rank(c.input("delimiter"), 0)


@register("StringSplitV2")
def _string_split_v2(c: Ctx) -> None:
    c.with_rank(c.input("input"), 1)
    c.with_rank(c.input("sep"), 0)


@register("Bincount")
def _bincount(c: Ctx) -> None:
    c.with_rank(c.input("size"), 0)


@register("DrawBoundingBoxes")
def _draw_boxes(c: Ctx) -> None:
    """image_ops.cc's DrawBoundingBoxes shape function: images of rank 4 whose known depth is 1, 3 or 4, boxes
    of rank 3 whose last dimension is 4 (the depth and the 4 were missing: fz35a, sig seed 3520261207 #23;
    DrawBoundingBoxesV2's is UnchangedShapeWithRankAtLeast(3) alone)."""
    images = c.with_rank(c.input("images"), 4)
    depth = c.dim(images, 3)
    if depth is not None and depth not in (1, 3, 4):
        c.fail("Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)")
    boxes = c.with_rank(c.input("boxes"), 3)
    c.with_value(c.dim(boxes, 2), 4)


@register("SegmentSumV2", "SegmentMaxV2", "SegmentMinV2", "SegmentProdV2")
def _segment_v2(c: Ctx) -> None:
    """SegmentReductionWithNumSegmentsShapeFn: num_segments a scalar, then MergePrefix(data, segment_ids)
    (data of rank >= segment_ids' rank, the leading dimensions equal); segment_ids of any rank, a scalar
    too (fz31a: seed 3120261201 #42, where the kernel, not the shape function, wants a vector)."""
    c.with_rank(c.input("num_segments"), 0)
    ids = c.input("segment_ids")
    if ids is not None:   # (MergePrefix(data, segment_ids): fuzz20 sig seed 3020261202 #37)
        c.merge_prefix(c.input("data"), ids)
    n = c.value("num_segments")   # (MakeDimForScalarInput; sig seed 2920261203 #142)
    if n is not None and int(n) < 0:
        c.fail(f"Dimension size, given by scalar input 2, must be non-negative but is {int(n)}")


@register("MaxPoolGradGradWithArgmax")
def _max_pool_grad_grad_with_argmax(c: Ctx) -> None:
    """MaxPoolShape of input, then Merge(input, grad), Merge(argmax, the pool's output)."""
    out = _max_pool(c, c.with_rank(c.input("input"), 4), "MaxPoolGradGradWithArgmax")
    c.merge(c.input("input"), c.input("grad"))
    c.merge(c.input("argmax"), out)


@register("SparseSegmentMeanGradV2", "SparseSegmentSqrtNGradV2", "SparseSegmentSumGradV2")
def _sparse_segment_grad_v2(c: Ctx) -> None:
    """grad of rank >= 1, indices a vector merged with segment_ids, dense_output_dim0 a scalar."""
    c.with_rank_at_least(c.input("grad"), 1)
    i = c.with_rank(c.input("indices"), 1)
    c.merge(c.input("segment_ids"), i)
    c.with_rank(c.input("dense_output_dim0"), 0)


@register("SparseFillEmptyRowsGrad")
def _sparse_fill_grad(c: Ctx) -> None:
    c.with_rank(c.input("reverse_index_map"), 1)
    c.with_rank(c.input("grad_values"), 1)


@register("UniqueV2", "UniqueWithCountsV2")
def _unique_v2(c: Ctx) -> None:
    """UniqueIdxShapeFn (array_ops.cc): nothing checked unless the graph knows axis's value and x's rank
    (fuzz20 sig seed 3220261212 #99: a constant scalar axis of an input_signature x of unknown rank traces);
    then axis a vector, no element: x a vector, one element: in [-rank, rank) (sig seed 3020261202 #5)."""
    x, axis, v = c.input("x"), c.input("axis"), c.value("axis")
    if v is None or x is None:
        return
    if len(axis) != 1:
        c.fail("axis expects a 1D vector.")
    flat = np.asarray(v).reshape(-1)
    if flat.size == 0:
        if len(x) != 1:
            c.fail("x expects a 1D vector.")
    elif flat.size == 1:
        a, r = int(flat[0]), len(x)
        if a < -r or a >= r:
            c.fail(f"axis expects to be in the range [{-r}, {r})")
    else:
        c.fail("axis does not support input tensors larger than 1 elements.")


@register("StringJoin")
def _string_join(c: Ctx) -> None:
    """The inputs of rank >= 1 merged with each other (scalars broadcast)."""
    out = None
    for s in c.input("inputs"):
        if s is not None and len(s) == 0:
            continue
        out = s if out is None else c.merge(out, s)


@register("StringFormat")
def _string_format(c: Ctx) -> None:
    """The template's placeholders (absl::StrSplit's pieces less one) as many as the inputs."""
    template, placeholder = c.attr("template", "%s"), c.attr("placeholder", "%s")
    pieces = template.split(placeholder) if placeholder else list(template) or [""]
    n = len(c.input("inputs"))
    if len(pieces) - 1 != n:
        c.fail(f"num placeholders in template and num inputs must match: {len(pieces) - 1} vs. {n}")


@register("CudnnRNN", "CudnnRNNV2")
def _cudnn_rnn(c: Ctx) -> None:
    """input and input_h of rank 3, params a vector (input_c unchecked; fz30a, observed on TF 2.21)."""
    c.with_rank(c.input("input"), 3)
    c.with_rank(c.input("input_h"), 3)
    c.with_rank(c.input("params"), 1)


@register("StatelessTruncatedNormal", "StatelessRandomNormal", "StatelessRandomUniform", "StatelessRandomUniformFullInt",
          "StatelessRandomGammaV2", "StatelessRandomPoisson", "StatelessRandomBinomial")
def _stateless_v1(c: Ctx) -> None:
    """StatelessShape (stateless_random_ops.cc): the seed a vector of 2 first (fuzz20 sig seed 2920261205
    #194), then the output shape from the shape tensor (rank 1, no value below -1; StatelessRandomPoisson's
    shape [-2] at trace, fz32a sig seed 3220261202 #142, and StatelessRandomBinomial's, which
    stateless_random_ops.cc registers with the same function)."""
    seed = c.with_rank(c.input("seed"), 1)
    c.with_value(seed[0], 2)
    c.shape_from_tensor("shape")


@register("MaxPoolGradV2")
def _max_pool_grad_v2(c: Ctx) -> None:
    """UnchangedShapeWithRank(c, 4): orig_input of rank 4 (sig seed 2920261203 #66, #141; MaxPoolGradGradV2 and
    MaxPoolV2 run MaxPoolV2Shape: shape_fns_nn.py)."""
    c.with_rank(c.input("orig_input"), 4)


@register("SparseConcat")
def _sparse_concat(c: Ctx) -> None:
    """Each part's indices a matrix, values and shape vectors (sig seed 2920261203 #60); then, part by part,
    Merge(indices' rows, values' length), the indices' columns merged across the parts and the shape vectors
    merged with each other (sparse_ops.cc: indices [3, 3] beside 1 value is "Dimensions must be equal, but are 3
    and 1", [1, 1] beside [1, 2] indices "... 1 and 2", shapes [1] beside [2] "Dimension 0 in both shapes must be
    equal"; fz20 seed 4420261201 #38)."""
    cols: int | None = None
    out_shape: list | None = None
    for ind, val, shp in zip(c.input("indices"), c.input("values"), c.input("shapes")):
        ind = c.with_rank(ind, 2)
        val = c.with_rank(val, 1)
        shp = c.with_rank(shp, 1)
        c.merge_dim(ind[0], val[0])
        cols = c.merge_dim(cols, ind[1])
        out_shape = c.merge(out_shape, shp)


# (fresh sig seed 2920261205: #2 LinSpace, #7 CudnnRNNV2, #15 MaxPoolV2, #19 StringNGrams, #31, #32 FakeQuant,
# #48 AllToAll, #65 StatelessMultinomial, #87 StatelessTruncatedNormalV2, #96 IRFFT, #154 SparseAddGrad,
# #173 StatelessRandomGetKeyCounter, #177 StatelessRandomUniformInt, #192 BatchToSpace)
def _rfft(rank: int) -> Any:
    """RFFTShape (spectral_ops.cc): the input of rank >= `rank`, fft_length a vector of `rank` (fuzz20 seed
    3020261201 #167, #177)."""
    def fn(c: Ctx) -> None:
        c.with_rank_at_least(c.input("input"), rank)
        n = c.with_rank(c.input("fft_length"), 1)
        c.with_value(n[0], rank)
    return fn


for _r, _names in ((1, ("RFFT", "IRFFT")), (2, ("RFFT2D", "IRFFT2D")), (3, ("RFFT3D", "IRFFT3D"))):
    register(*_names)(_rfft(_r))


@register("LinSpace")
def _lin_space(c: Ctx) -> None:
    """start, stop and num scalars (TF's text adds "for 'start'")."""
    for n in ("start", "stop", "num"):
        c.with_rank(c.input(n), 0)


@register("StringNGrams")
def _string_ngrams(c: Ctx) -> None:
    c.with_rank(c.input("data"), 1)
    c.with_rank(c.input("data_splits"), 1)   # (fz30a: seed 3020261207 #118)


@register("FakeQuantWithMinMaxVarsPerChannel")
def _fake_quant_per_channel(c: Ctx) -> None:
    """array_ops.cc: inputs of rank >= 1, min and max vectors, the inputs' last dimension merged with
    min's and max's length, then theirs (fz30a: seed 3020261201 #94)."""
    x = c.with_rank_at_least(c.input("inputs"), 1)
    mn, mx = c.with_rank(c.input("min"), 1), c.with_rank(c.input("max"), 1)
    last = None if x is None else x[-1]
    c.merge_dim(last, mn[0])
    c.merge_dim(last, mx[0])
    c.merge_dim(mn[0], mx[0])


@register("FakeQuantWithMinMaxVarsGradient")
def _fake_quant_gradient(c: Ctx) -> None:
    """Merge(gradients, inputs); min a scalar merged with max (fuzz20 seeds 2920261205 #31, 3020261201 #94)."""
    c.merge(c.input("gradients"), c.input("inputs"))
    c.merge(c.with_rank(c.input("min"), 0), c.input("max"))


@register("FakeQuantWithMinMaxVarsPerChannelGradient")
def _fake_quant_per_channel_gradient(c: Ctx) -> None:
    """gradients of rank 1 to 4 merged with inputs; min a vector merged with [the last dimension], max
    merged with it."""
    g = c.with_rank_at_most(c.with_rank_at_least(c.input("gradients"), 1), 4)
    g = c.merge(g, c.input("inputs"))
    mm = c.merge(c.with_rank(c.input("min"), 1), [None if g is None else g[-1]])
    c.merge(c.input("max"), mm)


@register("FakeQuantWithMinMaxVars")
def _fake_quant_vars(c: Ctx) -> None:
    """UnchangedShape; min and max scalars."""
    c.with_rank(c.input("min"), 0)
    c.with_rank(c.input("max"), 0)


@register("StatelessMultinomial")
def _stateless_multinomial(c: Ctx) -> None:
    """logits a matrix, num_samples a scalar, seed a vector of 2 (fz31a: function seed 3120261210 #54, a scalar
    int8 logits refused here before the kernel lookup)."""
    c.with_rank(c.input("logits"), 2)
    c.with_rank(c.input("num_samples"), 0)
    seed = c.with_rank(c.input("seed"), 1)
    c.with_value(seed[0], 2)


@register("StatelessTruncatedNormalV2", "StatelessRandomNormalV2", "StatelessRandomUniformV2",
          "StatelessRandomUniformFullIntV2", "StatelessRandomGammaV3")
def _stateless_v2(c: Ctx) -> None:
    """StatelessShapeV2 (stateless_random_ops_v2.cc): key and counter vectors, alg a scalar, key of
    RNG_KEY_SIZE (1), then the output shape from the shape tensor (fuzz20 seed 3020261201 #157)."""
    key = c.with_rank(c.input("key"), 1)
    c.with_rank(c.input("counter"), 1)
    c.with_rank(c.input("alg"), 0)
    c.with_value(key[0], 1)
    c.shape_from_tensor("shape")


@register("SparseAddGrad")
def _sparse_add_grad(c: Ctx) -> None:
    """a_indices and b_indices matrices (sum_indices and the gradient are the kernel's; fz30a)."""
    c.with_rank(c.input("a_indices"), 2)
    c.with_rank(c.input("b_indices"), 2)


@register("StatelessRandomGetKeyCounter", "StatelessRandomGetKeyCounterAlg")
def _get_key_counter(c: Ctx) -> None:
    """The seed a vector of 2 (both ops' shape functions in stateless_random_ops_v2.cc; the Alg one at
    trace: fz32a, function seed 3220261205 #6)."""
    s = c.with_rank(c.input("seed"), 1)
    c.with_value(s[0], 2)


@register("StatelessRandomUniformInt", "StatelessRandomUniformIntV2")
def _stateless_uniform_int(c: Ctx) -> None:
    """minval and maxval scalars, in TF's own text; then StatelessShape (V1) or StatelessShapeV2."""
    from simdist.runtime.ops.infer_ctx import dims_text
    for n in ("minval", "maxval"):
        s = c.input(n)
        if s is not None and len(s) != 0:
            c.fail(f"{n} must be a scalar; got a tensor of shape {dims_text(s)}")
    (_stateless_v2 if c.op.endswith("V2") else _stateless_v1)(c)
