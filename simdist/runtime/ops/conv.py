"""2-D convolutions (TF's Conv2D, DepthwiseConv2dNative and their backprop kernels), NHWC,
with strides, dilations and SAME / VALID / explicit padding, and TF's gradient registrations.

The forward is im2col: the padded input's windows are a strided view (no copy), gathered once
into a [pixels, kh*kw*cin] matrix and multiplied by the filter; grouped convolutions (input
depth a multiple of the filter's) multiply group by group in one batched matmul. The input
gradient is the transposed product scattered back window offset by window offset (kh*kw slice
additions, no loop over pixels); the filter gradient is the patches' transpose times the
upstream gradient.

FLOPs: Conv2D and both backprops 2 * out_pixels * kh * kw * cin_per_group * cout (each is one
matmul of that size); the depthwise kernels 2 * out_pixels * kh * kw * cin * multiplier.
"""

from __future__ import annotations

import collections.abc

from typing import Any, Sequence

import numpy as np
from numpy.lib.stride_tricks import as_strided

from simdist.runtime import context, errors, host_cpu
from simdist.runtime import symbolic as _symbolic
from simdist.runtime.ops import args, array, conv2d_eigen, dispatch, graph_inputs, onednn_1x1, trace_errors
from simdist.runtime.ops import onednn_backprop_filter, onednn_backprop_input, onednn_depthwise
from simdist.runtime.ops import static_shapes as _static_shapes
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.nn_rules import CONV, FLOATS, typed
from simdist.runtime.ops.registry import CONV_INPUT_ROWS, RegisterGradient, lanes, register, rows
from simdist.runtime.ops.contraction_order import matmul   # (float64/complex in order; float32 BLAS's)
from simdist.runtime.tensor import Tensor

__all__ = ["conv1d", "conv2d", "depthwise_conv2d", "separable_conv2d", "convolution", "window_geometry", "normalize_padding", "spatial_sequence",
           "windows", "scatter_windows"]


# --- geometry ---------------------------------------------------------------------------------------
# The forward window ops whose shape functions (Conv2DShape, MaxPoolShape, AvgPoolShape,
# DepthwiseConv2DNativeShape, MaxPoolWithArgmax's) compute the windowed output size with the same
# GetWindowedOutputSizeVerbose, so its errors are ValueErrors while a tf.function is traced (the
# backprop ops' shape functions read input_sizes instead: their errors stay the kernel's).
_SHAPE_FN_WINDOWS = ("Conv2D", "MaxPool", "AvgPool", "DepthwiseConv2dNative", "MaxPoolWithArgmax")


def _window_error(text: str, op: str) -> errors.InvalidArgumentError:
    err = errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")
    if op in _SHAPE_FN_WINDOWS and not trace_errors.kernel_only():
        # (in dispatch's kernel-only rerun, over dimensions the graph does not know, this is the kernel's own
        # check when the graph runs: InvalidArgumentError, as TF 2.21's MaxPoolWithArgmax of a [1, ?, ?, 1] input
        # under a 5x5 VALID window called on 3x3, fz28a)
        return trace_errors.static(err, ValueError, f"{text} for '{{{{node {op}}}}}'")
    return err


def _out_size(size: int, eff: int, stride: int, padding: str, before: int, after: int, op: str) -> tuple[int, int, int]:
    """TF's GetWindowedOutputSizeVerbose: output size and padding before/after of one dim."""
    if stride <= 0:
        raise _window_error(f"Stride must be > 0, but got {stride}", op)
    if padding == "VALID":
        if size < eff and op in _SHAPE_FN_WINDOWS and context.in_function() and not trace_errors.kernel_only():
            # (the shape function subtracts the window from the input's size: a window larger than the
            # input is ValueError at trace, where the kernel would give an empty output; where the graph does not
            # know the dimension the kernel computes that output: dispatch's rerun, fz36a, sig seed 3620261221 #22)
            err = errors.InvalidArgumentError(None, None, f"Negative dimension size caused by subtracting {eff} "
                                              f"from {size} [Op:{op}]")
            raise trace_errors.shape_fn_only(trace_errors.static(
                err, ValueError, f"Negative dimension size caused by subtracting {eff} from {size} for "
                                 f"'{{{{node {op}}}}}'"))
        out, before, after = _trunc_div(size - eff + stride, stride), 0, 0
    elif padding == "EXPLICIT":
        out = _trunc_div(size + before + after - eff + stride, stride)
    else:
        out = _trunc_div(size + stride - 1, stride)
        needed = max(0, (out - 1) * stride + eff - size)
        before, after = needed // 2, needed - needed // 2
    if out < 0:
        raise _window_error(f"Computed output size would be negative: {out} [input_size: {size}, "
                            f"effective_filter_size: {eff}, stride: {stride}]", op)
    return out, before, after


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // b
    return q if a >= 0 else -q


def window_geometry(hw: Sequence[int], khw: Sequence[int], strides: Sequence[int], dilations: Sequence[int],
                    padding: str, explicit: Sequence[int], op: str) -> tuple[tuple[int, int], tuple[int, ...]]:
    """((out_h, out_w), (pad_top, pad_bottom, pad_left, pad_right)) of a 2-D window op. `explicit` is read only
    for EXPLICIT padding (TF's kernels ignore explicit_paddings otherwise, whatever their length)."""
    explicit = explicit if padding == "EXPLICIT" else ()
    sizes = []
    for i in (0, 1):
        try:
            sizes.append(_out_size(hw[i], (khw[i] - 1) * dilations[i] + 1, strides[i], padding,
                                   *(explicit[2 + 2 * i:4 + 2 * i] if explicit else (0, 0)), op))
        except errors.InvalidArgumentError as e:
            setattr(e, trace_errors.WINDOW_DIM, i)   # (the spatial dimension it came from: dispatch's rerun)
            raise
    (oh, pt, pb), (ow, pl, pr) = sizes
    return (oh, ow), (pt, pb, pl, pr)


def _pad(x: np.ndarray, pads: Sequence[int], value: Any = 0) -> np.ndarray:
    """x padded with `value` by (top, bottom, left, right); a negative pad crops (oneDNN's eager forward
    takes one, onednn_padding.py: its windows are sized, then the primitive refuses it)."""
    if not any(pads):
        return x
    if min(pads) < 0:
        pt, pb, pl, pr = pads
        h, w = x.shape[1], x.shape[2]
        x = x[:, max(0, -pt):h - max(0, -pb), max(0, -pl):w - max(0, -pr), :]
        pads = tuple(max(0, p) for p in pads)
    pt, pb, pl, pr = pads
    return np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)), constant_values=value)


def _primitive_error(op: str) -> errors.AbortedError:
    """oneDNN's refusal to create a convolution primitive (mkl_conv_ops.cc's catch of dnnl::error)."""
    return errors.AbortedError(None, None, "Operation received an exception:Status: 2, message: could not create a "
                               "primitive descriptor for the convolution forward propagation primitive. Run workload "
                               "with environment variable ONEDNN_VERBOSE=all to get additional diagnostic "
                               f"information. [Op:{op}]")


def windows(xp: np.ndarray, khw: Sequence[int], out_hw: Sequence[int], strides: Sequence[int],
            dilations: Sequence[int]) -> np.ndarray:
    """The windows of a padded NHWC array as a read-only view [N, OH, OW, kh, kw, C]."""
    n, _, _, c = xp.shape
    s0, s1, s2, s3 = xp.strides
    return as_strided(xp, (n, out_hw[0], out_hw[1], khw[0], khw[1], c),
                      (s0, s1 * strides[0], s2 * strides[1], s1 * dilations[0], s2 * dilations[1], s3),
                      writeable=False)


def scatter_windows(dwin: np.ndarray, in_shape: Sequence[int], pads: Sequence[int], strides: Sequence[int],
                    dilations: Sequence[int]) -> np.ndarray:
    """The adjoint of `windows` then padding: each window element's value added back to the
    input position it was read from ([N, OH, OW, kh, kw, C] -> in_shape), one slice per
    window offset; the padding is cut off."""
    n, h, w, c = in_shape
    pt, pb, pl, pr = pads
    _, oh, ow, kh, kw, _ = dwin.shape
    out = np.zeros((n, h + pt + pb, w + pl + pr, c), dtype=dwin.dtype)
    sh, sw = strides
    for i in range(kh):
        r0 = i * dilations[0]
        for j in range(kw):
            c0 = j * dilations[1]
            out[:, r0:r0 + (oh - 1) * sh + 1:sh, c0:c0 + (ow - 1) * sw + 1:sw, :] += dwin[:, :, :, i, j, :]
    return out[:, pt:pt + h, pl:pl + w, :]


# --- Conv2D -----------------------------------------------------------------------------------------------
def check_valid_padding(padding: str, explicit: Sequence[int], num_dims: int, op: str,
                        channels_first: bool = False) -> None:
    """TF's CheckValidPadding (util/padding.cc), which the conv kernels' constructors
    (InitConv2DParameters) and Conv2DShape run: EXPLICIT takes 2 * num_dims nonnegative values,
    none for the batch or depth, any other padding none. A raw call reaches it (rawfz21, seed
    2020261202 #146); eagerly InvalidArgumentError, in a graph the shape function's ValueError."""
    text = None
    if padding == "EXPLICIT":
        if len(explicit) != 2 * num_dims:
            text = f"explicit_paddings attribute must contain {2 * num_dims} values, but got: {len(explicit)}"
        elif any(v < 0 for v in explicit):
            text = "All elements of explicit_paddings must be nonnegative"
        elif any(explicit[i] for i in ((0, 1, 2, 3) if channels_first else (0, 1, 2 * num_dims - 2, 2 * num_dims - 1))):
            text = "Nonzero explicit padding in the batch or depth dimensions is not supported"
    elif explicit:
        text = "explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT"
    if text is not None:
        err = errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")
        if op in ("Conv2D", "DepthwiseConv2dNative"):   # (the backprops' shape functions do not check it)
            raise trace_errors.static(err, ValueError, text)
        raise err


def _check_conv_attrs(strides: Sequence[int], dilations: Sequence[int], op: str, padding: str = "",
                      explicit: Sequence[int] = (), dtype: Any = None) -> None:
    """The kernel's constructor checks: the strides' and dilations' batch and depth, then the padding
    (check_valid_padding). TF's own kernels (InitConv2DParameters) refuse them as UnimplementedError, its
    Conv2DCustomBackpropFilterOp as InvalidArgumentError; oneDNN's kernels (where `dtype` runs through it)
    the strides as UnimplementedError in Conv2D and InvalidArgumentError in the backprops, the dilations
    as InvalidArgumentError (raw_rules' `_conv2d_constructor` for the raw ops; observed on an AVX512-FP16
    Xeon, thirty-fifth session: `conv1d_transpose(..., strides=[1, 2, 2])` of float32)."""
    onednn = dtype is not None and onednn_conv(np.dtype(dtype).name)
    filt = op == "Conv2DBackpropFilter"
    if strides[0] != 1 or strides[3] != 1:
        cls = errors.InvalidArgumentError if filt or (onednn and op != "Conv2D") else errors.UnimplementedError
        raise cls(None, None, f"Current implementation does not yet support strides in the batch and depth "
                              f"dimensions. [Op:{op}]")
    if not onednn and not context.in_function() and (strides[1] <= 0 or strides[2] <= 0):
        # (TF's own InitConv2DParameters: the row and column strides positive before the dilations' batch and
        # depth; `conv1d(x, f, stride=[0], dilations=[1, 2, 2])` with oneDNN off; fz47: fz14 tape seed 1420473001
        # #241. A graph's shape function refuses the stride first: _out_size's ValueError)
        raise errors.InvalidArgumentError(None, None, f"Row and column strides should be larger than 0. [Op:{op}]")
    if dilations[0] != 1 or dilations[3] != 1:
        cls = errors.InvalidArgumentError if filt or onednn else errors.UnimplementedError
        raise cls(None, None, f"Current implementation does not yet support dilations in the batch and depth "
                              f"dimensions. [Op:{op}]")
    if dilations[1] < 1 or dilations[2] < 1:
        # (every kernel's constructor, oneDNN's and TF's own InitConv2DParameters, every float dtype: a spatial
        # dilation of 0 or below is InvalidArgumentError eagerly — a traced Conv2D's shape function refuses it
        # first, ValueError; the backprops', whose shape functions do not read it, when the graph runs; TF 2.21
        # observed, fix62d: /work/wt/fix62d_logs/probe_dil.py)
        raise errors.InvalidArgumentError(None, None, f"Dilated rates should be larger than 0. [Op:{op}]")
    if padding:
        check_valid_padding(padding, explicit, 4, op)


