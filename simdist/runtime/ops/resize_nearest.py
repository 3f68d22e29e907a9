"""ResizeNearestNeighbor and its gradient (resize_nearest_neighbor_op.cc), NHWC. Clause
ops.image-resize.

Output pixel i reads input index min(floor(s(i)), in - 1) (roundf with align_corners), at least
0 with half-pixel centers, where s(i) = (i + 0.5) * scale (half-pixel: the kernel leaves the
0.5 off since floor follows) or i * scale, scale CalculateResizeScale's float32. The output has
the input's dtype (a copy: subnormals kept). ResizeNearestNeighborGrad adds each upstream element onto the
input pixel it was read from, in the upstream's order, in the gradient's dtype.

FLOPs: 0 for the copy (one index computation per output pixel, counted as 1 per element);
the gradient 1 addition per upstream element.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, resize_state
from simdist.runtime.ops.nn_rules import _allowed_set, attr_error
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import RegisterGradient, register, rows
from simdist.runtime.tensor import Tensor

__all__ = ["resize_nearest_neighbor", "nearest_indices"]

_TYPES = "int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16"
_GRAD_TYPES = "uint8, int8, int32, half, float, double, bfloat16"


def nearest_indices(out_size: int, in_size: int, align_corners: bool, half_pixel_centers: bool) -> np.ndarray:
    """The input index each output position reads (compute_indices)."""
    scale = resize_state.resize_scale(in_size, out_size, align_corners)
    i = np.arange(out_size, dtype=np.float32)
    s = (i + np.float32(0.5)) * scale if half_pixel_centers else i * scale
    # roundf rounds halves away from zero
    idx = (np.sign(s) * np.floor(np.abs(s) + np.float32(0.5)) if align_corners else np.floor(s)).astype(np.int64)
    idx = np.minimum(idx, in_size - 1)
    return np.maximum(idx, 0) if half_pixel_centers else idx


def _forward(x: np.ndarray, size: tuple, align_corners: bool, half_pixel_centers: bool) -> np.ndarray:
    _, h, w, _ = x.shape
    yi = nearest_indices(size[0], h, align_corners, half_pixel_centers)
    xi = nearest_indices(size[1], w, align_corners, half_pixel_centers)
    return np.ascontiguousarray(x[:, yi][:, :, xi])


def _grad(g: np.ndarray, size: tuple, align_corners: bool, half_pixel_centers: bool) -> np.ndarray:
    """ResizeNearestNeighborOpGrad: the size of two elements ("shape_t must have two elements[4]"), both positive
    ("shape_t's elements must be positive": a [0, 3] size of an empty gradient too; fz31a, tape seed 3120261209
    #127), then the upstream elements added onto their sources."""
    if len(size) != 2:
        raise errors.InvalidArgumentError(None, None, f"shape_t must have two elements[{len(size)}] "
                                          "[Op:ResizeNearestNeighborGrad]")
    if size[0] <= 0 or size[1] <= 0:
        raise errors.InvalidArgumentError(None, None, "shape_t's elements must be positive "
                                          "[Op:ResizeNearestNeighborGrad]")
    n, gh, gw, c = g.shape
    # the gradient kernel's scale is original / resized: the forward op's index map
    yi = nearest_indices(gh, size[0], align_corners, half_pixel_centers)
    xi = nearest_indices(gw, size[1], align_corners, half_pixel_centers)
    out = np.zeros((n, size[0], size[1], c), g.dtype)
    iy, ix = np.meshgrid(yi, xi, indexing="ij")
    np.add.at(out, (slice(None), iy, ix), g)
    return out


def _dtype(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[0].name not in _allowed_set(_TYPES):
        raise attr_error("ResizeNearestNeighbor", dts[0], _TYPES)
    return dts[0]


def _grad_dtype(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[0].name not in _allowed_set(_GRAD_TYPES):
        raise attr_error("ResizeNearestNeighborGrad", dts[0], _GRAD_TYPES)
    return dts[0]


RESIZE_NEAREST = register("ResizeNearestNeighbor", _forward, _dtype, lambda a, out, at: float(out.size),
                          kind="window", fusion=rows(0), subnormals="keep")   # a copy: subnormals kept
RESIZE_NEAREST_GRAD = register("ResizeNearestNeighborGrad", _grad, _grad_dtype,
                               lambda a, out, at: float(a[0].size), kind="window", fusion=rows(0))

no_tf_gradient("ResizeNearestNeighborGrad")   # (TF 2.21 registers none: LookupError; observed, fz27a)


@RegisterGradient("ResizeNearestNeighbor")
def _resize_nearest_grad_fn(op: Any, grad: Any) -> list:
    """TF's _ResizeNearestNeighborGrad (image_grad.py): the images' gradient."""
    shp = op.inputs[0].shape.as_list()
    return [dispatch.execute(RESIZE_NEAREST_GRAD, (grad,), {"size": (shp[1], shp[2]),
                                                            "align_corners": op.get_attr("align_corners"),
                                                            "half_pixel_centers": op.get_attr("half_pixel_centers")})]


def resize_nearest_neighbor(images: Tensor, size: tuple[int, int], align_corners: bool = False,
                            half_pixel_centers: bool = True) -> Tensor:
    """The ResizeNearestNeighbor op on a 4-D NHWC tensor (the kernel's checks first)."""
    if images.dtype.name not in _allowed_set(_TYPES):
        raise attr_error("ResizeNearestNeighbor", images.dtype, _TYPES)
    shp = images.shape.as_list()
    resize_state.check_forward("ResizeNearestNeighbor", shp, tuple(size), align_corners, half_pixel_centers)
    if shp[1] >= 1 << 24 or shp[2] >= 1 << 24:
        raise errors.InvalidArgumentError(None, None, "nearest neighbor requires max height & width of 2^24 "
                                          "[Op:ResizeNearestNeighbor]")
    return dispatch.execute(RESIZE_NEAREST, (images,), {"size": (int(size[0]), int(size[1])),
                                                        "align_corners": bool(align_corners),
                                                        "half_pixel_centers": bool(half_pixel_centers)})
