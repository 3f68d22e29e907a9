"""ResizeBicubic and its gradient (resize_bicubic_op.cc), NHWC, float32 output. Clause
ops.image-resize.

Weights come from a table of 1025 entries per tap (InitCoeffsTable, a = -0.5 with half-pixel
centers (Keys), -0.75 without, computed in double and stored as float32) at offset
lrintf(delta * 1024), delta = s - floor(s) of the scaled position s. With half-pixel centers a
tap outside the image gets weight 0 and the four are renormalized (times 1/sum, when |sum| >=
1000 * FLT_MIN); without, the taps are clamped to the edge. The kernel interpolates each of
the four columns along y (v0*w0 + v1*w1 + v2*w2 + v3*w3 in float32, left to right), then
those four along x. The gradient adds grad * wy * wx (in the image's dtype: float32 or
float64) onto the 16 taps in (y tap, x tap) order per upstream element.

FLOPs: 8 per tap pair: 4 y-interpolations and 1 x-interpolation of 7 each, 40 per output
element; the gradient 48 per upstream element (16 taps of 2 products and an addition).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import dispatch, resize_state
from simdist.runtime.ops.nn_rules import _allowed_set, attr_error
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import RegisterGradient, register, rows
from simdist.runtime.tensor import Tensor

__all__ = ["resize_bicubic", "bicubic_taps"]

_TYPES = "int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16"
_TABLE = 1024
_TINY = np.float32(1000.0) * np.float32(np.finfo(np.float32).tiny)


@functools.lru_cache(maxsize=2)
def _table(a: float) -> np.ndarray:
    """InitCoeffsTable(a): (1025, 2) float32."""
    i = np.arange(_TABLE + 1)
    x = (i * 1.0 / _TABLE).astype(np.float32).astype(np.float64)
    c0 = ((a + 2) * x - (a + 3)) * x * x + 1
    x1 = (x.astype(np.float32) + np.float32(1.0)).astype(np.float64)   # float x += 1.0
    c1 = ((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a
    return np.stack([c0, c1], axis=1).astype(np.float32)


def bicubic_taps(out_size: int, in_size: int, scale: np.float32, half_pixel_centers: bool) -> tuple[np.ndarray, np.ndarray]:
    """(indices (out, 4), weights (out, 4) float32): GetWeightsAndIndices per output position."""
    i = np.arange(out_size)
    s = resize_state.half_pixel(i, scale) if half_pixel_centers else resize_state.legacy(i, scale)
    loc = np.floor(s).astype(np.int64)
    delta = s - loc.astype(np.float32)
    off = np.rint(delta * np.float32(_TABLE)).astype(np.int64)     # lrintf: halves to even
    tab = _table(-0.5 if half_pixel_centers else -0.75)
    w = np.stack([tab[off, 1], tab[off, 0], tab[_TABLE - off, 0], tab[_TABLE - off, 1]], axis=1)
    want = loc[:, None] + np.arange(-1, 3)[None, :]
    idx = np.clip(want, 0, in_size - 1)
    if half_pixel_centers:
        w = np.where(idx == want, w, np.float32(0)).astype(np.float32)
        total = ((w[:, 0] + w[:, 1]) + w[:, 2]) + w[:, 3]
        ok = np.abs(total) >= _TINY
        inv = np.float32(1) / np.where(ok, total, np.float32(1))
        w = np.where(ok[:, None], w * inv[:, None], w).astype(np.float32)
    return idx, w


def _scales(h: int, w: int, size: tuple, align_corners: bool) -> tuple[np.float32, np.float32]:
    return resize_state.resize_scale(h, size[0], align_corners), resize_state.resize_scale(w, size[1], align_corners)


def _forward(x: np.ndarray, size: tuple, align_corners: bool, half_pixel_centers: bool) -> np.ndarray:
    _, h, w, _ = x.shape
    hs, ws = _scales(h, w, size, align_corners)
    yi, yw = bicubic_taps(size[0], h, hs, half_pixel_centers)
    xi, xw = bicubic_taps(size[1], w, ws, half_pixel_centers)
    xf = x.astype(np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        return _interpolate(xf, yi, yw, xi, xw)


def _interpolate(xf: np.ndarray, yi: np.ndarray, yw: np.ndarray, xi: np.ndarray, xw: np.ndarray) -> np.ndarray:
    """Each column's y-interpolation, then the x-interpolation of those, in float32."""
    v = None
    for k in range(4):   # along y, each input column: value_k * weight_k summed left to right
        term = xf[:, yi[:, k]] * yw[None, :, k, None, None]
        v = term if v is None else v + term
    out = None
    for k in range(4):
        term = v[:, :, xi[:, k]] * xw[None, None, :, k, None]
        out = term if out is None else out + term
    return out.astype(np.float32)


