"""FusedPadConv2D and FusedResizeAndPadConv2D (raw ops only; tensorflow/core/kernels/conv_ops_fused_image_transform.cc
FusedResizeConv2DUsingGemmOp; clause ops.raw-ops): a convolution (NHWC, filter [kh, kw, in, out]) of the input
mirror-padded (REFLECT or SYMMETRIC, spatial dimensions only) and, for FusedResizeAndPadConv2D, first resized
bilinearly (legacy scaler, align_corners as resize_align_corners) to `size`.

The kernel's checks, in TF's order (observed on TF 2.21): strides of 4 entries, 1 for batch and depth ("Current
implementation does not yet support strides in the batch and depth dimensions."); the input not empty ("Input
tensor can't be empty"); the resize's (ImageResizerState); paddings a [4, 2] matrix ("paddings must be a matrix with
2 columns: [4]", "The first dimension of paddings must be the rank of inputs: 4 [3,2] [1,5,6,3]"), each pad not
negative ("paddings must be non-negative: -1 0"), below the dimension for REFLECT ("paddings must be less than the
dimension size: 3, 0 not less than 3"), at most it for SYMMETRIC ("... no greater than the dimension size: 5, 0
greater than 3"), batch and channel pads 0 ("Fused mirror padding only support spatial padding, not batches: " and
the paddings' DebugString); the filter 4-D and of the input's depth; the window sizes (VALID or SAME); a non-empty
output ("Output tensor can't be empty"); im2col patches within 16 MiB and filter rows of the resize cache within
8 MiB.

The kernel fills a resize cache of cache_height = 8Mi / (cache line width * depth) rows (row y in slot y mod
cache_height, C's remainder) from the first batch entry, and its count of cached lines is not reset between entries:
every later entry reads the slots as the first left them, so its output is computed from the first entry's rows
(each slot holding the last row the first entry wrote there). simdist rebuilds each entry's padded image so and
convolves it with the im2col product (contraction_order.matmul: float32 in BLAS's order where TF's cannot show, so
values agree to rounding, not bit for bit). TF registers no gradient for either (LookupError)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.args import dims_text, dtype_error
from simdist.runtime.ops.contraction_order import matmul
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.resize_state import check_forward, resize_scale
from simdist.runtime.ops.summarize_value import summarize_value

__all__ = ["FUSED_PAD_CONV2D", "FUSED_RESIZE_AND_PAD_CONV2D"]

_CHUNK = 16 * 1024 * 1024   # kMaxChunkSize
_CACHE = 8 * 1024 * 1024    # kResizeCacheSize
_F = np.float32


def _bad(op: str, text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{{{{function_node __wrapped__{op}_device_/job:localhost/replica:0/"
                                                   f"task:0/device:CPU:0}}}} {text} [Op:{op}]")


def _mirror(c: int, pad: int, size: int, off: int, scale: np.float32) -> np.float32:
    """The kernel's source coordinate of padded coordinate c (float32: mirrored, then scaled)."""
    v = _F(c - pad)
    if v < 0:
        v = -(v + _F(1.0) - _F(off))
    elif v >= size:
        v = _F(size * 2.0) - (v + _F(1.0) + _F(off))
    return _F(v * scale)


def _row(img: np.ndarray, y: int, xs: range, geo: dict) -> np.ndarray:
    """One resize-cache row (padded row y over columns xs) of one entry `img` [h, w, c], in img's dtype."""
    t = img.dtype.type
    depth = img.shape[2]
    out = np.zeros((len(xs), depth), img.dtype)
    if y < 0 or y >= geo["ph"]:
        return out
    in_y = _mirror(y, geo["top"], geo["rh"], geo["off"], geo["hs"])
    ty, by = int(np.floor(in_y)), min(int(np.ceil(in_y)), img.shape[0] - 1)
    ylerp = t(_F(in_y - _F(ty)))
    for i, x in enumerate(xs):
        if x < 0 or x >= geo["pw"]:
            continue
        in_x = _mirror(x, geo["left"], geo["rw"], geo["off"], geo["ws"])
        lx, rx = int(np.floor(in_x)), min(int(np.ceil(in_x)), img.shape[1] - 1)
        if not geo["bilinear"]:
            out[i] = img[ty, lx]
            continue
        xlerp = t(_F(in_x - _F(lx)))
        top = img[ty, lx] + (img[ty, rx] - img[ty, lx]) * xlerp
        bottom = img[by, lx] + (img[by, rx] - img[by, lx]) * xlerp
        out[i] = top + (bottom - top) * ylerp
    return out


