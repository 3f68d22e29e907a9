"""`tf.compat.v1.image`'s resize functions (TF 2.21's image_ops_impl.py, v1 exports, read): `resize`/`resize_images`
(ResizeMethodV1 0-3 or the v2 method strings, `align_corners`, `preserve_aspect_ratio`; the raw resize ops with
half_pixel_centers False; a 3-D image gets a batch axis; an unchanged known size returns the images as they are,
`skip_resize_if_same`), `resize_bilinear`, `resize_nearest_neighbor`, `resize_bicubic` (the raw ops, their
`half_pixel_centers` keyword, default False) and `resize_area`. Clause ops.image-resize (found missing by
suite/test_asweep58.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

__all__ = ["ResizeMethodV1", "resize_images", "resize_bilinear", "resize_nearest_neighbor", "resize_bicubic",
           "resize_area", "namespace"]


class ResizeMethodV1:
    """`tf.compat.v1.image.ResizeMethod`: TF 1's integer methods."""
    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


def _tf() -> Any:
    import simdist.tf as tf
    return tf


def resize_bilinear(images: Any, size: Any, align_corners: bool = False, name: Any = None,
                    half_pixel_centers: bool = False) -> Any:
    return _tf().raw_ops.ResizeBilinear(images=images, size=size, align_corners=align_corners,
                                        half_pixel_centers=half_pixel_centers)


def resize_nearest_neighbor(images: Any, size: Any, align_corners: bool = False, name: Any = None,
                            half_pixel_centers: bool = False) -> Any:
    return _tf().raw_ops.ResizeNearestNeighbor(images=images, size=size, align_corners=align_corners,
                                               half_pixel_centers=half_pixel_centers)


def resize_bicubic(images: Any, size: Any, align_corners: bool = False, name: Any = None,
                   half_pixel_centers: bool = False) -> Any:
    return _tf().raw_ops.ResizeBicubic(images=images, size=size, align_corners=align_corners,
                                       half_pixel_centers=half_pixel_centers)


def resize_area(images: Any, size: Any, align_corners: bool = False, name: Any = None) -> Any:
    return _tf().raw_ops.ResizeArea(images=images, size=size, align_corners=align_corners)


def resize_images(images: Any, size: Any, method: Any = ResizeMethodV1.BILINEAR, align_corners: bool = False,
                  preserve_aspect_ratio: bool = False, name: Any = None) -> Any:
    """v1 `resize_images` (`_resize_images_common` with skip_resize_if_same=True)."""
    tf = _tf()
    v2 = tf.image.ResizeMethod
    fns = ((ResizeMethodV1.BILINEAR, v2.BILINEAR, resize_bilinear),
           (ResizeMethodV1.NEAREST_NEIGHBOR, v2.NEAREST_NEIGHBOR, resize_nearest_neighbor),
           (ResizeMethodV1.BICUBIC, v2.BICUBIC, resize_bicubic), (ResizeMethodV1.AREA, v2.AREA, resize_area))
    images = tf.convert_to_tensor(images)
    if images.shape.ndims is None:
        raise ValueError("'images' contains no shape.")
    batch = images.shape.ndims == 4
    if images.shape.ndims == 3:
        images = tf.expand_dims(images, 0)
    elif images.shape.ndims != 4:
        raise ValueError("'images' must have either 3 or 4 dimensions.")
    _, height, width, _ = images.shape.as_list()
    try:
        size = tf.convert_to_tensor(size, tf.int32)
    except (TypeError, ValueError):
        raise ValueError("'size' must be a 1-D int32 Tensor") from None
    if not size.shape.is_compatible_with([2]):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    if preserve_aspect_ratio:
        dims = tf.shape(images)
        sh = tf.cast(size[0], tf.float32) / tf.cast(dims[1], tf.float32)
        sw = tf.cast(size[1], tf.float32) / tf.cast(dims[2], tf.float32)
        f = tf.minimum(sh, sw)
        size = tf.stack([tf.cast(tf.round(f * tf.cast(dims[1], tf.float32)), tf.int32),
                         tf.cast(tf.round(f * tf.cast(dims[2], tf.float32)), tf.int32)])
    known = tf.get_static_value(size)
    if known is not None and height is not None and width is not None and (int(known[0]), int(known[1])) == (
            height, width):
        return images if batch else tf.squeeze(images, [0])
    for v1m, v2m, fn in fns:
        if method == v1m or method == v2m:
            out = fn(images, size, align_corners=align_corners)
            break
    else:
        raise ValueError(f"Resize method is not implemented: {method}")
    return out if batch else tf.squeeze(out, [0])


def namespace() -> SimpleNamespace:
    """The v1 image namespace's own forms."""
    return SimpleNamespace(resize=resize_images, resize_images=resize_images, resize_bilinear=resize_bilinear,
                           resize_nearest_neighbor=resize_nearest_neighbor, resize_bicubic=resize_bicubic,
                           resize_area=resize_area, ResizeMethod=ResizeMethodV1)
