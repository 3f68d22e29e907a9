"""TF's ImageProjectiveTransformV3 kernel (tensorflow/core/kernels/image/image_ops.h, read): each
output pixel (b, y, x, c) samples the input at the projective transform of (x, y), as Keras's
image layers and `keras.ops.image.affine_transform`/`perspective_transform` call it through
`tf.raw_ops`.

- transform [a0 a1 a2 b0 b1 b2 c0 c1] (one row, or one per image): k = c0·x + c1·y + 1 (0:
  fill_value), in_x = (a0·x + a1·y + a2) / k, in_y = (b0·x + b1·y + b2) / k, in float32;
- fill_mode maps out-of-image coordinates (MapCoordinate, scipy's rules): REFLECT
  ([dcba|abcd|dcba]) and WRAP ([abcd|abcd]) fold them in and clamp to [0, len - 1], NEAREST
  clamps, CONSTANT keeps them (a read outside is fill_value);
- NEAREST interpolation reads the pixel at std::round (half away from zero); BILINEAR weights
  the four pixels around (floor, floor + 1), each read outside the image being fill_value,
  computed in float32 and converted to the image dtype; fill_value is first converted to the image
  dtype (2.5 is 2 in an int32 image).
The gradient is image_ops.py's `_image_projective_transform_v3_grad`: the same op on the
incoming gradient with the inverted transforms, fill_value 0."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.nn_rules import typed
from simdist.runtime.ops.raw_args import RawArgs
from simdist.runtime.ops.registry import RegisterGradient, get, lanes, register
from simdist.runtime.tensor import Tensor

__all__ = ["image_projective_transform_v3"]

_IMAGE_TYPES = "uint8, int32, int64, half, bfloat16, float, double"
_F = np.float32


def _map(coord: np.ndarray, length: int, mode: str) -> np.ndarray:
    """MapCoordinate<mode>(coord, length) elementwise, in float32."""
    c = coord.astype(_F, copy=True)
    if mode == "CONSTANT":
        return c
    if mode == "NEAREST":
        return np.clip(c, _F(0), _F(length - 1))
    if length <= 1:
        out = np.where((c < 0) | (c > length - 1), _F(0), c)
        return np.clip(out, _F(0), _F(length - 1))
    with np.errstate(invalid="ignore", over="ignore"):
        if mode == "REFLECT":
            sz2 = 2 * length
            neg = c < 0
            cn = np.where(neg & (c < sz2), _F(sz2) * np.trunc(-c / _F(sz2)).astype(_F) + c, c).astype(_F)
            cn = np.where(cn < -length, cn + _F(sz2), -cn - _F(1)).astype(_F)
            pos = c > length - 1
            cp = (c - _F(sz2) * np.trunc(c / _F(sz2)).astype(_F)).astype(_F)
            cp = np.where(cp >= length, _F(sz2) - cp - _F(1), cp).astype(_F)
            out = np.where(neg, cn, np.where(pos, cp, c))
        else:   # WRAP
            sz = length - 1
            neg = c < 0
            cn = (c + _F(length) * (np.trunc(-c / _F(sz)) + 1).astype(_F)).astype(_F)
            pos = c > length - 1
            cp = (c - _F(length) * np.trunc(c / _F(sz)).astype(_F)).astype(_F)
            out = np.where(neg, cn, np.where(pos, cp, c))
    return np.clip(out.astype(_F), _F(0), _F(length - 1))


def _read(img: np.ndarray, b: np.ndarray, y: np.ndarray, x: np.ndarray, fill: Any) -> np.ndarray:
    """img[b, y, x, :] where (y, x) is inside the image, fill elsewhere (float32)."""
    h, w = img.shape[1], img.shape[2]
    inside = (y >= 0) & (y < h) & (x >= 0) & (x < w)
    yy, xx = np.where(inside, y, 0), np.where(inside, x, 0)
    vals = img[b, yy, xx].astype(_F)
    return np.where(inside[..., None], vals, _F(fill))


def _as_index(v: np.ndarray) -> np.ndarray:
    """DenseIndex(v): truncation toward zero; non-finite or huge values land outside the image."""
    with np.errstate(invalid="ignore"):
        return np.where(np.isfinite(v), np.clip(v, -2.0**40, 2.0**40), -1).astype(np.int64)


def _forward(images: np.ndarray, transforms: np.ndarray, output_shape: np.ndarray, fill_value: np.ndarray,
             interpolation: str, fill_mode: str) -> np.ndarray:
    if images.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"Input images must have rank 4 [Op:ImageProjectiveTransformV3]")
    if transforms.ndim != 2 or transforms.shape[1] != 8 or transforms.shape[0] not in (1, images.shape[0]):
        raise errors.InvalidArgumentError(None, None, "Input transform should be num_images x 8 or 1 x 8 "
                                          "[Op:ImageProjectiveTransformV3]")
    oh, ow = (int(v) for v in np.asarray(output_shape).reshape(-1)[:2])
    n, h, w, c = images.shape
    t = np.broadcast_to(transforms.astype(_F), (n, 8))[:, :, None, None]
    yy, xx = np.meshgrid(np.arange(oh, dtype=_F), np.arange(ow, dtype=_F), indexing="ij")
    proj = (t[:, 6] * xx + t[:, 7] * yy + _F(1)).astype(_F)
    with np.errstate(divide="ignore", invalid="ignore"):
        in_x = ((t[:, 0] * xx + t[:, 1] * yy + t[:, 2]) / proj).astype(_F)
        in_y = ((t[:, 3] * xx + t[:, 4] * yy + t[:, 5]) / proj).astype(_F)
    x = _map(in_x, w, fill_mode)
    y = _map(in_y, h, fill_mode)
    fill = _F(np.asarray(fill_value).reshape(()).astype(images.dtype))   # (the kernel's `const T fill_value`)
    b = np.arange(n)[:, None, None]
    if interpolation == "NEAREST":
        def rnd(v: np.ndarray) -> np.ndarray:       # std::round: half away from zero
            return np.sign(v) * np.floor(np.abs(v) + _F(0.5))
        out = _read(images, b, _as_index(rnd(y)), _as_index(rnd(x)), fill)
    else:
        yf, xf = np.floor(y), np.floor(x)
        yc, xc = (yf + _F(1)).astype(_F), (xf + _F(1)).astype(_F)
        iyf, ixf, iyc, ixc = _as_index(yf), _as_index(xf), _as_index(yc), _as_index(xc)
        wx0, wx1 = (xc - x)[..., None], (x - xf)[..., None]
        v_yf = (wx0 * _read(images, b, iyf, ixf, fill) + wx1 * _read(images, b, iyf, ixc, fill)).astype(_F)
        v_yc = (wx0 * _read(images, b, iyc, ixf, fill) + wx1 * _read(images, b, iyc, ixc, fill)).astype(_F)
        out = ((yc - y)[..., None] * v_yf + (y - yf)[..., None] * v_yc).astype(_F)
    out = np.where((proj == 0)[..., None], fill, out)
    if images.dtype.kind in "iu":
        with np.errstate(invalid="ignore"):
            return out.astype(images.dtype)     # T(float): truncation
    return out.astype(images.dtype)


IMAGE_PROJECTIVE_TRANSFORM_V3 = register(
    "ImageProjectiveTransformV3", _forward, typed("ImageProjectiveTransformV3", _IMAGE_TYPES, inputs=(0,)),
    lambda a, out, at: 12.0 * float(np.prod(out.shape)), kind="window",
    fusion=lanes("each image is sampled at its own transform's coordinates"))


def _to_matrices(t: Tensor) -> Tensor:
    from simdist.runtime.ops.array import concat, ones, reshape
    n = t.shape.as_list()[0]
    return reshape(concat([t, ones((n, 1), dtype=t.dtype)], axis=1), (-1, 3, 3))


def _to_flat(m: Tensor) -> Tensor:
    from simdist.runtime.ops.array import reshape
    flat = reshape(m, (-1, 9))
    flat = flat / flat[:, 8:9]
    return flat[:, :8]


@RegisterGradient("ImageProjectiveTransformV3")
def _image_projective_transform_v3_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.linalg_more import inv
    from simdist.runtime.ops.array import shape
    images, transforms = op.inputs[0], op.inputs[1]
    inverse = _to_flat(inv(_to_matrices(transforms)))
    out = image_projective_transform_v3(grad, inverse, shape(images)[1:3], 0.0,
                                        interpolation=op.attrs["interpolation"], fill_mode=op.attrs["fill_mode"])
    return [out, None, None, None]


def image_projective_transform_v3(images: Any, transforms: Any, output_shape: Any, fill_value: Any,
                                  interpolation: str, fill_mode: str = "CONSTANT", name: str | None = None) -> Tensor:
    """`tf.raw_ops.ImageProjectiveTransformV3`."""
    from simdist.runtime import dtypes
    from simdist.runtime.tensor import convert_to_tensor
    x = _t(images)
    tr = convert_to_tensor(transforms, dtype=dtypes.float32)
    shp = convert_to_tensor(output_shape, dtype=dtypes.int32)
    fv = convert_to_tensor(fill_value, dtype=dtypes.float32)
    for attr, value, allowed in (("interpolation", interpolation, ("NEAREST", "BILINEAR")),
                                 ("fill_mode", fill_mode, ("REFLECT", "WRAP", "CONSTANT", "NEAREST"))):
        if value not in allowed:
            raise errors.InvalidArgumentError(None, None, f"Invalid {attr} {value} [Op:ImageProjectiveTransformV3]")
    IMAGE_PROJECTIVE_TRANSFORM_V3.dtype((x.dtype, tr.dtype, shp.dtype, fv.dtype), None)
    return dispatch.execute(IMAGE_PROJECTIVE_TRANSFORM_V3, (x, tr, shp, fv),
                            {"interpolation": interpolation, "fill_mode": fill_mode})


# tf.raw_ops.ImageProjectiveTransformV3 is the function above, which checks its attrs itself (clause ops.raw-ops)
IPT_V3_OP = get("ImageProjectiveTransformV3")
IPT_V3_OP.raw_args = RawArgs(via=image_projective_transform_v3)