def _grad(g: np.ndarray, original: np.ndarray, align_corners: bool, half_pixel_centers: bool) -> np.ndarray:
    """ResizeBicubicOpGrad: ImageResizerGradientState's checks (resize_state.check_grad: an empty grads or
    original size is InvalidArgumentError, fz35a, sig seed 3520261202 #76), then the scattered taps."""
    resize_state.check_grad("ResizeBicubicGrad", list(g.shape), list(original.shape), "float32", align_corners,
                            half_pixel_centers)
    n, oh, ow, c = g.shape
    _, h, w, _ = original.shape
    hs, ws = _scales(h, w, (oh, ow), align_corners)
    yi, yw = bicubic_taps(oh, h, hs, half_pixel_centers)
    xi, xw = bicubic_taps(ow, w, ws, half_pixel_centers)
    t = original.dtype
    gt = g.astype(t)
    # T(grad * wy * wx) per (b, y, x, c, y tap, x tap), in the kernel's loop order
    with np.errstate(invalid="ignore", over="ignore"):
        return _scatter(gt, yi, yw, xi, xw, (n, h, w, c), t)


def _scatter(gt: np.ndarray, yi: np.ndarray, yw: np.ndarray, xi: np.ndarray, xw: np.ndarray, shape: tuple,
             t: np.dtype) -> np.ndarray:
    """ResizeBicubicGrad's additions, in its loop order."""
    n, c = gt.shape[0], gt.shape[3]
    vals = (gt[:, :, :, :, None, None] * yw[None, :, None, None, :, None].astype(t)) * \
        xw[None, None, :, None, None, :].astype(t)
    iy = np.broadcast_to(yi[None, :, None, None, :, None], vals.shape)
    ix = np.broadcast_to(xi[None, None, :, None, None, :], vals.shape)
    ib = np.broadcast_to(np.arange(n)[:, None, None, None, None, None], vals.shape)
    ic = np.broadcast_to(np.arange(c)[None, None, None, :, None, None], vals.shape)
    out = np.zeros(shape, t)
    np.add.at(out, (ib.ravel(), iy.ravel(), ix.ravel(), ic.ravel()), vals.ravel())
    return out


def _dtype(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[0].name not in _allowed_set(_TYPES):
        raise attr_error("ResizeBicubic", dts[0], _TYPES)
    return dtypes.float32


def _grad_dtype(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[1].name not in ("float32", "float64"):
        raise attr_error("ResizeBicubicGrad", dts[1], "float, double")
    return dts[1]


RESIZE_BICUBIC = register("ResizeBicubic", _forward, _dtype, lambda a, out, at: 40.0 * out.size,
                          kind="window", fusion=rows(0))
RESIZE_BICUBIC_GRAD = register("ResizeBicubicGrad", _grad, _grad_dtype, lambda a, out, at: 48.0 * a[0].size,
                               kind="window", fusion=rows(0, 1))

no_tf_gradient("ResizeBicubicGrad")   # (TF 2.21 registers none: LookupError; fuzz20 tape seed 2720261202 #111)


@RegisterGradient("ResizeBicubic")
def _resize_bicubic_grad_fn(op: Any, grad: Any) -> list:
    """TF's _ResizeBicubicGrad (image_grad.py): float32/float64 images only (None otherwise)."""
    if op.inputs[0].dtype not in (dtypes.float32, dtypes.float64):
        return [None]
    return [dispatch.execute(RESIZE_BICUBIC_GRAD, (grad, op.inputs[0]),
                             {"align_corners": op.get_attr("align_corners"),
                              "half_pixel_centers": op.get_attr("half_pixel_centers")})]


def resize_bicubic(images: Tensor, size: tuple[int, int], align_corners: bool = False,
                   half_pixel_centers: bool = True) -> Tensor:
    """The ResizeBicubic op on a 4-D NHWC tensor (the kernel's checks first)."""
    if images.dtype.name not in _allowed_set(_TYPES):
        raise attr_error("ResizeBicubic", images.dtype, _TYPES)
    resize_state.check_forward("ResizeBicubic", images.shape.as_list(), tuple(size), align_corners,
                               half_pixel_centers)
    return dispatch.execute(RESIZE_BICUBIC, (images,), {"size": (int(size[0]), int(size[1])),
                                                        "align_corners": bool(align_corners),
                                                        "half_pixel_centers": bool(half_pixel_centers)})
