"""keras/src/utils/image_utils.py: `smart_resize` (crop the largest centred window of the target
aspect ratio, then resize it to `size`) and Keras's PIL helpers load_img, img_to_array,
array_to_img, save_img (Pillow, imported when called: the same library Keras calls; clause
keras.dataset-from-directory)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["smart_resize", "load_img", "img_to_array", "array_to_img", "save_img"]


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


_PIL_METHODS = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def _pil() -> Any:
    from PIL import Image
    return Image


def _data_format(data_format: Any) -> str:
    """Keras's backend.standardize_data_format: the default format for None, else one of the two (any case)."""
    from simdist.keras.layers.argument_validation import standardize_data_format
    return standardize_data_format(data_format)


def _floatx(dtype: Any) -> Any:
    from simdist.keras import config
    return dtype if dtype is not None else config.floatx()


def array_to_img(x: Any, data_format: Any = None, scale: bool = True, dtype: Any = None) -> Any:
    """A 3-D array as a PIL image (scaled to [0, 255] by its min and max unless scale=False)."""
    image = _pil()
    x = np.asarray(x, dtype=_floatx(dtype))
    if x.ndim != 3:
        raise ValueError(f"Expected image array to have rank 3 (single image). Got array with shape: {x.shape}")
    if _data_format(data_format) == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        x_max = np.max(x)
        if x_max != 0:
            x /= x_max
        x *= 255
    if x.shape[2] == 4:
        return image.fromarray(x.astype("uint8"), "RGBA")
    if x.shape[2] == 3:
        return image.fromarray(x.astype("uint8"), "RGB")
    if x.shape[2] == 1:
        if np.max(x) > 255:
            return image.fromarray(x[:, :, 0].astype("int32"), "I")
        return image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {x.shape[2]}")


def img_to_array(img: Any, data_format: Any = None, dtype: Any = None) -> np.ndarray:
    """A PIL image as a 3-D array of floatx (a channel axis added to a 2-D one)."""
    x = np.asarray(img, dtype=_floatx(dtype))
    first = _data_format(data_format) == "channels_first"
    if len(x.shape) == 3:
        if first:
            x = x.transpose(2, 0, 1)
    elif len(x.shape) == 2:
        x = x.reshape((1,) + x.shape) if first else x.reshape(x.shape + (1,))
    else:
        raise ValueError(f"Unsupported image shape: {x.shape}")
    return x


def save_img(path: Any, x: Any, data_format: Any = None, file_format: Any = None, scale: bool = True,
             **kwargs: Any) -> None:
    """Save an array as an image file (format from the suffix; RGBA as JPEG is made RGB, with Keras's warning)."""
    import pathlib
    import warnings
    if file_format is None and isinstance(path, (str, pathlib.Path)):
        file_format = pathlib.Path(path).suffix[1:].lower()
    if file_format and file_format.lower() == "jpg":
        file_format = "jpeg"
    img = array_to_img(x, data_format=_data_format(data_format), scale=scale)
    if img.mode == "RGBA" and file_format == "jpeg":
        warnings.warn("The JPEG format does not support RGBA images, converting to RGB.")
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)


def load_img(path: Any, color_mode: str = "rgb", target_size: Any = None, interpolation: str = "nearest",
             keep_aspect_ratio: bool = False) -> Any:
    """An image file as a PIL image in `color_mode`, resized by PIL to target_size (height, width)."""
    import io
    import pathlib
    image = _pil()
    if isinstance(path, io.BytesIO):
        img = image.open(path)
    elif isinstance(path, (pathlib.Path, bytes, str)):
        if isinstance(path, pathlib.Path):
            path = str(path.resolve())
        with open(path, "rb") as f:
            img = image.open(io.BytesIO(f.read()))
    else:
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    if color_mode == "grayscale":
        if img.mode not in ("L", "I;16", "I"):
            img = img.convert("L")
    elif color_mode == "rgba":
        if img.mode != "RGBA":
            img = img.convert("RGBA")
    elif color_mode == "rgb":
        if img.mode != "RGB":
            img = img.convert("RGB")
    else:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    if target_size is not None:
        wh = (target_size[1], target_size[0])
        if img.size != wh:
            if interpolation not in _PIL_METHODS:
                raise ValueError(f"Invalid interpolation method {interpolation} specified. Supported methods are "
                                 f"{', '.join(_PIL_METHODS)}")
            resample = getattr(image.Resampling, interpolation.upper())
            if keep_aspect_ratio:
                width, height = img.size
                tw, th = wh
                ch = min(height, (width * th) // tw)
                cw = min(width, (height * tw) // th)
                h0, w0 = (height - ch) // 2, (width - cw) // 2
                img = img.resize(wh, resample, box=[w0, h0, w0 + cw, h0 + ch])
            else:
                img = img.resize(wh, resample)
    return img