def _check_conv(x_shape: Sequence[int], f_shape: Sequence[int], strides: Sequence[int], dilations: Sequence[int],
                op: str, padding: str = "", explicit: Sequence[int] = (), dtype: Any = None) -> int:
    """TF's Conv2D argument checks; returns the number of groups. The strides' and dilations'
    batch and depth come first: the kernel's constructor checks them (InitConv2DParameters), then
    the padding (check_valid_padding), its Compute the inputs' ranks (fz14 seed 1420261218 #30: a
    scalar filter with strides [4, 2, 2, 2] is UnimplementedError)."""
    _check_conv_attrs(strides, dilations, op, padding, explicit, dtype)
    if len(x_shape) != 4:
        raise errors.InvalidArgumentError(None, None, f"input must be 4-dimensional{_dims(x_shape)} [Op:{op}]")
    if len(f_shape) != 4:
        raise errors.InvalidArgumentError(None, None, f"filter must be 4-dimensional: {_dims(f_shape)} [Op:{op}]")
    cin, fin, cout = x_shape[3], f_shape[2], f_shape[3]
    if fin == 0 or cin % fin:
        raise errors.InvalidArgumentError(None, None, f"input depth must be evenly divisible by filter depth: {cin} vs "
                                          f"{fin} [Op:{op}]")
    groups = cin // fin
    if cout % groups:
        raise errors.InvalidArgumentError(None, None, f"output depth must be evenly divisible by number of groups: "
                                          f"{cout} vs {groups} [Op:{op}]")
    return groups


def _dims(shape: Sequence[int]) -> str:
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def _cols(x: np.ndarray, fshape: Sequence[int], strides: Sequence[int], padding: str, explicit: Sequence[int],
          dilations: Sequence[int], op: str) -> tuple[np.ndarray, tuple[int, int], tuple[int, ...]]:
    """im2col: ([N*OH*OW, kh*kw*C] patches, (OH, OW), pads)."""
    out_hw, pads = window_geometry(x.shape[1:3], fshape[:2], strides[1:3], dilations[1:3], padding, explicit, op)
    win = windows(_pad(x, pads), fshape[:2], out_hw, strides[1:3], dilations[1:3])
    n = x.shape[0]
    return win.reshape(n * out_hw[0] * out_hw[1], fshape[0] * fshape[1] * x.shape[3]), out_hw, pads


def _grouped(cols: np.ndarray, k: int, groups: int) -> np.ndarray:
    """[P, k*G*f] patches -> [G, P, k*f] (one matrix per group)."""
    p = cols.shape[0]
    return cols.reshape(p, k, groups, -1).transpose(2, 0, 1, 3).reshape(groups, p, -1)


def _filter_grouped(f: np.ndarray, groups: int) -> np.ndarray:
    """[kh, kw, fin, cout] -> [G, kh*kw*fin, cout/G]."""
    kh, kw, fin, cout = f.shape
    return f.reshape(kh * kw * fin, groups, cout // groups).transpose(1, 0, 2)


# The dtypes TF 2.21's x86 build registers oneDNN's Conv2D and DepthwiseConv2dNative for; it runs
# them where the CPU supports the dtype (host_cpu.py: float16 needs AVX512-FP16, AMX-FP16 or
# AVX-NE-CONVERT; elsewhere float16 takes Eigen's kernels).
_ONEDNN_CONV_DTYPES = ("float32", "float16", "bfloat16")


def onednn_conv(dtype_name: str) -> bool:
    """True where TF 2.21 convolves ``dtype_name`` with oneDNN on the modelled CPU."""
    return host_cpu.current().onednn(dtype_name, _ONEDNN_CONV_DTYPES)


def _onednn_empty(x: np.ndarray, traced: bool = False) -> bool:
    """TF 2.21's oneDNN convolution kernels (float32, float16, bfloat16; not float64's Eigen
    kernel) return an input of zero elements as their output — its shape, not the convolution's
    [N, H', W', filters] (measured eagerly and in graphs: a [0, 6, 2] input and a [3, 2, 3] filter
    give [0, 6, 2]; clause nn.conv-empty-input). In a tf.function (`traced`) simdist keeps the
    convolution's shape: a simdist tensor has one shape, and there it stands for the graph's
    static shape, which is the convolution's in TF too (what Keras's layers decide by)."""
    return not traced and x.size == 0 and onednn_conv(x.dtype.name)


def _input_shaped_empty(dtype_name: str) -> bool:
    """Where TF 2.21's oneDNN convolution gives an output of zero elements the *input's* shape, unwritten
    (mkl_conv_ops.cc allocates it with the source shape): read, and observed on this project's AMD EPYC host (a
    VALID window longer than the input at a stride that rounds its size to 0: (6, 6, 1) for a 256-tap conv1d at
    stride 128 over 6 samples, which Keras's STFTSpectrogram returns on a short signal; a 5-row filter over 4
    rows: (1, 4, 4, 2)) and on session 35's Intel Xeon (AVX-512, AMX) host, while the goldens' Intel reference
    host gives the convolution's own empty shape ([1, 0, 3, 1]; tests/ops/test_shapefn21_tf.py), for a reason
    not known: host_cpu.CPUModel.conv_empty_input_shaped."""
    return onednn_conv(dtype_name) and host_cpu.current().conv_empty_input_shaped


def _traced_attr(attrs: dict) -> dict:
    """The forward's attrs, marked `traced` inside a tf.function (see _onednn_empty)."""
    return dict(attrs, traced=True) if context.in_function() else attrs


def onednn_filter_corner(x: np.ndarray, dy: np.ndarray, filter_sizes: Sequence[int]) -> bool:
    """mkl_conv_grad_filter_ops.cc's corner case (Conv2DBackpropFilter, Conv3DBackpropFilterV2 where oneDNN
    takes the dtype): past the constructor's checks, an input, a filter_sizes or an out_backprop of no elements
    gives zeros of filter_sizes' shape before any rank or size is checked (a [3, 2, 0, 0] input beside a
    [0] out_backprop is a [1, 3, 0, 2] gradient in TF 2.21; fz36a, tape seed 3620261208 #59)."""
    return onednn_conv(np.dtype(x.dtype).name) and (
        x.size == 0 or dy.size == 0 or int(np.prod(filter_sizes, dtype=np.int64)) == 0)


def _onednn_empty_sizes(input_sizes: Sequence[int], dtype: np.dtype) -> bool:
    """The backprops of such a convolution: oneDNN's kernels give zeros of the requested input
    (or, for an empty input, filter) shape without checking out_backprop's shape, which is the
    forward's input shape, not the convolution's."""
    return int(np.prod(input_sizes)) == 0 and onednn_conv(np.dtype(dtype).name)


def _conv2d(x: np.ndarray, f: np.ndarray, strides: tuple, padding: str, explicit_paddings: tuple,
            dilations: tuple, traced: bool = False) -> np.ndarray:
    if not onednn_conv(x.dtype.name):   # (TF's own kernel: its checks, early outputs and launcher in their order)
        _check_conv_attrs(strides, dilations, "Conv2D", padding, explicit_paddings)
        out_shape = conv2d_eigen.dimensions(x.shape, f.shape, strides, dilations, padding, explicit_paddings, False)
        early = conv2d_eigen.early_output(x.shape, out_shape, x.dtype)
        if early is not None:
            return early
        groups = conv2d_eigen.launch_checks(x.shape, f.shape, False)
        return _conv2d_values(x, f, strides, padding, explicit_paddings, dilations, groups)
    # (oneDNN's kernel runs no CheckValidPadding: in a graph the shape function has; eagerly the raw call's
    # padding is what onednn_padding.as_read gives, a pad maybe negative)
    groups = _check_conv(x.shape, f.shape, strides, dilations, "Conv2D", padding if context.in_function() else "",
                         explicit_paddings, x.dtype)
    cols, (oh, ow), pads = _cols(x, f.shape, strides, padding, explicit_paddings, dilations, "Conv2D")
    if _onednn_empty(x, traced):
        return x.copy()
    if oh * ow * f.shape[3] == 0 and not traced and _input_shaped_empty(x.dtype.name):
        return np.zeros(x.shape, x.dtype)
    if min(pads) < 0:
        raise _primitive_error("Conv2D")
    return _conv2d_values(x, f, strides, padding, explicit_paddings, dilations, groups, (cols, (oh, ow)))


#: the largest product (output pixels x window size x output channels) computed in oneDNN's order: the order costs a
#: Python step per window element, so larger convolutions keep NumPy's BLAS (off in the last bits; docs/spec.md)
_ORDERED_BUDGET = 4_000_000


def _onednn_in_order(cols: np.ndarray, cout: int) -> bool:
    """Whether a float32 forward convolution of im2col rows `cols` [P, K] runs in oneDNN's order here."""
    return (cols.dtype == np.float32 and cols.ndim == 2 and onednn_conv("float32")
            and 0 < cols.shape[0] * cols.shape[1] * cout <= _ORDERED_BUDGET)


#: conv60's ordered budget (multiply-adds) for the kernel gradients, the depthwise convolutions and the 1x1 backward
#: data: 32x14x14x32 -> 3x3x64's kernel gradient is 1.2e8 (12 ms with the compiled kernels, fma_native; the pure
#: kernels give the same bits, slower); beyond it NumPy's BLAS (off in the last bits)
_ORDERED_FILTER_BUDGET = 1 << 30


def _ordered_filter_budget() -> int:
    """conv60's budget of ordered multiply-adds (the same whether the compiled kernels are built or not: the build
    changes the speed, never the bits)."""
    return _ORDERED_FILTER_BUDGET


def _onednn_filter_in_order(cols: np.ndarray, cout: int, in_xla_too: bool = False) -> bool:
    """Whether a float32 filter gradient of im2col rows `cols` [P, K] runs in oneDNN's order here (measured outside
    XLA: conv60's rules are gated off inside it; `in_xla_too` for onednn55's 1x1 rule below 10 input channels, which
    never was)."""
    budget = _ordered_filter_budget()
    return (cols.dtype == np.float32 and cols.ndim == 2 and onednn_conv("float32")
            and (in_xla_too or not context.in_xla()) and 0 < cols.shape[0] * cols.shape[1] * cout <= budget)


def _onednn_filter_sums(cols: np.ndarray, dy2: np.ndarray, n: int) -> np.ndarray:
    """oneDNN's float32 backward-weights convolution (clause ops.packet-paths, "oneDNN's float32 Conv2D"): two
    threads take the images (balance211: the first ceil(n / 2)), each adds x·dy over its images' output pixels in
    order with fused multiply-adds from +0, and the two sums are added. `cols` [n·P, K] im2col rows, `dy2` [n·P, O]."""
    from simdist.runtime.ops.contraction_order import ordered_matmul
    per = cols.shape[0] // max(n, 1)
    split = (n + 1) // 2 * per
    total = np.zeros((cols.shape[1], dy2.shape[1]), np.float32)
    for lo, hi in ((0, split), (split, cols.shape[0])):
        if hi > lo:
            total = (total + ordered_matmul(np.ascontiguousarray(cols[lo:hi].T), dy2[lo:hi])).astype(np.float32)
    return total


def _conv2d_values(x: np.ndarray, f: np.ndarray, strides: tuple, padding: str, explicit_paddings: tuple,
                   dilations: tuple, groups: int, im2col: tuple | None = None) -> np.ndarray:
    """The NHWC convolution of checked operands (im2col, given or made, and a contraction per group)."""
    cols, (oh, ow) = im2col if im2col is not None else \
        _cols(x, f.shape, strides, padding, explicit_paddings, dilations, "Conv2D")[:2]
    kh, kw, fin, cout = f.shape
    if groups == 1 and _onednn_in_order(cols, cout):
        # (oneDNN's float32 forward convolution: each output over the window's rows, columns and input channels in
        # that order, fused multiply-adds from +0; clause ops.packet-paths, "oneDNN's float32 Conv2D")
        from simdist.runtime.ops.contraction_order import ordered_matmul
        out = ordered_matmul(cols, f.reshape(kh * kw * fin, cout))
    elif groups == 1 and tuple(dilations) in ((1, 1), (1, 1, 1, 1)) and float64_forward(cols, f.reshape(-1, cout)):
        from simdist.runtime.ops.contraction_order import float64_gebp
        out = float64_gebp(cols, f.reshape(kh * kw * fin, cout))   # (Eigen's spatial convolution: its GEBP's sums)
    elif groups == 1:
        out = matmul(cols, f.reshape(kh * kw * fin, cout))
    else:
        out = matmul(_grouped(cols, kh * kw, groups), _filter_grouped(f, groups)).transpose(1, 0, 2)
    return out.reshape(x.shape[0], oh, ow, cout)


def float64_forward(cols: np.ndarray, w: np.ndarray) -> bool:
    """Whether a float64 forward convolution's im2col product cols [P, K] @ w [K, C_out] is Eigen's GEBP kernel's
    (clause ops.float64-gebp-order): TF 2.21's CPU Conv2D/Conv3D of float64 is Eigen's spatial (cuboid) convolution,
    a tensor contraction of the patches with the filter; P and C_out at least 2 (one of 1 is a GEMV, not measured),
    K <= 150 (measured: a K of 270 takes another order, the contraction's depth blocks, not modelled). Measured bit
    for bit: 9 of 9 seeded Conv2Ds (VALID/SAME, strides 1 and 2, 1x1 to 5x5, K up to 150, up to 4x16x16x8 -> 16
    channels) and a Conv3D (2x2x2, 3 -> 4 channels); in order 4 of the first 6 were off (xsweep58_logs/conv_cmp.py,
    conv_tf2.py, conv_cmp2.py)."""
    return cols.dtype == np.float64 and w.dtype == np.float64 and cols.ndim == 2 and cols.shape[0] >= 2 \
        and w.shape[1] >= 2 and 1 <= cols.shape[1] <= 150


def _check_backprop_dilation(dtype: np.dtype, dilations: tuple, op: str, padding: str = "") -> None:
    """TF 2.21's x86 build runs float32, bfloat16 and half conv backprops through oneDNN where the
    CPU has it for the dtype (`onednn_conv`), which dilates; elsewhere (float64 everywhere; every
    dtype on a CPU without oneDNN, as this AVX2-only AMD host) the CPU kernels refuse a dilation
    rate above 1 (conv_grad_input_ops.h / conv_grad_filter_ops.h; observed on the reference host:
    float64 refused, float32 computes; on the AMD host float32, float16 and bfloat16 refused too,
    fz34b). With EXPLICIT padding oneDNN's rewrite leaves every dtype to TF's own kernels (raw_layout.declined),
    which refuse it too (float32 refused on the oneDNN host; suite/test_asweep58.py). Clause nn.conv-dilation."""
    if any(d > 1 for d in dilations) and (padding == "EXPLICIT" or not onednn_conv(np.dtype(dtype).name)):
        raise errors.InvalidArgumentError(None, None, "Current CPU implementations do not yet support dilation rates "
                                                      f"larger than 1. [Op:{op}]")


def _out_backprop_rank_first(dy: np.ndarray, dtype: Any) -> None:
    """Conv2DBackpropInput's Compute checks out_backprop's rank before the filter's and input_sizes', in a
    text that names input_sizes (TF 2.21, observed; fz38b, fz14 seed 1420383001 #286): oneDNN's kernel "input_sizes
    must be 4 or 5-dimensional, got: 2" for a rank other than 4 or 5, TF's own "input_sizes must be
    4-dimensional, got: 2" for one other than 4."""
    if onednn_conv(np.dtype(dtype).name):
        if dy.ndim not in (4, 5):
            raise errors.InvalidArgumentError(None, None, "input_sizes must be 4 or 5-dimensional, got: "
                                              f"{dy.ndim} [Op:Conv2DBackpropInput]")
    elif dy.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"input_sizes must be 4-dimensional, got: {dy.ndim} "
                                          "[Op:Conv2DBackpropInput]")


