"""Shape functions of pooling, convolution and loss raw ops (tensorflow/core/ops/nn_ops.cc and
common_shape_fns.cc, TF 2.21), on infer_ctx's InferenceContext (clause function.trace-time-errors)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from simdist.runtime.ops.infer_ctx import Ctx, ShapeFnError, register

__all__: list[str] = []


def _windowed(c: Ctx, size: int | None, window: int, stride: int, padding: str, dilation: int = 1) -> int | None:
    """GetWindowedOutputSizeFromDimsV2: the stride and dilation checks, then VALID's Subtract
    ("Negative dimension size caused by subtracting W from N") or SAME's ceiling division."""
    if stride <= 0:
        c.fail(f"Stride must be > 0, but got {stride}")
    if dilation < 1:
        c.fail(f"Dilation rate must be >= 1, but got {dilation}")
    if size is None:
        return None
    if padding == "VALID":
        eff = (window - 1) * dilation + 1
        if size < eff:
            c.fail(f"Negative dimension size caused by subtracting {eff} from {size}")
        return (size - eff + stride) // stride
    return (size + stride - 1) // stride


def _attr_len(c: Ctx, name: str, what: str, n: int, op: str) -> list[int]:
    v = list(c.attr(name) or [])
    if len(v) != n:
        c.fail(f"{op} requires the {what} attribute to contain {n} values, but got: {len(v)}")
    return v


def _nhwc(fmt: str | None) -> tuple[int, int, int, int]:
    """Indices of N, H, W, C in a 4-d layout."""
    return (0, 2, 3, 1) if fmt == "NCHW" else (0, 1, 2, 3)


@register("AvgPool")
def _avg_pool(c: Ctx) -> None:
    """AvgPoolShape: input rank 4, strides and ksize of 4 values, windowed rows then cols."""
    x = c.with_rank(c.input("value"), 4)
    strides = _attr_len(c, "strides", "stride", 4, "AvgPool")
    ksize = _attr_len(c, "ksize", "ksize", 4, "AvgPool")
    n, h, w, ch = _nhwc(c.attr("data_format"))
    pad = c.attr("padding")
    _windowed(c, x[h], ksize[h], strides[h], pad)
    _windowed(c, x[w], ksize[w], strides[w], pad)


def _max_pool(c: Ctx, x: list, op: str = "MaxPool") -> list:
    """MaxPoolShape (MaxPoolShapeImpl without explicit padding): the output [batch, rows, cols,
    depth], each windowed."""
    strides = _attr_len(c, "strides", "stride", 4, op)
    ksize = _attr_len(c, "ksize", "ksize", 4, op)
    n, h, w, ch = _nhwc(c.attr("data_format"))
    pad = c.attr("padding")
    if pad == "EXPLICIT":   # (explicit paddings' sizes are not modelled)
        return [None] * 4
    rows = _windowed(c, x[h], ksize[h], strides[h], pad)
    cols = _windowed(c, x[w], ksize[w], strides[w], pad)
    depth = _windowed(c, x[ch], ksize[ch], strides[ch], pad)
    out = [None] * 4
    out[n], out[h], out[w], out[ch] = x[n], rows, cols, depth
    return out


@register("MaxPoolGradGrad")
def _max_pool_grad_grad(c: Ctx) -> None:
    """MaxPoolShape of orig_input, then Merge(orig_input, grad), Merge(orig_output, output)."""
    out = _max_pool(c, c.with_rank(c.input("orig_input"), 4))
    c.merge(c.input("orig_input"), c.input("grad"))
    c.merge(c.input("orig_output"), out)


