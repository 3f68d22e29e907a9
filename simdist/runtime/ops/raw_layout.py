"""A raw pooling op in the channels-first layout where TF 2.21 runs oneDNN's kernel (clause ops.fuzz-raw).

simdist computes the pooling ops in the channels-last layout only. TF 2.21's x86 build registers
oneDNN kernels (_MklNative*) for MaxPool, AvgPool, MaxPool3D, AvgPool3D and their gradients; where
oneDNN runs the dtype (host_cpu.onednn_supports: float32, and bfloat16 on an AVX512 CPU) they take
NCHW / NCDHW and give the channels-last values transposed, as the public pools do
(pooling.channels_first_pool); MaxPoolGrad keeps TF's own kernel and its refusal (observed). A
raw call there is the channels-last op on transposed tensors and
attrs, its result transposed back; the kernel's checks are the channels-last op's, on the
permuted attrs (the batch refusal stays on index 0; a tensor of another rank is passed as it is,
so its rank error is the op's). Other layouts (NCHW_VECT_C) and dtypes keep raw_rules.layout_error
(fuzz20 seeds 2520261202 #88, #113, #160, 2520261204 #27, #42, #84).
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes

__all__ = ["DEFAULT_ONLY", "applies", "declined", "check", "own_kernel", "registered", "to_last", "back"]

# op -> (its tensor inputs in the layout, its shape-vector inputs, the spatial rank)
_OPS: dict[str, tuple[tuple[str, ...], tuple[str, ...], int]] = {
    "MaxPool": (("input",), (), 2), "AvgPool": (("value",), (), 2),
    "AvgPoolGrad": (("grad",), ("orig_input_shape",), 2),
    "MaxPool3D": (("input",), (), 3), "AvgPool3D": (("input",), (), 3),
    "AvgPool3DGrad": (("grad",), ("orig_input_shape",), 3),
    # oneDNN's depthwise convolution (_MklNativeDepthwiseConv2dNative) takes NCHW too, its values the NHWC ones
    # transposed (observed bit for bit on TF 2.21, float32), the filter (HWIM) in its layout; its constructor's
    # rules are raw_rules._depthwise_constructor's (fz32a). The backprops' NCHW stays refused (their oneDNN edge
    # cases abort TF's process; their NHWC values differ from TF's in the last bits: not modelled)
    "DepthwiseConv2dNative": (("input",), (), 2),
    # oneDNN's Conv2D (_MklNativeConv2D) likewise: NCHW computed, the filter HWIO in either layout (observed on
    # TF 2.21, float32 and bfloat16, fz35a); TF's own kernel's NCHW is own_kernel's
    "Conv2D": (("input",), (), 2),
    # oneDNN's 3-D convolutions (float32, bfloat16) take NCDHW too, the filter DHWIO in both layouts (observed on
    # TF 2.21: the NDHWC values transposed; fz35a, seed 3520261216 #164); the filter gradient is no image
    "Conv3D": (("input",), (), 3),
    "Conv3DBackpropInputV2": (("out_backprop",), ("input_sizes",), 3),
    "Conv3DBackpropFilterV2": (("input", "out_backprop"), (), 3),
}
# the ops above whose output is a filter, not in the layout (back() leaves it)
_FILTER_OUT = frozenset({"Conv3DBackpropFilterV2"})
_FIRST = {2: "NCHW", 3: "NCDHW"}
# pooling ops TF 2.21 leaves to its own kernel, which refuses channels-first, also where oneDNN runs
# the dtype (observed: MaxPoolGrad of float32 is "Default MaxPoolingGradOp only supports NHWC";
# MaxPoolGradGrad, MaxPool3DGrad and MaxPool3DGradGrad of float32 and bfloat16 likewise, fuzz20 seed
# 2620261201 #74)
DEFAULT_ONLY = frozenset({"MaxPoolGrad", "MaxPoolGradGrad", "MaxPool3DGrad", "MaxPool3DGradGrad",
                          "MaxPoolV2", "MaxPoolGradV2", "MaxPoolGradGradV2"})   # (the V2 pools: raw_legacy.py)
_LAST = {2: "NHWC", 3: "NDHWC"}


def _perm(rank: int) -> list[int]:
    """Channels-first -> channels-last axis order of a rank-`rank` tensor."""
    return [0, *range(2, rank), 1]


# the dtypes TF 2.21's x86 build registers an op's oneDNN kernel for, where not float32, bfloat16 and float16:
# AvgPool and AvgPoolGrad have no half kernel (float16 takes TF's own, "Default AvgPoolingOp only supports NHWC on
# device type CPU" also on an AVX512-FP16 host, where MaxPool's half NCHW computes; fz35a, tape seed 3520261220 #181)
_REGISTERED = {"AvgPool": ("float32", "bfloat16"), "AvgPoolGrad": ("float32", "bfloat16")}


def registered(name: str) -> tuple[str, ...]:
    """The dtypes TF 2.21 registers op `name`'s oneDNN kernel for (float32, bfloat16, float16 unless _REGISTERED
    says otherwise); which of them oneDNN runs is the modelled CPU's (host_cpu.CPUModel.onednn)."""
    return _REGISTERED.get(name, ("float32", "bfloat16", "float16"))