def _slot(y: int, height: int) -> int:
    r = abs(y) % height
    return (height - r) if y < 0 else r   # (C: H + (y % H) for a negative y)


def _run(op: str, x: np.ndarray, size: Any, paddings: np.ndarray, f: np.ndarray, mode: str, strides: Any,
         padding: str, align_corners: bool) -> np.ndarray:
    from simdist.runtime.ops.conv import window_geometry
    strides = list(strides)
    if len(strides) != 4:
        raise _bad(op, "Sliding window strides field must specify 4 dimensions")
    if strides[0] != 1 or strides[3] != 1:
        raise _bad(op, "Current implementation does not yet support strides in the batch and depth dimensions.")
    if x.size == 0:
        raise _bad(op, "Input tensor can't be empty")
    if x.ndim != 4:   # (TF reads dim_size(3) of the input first: a CHECK that aborts its process)
        raise _bad(op, f"input must be 4-dimensional{dims_text(x.shape)}")
    n, h, w, depth = x.shape
    if size is not None:
        sz = [int(v) for v in np.asarray(size).reshape(-1)]
        if np.asarray(size).ndim != 1:
            raise _bad(op, f"shape_t must be 1-dimensional{dims_text(np.asarray(size).shape)}")
        try:
            check_forward(op, list(x.shape), tuple(sz), align_corners)
        except errors.InvalidArgumentError as e:
            raise _bad(op, str(e).rsplit(" [Op:", 1)[0]) from None
        rh, rw = sz
        hs, ws = resize_scale(h, rh, align_corners), resize_scale(w, rw, align_corners)
    else:
        rh, rw, hs, ws = h, w, _F(1.0), _F(1.0)
    resized = (n, rh, rw, depth)
    if paddings.ndim != 2 or paddings.shape[1] != 2:
        raise _bad(op, f"paddings must be a matrix with 2 columns: {dims_text(paddings.shape)}")
    if paddings.shape[0] != 4:
        raise _bad(op, f"The first dimension of paddings must be the rank of inputs: 4 {dims_text(paddings.shape)} "
                       f"{dims_text(resized)}")
    off = 1 if mode == "REFLECT" else 0
    padded = []
    for d in range(4):
        before, after = int(paddings[d, 0]), int(paddings[d, 1])
        if before < 0 or after < 0:
            raise _bad(op, f"paddings must be non-negative: {before} {after}")
        if off == 0 and not (before <= resized[d] and after <= resized[d]):
            raise _bad(op, f"paddings must be no greater than the dimension size: {before}, {after} greater than "
                           f"{resized[d]}")
        if off == 1 and not (before < resized[d] and after < resized[d]):
            raise _bad(op, f"paddings must be less than the dimension size: {before}, {after} not less than "
                           f"{resized[d]}")
        padded.append(before + resized[d] + after)
    text = f"Tensor<type: int32 shape: {dims_text(paddings.shape)} values: {summarize_value(paddings, 3, False)}>"
    if paddings[0, 0] != 0 or paddings[0, 1] != 0:
        raise _bad(op, f"Fused mirror padding only support spatial padding, not batches: {text}")
    if paddings[3, 0] != 0 or paddings[3, 1] != 0:
        raise _bad(op, f"Fused mirror padding only support spatial padding, not channels: {text}")
    if f.ndim != 4:
        raise _bad(op, f"filter must be 4-dimensional: {dims_text(f.shape)}")
    if depth != f.shape[2]:
        raise _bad(op, f"input and filter must have the same depth: {depth} vs {f.shape[2]}")
    kh, kw, _, cout = f.shape
    ph, pw = padded[1], padded[2]
    try:
        (oh, ow), (pt, _, pl, _) = window_geometry((ph, pw), (kh, kw), strides[1:3], (1, 1), padding, (), op)
    except errors.InvalidArgumentError as e:
        raise _bad(op, str(e).rsplit(" [Op:", 1)[0]) from None
    if n * oh * ow * cout == 0:
        raise _bad(op, "Output tensor can't be empty")
    sr, sc = strides[1], strides[2]
    itemsize = x.dtype.itemsize
    if kh * kw * depth * itemsize > _CHUNK:
        raise _bad(op, "Im2Col patch too large for buffer")
    x0, x1 = -pl, (ow - 1) * sc - pl + kw
    line = x1 - x0
    height = _CACHE // (line * depth)
    if kh * line * depth * itemsize > _CACHE:
        raise _bad(op, "Input too large for resize cache")
    y0, y_end = -pt, oh * sr - pt + kh
    geo = {"ph": ph, "pw": pw, "top": int(paddings[1, 0]), "left": int(paddings[2, 0]), "rh": rh, "rw": rw, "off": off,
           "hs": hs, "ws": ws, "bilinear": size is not None}
    xs = range(x0, x1)
    # the rows the first entry writes (end_cached_lines' walk) and each slot's last row
    written: list[int] = []
    end = -(1 << 31)
    for oy in range(oh):
        origin = oy * sr - pt
        if end < origin + kh:
            start, stop = max(origin, end), min(y_end, max(origin + height, end))
            written.extend(range(start, stop))
            end = stop
    last = {}
    for y in written:
        last[_slot(y, height)] = y
    span = (oh - 1) * sr + kh
    out = np.empty((n, oh, ow, cout), x.dtype)
    first_rows = {y: _row(x[0], y, xs, geo) for y in written}
    fk = f.reshape(kh * kw * depth, cout)
    for b in range(n):
        rows = []
        for y in range(y0, y0 + span):
            if b == 0:
                rows.append(first_rows[y] if y in first_rows else _row(x[0], y, xs, geo))
            else:
                src = last.get(_slot(y, height))
                rows.append(first_rows[src] if src is not None else np.zeros((line, depth), x.dtype))
        ext = np.stack(rows)   # [span, line, depth]
        cols = np.stack([ext[oy * sr:oy * sr + kh, ox * sc:ox * sc + kw].reshape(-1)
                         for oy in range(oh) for ox in range(ow)])
        out[b] = matmul(cols, fk).reshape(oh, ow, cout)
    return out


