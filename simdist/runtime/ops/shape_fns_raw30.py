"""Shape functions of raw ops that the twentieth fuzzer's session-30 campaigns found without one (fuzz20
seed 3020261201: #4, #122 EncodeWav, #71, #153 GenerateBoundingBoxProposals, #115 UnicodeEncode, #174
EncodePng, #197 Fingerprint; sig seed 2920261205 #68, #84 Conv2DBackpropFilterV2/InputV2; sig seed 3020261202:
#23 IRFFTND, #40 DecodeWav, #60 CudnnRNNParamsSize, #147 ParallelConcat), on infer_ctx's
InferenceContext (clause function.trace-time-errors): TF 2.21 runs them as a tf.function adds the node, a
ValueError at trace where simdist's kernels refused the call only when the graph ran. Each transcribes
the op's SetShapeFn (audio_ops.cc, image_ops.cc, string_ops.cc, array_ops.cc, nn_ops.cc) and was observed
with every input at a wrong rank (tests/ops/test_fz30a_edges_tf.py)."""

from __future__ import annotations

from simdist.runtime.ops.infer_ctx import Ctx, register

__all__: list[str] = []


@register("EncodeWav")
def _encode_wav(c: Ctx) -> None:
    c.with_rank(c.input("audio"), 2)
    c.with_rank(c.input("sample_rate"), 0)


@register("EncodePng")
def _encode_png(c: Ctx) -> None:
    c.with_rank_at_least(c.input("image"), 3)


@register("EncodeJpeg")
def _encode_jpeg(c: Ctx) -> None:
    c.with_rank(c.input("image"), 3)


@register("Fingerprint")
def _fingerprint(c: Ctx) -> None:
    """data of rank >= 1, method a scalar; a method the graph knows must be "farmhash64"."""
    c.with_rank_at_least(c.input("data"), 1)
    c.with_rank(c.input("method"), 0)
    m = c.value("method")
    if m is not None:
        v = m.item() if hasattr(m, "item") else m
        text = v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
        if text != "farmhash64":
            c.fail(f"Unsupported method: {text}")


@register("UnicodeEncode")
def _unicode_encode(c: Ctx) -> None:
    """input_values and input_splits vectors; the output's length, splits' length less one, not negative."""
    c.with_rank(c.input("input_values"), 1)
    splits = c.with_rank(c.input("input_splits"), 1)
    if splits[0] is not None and splits[0] < 1:
        c.fail(f"Negative dimension size caused by subtracting 1 from {splits[0]}")


@register("GenerateBoundingBoxProposals")
def _generate_proposals(c: Ctx) -> None:
    """scores and bbox_deltas of rank 4, image_info 2, anchors 3; the thresholds scalars."""
    for name, rank in (("scores", 4), ("bbox_deltas", 4), ("image_info", 2), ("anchors", 3), ("nms_threshold", 0),
                       ("pre_nms_topn", 0), ("min_size", 0)):
        c.with_rank(c.input(name), rank)


@register("Conv2DBackpropInputV2")
def _conv2d_backprop_input_v2(c: Ctx) -> None:
    """UnchangedShapeWithRank(input, 4)."""
    c.with_rank(c.input("input"), 4)


@register("Conv2DBackpropFilterV2")
def _conv2d_backprop_filter_v2(c: Ctx) -> None:
    """UnchangedShapeWithRank(filter, 4)."""
    c.with_rank(c.input("filter"), 4)


@register("CudnnRNNV3")
def _cudnn_rnn_v3(c: Ctx) -> None:
    """input and input_h of rank 3, input_c too for rnn_mode "lstm", params and sequence_lengths vectors."""
    c.with_rank(c.input("input"), 3)
    c.with_rank(c.input("input_h"), 3)
    if c.attr("rnn_mode", "lstm") == "lstm":
        c.with_rank(c.input("input_c"), 3)
    c.with_rank(c.input("params"), 1)
    c.with_rank(c.input("sequence_lengths"), 1)