def applies(name: str, data_format: str, dtype: Any) -> bool:
    """Whether raw op `name` with `data_format` is one oneDNN's kernel may take for `dtype`."""
    from simdist.runtime import host_cpu
    spec = _OPS.get(name)
    return (spec is not None and data_format == _FIRST[spec[2]] and isinstance(dtype, dtypes.DType)
            and host_cpu.current().onednn(dtype.name, registered(name)))


_OWN_WHEN_EXPLICIT = ("Conv2DBackpropInput", "Conv2DBackpropFilter", "DepthwiseConv2dNativeBackpropInput",
                      "DepthwiseConv2dNativeBackpropFilter")


def declined(name: str, vals: dict[str, Any]) -> bool:
    """Whether TF's oneDNN rewrite leaves the op to TF's own kernel, which refuses the layout
    (raw_rules.CPU_LAYOUT): a MaxPool or MaxPool3D whose window or strides span the batch or channels
    (observed "Default MaxPoolingOp only supports NHWC on device type CPU"; AvgPool, AvgPool3D and
    AvgPoolGrad stay oneDNN's), a 2-D convolution's or depthwise convolution's backprop with EXPLICIT padding."""
    k = vals.get("ksize")
    if name in _OWN_WHEN_EXPLICIT:   # (EXPLICIT padding: TF's own Conv2DCustomBackprop*Op, "only supports
        # NHWC" also for float32, observed, fuzz20 seed 2620261204; TF's own DepthwiseConv2dNativeBackprop*Op,
        # its equal row and column strides and "only supported for NHWC format" for float32 and bfloat16,
        # observed, fz39a, eager seed 3920261204 #78; the forward DepthwiseConv2dNative stays oneDNN's)
        return vals.get("padding") == "EXPLICIT"
    if name not in ("MaxPool", "MaxPool3D"):
        return False
    # (mkl_layout_pass.cc NonDepthBatchWisePoolRewrite: MaxPool and MaxPool3D go to oneDNN only with 1 in
    # the batch and channel places of ksize and strides; else TF's own kernel refuses NCHW/NCDHW first,
    # InvalidArgumentError "Default Pooling3DOp only supports NDHWC"; observed on TF 2.21, fuzz20 seed
    # 2720261204 #25. AvgPool/AvgPool3D have no such condition: oneDNN's batch and depth refusals)
    st = vals.get("strides")
    return any(isinstance(v, (list, tuple)) and len(v) in (4, 5) and (v[0] != 1 or v[1] != 1) for v in (k, st))


