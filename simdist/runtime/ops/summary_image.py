"""ImageSummary (raw op only; tensorflow/core/kernels/summary_image_op.cc SummaryImageOp, lib/png/png_io.cc; clause
ops.raw-ops): a scalar string, a serialized tensorflow.Summary of up to max_images Values, each {tag, image:
Summary.Image {height, width, colorspace: the depth, encoded_image_string: a PNG}}, written as protobuf's C++
serializer writes it (fields in number order, proto3 zeros omitted).

Eagerly TF 2.21 refuses every call (its runtime sets no tensor attr: tensor_attrs.py); in a tf.function the kernel
runs, as observed: the constructor's checks of bad_color (uint8: "bad_color must be uint8, got int32"; a vector:
"bad_color must be a vector, got shape []") and max_images (below 2^31); then tag a scalar ("Tags must be a scalar"),
tensor 4-D with depth 1, 3 or 4 ("Tensor must be 4-D with last dim 1, 3, or 4, not [2,2,1]"), height * width below
2^29 ("Tensor too large for summary [...]"), height and width not 0 ("input tensor must have non-zero dims.
Found: [1, 0, 2, 3]."; a batch of none with them is the empty Summary, b""). uint8 images are written as they are; half, float and double ones need
bad_color to hold a value per channel ("expected depth <= bad_color.size, got depth = 3, bad_color.size = 2") and are
normalized one image at a time (NormalizeFloatImage): the min and max in float over the pixels whose every channel is
finite; a negative min: scale T(127 / max(|min|, |max|)) (0 below 1e-6) and offset 128, else scale T(255 / max) (0
below 1e-6) and offset 0; each finite pixel's channels (v * scale + offset) in T, cast to uint8 (truncated), a pixel
with a non-finite channel bad_color's first depth values. Values for the first min(max_images, batch) images, tagged
"<tag>/image/<i>" (max_images above 1) or "<tag>/image"; each PNG as EncodePng writes it at zlib's default level
(png_codec.encode). TF declares ImageSummary not differentiable (logging_ops.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.args import dims_text
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, bytes_array, want_string
from simdist.runtime.proto_wire import key, length_delimited as _ld, varint

__all__ = ["IMAGE_SUMMARY", "normalize_image"]

_OP = "ImageSummary"
_DEFAULT_BAD = np.array([255, 0, 0, 255], np.uint8)


def _bad(text: str, cls: type = errors.InvalidArgumentError) -> Exception:
    return cls(None, None, f"{{{{function_node __wrapped__{_OP}_device_/job:localhost/replica:0/task:0/device:CPU:0}}}}"
                           f" {text} [Op:{_OP}]")


def normalize_image(values: np.ndarray, bad_color: np.ndarray) -> np.ndarray:
    """NormalizeFloatImage of one image [hw, depth] in its own dtype T: uint8 pixels."""
    t = values.dtype.type
    depth = values.shape[1]
    finite = np.isfinite(values).all(axis=1)
    good = values[finite].astype(np.float32)   # (float(value): a double rounded to float)
    lo = np.float32(good.min()) if good.size else np.float32(np.inf)
    hi = np.float32(good.max()) if good.size else np.float32(-np.inf)
    zero = np.float32(1e-6)
    if lo < 0:
        top = max(abs(lo), abs(hi))
        scale, offset = t(0.0 if top < zero else np.float32(127.0) / top), t(128.0)
    else:
        scale, offset = t(0.0 if hi < zero else np.float32(255.0) / hi), t(0.0)
    with np.errstate(invalid="ignore", over="ignore"):
        mapped = (values * scale).astype(values.dtype) + offset   # (T's product, then T's sum: no fused form)
        pixels = mapped.astype(values.dtype).astype(np.float64)
    out = np.empty(values.shape, np.uint8)
    out[finite] = np.trunc(pixels[finite]).astype(np.int64).astype(np.uint8)
    out[~finite] = bad_color[:depth]
    return out


def _image_value(tag: bytes, h: int, w: int, depth: int, png: bytes) -> bytes:
    image = b"".join(key(n, 0) + varint(v) for n, v in ((1, h), (2, w), (3, depth)) if v) + _ld(4, png)
    return _ld(1, _ld(1, tag) + _ld(4, image))


def _image_summary(tag: np.ndarray, tensor: np.ndarray, max_images: int = 3, bad_color: Any = None) -> np.ndarray:
    """SummaryImageOp's constructor and Compute."""
    from simdist.runtime.ops import png_codec
    color = _DEFAULT_BAD if bad_color is None else np.asarray(bad_color)
    if max_images >= 1 << 31:
        raise _bad("max_images must be < 2^31")
    if color.dtype != np.uint8:
        raise _bad(f"bad_color must be uint8, got {dtypes.as_dtype(color.dtype).name if color.dtype != object else 'string'}")
    if color.ndim != 1:
        raise _bad(f"bad_color must be a vector, got shape {dims_text(color.shape)}")
    if tag.ndim != 0:
        raise _bad("Tags must be a scalar")
    if tensor.ndim != 4 or tensor.shape[3] not in (1, 3, 4):
        raise _bad(f"Tensor must be 4-D with last dim 1, 3, or 4, not {dims_text(tensor.shape)}")
    batch, h, w, depth = tensor.shape
    if max(batch, h, w) >= 1 << 31 or h * w >= 1 << 29:
        raise _bad(f"Tensor too large for summary {dims_text(tensor.shape)}")
    if h == 0 or w == 0:
        raise _bad(f"input tensor must have non-zero dims. Found: [{', '.join(str(d) for d in tensor.shape)}].")
    if tensor.dtype != np.uint8 and color.shape[0] < depth:
        raise _bad(f"expected depth <= bad_color.size, got depth = {depth}, bad_color.size = {color.shape[0]}")
    base = as_bytes(tag[()])
    body = b""
    for i in range(min(max_images, batch)):
        name = base + (f"/image/{i}" if max_images > 1 else "/image").encode()
        flat = tensor[i].reshape(h * w, depth)
        pixels = flat if tensor.dtype == np.uint8 else normalize_image(flat, color)
        png = png_codec.encode(np.asarray(pixels, np.uint8).reshape(h, w, depth), -1)
        body += _image_value(name, h, w, depth, png)
    return bytes_array((), [body])


_ALLOWED = (dtypes.uint8, dtypes.float32, dtypes.float16, dtypes.float64)


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    from simdist.runtime.ops.nn_rules import attr_error
    want_string(_OP, dts, 0, "tag")
    if dts[1] not in _ALLOWED:
        raise attr_error(_OP, dts[1], "uint8, float, half, double")
    return dtypes.string


IMAGE_SUMMARY = register(_OP, _image_summary, _rule, kind="io", fusion=lanes(
    "writes one summary protocol message: no stacked form written"), **STRING_COST)
NotDifferentiable(_OP)   # (logging_ops.py declares ImageSummary not differentiable: a tape's gradient is None)
