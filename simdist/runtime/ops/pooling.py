"""2-D pooling (TF's MaxPool, AvgPool and their gradient kernels), NHWC, SAME / VALID padding.

Windows are strided views of the padded input (conv.windows); MaxPool's gradient goes to the
first maximum of each window in row-major order (TF's CPU kernel routes ties that way), SAME
padding never wins (it is -inf); AvgPool divides by the number of in-bounds elements of each
window, as TF does for SAME padding.

FLOPs: MaxPool and AvgPool kh*kw per output element (compare or add), AvgPoolGrad the same
per gradient element, MaxPoolGrad and MaxPoolGradGrad one per output element.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, dtypes, errors, host_cpu
from simdist.runtime.ops import array, dispatch, infer_ctx, trace_errors
from simdist.runtime.ops.args import raw_attribute, t as _t
from simdist.runtime.ops.conv import (check_data_format, check_valid_padding, normalize_padding, scatter_windows,
                                      spatial_sequence, window_geometry, windows)
from simdist.runtime.ops.nn_rules import FLOATS, REAL_NUMBERS, typed
from simdist.runtime.ops.registry import RegisterGradient, lanes, register, rows
from simdist.runtime.tensor import Tensor

__all__ = ["max_pool2d", "avg_pool2d", "max_pool", "avg_pool"]


def _positive_text(ksize: Sequence[int], op: str) -> str:
    return ("Sliding window ksize must be positive. The specified or inferred ksize is: "
            f"{','.join(str(int(k)) for k in ksize)} [Op:{op}]")


def _positive_first(op: str, dtype: Any) -> bool:
    """Whether the forward kernel refuses a window entry below 1 in its constructor, before the batch:
    MaxPoolingOp (every dtype) and oneDNN's MklPoolingOpBase (an AvgPool of a dtype oneDNN runs);
    TF's own AvgPoolingOp refuses the batch first (observed on TF 2.21, fz37b)."""
    if op == "MaxPool":
        return True
    return op == "AvgPool" and dtype is not None and \
        host_cpu.current().onednn(np.dtype(dtype).name, _NCHW_DTYPES["AvgPool"])


def _check(shape: Sequence[int], ksize: Sequence[int], strides: Sequence[int], op: str, dtype: Any = None) -> None:
    """The pooling kernel's checks: MaxPool's (and oneDNN's AvgPool's) positive window entries in its
    constructor (fz37b, fourteenth generator seed 1420373001 #4: `max_pool(x, ksize=[0, 3, 1, 2],
    strides=[3])` is InvalidArgumentError, not the batch's UnimplementedError), the constructor's batch
    refusal (MaxPoolingOp, MklPoolingOpBase) before Compute's rank (fuzz20 seed 2520261204 #132);
    TF's own AvgPoolingOp's "ksize must be a positive int32 value" after the batch, before the rank;
    then the window."""
    first = _positive_first(op, dtype)
    if first and any(k <= 0 for k in ksize):
        raise errors.InvalidArgumentError(None, None, _positive_text(ksize, op))
    if ksize[0] != 1 or strides[0] != 1:
        raise errors.UnimplementedError(None, None, f"Pooling is not yet supported on the batch dimension. [Op:{op}]")
    if op == "AvgPool" and not first:
        for k in ksize:
            if k <= 0:
                raise errors.InvalidArgumentError(None, None, f"ksize must be a positive int32 value, got:{int(k)} "
                                                  f"[Op:{op}]")
    if len(shape) != 4:
        raise errors.InvalidArgumentError(None, None, f"Input must be 4 or 5-dimensional [Op:{op}]")
    if any(k <= 0 for k in ksize):
        raise errors.InvalidArgumentError(None, None, _positive_text(ksize, op))
    # (an AvgPool, AvgPoolGrad or MaxPool of depth window 1 ignores the depth stride: PoolParameters pools only the
    # spatial dimensions then, on every dtype, eagerly and traced; avg_pool1d's full strides [2, 2, 2] give a depth
    # stride of 2; MaxPoolGrad refuses it in its own check, "MaxPoolingGrad is not yet supported on the depth
    # dimension"; clause ops.nn-wrapper-order, fsweep61's f-pool1d `avg ... strides full outer 2`, fix61b's probe8)
    depth_stride_ignored = op in ("AvgPool", "AvgPoolGrad", "MaxPool") and ksize[3] == 1
    if ksize[3] != 1 and op in ("AvgPool", "MaxPool"):
        depthwise_checks(shape[3], ksize, strides, op, dtype)
        return
    if ksize[3] != 1 or (strides[3] != 1 and not depth_stride_ignored):
        raise errors.UnimplementedError(None, None, "simdist: pooling across the depth dimension is not supported "
                                        f"[Op:{op}]")


def depthwise(shape: Sequence[int], ksize: Sequence[int]) -> bool:
    """Whether a 4-d pool's window spans channels (PoolParameters' depth_window above 1)."""
    return len(shape) == 4 and len(ksize) == 4 and ksize[3] != 1


def depthwise_checks(depth: int, ksize: Sequence[int], strides: Sequence[int], op: str, dtype: Any) -> None:
    """PoolParameters' (and oneDNN's MklPoolParameters') depth pooling rules, UnimplementedError each: a channel
    window beside a spatial one ("exactly one of"), a window not dividing the depth, a depth stride other than the
    window; then TF's own AvgPoolingOp (float16, float64: dtypes oneDNN does not run) refuses any channel window
    ("Non-spatial pooling"). MaxPool (TF's own DepthwiseMaxPool, every dtype: the layout pass leaves a depth pool
    to it) and oneDNN's AvgPool (float32, bfloat16) compute. TF 2.21 observed, fix62d (probe_pool.py)."""
    def no(text: str) -> errors.UnimplementedError:
        return errors.UnimplementedError(None, None, f"{text} [Op:{op}]")
    if ksize[1] != 1 or ksize[2] != 1:
        raise no("MaxPooling supports exactly one of pooling across depth or pooling across width/height.")
    if depth % ksize[3]:
        raise no("Depthwise max pooling requires the depth window to evenly divide the input depth.")
    if strides[3] != ksize[3]:
        raise no("Depthwise max pooling requires the depth window to equal the depth stride.")
    if op == "AvgPool" and not (dtype is not None and
                                host_cpu.current().onednn(np.dtype(dtype).name, _NCHW_DTYPES["AvgPool"])):
        raise no("Non-spatial pooling is not yet supported. Volunteers? :)")