@register("FFTND", "IFFTND", "RFFTND", "IRFFTND")
def _fftnd(c: Ctx) -> None:
    c.with_rank_at_least(c.input("input"), 1)


@register("DecodeWav")
def _decode_wav(c: Ctx) -> None:
    """contents a scalar; desired_channels and desired_samples -1 or not negative."""
    c.with_rank(c.input("contents"), 0)
    for attr, what in (("desired_channels", "channels"), ("desired_samples", "samples")):
        v = c.attr(attr, -1)
        if v != -1 and v < 0:
            c.fail(f"{what} must be non-negative, got {v}")


@register("CudnnRNNParamsSize")
def _cudnn_params_size(c: Ctx) -> None:
    for name in ("num_layers", "num_units", "input_size"):
        c.with_rank(c.input(name), 0)


@register("ParallelConcat")
def _parallel_concat(c: Ctx) -> None:
    """The shape attr fully defined, its first dimension replaced by 1 (ReplaceDim: a scalar shape is out of
    range); each value fully defined, of rank >= 1, first dimension 1, merged with it."""
    shape = c.attr("shape")
    dims = None if shape is None else _dims_of(shape)
    if dims is None or None in dims:
        c.fail("shape attr must be fully defined.")
    if not dims:
        c.fail("Out of range dim_index 0 for shape with 0 dimensions")
    cur = [1] + list(dims[1:])
    for i, s in enumerate(c.input("values")):
        if s is None or None in s:
            c.fail("All input shapes must be fully defined.")
        if len(s) < 1:
            c.fail(f"The rank of all input shapes must be greater than 0, but input {i} had rank {len(s)}.")
        if s[0] != 1:
            c.fail("Size of first dimension must be 1.")
        cur = c.merge(s, cur)


def _dims_of(shape: object) -> list | None:
    """A shape attr's dimensions (None: an unknown rank; a dimension None: unknown)."""
    if hasattr(shape, "as_list"):
        if getattr(shape, "rank", 0) is None:
            return None
        return list(shape.as_list())
    if isinstance(shape, (list, tuple)):
        return [None if d is None or (isinstance(d, int) and d < 0) else int(d) for d in shape]
    return None


@register("SparseSliceGrad")
def _sparse_slice_grad(c: Ctx) -> None:
    """input_indices a matrix (the output a vector of its rows; fuzz20 seed 3020261201 #15)."""
    c.with_rank(c.input("input_indices"), 2)


@register("ApproximateEqual")
def _approximate_equal(c: Ctx) -> None:
    """Merge(x, y): equal shapes, no broadcasting (fuzz20 seed 3020261203 #80)."""
    c.merge(c.input("x"), c.input("y"))


@register("StatelessParameterizedTruncatedNormal")
def _stateless_parameterized_truncated_normal(c: Ctx) -> None:
    """stateless_random_ops.cc: the seed a vector of 2; means, stddevs, minvals and maxvals broadcast (in that
    order); then the output shape from the shape tensor (fuzz20 sig seed 3020261205 #177)."""
    seed = c.with_rank(c.input("seed"), 1)
    c.with_value(seed[0], 2)
    b = c.broadcast(c.input("means"), c.input("stddevs"))
    b = c.broadcast(c.input("minvals"), b)
    c.broadcast(c.input("maxvals"), b)
    c.shape_from_tensor("shape")


@register("BatchMatMul")
def _batch_matmul_v1(c: Ctx) -> None:
    """BatchMatMulShape (V1): both of rank >= 2, the batch dimensions merged (no broadcasting), then the
    inner dimensions (fuzz20 sig seeds 3020261202 #27, 3020261205 #77: an input_signature's [None])."""
    a = c.with_rank_at_least(c.input("x"), 2)
    b = c.with_rank_at_least(c.input("y"), 2)
    if a is None or b is None:
        return
    c.merge(a[:-2], b[:-2])
    c.merge_dim(a[-2] if c.attr("adj_x") else a[-1], b[-1] if c.attr("adj_y") else b[-2])