def _max_pool_v2(c: Ctx, first: str) -> list | None:
    """MaxPoolV2Shape: `first` of rank 4 (5 for NCHW_VECT_C, whose layout is not modelled further),
    ksize then strides vectors of 4; with both values known, strides then ksize of 4 values and each
    dimension windowed as MaxPoolShape does (fz32a: sig seed 3220261201 #177, ksize of rank 3)."""
    fmt = c.attr("data_format")
    x = c.with_rank(c.input(first), 5 if fmt == "NCHW_VECT_C" else 4)
    for name in ("ksize", "strides"):
        c.with_value(c.with_rank(c.input(name), 1)[0], 4)
    ksize, strides = c.value("ksize"), c.value("strides")
    if ksize is None or strides is None or fmt == "NCHW_VECT_C":
        return None
    ksize, strides = [int(v) for v in np.ravel(ksize)], [int(v) for v in np.ravel(strides)]
    if len(strides) != 4:
        c.fail(f"MaxPool requires the stride attribute to contain 4 values, but got: {len(strides)}")
    if len(ksize) != 4:
        c.fail(f"MaxPool requires the ksize attribute to contain 4 values, but got: {len(ksize)}")
    n, h, w, ch = _nhwc(fmt)
    pad = c.attr("padding")
    rows = _windowed(c, x[h], ksize[h], strides[h], pad)
    cols = _windowed(c, x[w], ksize[w], strides[w], pad)
    depth = _windowed(c, x[ch], ksize[ch], strides[ch], pad)
    out: list = [None] * 4
    out[n], out[h], out[w], out[ch] = x[n], rows, cols, depth
    return out


@register("MaxPoolV2")
def _max_pool_v2_op(c: Ctx) -> None:
    _max_pool_v2(c, "input")


@register("MaxPoolGradGradV2")
def _max_pool_grad_grad_v2(c: Ctx) -> None:
    """MaxPoolV2Shape of orig_input, then Merge(orig_input, grad), Merge(orig_output, output)."""
    out = _max_pool_v2(c, "orig_input")
    c.merge(c.input("orig_input"), c.input("grad"))
    c.merge(c.input("orig_output"), out)


def _pool3d(c: Ctx, x: list) -> list:
    """Pool3DShape: strides and ksize of 5 values, planes/rows/cols windowed."""
    strides = _attr_len(c, "strides", "stride", 5, "Pool3D ops")
    ksize = _attr_len(c, "ksize", "ksize", 5, "Pool3D")
    pad = c.attr("padding")
    first = 2 if c.attr("data_format") == "NCDHW" else 1
    dims = [_windowed(c, x[first + i], ksize[first + i], strides[first + i], pad) for i in range(3)]
    if first == 1:
        return [x[0], *dims, x[4]]
    return [x[0], x[1], *dims]


@register("MaxPool3DGradGrad")
def _max_pool3d_grad_grad(c: Ctx) -> None:
    """Pool3DShape of orig_input, then Merge(orig_input, grad), Merge(orig_output, output)."""
    out = _pool3d(c, c.with_rank(c.input("orig_input"), 5))
    c.merge(c.input("orig_input"), c.input("grad"))
    c.merge(c.input("orig_output"), out)


@register("Conv3D")
def _conv3d(c: Ctx) -> None:
    """Conv3DShape: input and filter rank 5, dilations and strides of 5 values, the input depth
    a multiple of the filter's, then each spatial dimension windowed with its dilation."""
    x = c.with_rank(c.input("input"), 5)
    f = c.with_rank(c.input("filter"), 5)
    dil = _attr_len(c, "dilations", "dilation", 5, "Conv3D")
    strides = _attr_len(c, "strides", "stride", 5, "Conv3D")
    first = 2 if c.attr("data_format") == "NCDHW" else 1
    depth = x[1] if first == 2 else x[4]
    if depth is not None and f[3] is not None and f[3] != 0 and depth % f[3] != 0:
        c.fail(f"Depth of input ({depth}) is not a multiple of input depth of filter ({f[3]})")
    if f[4] is not None and f[3] is not None and depth is not None and f[3] != 0:
        groups = depth // f[3]
        if groups and f[4] % groups != 0:
            c.fail(f"Depth of output ({f[4]}) is not a multiple of the number of groups ({groups})")
    pad = c.attr("padding")
    for i in range(3):
        if f[i] is not None:
            _windowed(c, x[first + i], f[i], strides[first + i], pad, dil[first + i])


def _shape_input(c: Ctx, name: str, rank: int) -> None:
    """MakeShapeFromShapeTensor(input), then WithRank(that shape, rank)."""
    c.with_rank(c.shape_from_tensor(name), rank)


@register("AvgPoolGrad")
def _avg_pool_grad(c: Ctx) -> None:
    """AvgPoolGradShape: orig_input_shape's value (MakeShapeFromShapeTensor) of rank 4 (fuzz20 sig
    seed 2520261203 #88)."""
    _shape_input(c, "orig_input_shape", 4)