def _depthwise_max(x: np.ndarray, k: int) -> np.ndarray:
    """maxpooling_op.cc's DepthwiseMaxPool: each run of k channels' greatest, Eigen's colwise maxCoeff over the
    input read as [k, size / k] (spatial strides and padding unread: the output keeps the rows and columns); the
    fold keeps its value unless the next is greater (a tie keeps the first; a NaN first stays, later NaNs are
    skipped: not measured against TF)."""
    n, h, w, c = x.shape
    groups = x.reshape(n, h, w, c // k, k)
    out = groups[..., 0].copy()
    for j in range(1, k):
        v = groups[..., j]
        out = np.where(out < v, v, out)
    return out


def _check_explicit(ksize: Sequence[int], padding: str, explicit: Sequence[int], op: str) -> None:
    """PoolParameters' EXPLICIT padding checks (pooling_ops_common.cc), after the input's rank: CheckValidPadding
    (8 nonnegative values, none in the batch or depth), then CheckPaddingSize: each side's padding smaller than
    its window ("Top padding 2 needs to be smaller than the window size 2", then Bottom, Left, Right). The
    kernel's constructor reads explicit_paddings only for EXPLICIT, so eagerly other paddings ignore them
    (fz31a: seed 3120261201 #107, a [0, 1, ...] batch padding that simdist pooled)."""
    if padding != "EXPLICIT":
        return
    check_valid_padding(padding, explicit, 4, op)
    for side, pad, window in (("Top", explicit[2], ksize[1]), ("Bottom", explicit[3], ksize[1]),
                              ("Left", explicit[4], ksize[2]), ("Right", explicit[5], ksize[2])):
        if pad >= window:
            raise errors.InvalidArgumentError(None, None, f"{side} padding {pad} needs to be smaller than the window "
                                              f"size {window} [Op:{op}]")


def _geometry(shape: Sequence[int], ksize: Sequence[int], strides: Sequence[int], padding: str, explicit: tuple,
              op: str, dtype: Any = None) -> tuple[tuple[int, int], tuple[int, ...]]:
    _check(shape, ksize, strides, op, dtype)
    _check_explicit(ksize, padding, explicit, op)
    return window_geometry(shape[1:3], ksize[1:3], strides[1:3], (1, 1), padding, explicit, op)


def _lowest(dt: np.dtype) -> Any:
    return -np.inf if dtypes.is_float_np(dt) else np.iinfo(dt).min


def _flat_windows(x: np.ndarray, ksize: Sequence[int], strides: Sequence[int], out_hw: Sequence[int],
                  pads: Sequence[int], fill: Any) -> np.ndarray:
    """[N, OH, OW, kh*kw, C] (a copy) of the windows of x padded with `fill`."""
    xp = np.pad(x, ((0, 0), pads[:2], pads[2:], (0, 0)), constant_values=fill) if any(pads) else x
    win = windows(xp, ksize[1:3], out_hw, strides[1:3], (1, 1))
    n, oh, ow, kh, kw, c = win.shape
    return win.reshape(n, oh, ow, kh * kw, c)


def _first_greatest(flat: np.ndarray) -> np.ndarray:
    """The window position TF's MaxPoolGrad routes the gradient to: it starts at the window's first
    element and moves on a strictly greater value, so a NaN never wins, except a NaN in first place,
    which nothing is greater than (ties: the first)."""
    if flat.dtype.kind != "f" and flat.dtype.name != "bfloat16":
        return np.argmax(flat, axis=3)
    nan = np.isnan(flat)
    if not nan.any():
        return np.argmax(flat, axis=3)
    idx = np.argmax(np.where(nan, -np.inf, flat), axis=3)
    return np.where(nan[:, :, :, 0, :], 0, idx)


def _argmax(x: np.ndarray, ksize: tuple, strides: tuple, padding: str, explicit: tuple, op: str) -> tuple:
    out_hw, pads = _geometry(x.shape, ksize, strides, padding, explicit, op)
    flat = _flat_windows(x, ksize, strides, out_hw, pads, _lowest(x.dtype))
    return flat, _first_greatest(flat)[:, :, :, None, :], out_hw, pads


def _max_pool(x: np.ndarray, ksize: tuple, strides: tuple, padding: str, explicit_paddings: tuple = ()) -> np.ndarray:
    """TF's MaxPool starts each window at the dtype's lowest finite value and keeps a strictly
    greater one: NaNs are skipped, and a window of only NaN or -inf gives -FLT_MAX (not NaN/-inf)."""
    if depthwise(x.shape, ksize):
        _check(x.shape, ksize, strides, "MaxPool", x.dtype)
        return _depthwise_max(x, int(ksize[3]))
    out_hw, pads = _geometry(x.shape, ksize, strides, padding, explicit_paddings, "MaxPool", x.dtype)
    flat = _flat_windows(x, ksize, strides, out_hw, pads, _lowest(x.dtype))
    if flat.dtype.kind != "f" and flat.dtype.name != "bfloat16":
        return np.max(flat, axis=3)
    lowest = dtypes.finfo(flat.dtype).min
    key = flat
    if flat.dtype == np.float32 and host_cpu.current().onednn("float32", ("float32",)):
        # oneDNN's float32 kernel compares under DAZ (a subnormal ties with a zero) and copies the first maximum's
        # bits: a window [-2**-130, 0, ...] gives -2**-130, not flushed (subnormals.py's MaxPool rule); observed on
        # TF 2.21 on an AVX-512 Xeon with AMX (fifty-fifth session, kpaths54's k-pool-float32)
        key = np.where(np.abs(flat) < np.finfo(np.float32).tiny, np.float32(0), flat)
    # the first of equal maxima (Eigen's cwiseMax keeps its accumulator on a tie): +0 before -0 stays +0
    first = np.argmax(np.where(np.isnan(key), -np.inf, key), axis=3)[:, :, :, None, :]
    return np.fmax(np.take_along_axis(flat, first, axis=3)[:, :, :, 0, :], flat.dtype.type(lowest))


def _grad_checks(x: np.ndarray, y: np.ndarray, g: np.ndarray, ksize: tuple, strides: tuple, padding: str,
                 explicit: tuple, grad_grad: bool) -> None:
    """MaxPoolingGradOp's / MaxPoolingGradGradOp's checks in TF's order (pooling_ops_common.h,
    maxpooling_op.cc), which a raw call reaches: the constructor's ksize and strides of 4 entries and 1
    in the batch, then the depth place (UnimplementedError); Compute's three ranks; then orig_output
    of the forward's shape (PoolParameters: each windowed size by GetWindowedOutputSizeVerbose) and
    grad of the forward's (MaxPoolGrad) or the input's (MaxPoolGradGrad) shape. TF 2.21's texts
    (fuzz20 tape seed 2420261203 #67, #123; seed 2320261202 #33)."""
    op, label = ("MaxPoolGradGrad", "MaxPoolingGradGrad") if grad_grad else ("MaxPoolGrad", "MaxPoolingGrad")

    def bad(text: str) -> errors.InvalidArgumentError:
        return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")
    for vals, what in ((ksize, "ksize"), (strides, "strides")):
        if len(vals) != 4:
            raise bad(f"Sliding window {what} field must specify 4 dimensions")
    if ksize[0] != 1 or strides[0] != 1:
        raise errors.UnimplementedError(None, None, f"Pooling is not yet supported on the batch dimension. [Op:{op}]")
    if ksize[3] != 1 or strides[3] != 1:
        raise errors.UnimplementedError(None, None, f"{label} is not yet supported on the depth dimension. [Op:{op}]")
    for a, what in ((x, "tensor_in"), (y, "tensor_out"), (g, "out_grad_backprop" if grad_grad else "out_backprop")):
        if a.ndim != 4:
            raise bad(f"{what} must be 4-dimensional")
    _check_explicit(ksize, padding, explicit, op)
    out_hw, _ = window_geometry(x.shape[1:3], ksize[1:3], strides[1:3], (1, 1), padding, explicit, op)
    want = (x.shape[0], out_hw[0], out_hw[1], x.shape[3])

    def dims(shape: Sequence[int]) -> str:
        return "[" + ",".join(str(int(d)) for d in shape) + "]"
    if tuple(y.shape) != want:
        raise bad(f"Expected orig_output shape to be {dims(want)}, but got {dims(y.shape)}")
    g_want = tuple(x.shape) if grad_grad else want
    if tuple(g.shape) != g_want:
        raise bad(f"Expected grad shape to be {dims(g_want)}, but got {dims(g.shape)}")


def _max_pool_grad(x: np.ndarray, y: np.ndarray, g: np.ndarray, ksize: tuple, strides: tuple, padding: str,
                   explicit_paddings: tuple = ()) -> np.ndarray:
    _grad_checks(x, y, g, ksize, strides, padding, explicit_paddings, False)
    flat, idx, _, pads = _argmax(x, ksize, strides, padding, explicit_paddings, "MaxPoolGrad")
    if x.dtype.name != "float32" and host_cpu.current().onednn(x.dtype.name, _NCHW_GRAD_DTYPES):
        # (oneDNN's bfloat16 pooling backward: its order not measured, the windows' scatter kept; blind54b. Its
        # float32 one adds the routed gradients in the outputs' flat order, as TF's own kernel below: observed on
        # TF 2.21 on an AVX-512 Xeon with AMX, five window shapes bit for bit, where the windows' scatter was off
        # in 1 to 19 elements; fifty-fifth session, clause nn.max-pool-nan)
        dwin = np.zeros(flat.shape, dtype=g.dtype)
        np.put_along_axis(dwin, idx, g[:, :, :, None, :], axis=3)
        n, oh, ow, _, c = dwin.shape
        return scatter_windows(dwin.reshape(n, oh, ow, ksize[1], ksize[2], c), x.shape, pads, strides[1:3], (1, 1))
    n, oh, ow, _, c = flat.shape
    h, w = x.shape[1:3]
    step = strides[1:3]
    k = idx[:, :, :, 0, :]
    rows = np.arange(oh)[None, :, None, None] * step[0] + k // ksize[2] - pads[0]
    cols = np.arange(ow)[None, None, :, None] * step[1] + k % ksize[2] - pads[2]
    inside = (rows >= 0) & (rows < h) & (cols >= 0) & (cols < w)   # (padding wins only in a window of -inf)
    target = ((np.arange(n)[:, None, None, None] * h + rows) * w + cols) * c + np.arange(c)
    # SpatialMaxPoolWithArgMaxHelper: input_backprop(argmax) += out_backprop(i) for the output elements i of an
    # image in flat order, from +0: a position several windows route to sums their gradients in that order
    out = np.zeros(x.size, dtype=g.dtype)
    np.add.at(out, target[inside], g[inside])
    return out.reshape(x.shape)


def _max_pool_grad_grad(x: np.ndarray, y: np.ndarray, g: np.ndarray, ksize: tuple, strides: tuple, padding: str,
                        explicit_paddings: tuple = ()) -> np.ndarray:
    """MaxPoolingGradGradOp's CPU kernel (SpatialMaxPoolGradGrad): each output takes g at the first
    in-bounds position of its window (row-major) whose input equals orig_output there, 0 where none
    does (a window of only -inf or NaN under MaxPool's -FLT_MAX floor, an orig_output not in the
    window); a NaN beside the maximum is passed over, not taken as MaxPoolGrad's argmax takes it."""
    _grad_checks(x, y, g, ksize, strides, padding, explicit_paddings, True)
    out_hw, pads = _geometry(x.shape, ksize, strides, padding, explicit_paddings, "MaxPoolGradGrad")
    nan = np.array(np.nan, dtype=x.dtype) if x.dtype.kind == "f" or x.dtype.name == "bfloat16" else None
    if nan is None:   # (integer inputs: a padded position must never equal the output either)
        xflat = _flat_windows(x.astype(np.float64), ksize, strides, out_hw, pads, np.nan)
        yy = np.asarray(y, np.float64)
    else:
        xflat, yy = _flat_windows(x, ksize, strides, out_hw, pads, nan), y
    eq = xflat == yy[:, :, :, None, :]
    idx = np.argmax(eq, axis=3)[:, :, :, None, :]
    gflat = _flat_windows(g, ksize, strides, out_hw, pads, 0)
    picked = np.take_along_axis(gflat, idx, axis=3)[:, :, :, 0, :]
    return np.where(eq.any(axis=3), picked, np.zeros((), g.dtype)).astype(g.dtype, copy=False)


def _valid_counts(shape: Sequence[int], ksize: Sequence[int], strides: Sequence[int], out_hw: Sequence[int],
                  pads: Sequence[int]) -> np.ndarray:
    """[OH, OW, 1]: how many in-bounds elements each window covers."""
    def one(size: int, k: int, s: int, out: int, before: int) -> np.ndarray:
        start = np.arange(out) * s - before
        return np.minimum(start + k, size) - np.maximum(start, 0)
    h = one(shape[1], ksize[1], strides[1], out_hw[0], pads[0])
    w = one(shape[2], ksize[2], strides[2], out_hw[1], pads[2])
    return (h[:, None] * w[None, :])[:, :, None]


def _avg_pool(x: np.ndarray, ksize: tuple, strides: tuple, padding: str) -> np.ndarray:
    if depthwise(x.shape, ksize):
        # (oneDNN's AvgPool of a channel window (float32, bfloat16; TF's own kernel refuses it, `depthwise_checks`)
        # gives an empty [N, 0, 0, C / k]: eagerly and traced, every padding and spatial stride; TF 2.21 observed,
        # fix62d's probe_pool.py, vsweep62's v-misc `avg_pool2d entries [1, 1, 1, 2] [1, 1, 1, 2]`)
        _check(x.shape, ksize, strides, "AvgPool", x.dtype)
        return np.zeros((x.shape[0], 0, 0, x.shape[3] // int(ksize[3])), x.dtype)
    if x.dtype.name == "bfloat16" and host_cpu.current().onednn("bfloat16", _NCHW_DTYPES["AvgPool"]):
        # (oneDNN's bfloat16 average pooling sums and divides in float32 and rounds once; Eigen's adds in
        # bfloat16: observed on TF 2.21, 27 of 96 elements of a 2x2 pool of normal values differ by an ulp)
        return _avg_pool(x.astype(np.float32), ksize, strides, padding).astype(x.dtype)
    out_hw, pads = _geometry(x.shape, ksize, strides, padding, (), "AvgPool", x.dtype)
    # SpatialAvgPool adds each window's inputs one after another in row-major order, rounding each sum to the type
    # (NumPy's reduce would sum a window pairwise, in float32 for half, where the channels are one)
    win = _flat_windows(x, ksize, strides, out_hw, pads, 0)
    s = np.zeros(win.shape[:3] + win.shape[4:], dtype=x.dtype)
    for k in range(win.shape[3]):
        s = s + win[:, :, :, k, :]
    return s / _valid_counts(x.shape, ksize, strides, out_hw, pads).astype(x.dtype)


def _broadcast_size(index: int, in_size: int, k: int, stride: int, pad: int) -> tuple[int, int]:
    """avgpooling_op.cc's GetBroadcastSize: the input rows (or columns) one gradient row spreads over."""
    if index * stride > in_size:
        raise errors.InvalidArgumentError(None, None, "index * stride must be less than or equal to input size "
                                                      "[Op:AvgPoolGrad]")
    start, size = index * stride, k
    if start < pad:
        start, size = 0, k + start - pad
    else:
        start -= pad
    if start + k > in_size:
        size = min(in_size - start, k)
    return start, size


def _avg_pool_grad_loop(g: np.ndarray, orig_input_shape: tuple, ksize: tuple, strides: tuple,
                        pads: Sequence[int]) -> np.ndarray:
    """AvgPoolingGradOp<CPUDevice>'s loop over the gradient's own rows and columns (not the output
    size the window gives), each adding grad * T(1.0 / (rows * cols)) to the input elements it
    spreads over: a gradient of another height or width than the pool's output is no error
    (`AvgPoolGrad(orig_input_shape=[1, 1, 2, 1], grad [1, 1, 2, 1], ksize 1, strides 2, SAME)` is
    [g0, 0]), a row whose start passes the input is InvalidArgumentError. Observed on TF 2.21
    (fz28a, fuzz20 seed 2820261205 #23)."""
    out = np.zeros(tuple(int(d) for d in orig_input_shape), g.dtype)
    wide = np.float32 if g.dtype.itemsize == 2 else g.dtype.type   # (Eigen::half/bfloat16 arithmetic in float)
    in_rows, in_cols = out.shape[1], out.shape[2]
    for r in range(g.shape[1]):
        r0, rs = _broadcast_size(r, in_rows, ksize[1], strides[1], pads[0])
        for c in range(g.shape[2]):
            c0, cs = _broadcast_size(c, in_cols, ksize[2], strides[2], pads[2])
            if rs <= 0 or cs <= 0:
                continue
            coeff = g.dtype.type(1.0 / (rs * cs))
            add = (g[:, r, c, :].astype(wide) * wide(coeff)).astype(g.dtype)
            region = out[:, r0:r0 + rs, c0:c0 + cs, :]
            region[...] = (region.astype(wide) + add[:, None, None, :].astype(wide)).astype(g.dtype)
    return out


def _avg_pool_grad(g: np.ndarray, orig_input_shape: tuple, ksize: tuple, strides: tuple, padding: str) -> np.ndarray:
    if depthwise(orig_input_shape, ksize) and not g.size and \
            host_cpu.current().onednn(g.dtype.name, _NCHW_DTYPES["AvgPool"]):
        # (the gradient of oneDNN's empty channel-window AvgPool: zeros of the input's shape; TF 2.21 observed, fix62d)
        depthwise_checks(int(orig_input_shape[3]), ksize, strides, "AvgPoolGrad", None)
        return np.zeros(tuple(int(d) for d in orig_input_shape), g.dtype)
    out_hw, pads = _geometry(orig_input_shape, ksize, strides, padding, (), "AvgPoolGrad")
    want = (int(orig_input_shape[0]), int(out_hw[0]), int(out_hw[1]), int(orig_input_shape[3]))
    onednn = host_cpu.current().onednn(g.dtype.name, _NCHW_DTYPES["AvgPool"])
    if g.ndim == 4 and not onednn and g.shape[0] == want[0] and g.shape[3] == want[3]:
        # (TF's own kernel, every dtype oneDNN does not take here: its loop's order of additions, where
        # overlapping windows add three or more terms to an input element; fz49b, fz48b_gen seed 48003 #5)
        return _avg_pool_grad_loop(g, orig_input_shape, ksize, strides, pads)
    if g.ndim == 4 and tuple(g.shape) != want:
        if onednn:
            # (oneDNN's AvgPoolGrad is registered for float32 and bfloat16 only: float16 runs TF's own kernel, the
            # loop below, on a host whose oneDNN has float16 too; fz40, twentieth generator sig seed 4020261202 #101)
            # (oneDNN's MklAvgPoolingGradOp reads the gradient's buffer as the dense [N, OH, OW, C] the
            # window gives, from its start: a larger one's tail is unread; observed on TF 2.21 for
            # float32 and bfloat16, fz28a; a smaller one is read past its end, not modelled)
            if g.size >= int(np.prod(want)):
                g = np.ascontiguousarray(g).ravel()[:int(np.prod(want))].reshape(want)
        elif g.shape[0] == want[0] and g.shape[3] == want[3]:
            return _avg_pool_grad_loop(g, orig_input_shape, ksize, strides, pads)
    per = g / _valid_counts(orig_input_shape, ksize, strides, out_hw, pads).astype(g.dtype)
    n, oh, ow, c = per.shape
    if onednn and g.dtype == np.float32 and g.ndim == 4:
        return _onednn_avg_pool_grad(per, orig_input_shape, ksize, strides, pads)
    dwin = np.broadcast_to(per[:, :, :, None, None, :], (n, oh, ow, ksize[1], ksize[2], c))
    return scatter_windows(dwin, orig_input_shape, pads, strides[1:3], (1, 1))


def _onednn_avg_pool_grad(per: np.ndarray, in_shape: Sequence[int], ksize: Sequence[int], strides: Sequence[int],
                          pads: Sequence[int]) -> np.ndarray:
    """oneDNN's float32 AvgPoolGrad (clause nn.max-pool-nan, "oneDNN's AvgPoolGrad"): each output's gradient
    divided by its window's count of valid elements (`per`), added into the input in the order of oneDNN's loops:
    output rows in order, and for each the window's rows, then its columns, then the output columns (so an input
    element takes the rows above before its own, and within a row the output columns right to left). Observed on
    TF 2.21 on an AVX-512 Xeon with AMX: five window/stride/padding shapes, every element bit for bit."""
    n, h, w, c = (int(d) for d in in_shape)
    pt, pb, pl, pr = pads
    _, oh, ow, _ = per.shape
    sh, sw = strides[1], strides[2]
    out = np.zeros((n, h + pt + pb, w + pl + pr, c), np.float32)
    for i in range(oh):
        for a in range(ksize[1]):
            row = out[:, i * sh + a]
            for b in range(ksize[2]):
                row[:, b:b + (ow - 1) * sw + 1:sw, :] += per[:, i]
    return out[:, pt:pt + h, pl:pl + w, :]


def _window_flops(arrays: Any, out: Any, attrs: Any) -> float:
    k = attrs["ksize"]
    return float(out.size * k[1] * k[2])


def _grad_window_flops(arrays: Any, out: Any, attrs: Any) -> float:
    k = attrs["ksize"]
    return float(arrays[0].size * k[1] * k[2])


_MAXPOOL_TYPES = "half, bfloat16, float, double, int32, int64, uint8, int16, int8, uint16, qint8"
MAX_POOL = register("MaxPool", _max_pool, typed("MaxPool", _MAXPOOL_TYPES), _window_flops, kind="window",
                    fusion=rows(0))
MAX_POOL_GRAD = register("MaxPoolGrad", _max_pool_grad, typed("MaxPoolGrad", REAL_NUMBERS),
                         lambda a, out, at: float(a[2].size), kind="window", fusion=rows(0, 1, 2))
MAX_POOL_GRAD_GRAD = register("MaxPoolGradGrad", _max_pool_grad_grad, typed("MaxPoolGradGrad", REAL_NUMBERS),
                              lambda a, out, at: float(out.size), kind="window",
                              fusion=lanes("no stacked form written (a second-order gradient)"))
AVG_POOL = register("AvgPool", _avg_pool, typed("AvgPool", FLOATS), _window_flops, kind="window", fusion=rows(0))
AVG_POOL_GRAD = register("AvgPoolGrad", _avg_pool_grad, typed("AvgPoolGrad", FLOATS), _grad_window_flops, kind="window",
                         fusion=lanes("its orig_input_shape operand is one lane's batch: no stacked form written"))

# MaxPoolShape/AvgPoolShape at trace (shape_fns_nn.py): an input of rank 4, then the windowed sizes
# (fz25b: a [None] input_signature argument, as MaxPool3D's in seed 1420262501 #13)
MAX_POOL.trace_shape = infer_ctx.trace_shape("MaxPool")
AVG_POOL.trace_shape = infer_ctx.trace_shape("AvgPool")


# the data_format values of MaxPool's and AvgPool's op defs (TF 2.21)
_FORMATS = {"MaxPool": ("NHWC", "NCHW", "NCHW_VECT_C"), "AvgPool": ("NHWC", "NCHW")}


def _check_format_attr(data_format: Any, op: str) -> None:
    """The op def's data_format list, after padding (the attrs' order): eagerly InvalidArgumentError
    "Value for attr 'data_format' of "NWC" is not in the list of allowed values: "NHWC", "NCHW",
    "NCHW_VECT_C"", traced op_def_library's ValueError (fz30b, fz14 seed 1420303004 #139:
    `max_pool2d(x, 3, 3, 'VALID', data_format='NWC')`)."""
    allowed = _FORMATS[op]
    if data_format is None or not isinstance(data_format, str) or data_format in allowed:
        return
    text = ", ".join(f'"{f}"' for f in allowed)
    err = errors.InvalidArgumentError(None, None, f"Value for attr 'data_format' of \"{data_format}\" is not in the "
                                      f"list of allowed values: {text} [Op:{op}]")
    raise trace_errors.bad_attr(err, op, "data_format", data_format, text)


def _pool_args(x: Tensor, ksize: Any, strides: Any, padding: Any, data_format: Any, op: str,
               explicit_ok: bool) -> dict:
    pad, explicit = normalize_padding(padding, op, explicit_ok)
    _check_format_attr(data_format, op)
    check_data_format(data_format)
    attrs = {"ksize": spatial_sequence(ksize, 2, "ksize"), "strides": spatial_sequence(strides, 2, "strides"),
             "padding": pad}
    if explicit_ok:
        attrs["explicit_paddings"] = explicit
    return attrs


# the dtypes TF 2.21's x86 CPU build pools in NCHW (oneDNN, where the CPU supports the dtype: host_cpu);
# the others' default kernels refuse it. MaxPool takes float16 there, AvgPool does not (observed on an
# AVX512-FP16 host: InvalidArgumentError "Default AvgPoolingOp only supports NHWC ...").
_NCHW_DTYPES = {"MaxPool": ("float32", "bfloat16", "float16"), "AvgPool": ("float32", "bfloat16")}
_NCHW_GRAD_DTYPES = ("float32", "bfloat16")   # MaxPoolGrad's (a float16 NCHW gradient is refused, observed)


def batch_or_depth_wise(ksize: Any, strides: Any, n: int) -> bool:
    """Whether a channels-first pool's ksize or strides (as _get_sequence makes them) is not 1 in the batch or
    channel place: TF 2.21's oneDNN layout pass leaves such a MaxPool/MaxPool3D to TF's own kernel (observed:
    float32 NCHW/NCDHW max pools with a batch entry of 2 are the own kernel's layout refusal, fsweep61)."""
    from simdist.runtime.ops.conv import spatial_sequence
    try:
        full = (spatial_sequence(ksize, n, "ksize", True), spatial_sequence(strides, n, "strides", True))
    except Exception:  # noqa: BLE001 - a malformed list is the wrapper's error, raised on the usual path
        return False
    return any(len(v) == n + 2 and (int(v[0]) != 1 or int(v[1]) != 1) for v in full)


def channels_first_pool(pool_nhwc: Any, x: Tensor, ksize: Any, strides: Any, padding: Any, op: str) -> Tensor:
    """MaxPool/AvgPool with data_format NCHW (clause ops.nn-more): TF 2.21's x86 CPU build runs
    float32 and bfloat16 through oneDNN, the same values as NHWC between two transposes (so the
    gradient flows back through them); the default kernels of the other dtypes raise
    InvalidArgumentError ("Default MaxPoolingOp only supports NHWC on device type CPU"); an AvgPool
    of a non-float dtype fails its dtype check first."""
    from simdist.runtime.ops.conv import nchw_to_nhwc, to_channels_first, to_channels_last
    if op == "AvgPool" and isinstance(padding, (list, tuple)):
        # (AvgPool's padding attr is a string: make_str's TypeError comes before the kernel's layout refusal;
        # fsweep61's float64 `avg NCHW explicit`)
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    if not host_cpu.current().onednn(x.dtype.name, _NCHW_DTYPES[op]) or (op == "MaxPool" and
                                                                        batch_or_depth_wise(ksize, strides, 2)):
        # (oneDNN's layout pass leaves a MaxPool whose window or stride is not 1 in the batch or channel place to
        # TF's own kernel, which refuses the layout first: f-pool2d-float32's `max NCHW ksize full outer 2`)
        from simdist.runtime.ops import raw_ops
        if x.dtype.name not in raw_ops.opdefs()["ops"][op]["inferred"]["T"]["allowed"]:
            # (a dtype outside the op's T list fails its dtype check first, an AvgPool's of a non-float dtype, a
            # MaxPool's of bool: "Value for attr 'T' of bool is not in the list of allowed values" eagerly,
            # op_def_library's TypeError in a graph; fz42, fz14 seed 1420423004 #148)
            return pool_nhwc(x, ksize, strides, padding, "NHWC")        # its dtype error
        kind = "MaxPoolingOp" if op == "MaxPool" else "AvgPoolingOp"
        err = errors.InvalidArgumentError(None, None, f"Default {kind} only supports NHWC on device type CPU "
                                          f"[Op:{op}]")
        from simdist.runtime.ops import static_shapes
        if context.in_function() and not static_shapes.rank_unknown(x) and x.ndim != 4:
            # (the kernel's constructor refuses NCHW when the graph runs; the shape function's rank
            # check at trace comes first: max_pool1d's NCHW of a matrix; fz27b, fz14 seed 1420272703 #44)
            raise trace_errors.mark_shape(err, f"Shape must be rank 4 but is rank {x.ndim}", op, [x.shape.as_list()])
        from simdist.runtime.ops import dispatch
        return dispatch.layout_refused(err, x.dtype, (), [x])   # (pruned where nothing uses it)
    k = list(nchw_to_nhwc(spatial_sequence(ksize, 2, "ksize", True)))
    st = list(nchw_to_nhwc(spatial_sequence(strides, 2, "strides", True)))
    if isinstance(padding, (list, tuple)) and len(padding) == 4:
        padding = list(nchw_to_nhwc(padding))

    def pool(v: Tensor) -> Tensor:
        return to_channels_first(pool_nhwc(to_channels_last(v), k, st, padding, "NHWC"))
    if op == "MaxPool" and (not host_cpu.current().onednn(x.dtype.name, _NCHW_GRAD_DTYPES)
                            or not context.in_function()):
        return gradient_refused(pool, x, "Default MaxPoolingGradOp only supports NHWC on device type CPU "
                                         "[Op:MaxPoolGrad]")
    return pool(x)


def gradient_refused(pool: Any, x: Tensor, message: str) -> Tensor:
    """An NCHW (NCDHW) MaxPool that oneDNN runs, whose gradient TF's own kernel refuses (InvalidArgumentError
    `message`) when a tape asks for it: a float16 MaxPoolGrad on an AVX512-FP16 CPU (no oneDNN kernel of that
    dtype; observed), and an eager float32/bfloat16 MaxPoolGrad or MaxPool3DGrad (oneDNN's graph layout pass
    rewrites them to its kernel in a tf.function, where the gradient computes; the eager rewrite does not:
    observed on TF 2.21 with TF_ENABLE_ONEDNN_OPTS=1 on the AMD EPYC host, open52)."""
    from simdist.runtime.autodiff import custom_gradient

    @custom_gradient
    def refused(v: Tensor) -> Any:
        def grad(dy: Tensor) -> Any:
            raise errors.InvalidArgumentError(None, None, message)
        return pool(v), grad
    return refused(x)


def _wrapper_sequences(ksize: Any, strides: Any, data_format: Any) -> None:
    """nn_ops.max_pool2d's and avg_pool2d's first steps: the channel index from
    `data_format.startswith("NC")` (None is NHWC; a non-string is AttributeError), then
    _get_sequence of ksize and of strides (ValueError for a length other than 1, 2 or 4; a
    tensor in a tf.function is iterated: OperatorNotAllowedInGraphError), before the padding,
    the input and the op's checks."""
    nc = ("NHWC" if data_format is None else data_format).startswith("NC")
    spatial_sequence(ksize, 2, "ksize", nc)
    spatial_sequence(strides, 2, "strides", nc)


def max_pool2d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC",  # noqa: A002
               name: str | None = None) -> Tensor:
    """`tf.nn.max_pool2d` (NHWC): ksize and strides an int or a list of 1, 2 or 4; padding "SAME",
    "VALID" or explicit [[0, 0], [top, bottom], [left, right], [0, 0]]; NCHW as
    `channels_first_pool`."""
    _wrapper_sequences(ksize, strides, data_format)
    if isinstance(padding, (list, tuple)):   # (convert_padding's checks, before the input is converted)
        normalize_padding(padding, "MaxPool", True)
    x = _t(input)
    if context.in_function():
        # (a graph: op_def_library checks the input's type (TypeError "Value passed to parameter 'input' has DataType
        # bool not in list of allowed values") before the padding's and data_format's strings (ValueError), as
        # avg_pool2d; eagerly both are the NodeDef's InvalidArgumentError, in an order that changes from process to
        # process. fz49, fz14 sig seed 1420493001 #60, #105: max_pool2d of uint64, max_pool1d of bool)
        from simdist.runtime.ops import raw_ops
        allowed = raw_ops.opdefs()["ops"]["MaxPool"]["inferred"]["T"]["allowed"]
        if x.dtype.name not in allowed:
            MAX_POOL.dtype((x.dtype,), None)
    if data_format == "NCHW":
        return channels_first_pool(max_pool2d, x, ksize, strides, padding, "MaxPool")
    return dispatch.execute(MAX_POOL, (x,), _pool_args(x, ksize, strides, padding, data_format, "MaxPool", True))


def avg_pool2d(input: Any, ksize: Any, strides: Any, padding: str, data_format: str = "NHWC",  # noqa: A002
               name: str | None = None) -> Tensor:
    """`tf.nn.avg_pool2d` (NHWC): SAME padding averages over the in-bounds elements only; NCHW as
    `channels_first_pool`."""
    _wrapper_sequences(ksize, strides, data_format)
    x = _t(input)
    # (the op's input type before its attrs: op_def_library's TypeError for uint16 before the padding
    # string's ValueError in a graph, the T refusal eagerly; fz27b, fz14 seed 1420272702 #280)
    AVG_POOL.dtype((x.dtype,), None)
    if data_format == "NCHW":
        return channels_first_pool(avg_pool2d, x, ksize, strides, padding, "AvgPool")
    return dispatch.execute(AVG_POOL, (x,), _pool_args(x, ksize, strides, padding, data_format, "AvgPool", False))


def _by_rank(fn: Any, input: Any, ksize: Any, strides: Any, padding: Any, data_format: Any) -> Tensor:  # noqa: A002
    """`tf.nn.max_pool` / `avg_pool`: rank 3 is 1-D pooling (through the 2-D op with a unit
    height, as TF's max_pool1d), rank 4 2-D, rank 5 3-D (MaxPool3D / AvgPool3D)."""
    x = _t(input)
    if x.ndim == 3:
        # (max_pool_v2 / avg_pool_v2 hand any data_format to max_pool1d / avg_pool1d, which pool an NWC
        # input as NHWC and any other as NCHW: `avg_pool(int64 [3, 4, 3], ..., data_format="NCHW")` is
        # AvgPool's T refusal, not a layout error; fz14 seed 1420292904 #7)
        from simdist.runtime.ops import nn_more
        fn1 = nn_more.max_pool1d if fn is max_pool2d else nn_more.avg_pool1d
        return fn1(x, ksize, strides, padding, data_format)
    if x.ndim in (4, None):
        return fn(x, ksize, strides, padding, data_format or "NHWC")
    if x.ndim == 5:
        if fn is max_pool2d and isinstance(padding, (list, tuple)):
            # (max_pool_v2's own check of an explicit padding of a 3-D pool, before MaxPool3D's make_str; fsweep61)
            raise ValueError(f"Explicit padding is not supported with an input tensor of rank 5. "
                             f"Received: padding={padding}")
        from simdist.runtime.ops import pooling3d
        fn3 = pooling3d.max_pool3d if fn is max_pool2d else pooling3d.avg_pool3d
        return fn3(x, ksize, strides, padding, data_format or "NDHWC")
    raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: input.shape={x.shape} of rank {x.ndim}")


def max_pool(input: Any, ksize: Any, strides: Any, padding: Any, data_format: Any = None,  # noqa: A002
             name: str | None = None) -> Tensor:
    """`tf.nn.max_pool`: 1-D, 2-D or 3-D by the input's rank (read as `input.shape` unconverted:
    a list is AttributeError)."""
    raw_attribute(input, "shape")
    _rank_known(input)
    return _by_rank(max_pool2d, input, ksize, strides, padding, data_format)


def avg_pool(input: Any, ksize: Any, strides: Any, padding: Any, data_format: Any = None,  # noqa: A002
             name: str | None = None) -> Tensor:
    """`tf.nn.avg_pool`: 1-D or 2-D by the input's rank (`input.shape` read unconverted)."""
    raw_attribute(input, "shape")
    _rank_known(input)
    return _by_rank(avg_pool2d, input, ksize, strides, padding, data_format)


def max_pool_any_rank(input: Any, ksize: Any, strides: Any, padding: Any, data_format: Any = None,  # noqa: A002
                      name: str | None = None) -> Tensor:
    """TF's v1 `max_pool` that tf.nn.pool calls: by the input's rank, an unknown one as 2-D."""
    raw_attribute(input, "shape")
    return _by_rank(max_pool2d, input, ksize, strides, padding, data_format)


def avg_pool_any_rank(input: Any, ksize: Any, strides: Any, padding: Any, data_format: Any = None,  # noqa: A002
                      name: str | None = None) -> Tensor:
    """TF's v1 `avg_pool` that tf.nn.pool calls: by the input's rank, an unknown one as 2-D."""
    raw_attribute(input, "shape")
    return _by_rank(avg_pool2d, input, ksize, strides, padding, data_format)


def _rank_known(input: Any) -> None:  # noqa: A002
    """max_pool_v2/avg_pool_v2 take `len(input.shape) - 2` first: a traced input of unknown rank is its ValueError
    (tf.nn.pool, which calls the v1 wrappers, pools it; TF 2.21 observed, blind62b)."""
    from simdist.runtime.ops import static_shapes
    if static_shapes.known_shape(_t(input)) is None:
        raise ValueError("Cannot take the length of shape with unknown rank.")


# --- gradients (nn_grad.py) --------------------------------------------------------------------------
def _pool_attrs(op: Any) -> dict:
    return dict(op.attrs)


@RegisterGradient("MaxPool")
def _max_pool_grad_fn(op: Any, grad: Any) -> list:
    return [dispatch.execute(MAX_POOL_GRAD, (op.inputs[0], op.outputs[0], grad), _pool_attrs(op))]


@RegisterGradient("MaxPoolGrad")
def _max_pool_grad_grad_fn(op: Any, grad: Any) -> list:
    x, y, _ = op.inputs
    return [array.zeros_like(x), array.zeros_like(y),
            dispatch.execute(MAX_POOL_GRAD_GRAD, (x, y, grad), _pool_attrs(op))]


@RegisterGradient("MaxPoolGradGrad")
def _max_pool_grad_grad_grad_fn(op: Any, grad: Any) -> list:
    x, y, _ = op.inputs
    return [array.zeros_like(x), array.zeros_like(y), dispatch.execute(MAX_POOL_GRAD, (x, y, grad), _pool_attrs(op))]


@RegisterGradient("AvgPool")
def _avg_pool_grad_fn(op: Any, grad: Any) -> list:
    attrs = dict(op.attrs, orig_input_shape=tuple(op.inputs[0].shape.as_list()))
    return [dispatch.execute(AVG_POOL_GRAD, (grad,), attrs)]


@RegisterGradient("AvgPoolGrad")
def _avg_pool_grad_grad_fn(op: Any, grad: Any) -> list:
    attrs = {k: v for k, v in op.attrs.items() if k != "orig_input_shape"}
    return [dispatch.execute(AVG_POOL, (grad,), attrs)]
