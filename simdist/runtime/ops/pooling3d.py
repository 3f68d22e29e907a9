"""3-D pooling (TF's MaxPool3D, AvgPool3D and their gradient kernels), NDHWC, SAME / VALID, and
tf.nn.max_pool3d / avg_pool3d as TF 2.21's nn_ops.py calls them.

Values as the 2-D ops (pooling.py), observed on TF 2.21: MaxPool3D starts each window at the
dtype's lowest finite value and keeps a strictly greater one (NaNs skipped; a window of NaN and
-inf gives -FLT_MAX), but its gradient, unlike MaxPool's, goes to every element equal to the
window's maximum, and to every element within 1e-5 of it (TF's CPU kernel selects
|x - max| < 1e-5, an absolute tolerance in the input's dtype: on inputs ~1e-3 two elements of a
window can both receive it), where MaxPool3DGradGrad reads the first element exactly equal to it; AvgPool3D divides
by the in-bounds elements of each window (SAME padding is not counted). Dtypes: TF 2.21's CPU
build registers MaxPool3D for float and bfloat16 (half: NotFoundError, double and integers: not
in the op's list) and AvgPool3D for float and bfloat16 (half, double: NotFoundError).

FLOPs: kd*kh*kw per output element (compare or add); the gradients one per window element.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import array, dispatch, infer_ctx, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.conv import spatial_sequence
from simdist.runtime.ops.conv3d import geometry3d, pad3d, scatter_windows3d, windows3d
from simdist.runtime.ops.nn_rules import typed
from simdist.runtime.ops.registry import RegisterGradient, lanes, register, rows
from simdist.runtime.tensor import Tensor

__all__ = ["max_pool3d", "avg_pool3d"]

_ONES = (1, 1, 1)


def _check(shape: Sequence[int], ksize: Sequence[int], strides: Sequence[int], op: str, dtype: Any = None) -> None:
    """Pooling3DOp's (and oneDNN's MklPoolingOpBase's) constructor checks, batch then depth, before
    Compute's rank: "Input must be 4 or 5-dimensional" where oneDNN runs the dtype (observed on TF
    2.21 for float32 and bfloat16; fuzz20 seed 2520261204 #132), Pooling3DOp's "tensor_in must be
    5-dimensional" elsewhere; then the window. A forward op's window entry below 1 (fz37b, observed on TF
    2.21): oneDNN's AvgPool3D refuses it in its constructor before the batch; Pooling3DOp (MaxPool3D, and
    AvgPool3D where oneDNN does not run) refuses it as InvalidArgumentError "Sliding window ksize field
    must have non-negative dimensions" where the batch or depth refusal would come, else after the rank."""
    from simdist.runtime import host_cpu
    forward = op in ("MaxPool3D", "AvgPool3D")
    bad_window = any(k <= 0 for k in ksize)
    if forward and bad_window and op == "AvgPool3D" and dtype is not None and \
            host_cpu.current().onednn_supports(np.dtype(dtype).name):
        raise errors.InvalidArgumentError(None, None, "Sliding window ksize must be positive. The specified or "
                                          f"inferred ksize is: {','.join(str(int(k)) for k in ksize)} [Op:{op}]")
    if forward and bad_window and (ksize[0] != 1 or strides[0] != 1 or ksize[4] != 1 or strides[4] != 1):
        raise errors.InvalidArgumentError(None, None, "Sliding window ksize field must have non-negative dimensions "
                                          f"[Op:{op}]")
    if ksize[0] != 1 or strides[0] != 1:
        raise errors.UnimplementedError(None, None, f"Pooling is not yet supported on the batch dimension. [Op:{op}]")
    onednn = dtype is not None and host_cpu.current().onednn_supports(np.dtype(dtype).name)
    if onednn and op == "AvgPool3D" and len(shape) not in (4, 5):
        # (oneDNN's AvgPool3D checks the batch only in its constructor, and the rank in Compute before
        # MklPoolParameters::Init reads the depth window: a [2, 2] input under ksize [1, 2, 1, 1, 2] is the rank's
        # InvalidArgumentError; MaxPool3D refuses the depth window first; fz37a, tape seed 3720261215 #163)
        raise errors.InvalidArgumentError(None, None, f"Input must be 4 or 5-dimensional [Op:{op}]")
    if onednn and op == "AvgPool3D" and ksize[4] == 1 and len(shape) == 5:
        # (oneDNN's AvgPool3D of channel window 1 pools the planes, rows and columns only: its channel stride is
        # unread, as 2-D pooling's; TF 2.21 observed for float32 and bfloat16 (fix61b's open (d), fix62d's
        # probe_pool.py); MaxPool3D, TF's own kernel, refuses any channel stride)
        strides = tuple(strides[:4]) + (1,)
    if ksize[4] != 1 or strides[4] != 1:   # (MaxPooling3dGradGradOp names itself: observed on TF 2.21)
        who = "MaxPooling3dGradGrad" if op == "MaxPool3DGradGrad" else "Pooling"
        raise errors.UnimplementedError(None, None, f"{who} is not yet supported on the depth dimension. [Op:{op}]")
    if len(shape) != 5:
        text = "Input must be 4 or 5-dimensional" if onednn else "tensor_in must be 5-dimensional"
        raise errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")
    if any(k <= 0 for k in ksize):
        raise errors.InvalidArgumentError(None, None, "Sliding window ksize must be positive. The specified or "
                                          f"inferred ksize is: {','.join(str(int(k)) for k in ksize)} [Op:{op}]")
    if onednn and any(int(k) > int(d) for k, d in zip(ksize[1:4], shape[1:4])):
        # TF 2.21's oneDNN kernel aborts the process on a window larger than the input (observed); simdist refuses
        # it. Where oneDNN does not run the dtype, Pooling3DOp's VALID output is empty along that axis (observed on
        # this AMD host: keras.ops.adaptive_*_pool 3-D with an output size above an axis's length relies on it)
        raise errors.InvalidArgumentError(None, None, f"simdist: {op}'s window {list(ksize[1:4])} is larger than the "
                                          f"input's {list(shape[1:4])} (TF 2.21's CPU kernel crashes on it) [Op:{op}]")


