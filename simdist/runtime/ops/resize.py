"""Image resizing kernels (TF's ResizeBilinear and its gradient ResizeBilinearGrad), NHWC, with
half-pixel centers as `tf.image.resize(method="bilinear")` uses them, and `tf.image.resize`
itself for "bilinear" (other methods are refused: their kernels are not written).

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

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.nn_rules import _allowed_set, attr_error
from simdist.runtime.ops.registry import NotDifferentiable, RegisterGradient, register, rows
from simdist.runtime.tensor import Tensor

__all__ = ["resize_bilinear", "resize"]

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
    _, h, w, _ = x.shape
    oh, ow = size
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
    n, h, w, c = original.shape
    _, oh, ow, _ = grads.shape
    yl, yu, ylerp = _weights(h, oh, align_corners, half_pixel_centers)
    xl, xu, xlerp = _weights(w, ow, align_corners, half_pixel_centers)
    g = grads.astype(np.float32)
    dtop = g * (1 - ylerp)[None, :, None, None]
    dbottom = g * ylerp[None, :, None, None]
    out = np.zeros((n, h, w, c), np.float32)
    xr, xw = (1 - xlerp)[None, None, :, None], xlerp[None, None, :, None]
    for d, ys in ((dtop, yl), (dbottom, yu)):
        for xs, wt in ((xl, xr), (xu, xw)):
            iy, ix = np.meshgrid(ys, xs, indexing="ij")
            np.add.at(out, (slice(None), iy, ix), d * wt)
    return out.astype(original.dtype)


def _bilinear_dtype(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[0].name not in _allowed_set(_BILINEAR_TYPES):
        raise attr_error("ResizeBilinear", dts[0], _BILINEAR_TYPES)
    return dtypes.float32


def _grad_dtype(dts: Any, attrs: Any) -> dtypes.DType:
    return dts[1]


RESIZE_BILINEAR = register("ResizeBilinear", _resize_bilinear, _bilinear_dtype,
                           lambda a, out, at: 7.0 * out.size, kind="window", fusion=rows(0))
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
    if images.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"input must be 4-dimensional{list(images.shape.as_list())} "
                                          "[Op:ResizeBilinear]")
    if int(size[0]) <= 0 or int(size[1]) <= 0:
        raise errors.InvalidArgumentError(None, None, "output dimensions must be positive [Op:ResizeBilinear]")
    return dispatch.execute(RESIZE_BILINEAR, (images,), {"size": (int(size[0]), int(size[1])),
                                                         "align_corners": bool(align_corners),
                                                         "half_pixel_centers": bool(half_pixel_centers)})


def resize(images: Any, size: Any, method: str = "bilinear", preserve_aspect_ratio: bool = False,
           antialias: bool = False, name: str | None = None) -> Tensor:
    """`tf.image.resize` (image_ops_impl.resize_images_v2) for method "bilinear" without
    antialias: a 3-D image is given a batch axis and has it removed after; the result is float32."""
    x = _t(images)
    if method != "bilinear" or antialias or preserve_aspect_ratio:
        raise NotImplementedError(f"simdist: tf.image.resize(method={method!r}, antialias={antialias}, "
                                  f"preserve_aspect_ratio={preserve_aspect_ratio}) is not implemented; method "
                                  "'bilinear' without antialias is")
    if x.ndim not in (3, 4):
        raise ValueError("'images' must have either 3 or 4 dimensions.")
    sz = [int(v) for v in (size._v.tolist() if isinstance(size, Tensor) else size)]
    if len(sz) != 2:
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    if x.ndim == 3:
        from simdist.runtime.ops import array
        return array.squeeze(resize_bilinear(array.expand_dims(x, 0), sz), [0])
    return resize_bilinear(x, sz)