def check(name: str, inputs: dict[str, Any], vals: dict[str, Any]) -> None:
    """oneDNN's kernel's first checks on the channels-first call (MklPoolingOpBase's constructor: the
    batch; Compute: a negative size in the gradient's orig_input_shape, the input's rank; then
    MklPoolParameters::Init's window over channels and space; observed "Expected a non-negative size,
    got -2", "Input must be 4 or 5-dimensional"), before the channels-last op's."""
    import numpy as np

    from simdist.runtime import errors
    from simdist.runtime.tensor import Tensor
    if name in ("DepthwiseConv2dNative", "Conv2D") or name.startswith("Conv3D"):   # (their checks are the
        # channels-last op's, on the permuted attrs)
        return
    tensors, shapes, sp = _OPS[name]
    k, st = vals.get("ksize"), vals.get("strides")
    if all(isinstance(v, (list, tuple)) and len(v) == sp + 2 for v in (k, st)) and (k[0] != 1 or st[0] != 1):
        raise errors.UnimplementedError(None, None, f"Pooling is not yet supported on the batch dimension. [Op:{name}]")
    for n in shapes:
        v = inputs[n]
        arr = np.asarray(v.numpy() if isinstance(v, Tensor) else v).reshape(-1)
        neg = next((int(x) for x in arr if int(x) < 0), None)
        if neg is not None:
            raise errors.InvalidArgumentError(None, None, f"Expected a non-negative size, got {neg} [Op:{name}]")
    if not shapes:
        t = inputs[tensors[0]]
        if isinstance(t, Tensor) and t.ndim not in (4, 5):
            raise errors.InvalidArgumentError(None, None, f"Input must be 4 or 5-dimensional [Op:{name}]")
    if isinstance(k, (list, tuple)) and len(k) == sp + 2 and k[1] != 1 and any(x != 1 for x in k[2:]):
        # (MklPoolParameters::Init: a window over channels and space at once)
        text = ("MaxPooling supports exactly one of pooling across depth or pooling across width/height." if sp == 2
                else "AvgPooling3D supports exactly one of pooling across depth or pooling across depth/width/height.")
        raise errors.UnimplementedError(None, None, f"{text} [Op:{name}]")