def _onednn_rank4(x: np.ndarray, ksize: Sequence[int], strides: Sequence[int], padding: str,
                  op: str) -> np.ndarray | None:
    """oneDNN's MaxPool3D/AvgPool3D (float32, bfloat16) take a rank-4 input (its rank check is "4 or
    5-dimensional") and read it as [N, H, W, C] at NHWC's places with a depth of 0: the output sizes
    come from GetWindowedOutputSize in the order depth (input 0, window ksize[1], stride strides[1]),
    rows (ksize[2], strides[2]), columns (ksize[3], strides[3]): SAME ceil(in / s), VALID
    (in - k + s) / s truncated, negative "Computed output size would be negative: -1 [input_size: 0,
    effective_filter_size: 2, stride: 1]"; the output [N, 0, rows, cols, C] is empty, so nothing is
    computed (observed on TF 2.21: [0, 2, 3, 2] with ksize [1, 1, 2, 3, 1], strides [1, 1, 1, 3, 1],
    SAME is [0, 0, 2, 1, 2], fuzz20 seed 2720261204 #25; AvgPool3D of a non-empty [2, 4, 2, 3] with
    ksize [1, 1, 3, 1, 1], strides [1, 2, 2, 1, 1], VALID is [2, 0, 1, 2, 3], seed 2820261204 #52). A
    non-empty input to MaxPool3D aborts TF's process (tensor_shape.cc's check "d < dims() (4 vs. 4)",
    observed): not modelled, None as for every other input (the op computes as usual)."""
    from simdist.runtime import host_cpu
    if x.ndim != 4 or (x.size and op != "AvgPool3D") or \
            not host_cpu.current().onednn_supports(np.dtype(x.dtype).name) or \
            len(ksize) != 5 or len(strides) != 5 or ksize[0] != 1 or strides[0] != 1 or ksize[4] != 1 or \
            strides[4] != 1:
        return None
    dims = []
    for size, k, st in ((0, ksize[1], strides[1]), (x.shape[1], ksize[2], strides[2]),
                        (x.shape[2], ksize[3], strides[3])):
        if padding == "VALID":
            v = int((int(size) - int(k) + int(st)) / int(st))
            if v < 0:
                raise errors.InvalidArgumentError(None, None, f"Computed output size would be negative: {v} "
                                                  f"[input_size: {size}, effective_filter_size: {k}, stride: {st}] "
                                                  f"[Op:{op}]")
        else:
            v = (int(size) + int(st) - 1) // int(st)
        dims.append(v)
    return np.zeros((x.shape[0], dims[0], dims[1], dims[2], x.shape[3]), x.dtype)