@register("Conv2DBackpropFilter")
def _conv2d_backprop_filter(c: Ctx) -> None:
    _shape_input(c, "filter_sizes", 4)


@register("Conv3DBackpropInputV2")
def _conv3d_backprop_input_v2(c: Ctx) -> None:
    _shape_input(c, "input_sizes", 5)


@register("Conv3DBackpropFilterV2")
def _conv3d_backprop_filter_v2(c: Ctx) -> None:
    _shape_input(c, "filter_sizes", 5)


@register("Dilation2D")
def _dilation2d(c: Ctx) -> None:
    """Dilation2D's shape function: input rank 4, filter rank 3, strides and rates of 4 values,
    the depths merged, then (known sizes only) the dilated filter windowed (the kernel's
    GetWindowedOutputSizeVerbose text)."""
    x = c.with_rank(c.input("input"), 4)
    f = c.with_rank(c.input("filter"), 3)
    strides = _attr_len(c, "strides", "stride", 4, "Dilation2D")
    rates = _attr_len(c, "rates", "rates", 4, "Dilation2D")
    c.merge_dim(x[3], f[2])
    if None in (x[1], x[2], f[0], f[1]):
        return
    pad = c.attr("padding")
    for size, k, s, r in ((x[1], f[0], strides[1], rates[1]), (x[2], f[1], strides[2], rates[2])):
        eff = k + (k - 1) * (r - 1)
        if s <= 0:
            c.fail(f"Stride must be > 0, but got {s}")
        if pad == "VALID":
            out = (size - eff + s) // s
            if out < 0:
                c.fail(f"Computed output size would be negative: {out} [input_size: {size}, "
                       f"effective_filter_size: {eff}, stride: {s}]")


@register("SoftmaxCrossEntropyWithLogits")
def _softmax_xent(c: Ctx) -> None:
    """Rank 2 and equal shapes, or else the broadcast of the two, which must be of rank 2: a broadcast
    of unknown rank (either input's rank unknown) fails too, "Shape must be broadcasted with rank 2,
    but is rank is unknown." (nn_ops.cc; features of unknown rank with labels [0], observed on TF
    2.21: fuzz20 sig seed 2720261203 #141)."""
    a, b = c.input("features"), c.input("labels")
    try:
        c.merge(c.with_rank(a, 2), b)
        return
    except ShapeFnError:   # (TF tries the broadcast next)
        pass
    out = c.broadcast(a, b)
    if out is None:
        c.fail("Shape must be broadcasted with rank 2, but is rank is unknown.")
    if len(out) != 2:
        c.fail(f"Shape must be broadcasted with rank 2, but is rank {len(out)}")


@register("DepthToSpace")
def _depth_to_space(c: Ctx) -> None:
    """DepthToSpace: input rank 4, the depth evenly divisible by block_size squared."""
    x = c.with_rank(c.input("input"), 4)
    bs = int(c.attr("block_size"))
    d = x[1] if c.attr("data_format") == "NCHW" else x[3]
    if d is not None and d % (bs * bs) != 0:
        c.fail(f"Dimension size must be evenly divisible by {bs * bs} but is {d}")


@register("SpaceToDepth")
def _space_to_depth(c: Ctx) -> None:
    """SpaceToDepth: input rank 4, height and width evenly divisible by block_size."""
    x = c.with_rank(c.input("input"), 4)
    bs = int(c.attr("block_size"))
    hw: Sequence = (x[2], x[3]) if c.attr("data_format") == "NCHW" else (x[1], x[2])
    for d in hw:
        if d is not None and d % bs != 0:
            c.fail(f"Dimension size must be evenly divisible by {bs} but is {d}")


def _unchanged_with_rank(c: Ctx, name: str, rank: int) -> None:
    """UnchangedShapeWithRank: input `name` of rank `rank`."""
    c.with_rank(c.input(name), rank)


@register("MaxPool3DGrad")
def _max_pool3d_grad(c: Ctx) -> None:
    _unchanged_with_rank(c, "orig_input", 5)


@register("MaxPoolGradWithArgmax")
def _max_pool_grad_with_argmax(c: Ctx) -> None:
    _unchanged_with_rank(c, "input", 4)


@register("FractionalMaxPoolGrad")
def _fractional_max_pool_grad(c: Ctx) -> None:
    _unchanged_with_rank(c, "orig_input", 4)


