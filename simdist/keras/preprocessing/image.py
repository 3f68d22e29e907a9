"""`tf.keras.preprocessing.image`: the image-file helpers (the same functions as keras.utils', Keras 3.15
exports them under both names), Keras 1's NumPy image transforms (keras/src/legacy/preprocessing/image.py,
ported line by line: apply_affine_transform through scipy.ndimage, the brightness shift through PIL's
ImageEnhance, the random_* draws from NumPy's global generator as Keras's do, so a program that seeds
np.random gets Keras's images), and ImageDataGenerator with its iterators (image_data_generator.py,
image_iterators.py; clause keras.preprocessing.image-generator)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.keras.utils import image_utils
from simdist.keras.utils.image_utils import array_to_img, img_to_array, load_img, save_img, smart_resize  # noqa: F401

from simdist.keras import _api  # noqa: E402


def random_rotation(x: Any, rg: Any, row_axis: int = 1, col_axis: int = 2, channel_axis: int = 0,
                    fill_mode: str = "nearest", cval: float = 0.0, interpolation_order: int = 1) -> np.ndarray:
    """A rotation by a uniform angle in [-rg, rg] degrees (Keras 1; deprecated)."""
    theta = np.random.uniform(-rg, rg)
    return apply_affine_transform(x, theta=theta, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def random_shift(x: Any, wrg: Any, hrg: Any, row_axis: int = 1, col_axis: int = 2, channel_axis: int = 0,
                 fill_mode: str = "nearest", cval: float = 0.0, interpolation_order: int = 1) -> np.ndarray:
    """A shift by uniform fractions of the height (hrg) and width (wrg) (Keras 1; deprecated)."""
    h, w = x.shape[row_axis], x.shape[col_axis]
    tx = np.random.uniform(-hrg, hrg) * h
    ty = np.random.uniform(-wrg, wrg) * w
    return apply_affine_transform(x, tx=tx, ty=ty, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def random_shear(x: Any, intensity: Any, row_axis: int = 1, col_axis: int = 2, channel_axis: int = 0,
                 fill_mode: str = "nearest", cval: float = 0.0, interpolation_order: int = 1) -> np.ndarray:
    """A shear by a uniform angle in [-intensity, intensity] degrees (Keras 1; deprecated)."""
    shear = np.random.uniform(-intensity, intensity)
    return apply_affine_transform(x, shear=shear, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def random_zoom(x: Any, zoom_range: Any, row_axis: int = 1, col_axis: int = 2, channel_axis: int = 0,
                fill_mode: str = "nearest", cval: float = 0.0, interpolation_order: int = 1) -> np.ndarray:
    """A zoom by two uniform factors in zoom_range (none drawn when it is (1, 1)) (Keras 1; deprecated)."""
    if len(zoom_range) != 2:
        raise ValueError(f"`zoom_range` should be a tuple or list of two floats. Received: {zoom_range}")
    if zoom_range[0] == 1 and zoom_range[1] == 1:
        zx, zy = 1, 1
    else:
        zx, zy = np.random.uniform(zoom_range[0], zoom_range[1], 2)
    return apply_affine_transform(x, zx=zx, zy=zy, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def apply_channel_shift(x: Any, intensity: Any, channel_axis: int = 0) -> np.ndarray:
    """Every channel plus `intensity`, clipped to the image's min and max (Keras 1; deprecated)."""
    x = np.rollaxis(x, channel_axis, 0)
    min_x, max_x = np.min(x), np.max(x)
    channel_images = [np.clip(x_channel + intensity, min_x, max_x) for x_channel in x]
    x = np.stack(channel_images, axis=0)
    return np.rollaxis(x, 0, channel_axis + 1)


def random_channel_shift(x: Any, intensity_range: Any, channel_axis: int = 0) -> np.ndarray:
    """apply_channel_shift by a uniform intensity in [-intensity_range, intensity_range] (deprecated)."""
    intensity = np.random.uniform(-intensity_range, intensity_range)
    return apply_channel_shift(x, intensity, channel_axis=channel_axis)


def apply_brightness_shift(x: Any, brightness: Any, scale: bool = True) -> np.ndarray:
    """The image through PIL's ImageEnhance.Brightness(brightness), as floatx (Keras 1; deprecated)."""
    from PIL import ImageEnhance

    x_min, x_max = np.min(x), np.max(x)
    local_scale = (x_min < 0) or (x_max > 255)
    img = image_utils.array_to_img(x, scale=local_scale or scale)
    img = ImageEnhance.Brightness(img).enhance(brightness)
    out = image_utils.img_to_array(img)
    if not scale and local_scale:
        out = out / 255 * (x_max - x_min) + x_min
    return out


