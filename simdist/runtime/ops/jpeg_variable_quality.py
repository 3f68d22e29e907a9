"""EncodeJpegVariableQuality (raw op only; tensorflow/core/kernels/image/encode_jpeg_op.cc
EncodeJpegVariableQualityOp; clause ops.raw-ops): EncodeJpeg with jpeg::CompressFlags' defaults (baseline, no
size optimization, 4:2:0 chroma, 300 x 300 dots per inch, no XMP) but for the quality, a scalar int32 tensor.

Compute's checks, in order (observed on TF 2.21): images of rank 3 ("image must be 3-dimensional[2,2]"), quality a
scalar ("quality must be scalar: [1]"), quality in [0, 100] ("quality must be in [0,100], got 101"), 1 or 3 channels
("image must have 1 or 3 channels, got [2,2,2]"); an empty image is jpeg::Compress's failure (InternalError "JPEG
encoding failed"). The bytes are EncodeJpeg's (jpeg_codec.encode). TF registers no gradient (LookupError)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.args import dims_text, dtype_error
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.string_args import STRING_COST, bytes_array

__all__ = ["ENCODE_JPEG_VARIABLE_QUALITY"]

_OP = "EncodeJpegVariableQuality"


def _bad(text: str, cls: type = errors.InvalidArgumentError) -> Exception:
    return cls(None, None, f"{{{{function_node __wrapped__{_OP}_device_/job:localhost/replica:0/task:0/device:CPU:0}}}}"
                           f" {text} [Op:{_OP}]")


def _encode(images: np.ndarray, quality: np.ndarray) -> np.ndarray:
    """EncodeJpegVariableQualityOp::Compute."""
    from simdist.runtime.ops import jpeg_codec
    if images.ndim != 3:
        raise _bad(f"image must be 3-dimensional{dims_text(images.shape)}")
    if quality.ndim != 0:
        raise _bad(f"quality must be scalar: {dims_text(quality.shape)}")
    q = int(quality)
    if not 0 <= q <= 100:
        raise _bad(f"quality must be in [0,100], got {q}")
    if images.shape[2] not in (1, 3):
        raise _bad(f"image must have 1 or 3 channels, got {dims_text(images.shape)}")
    if not (0 < images.shape[0] <= 65500 and 0 < images.shape[1] <= 65500):   # (as EncodeJpeg: jpeg_mem.cc refuses)
        raise _bad("JPEG encoding failed", errors.InternalError)
    data = jpeg_codec.encode(np.ascontiguousarray(images), q, False, False, True, 1, 300, 300, b"")
    return bytes_array((), [data])


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    for i, want in enumerate((dtypes.uint8, dtypes.int32)):
        if dts[i] != want:
            raise dtype_error(_OP, i, want, dts[i])
    return dtypes.string


ENCODE_JPEG_VARIABLE_QUALITY = register(_OP, _encode, _rule, kind="io", fusion=lanes(
    "encodes each image's bytes in Python: no stacked form"), **STRING_COST)
no_tf_gradient(_OP)
