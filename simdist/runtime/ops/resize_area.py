"""ResizeArea (resize_area_op.cc), NHWC, float32 output; no gradient (TF registers none:
LookupError). Clause ops.image-resize.

Output cell [i, i+1) in scaled coordinates covers input cells floor(i * s) .. ceil((i+1) * s) - 1
(s = CalculateResizeScale, float32; indices clamped to the image); each gets the fraction of it
inside the output cell (start: v + 1 - in_x, or s, or in_x1 - v; inner cells 1). Per output
pixel and channel, in float32 and TF's order: for each covered row, sum_y = first column *
its fraction, + the inner columns, + the last column * its fraction (when the span has more
than one); sum += sum_y * the row's fraction; the output is sum * (1 / (s_h * s_w)) (the
reciprocal in double, stored as float32).

FLOPs: 2 per covered input cell per output element (a multiply-add), counted as
2 * (in_h / out_h + 1) * (in_w / out_w + 1) per output element.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import dispatch, resize_state
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.nn_rules import _allowed_set, attr_error
from simdist.runtime.ops.registry import register, rows
from simdist.runtime.tensor import Tensor

__all__ = ["resize_area", "area_spans"]

_TYPES = "int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16"


def _fraction(v: int, lo: np.float32, hi: np.float32, scale: np.float32) -> np.float32:
    """The kernel's scale of cell v in [lo, hi): v < lo ? (v + 1 > hi ? scale : v + 1 - lo)
    : (v + 1 > hi ? hi - v : 1.0), int64 against float32 compared as float32."""
    fv, fv1 = np.float32(v), np.float32(v + 1)
    if fv < lo:
        return scale if fv1 > hi else np.float32(fv1 - lo)
    return np.float32(hi - fv) if fv1 > hi else np.float32(1.0)


def area_spans(out_size: int, in_size: int, scale: np.float32) -> list[list[tuple[int, np.float32 | None]]]:
    """Per output position, the covered input cells (clamped index, fraction; None for an inner
    cell, added as it is), in the kernel's order."""
    spans = []
    for i in range(out_size):
        lo, hi = np.float32(i) * scale, np.float32(i + 1) * scale
        start, end = int(np.floor(lo)), int(np.ceil(hi))
        cells = [(start, _fraction(start, lo, hi, scale))]
        if start + 1 != end:
            cells += [(v, None) for v in range(start + 1, end - 1)]
            cells.append((end - 1, _fraction(end - 1, lo, hi, scale)))
        spans.append([(min(in_size - 1, max(0, v)), f) for v, f in cells])
    return spans


def _row_fractions(out_size: int, scale: np.float32) -> list[list[tuple[int, np.float32]]]:
    """Per output row, every covered row with its fraction (the y loop computes each)."""
    rows_ = []
    for i in range(out_size):
        lo, hi = np.float32(i) * scale, np.float32(i + 1) * scale
        rows_.append([(v, _fraction(v, lo, hi, scale)) for v in range(int(np.floor(lo)), int(np.ceil(hi)))])
    return rows_


def _forward(x: np.ndarray, size: tuple, align_corners: bool) -> np.ndarray:
    n, h, w, c = x.shape
    hs = resize_state.resize_scale(h, size[0], align_corners)
    ws = resize_state.resize_scale(w, size[1], align_corners)
    scale = np.float32(1.0 / np.float64(hs * ws))
    xf = x.astype(np.float32)
    out = np.empty((n, size[0], size[1], c), np.float32)
    cols = area_spans(size[1], w, ws)
    for oy, ycells in enumerate(_row_fractions(size[0], hs)):
        total = np.zeros((n, size[1], c), np.float32)
        for v, fy in ycells:
            row = xf[:, min(h - 1, max(0, v))]            # (n, w, c)
            for ox, cells in enumerate(cols):
                (i0, f0), rest = cells[0], cells[1:]
                sy = row[:, i0] * f0
                for i, f in rest:
                    sy = sy + (row[:, i] if f is None else row[:, i] * f)
                total[:, ox] = total[:, ox] + sy * fy
        out[:, oy] = total * scale
    return out


def _dtype(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[0].name not in _allowed_set(_TYPES):
        raise attr_error("ResizeArea", dts[0], _TYPES)
    return dtypes.float32


def _flops(a: Any, out: Any, at: Any) -> float:
    _, h, w, _ = a[0].shape
    return 2.0 * out.size * (h / max(out.shape[1], 1) + 1) * (w / max(out.shape[2], 1) + 1)


RESIZE_AREA = register("ResizeArea", _forward, _dtype, _flops, kind="window", fusion=rows(0))
no_tf_gradient("ResizeArea")   # TF registers none (image_grad.py): a tape reaching it is LookupError


def resize_area(images: Tensor, size: tuple[int, int], align_corners: bool = False) -> Tensor:
    """The ResizeArea op on a 4-D NHWC tensor (the kernel's checks first)."""
    if images.dtype.name not in _allowed_set(_TYPES):
        raise attr_error("ResizeArea", images.dtype, _TYPES)
    resize_state.check_forward("ResizeArea", images.shape.as_list(), tuple(size), align_corners, False)
    return dispatch.execute(RESIZE_AREA, (images,), {"size": (int(size[0]), int(size[1])),
                                                     "align_corners": bool(align_corners)})