def _fused_pad(input: np.ndarray, paddings: np.ndarray, filter: np.ndarray, mode: str, strides: Any,  # noqa: A002
               padding: str) -> np.ndarray:
    return _run("FusedPadConv2D", input, None, paddings, filter, mode, strides, padding, False)


def _fused_resize(input: np.ndarray, size: np.ndarray, paddings: np.ndarray, filter: np.ndarray,  # noqa: A002
                  mode: str, strides: Any, padding: str, resize_align_corners: bool = False) -> np.ndarray:
    return _run("FusedResizeAndPadConv2D", input, size, paddings, filter, mode, strides, padding,
                resize_align_corners)


_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)


def _rule(op: str, fixed: tuple) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        from simdist.runtime.ops.args import mismatch_error
        from simdist.runtime.ops.nn_rules import attr_error
        for i in fixed:
            if dts[i] != dtypes.int32:
                raise dtype_error(op, i, dtypes.int32, dts[i])
        t = dts[0]
        if dts[-1] != t:
            raise mismatch_error(op, len(dts) - 1, t, dts[-1])
        if t not in _FLOATS:
            raise attr_error(op, t, "half, float, double")
        return t
    return rule


_WHY = lanes("a convolution of a cached, padded image in Python: no stacked form written")
FUSED_PAD_CONV2D = register("FusedPadConv2D", _fused_pad, _rule("FusedPadConv2D", (1,)), kind="io", fusion=_WHY)
FUSED_RESIZE_AND_PAD_CONV2D = register("FusedResizeAndPadConv2D", _fused_resize,
                                       _rule("FusedResizeAndPadConv2D", (1, 2)), kind="io", fusion=_WHY)
for _op in ("FusedPadConv2D", "FusedResizeAndPadConv2D"):
    no_tf_gradient(_op)