def _geometry(shape: Sequence[int], ksize: Sequence[int], strides: Sequence[int], padding: str,
              op: str, dtype: Any = None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    _check(shape, ksize, strides, op, dtype)
    return geometry3d(shape[1:4], ksize[1:4], strides[1:4], _ONES, padding, op)


def _flat(x: np.ndarray, ksize: Sequence[int], strides: Sequence[int], out: Sequence[int], pads: Sequence[int],
          fill: Any) -> np.ndarray:
    """[N, OD, OH, OW, kd*kh*kw, C] (a copy) of the windows of x padded with `fill`."""
    win = windows3d(pad3d(x, pads, fill), ksize[1:4], out, strides[1:4], _ONES)
    n, od, oh, ow, kd, kh, kw, c = win.shape
    return win.reshape(n, od, oh, ow, kd * kh * kw, c)


def _max_pool3d(x: np.ndarray, ksize: tuple, strides: tuple, padding: str) -> np.ndarray:
    empty = _onednn_rank4(x, ksize, strides, padding, "MaxPool3D")
    if empty is not None:
        return empty
    out, pads = _geometry(x.shape, ksize, strides, padding, "MaxPool3D", x.dtype)
    flat = _flat(x, ksize, strides, out, pads, x.dtype.type(-np.inf))
    floor = x.dtype.type(dtypes.as_dtype(x.dtype).min)
    return np.fmax(np.fmax.reduce(flat, axis=4), floor)


def _equal_to_max(x: np.ndarray, y: np.ndarray, ksize: tuple, strides: tuple, padding: str, op: str) -> tuple:
    """[N, OD, OH, OW, k, C]: which window elements equal the window's pooled value (TF's CPU
    MaxPool3DGrad builds this mask: every tied maximum is selected, a NaN never is, and a window
    of only NaN and -inf, pooled to -FLT_MAX, has none), and the padding."""
    out, pads = _geometry(x.shape, ksize, strides, padding, op)
    flat = _flat(x, ksize, strides, out, pads, x.dtype.type(-np.inf))
    return flat == y[:, :, :, :, None, :], pads, out


#: MaxPool3DGrad's selection tolerance (pooling_ops_3d.cc, LaunchMaxPooling3dGradOp<CPUDevice>:
#: ``((tensor_in_slice - tensor_out_slice.broadcast(bcast)).abs() < tensor_in_slice.constant(1e-5))``).
GRAD_SELECT_ATOL = 1e-5


def _near_max(x: np.ndarray, y: np.ndarray, ksize: tuple, strides: tuple, padding: str, op: str) -> tuple:
    """[N, OD, OH, OW, k, C]: which window elements MaxPool3DGrad routes the window's gradient to:
    |x - max| < 1e-5 in the input's dtype (TF's CPU kernel), so ties and near-ties all receive it;
    a NaN never does, nor a padding position (-inf here, outside the slice in TF), nor anything
    in a window of only NaN and -inf (pooled to -FLT_MAX)."""
    out, pads = _geometry(x.shape, ksize, strides, padding, op)
    flat = _flat(x, ksize, strides, out, pads, x.dtype.type(-np.inf))
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(flat - y[:, :, :, :, None, :])
    return diff < x.dtype.type(GRAD_SELECT_ATOL), pads, out


def _max_pool3d_grad(x: np.ndarray, y: np.ndarray, g: np.ndarray, ksize: tuple, strides: tuple,
                     padding: str) -> np.ndarray:
    """Each window's gradient added to every element within 1e-5 of its maximum (TF 2.21's CPU
    kernel, read and observed: ties and near-ties all receive it, unlike MaxPool's first maximum)."""
    mask, pads, _ = _near_max(x, y, ksize, strides, padding, "MaxPool3DGrad")
    gw = g.astype(np.float32) if g.dtype.itemsize == 2 else g
    dwin = np.where(mask, gw[:, :, :, :, None, :], gw.dtype.type(0))
    n, od, oh, ow, _, c = dwin.shape
    out = scatter_windows3d(dwin.reshape(n, od, oh, ow, ksize[1], ksize[2], ksize[3], c), x.shape, pads,
                            strides[1:4], _ONES)
    return out.astype(g.dtype)


def _max_pool3d_grad_grad(x: np.ndarray, y: np.ndarray, g: np.ndarray, ksize: tuple, strides: tuple,
                          padding: str) -> np.ndarray:
    """g at each window's first element (row-major) equal to its maximum; 0 when none is."""
    mask, pads, out = _equal_to_max(x, y, ksize, strides, padding, "MaxPool3DGradGrad")
    gflat = _flat(g, ksize, strides, out, pads, g.dtype.type(0))
    idx = np.argmax(mask, axis=4)[:, :, :, :, None, :]
    picked = np.take_along_axis(gflat, idx, axis=4)[:, :, :, :, 0, :]
    return np.where(mask.any(axis=4), picked, g.dtype.type(0))


def _counts(shape: Sequence[int], ksize: Sequence[int], strides: Sequence[int], out: Sequence[int],
            pads: Sequence[int]) -> np.ndarray:
    """[OD, OH, OW, 1]: how many in-bounds elements each window covers."""
    per = []
    for i in range(3):
        start = np.arange(out[i]) * strides[i + 1] - pads[2 * i]
        per.append(np.minimum(start + ksize[i + 1], shape[i + 1]) - np.maximum(start, 0))
    return (per[0][:, None, None] * per[1][None, :, None] * per[2][None, None, :])[..., None]


def _avg_pool3d(x: np.ndarray, ksize: tuple, strides: tuple, padding: str) -> np.ndarray:
    empty = _onednn_rank4(x, ksize, strides, padding, "AvgPool3D")
    if empty is not None:
        return empty
    from simdist.runtime import host_cpu
    if x.ndim == 5 and len(ksize) == 5 and ksize[4] != 1 and tuple(ksize[:4]) == (1, 1, 1, 1) and \
            strides[0] == 1 and strides[4] == ksize[4] and x.shape[4] % ksize[4] == 0 and \
            host_cpu.current().onednn_supports(x.dtype.name):
        # (oneDNN's AvgPool3D of a channel window dividing the channels, its stride the window: an empty
        # [N, 0, 0, 0, C / k], as its 2-D AvgPool; TF 2.21 observed for float32 and bfloat16, fix62d)
        return np.zeros((x.shape[0], 0, 0, 0, x.shape[4] // int(ksize[4])), x.dtype)
    out, pads = _geometry(x.shape, ksize, strides, padding, "AvgPool3D", x.dtype)
    xw = x.astype(np.float32) if x.dtype.itemsize == 2 else x
    s = np.sum(_flat(xw, ksize, strides, out, pads, xw.dtype.type(0)), axis=4)
    return (s / _counts(x.shape, ksize, strides, out, pads).astype(xw.dtype)).astype(x.dtype)


def _avg_pool3d_grad(g: np.ndarray, orig_input_shape: tuple, ksize: tuple, strides: tuple,
                     padding: str) -> np.ndarray:
    from simdist.runtime import host_cpu
    if len(orig_input_shape) == 4 and not g.size and host_cpu.current().onednn_supports(g.dtype.name) and \
            ksize[0] == strides[0] == ksize[4] == strides[4] == 1:
        # (oneDNN's AvgPool3DGrad of a rank-4 input, the gradient of _onednn_rank4's empty output:
        # zeros of orig_input_shape; a non-empty grad aborts TF's process in TFShapeToMklDnnDimsInNCDHW,
        # observed on TF 2.21, not modelled; fz28a, tape of seed 2820261204 #52's call)
        return np.zeros(tuple(int(d) for d in orig_input_shape), g.dtype)
    if host_cpu.current().onednn_supports(g.dtype.name) and ksize[0] == strides[0] == ksize[4] == strides[4] == 1 \
            and int(np.prod(orig_input_shape, dtype=np.int64)) == 0 and all(int(d) >= 0 for d in orig_input_shape):
        # (MklAvgPoolingGradOp allocates the output of orig_input_shape and returns when it has no elements, before
        # any rank or window check: [0, 2, 0] gives a [0, 2, 0] gradient, [1, 0, 2, 2, 1] under a 2-row window an
        # empty one; observed on TF 2.21, fz36a, tape seed 3620261224 #158)
        return np.zeros(tuple(int(d) for d in orig_input_shape), g.dtype)
    out, pads = _geometry(orig_input_shape, ksize, strides, padding, "AvgPool3DGrad")
    if not host_cpu.current().onednn_supports(g.dtype.name) and g.ndim == 5 and len(orig_input_shape) == 5 \
            and g.shape[0] == int(orig_input_shape[0]) and g.shape[4] == int(orig_input_shape[4]):
        return _avg_pool3d_grad_loop(g, orig_input_shape, ksize, strides, pads)
    gw = g.astype(np.float32) if g.dtype.itemsize == 2 else g
    per = gw / _counts(orig_input_shape, ksize, strides, out, pads).astype(gw.dtype)
    if g.dtype == np.float32 and g.ndim == 5 and host_cpu.current().onednn_supports("float32"):
        return _onednn_avg_pool3d_grad(per, orig_input_shape, ksize, strides, pads)
    n, od, oh, ow, c = per.shape
    dwin = np.broadcast_to(per[:, :, :, :, None, None, None, :], (n, od, oh, ow, ksize[1], ksize[2], ksize[3], c))
    return scatter_windows3d(dwin, orig_input_shape, pads, strides[1:4], _ONES).astype(g.dtype)


def _onednn_avg_pool3d_grad(per: np.ndarray, in_shape: Sequence[int], ksize: Sequence[int], strides: Sequence[int],
                            pads: Sequence[int]) -> np.ndarray:
    """oneDNN's float32 AvgPool3DGrad, the 3-D form of pooling._onednn_avg_pool_grad: each output's gradient divided
    by its window's count of valid elements (`per`) added into the input with output planes outermost, then output
    rows, the window's planes, rows and columns, and the output columns innermost. Observed on TF 2.21 on this
    session's AVX-512 Xeon (asweep58's af-pool-3d `avg_pool3d SAME/VALID grad`, bit for bit; pool58)."""
    n, d, h, w, c = (int(v) for v in in_shape)
    out = np.zeros((n, d + pads[0] + pads[1], h + pads[2] + pads[3], w + pads[4] + pads[5], c), np.float32)
    _, od, oh, ow, _ = per.shape
    sd, sh, sw = strides[1], strides[2], strides[3]
    for i in range(od):
        for j in range(oh):
            for a in range(ksize[1]):
                for b in range(ksize[2]):
                    row = out[:, i * sd + a, j * sh + b]
                    for e in range(ksize[3]):
                        row[:, e:e + (ow - 1) * sw + 1:sw, :] += per[:, i, j]
    return out[:, pads[0]:pads[0] + d, pads[2]:pads[2] + h, pads[4]:pads[4] + w, :]


def _avg_pool3d_grad_loop(g: np.ndarray, orig_input_shape: Sequence[int], ksize: Sequence[int],
                          strides: Sequence[int], pads: Sequence[int]) -> np.ndarray:
    """LaunchAvgPooling3dGradOp<CPUDevice> (pooling_ops_3d.cc), TF's own kernel where oneDNN does not run: for
    each gradient element, columns outermost, then rows, then planes, its slice times T(1.0f / window size)
    (rounded in T) added to the input elements its window covers (each addition rounded in T), so an input
    element three or more overlapping windows cover sums in that order (fz49b)."""
    from simdist.runtime.ops.pooling import _broadcast_size
    out = np.zeros(tuple(int(d) for d in orig_input_shape), g.dtype)
    wide = np.float32 if g.dtype.itemsize == 2 else g.dtype.type   # (Eigen::half/bfloat16 arithmetic in float)
    dd, hh, ww = out.shape[1], out.shape[2], out.shape[3]
    for w in range(g.shape[3]):
        w0, ws = _broadcast_size(w, ww, ksize[3], strides[3], pads[4])
        for h in range(g.shape[2]):
            h0, hs = _broadcast_size(h, hh, ksize[2], strides[2], pads[2])
            for d in range(g.shape[1]):
                d0, ds = _broadcast_size(d, dd, ksize[1], strides[1], pads[0])
                if ds <= 0 or hs <= 0 or ws <= 0:
                    continue
                coeff = g.dtype.type(np.float32(1.0) / np.float32(ds * hs * ws))
                add = (g[:, d, h, w, :].astype(wide) * wide(coeff)).astype(g.dtype)
                region = out[:, d0:d0 + ds, h0:h0 + hs, w0:w0 + ws, :]
                region[...] = (region.astype(wide) + add[:, None, None, None, :].astype(wide)).astype(g.dtype)
    return out


def _cpu_only(op: str, allowed: str, missing: tuple[str, ...]) -> Any:
    """TF's dtype list for the op, and eagerly NotFoundError for the listed dtypes it has no CPU
    kernel of (in a graph the lookup fails when the graph runs, after the shape function's checks
    at trace: `_placed`)."""
    base = typed(op, allowed)

    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        d = base(dts, attrs)
        if d.name in missing and context.executing_eagerly():
            raise _not_found(op, d.name)
        return d
    return rule


def _not_found(op: str, name: str) -> errors.NotFoundError:
    tf_name = {"float16": "DT_HALF", "float64": "DT_DOUBLE"}[name]
    return errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {op}}}}} = {op}[T={tf_name}] "
                                f"[Op:{op}]")