@register("CudnnRNNParamsToCanonical", "CudnnRNNParamsToCanonicalV2")
def _cudnn_params_to_canonical(c: Ctx) -> None:
    """params a vector (fuzz20 seed 3020261207 #38, #173)."""
    c.with_rank(c.input("params"), 1)


@register("RegexReplace")
def _regex_replace(c: Ctx) -> None:
    """pattern and rewrite scalars (fuzz20 seed 3020261207 #178)."""
    c.with_rank(c.input("pattern"), 0)
    c.with_rank(c.input("rewrite"), 0)


@register("RegexFullMatch")
def _regex_full_match(c: Ctx) -> None:
    c.with_rank(c.input("pattern"), 0)


@register("MatrixDiagPartV2")
def _matrix_diag_part_v2(c: Ctx) -> None:
    """MatrixDiagPartV2ShapeFn: input of rank >= 2, k of rank <= 1, padding_value a scalar, before the
    kernel lookup (a string input; fuzz20 seed 3020261207 #9)."""
    c.with_rank_at_least(c.input("input"), 2)
    c.with_rank_at_most(c.input("k"), 1)
    c.with_rank(c.input("padding_value"), 0)


@register("NonMaxSuppression")
def _non_max_suppression_v1(c: Ctx) -> None:
    """boxes a matrix, scores a vector, max_output_size a scalar; boxes of 4 columns, as many rows as
    scores (fuzz20 seed 3020261207 #62)."""
    boxes = c.with_rank(c.input("boxes"), 2)
    scores = c.with_rank(c.input("scores"), 1)
    c.with_rank(c.input("max_output_size"), 0)
    c.with_value(boxes[1], 4)
    c.merge_dim(boxes[0], scores[0])


@register("UnsortedSegmentJoin")
def _unsorted_segment_join(c: Ctx) -> None:
    """num_segments a scalar; MergePrefix(inputs, segment_ids); a known count not negative (fuzz20 seed
    3020261208 #75)."""
    c.with_rank(c.input("num_segments"), 0)
    ids = c.input("segment_ids")
    if ids is None:
        return
    c.merge_prefix(c.input("inputs"), ids)
    n = c.value("num_segments")
    if n is not None and int(n) < 0:
        c.fail(f"Dimension size, given by scalar input 2, must be non-negative but is {int(n)}")


@register("ScaleAndTranslate")
def _scale_and_translate(c: Ctx) -> None:
    """images of rank 4, then SetOutputToSizedImage: size a vector of 2 (before the kernel's kernel_type check;
    fuzz20 seed 3020261201 #23, whose ValueError simdist matched only through Python's unpacking)."""
    c.with_rank(c.input("images"), 4)
    size = c.with_rank(c.input("size"), 1)
    c.with_value(size[0], 2)


@register("NonMaxSuppressionV2", "NonMaxSuppressionV3", "NonMaxSuppressionV4", "NonMaxSuppressionV5")
def _nms_shape_fn(c: Ctx) -> None:
    """NMSShapeFn (image_ops.cc): boxes a matrix, scores a vector, max_output_size, iou_threshold (and from V3
    score_threshold, V5 soft_nms_sigma) scalars, in that order; then boxes' rows merged with the scores and their
    4 columns (fz34a, sig seed 3420261219 #153: ranks the graph knows, at trace)."""
    boxes = c.with_rank(c.input("boxes"), 2)
    scores = c.with_rank(c.input("scores"), 1)
    scalars = ["max_output_size", "iou_threshold"] + (["score_threshold"] if c.op != "NonMaxSuppressionV2" else []) + \
        (["soft_nms_sigma"] if c.op == "NonMaxSuppressionV5" else [])
    for name in scalars:
        c.with_rank(c.input(name), 0)
    c.merge_dim(boxes[0], scores[0])
    c.with_value(boxes[1], 4)