def backprop_input_shape(input_sizes: Sequence[int], dy_shape: Sequence[int], f_shape: Sequence[int],
                         dtype: Any) -> tuple[int, ...]:
    """Conv2DBackpropComputeInputShape (conv_grad_shape_utils.cc): input_sizes of 4 values is the
    input's shape; of 2 values its height and width, the batch taken from out_backprop and the depth
    from the filter's in_channels (NHWC: [dy[0], h, w, f[2]]; TF 2.21 observed, both kernels, eagerly
    and in a graph; fz39b, fz38b's open item). Any other count: TF's own kernel's InvalidArgumentError
    "Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, but got: 3" (oneDNN's
    kernel aborts TF's process there: simdist's rank text stands)."""
    sizes = tuple(int(v) for v in input_sizes)
    if len(sizes) == 2 and len(dy_shape) == 4 and len(f_shape) == 4:
        return (int(dy_shape[0]), sizes[0], sizes[1], int(f_shape[2]))
    if len(sizes) != 4 and not onednn_conv(np.dtype(dtype).name):
        raise errors.InvalidArgumentError(None, None, "Conv2DBackpropInput requires input_sizes to contain 4 values "
                                          f"or 2 values, but got: {len(sizes)} [Op:Conv2DBackpropInput]")
    return sizes


def _onednn_backprop_input_in_order(f: np.ndarray, dy: np.ndarray, input_sizes: Sequence[int], strides: Sequence[int],
                                    dilations: Sequence[int], padding: str) -> bool:
    """Whether a float32 Conv2DBackpropInput runs in oneDNN's backward-data order here (onednn_backprop_input.py:
    its measured shapes; within the forward's budget of ordered products)."""
    return (f.dtype == np.float32 and dy.dtype == np.float32 and onednn_conv("float32") and not context.in_xla()
            and onednn_backprop_input.applies(f.shape, strides[1:3], dilations[1:3], padding)
            and 0 < int(np.prod(input_sizes)) * f.shape[0] * f.shape[1] * f.shape[3] <= _ORDERED_BUDGET)


def _onednn_grouped_backprop_input(f: np.ndarray, dy: np.ndarray, input_sizes: Sequence[int], strides: Sequence[int],
                                   dilations: Sequence[int], padding: str) -> bool:
    """Whether a grouped float32 Conv2DBackpropInput runs in oneDNN's grouped backward-data order here (not under XLA:
    Keras' TF backend compiles grouped convolutions with jit_compile, whose kernels are XLA's)."""
    return (f.dtype == np.float32 and dy.dtype == np.float32 and onednn_conv("float32") and not context.in_xla()
            and onednn_backprop_input.applies_grouped(f.shape, strides[1:3], dilations[1:3], padding)
            and 0 < int(np.prod(input_sizes)) * f.shape[0] * f.shape[1] * f.shape[3] <= _ORDERED_BUDGET)