def to_last(name: str, inputs: dict[str, Any], vals: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The op's inputs and attrs in the channels-last layout (tensors of the layout's rank
    transposed, shape vectors and ksize/strides lists of its length permuted)."""
    from simdist.runtime.ops import array
    from simdist.runtime.tensor import Tensor, convert_to_tensor
    tensors, shapes, sp = _OPS[name]
    rank = sp + 2
    perm = _perm(rank)
    ins = dict(inputs)
    for n in tensors:
        t = ins[n]
        if isinstance(t, Tensor) and t.ndim == rank:
            ins[n] = array.transpose(t, perm)
    for n in shapes:
        v = ins[n]
        arr = v.numpy() if isinstance(v, Tensor) else v
        if getattr(arr, "ndim", None) == 1 and arr.shape[0] == rank:
            ins[n] = convert_to_tensor(arr[perm])
    out = dict(vals)
    for a in ("ksize", "strides", "dilations"):
        v = out.get(a)
        if isinstance(v, (list, tuple)) and len(v) == rank:
            out[a] = [v[i] for i in perm]
    k, st = out.get("ksize"), out.get("strides")
    if isinstance(k, list) and isinstance(st, list) and len(k) == len(st) == rank and k[-1] == 1:
        # (MklPoolParameters::Init: with a window of 1 over channels every channel is kept, the
        # channel stride unread; seed 2520261204 #84)
        out["strides"] = [*st[:-1], 1]
    ex = out.get("explicit_paddings")
    if isinstance(ex, (list, tuple)) and len(ex) == 2 * rank:
        out["explicit_paddings"] = [x for i in perm for x in ex[2 * i:2 * i + 2]]
    out["data_format"] = _LAST[sp]
    return ins, out


def back(name: str, out: Any) -> Any:
    """The channels-last result in the channels-first layout."""
    from simdist.runtime.ops import array
    if name in _FILTER_OUT:
        return out
    rank = _OPS[name][2] + 2
    inv = [0, rank - 1, *range(1, rank - 1)]
    return array.transpose(out, inv) if getattr(out, "ndim", None) == rank else out


def own_kernel(name: str, inputs: dict[str, Any], vals: dict[str, Any]) -> Any:
    """A channels-first Conv2D on TF's own kernel (a dtype oneDNN does not take here): its checks and the
    output it returns before the launcher refuses NCHW (conv2d_eigen.channels_first; fuzz20 seed 3420261201
    #191); None for every other call, whose layout raw_rules refuses."""
    from simdist.runtime import host_cpu
    from simdist.runtime.ops import conv2d_eigen
    from simdist.runtime.tensor import Tensor
    t = vals.get("T")
    if name in _DEPTHWISE_BACKPROPS and vals.get("data_format") == "NCHW":
        return _own_depthwise_backprop(name, inputs, vals)
    if name != "Conv2D" or vals.get("data_format") != "NCHW" or not isinstance(t, dtypes.DType) or \
            host_cpu.current().onednn_supports(t.name):
        return None
    x, f = inputs["input"], inputs["filter"]
    if not (isinstance(x, Tensor) and isinstance(f, Tensor)):
        return None
    return conv2d_eigen.channels_first(x, f, vals["strides"], vals["padding"],
                                       conv2d_eigen.to_nhwc_explicit(vals.get("explicit_paddings") or (), True),
                                       vals["dilations"])


_DEPTHWISE_BACKPROPS = ("DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter")


def _own_depthwise_backprop(name: str, inputs: dict[str, Any], vals: dict[str, Any]) -> Any:
    """An NCHW depthwise backprop on TF's own kernel (depthwise_conv_grad_op.cc; raw_ops reaches it only where
    oneDNN does not run the call): Compute checks the sizes and the ranks (raw_rules.before_layout), then
    EXTRACT_AND_VERIFY_DIMENSIONS reads each dimension at the layout's place (the batch sizes, the in_depths,
    depth_multiplier * in_depth against out_depth, each stride > 0, the rows and columns of out_backprop against
    the computed ones: the NHWC op's checks and texts on the transposed call), allocates the output and returns
    it when there is nothing to compute (DepthwiseConv2dNativeBackpropInput: an empty input; ...Filter: an empty
    out_backprop, whose filter gradient TF leaves as allocated (uninitialised; zeros here)); only then does the
    CPU launcher refuse the layout: the NHWC kernel with `channels_first` (conv._layout_refusal), so that a
    tf.function's dry runs meet the refusal as a kernel's error like the checks before it. Observed on TF 2.21
    with oneDNN off (fz47: fz14 tape seed 1420473001 #232; simdist had refused the layout after the ranks)."""
    from simdist.runtime import errors
    from simdist.runtime.ops import conv, conv_transpose, raw_rules
    from simdist.runtime.ops.args import shape_arg
    from simdist.runtime.ops.conv import nchw_to_nhwc, to_channels_first, to_channels_last
    if len(vals.get("strides") or ()) != 4:   # (the constructor's first check)
        raise errors.InvalidArgumentError(None, None, f"Sliding window strides field must specify 4 dimensions "
                                                      f"[Op:{name}]")
    raw_rules.before_layout(name, {**inputs, **vals}, "NCHW", vals.get("T"))
    ex = list(vals.get("explicit_paddings") or ())
    # (the kernels compute undilated whatever the dilations attr holds, of any length: conv._dw_dilations)
    attrs = {"strides": tuple(int(v) for v in nchw_to_nhwc(vals["strides"])), "padding": vals["padding"],
             "explicit_paddings": tuple(v for pair in nchw_to_nhwc([ex[i:i + 2] for i in range(0, 8, 2)])
                                        for v in pair) if len(ex) == 8 else tuple(ex),
             "dilations": (1, 1, 1, 1), "channels_first": True}
    g = to_channels_last(inputs["out_backprop"])
    if name.endswith("Input"):
        sizes = shape_arg(inputs["input_sizes"])
        attrs["input_sizes"] = tuple(int(v) for v in nchw_to_nhwc(sizes)) if len(sizes) == 4 else sizes
        out = conv_transpose._depthwise_backprop(conv.DEPTHWISE_BACKPROP_INPUT, (inputs["filter"], g), attrs,
                                                 g.dtype, name)
        return to_channels_first(out)
    attrs["filter_sizes"] = shape_arg(inputs["filter_sizes"])
    return conv_transpose._depthwise_backprop(conv.DEPTHWISE_BACKPROP_FILTER, (to_channels_last(inputs["input"]), g),
                                              attrs, g.dtype, name)