def random_brightness(x: Any, brightness_range: Any, scale: bool = True) -> np.ndarray:
    """apply_brightness_shift by a uniform factor in brightness_range (Keras 1; deprecated)."""
    if len(brightness_range) != 2:
        raise ValueError("`brightness_range should be tuple or list of two floats. "
                         f"Received: {brightness_range}")
    u = np.random.uniform(brightness_range[0], brightness_range[1])
    return apply_brightness_shift(x, u, scale)


def _transform_matrix_offset_center(matrix: Any, x: Any, y: Any) -> np.ndarray:
    """`matrix` about the image's centre (Keras 1's helper)."""
    o_x = float(x) / 2 - 0.5
    o_y = float(y) / 2 - 0.5
    offset_matrix = np.array([[1, 0, o_x], [0, 1, o_y], [0, 0, 1]])
    reset_matrix = np.array([[1, 0, -o_x], [0, 1, -o_y], [0, 0, 1]])
    return np.dot(np.dot(offset_matrix, matrix), reset_matrix)


def apply_affine_transform(x: Any, theta: Any = 0, tx: Any = 0, ty: Any = 0, shear: Any = 0, zx: Any = 1, zy: Any = 1,
                           row_axis: int = 1, col_axis: int = 2, channel_axis: int = 0, fill_mode: str = "nearest",
                           cval: float = 0.0, order: int = 1) -> np.ndarray:
    """Rotation (degrees), shift, shear (degrees) and zoom of a 3-D image about its centre, channel by
    channel through scipy.ndimage.affine_transform (Keras 1; deprecated). The axes must be 0, 1, 2 in
    some order, the channel axis first or last (ValueError otherwise, Keras's messages)."""
    import scipy.ndimage

    if np.unique([row_axis, col_axis, channel_axis]).size != 3:
        raise ValueError("'row_axis', 'col_axis', and 'channel_axis' must be distinct")
    valid_indices = {0, 1, 2}
    actual_indices = {row_axis, col_axis, channel_axis}
    if actual_indices != valid_indices:
        raise ValueError(f"Invalid axis' indices: {actual_indices - valid_indices}")
    if x.ndim != 3:
        raise ValueError("Input arrays must be multi-channel 2D images.")
    if channel_axis not in [0, 2]:
        raise ValueError("Channels are allowed and the first and last dimensions.")

    transform_matrix = None
    if theta != 0:
        theta = np.deg2rad(theta)
        transform_matrix = np.array([[np.cos(theta), -np.sin(theta), 0], [np.sin(theta), np.cos(theta), 0],
                                     [0, 0, 1]])
    if tx != 0 or ty != 0:
        shift_matrix = np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]])
        transform_matrix = shift_matrix if transform_matrix is None else np.dot(transform_matrix, shift_matrix)
    if shear != 0:
        shear = np.deg2rad(shear)
        shear_matrix = np.array([[1, -np.sin(shear), 0], [0, np.cos(shear), 0], [0, 0, 1]])
        transform_matrix = shear_matrix if transform_matrix is None else np.dot(transform_matrix, shear_matrix)
    if zx != 1 or zy != 1:
        zoom_matrix = np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]])
        transform_matrix = zoom_matrix if transform_matrix is None else np.dot(transform_matrix, zoom_matrix)

    if transform_matrix is not None:
        h, w = x.shape[row_axis], x.shape[col_axis]
        transform_matrix = _transform_matrix_offset_center(transform_matrix, h, w)
        x = np.rollaxis(x, channel_axis, 0)
        # (the matrix is in x, y order, arrays index y, x: swap both axes of the matrix, M' = PMP)
        if col_axis > row_axis:
            transform_matrix[:, [0, 1]] = transform_matrix[:, [1, 0]]
            transform_matrix[[0, 1]] = transform_matrix[[1, 0]]
        final_affine_matrix = transform_matrix[:2, :2]
        final_offset = transform_matrix[:2, 2]
        channel_images = [scipy.ndimage.affine_transform(x_channel, final_affine_matrix, final_offset, order=order,
                                                         mode=fill_mode, cval=cval) for x_channel in x]
        x = np.stack(channel_images, axis=0)
        x = np.rollaxis(x, 0, channel_axis + 1)
    return x


from simdist.keras.preprocessing.image_data_generator import ImageDataGenerator  # noqa: E402
from simdist.keras.preprocessing.image_iterators import DirectoryIterator, Iterator, NumpyArrayIterator  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.preprocessing.image names simdist has (one a line; clause api.namespaces)
    "DirectoryIterator",
    "ImageDataGenerator",
    "Iterator",
    "NumpyArrayIterator",
    "apply_affine_transform",
    "apply_brightness_shift",
    "apply_channel_shift",
    "array_to_img",
    "img_to_array",
    "load_img",
    "random_brightness",
    "random_channel_shift",
    "random_rotation",
    "random_shear",
    "random_shift",
    "random_zoom",
    "save_img",
    "smart_resize",
]
__dir__ = _api.dir_of(__name__)