@register("MaxPoolWithArgmax")
def _max_pool_with_argmax(c: Ctx) -> None:
    """MaxPoolShape: input rank 4, the windowed output; TF 2.21's shape function checks the ksize
    entries positive first (ValueError "ksize must be a positive int32 value, got:0" for any
    input; observed, fz28b)."""
    for k in c.attr("ksize") or ():
        if int(k) <= 0:
            c.fail(f"ksize must be a positive int32 value, got:{int(k)}")
    _max_pool(c, c.with_rank(c.input("input"), 4), "MaxPoolWithArgmax")


@register("AvgPool3DGrad")
def _avg_pool3d_grad(c: Ctx) -> None:
    _shape_input(c, "orig_input_shape", 5)


@register("DepthwiseConv2dNative")
def _depthwise_conv2d(c: Ctx) -> None:
    """DepthwiseConv2DNativeShapeImpl (common_shape_fns.cc): input and filter of rank 4, strides then
    dilations of 4 values, the input's depth merged with the filter's third dimension ("Dimensions must
    be equal, but are 4 and 1", at trace where oneDNN's eager kernel aborts; fz32a, function seed
    3220261205 #198), CheckValidPadding, then rows and cols windowed with their dilations (EXPLICIT
    padding's sizes are not modelled)."""
    x = c.with_rank(c.input("input"), 4)
    f = c.with_rank(c.input("filter"), 4)
    strides = _attr_len(c, "strides", "stride", 4, "DepthwiseConv2D")
    dil = list(c.attr("dilations") or [1, 1, 1, 1])
    if len(dil) != 4:
        c.fail(f"DepthwiseConv2D requires the dilations attribute to contain 4 values, but got: {len(dil)}")
    n, h, w, ch = _nhwc(c.attr("data_format"))
    c.merge_dim(x[ch], f[2])
    pad = c.attr("padding")
    text = _valid_padding_text(pad, list(c.attr("explicit_paddings") or ()), c.attr("data_format"))
    if text is not None:
        c.fail(text)
    if pad == "EXPLICIT":
        return
    for i, k in ((h, f[0]), (w, f[1])):
        if k is not None:
            _windowed(c, x[i], k, strides[i], pad, dil[i])


@register("DepthwiseConv2dNativeBackpropFilter")
def _depthwise_backprop_filter(c: Ctx) -> None:
    _shape_input(c, "filter_sizes", 4)


@register("DepthwiseConv2dNativeBackpropInput")
def _depthwise_backprop_input(c: Ctx) -> None:
    _shape_input(c, "input_sizes", 4)


@register("CTCLoss", "CTCLossV2")
def _ctc_loss(c: Ctx) -> None:
    """CTCLoss: inputs rank 3, labels_indices a matrix, labels_values and sequence_length vectors;
    as many label values as indices rows, the batch of inputs and sequence_length merged."""
    x = c.with_rank(c.input("inputs"), 3)
    li = c.with_rank(c.input("labels_indices"), 2)
    lv = c.with_rank(c.input("labels_values"), 1)
    sl = c.with_rank(c.input("sequence_length"), 1)
    c.merge_dim(li[0], lv[0])
    c.merge_dim(x[1], sl[0])


@register("BiasAddGrad")
def _bias_add_grad(c: Ctx) -> None:
    """BiasAddGradShape: out_backprop of rank at least 3 with NCHW (where the kernel takes rank 2),
    else 2 (observed on TF 2.21; fz26a)."""
    c.with_rank_at_least(c.input("out_backprop"), 3 if c.attr("data_format") == "NCHW" else 2)