def _placed(op: str, missing: tuple[str, ...], forward: Any) -> Any:
    """`forward` behind the kernel lookup a graph's run makes for a dtype with no CPU kernel (a
    float16 MaxPool3D in a tf.function: Pool3DShape's ValueError for a scalar input at trace comes
    first, then the run's "No OpKernel was registered"; fz27b, fz14 seed 1420272701 #120)."""
    def placed(*arrays: Any, **attrs: Any) -> Any:
        bad = next((a.dtype.name for a in arrays if a.dtype.name in missing), None)
        if bad is not None:
            raise _not_found(op, bad)
        return forward(*arrays, **attrs)
    placed.__doc__ = forward.__doc__
    return placed


def _window_flops(arrays: Any, out: Any, attrs: Any) -> float:
    k = attrs["ksize"]
    return float(out.size * k[1] * k[2] * k[3])


def _grad_window_flops(arrays: Any, out: Any, attrs: Any) -> float:
    k = attrs["ksize"]
    return float(arrays[-1].size * k[1] * k[2] * k[3])


_ALLOWED = {"MaxPool3D": "half, bfloat16, float", "AvgPool3D": "half, bfloat16, float, double"}
MAX_POOL3D = register("MaxPool3D", _placed("MaxPool3D", ("float16",), _max_pool3d),
                      _cpu_only("MaxPool3D", "half, bfloat16, float", ("float16",)),
                      _window_flops, kind="window", fusion=rows(0))
