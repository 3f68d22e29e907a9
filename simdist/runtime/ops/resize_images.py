"""`tf.image.resize` (image_ops_impl.resize_images_v2 and _resize_images_common): the method's
kernel on a 4-D batch (a 3-D image gets a batch axis and loses it after). Clause
ops.image-resize.

Methods (always half-pixel centers): bilinear is ResizeBilinear, with antialias
ScaleAndTranslate('triangle'); nearest ResizeNearestNeighbor (antialias ignored; the images'
dtype); bicubic ResizeBicubic, with antialias ScaleAndTranslate('keyscubic'); area ResizeArea
(antialias ignored); lanczos3, lanczos5, gaussian, mitchellcubic ScaleAndTranslate with scale
float32(size) / float32(input size) and translation 0. Every method but nearest gives float32.
`size` converts to int32 (else ValueError "'size' must be a 1-D int32 Tensor") and must have 2
elements; preserve_aspect_ratio scales both sides by min(size / input size) in float32,
rounded half to even.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, symbolic
from simdist.runtime.ops import dispatch, partial_values
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.resize import resize_bilinear
from simdist.runtime.ops.resize_area import resize_area
from simdist.runtime.ops.resize_bicubic import resize_bicubic
from simdist.runtime.ops.resize_nearest import resize_nearest_neighbor
from simdist.runtime.ops.scale_translate import scale_and_translate
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["resize", "ResizeMethod"]


class ResizeMethod:
    """`tf.image.ResizeMethod`: the method names."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


_SCALE_AND_TRANSLATE = ("lanczos3", "lanczos5", "gaussian", "mitchellcubic")


def _size(size: Any) -> list[int]:
    try:
        st = size if isinstance(size, Tensor) and size.dtype == dtypes.int32 else convert_to_tensor(size, dtypes.int32)
    except (TypeError, ValueError):
        raise ValueError("'size' must be a 1-D int32 Tensor") from None
    shp = st.shape.as_list() if st.shape.ndims is not None else None
    if shp is not None and (len(shp) != 1 or shp[0] not in (None, 2)):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    return [int(v) for v in np.asarray(dispatch.static_value(st)).reshape(-1)]


def _resize_fn(x: Tensor, sz: list[int], method: str, antialias: bool) -> Tensor:
    """resize_images_v2's resize_fn."""
    def st(kernel: str) -> Tensor:
        shp = x.shape.as_list()
        scale = [np.float32(sz[0]) / np.float32(shp[1]) if shp[1] else np.float32(np.inf),
                 np.float32(sz[1]) / np.float32(shp[2]) if shp[2] else np.float32(np.inf)]
        with np.errstate(divide="ignore", invalid="ignore"):
            return scale_and_translate(x, sz, scale, (0.0, 0.0), kernel, antialias)
    if method in ("bilinear", "bicubic") and symbolic.flag(antialias):   # (resize_fn's `if antialias:`; fz65)
        return st("triangle" if method == "bilinear" else "keyscubic")
    if method == "bilinear":
        return st("triangle") if antialias else resize_bilinear(x, sz, half_pixel_centers=True)
    if method == "nearest":
        return resize_nearest_neighbor(x, sz, half_pixel_centers=True)
    if method == "bicubic":
        return st("keyscubic") if antialias else resize_bicubic(x, sz, half_pixel_centers=True)
    if method == "area":
        return resize_area(x, sz)
    if method in _SCALE_AND_TRANSLATE:
        return st(method)
    raise ValueError(f"Resize method is not implemented: {method}")


def _resize_shape(a: dict) -> list[int | None] | None:
    """resize_images_v2's static shape of its output in a traced graph: the images' batch and channels, the new
    height and width where `size` is known (constant_value_as_shape; `tf.stack([n, 2])` of a placeholder n:
    [?, 2]), both unknown when the aspect ratio is preserved (computed from the size's tensor)."""
    from simdist.runtime.ops import partial_values, static_shapes
    ks = static_shapes.known_shape(a["images"])
    if ks is None or len(ks) not in (3, 4):
        return None
    hw = None if a["preserve_aspect_ratio"] else partial_values.shape_of(a["size"])
    if hw is None or len(hw) != 2:
        hw = [None, None]
    return ks[:-3] + list(hw) + ks[-1:]


@partial_values.shaped("size", rule=_resize_shape)
def resize(images: Any, size: Any, method: str = "bilinear", preserve_aspect_ratio: bool = False,
           antialias: bool = False, name: str | None = None) -> Tensor:
    """`tf.image.resize` (resize_images_v2)."""
    from simdist.runtime.ops import array
    from simdist.runtime.ops import static_shapes
    x = _t(images)
    if x.shape.ndims is None or static_shapes.rank_unknown(x):   # (image_ops' static rank check, traced too)
        raise ValueError("'images' contains no shape.")
    batch = x.ndim == 4
    if x.ndim == 3:
        x = array.expand_dims(x, 0)
    elif x.ndim != 4:
        raise ValueError("'images' must have either 3 or 4 dimensions.")
    sz = _size(size)
    if symbolic.flag(preserve_aspect_ratio):   # (a graph tensor's truth: OperatorNotAllowedInGraphError; fz65)
        _, h, w, _ = x.shape.as_list()
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            f = np.minimum(np.float32(sz[0]) / np.float32(h), np.float32(sz[1]) / np.float32(w))
            sz = [int(np.int32(np.round(f * np.float32(h)))), int(np.int32(np.round(f * np.float32(w))))]
    for v in sz:   # (tensor_util.constant_value_as_shape of the size: -1 an unknown dimension, other negatives refused)
        if v < -1:
            raise ValueError(f"Dimension {v} must be >= 0")
    method = str(getattr(method, "value", method))
    out = _resize_fn(x, sz, method, antialias)
    known = static_shapes.known_shape(x)
    if known is not None and (None in known or static_shapes.unknown(out) is not None):
        # (the resize ops' shape function: batch and channels the images', the size's value where the graph knows
        # it; preserve_aspect_ratio's size computed from unknown height or width unknown; ssweep64)
        prior = static_shapes.unknown(out) or (False,) * 4
        spatial = preserve_aspect_ratio and (known[1] is None or known[2] is None)
        out = static_shapes.mark(out, (known[0] is None, prior[1] or spatial, prior[2] or spatial, known[3] is None))
    return out if batch else array.squeeze(out, [0])