@register("Conv2D")
def _conv2d(c: Ctx) -> None:
    """Conv2DShapeImpl: input and filter rank 4, dilations then strides of 4 values, the filter's
    depth nonzero, the input depth a multiple of it and, where they differ, the groups nonzero and
    dividing the output depth (observed), then rows and cols windowed
    with their dilations (EXPLICIT padding's sizes are not modelled)."""
    x = c.with_rank(c.input("input"), 4)
    f = c.with_rank(c.input("filter"), 4)
    dil = _attr_len(c, "dilations", "dilation", 4, "Conv2D")
    strides = _attr_len(c, "strides", "stride", 4, f"Conv2D on data format {c.attr('data_format') or 'NHWC'}")
    n, h, w, ch = _nhwc(c.attr("data_format"))
    depth = x[ch]
    if depth is not None and f[2] is not None:
        if f[2] == 0:   # (TF 2.21's guards before its divisions; fz34a, function seed 3420261201 #191's probes)
            c.fail("Depth of filter must not be 0")
        if depth % f[2] != 0:
            c.fail(f"Depth of input ({depth}) is not a multiple of input depth of filter ({f[2]})")
        groups = depth // f[2]
        if depth != f[2] and f[3] is not None:
            if groups == 0:
                c.fail("Number of groups must not be 0")
            if f[3] % groups != 0:
                c.fail(f"Depth of output ({f[3]}) is not a multiple of the number of groups ({groups})")
    pad = c.attr("padding")
    if pad == "EXPLICIT":
        return
    for i, k in ((h, f[0]), (w, f[1])):
        if k is not None:
            _windowed(c, x[i], k, strides[i], pad, dil[i])


@register("MaxPool")
def _max_pool_op(c: Ctx) -> None:
    """MaxPoolShapeWithExplicitPadding: CheckValidPadding of padding and explicit_paddings first (EXPLICIT takes 8
    nonnegative values, none in the batch or depth; any other padding none: "explicit_paddings attribute must be
    empty if the padding attribute is not EXPLICIT", which the eager kernel does not check), then MaxPoolShape
    (fz31a: seed 3120261201 #107)."""
    text = _valid_padding_text(c.attr("padding"), list(c.attr("explicit_paddings") or ()), c.attr("data_format"))
    if text is not None:
        c.fail(text)
    if c.attr("data_format") == "NCHW_VECT_C":   # (MaxPoolShapeImpl: rank 5, CheckFormatConstraintsOnShape's vector
        # dimension 4 or 32, an unknown one read as -1; its window sizes are not modelled: fz32a, sig seed
        # 3220261207 #114)
        x = c.with_rank(c.input("input"), 5)
        if x[4] not in (4, 32):
            c.fail(f"VECT_C dimension must be 4 or 32, but is {-1 if x[4] is None else x[4]}")
        return
    _max_pool(c, c.with_rank(c.input("input"), 4))


def _valid_padding_text(padding: str, explicit: list, data_format: str | None) -> str | None:
    """CheckValidPadding's (util/padding.cc) refusal for a 4-D op, or None."""
    if padding != "EXPLICIT":
        return "explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT" if explicit else None
    if len(explicit) != 8:
        return f"explicit_paddings attribute must contain 8 values, but got: {len(explicit)}"
    if any(v < 0 for v in explicit):
        return "All elements of explicit_paddings must be nonnegative"
    first = (data_format or "NHWC").startswith("NC")
    if any(explicit[i] for i in ((0, 1, 2, 3) if first else (0, 1, 6, 7))):
        return "Nonzero explicit padding in the batch or depth dimensions is not supported"
    return None


@register("Conv2DBackpropInput")
def _conv2d_backprop_input(c: Ctx) -> None:
    """Conv2DBackpropInputShape (common_shape_fns.cc): out_backprop then filter of rank 4, the
    out_backprop's depth merged with the filter's output channels, then input_sizes' value
    (MakeShapeFromShapeTensor) of 4 values (its batch merged with out_backprop's) or 2 (fuzz20 sig
    seed 2520261203 #150: an out_backprop of rank 3 fails first)."""
    g = c.with_rank(c.input("out_backprop"), 4)
    f = c.with_rank(c.input("filter"), 4)
    n, h, w, ch = _nhwc(c.attr("data_format"))
    c.merge_dim(g[ch], f[3])
    s = c.shape_from_tensor("input_sizes")
    if s is None:
        return
    if len(s) == 4:
        c.merge_dim(s[n], g[n])
    elif len(s) != 2:
        c.fail(f"Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, but got: {len(s)}")