MAX_POOL3D_GRAD = register("MaxPool3DGrad", _placed("MaxPool3DGrad", ("float16",), _max_pool3d_grad),
                           _cpu_only("MaxPool3DGrad", "half, bfloat16, float", ("float16",)), _grad_window_flops,
                           kind="window", fusion=rows(0, 1, 2))
MAX_POOL3D_GRAD_GRAD = register("MaxPool3DGradGrad", _placed("MaxPool3DGradGrad", ("float16",), _max_pool3d_grad_grad),
                                _cpu_only("MaxPool3DGradGrad", "half, bfloat16, float", ("float16",)),
                                lambda a, out, at: float(out.size), kind="window",
                                fusion=lanes("no stacked form written (a second-order gradient)"))
AVG_POOL3D = register("AvgPool3D", _placed("AvgPool3D", ("float16", "float64"), _avg_pool3d),
                      _cpu_only("AvgPool3D", "half, bfloat16, float, double", ("float16", "float64")),
                      _window_flops, kind="window", fusion=rows(0))
AVG_POOL3D_GRAD = register("AvgPool3DGrad", _placed("AvgPool3DGrad", ("float16", "float64"), _avg_pool3d_grad),
                           _cpu_only("AvgPool3DGrad", "half, bfloat16, float, double", ("float16", "float64")),
                           _grad_window_flops, kind="window",
                           fusion=lanes("its orig_input_shape operand is one lane's batch: no stacked form written"))


