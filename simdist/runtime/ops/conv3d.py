"""3-D convolutions (TF's Conv3D, Conv3DBackpropInputV2, Conv3DBackpropFilterV2), NDHWC, SAME /
VALID padding, with strides and dilations, and tf.nn.conv3d / conv3d_transpose as TF 2.21's
nn_ops.py calls them; the gradients are TF's (nn_grad.py: each of the three ops' gradient is made
of the other two), registered through conv.py's helper.

The forward is im2col as conv.py's 2-D one: the padded input's windows are a strided view
[N, OD, OH, OW, kd, kh, kw, C] gathered into a [pixels, kd*kh*kw*C] matrix times the filter.
TF 2.21 checks (observed): strides and dilations are lists of 5 with 1 in the batch and depth
places; the filter's input depth equals the input's (no groups); dilations above 1 are refused
for float64 on CPU ("CPU implementation of Conv3D currently only supports dilated rates of 1";
float32, bfloat16 and half run them).

FLOPs: all three 2 * out_pixels * kd * kh * kw * cin * cout (one matmul of that size).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from numpy.lib.stride_tricks import as_strided

from simdist.runtime import context, dtypes, errors, host_cpu
from simdist.runtime.ops import args, array, attr_rules, dispatch, trace_errors
from simdist.runtime.ops.args import shape_arg, t as _t
from simdist.runtime.ops.conv import _out_size, _register_gradients, onednn_filter_corner, spatial_sequence
from simdist.runtime.ops.nn_rules import FLOATS, attr_error, typed
from simdist.runtime.ops.registry import lanes, register, rows
from simdist.runtime.ops.contraction_order import matmul   # (float64/complex in order; float32 BLAS's)
from simdist.runtime.ops import onednn_backprop_input
from simdist.runtime.ops.conv import _ORDERED_BUDGET, onednn_conv
from simdist.runtime.tensor import Tensor
from simdist.runtime.ops.args import dims_text as _dims

__all__ = ["conv3d", "conv3d_transpose", "geometry3d", "windows3d", "scatter_windows3d"]


# --- geometry ------------------------------------------------------------------------------------------------
def geometry3d(dhw: Sequence[int], k: Sequence[int], strides: Sequence[int], dilations: Sequence[int], padding: str,
               op: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """((OD, OH, OW), (front, back, top, bottom, left, right)) of a 3-D window op."""
    outs, pads = [], []
    for i in range(3):
        o, b, a = _out_size(int(dhw[i]), (int(k[i]) - 1) * int(dilations[i]) + 1, int(strides[i]), padding, 0, 0, op)
        outs.append(o)
        pads += [b, a]
    return tuple(outs), tuple(pads)


def pad3d(x: np.ndarray, pads: Sequence[int], value: Any = 0) -> np.ndarray:
    if not any(pads):
        return x
    return np.pad(x, ((0, 0), tuple(pads[0:2]), tuple(pads[2:4]), tuple(pads[4:6]), (0, 0)), constant_values=value)


def windows3d(xp: np.ndarray, k: Sequence[int], out: Sequence[int], strides: Sequence[int],
              dilations: Sequence[int]) -> np.ndarray:
    """The windows of a padded NDHWC array as a read-only view [N, OD, OH, OW, kd, kh, kw, C]."""
    n, c = xp.shape[0], xp.shape[4]
    s = xp.strides
    return as_strided(xp, (n, out[0], out[1], out[2], k[0], k[1], k[2], c),
                      (s[0], s[1] * strides[0], s[2] * strides[1], s[3] * strides[2],
                       s[1] * dilations[0], s[2] * dilations[1], s[3] * dilations[2], s[4]), writeable=False)


def scatter_windows3d(dwin: np.ndarray, in_shape: Sequence[int], pads: Sequence[int], strides: Sequence[int],
                      dilations: Sequence[int]) -> np.ndarray:
    """The adjoint of `windows3d` after padding: each window element added back where it was read
    from ([N, OD, OH, OW, kd, kh, kw, C] -> in_shape), one slice per window offset."""
    n, d, h, w, c = in_shape
    _, od, oh, ow, kd, kh, kw, _ = dwin.shape
    out = np.zeros((n, d + pads[0] + pads[1], h + pads[2] + pads[3], w + pads[4] + pads[5], c), dtype=dwin.dtype)
    sd, sh, sw = strides
    for a in range(kd):
        z0 = a * dilations[0]
        for i in range(kh):
            r0 = i * dilations[1]
            for j in range(kw):
                c0 = j * dilations[2]
                out[:, z0:z0 + (od - 1) * sd + 1:sd, r0:r0 + (oh - 1) * sh + 1:sh,
                    c0:c0 + (ow - 1) * sw + 1:sw, :] += dwin[:, :, :, :, a, i, j, :]
    return out[:, pads[0]:pads[0] + d, pads[2]:pads[2] + h, pads[4]:pads[4] + w, :]


# --- the three kernels -----------------------------------------------------------------------------------------


def _conv3d_constructor(strides: Sequence[int], dilations: Sequence[int], dtype_name: str) -> None:
    """Conv3D's constructor checks, before Compute's ranks (observed on TF 2.21; fuzz20 tape seed
    2620261202 #2). TF's own Conv3DOp (conv_ops_3d.cc; float64, float16 here): the strides' batch and
    channel, the spatial strides positive, the dilations' batch and channel, all InvalidArgumentError;
    oneDNN's (float32, bfloat16): the strides' batch and channel (UnimplementedError), then the
    dilations' (InvalidArgumentError, "dilations rates")."""
    def bad(cls: type, text: str) -> errors.OpError:
        return cls(None, None, f"{text} [Op:Conv3D]")
    onednn = host_cpu.current().onednn_supports(dtype_name)
    if strides[0] != 1 or strides[4] != 1:
        raise bad(errors.UnimplementedError if onednn else errors.InvalidArgumentError,
                  "Current implementation does not yet support strides in the batch and depth dimensions.")
    if not onednn and any(s <= 0 for s in strides[1:4]):
        raise bad(errors.InvalidArgumentError, "Spatial strides should be larger than 0.")
    if dilations[0] != 1 or dilations[4] != 1:
        raise bad(errors.InvalidArgumentError, "Current implementation does not yet support "
                  f"{'dilations rates' if onednn else 'dilation rates'} in the batch and depth dimensions.")
    if any(d < 1 for d in dilations[1:4]):
        # (a spatial dilation of 0 or below: both kernels' constructors, InvalidArgumentError; fix62d)
        raise bad(errors.InvalidArgumentError, "Dilated rates should be larger than 0.")


def _backprop_constructor(strides: Sequence[int], dilations: Sequence[int], dtype_name: str, op: str) -> bool:
    """The 3-D backprops' constructor checks, before Compute's ranks, all InvalidArgumentError (observed
    on TF 2.21; fuzz20 seed 2720261201 #33): oneDNN's (MklConvBackpropCommonOp; float32, bfloat16) the
    strides' batch and channel only (its dilations' batch and channel unread); TF's own
    (Conv3DBackprop*Op, conv_grad_ops_3d.cc) the dilations' batch and depth, float64's dilations above 1,
    then the strides' batch and depth. Whether oneDNN's kernel is the one (True: the dilations'
    batch and channel are not checked later)."""
    def bad(text: str) -> errors.OpError:
        return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")
    strides_text = "Current implementation does not yet support strides in the batch and depth dimensions."
    if host_cpu.current().onednn_supports(dtype_name):
        if strides[0] != 1 or strides[4] != 1:
            raise bad(strides_text)
        if any(d < 1 for d in dilations[1:4]):
            # (a spatial dilation of 0 or below, InvalidArgumentError eagerly and when the graph runs; TF 2.21
            # observed, fix62d: probe_dil.py)
            raise bad("Dilated rates should be larger than 0.")
        return True
    if dilations[0] != 1 or dilations[4] != 1:
        raise bad("Current implementation does not yet support dilation rates in the batch and depth dimensions.")
    if dtype_name == "float64" and any(d != 1 for d in dilations):
        raise bad(f"CPU implementation of {op.replace('V2', '')} currently only supports dilated rates of 1.")
    if strides[0] != 1 or strides[4] != 1:
        raise bad(strides_text)
    return False


def _check(x_shape: Sequence[int], f_shape: Sequence[int], strides: Sequence[int], dilations: Sequence[int],
           dtype_name: str, op: str) -> None:
    onednn_backprop = False
    if op == "Conv3D":
        # (Conv3DOp's constructor, and oneDNN's: a strides/dilations list longer than 5 is InvalidArgumentError
        # eagerly, Conv3DShape's ValueError while tracing; fsweep61)
        for attr, value, word in (("strides", strides, "stride"), ("dilations", dilations, "dilation")):
            if len(value) != 5:
                raise trace_errors.shape_error(
                    f"Sliding window {attr} field must specify 5 dimensions [Op:Conv3D]",
                    f"Conv3D requires the {word} attribute to contain 5 values, but got: {len(value)}", "Conv3D",
                    [x_shape, f_shape])
    if op == "Conv3D" and len(strides) == 5 and len(dilations) == 5:
        bad_dilation = next((d for d in dilations[1:4] if d < 1), None)
        if bad_dilation is not None and context.in_function():
            # (traced: Conv3DShape's GetWindowedOutputSizeFromDimsV2 refuses it first, ValueError; fix62d)
            raise trace_errors.shape_error("Dilated rates should be larger than 0. [Op:Conv3D]",
                                           f"Dilation rate must be >= 1, but got {bad_dilation}", "Conv3D",
                                           [x_shape, f_shape])
        _conv3d_constructor(strides, dilations, dtype_name)
    elif len(strides) == 5 and len(dilations) == 5:
        onednn_backprop = _backprop_constructor(strides, dilations, dtype_name, op)
    if len(x_shape) != 5:
        raise errors.InvalidArgumentError(None, None, f"input must be 5-dimensional{_dims(x_shape)} [Op:{op}]")
    if len(f_shape) != 5:
        raise errors.InvalidArgumentError(None, None, f"filter must be 5-dimensional: {_dims(f_shape)} [Op:{op}]")
    if strides[0] != 1 or strides[4] != 1:
        raise errors.UnimplementedError(None, None, "Current implementation does not yet support strides in the "
                                        f"batch and depth dimensions. [Op:{op}]")
    if (dilations[0] != 1 or dilations[4] != 1) and not onednn_backprop:
        raise errors.UnimplementedError(None, None, "Current implementation does not yet support dilations in the "
                                        f"batch and depth dimensions. [Op:{op}]")
    if dtype_name == "float64" and any(d != 1 for d in dilations):
        raise errors.InvalidArgumentError(None, None, f"CPU implementation of {op.replace('V2', '')} currently only "
                                          f"supports dilated rates of 1. [Op:{op}]")
    if op != "Conv3D" and not onednn_backprop and f_shape[3] <= 0:
        # (TF's own backprops: ConvBackpropComputeDimensionsV2 before the depths compare; fz36a, tape seed 3620261208)
        raise errors.InvalidArgumentError(None, None, f"{op.replace('V2', 'Op')}: filter depth must be strictly "
                                          f"greated than zero [Op:{op}]")
    if x_shape[4] != f_shape[3]:
        raise errors.InvalidArgumentError(None, None, f"input and filter must have the same depth: {x_shape[4]} vs "
                                          f"{f_shape[3]} [Op:{op}]")


def _cols(x: np.ndarray, k: Sequence[int], strides: tuple, padding: str, dilations: tuple,
          op: str) -> tuple[np.ndarray, tuple[int, ...], tuple[int, ...]]:
    out, pads = geometry3d(x.shape[1:4], k, strides[1:4], dilations[1:4], padding, op)
    win = windows3d(pad3d(x, pads), k, out, strides[1:4], dilations[1:4])
    return win.reshape(x.shape[0] * out[0] * out[1] * out[2], k[0] * k[1] * k[2] * x.shape[4]), out, pads


def _dtname(a: np.ndarray) -> str:
    return "float64" if a.dtype == np.float64 else a.dtype.name


def _wide(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """half and bfloat16 operands in float32 (TF's CPU kernels accumulate in float32 and round once)."""
    return tuple(a.astype(np.float32) if a.dtype.itemsize == 2 else a for a in arrays)


def _conv3d(x: np.ndarray, f: np.ndarray, strides: tuple, padding: str, explicit_paddings: tuple,
            dilations: tuple) -> np.ndarray:
    """Conv3D's values. float32 where oneDNN runs it (not under XLA): each output an in-order fused multiply-add over
    the filter's taps (kd, kh, kw, in channel) from +0, whatever the filter count, layout (NCDHW runs the NDHWC
    values between transposes), stride or padding (TF 2.21 observed, /work/wt/fix66n_logs/c3_fit.py, c3_fit2.py: 14
    shapes of 1-33 channels and 1-17 filters, 0 differing outputs; the im2col product below matched only from 2
    filters and 16 taps). Elsewhere, and under XLA (Eigen's contraction: the same order for 2 or more filters and
    few taps, not for one filter or 540 taps; not modelled), im2col times the filter."""
    _check(x.shape, f.shape, strides, dilations, _dtname(x), "Conv3D")
    xw, fw = _wide(x, f)
    cols, out, _ = _cols(xw, f.shape[:3], strides, padding, dilations, "Conv3D")
    from simdist.runtime.ops.conv import float64_forward
    if x.dtype == np.float32 and onednn_conv("float32") and not context.in_xla():
        from simdist.runtime.ops.contraction_order import ordered_matmul
        y = ordered_matmul(np.ascontiguousarray(cols), np.ascontiguousarray(fw.reshape(-1, f.shape[4])))
    elif tuple(dilations) in ((1, 1, 1), (1, 1, 1, 1, 1)) and float64_forward(cols, fw.reshape(-1, f.shape[4])):
        from simdist.runtime.ops.contraction_order import float64_gebp
        y = float64_gebp(cols, fw.reshape(-1, f.shape[4]))   # (Eigen's cuboid convolution: its GEBP's sums)
    else:
        y = matmul(cols, fw.reshape(-1, f.shape[4]))
    return y.reshape(x.shape[0], out[0], out[1], out[2], f.shape[4]).astype(x.dtype)


_ONEDNN_SOURCE = {"Conv3DBackpropInputV2": "mkl_conv_grad_input_ops.cc:546",
                  "Conv3DBackpropFilterV2": "mkl_conv_grad_filter_ops.cc:685"}


def _check_dy(dy: np.ndarray, want: Sequence[int], op: str) -> None:
    """The 3-D backprops' out_backprop shape: Eigen's kernels' (float64) InvalidArgumentError; oneDNN's (float32,
    float16, bfloat16 where the CPU takes them) AbortedError from the primitive's creation, for an out_backprop of
    rank 4 or 5 and another shape (clause ops.nn-3d; conv3d_transpose with an output_shape the input does not fit,
    TF 2.21 on the oneDNN host, fsweep61's f-transpose `r3 ... bad`)."""
    # (an out_backprop of another rank than 4 or 5 is the oneDNN kernel's InvalidArgumentError "input_sizes must be 4
    # or 5-dimensional" first, observed: fz31b's rank-2 conv3d_transpose input)
    if tuple(dy.shape) != tuple(want) and dy.ndim in (4, 5) and onednn_conv(_dtname(dy)) and not context.in_xla():
        raise errors.AbortedError(None, None, "Operation received an exception:Status: 2, message: could not create "
                                  "a primitive descriptor for the convolution forward propagation primitive. Run "
                                  "workload with environment variable ONEDNN_VERBOSE=all to get additional "
                                  f"diagnostic information., in file tensorflow/core/kernels/mkl/{_ONEDNN_SOURCE[op]} "
                                  f"[Op:{op}]")
    if tuple(dy.shape) != tuple(want):
        raise errors.InvalidArgumentError(None, None, f"{op}: Size of out_backprop doesn't match computed: actual = "
                                          f"{_dims(dy.shape)}, computed = {_dims(want)} [Op:{op}]")


def _backprop_input(f: np.ndarray, dy: np.ndarray, input_sizes: tuple, strides: tuple, padding: str,
                    explicit_paddings: tuple, dilations: tuple) -> np.ndarray:
    op = "Conv3DBackpropInputV2"
    _check(input_sizes, f.shape, strides, dilations, _dtname(dy), op)
    out, pads = geometry3d(input_sizes[1:4], f.shape[:3], strides[1:4], dilations[1:4], padding, op)
    cout = f.shape[4]
    _check_dy(dy, (input_sizes[0],) + out + (cout,), op)
    if (f.dtype == np.float32 and dy.dtype == np.float32 and onednn_conv("float32") and not context.in_xla()
            and onednn_backprop_input.applies_3d(f.shape, strides[1:4], dilations[1:4], padding)
            and 0 < int(np.prod(input_sizes)) * int(np.prod(f.shape[:3])) * cout <= _ORDERED_BUDGET):
        # (oneDNN's float32 backward data: clause ops.packet-paths, "oneDNN's float32 Conv2D"; conv59)
        return onednn_backprop_input.backprop_input_3d(f, dy, input_sizes, pads, padding)
    fw, dyw = _wide(f, dy)
    dcols = matmul(dyw.reshape(-1, cout), fw.reshape(-1, cout).T)
    dwin = dcols.reshape((input_sizes[0],) + out + tuple(f.shape[:3]) + (input_sizes[4],))
    return scatter_windows3d(dwin, input_sizes, pads, strides[1:4], dilations[1:4]).astype(dy.dtype)


def _backprop_filter(x: np.ndarray, dy: np.ndarray, filter_sizes: tuple, strides: tuple, padding: str,
                     explicit_paddings: tuple, dilations: tuple) -> np.ndarray:
    op = "Conv3DBackpropFilterV2"
    if len(strides) == 5 and len(dilations) == 5 and _backprop_constructor(strides, dilations, _dtname(x), op) \
            and onednn_filter_corner(x, dy, filter_sizes):
        return np.zeros(tuple(filter_sizes), x.dtype)
    _check(x.shape, filter_sizes, strides, dilations, _dtname(x), op)
    xw, dyw = _wide(x, dy)
    cols, out, _ = _cols(xw, filter_sizes[:3], strides, padding, dilations, op)
    _check_dy(dy, (x.shape[0],) + out + (filter_sizes[4],), op)
    return matmul(cols.T, dyw.reshape(-1, filter_sizes[4])).reshape(filter_sizes).astype(x.dtype)


def _pixels(dy: np.ndarray) -> int:
    """out_backprop's pixels (its elements over its depth; 0 for one of no elements, which oneDNN's corner case
    takes at any rank)."""
    return dy.size // dy.shape[-1] if dy.size else 0


def _flops(f_shape: Sequence[int], out_pixels: int) -> float:
    return 2.0 * out_pixels * float(np.prod(f_shape))


def _summed_rows(attrs: dict, lane_shapes: list) -> bool:
    return True


CONV3D = register("Conv3D", _conv3d, typed("Conv3D", FLOATS),
                  lambda a, out, at: _flops(a[1].shape, out.size // out.shape[-1]), kind="contraction",
                  fusion=rows(0))
CONV3D_BACKPROP_INPUT = register(
    "Conv3DBackpropInputV2", _backprop_input, typed("Conv3DBackpropInputV2", FLOATS),
    lambda a, out, at: _flops(a[0].shape, _pixels(a[1])), kind="contraction",
    fusion=lanes("its input_sizes attribute is one lane's batch: no stacked form written"))
CONV3D_BACKPROP_FILTER = register(
    "Conv3DBackpropFilterV2", _backprop_filter, typed("Conv3DBackpropFilterV2", FLOATS),
    lambda a, out, at: _flops(out.shape, _pixels(a[1])), kind="contraction",
    fusion=lanes("sums over the lane's rows: no stacked form; its cross-replica sum is fused (sums)"),
    sums=_summed_rows)
_register_gradients("Conv3D", CONV3D, CONV3D_BACKPROP_INPUT, CONV3D_BACKPROP_FILTER)


# --- public functions ------------------------------------------------------------------------------------------
def _channels_first(input: Any, refusal: str) -> Tensor:  # noqa: A002
    """NCDHW (clause ops.nn-more): TF 2.21's x86 CPU runs float32 and bfloat16 through oneDNN, the
    NDHWC values between two transposes; the default kernels refuse it (InvalidArgumentError). XLA computes it
    (a jit-compiled call: Keras routes channels-first 3-D convolutions through one; docs/spec.md "Grouped
    convolutions under XLA")."""
    x = _t(input)
    if not context.in_xla() and not host_cpu.current().onednn(x.dtype.name, ("float32", "bfloat16")):
        raise errors.InvalidArgumentError(None, None, refusal)
    return x


def _to_last(seq: Any) -> list:
    """A per-dimension NCDHW sequence in NDHWC order."""
    v = list(seq)
    return [v[0], v[2], v[3], v[4], v[1]]


def check_format(data_format: Any, op: str, x: Tensor | None = None) -> None:
    """The op def's attrs in its order (fz15c): T (the input's dtype, for the convolutions) before
    data_format, which must be NDHWC or NCDHW (InvalidArgumentError "Value for attr
    'data_format' of "NHWC" is not in the list of allowed values: "NDHWC", "NCDHW"")."""
    if x is not None and x.dtype.name not in ("float16", "bfloat16", "float32", "float64"):
        raise attr_error(op, x.dtype, FLOATS)
    if data_format is not None:   # (a graph: op_def_library's ValueError, trace_errors.string_attr)
        trace_errors.check_string(op, "data_format", data_format, ("NDHWC", "NCDHW"))


def _padding(padding: Any, op: str) -> str:
    """padding as op's OpDef allows it (a graph: op_def_library's ValueError naming `op`; fz33b's
    open #38, `conv3d_transpose(..., padding='same')` traced names Conv3DBackpropInputV2)."""
    if not isinstance(padding, str):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    return trace_errors.check_string(op, "padding", padding, ("SAME", "VALID"))


def _list5(value: Any, name: str) -> tuple[int, ...]:
    value = args.list_attr(value, name, "conv3d")
    if len(value) < 5:
        raise trace_errors.list_minimum("Conv3D", name, len(value), 5)
    return tuple(int(v) for v in value)


def conv3d(input: Any, filters: Any, strides: Any, padding: Any, data_format: str = "NDHWC",  # noqa: A002
           dilations: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.conv3d` (NDHWC): strides (and dilations) lists of 5 as TF's raw op takes them;
    filters [kd, kh, kw, in, out]. NCDHW: see `_channels_first`."""
    args.raw_attribute(input, "shape")   # (_conv3d_expanded_batch reads `input.shape` first)
    # (then the generated wrapper's make_*: ops.attr-types)
    attr_rules.check("Conv3D", (input, filters), strides=strides, padding=padding, data_format=data_format,
                     dilations=dilations)
    if data_format == "NCDHW":
        # (the OpDef's attrs, T, strides and padding, before the kernel refuses the layout, eagerly and in a
        # graph: `padding='same'` is the attr's error; fz34b)
        check_format(None, "Conv3D", _t(input))
        st = _list5(strides, "strides")
        for attr, value in (("strides", st), ("dilations", None if dilations is None else _list5(dilations,
                                                                                                 "dilations"))):
            if value is not None and len(value) != 5:   # (the kernel's check, before the layout's: fsweep61)
                word = attr[:-1]
                raise trace_errors.shape_error(
                    f"Sliding window {attr} field must specify 5 dimensions [Op:Conv3D]",
                    f"Conv3D requires the {word} attribute to contain 5 values, but got: {len(value)}", "Conv3D",
                    [tuple(_t(input).shape), tuple(_t(filters).shape)])
        st = _to_last(st)
        _padding(padding, "Conv3D")
        x = _channels_first(input, "CPU implementation of Conv3D currently only supports the NHWC tensor format. "
                                   "[Op:Conv3D]")
        dl = None if dilations is None else _to_last(_list5(dilations, "dilations"))
        return array.transpose(conv3d(array.transpose(x, [0, 2, 3, 4, 1]), filters, st, padding, "NDHWC", dl),
                               [0, 4, 1, 2, 3])
    # the wrapper's list TypeErrors, then the op def's attrs in its order: T, strides, padding,
    # data_format, dilations (fz15c)
    st = args.list_attr(strides, "strides", "conv3d")
    dl = args.list_attr(dilations, "dilations", "conv3d") if dilations is not None else [1, 1, 1, 1, 1]
    # (input and filter share T: a Python filter beside a tensor input is converted to its dtype
    # before T's list is checked, `conv3d(bool_tensor, -(2**63), ...)` is TypeError; fz14 seed
    # 1420261218 #106)
    x, f = args.matching((input, filters), op="Conv3D", names=("input", "filter"))
    check_format(None, "Conv3D", x)
    st5 = _list5(st, "strides")
    pad = _padding(padding, "Conv3D")
    check_format(data_format, "Conv3D")
    attrs = {"strides": st5, "padding": pad, "explicit_paddings": (), "dilations": _list5(dl, "dilations")}
    _conv3d_shape_fn(x, f, st5, attrs["dilations"], pad)
    y = dispatch.execute(CONV3D, (x, f), attrs)
    return _none_format_gradient(y) if data_format is None else y


def _conv3d_shape_fn(x: Tensor, f: Tensor, strides: Sequence[int], dilations: Sequence[int], padding: Any) -> None:
    """Conv3DShape while a tf.function is traced, before the kernel's constructor (TF 2.21 observed, vsweep62): its
    GetWindowedOutputSizeVerbose over the spatial dimensions the graph knows refuses a stride below 1 ("Stride must
    be > 0, but got 0", float64's too, whose kernel says "Spatial strides should be larger than 0.") and a VALID
    window larger than the input ("Negative dimension size caused by subtracting 4 from 3"), ValueError at trace."""
    from simdist.runtime import context
    if not context.in_function() or len(strides) != 5 or len(dilations) != 5 or x.ndim != 5 or f.ndim != 5:
        return
    from simdist.runtime.ops import static_shapes
    known = static_shapes.known_shape(x)
    fk = static_shapes.known_shape(f)
    if known is None or fk is None:
        return
    for i in range(3):
        size, k, s, d = known[i + 1], fk[i], int(strides[i + 1]), int(dilations[i + 1])
        if s <= 0:
            text = f"Stride must be > 0, but got {s}"
        elif padding == "VALID" and size is not None and k is not None and size < (k - 1) * d + 1:
            text = f"Negative dimension size caused by subtracting {(k - 1) * d + 1} from {size}"
        else:
            continue
        raise trace_errors.shape_error(f"{text} [Op:Conv3D]", text, "Conv3D", [x.shape.as_list(), f.shape.as_list()])


def _none_format_gradient(y: Tensor) -> Tensor:
    """A Conv3D op made with data_format=None (tf.nn.conv3d(data_format=None), tf.nn.convolution of rank 3
    without dilation or format): eagerly its op record keeps the None attr, which TF 2.21's nn_grad._Conv3DGrad
    decodes, so the gradient an eager tape asks for is AttributeError "'NoneType' object has no attribute 'decode'";
    in a tf.function the graph op holds the attr's default and the gradient computes (clause ops.nn-3d; observed,
    fsweep61's f-convolution `r3 None ... d1`)."""
    from simdist.runtime import context
    if context.in_function():
        return y
    from simdist.runtime.autodiff import custom_gradient

    @custom_gradient
    def refused(v: Tensor) -> Any:
        def grad(dy: Tensor) -> Any:
            raise AttributeError("'NoneType' object has no attribute 'decode'")
        return array.identity(v), grad
    return refused(y)


def _graph_backprop_input_types(filters: Any, input: Any) -> None:  # noqa: A002
    """Inside a tf.function op_def_library builds Conv3DBackpropInputV2 from its inputs before any
    attr is checked: T from the filter, which must be a float (TypeError "Value passed to parameter
    'filter' has DataType int64 not in list of allowed values"), then out_backprop converted to it;
    eagerly the kernel's attr checks (data_format) come first. fz30b, fz14 seed 1420303001 #287."""
    from simdist.runtime import context
    if not context.in_function():
        return
    f = _t(filters)
    if f.dtype.name not in ("float16", "bfloat16", "float32", "float64"):
        raise TypeError(f"Value passed to parameter 'filter' has DataType {f.dtype.name} not in list of allowed "
                        "values: float16, bfloat16, float32, float64")
    if isinstance(input, Tensor) and input.dtype != f.dtype:
        raise TypeError(f"Input 'out_backprop' of 'Conv3DBackpropInputV2' Op has type {input.dtype.name} that does "
                        f"not match type {f.dtype.name} of argument 'filter'.")


def _python_ints(value: Any) -> bool:
    """Whether nn_ops._get_sequence of `value` holds Python ints only, which the eager fast path's
    list(int) parser takes (PyLong_Check): None, an int, a list or tuple of ints; a NumPy array's
    np.int64 elements or a float are not."""
    if value is None or isinstance(value, int):
        return isinstance(value, int) or value is None
    if isinstance(value, (list, tuple)):
        return all(isinstance(v, int) for v in value)
    return False


def _fallback_inputs(output_shape: Any, filters: Any, input: Any, strides: Any, dilations: Any,  # noqa: A002
                     padding: Any, data_format: Any) -> tuple[Any, Any]:
    """filter and out_backprop as Conv3DBackpropInputV2's eager fallback converts them, when the call
    leaves the fast path: an input CheckOneInput refuses (output_shape as a list), or an attr its
    parsers refuse (strides of np.int64 from an ndarray, a float). Its args_to_matching_eager takes T
    from the first eager tensor (a variable is none), else from the first value (its own dtype when
    a float type, else again), so `conv3d_transpose(complex128 variable, filters=-(2**63), strides=
    np.array([1, 2, 2]), ...)` is the variable's conversion to int64, ValueError (fz35b, fourteenth
    generator seed 1420353003 #149; on the fast path the variable fixes T and T's attr error comes).
    Else, and in a graph, as given."""
    from simdist.runtime import context
    if context.in_function():
        return filters, input
    fast = all(attr_rules.check_one_input(v) for v in (output_shape, filters, input)) and \
        _python_ints(strides) and _python_ints(dilations) and isinstance(padding, (str, bytes)) and \
        isinstance(data_format, (str, bytes))
    if fast:
        return filters, input
    floats = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)
    return tuple(attr_rules.fallback_args_to_matching([filters, input], floats))


# the Conv3DBackpropInputV2 kernels' op signatures as TF 2.21's NodeDef refusal prints them (oneDNN's, Eigen's)
_V2_SIGNATURES = {
    "_MklNativeConv3DBackpropInputV2": 'input_sizes:Tshape, filter:T, out_backprop:T -> output:T; attr=T:type,allowed=[DT_'
    'BFLOAT16, DT_FLOAT, DT_HALF]; attr=strides:list(int),min=5; attr=dilations:list(int),default=[1, 1, 1, 1, 1]; attr='
    'Tshape:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]; attr=padding:string,allowed=["SAME", "VALID"]; attr=data_'
    'format:string,default="NDHWC",allowed=["NDHWC", "NCDHW"]',
    "Conv3DBackpropInputV2": 'input_sizes:Tshape, filter:T, out_backprop:T -> output:T; attr=T:type,allowed=[DT_HALF, '
    'DT_BFLOAT16, DT_FLOAT, DT_DOUBLE]; attr=strides:list(int),min=5; attr=padding:string,allowed=["SAME", "VALID"]; '
    'attr=data_format:string,default="NDHWC",allowed=["NDHWC", "NCDHW"]; attr=dilations:list(int),default=[1, 1, 1, 1, '
    '1]; attr=Tshape:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]'}


def _input_sizes(output_shape: Any, dtype: dtypes.DType) -> Tensor:
    """Conv3DBackpropInputV2's input_sizes of a Python or NumPy output_shape: converted to int32, its default Tshape;
    eagerly a list that int32 refuses (a Python float in it) is converted on its own by the fast path's fallback, and
    the kernel's NodeDef then refuses Tshape float (InvalidArgumentError, naming oneDNN's kernel for the dtypes it
    runs: `conv3d_transpose(x, w, [1, 4.0, 4, 4, 4], 1)`, TF 2.21 observed, /work/wt/fix66n_logs/p_ct.py); in a graph
    op_def_library's TypeError."""
    from simdist.runtime.tensor import convert_to_tensor
    try:
        return convert_to_tensor(output_shape, dtype=dtypes.int32)
    except TypeError:
        if context.in_function():
            raise
        own = convert_to_tensor(output_shape).dtype
        if own in (dtypes.int32, dtypes.int64):
            raise
    kernel = "_MklNativeConv3DBackpropInputV2" if host_cpu.current().onednn(
        dtype.name, ("float32", "bfloat16", "float16")) else "Conv3DBackpropInputV2"
    raise errors.InvalidArgumentError(None, None, f"Value for attr 'Tshape' of {args.tf_name(own)} is not in the list "
                                      f"of allowed values: int32, int64\n\t; NodeDef: {{{{node {kernel}}}}}; Op<name="
                                      f"{kernel}; signature={_V2_SIGNATURES[kernel]}> [Op:Conv3DBackpropInputV2]")


def conv3d_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: Any = "SAME",  # noqa: A002
                     data_format: str = "NDHWC", dilations: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.conv3d_transpose` (NDHWC): Conv3DBackpropInputV2 with the input as out_backprop and
    output_shape as input_sizes; strides and dilations an int or a list of 1, 3 or 5; filters
    [kd, kh, kw, out_channels, in_channels]. NCDHW: see `_channels_first`."""
    if data_format == "NCDHW":
        st = _to_last(spatial_sequence(strides, 3, "strides", True))
        dl = None if dilations is None else _to_last(spatial_sequence(dilations, 3, "dilations", True))
        filters, input = _fallback_inputs(output_shape, filters, input, strides, dilations, padding, data_format)
        _graph_backprop_input_types(filters, input)
        _padding(padding, "Conv3DBackpropInputV2")   # (the attr before the kernel's refusal; fz34b)
        x = _channels_first(input, "Conv3DBackpropInputOpV2 only supports NDHWC on the CPU. "
                                   "[Op:Conv3DBackpropInputV2]")
        shape = list(shape_arg(output_shape))
        out = conv3d_transpose(array.transpose(x, [0, 2, 3, 4, 1]), filters, _to_last(shape), st, padding, "NDHWC", dl)
        return array.transpose(out, [0, 4, 1, 2, 3])
    # nn_ops' _get_sequence of strides and dilations, then the op def's attrs: T, padding, data_format
    st, dl = spatial_sequence(strides, 3, "strides"), spatial_sequence(dilations, 3, "dilations")
    filters, input = _fallback_inputs(output_shape, filters, input, strides, dilations, padding, data_format)

    def tensor_like(v: Any) -> bool:
        return isinstance(v, Tensor) or hasattr(v, "_as_tensor")
    if not (tensor_like(input) and tensor_like(filters)):
        # (either side a Python or NumPy value: a list filter beside an int32 out_backprop tensor is "Cannot
        # convert [1.0, 0.25] to EagerTensor of dtype int32"; fz31b, fz14 seed 1420313009 #72)
        # (a Python value too: `conv3d_transpose(True, uint8 ndarray filters, ...)` is "Cannot convert True
        # to EagerTensor of dtype uint8"; fz31b, fz14 seed 1420313006 #76)
        # (filter and out_backprop share T: a NumPy out_backprop is cast to the filter's dtype, a
        # list filter's float32 too (args.matching; eagerly and in op_def_library); fz31b,
        # fz14_known's conv3d_transpose>not class, seed 1420261202 #702)
        filters, input = args.matching([filters, input], op="Conv3DBackpropInputV2", names=("filter", "out_backprop"))
    _graph_backprop_input_types(filters, input)   # (after _get_sequence's ValueErrors)
    check_format(None, "Conv3DBackpropInputV2", _t(input))
    pad = _padding(padding, "Conv3DBackpropInputV2")
    check_format(data_format, "Conv3DBackpropInputV2")
    # (a graph: after the attrs, the shape function wants input_sizes of 5 sizes, ValueError "Shape must
    # be rank 5 but is rank 2" at trace for output_shape=[3, 1]; fz31b, fz14 seed 1420261202 #702)
    from simdist.runtime.ops import infer_ctx
    from simdist.runtime.tensor import convert_to_tensor
    sizes = output_shape if isinstance(output_shape, Tensor) else _input_sizes(output_shape, _t(input).dtype)
    infer_ctx.check("Conv3DBackpropInputV2", {"input_sizes": sizes, "filter": _t(filters), "out_backprop": _t(input)}, {})
    attrs = {"strides": st, "padding": pad, "explicit_paddings": (), "dilations": dl,
             "input_sizes": shape_arg(output_shape)}
    return dispatch.execute(CONV3D_BACKPROP_INPUT, (_t(filters), _t(input)), attrs)