def _windowed_verbose(c: Ctx, size: int | None, eff: int, stride: int, padding: str) -> None:
    """GetWindowedOutputSizeVerbose (kernel_shape_util.cc): the stride > 0, then VALID's
    (size - eff + stride) / stride in C++'s truncating division, never negative."""
    if stride <= 0:
        c.fail(f"Stride must be > 0, but got {stride}")
    if size is None:
        return
    out = (size - eff + stride) if padding == "VALID" else (size + stride - 1)
    out = -(-out // stride) if out < 0 else out // stride
    if out < 0:
        c.fail(f"Computed output size would be negative: {out} [input_size: {size}, effective_filter_size: {eff}, "
               f"stride: {stride}]")


@register("ExtractImagePatches")
def _extract_image_patches(c: Ctx) -> None:
    """array_ops.cc: images of rank 4, ksizes, strides and rates of 4 values, then the rows and the
    columns windowed by the rate-dilated sizes (the rates themselves are the kernel's check; fz24a)."""
    x = c.with_rank(c.input("images"), 4)
    ks = _attr_len(c, "ksizes", "ksizes", 4, "ExtractImagePatches")
    st = _attr_len(c, "strides", "stride", 4, "ExtractImagePatches")
    rt = _attr_len(c, "rates", "rates", 4, "ExtractImagePatches")
    if x[1] is None or x[2] is None:
        return
    for i in (1, 2):
        _windowed_verbose(c, x[i], ks[i] + (ks[i] - 1) * (rt[i] - 1), st[i], c.attr("padding"))


@register("ExtractVolumePatches")
def _extract_volume_patches(c: Ctx) -> None:
    """array_ops.cc: input of rank 5, ksizes and strides of 5 values, then planes, rows and columns
    windowed (fz24a)."""
    x = c.with_rank(c.input("input"), 5)
    ks = _attr_len(c, "ksizes", "ksizes", 5, "ExtractVolumePatches")
    st = _attr_len(c, "strides", "stride", 5, "ExtractVolumePatches")
    if x[1] is None or x[2] is None or x[3] is None:
        return
    for i in (1, 2, 3):
        _windowed_verbose(c, x[i], ks[i], st[i], c.attr("padding"))


@register("AvgPool3D", "MaxPool3D")
def _pool3d_forward(c: Ctx) -> None:
    """Pool3DShape: the input of rank 5, then the strides, ksize and windowed sizes (fz22: fuzz20
    seed 2220261202 #48, #64)."""
    _pool3d(c, c.with_rank(c.input("input"), 5))


@register("LRN")
def _lrn(c: Ctx) -> None:
    """nn_ops.cc: UnchangedShapeWithRank(c, 4)."""
    c.with_rank(c.input("input"), 4)


@register("LRNGrad")
def _lrn_grad(c: Ctx) -> None:
    """nn_ops.cc: input_grads of rank 4, merged with input_image, then with output_image (fuzz20 seed
    2320261202 #90, #92)."""
    s = c.with_rank(c.input("input_grads"), 4)
    s = c.merge(s, c.input("input_image"))
    c.merge(s, c.input("output_image"))


@register("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent(c: Ctx) -> None:
    """nn_ops.cc: features a matrix, labels a vector, their batch dimensions merged (#125)."""
    f = c.with_rank(c.input("features"), 2)
    lab = c.with_rank(c.input("labels"), 1)
    c.merge_dim(f[0], lab[0])


@register("MaxPoolGrad")
def _max_pool_grad(c: Ctx) -> None:
    """MaxPoolGradShape (common_shape_fns.cc): UnchangedShapeWithRank(c, 4) of orig_input; the other
    inputs' ranks are the kernel's checks (#33)."""
    c.with_rank(c.input("orig_input"), 4)


def _scalar_dim(c: Ctx, name: str, index: int) -> int | None:
    """InferenceContext::MakeDimForScalarInput: where the graph knows the input's value, a scalar
    whose value is a non-negative size (else the value is unknown: None)."""
    import numpy as np
    v = c.value(name)
    if v is None:
        return None
    a = np.asarray(v)
    if a.ndim != 0:
        c.fail(f"Input must be scalar but has rank {a.ndim}")
    if int(a) < 0:
        c.fail(f"Dimension size, given by scalar input {index}, must be non-negative but is {int(a)}")
    return int(a)


@register("TopKV2")
def _top_k_v2(c: Ctx) -> None:
    """TopKShapeFn (nn_ops.cc): input of rank >= 1, k a known non-negative scalar
    (MakeDimForScalarInput), the input's known last dimension at least a known k (fuzz20 seed
    2320261202 #75)."""
    x = c.with_rank_at_least(c.input("input"), 1)
    k = _scalar_dim(c, "k", 1)
    last = c.dim(x, -1)
    if last is not None and k is not None and last < k:
        c.fail(f"input must have last dimension >= k = {k} but is {last}")