# Pool3DShape at trace (shape_fns_nn.py): an input of rank 5, then the windowed sizes (fz25b: seed
# 1420262501 #13, a [None] input_signature argument)
MAX_POOL3D.trace_shape = infer_ctx.trace_shape("MaxPool3D")
AVG_POOL3D.trace_shape = infer_ctx.trace_shape("AvgPool3D")


def _channels_first(pool: Any, x: Tensor, ksize: Any, strides: Any, padding: Any) -> Tensor:
    """NCDHW pooling (clause ops.nn-more): TF 2.21's CPU kernels (float32 and bfloat16, as NDHWC's)
    give the NDHWC values between two transposes; other dtypes fail the same dtype checks."""
    from simdist.runtime.ops import array
    from simdist.runtime.ops.conv import spatial_sequence
    def last(seq: Any, name: str) -> list:
        v = spatial_sequence(seq, 3, name, True)
        return [v[0], v[2], v[3], v[4], v[1]]
    out = pool(array.transpose(x, [0, 2, 3, 4, 1]), last(ksize, "ksize"), last(strides, "strides"), padding, "NDHWC")
    return array.transpose(out, [0, 4, 1, 2, 3])


def _attrs(x: Tensor, ksize: Any, strides: Any, padding: Any, data_format: Any, op: str = "MaxPool3D") -> dict:
    seqs = {"ksize": spatial_sequence(ksize, 3, "ksize"), "strides": spatial_sequence(strides, 3, "strides")}
    from simdist.runtime.ops import attr_rules
    # (the generated wrapper's make_int of each element first, before padding's make_str: a variable of 5 elements,
    # which _get_sequence wraps as one, is "Expected int for argument 'ksize' not <tf.Variable ...>"; fz66)
    seqs = {k: tuple(v if type(v) is int else attr_rules.make_int(v, k) for v in seq) for k, seq in seqs.items()}
    if not isinstance(padding, str):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    # (T first: eagerly the NodeDef's attrs are validated by name, T, data_format, then padding; a graph's
    # op_def_library checks the input's type, then the attrs in the op def's order, padding before
    # data_format, each a ValueError; fz31b, fz14 seed 1420313002 #56, #93)
    typed(op, _ALLOWED[op])((x.dtype,), None)
    formats = '"NDHWC", "NCDHW"'
    checks = [("padding", padding, '"SAME", "VALID"'), ("data_format", data_format, formats)]
    for attr, value, allowed in (checks if context.in_function() else checks[::-1]):
        if value is not None and value not in allowed.replace('"', "").split(", "):
            err = errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of \"{value}\" is not in the list "
                                              f"of allowed values: {allowed} [Op:{op}]")
            # (op_def_library's ValueError while a tf.function is traced; fz25b, seed 1420262501 #13)
            raise trace_errors.bad_attr(err, op, attr, value, allowed)
    return {**seqs, "padding": padding}