def _conv2d_backprop_input(f: np.ndarray, dy: np.ndarray, input_sizes: tuple, strides: tuple, padding: str,
                           explicit_paddings: tuple, dilations: tuple) -> np.ndarray:
    _check_conv_attrs(strides, dilations, "Conv2DBackpropInput", "", (), f.dtype)   # (the constructor's)
    _out_backprop_rank_first(dy, f.dtype)
    input_sizes = backprop_input_shape(input_sizes, dy.shape, f.shape, f.dtype)
    groups = _check_conv(input_sizes, f.shape, strides, dilations, "Conv2DBackpropInput", dtype=f.dtype)
    _check_backprop_dilation(f.dtype, dilations, "Conv2DBackpropInput", padding)
    if _onednn_empty_sizes(input_sizes, f.dtype):
        return np.zeros(tuple(input_sizes), f.dtype)
    kh, kw, fin, cout = f.shape
    (oh, ow), pads = window_geometry(input_sizes[1:3], (kh, kw), strides[1:3], dilations[1:3], padding,
                                     explicit_paddings, "Conv2DBackpropInput")
    _check_dw_out_backprop(dy, (input_sizes[0], oh, ow, cout), "Conv2DBackpropInput", padding)
    if groups > 1 and not onednn_conv(np.dtype(f.dtype).name) and not context.in_xla():   # (TF's own kernel; fz35a)
        raise errors.InvalidArgumentError(None, None, "Gradients for grouped convolutions are not supported on CPU. "
                                          "Please file a feature request if you run into this issue. Otherwise "
                                          "consider falling back to separable convolutions. [Op:Conv2DBackpropInput]")
    if f.dtype == np.float16 and onednn_conv("float16"):
        # (oneDNN's float16 backward-data convolution accumulates in float32 and rounds once: TF 2.21 on an
        # AVX512-FP16 host equals the float32 kernel on the same values rounded to float16, every element;
        # simdist's float16 adds were an ulp off in 15-57% of them)
        return _conv2d_backprop_input(f.astype(np.float32), dy.astype(np.float32), input_sizes, strides, padding,
                                      explicit_paddings, dilations).astype(np.float16)
    n = input_sizes[0]
    if groups == 1 and _onednn_backprop_input_in_order(f, dy, input_sizes, strides, dilations, padding):
        # (oneDNN's float32 backward data: the flipped filter's window per input pixel, fused multiply-adds in its
        # order; clause ops.packet-paths, "oneDNN's float32 Conv2D"; onednn_backprop_input.py)
        return onednn_backprop_input.backprop_input(f, dy, input_sizes, pads, padding, dilations[1:3], strides[1:3])
    if groups > 1 and _onednn_grouped_backprop_input(f, dy, input_sizes, strides, dilations, padding):
        # (oneDNN's grouped float32 backward data: per group, the taps ascending, one sum; onednn_backprop_input.py)
        return onednn_backprop_input.grouped_backprop_input(f, dy, input_sizes, pads, groups)
    dy2 = dy.reshape(n * oh * ow, cout)
    if (groups == 1 and (kh, kw) == (1, 1) and all(int(s) == 1 for s in strides[1:3]) and padding in ("VALID", "SAME")
            and f.dtype == np.float32 and dy.dtype == np.float32 and onednn_conv("float32") and not context.in_xla()
            and 0 < dy2.size * fin <= _ordered_filter_budget()):
        # (oneDNN's 1x1 backward data at stride 1: each input-gradient element one in-order sum over the output
        # channels, fused from +0; 8 of 8 probed shapes, 3 to 260 channels, conv60's probe_bi1.py: the pointwise half
        # of a separable convolution's input gradient)
        from simdist.runtime.ops.contraction_order import ordered_matmul
        return ordered_matmul(np.ascontiguousarray(dy2), np.ascontiguousarray(f.reshape(fin, cout).T)).reshape(
            tuple(input_sizes))
    if groups == 1:
        dcols = matmul(dy2, f.reshape(kh * kw * fin, cout).T)
    else:
        dyg = dy2.reshape(-1, groups, cout // groups).transpose(1, 0, 2)
        dcols = matmul(dyg, _filter_grouped(f, groups).transpose(0, 2, 1))   # [G, P, k*fin]
        dcols = dcols.reshape(groups, -1, kh * kw, fin).transpose(1, 2, 0, 3)
    dwin = dcols.reshape(n, oh, ow, kh, kw, input_sizes[3])
    return scatter_windows(dwin, input_sizes, pads, strides[1:3], dilations[1:3])


def _conv2d_backprop_filter(x: np.ndarray, dy: np.ndarray, filter_sizes: tuple, strides: tuple, padding: str,
                            explicit_paddings: tuple, dilations: tuple) -> np.ndarray:
    if onednn_conv(x.dtype.name):   # (past the constructor, oneDNN's corner case before any rank)
        _check_conv_attrs(strides, dilations, "Conv2DBackpropFilter", padding, explicit_paddings, x.dtype)
        if onednn_filter_corner(x, dy, filter_sizes):
            return np.zeros(tuple(filter_sizes), x.dtype)
    groups = _check_conv(x.shape, filter_sizes, strides, dilations, "Conv2DBackpropFilter", dtype=x.dtype)
    _check_backprop_dilation(x.dtype, dilations, "Conv2DBackpropFilter", padding)
    if _onednn_empty(x):
        return np.zeros(tuple(filter_sizes), x.dtype)
    kh, kw, fin, cout = filter_sizes
    cols, (oh, ow), pads = _cols(x, filter_sizes, strides, padding, explicit_paddings, dilations,
                                  "Conv2DBackpropFilter")
    _check_dw_out_backprop(dy, (x.shape[0], oh, ow, cout), "Conv2DBackpropFilter", padding)
    if groups > 1 and not onednn_conv(x.dtype.name) and not context.in_xla():   # (XLA's kernels take it)
        # (TF's own Conv2DCustomBackpropFilterOp computes no groups: its filter_total_size is the window times the
        # input's depth, more than the filter of filter_sizes holds; fz35a, sig seed 3520261211 #139)
        raise errors.InvalidArgumentError(None, None, "filter_size does not have enough elements, requested "
                                          f"{kh * kw * x.shape[3] * cout}, got {kh * kw * fin * cout} "
                                          "[Op:Conv2DBackpropFilter]")
    dy2 = dy.reshape(-1, cout)
    if groups == 1 and _eigen_half(x.dtype):
        if x.shape[0] == 0:   # (no rows: Eigen's half contraction over none is zeros, as TF 2.21's mixed_float16 fit
            #                    of an empty MirroredStrategy(3) replica batch computes it; kfuzz51, seed 5120261201 #20)
            return np.zeros(tuple(filter_sizes), x.dtype)
        return _eigen_half_filter_sum(cols.reshape(x.shape[0], -1, kh * kw * fin), dy2.reshape(x.shape[0], -1, cout),
                                      per_image=False).reshape(filter_sizes)
    if groups == 1 and _onednn_filter_in_order(cols, cout, fin <= 9) and onednn_1x1.applies(
            filter_sizes, strides, padding, explicit_paddings):
        # (oneDNN's 1x1 kernel: pixel blocks per call, its threads' balance; onednn_1x1.py, onednn55 and conv60)
        return onednn_1x1.filter_sums(cols, dy2, x.shape[0], x.shape[2], x.shape[1],
                                      host_cpu.current().parallelism).reshape(filter_sizes)
    if groups == 1 and _onednn_filter_in_order(cols, cout) and onednn_backprop_filter.applies(
            x.shape, filter_sizes, (oh, ow), strides[1:3], dilations[1:3], padding, pads):
        # (oneDNN's float32 backward weights, its threads' split and its kernels' sums: per chunk of an output row
        # from 16 input channels at column stride 1, else one sum a thread; onednn_backprop_filter.py, conv60)
        return onednn_backprop_filter.filter_sums(cols, dy, x.shape, filter_sizes, strides[1:3], pads,
                                                  host_cpu.current().parallelism)
    if groups == 1 and fin <= 9 and _onednn_in_order(cols, cout):
        # (elsewhere — dilated, explicitly padded, under XLA — 1 to 9 input channels: two threads over the images, as
        # onednn55 measured)
        return _onednn_filter_sums(cols, dy2, x.shape[0]).reshape(filter_sizes)
    if groups == 1:
        return matmul(cols.T, dy2).reshape(filter_sizes)
    dyg = dy2.reshape(-1, groups, cout // groups).transpose(1, 0, 2)
    dfg = matmul(_grouped(cols, kh * kw, groups).transpose(0, 2, 1), dyg)   # [G, k*fin, cout/G]
    return dfg.transpose(1, 0, 2).reshape(filter_sizes)


def _check_out_backprop(dy: np.ndarray, want: Sequence[int], op: str) -> None:
    if tuple(dy.shape) != tuple(want):
        raise errors.InvalidArgumentError(None, None, f"{op}: Size of out_backprop doesn't match computed: actual = "
                                          f"{_dims(dy.shape)}, computed = {_dims(want)} [Op:{op}]")


def _conv_flops(x_shape: Sequence[int], f_shape: Sequence[int], out_pixels: int) -> float:
    kh, kw, fin, cout = f_shape
    return 2.0 * out_pixels * kh * kw * fin * cout


def _summed_rows(attrs: dict, lane_shapes: list) -> bool:
    """The filter gradient sums over the batch rows of x and dy, whatever its attributes."""
    return True


CONV2D = register("Conv2D", _conv2d, typed("Conv2D", CONV),
                  lambda a, out, at: _conv_flops(a[0].shape, a[1].shape, out.size // out.shape[-1]),
                  kind="contraction", fusion=rows(0))
CONV2D_BACKPROP_INPUT = register(
    "Conv2DBackpropInput", _conv2d_backprop_input, typed("Conv2DBackpropInput", CONV),
    lambda a, out, at: _conv_flops(out.shape, a[0].shape, a[1].size // a[1].shape[-1]),
    kind="contraction", fusion=CONV_INPUT_ROWS)
CONV2D_BACKPROP_FILTER = register(
    "Conv2DBackpropFilter", _conv2d_backprop_filter, typed("Conv2DBackpropFilter", FLOATS),
    lambda a, out, at: (_conv_flops(a[0].shape, out.shape, a[1].size // a[1].shape[-1])
                        if out.size and a[1].size else 0.0),
    kind="contraction",
    fusion=lanes("sums over the lane's rows: no stacked form; its cross-replica sum is fused (sums)"),
    sums=_summed_rows)


# --- DepthwiseConv2dNative ------------------------------------------------------------------------------
def _check_depthwise(x_shape: Sequence[int], f_shape: Sequence[int], dtype: Any, op: str) -> bool:
    """The depthwise backprops' depth rules (observed on TF 2.21; fz38a, tape seed 3820261209 #143): TF's own
    kernels (float64; float16 without oneDNN) "DepthwiseConv2DBackpropFilter: input and filter must have the same
    in_depth"; oneDNN's (float32, bfloat16) the forward's grouped-convolution rules (`_depthwise_depths`): a depth
    that divides passes them and the primitive's creation aborts. True there."""
    if len(x_shape) != 4:
        raise errors.InvalidArgumentError(None, None, f"input must be 4-dimensional{_dims(x_shape)} [Op:{op}]")
    if len(f_shape) != 4:
        raise errors.InvalidArgumentError(None, None, f"filter must be 4-dimensional: {_dims(f_shape)} [Op:{op}]")
    if x_shape[3] != f_shape[2] and not onednn_conv(np.dtype(dtype).name):
        label = "DepthwiseConv2DBackpropFilter" if op.endswith("Filter") else "DepthwiseConv2DBackpropInput"
        raise errors.InvalidArgumentError(None, None, f"{label}: input and filter must have the same in_depth "
                                                      f"[Op:{op}]")
    return _grouped_depths(x_shape[3], f_shape[2], f_shape[3], op)


def _grouped_depths(cin: int, fin: int, multiplier: int, op: str) -> bool:
    """oneDNN's depthwise depth checks (a grouped convolution's): the input depth a multiple of the filter's, the
    output depth (fin * multiplier) a multiple of the groups; True where they pass with cin != fin (the primitive's
    creation then aborts)."""
    if cin == fin:
        return False
    if fin == 0 or cin % fin:
        raise errors.InvalidArgumentError(
            None, None, f"input depth must be evenly divisible by filter depth: {cin} vs {fin} [Op:{op}]")
    groups, out = cin // fin, fin * multiplier
    if out % groups:
        raise errors.InvalidArgumentError(None, None, f"output depth must be evenly divisible by number of groups: "
                                                      f"{out} vs {groups} [Op:{op}]")
    return True


def _depthwise_depths(x: np.ndarray, f: np.ndarray) -> bool:
    """DepthwiseConv2dNative's depth rules, observed on TF 2.21 (fz32a, function seed 3220261205 #198). TF's own
    kernel (float64; float16 without oneDNN's support): "input and filter must have the same depth: 4 vs 1".
    oneDNN's (float32, bfloat16) reads the filter as a grouped convolution's: the input depth a multiple of the
    filter's ("input depth must be evenly divisible by filter depth: 4 vs 3"), the output depth (the filter's
    last two dimensions' product) of the groups ("output depth must be evenly divisible by number of groups:
    1 vs 4"); any other mismatch passes and the primitive's creation aborts after the window sizes. True there."""
    op = "DepthwiseConv2dNative"
    if len(x.shape) != 4:
        raise errors.InvalidArgumentError(None, None, f"input must be 4-dimensional{_dims(x.shape)} [Op:{op}]")
    if len(f.shape) != 4:
        raise errors.InvalidArgumentError(None, None, f"filter must be 4-dimensional: {_dims(f.shape)} [Op:{op}]")
    cin, fin = x.shape[3], f.shape[2]
    if cin == fin:
        return False
    if not onednn_conv(x.dtype.name):
        raise errors.InvalidArgumentError(None, None, f"input and filter must have the same depth: {cin} vs {fin} "
                                                      f"[Op:{op}]")
    return _grouped_depths(cin, fin, f.shape[3], op)


def _depthwise(x: np.ndarray, f: np.ndarray, strides: tuple, padding: str, explicit_paddings: tuple,
               dilations: tuple, traced: bool = False) -> np.ndarray:
    aborts = _depthwise_depths(x, f)
    kh, kw, c, m = f.shape
    cols, (oh, ow), pads = _cols(x, f.shape, strides, padding, explicit_paddings, dilations, "DepthwiseConv2dNative")
    if _onednn_empty(x, traced):
        return x.copy()
    if oh * ow * c * m == 0 and not traced and _input_shaped_empty(x.dtype.name):   # (as _conv2d's)
        return np.zeros(x.shape, x.dtype)
    if (aborts or min(pads) < 0) and oh * ow * c * m:   # (after the window sizes; an output of no elements is
        # returned unmade, as observed on the AMD host: a 3x3 VALID window of a 2x2 input; a negative pad:
        # onednn_padding.py)
        raise _primitive_error("DepthwiseConv2dNative")
    if _eigen_half(x.dtype):
        return _eigen_half_depthwise(cols, f).reshape(x.shape[0], oh, ow, c * m)
    if _eigen_depthwise_in_order(x.dtype):
        return _eigen_taps_in_order(cols, f).reshape(x.shape[0], oh, ow, c * m)
    if _onednn_depthwise_in_order(x.dtype, padding, dilations, cols.size * m):
        # (oneDNN's float32 depthwise forward: the taps ascending, fused from +0; onednn_depthwise.py, conv60)
        return onednn_depthwise.forward(cols, f).reshape(x.shape[0], oh, ow, c * m)
    by_channel = cols.reshape(-1, kh * kw, c).transpose(2, 0, 1)            # [C, P, K]
    out = matmul(by_channel, f.reshape(kh * kw, c, m).transpose(1, 0, 2))  # [C, P, M]
    return out.transpose(1, 0, 2).reshape(x.shape[0], oh, ow, c * m)


def _onednn_depthwise_in_order(dtype: Any, padding: str, dilations: Sequence[int], products: int) -> bool:
    """Whether a float32 depthwise convolution (forward or backward data) of `products` multiply-adds runs in
    oneDNN's order here (onednn_depthwise.py): oneDNN on for float32, not under XLA, VALID or SAME, no dilation."""
    budget = _ordered_filter_budget()
    return (np.dtype(dtype) == np.float32 and onednn_conv("float32") and not context.in_xla()
            and onednn_depthwise.applies(padding, dilations[1:3]) and 0 < products <= budget)


def _eigen_half(dtype: Any) -> bool:
    """float16 or bfloat16 on TF 2.21's own (Eigen) convolution kernels: where oneDNN does not take the dtype (an
    AVX2-only CPU), outside XLA."""
    return np.dtype(dtype).name in ("float16", "bfloat16") and not onednn_conv(np.dtype(dtype).name) \
        and not context.in_xla()


def _eigen_half_filter_sum(cols: np.ndarray, dy: np.ndarray, per_image: bool) -> np.ndarray:
    """A filter gradient of float16/bfloat16 as TF 2.21's own kernels sum it (`_eigen_half`): the products of each
    output pixel's window and its out_backprop (exact in float32) added one pixel after another in row-major order,
    the accumulator of the input's type (rounded after each pixel). Conv2DBackpropFilter runs one accumulator over
    the batch's pixels (`per_image=False`: [N, P, K*C] windows and [N, P, O] out_backprop, a [K*C, O] result);
    DepthwiseConv2dNativeBackpropFilter one per image, the images' buffers then added in order, rounded
    (`per_image=True`: [N, P, K, C, 1] and [N, P, 1, C, M], a [K, C, M] result). Observed bit for bit on the AMD
    EPYC host (kfuzz47: 1x1, 2x2, 3x3 SAME and 3x3 stride-2 filters, both types, 0 of 396 elements apart; a
    float32 sum rounded once is 30-75% apart)."""
    dt = cols.dtype
    xs, ds = cols.astype(np.float32), dy.astype(np.float32)
    total = None
    with np.errstate(over="ignore", invalid="ignore"):
        acc = None
        for b in range(xs.shape[0]):
            if per_image or acc is None:
                acc = np.zeros(np.broadcast_shapes(xs.shape[2:], ds.shape[2:]) if per_image
                               else (xs.shape[2], ds.shape[2]), np.float32)
            for p in range(xs.shape[1]):
                prod = xs[b, p] * ds[b, p] if per_image else xs[b, p][:, None] * ds[b, p][None, :]
                acc = (acc + prod).astype(dt).astype(np.float32)
            if per_image:
                total = acc if total is None else (total + acc).astype(dt).astype(np.float32)
        if not per_image:
            total = acc
    if total is None:   # (an empty batch)
        shape = np.broadcast_shapes(xs.shape[2:], ds.shape[2:]) if per_image else (xs.shape[2], ds.shape[2])
        total = np.zeros(shape, np.float32)
    return total.astype(dt)


def _eigen_half_depthwise(cols: np.ndarray, f: np.ndarray) -> np.ndarray:
    """TF 2.21's own (Eigen) DepthwiseConv2dNative kernel for float16 and bfloat16, where oneDNN does not take
    the dtype (an AVX2-only CPU): the accumulator is of the input's type, each filter tap in row-major order
    added as `round(acc + x * k)` (the product exact in float32, rounded to the type once per tap). Observed bit
    for bit on the AMD EPYC host (kfuzz47: 2x2, 3x3 SAME, 3x2 stride-2 and 1x1 filters, multipliers 1-3, both
    types, 0 of 1,680 elements apart per type; a float32 sum rounded once is 47-206 apart); a SeparableConv2D
    under mixed_bfloat16 took its forward 1 bfloat16 ulp apart in 50 of 144 outputs (training fuzzer seed
    4720261201 #8). [P, K*C] patches and a [kh, kw, C, M] filter -> [P, C*M]."""
    kh, kw, c, m = f.shape
    taps = cols.reshape(-1, kh * kw, c).astype(np.float32)                  # [P, K, C]
    ff = f.reshape(kh * kw, c, m).astype(np.float32)                        # [K, C, M]
    acc = np.zeros((taps.shape[0], c, m), np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(kh * kw):
            acc = (acc + taps[:, k, :, None] * ff[k]).astype(f.dtype).astype(np.float32)
    return acc.astype(f.dtype).reshape(-1, c * m)


def _eigen_depthwise_in_order(dtype: Any) -> bool:
    """float32 or float64 on TF 2.21's own DepthwiseConv2dNative kernel: float64 on every CPU, float32 where
    oneDNN does not take it (an AVX2-only CPU), outside XLA."""
    name = np.dtype(dtype).name
    return name in ("float32", "float64") and not onednn_conv(name) and not context.in_xla()


def _eigen_taps_in_order(cols: np.ndarray, f: np.ndarray) -> np.ndarray:
    """TF 2.21's own DepthwiseConv2dNative kernel for float32 and float64 (depthwise_conv_op.cc
    DepthwiseConv2DKernel): each output's accumulator starts at +0 and takes the filter taps in row-major order
    (padded taps read the input buffer's zeros) with Eigen's pmadd, which the wheel (AVX, no FMA) compiles as a
    rounded product and a rounded sum: `acc = acc + x * k` in the dtype. Observed bit for bit on the AMD EPYC host
    (fz48b: 60 of 60 seeded float32 cases, filters 1x1 to 3x3, strides 1 and 2, SAME and VALID, multipliers 1-2,
    up to 9 channels; a fused multiply-add order was off in 39 of them, BLAS's in most; fz48b_gen seed 48001 #4 and
    #30, depthwise_conv2d and separable_conv2d one ulp apart). [P, K*C] patches and a [kh, kw, C, M] filter ->
    [P, C*M]."""
    kh, kw, c, m = f.shape
    dt = f.dtype
    taps = cols.reshape(-1, kh * kw, c)                                     # [P, K, C]
    ff = f.reshape(kh * kw, c, m)                                           # [K, C, M]
    acc = np.zeros((taps.shape[0], c, m), dt)
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(kh * kw):
            acc = acc + taps[:, k, :, None] * ff[k]
    return acc.reshape(-1, c * m)


_ONEDNN_SOURCE = {"DepthwiseConv2dNativeBackpropInput": "mkl_conv_grad_input_ops.cc:546",
                  "DepthwiseConv2dNativeBackpropFilter": "mkl_conv_grad_filter_ops.cc:685",
                  "Conv2DBackpropInput": "mkl_conv_grad_input_ops.cc:546",
                  "Conv2DBackpropFilter": "mkl_conv_grad_filter_ops.cc:685"}


def _check_dw_out_backprop(dy: np.ndarray, want: Sequence[int], op: str, padding: str = "") -> None:
    """The 2-D backprops' out_backprop shape (depthwise and Conv2D): Eigen's kernels' InvalidArgumentError,
    oneDNN's (float32, bfloat16; float16 where the CPU takes it) AbortedError from the primitive's creation for
    an out_backprop of rank 4 and another shape, its batch, rows, columns or depth (observed on TF 2.21; fz36a:
    Conv2DBackpropInput, sig seed 3620261212 #199, function seed 3620261216 #63). (TF aborts the process for
    one of another rank: simdist keeps the InvalidArgumentError.) With EXPLICIT padding the op is TF's own kernel
    on every dtype (raw_layout.declined): InvalidArgumentError (suite/test_asweep58.py)."""
    if (tuple(dy.shape) != tuple(want) and dy.ndim == len(want) and onednn_conv(np.dtype(dy.dtype).name)
            and padding != "EXPLICIT"):
        raise _primitive_aborted(op)
    _check_out_backprop(dy, want, op)


def _own_kernel_strides(strides: tuple, padding: str, op: str) -> None:
    """A depthwise backprop with EXPLICIT padding is TF's own kernel on every dtype (raw_layout.declined), whose
    constructor refuses unequal row and column strides (the gradient of depthwise_conv2d with strides [1, 2, 1, 1]
    and explicit paddings: TF 2.21 on the oneDNN host, suite/test_asweep58.py)."""
    if padding == "EXPLICIT" and int(strides[1]) != int(strides[2]):
        raise errors.InvalidArgumentError(None, None, "Current implementation only supports equal length strides in "
                                          f"the row and column dimensions. [Op:{op}]")


def _primitive_aborted(op: str) -> errors.AbortedError:
    """oneDNN's AbortedError when it cannot create the backprop's primitive."""
    return errors.AbortedError(None, None, "Operation received an exception:Status: 2, message: could not "
                               "create a primitive descriptor for the convolution forward propagation "
                               "primitive. Run workload with environment variable ONEDNN_VERBOSE=all to get "
                               "additional diagnostic information., in file "
                               f"tensorflow/core/kernels/mkl/{_ONEDNN_SOURCE[op]} [Op:{op}]")


def _dw_dilations(dtype: Any, dilations: tuple) -> tuple:
    """TF 2.21's CPU depthwise backprops compute undilated whatever the dilations attr holds (Eigen's
    kernels read none; oneDNN's, float32 and bfloat16, skip the attr for depthwise: [1, 1, 2] too;
    observed on TF 2.21, fz20_seen seed 2620261205 #103), as the public wrappers pass them
    (conv_transpose._depthwise_backprop)."""
    return (1, 1, 1, 1)


def _layout_refusal(op: str) -> errors.UnimplementedError:
    """TF's own CPU depthwise backprops refuse NCHW in their launcher, after every check of Compute and its
    return of an empty output (`channels_first`: the NHWC kernel run for an NCHW call, raw_layout's
    `_own_depthwise_backprop`; fz47)."""
    return errors.UnimplementedError(None, None, f"Depthwise convolution on CPU is only supported for NHWC format "
                                                 f"[Op:{op}]")


def _depthwise_backprop_input(f: np.ndarray, dy: np.ndarray, input_sizes: tuple, strides: tuple, padding: str,
                              explicit_paddings: tuple, dilations: tuple, channels_first: bool = False) -> np.ndarray:
    op = "DepthwiseConv2dNativeBackpropInput"
    _own_kernel_strides(strides, padding, op)
    dilations = _dw_dilations(f.dtype, dilations)
    grouped = _check_depthwise(input_sizes, f.shape, f.dtype, op)
    if _onednn_empty_sizes(input_sizes, f.dtype):
        return np.zeros(tuple(input_sizes), f.dtype)
    kh, kw, c, m = f.shape
    (oh, ow), pads = window_geometry(input_sizes[1:3], (kh, kw), strides[1:3], dilations[1:3], padding,
                                     explicit_paddings, op)
    if grouped:
        raise _primitive_aborted(op)
    _check_dw_out_backprop(dy, (input_sizes[0], oh, ow, c * m), op, padding)
    if int(np.prod(input_sizes)) == 0:   # (nothing to compute: TF returns before its launcher)
        return np.zeros(tuple(input_sizes), f.dtype)
    if channels_first:
        raise _layout_refusal(op)
    if dy.size == 0:   # (an input the empty gradient never reaches: zeros)
        return np.zeros(tuple(input_sizes), f.dtype)
    if dy.dtype == np.float32 and _onednn_depthwise_in_order(f.dtype, padding, dilations,
                                                             int(np.prod(input_sizes)) * kh * kw * m):
        # (oneDNN's float32 depthwise backward data: the taps ascending, the multipliers inside, one sum fused from
        # +0, strided too; onednn_depthwise.py, conv60)
        return onednn_depthwise.backprop_input(f, dy, input_sizes, pads, strides[1:3])
    dyc = dy.reshape(-1, c, m).transpose(1, 0, 2)                             # [C, P, M]
    dcols = matmul(dyc, f.reshape(kh * kw, c, m).transpose(1, 2, 0))       # [C, P, K]
    dwin = dcols.transpose(1, 2, 0).reshape(input_sizes[0], oh, ow, kh, kw, c)
    return scatter_windows(dwin, input_sizes, pads, strides[1:3], dilations[1:3])


def _depthwise_backprop_filter(x: np.ndarray, dy: np.ndarray, filter_sizes: tuple, strides: tuple, padding: str,
                               explicit_paddings: tuple, dilations: tuple, channels_first: bool = False) -> np.ndarray:
    op = "DepthwiseConv2dNativeBackpropFilter"
    _own_kernel_strides(strides, padding, op)
    dilations = _dw_dilations(x.dtype, dilations)
    grouped = _check_depthwise(x.shape, filter_sizes, x.dtype, op)
    if _onednn_empty(x):
        return np.zeros(tuple(filter_sizes), x.dtype)
    kh, kw, c, m = filter_sizes
    cols, (oh, ow), pads = _cols(x, filter_sizes, strides, padding, explicit_paddings, dilations, op)
    if grouped:
        raise _primitive_aborted(op)
    _check_dw_out_backprop(dy, (x.shape[0], oh, ow, c * m), op, padding)
    if dy.size == 0 or int(np.prod(filter_sizes)) == 0:
        # (nothing to compute: TF 2.21's kernel returns the output as allocated, uninitialised where the filter is
        # not empty (observed: -6.9e-18); zeros here; fz47)
        return np.zeros(tuple(filter_sizes), x.dtype)
    if channels_first:
        raise _layout_refusal(op)
    if _eigen_half(x.dtype):
        n = x.shape[0]
        taps = cols.reshape(n, -1, kh * kw, c, 1)                              # [N, P, K, C, 1]
        return _eigen_half_filter_sum(taps, dy.reshape(n, -1, 1, c, m), per_image=True).reshape(filter_sizes)
    threads = host_cpu.current().parallelism
    dw = onednn_depthwise.dw_kernel(x.shape, filter_sizes, (oh, ow), strides[1:3], pads)
    if (dy.dtype == np.float32 and _onednn_depthwise_in_order(x.dtype, padding, dilations, cols.size * m)
            and onednn_depthwise.filter_applies(c, dw, threads)):
        # (oneDNN's float32 depthwise backward weights: its threads' split and its kernels' chains; onednn_depthwise.py)
        return onednn_depthwise.filter_sums(cols, dy, x.shape, filter_sizes, strides[1:3], pads, dw, threads)
    by_channel = cols.reshape(-1, kh * kw, c).transpose(2, 1, 0)              # [C, K, P]
    dyc = dy.reshape(-1, c, m).transpose(1, 0, 2)                             # [C, P, M]
    return matmul(by_channel, dyc).transpose(1, 0, 2).reshape(filter_sizes)


def _dw_flops(f_shape: Sequence[int], out_pixels: int) -> float:
    kh, kw, c, m = f_shape
    return 2.0 * out_pixels * kh * kw * c * m


DEPTHWISE = register("DepthwiseConv2dNative", _depthwise, typed("DepthwiseConv2dNative", FLOATS),
                     lambda a, out, at: _dw_flops(a[1].shape, out.size // out.shape[-1]),
                  kind="contraction", fusion=rows(0))
def _window_standin(known: Sequence[Any], arrays: Sequence[np.ndarray], attrs: dict, depthwise: bool) -> tuple:
    """Conv2DShape / DepthwiseConv2DNativeShape (NHWC) past a kernel's refusal of a dry run's probes: the batch the
    input's, each spatial size from the probes' (at least 1 where the graph knows neither the input's nor the
    filter's size there: a probe of 1 under a VALID dilated window is no size TF's graph has), the channels the
    filter's; a refusal on sizes the graph knows stands (`conv2d` of [2, None, 6, 3] by [3, 2, 3, 4] with dilations
    2, VALID, is [2, None, 4, 4] in TF's trace; fix64s)."""
    x, f = arrays[0], arrays[1]
    kx, kf = known[0], known[1]
    if x.ndim != 4 or f.ndim != 4:
        raise ValueError("not a 2-D window")
    st, dl = attrs.get("strides", (1,) * 4), attrs.get("dilations", (1,) * 4)
    pad = str(attrs.get("padding", "VALID"))
    explicit = list(attrs.get("explicit_paddings", ()))
    dims = []
    for i in (0, 1):
        ex = explicit[2 + 2 * i:4 + 2 * i] if pad == "EXPLICIT" else [0, 0]
        eff = (f.shape[i] - 1) * int(dl[1 + i]) + 1
        size, stride = x.shape[1 + i], int(st[1 + i])
        out = (size + stride - 1) // stride if pad == "SAME" else (size + sum(ex) - eff + stride) // stride
        graph_knows = kx is not None and kx[1 + i] is not None and kf is not None and kf[i] is not None
        if out < 0 and graph_knows:
            raise ValueError("a size the graph knows")
        dims.append(max(out, 1) if not graph_knows else out)
    ch = f.shape[2] * f.shape[3] if depthwise else f.shape[3]
    return ((x.shape[0], dims[0], dims[1], ch),)


CONV2D.standin_known = lambda known, arrays, attrs: _window_standin(known, arrays, attrs, False)
DEPTHWISE.standin_known = lambda known, arrays, attrs: _window_standin(known, arrays, attrs, True)


DEPTHWISE_BACKPROP_INPUT = register(
    "DepthwiseConv2dNativeBackpropInput", _depthwise_backprop_input,
    typed("DepthwiseConv2dNativeBackpropInput", FLOATS), lambda a, out, at: _dw_flops(a[0].shape,
                                                                                      a[1].size // a[1].shape[-1]),
    kind="contraction", fusion=lanes("its input_sizes attribute is one lane's batch: no stacked form written"))
DEPTHWISE_BACKPROP_FILTER = register(
    "DepthwiseConv2dNativeBackpropFilter", _depthwise_backprop_filter,
    typed("DepthwiseConv2dNativeBackpropFilter", FLOATS), lambda a, out, at: _dw_flops(out.shape,
                                                                                       a[1].size // a[1].shape[-1]),
    kind="contraction", fusion=lanes("a stacked form would sum the lanes together; no fused sum written"))


# --- argument handling (nn_ops.py's _get_sequence and convert_padding) --------------------------------------
def spatial_sequence(value: Any, n: int, name: str, channels_first: bool = False) -> tuple[int, ...]:
    """TF's _get_sequence: an int or a list of length 1, n or n + 2 -> the n + 2 values (batch
    and channel 1, the channel last or, for NCHW, second). Anything else is `list(value)`: a
    tensor inside a tf.function (a captured eager one too) is OperatorNotAllowedInGraphError
    ("Iterating over a symbolic `tf.Tensor`"), eagerly its elements."""
    if value is None:
        return (1,) * (n + 2)
    if isinstance(value, Tensor):
        if context.in_function():   # (`list(value)` of a tensor while a graph is built, captured ones too: fz15c)
            raise _symbolic.iter_error()
        if value.shape.rank == 0:
            # (an EagerTensor is Sized, and `list()` of a scalar one is its TypeError: `conv1d(x, f, stride=<scalar
            # tensor>)`, `max_pool3d(x, <scalar tensor>, ...)`; fz66, fz62gen seed 66405 #5)
            raise TypeError("Cannot iterate over a scalar tensor.")
        value = value._v.tolist()
    # (a list as it is, a tuple listed, an int or anything not Sized, a float or a NumPy scalar, one
    # element: `stride=2.5` is [2.5], which the op's make_int takes as 2; fz20)
    vals = [value] if isinstance(value, (int, np.integer)) or not isinstance(value, collections.abc.Sized) \
        else list(value)
    from simdist.runtime.ops import attr_rules
    if attr_rules.resource_variable(value) and value.shape.num_elements() != 1:
        # (a variable is not Sized: one element, which the op's make_int refuses first thing, "Expected int for
        # argument 'strides' not <tf.Variable ...>"; fz66)
        raise TypeError(f"Expected int for argument '{name}' not {value!r}.")
    if len(vals) == n + 2:
        return tuple(_int_or_raw(v) for v in vals)
    if len(vals) == 1:
        vals = vals * n
    elif len(vals) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: {name}={vals} of length "
                         f"{len(vals)}")
    if channels_first:
        return (1, 1) + tuple(_int_or_raw(v) for v in vals)
    return (1,) + tuple(_int_or_raw(v) for v in vals) + (1,)


def _int_or_raw(v: Any) -> Any:
    """An element of a _get_sequence list as an int where it is one; else as given (TF's wrapper
    passes it on, and the op's make_int refuses it later, after the wrapper's other steps)."""
    if isinstance(v, (str, bytes)):   # (make_int refuses a string: "Expected int for argument 'strides' not '2'.")
        return v
    try:
        return int(v)
    except (TypeError, ValueError):
        return v


def nchw_to_nhwc(seq: Sequence[Any]) -> tuple:
    """A per-dimension sequence (strides, dilations, ksize, explicit pads) in NCHW order -> NHWC."""
    return (seq[0], seq[2], seq[3], seq[1])


def normalize_padding(padding: Any, op: str, explicit_ok: bool = True,
                      inputs: Sequence[Any] = ()) -> tuple[str, tuple[int, ...]]:
    """TF's convert_padding and the kernels' attr check: ("SAME" | "VALID" | "EXPLICIT", flat
    explicit paddings). In a graph the op's `inputs` (as given, OpDef order) are checked first
    (op_def_library reads the attrs after the inputs: graph_inputs)."""
    if isinstance(padding, (list, tuple)):
        if not explicit_ok:
            raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
        flat: list[int] = []
        for i, dim in enumerate(padding):
            if not isinstance(dim, (list, tuple)):
                raise ValueError("When `padding` is a list, each element of `padding` must be a list/tuple of size 2. "
                                 f"Received: padding={padding} with element at index {i} of type {type(dim)}")
            if len(dim) != 2:
                raise ValueError("When `padding` is a list, each element of `padding` must be a list/tuple of size 2. "
                                 f"Received: padding={padding} with element at index {i} of size {len(dim)}")
            flat += [int(dim[0]), int(dim[1])]
        if len(padding) != 4:
            raise ValueError(f"When padding is a list, it must be of size 4. Received: padding={padding} of size "
                             f"{len(padding)}")
        if flat[0] or flat[1] or flat[6] or flat[7]:
            raise errors.InvalidArgumentError(None, None, "Nonzero explicit padding in the batch or depth dimensions "
                                              f"is not supported [Op:{op}]")
        return "EXPLICIT", tuple(flat)
    if padding == "EXPLICIT" and explicit_ok:
        raise ValueError("'EXPLICIT' is not a valid value for `padding`. To use explicit padding, `padding` must be "
                         "a list.")
    if padding not in ("SAME", "VALID"):
        allowed = '"SAME", "VALID", "EXPLICIT"' if explicit_ok else '"SAME", "VALID"'
        err = errors.InvalidArgumentError(None, None, f"Value for attr 'padding' of \"{padding}\" is not in the list "
                                          f"of allowed values: {allowed} [Op:{op}]")
        if isinstance(padding, str):   # (op_def_library's ValueError while a tf.function is traced)
            graph_inputs.check(op, inputs)
            raise trace_errors.bad_attr(err, op, "padding", padding, allowed)
        raise err
    return padding, ()


# TF 2.21's x86 CPU build convolves NCHW only in its oneDNN kernels (onednn_conv); others raise


def _format_list(op: str) -> list[str]:
    """op's OpDef list of data formats."""
    from simdist.runtime.ops import raw_ops
    return next(a for a in raw_ops.opdefs()["ops"][op]["args"] if a.get("attr") == "data_format")["allowed"]


def format_attr(op: str, data_format: Any) -> None:
    """A data_format string outside op's OpDef list: eagerly the NodeDef's InvalidArgumentError, in a
    graph op_def_library's ValueError (trace_errors.string_attr), in the OpDef's order (after padding)."""
    if isinstance(data_format, str):
        trace_errors.check_string(op, "data_format", data_format, _format_list(op))


def check_data_format(data_format: Any, default: str = "NHWC", nchw_ok: bool = False, op: str | None = None) -> bool:
    """simdist computes the channels-last layout (TF's CPU default), and for conv2d NCHW (which
    TF 2.21's x86 CPU build runs through oneDNN) by transposing to it; True for NCHW. With `op`, a
    string outside its OpDef list ("NDHWC" for Conv2D) reads as channels-last here (nn_ops' channel
    index for a format not starting "NC"): the attr's error is `format_attr`'s, which the caller
    raises in the OpDef's order, after the strides' sequence and padding (fz34b)."""
    if nchw_ok and data_format == "NCHW":
        return True
    if op is not None and isinstance(data_format, str) and data_format not in _format_list(op):
        return False
    if data_format not in (None, default, "NWC", "NHWC"):
        raise errors.UnimplementedError(None, None, f"simdist computes convolutions and pooling in the channels-last "
                                        f"layout ({default}) only; got data_format={data_format!r}")
    return False


def to_channels_last(x: Tensor) -> Tensor:
    """NCHW -> NHWC (a Transpose op, so gradients flow back through it)."""
    return array.transpose(x, [0, 2, 3, 1])


def to_channels_first(x: Tensor) -> Tensor:
    """NHWC -> NCHW."""
    return array.transpose(x, [0, 3, 1, 2])


# --- public functions ------------------------------------------------------------------------------------------
def conv2d(input: Any, filters: Any, strides: Any, padding: Any, data_format: str = "NHWC",  # noqa: A002
           dilations: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.conv2d`: strides and dilations an int or a list of 1, 2 or 4; padding "SAME",
    "VALID" or explicit [[0, 0], [top, bottom], [left, right], [0, 0]]; input ranks above 4 are
    extra batch dimensions. NCHW (TF's CPU runs it through oneDNN) is computed as NHWC between
    two transposes, the same values."""
    nchw = check_data_format(data_format, nchw_ok=True, op="Conv2D")
    st = spatial_sequence(strides, 2, "strides", nchw)
    dl = spatial_sequence(dilations, 2, "dilations", nchw)
    args.raw_attribute(input, "shape")   # (nn_ops.conv2d reads `input.shape` unconverted: a list is AttributeError)
    if nchw:
        if isinstance(padding, (list, tuple)) and len(padding) == 4:
            padding = list(nchw_to_nhwc(padding))
        graph_inputs.check("Conv2D", (input, filters))   # (a graph: before the shape function's rank checks)
        x, f = _shared_t(input, filters)
        if not onednn_conv(x.dtype.name) and not context.in_xla():
            # (XLA's convolution takes NCHW: Keras's grouped channels-first Conv2D, compiled with jit_compile, computes
            # on a CPU without oneDNN, observed; open52)
            # (Conv2DOp::Compute: ComputeConv2DDimension's checks, the output it returns before the CPU launcher
            # refuses NCHW (conv2d_eigen); in a tf.function Conv2DShape's ValueError first)
            for t, what in ((x, "input"), (f, "filter")):
                if t.ndim != 4:
                    raise trace_errors.shape_error(
                        f"convolution {what} must be 4-dimensional: {_dims(t.shape.as_list())} [Op:Conv2D]",
                        f"Shape must be rank 4 but is rank {t.ndim}", "Conv2D", [x.shape.as_list(), f.shape.as_list()])
            pad, explicit = normalize_padding(padding, "Conv2D", inputs=(input, filters))
            _graph_shape_fn(x, f, st, pad, conv2d_eigen.to_nchw_explicit(explicit), dl, "NCHW")
            return conv2d_eigen.channels_first(x, f, st, pad, explicit, dl)
        if x.ndim != 4:
            raise errors.InvalidArgumentError(None, None, f"input must be 4-dimensional{_dims(x.shape.as_list())} "
                                              "[Op:Conv2D]")
        explicit_nchw = isinstance(padding, (list, tuple))
        out = conv2d(to_channels_last(x), f, list(nchw_to_nhwc(st)), padding, "NHWC",
                     list(nchw_to_nhwc(dl)))
        return explicit_backprops_refused(to_channels_first(out)) if explicit_nchw else to_channels_first(out)
    if not context.in_function() and not _fast_conv2d(input, filters, strides, padding, dilations):
        # (the op's eager fallback, taken for a strides or dilations the fast path cannot read (a tensor):
        # args_to_matching_eager converts the inputs before the NodeDef's attr checks, a variable of
        # another dtype than the first EagerTensor its ValueError; fz37b, fz14 seed 1420373005 #167)
        from simdist.runtime.ops import attr_rules
        input, filters = attr_rules.eager_group([input, filters], False)
    if context.in_function():   # (op_def_library: the inputs' types before the attrs, a uint64 input's TypeError
        # before data_format='NWC'; fz39b, fourteenth generator seed 1420393004 #178)
        graph_inputs.check("Conv2D", (input, filters))
    pad, explicit = normalize_padding(padding, "Conv2D", inputs=(input, filters))
    try:
        format_attr("Conv2D", data_format)
    except errors.InvalidArgumentError:
        # (eagerly the NodeDef's attrs in OpDef order: T (a uint64 input) before data_format; fz39b, fourteenth
        # generator seed 1420393004 #178)
        if not context.in_function():
            from simdist.runtime.ops import type_attr_first
            first = type_attr_first.earlier_refusal("Conv2D", [_shared_t(input, filters)[0].dtype])
            if first is not None:
                raise first from None
        raise
    x, f = _shared_t(input, filters)
    # (a graph: op_def_library's types when Conv2D is built, before its shape function; a complex64 input is
    # TypeError with a rank or stride the shape function refuses; fz37b, fz14 seed 1420373003 #106)
    graph_inputs.check("Conv2D", (x, f))
    attrs = {"strides": st, "padding": pad, "explicit_paddings": explicit, "dilations": dl}
    if x.ndim < 4:
        _graph_ranks("Conv2D", x, f)
    if x.ndim == 4:
        _graph_shape_fn(x, f, st, pad, explicit, dl, "NHWC")
    if x.ndim > 4:
        lead = x.shape.as_list()[:-3]
        flat = array.reshape(x, [-1] + x.shape.as_list()[-3:])
        out = dispatch.execute(CONV2D, (flat, f), _traced_attr(attrs))
        return array.reshape(out, lead + out.shape.as_list()[1:])
    return dispatch.execute(CONV2D, (x, f), _traced_attr(attrs))


def explicit_backprops_refused(y: Tensor) -> Tensor:
    """An NCHW Conv2D with explicit paddings that oneDNN computes: oneDNN's layout pass leaves a
    Conv2DBackpropInput/Filter with padding EXPLICIT to TF's own kernels, which refuse NCHW in their
    constructor, so the gradient a tape asks for is InvalidArgumentError "Conv2DCustomBackpropInputOp
    only supports NHWC." (clause ops.nn-nchw-explicit-backprop; observed on TF 2.21 float32,
    float16, bfloat16; fsweep61's f-conv2d `NCHW padding explicit s1/s2`)."""
    from simdist.runtime.autodiff import custom_gradient

    @custom_gradient
    def refused(v: Tensor) -> Any:
        def grad(dy: Tensor) -> Any:
            raise errors.InvalidArgumentError(None, None, "Conv2DCustomBackpropInputOp only supports NHWC. "
                                              "[Op:Conv2DBackpropInput]")
        return array.identity(v), grad
    return refused(y)


def _fast_conv2d(input: Any, filters: Any, strides: Any, padding: Any, dilations: Any) -> bool:  # noqa: A002
    """Whether an eager Conv2D call stays on TF's fast path: its inputs (attr_rules.fast_path_takes),
    strides and dilations of Python ints as nn_ops._get_sequence keeps them, a padding string or explicit
    paddings of Python ints."""
    from simdist.runtime.ops import attr_rules
    pad_ok = isinstance(padding, str) or (isinstance(padding, (list, tuple)) and attr_rules.fast_ints(padding))
    return attr_rules.fast_path_takes("Conv2D", (input, filters)) and attr_rules.fast_ints(strides) and \
        attr_rules.fast_ints(dilations) and pad_ok


def _shared_t(input: Any, filters: Any) -> tuple[Tensor, Tensor]:  # noqa: A002
    """Conv2D's input and filter, which share T: a NumPy filter beside a tensor input is cast to
    its dtype (args.matching: ConvertToEagerTensor's NPY_ARRAY_FORCECAST), so a bool ndarray filter
    of a float32 input convolves as float32 in TF 2.21 (fz31b, fz14 seed 1420313002 #185); tensors
    of two dtypes stay apart for the kernel's check."""
    if isinstance(input, Tensor) and isinstance(filters, Tensor):
        return input, filters
    x, f = args.matching([input, filters], op="Conv2D", names=("input", "filter"))
    return x, f


def _graph_shape_fn(x: Tensor, f: Tensor, strides: Sequence[int], padding: str, explicit: Sequence[int],
                    dilations: Sequence[int], data_format: str) -> None:
    """Inside a tf.function, Conv2D's shape function (Conv2DShapeImpl: the depths, the windows) on
    the shapes the graph knows, as a raw call runs it: ValueError at trace (fz34a)."""
    from simdist.runtime.ops import infer_ctx
    infer_ctx.check("Conv2D", {"input": x, "filter": f},
                    {"strides": list(strides), "padding": padding, "explicit_paddings": list(explicit),
                     "dilations": list(dilations), "data_format": data_format, "use_cudnn_on_gpu": True})


def _graph_ranks(op: str, x: Tensor, f: Tensor) -> None:
    """Inside a tf.function, the op's shape function (Conv2DShapeImpl, DepthwiseConv2DNativeShapeImpl)
    wants input and filter of rank 4 before any attr or kernel check: ValueError "Shape must be rank
    4 but is rank 0" at trace for ranks the graph knows (eagerly the kernel's own order; fz29b,
    fz14 seed 1420292902 #0, #133), after op_def_library's check of the inputs' types (an int64
    input's TypeError; fz33b, fz14 seed 1420333001 #73)."""
    if not context.in_function():
        return
    graph_inputs.check(op, (x, f))
    for t in (x, f):
        if t.ndim != 4 and not _static_shapes.rank_unknown(t):
            shapes = [_static_shapes.known_shape(x), _static_shapes.known_shape(f)]
            raise trace_errors.shape_error(f"{op}: rank {t.ndim} [Op:{op}]", f"Shape must be rank 4 but is rank "
                                           f"{t.ndim}", op, shapes)


def _equal_depthwise_strides(x: Tensor, row: Any, col: Any) -> None:
    """TF 2.21's default (Eigen) depthwise kernel, the one of every float dtype oneDNN does not take
    (float64; float16 where the CPU has no AVX512-FP16), refuses unequal row and column strides."""
    if x.dtype.is_floating and not onednn_conv(x.dtype.name) and int(row) != int(col):
        raise errors.InvalidArgumentError(None, None, "Current implementation only supports equal length strides in "
                                          "the row and column dimensions. [Op:DepthwiseConv2dNative]")


def _py_iter(v: Any) -> list:
    """`for _ in v` as TF's Python runs it on an argument: a tensor inside a tf.function is
    OperatorNotAllowedInGraphError, an int Python's TypeError."""
    if isinstance(v, Tensor) and context.in_function():
        raise _symbolic.iter_error()
    return list(v)


def depthwise_conv2d(input: Any, filter: Any, strides: Any, padding: Any, data_format: Any = None,  # noqa: A002
                     dilations: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.depthwise_conv2d` as nn_impl builds it: input and filter converted, the rate
    (dilations, default [1, 1]) compared with the strides (TF only warns), then
    nn_ops.with_space_to_batch (its checks: the rate a vector of positive ints, the input of rank
    at least 3, or 4 for a channels-first format) around DepthwiseConv2dNative (`_depthwise_native`):
    a rate of ones calls it directly, a dilated one on the SpaceToBatchND of the input with VALID
    padding."""
    from simdist.runtime.ops.nn_composites import with_space_to_batch
    x, f = _t(input), _t(filter)
    rate = [1, 1] if dilations is None else dilations
    if any(r > 1 for r in _py_iter(rate)):
        any(v != 1 for v in _py_iter(strides))   # (TF warns "When dilation rate is greater than 1 ...")

    def op(converted: Tensor, _: int, pad: Any) -> Tensor:
        return _depthwise_native(converted, f, strides, pad, data_format, None)
    # (filter_shape=array_ops.shape(filter): what the graph knows of it, its constant value only when fully known)
    fshape = _static_shapes.known_shape(f) if context.in_function() else f.shape.as_list()
    return with_space_to_batch(x, rate, padding, op, filter_shape=[None] * 4 if fshape is None else fshape,
                               data_format=data_format)


def _depthwise_native(input: Any, filter: Any, strides: Any, padding: Any, data_format: Any = None,  # noqa: A002
                      dilations: Any = None) -> Tensor:
    """DepthwiseConv2dNative (NHWC): channel c of the input convolved with filter[:, :, c, :]
    gives output channels c*M .. c*M+M-1; strides a list of 4. Every layout meets the same checks
    first (gen_nn_ops' strides list, the NodeDef's T, padding and format, the graph's ranks and
    shape function, then the kernel's strides: `_depthwise_strides`); then NCHW: TF 2.21's oneDNN
    kernel (float32, bfloat16, float16 where the CPU takes it) computes the NHWC values between two
    transposes, the default kernels refuse it (UnimplementedError) after their equal-strides check
    (observed; fz38b, fz14_seen seed 1420373006 #131: a tensor strides with NCHW is the list's
    TypeError)."""
    # (gen_nn_ops.depthwise_conv2d_native: the strides list first, TypeError, also when the eager fast
    # path gives up on a NumPy array; then eagerly the op's T before its padding attr; fz28b, fz14 seed
    # 1420282802 #197)
    strides = args.list_attr(strides, "strides", "depthwise_conv2d_native")
    if context.executing_eagerly():
        DEPTHWISE.dtype((_t(input).dtype, _t(filter).dtype), {})
    else:   # (op_def_library: the inputs' types before any attr or shape check; fz31b, fz14 seed 1420313008 #137)
        xd, fd = _t(input).dtype, _t(filter).dtype
        if xd.name not in ("float16", "bfloat16", "float32", "float64"):
            raise TypeError(f"Value passed to parameter 'input' has DataType {xd.name} not in list of allowed values: "
                            "float16, bfloat16, float32, float64")
        if fd != xd:
            raise TypeError(f"Input 'filter' of 'DepthwiseConv2dNative' Op has type {fd.name} that does not match type "
                            f"{xd.name} of argument 'input'.")
    pad, explicit = normalize_padding(padding, "DepthwiseConv2dNative", inputs=(input, filter))
    format_attr("DepthwiseConv2dNative", data_format)
    _graph_ranks("DepthwiseConv2dNative", _t(input), _t(filter))
    if len(strides) != 4 and context.in_function():   # (the shape function's, after the ranks)
        raise trace_errors.shape_error(
            "Sliding window strides field must specify 4 or 5 dimensions [Op:DepthwiseConv2dNative]",
            f"DepthwiseConv2D requires the stride attribute to contain 4 values, but got: {len(strides)}",
            "DepthwiseConv2dNative", [_static_shapes.known_shape(_t(input)), _static_shapes.known_shape(_t(filter))])
    x = _t(input)
    _depthwise_strides(x, strides, dilations, data_format)
    if data_format == "NCHW":
        if onednn_conv(x.dtype.name):
            dl = None if dilations is None else list(nchw_to_nhwc(spatial_sequence(dilations, 2, "dilations", True)))
            if isinstance(padding, (list, tuple)) and len(padding) == 4:
                padding = list(nchw_to_nhwc(padding))
            return to_channels_first(_depthwise_native(to_channels_last(x), filter, list(nchw_to_nhwc(strides)),
                                                       padding, "NHWC", dl))
        raise errors.UnimplementedError(None, None, "Depthwise convolution on CPU is only supported for NHWC "
                                        "format [Op:DepthwiseConv2dNative]")
    st = tuple(int(v) for v in strides)
    dl = spatial_sequence(dilations, 2, "dilations") if dilations is not None else (1, 1, 1, 1)
    attrs = {"strides": st, "padding": pad, "explicit_paddings": explicit, "dilations": dl}
    return dispatch.execute(DEPTHWISE, (x, _t(filter)), _traced_attr(attrs))


def _depthwise_strides(x: Tensor, strides: Sequence[int], dilations: Any, data_format: Any) -> None:
    """The kernel constructors' checks of the strides (TF 2.21, observed; fz38b). oneDNN's (float32,
    bfloat16, float16 where the CPU takes it): 4 or 5 of them, then as many dilations ("Dilation rates
    field must specify 5 dimensions" for 5 strides and the default 4), then 1 at the batch and channel
    places of the layout (UnimplementedError "Current implementation does not yet support strides in
    the batch and depth dimensions."); unequal row and column strides compute. TF's own (float64;
    float16 elsewhere): 4 of them ("Sliding window strides field must specify 4 dimensions"), equal
    row and column strides, then the batch and channel (InvalidArgumentError, the same text)."""
    n = len(strides)
    onednn = onednn_conv(x.dtype.name)
    if onednn:
        if n == 5 and (dilations is None or len(dilations) != 5):
            raise errors.InvalidArgumentError(None, None, "Dilation rates field must specify 5 dimensions "
                                              "[Op:DepthwiseConv2dNative]")
        if n not in (4, 5):
            raise errors.InvalidArgumentError(None, None, "Sliding window strides field must specify 4 or 5 "
                                              "dimensions [Op:DepthwiseConv2dNative]")
    elif n != 4:
        raise errors.InvalidArgumentError(None, None, "Sliding window strides field must specify 4 dimensions "
                                          "[Op:DepthwiseConv2dNative]")
    first = data_format == "NCHW"
    if n == 4:
        row, col = (strides[2], strides[3]) if first else (strides[1], strides[2])
        _equal_depthwise_strides(x, row, col)
        if int(strides[0]) != 1 or int(strides[1] if first else strides[3]) != 1:
            cls = errors.UnimplementedError if onednn else errors.InvalidArgumentError
            raise cls(None, None, "Current implementation does not yet support strides in the batch and depth "
                      "dimensions. [Op:DepthwiseConv2dNative]")


def convolution(input: Any, filters: Any, strides: Any = None, padding: str = "VALID",  # noqa: A002
                data_format: Any = None, dilations: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.convolution` for 1-D (rank-3 input, through Conv2D with a unit height, as TF's
    conv1d), 2-D (Conv2D) and 3-D (Conv3D) convolutions; TF refuses strides > 1 with
    dilations > 1 here."""
    # (nn_ops.convolution_internal: filters, then input, converted; the number of spatial dims from
    # the filters' rank, else the input's; dilations, then strides, through _get_sequence)
    filters = _t(filters)
    x = _t(input)
    fr = None if _static_shapes.rank_unknown(filters) else filters.ndim
    ir = None if _static_shapes.rank_unknown(x) else x.ndim
    if fr:
        nsp = fr - 2
    elif ir:
        nsp = ir - 2
    else:
        raise ValueError("When `num_spatial_dims` is not set, one of `input.shape.rank` or `filters.shape.rank` "
                         f"must be known. Received: input.shape={x.shape} of rank {ir} and "
                         f"filters.shape={filters.shape} of rank {fr}")
    if nsp not in (1, 2, 3):
        raise ValueError(f"`num_spatial_dims` must be 1, 2, or 3. Received: num_spatial_dims={nsp}.")
    nc = data_format is not None and data_format not in ("NWC", "NHWC", "NDHWC")

    def spatial(seq: tuple) -> tuple:
        return seq[2:] if nc else seq[1:-1]
    dl = spatial(spatial_sequence(dilations, nsp, "dilations", nc))
    st = spatial(spatial_sequence(strides, nsp, "strides", nc))
    if any(d != 1 for d in dl):
        _convolution_class_checks(x, filters, nsp, st, dl, nc)
        # (then _WithSpaceToBatch builds _NonAtrousConvolution, which takes only its rank's two formats (or
        # None): NCW given to a 2-D convolution, NCHW to a 3-D one, is ValueError; fsweep61)
        # (a 1-D one goes on to conv1d, whose own check takes NHWC/NCHW too)
        names = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}[nsp]
        if nsp > 1 and data_format is not None and data_format not in names:
            raise ValueError(f"`data_format` must be '{names[0]}' or '{names[1]}'. Received: "
                             f"data_format={data_format}")
    if any(d > 1 for d in dl):
        # TF 2.21's convolution_internal runs a dilated convolution as its Convolution class does:
        # SpaceToBatchND, the undilated convolution (VALID), BatchToSpaceND (_WithSpaceToBatch; the
        # Conv2D dilation attribute is for TPUs), so float64 gradients work where a dilated
        # Conv2D's backprop refuses them (clause nn.conv-dilation)
        from simdist.runtime.ops.nn_composites import with_space_to_batch
        f = _t(filters)

        def undilated(inp: Tensor, num_spatial_dims: int, pad: str) -> Tensor:
            # (TF's _NonAtrousConvolution gives a 3-D convolution the format "NDHWC" where it was None: its
            # gradient computes, unlike the undilated None Conv3D's; fsweep61)
            fmt = data_format if data_format is not None or num_spatial_dims != 3 else "NDHWC"
            return convolution(inp, f, None, pad, fmt)
        return with_space_to_batch(x, dl, padding, undilated, filter_shape=f.shape.as_list(), data_format=data_format)
    if nsp == 2:
        return conv2d(x, filters, list(st), padding, data_format or "NHWC", list(dl))
    if nsp == 3:   # TF's convolution_internal: conv3d with strides and dilations of 5 in the data format's layout
        from simdist.runtime.ops.conv3d import conv3d
        fmt = data_format or "NDHWC"
        st5, dl5 = ([1, 1, *st], [1, 1, *dl]) if fmt == "NCDHW" else ([1, *st, 1], [1, *dl, 1])
        return conv3d(x, filters, st5, padding, data_format, dl5)
    if data_format in ("NCW", "NCHW"):   # (convolution_internal calls conv1d, which reads NCHW as NCW)
        return _ncw_convolution(x, filters, st[0], padding, dl[0])
    if data_format not in (None, "NWC", "NHWC"):   # (conv1d's own check: ValueError; fsweep61)
        raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: data_format={data_format}")
    check_data_format(data_format, "NWC")
    f = _t(filters)
    out = conv2d(array.expand_dims(x, 1), array.expand_dims(f, 0), [1, st[0]], padding, None, [1, dl[0]])
    return array.squeeze(out, [1])


def conv1d(input: Any, filters: Any, stride: Any, padding: Any, data_format: str = "NWC",  # noqa: A002
           dilations: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.conv1d` as nn_ops.conv1d builds it: the format ("NWC"/"NHWC"/None: NHWC with the
    width at axis -2; "NCW"/"NCHW": NCHW, width last; else ValueError), stride and dilations
    through _get_sequence, ExpandDims of the input at -3 (NHWC) or -2 (NCHW) and of the filter at
    0, Conv2D, Squeeze of that axis."""
    if data_format in (None, "NHWC", "NWC"):
        fmt, start, nc = "NHWC", -3, False
    elif data_format in ("NCHW", "NCW"):
        fmt, start, nc = "NCHW", -2, True
    else:
        raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: data_format={data_format}")
    st = [1] + list(spatial_sequence(stride, 1, "stride", nc))
    dl = [1] + list(spatial_sequence(dilations, 1, "dilations", nc))
    x = array.expand_dims(input, start)
    f = array.expand_dims(filters, 0)
    # (Conv2D's wrapper converts its list(int) attrs with make_int before the op compares its inputs: a
    # nested stride `[[0]]` is TypeError "Expected int for argument 'strides' not [0]."; fz14 seed
    # 1420261219 #383)
    from simdist.runtime.ops import attr_rules
    attr_rules.check("Conv2D", strides=st, dilations=dl)
    if isinstance(padding, (list, tuple)):
        # (nn_ops.conv1d hands its padding to gen_nn_ops.conv2d itself, whose make_str takes a string only: an
        # explicit list is TypeError, eagerly and traced; fsweep61)
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    return array.squeeze(conv2d(x, f, st, padding, fmt, dl), [start])


def separable_conv2d(input: Any, depthwise_filter: Any, pointwise_filter: Any, strides: Any,  # noqa: A002
                     padding: Any, data_format: Any = None, dilations: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.separable_conv2d` as nn_impl builds it: input, depthwise_filter and pointwise_filter
    converted, the pointwise filter's static shape `with_rank(4)` (an unknown rank passes) and its
    first two dimensions compatible with 1 (ValueError), the rate (dilations, default [1, 1]), then
    nn_ops.with_space_to_batch around DepthwiseConv2dNative with the strides as given (so its
    strides list, its T and its rank checks come after the pointwise filter's and the rate's;
    nothing here checks the depthwise filter's rank: fz46, fz14 seed 1420463001 #251, an int64
    NumPy strides beside an unknown-rank pointwise filter is the op's TypeError "Expected list for
    'strides'"), then a 1x1 Conv2D (strides 1, VALID) by pointwise_filter [1, 1, in*multiplier, out]."""
    from simdist.runtime.ops.nn_composites import with_space_to_batch
    x, d, p = _t(input), _t(depthwise_filter), _t(pointwise_filter)
    ps = _static_shapes.static_shape(p).with_rank(4)
    for i in (0, 1):
        if ps[i] is not None and ps[i] != 1:
            raise ValueError(f"Dimensions {ps[i]} and 1 are not compatible")
    rate = [1, 1] if dilations is None else dilations

    def op(converted: Tensor, _: int, pad: Any) -> Tensor:
        return _depthwise_native(converted, d, strides, pad, data_format, None)
    depthwise = with_space_to_batch(x, rate, padding, op, filter_shape=d.shape.as_list(), data_format=data_format)
    return conv2d(depthwise, p, [1, 1, 1, 1], "VALID", "NCHW" if data_format == "NCHW" else "NHWC")


def _ncw_convolution(x: Tensor, filters: Any, stride: int, padding: Any, dilation: int) -> Tensor:
    """A channels-first 1-D convolution: TF runs it as an NCHW Conv2D (oneDNN: float32, float16,
    bfloat16 only; XLA, in a jit-compiled call, any dtype); simdist computes the NWC one between two transposes,
    the same values."""
    if not onednn_conv(x.dtype.name) and not context.in_xla():
        # (a T outside Conv2D's op def (int16) is the attr's InvalidArgumentError first: fz32b, fz14 seed
        # 1420323001 #203, `convolution(int16 x, 3, data_format='NCHW')`, which conv1d takes as NCW)
        CONV2D.dtype((x.dtype, x.dtype), None)   # (T from the input first, then the filter's against it)
        CONV2D.dtype((x.dtype, _t(filters).dtype), None)
        # (TF's own Conv2DOp on the NCHW-expanded operands: ComputeConv2DDimension's checks, e.g. "Computed output
        # size would be negative", and an empty output returned, before the launcher refuses NCHW; an STFT
        # spectrogram's channels-first framing on a CPU without oneDNN, observed)
        # (conv1d expands the filter whatever its rank: a scalar filter is Conv2D's "convolution filter must be
        # 4-dimensional: [1]" before the NCHW refusal; fz49, fz14 seed 1420493001 #33, observed)
        f = _t(filters)
        if x.ndim == 3:
            out = conv2d(array.expand_dims(x, 2), array.expand_dims(f, 0), [1, 1, 1, stride], padding, "NCHW",
                         [1, 1, 1, dilation])
            return array.squeeze(out, [2])
        raise errors.UnimplementedError(None, None, "The Conv2D op currently only supports the NHWC tensor format "
                                        "on the CPU. The op was given the format: NCHW [Op:Conv2D]")
    out = convolution(array.transpose(x, [0, 2, 1]), filters, [stride], padding, "NWC", [dilation])
    return array.transpose(out, [0, 2, 1])


def _convolution_class_checks(x: Tensor, filters: Tensor, nsp: int, st: tuple, dl: tuple, nc: bool) -> None:
    """nn_ops.Convolution's constructor, which convolution_internal builds for a dilation other than
    1, in its order (all ValueError): a known filter rank num_spatial_dims + 2 (`convolution(x,
    filters=1e-40, dilations=[0])` of a rank-4 x: nsp 2 from the input; fz30b, fz14 seed 1420303001
    #91); the input's rank at least num_spatial_dims + 2
    (atrous_conv2d(value=nan, rate=0.5); fz26b, fz14 seed 1420262602 #165); the input's channels
    divisible by the filter's input channels where both are known (a filter's 0 is Python's
    ZeroDivisionError); then _get_strides_and_dilation_rate: every dilation and stride positive,
    no stride above 1 beside a dilation above 1. So a dilated convolution refuses these before the
    kernel's dtype or depth errors (fz28b, fz14 seed 1420282801 #23)."""
    from simdist.runtime.tensor import TensorShape
    xs, fs = _static_shapes.known_shape(x), _static_shapes.known_shape(filters)
    ir = None if xs is None else len(xs)
    if fs is not None and len(fs) != nsp + 2:
        raise ValueError(f"`filters.shape.rank` must be `num_spatial_dims + 2`. Received: filters.shape="
                         f"{filters.shape} of rank {len(fs)} and num_spatial_dims={nsp}")
    if ir is not None and ir < nsp + 2:
        raise ValueError(f"`input.shape.rank` must be >= than `num_spatial_dims + 2`. Received: input.shape={x.shape} "
                         f"of rank {ir} and num_spatial_dims={nsp}")
    batch = 1 if ir is None else ir - nsp - 1
    channels = None if xs is None else xs[batch if nc else nsp + batch]
    depth = None if fs is None else fs[nsp]
    if channels is not None and depth is not None:
        if depth == 0:
            raise ZeroDivisionError("integer modulo by zero")
        if channels % depth:
            raise ValueError("The number of input channels is not divisible by the corresponding number of output "
                             f"filters. Received: input.shape={TensorShape(xs)} with {channels} channels and "
                             f"filters.shape={TensorShape(fs)} with {depth} output filters.")
    try:
        rate, strides = np.array(dl, dtype=np.int32), np.array(st, dtype=np.int32)
    except (TypeError, ValueError):
        return   # (a value that is no int: the op's make_int refuses it later)
    if np.any(rate < 1):
        raise ValueError(f"all values of `dilation_rate` must be positive. Received: dilation_rate={rate}")
    if np.any(strides < 1):
        raise ValueError(f"all values of `strides` must be positive. Received: strides={strides}")
    if np.any(strides > 1) and np.any(rate > 1):
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                         f"strides={_np_list(st)} and dilation_rate={_np_list(dl)}")


def _np_list(v: Sequence[int]) -> str:
    return "[" + " ".join(str(int(i)) for i in v) + "]"


# --- gradients (nn_grad.py) ------------------------------------------------------------------------------------
def _attrs(op: Any) -> dict:
    return {k: op.get_attr(k) for k in ("strides", "padding", "explicit_paddings", "dilations")}


def _shape(x: Any) -> tuple[int, ...]:
    return tuple(x.shape.as_list())


def _register_gradients(fwd_name: str, fwd: Any, back_input: Any, back_filter: Any) -> None:
    """TF's gradients of a convolution and of its two backprop kernels (nn_grad.py): each of the
    three ops' gradients is made of the other two (and the forward)."""
    @RegisterGradient(fwd_name)
    def _fwd_grad(op: Any, grad: Any) -> list:
        x, f = op.inputs
        a = _attrs(op)
        return [dispatch.execute(back_input, (f, grad), dict(a, input_sizes=_shape(x))),
                dispatch.execute(back_filter, (x, grad), dict(a, filter_sizes=_shape(f)))]

    @RegisterGradient(back_input.name)
    def _back_input_grad(op: Any, grad: Any) -> list:
        f, dy = op.inputs
        a = _attrs(op)
        return [dispatch.execute(back_filter, (grad, dy), dict(a, filter_sizes=_shape(f))),
                dispatch.execute(fwd, (grad, f), a)]

    @RegisterGradient(back_filter.name)
    def _back_filter_grad(op: Any, grad: Any) -> list:
        x, dy = op.inputs
        a = _attrs(op)
        return [dispatch.execute(back_input, (grad, dy), dict(a, input_sizes=_shape(x))),
                dispatch.execute(fwd, (x, grad), a)]


_register_gradients("Conv2D", CONV2D, CONV2D_BACKPROP_INPUT, CONV2D_BACKPROP_FILTER)
_register_gradients("DepthwiseConv2dNative", DEPTHWISE, DEPTHWISE_BACKPROP_INPUT, DEPTHWISE_BACKPROP_FILTER)
