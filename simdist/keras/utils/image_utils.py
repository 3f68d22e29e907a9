"""`smart_resize` (keras/src/utils/image_utils.py): crop the largest centred window of the target
aspect ratio, then resize it to `size`."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["smart_resize"]


def smart_resize(x: Any, size: Any, interpolation: str = "bilinear", data_format: str = "channels_last",
                 backend_module: Any = None) -> Any:
    """Keras's smart_resize on static image sizes (the only ones simdist's tensors have)."""
    if backend_module is None:
        from simdist.keras.layers.preprocessing.data_layer import TF_BACKEND as backend_module
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers, but got: {size}.")
    img = backend_module.convert_to_tensor(x)
    if len(img.shape) < 3 or len(img.shape) > 4:
        raise ValueError("Expected an image array with shape `(height, width, channels)`, or `(batch_size, height, "
                         f"width, channels)`, but got input with incorrect rank, of shape {img.shape}.")
    shape = backend_module.shape(img)
    height, width = (shape[-3], shape[-2]) if data_format == "channels_last" else (shape[-2], shape[-1])
    height, width = int(height), int(width)
    target_height, target_width = size
    crop_height = max(min(height, int(float(width * target_height) / target_width)), 1)
    crop_width = max(min(width, int(float(height * target_width) / target_height)), 1)
    h0 = int(float(height - crop_height) / 2)
    w0 = int(float(width - crop_width) / 2)
    rows, cols = slice(h0, h0 + crop_height), slice(w0, w0 + crop_width)
    if data_format == "channels_last":
        img = img[:, rows, cols, :] if len(img.shape) == 4 else img[rows, cols, :]
    else:
        img = img[:, :, rows, cols] if len(img.shape) == 4 else img[:, rows, cols]
    img = backend_module.image.resize(img, size=size, interpolation=interpolation, data_format=data_format)
    if isinstance(x, np.ndarray):
        return np.array(img)
    return img