def _own_kernel_ncdhw(op: str, x: Tensor, ksize: Any, strides: Any, padding: Any) -> Any:
    """An NCDHW pool where TF 2.21 runs its own Pooling3DOp (the dtype not one oneDNN runs on the modelled
    CPU, outside XLA): the raw op, whose constructor refuses the layout ("Default Pooling3DOp only supports
    NDHWC on device type CPU", InvalidArgumentError, observed eagerly and in a tf.function on the AVX2 AMD EPYC
    host, where oneDNN is off) after the op's dtype and attr checks and, in a tf.function, Pool3DShape at trace;
    a tf.function that does not use the result prunes the op (raw_ops._run). None where oneDNN's kernel takes
    NCDHW (the NDHWC values transposed: `_channels_first`)."""
    from simdist.runtime import host_cpu
    from simdist.runtime.ops import raw_layout, raw_ops
    from simdist.runtime.ops.pooling import batch_or_depth_wise
    if op == "MaxPool3D" and not context.in_xla() and batch_or_depth_wise(ksize, strides, 3):
        # (oneDNN's layout pass leaves it to TF's own kernel: its layout refusal, fsweep61; pruned where nothing
        # uses it, as the kernel's refusal is: open52's `function unused max_pool3d batch window`)
        from simdist.runtime.ops import dispatch
        err = errors.InvalidArgumentError(None, None, "Default Pooling3DOp only supports NDHWC on device type CPU "
                                          f"[Op:{op}]")
        return dispatch.layout_refused(err, x.dtype, (), [x])
    if context.in_xla() or host_cpu.current().onednn(x.dtype.name, raw_layout.registered(op)):
        return None
    return raw_ops.call(op, dict(input=x, ksize=spatial_sequence(ksize, 3, "ksize", True),
                                 strides=spatial_sequence(strides, 3, "strides", True), padding=padding,
                                 data_format="NCDHW"))


