"""Image resizing kernels (TF's ResizeBilinear and its gradient ResizeBilinearGrad), NHWC, with
half-pixel centers as `tf.image.resize(method="bilinear")` uses them (resize_images.py;
clause ops.image-resize).

ResizeBilinear (image_resizer_state.h, resize_bilinear_op.cc): output pixel i reads input
coordinate in = (i + 0.5) * in_size / out_size - 0.5 (half-pixel centers) or i * scale
(align_corners scale (in - 1) / (out - 1), else in / out); its top/left neighbour is
max(floor(in), 0), its bottom/right min(ceil(in), in_size - 1), its weight in - floor(in); the
output is the rows' interpolation of the columns' (top + (bottom - top) * y_lerp), in float32
whatever the input type. The gradient spreads each upstream element over the same four input
pixels with the same weights (np.add.at: a fixed order, deterministic).

FLOPs: ResizeBilinear 7 per output element (3 lerps of 2 multiplies and 1 add, rounded up);
ResizeBilinearGrad 8 per upstream element (4 weights times the gradient, 4 additions).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import dispatch, resize_state
from simdist.runtime.ops.nn_rules import _allowed_set, attr_error
from simdist.runtime.ops.registry import NotDifferentiable, RegisterGradient, register, rows
from simdist.runtime.tensor import Tensor

__all__ = ["resize_bilinear"]

_BILINEAR_TYPES = "int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double"


def _weights(in_size: int, out_size: int, align_corners: bool, half_pixel: bool) -> tuple[np.ndarray, ...]:
    """(lower index, upper index, lerp) per output position (TF's compute_interpolation_weights)."""
    if align_corners and out_size > 1:
        scale = (in_size - 1) / (out_size - 1)
    else:
        scale = in_size / out_size
    scale = np.float32(scale)
    i = np.arange(out_size, dtype=np.float32)
    src = (i + np.float32(0.5)) * scale - np.float32(0.5) if half_pixel else i * scale
    floor = np.floor(src)
    lower = np.maximum(floor, 0).astype(np.int64)
    upper = np.minimum(np.ceil(src), in_size - 1).astype(np.int64)
    return lower, upper, (src - floor).astype(np.float32)


def _resize_bilinear(x: np.ndarray, size: tuple, align_corners: bool, half_pixel_centers: bool) -> np.ndarray:
    # (the kernel's own checks, raw ResizeBilinear's too: align_corners with half_pixel_centers is refused before the
    # no-op resize; suite/test_asweep58.py)
    resize_state.check_forward("ResizeBilinear", list(x.shape), tuple(int(v) for v in size), align_corners,
                               half_pixel_centers)
    _, h, w, _ = x.shape
    oh, ow = size
    if (oh, ow) == (h, w):   # the kernel's no-op resize: the images cast to float32 (no lerp: inf stays inf)
        return x.astype(np.float32)
    yl, yu, ylerp = _weights(h, oh, align_corners, half_pixel_centers)
    xl, xu, xlerp = _weights(w, ow, align_corners, half_pixel_centers)
    xf = x.astype(np.float32)
    top, bottom = xf[:, yl], xf[:, yu]
    xlerp4 = xlerp[None, None, :, None]
    top = top[:, :, xl] + (top[:, :, xu] - top[:, :, xl]) * xlerp4
    bottom = bottom[:, :, xl] + (bottom[:, :, xu] - bottom[:, :, xl]) * xlerp4
    return (top + (bottom - top) * ylerp[None, :, None, None]).astype(np.float32)


def _resize_bilinear_grad(grads: np.ndarray, original: np.ndarray, align_corners: bool,
                          half_pixel_centers: bool) -> np.ndarray:
    """ResizeGradCore: per upstream element (b, y, x, c), T(g * wy * wx) in float32 added onto
    the top-left, top-right, bottom-left and bottom-right pixels in that order (float16 and
    bfloat16 accumulate in float32 and are cast at the end). The output is [batch, height, width,
    channels] of grads' batch and channels and the original's size (ValidateAndCreateOutput; the
    original's own batch and channels are not read: fuzz20 seed 2420261202 #187), after its checks
    (resize_state.check_grad: resized and original sizes positive; fz35a)."""
    resize_state.check_grad("ResizeBilinearGrad", list(grads.shape), list(original.shape), "float32", align_corners,
                            half_pixel_centers)
    _, h, w, _ = original.shape
    n, oh, ow, c = grads.shape
    yl, yu, ylerp = _weights(h, oh, align_corners, half_pixel_centers)
    xl, xu, xlerp = _weights(w, ow, align_corners, half_pixel_centers)
    g = grads.astype(np.float32)
    iy_, ix_ = np.float32(1) - ylerp, np.float32(1) - xlerp
    gy = [g * iy_[None, :, None, None], g * ylerp[None, :, None, None]]
    vals = np.stack([gy[0] * ix_[None, None, :, None], gy[0] * xlerp[None, None, :, None],
                     gy[1] * ix_[None, None, :, None], gy[1] * xlerp[None, None, :, None]], axis=-1)
    acc = original.dtype if original.dtype in (np.float32, np.float64) else np.dtype(np.float32)
    shape = vals.shape
    ys = np.stack([yl, yl, yu, yu], axis=-1)[None, :, None, None, :]
    xs = np.stack([xl, xu, xl, xu], axis=-1)[None, None, :, None, :]
    ib = np.broadcast_to(np.arange(n)[:, None, None, None, None], shape)
    ic = np.broadcast_to(np.arange(c)[None, None, None, :, None], shape)
    out = np.zeros((n, h, w, c), acc)
    np.add.at(out, (ib.ravel(), np.broadcast_to(ys, shape).ravel(), np.broadcast_to(xs, shape).ravel(), ic.ravel()),
              vals.astype(acc).ravel())
    return out.astype(original.dtype)


def _bilinear_dtype(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[0].name not in _allowed_set(_BILINEAR_TYPES):
        raise attr_error("ResizeBilinear", dts[0], _BILINEAR_TYPES)
    return dtypes.float32


def _grad_dtype(dts: Any, attrs: Any) -> dtypes.DType:
    return dts[1]


def _bilinear_subnormals(arrays: Any, attrs: dict | None) -> str:
    """The no-op resize of float32 images is a copy (subnormals kept); the others compute."""
    same = tuple(arrays[0].shape[1:3]) == tuple((attrs or {}).get("size", ()))
    return "keep" if same and arrays[0].dtype == np.float32 else "flush"


RESIZE_BILINEAR = register("ResizeBilinear", _resize_bilinear, _bilinear_dtype,
                           lambda a, out, at: 7.0 * out.size, kind="window", fusion=rows(0),
                           subnormals=_bilinear_subnormals)
RESIZE_BILINEAR_GRAD = register("ResizeBilinearGrad", _resize_bilinear_grad, _grad_dtype,
                                lambda a, out, at: 8.0 * a[0].size, kind="window", fusion=rows(0, 1))

NotDifferentiable("ResizeBilinearGrad")      # as TF's image_grad.py


@RegisterGradient("ResizeBilinear")
def _resize_bilinear_grad_fn(op: Any, grad: Any) -> list:
    """TF's _ResizeBilinearGrad (image_grad.py): the images' gradient; none for the size."""
    return [dispatch.execute(RESIZE_BILINEAR_GRAD, (grad, op.inputs[0]),
                             {"align_corners": op.get_attr("align_corners"),
                              "half_pixel_centers": op.get_attr("half_pixel_centers")})]


def resize_bilinear(images: Tensor, size: tuple[int, int], align_corners: bool = False,
                    half_pixel_centers: bool = True) -> Tensor:
    """The ResizeBilinear op on a 4-D NHWC tensor."""
    if images.dtype.name not in _allowed_set(_BILINEAR_TYPES):
        raise attr_error("ResizeBilinear", images.dtype, _BILINEAR_TYPES)
    resize_state.check_forward("ResizeBilinear", images.shape.as_list(), tuple(int(v) for v in size),
                               align_corners, half_pixel_centers)
    return dispatch.execute(RESIZE_BILINEAR, (images,), {"size": (int(size[0]), int(size[1])),
                                                         "align_corners": bool(align_corners),
                                                         "half_pixel_centers": bool(half_pixel_centers)})