def max_pool3d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NDHWC",  # noqa: A002
               name: str | None = None) -> Tensor:
    """`tf.nn.max_pool3d` (NDHWC): ksize and strides an int or a list of 1, 3 or 5; NCDHW between
    two transposes where oneDNN runs the dtype, else TF's own kernel's refusal (`_own_kernel_ncdhw`)."""
    x = _t(input)
    if data_format == "NCDHW":
        own = _own_kernel_ncdhw("MaxPool3D", x, ksize, strides, padding)
        if own is not None:
            return own
        if not context.in_function() and not context.in_xla():   # (MaxPool3DGrad's refusal eagerly: pooling.py)
            from simdist.runtime.ops.pooling import gradient_refused
            return gradient_refused(lambda v: _channels_first(max_pool3d, v, ksize, strides, padding), x,
                                    "Default MaxPooling3dGradOp only supports NDHWC on device type CPU "
                                    "[Op:MaxPool3DGrad]")
        return _channels_first(max_pool3d, x, ksize, strides, padding)
    return dispatch.execute(MAX_POOL3D, (x,), _attrs(x, ksize, strides, padding, data_format))


def avg_pool3d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NDHWC",  # noqa: A002
               name: str | None = None) -> Tensor:
    """`tf.nn.avg_pool3d` (NDHWC): the mean over each window's in-bounds elements; NCDHW between
    two transposes where oneDNN runs the dtype, else TF's own kernel's refusal (`_own_kernel_ncdhw`)."""
    x = _t(input)
    if data_format == "NCDHW":
        own = _own_kernel_ncdhw("AvgPool3D", x, ksize, strides, padding)
        if own is not None:
            return own
        return _channels_first(avg_pool3d, x, ksize, strides, padding)
    return dispatch.execute(AVG_POOL3D, (x,), _attrs(x, ksize, strides, padding, data_format, "AvgPool3D"))


# --- gradients (nn_grad.py) ----------------------------------------------------------------------------------
@RegisterGradient("MaxPool3D")
def _max_pool3d_grad_fn(op: Any, grad: Any) -> list:
    return [dispatch.execute(MAX_POOL3D_GRAD, (op.inputs[0], op.outputs[0], grad), dict(op.attrs))]


@RegisterGradient("MaxPool3DGrad")
def _max_pool3d_grad_grad_fn(op: Any, grad: Any) -> list:
    x, y, _ = op.inputs
    return [array.zeros_like(x), array.zeros_like(y),
            dispatch.execute(MAX_POOL3D_GRAD_GRAD, (x, y, grad), dict(op.attrs))]


@RegisterGradient("MaxPool3DGradGrad")
def _max_pool3d_grad_grad_grad_fn(op: Any, grad: Any) -> list:
    x, y, _ = op.inputs
    return [array.zeros_like(x), array.zeros_like(y), dispatch.execute(MAX_POOL3D_GRAD, (x, y, grad), dict(op.attrs))]


@RegisterGradient("AvgPool3D")
def _avg_pool3d_grad_fn(op: Any, grad: Any) -> list:
    attrs = dict(op.attrs, orig_input_shape=tuple(op.inputs[0].shape.as_list()))
    return [dispatch.execute(AVG_POOL3D_GRAD, (grad,), attrs)]


@RegisterGradient("AvgPool3DGrad")
def _avg_pool3d_grad_grad_fn(op: Any, grad: Any) -> list:
    attrs = {k: v for k, v in op.attrs.items() if k != "orig_input_shape"}
    return [dispatch.execute(AVG_POOL3D, (grad,), attrs)]
