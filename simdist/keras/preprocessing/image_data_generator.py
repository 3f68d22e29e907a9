"""`tf.keras.preprocessing.image.ImageDataGenerator`: Keras 1's real-time image augmentation (clause
keras.preprocessing.image-generator).

Ported line by line from Keras 3.15 (keras/src/legacy/preprocessing/image.py, deprecated there): the
random transform of each image is drawn from NumPy's global generator in Keras's order (rotation,
height shift, width shift, shear, zoom, the two flips, channel shift, brightness), applied by the
NumPy/SciPy transforms of simdist.keras.preprocessing.image, then standardized (rescale, sample-wise
and feature-wise centring and scaling, ZCA whitening fitted by `fit`). Same seeds, same images.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from simdist.keras import config
from simdist.keras.preprocessing import image as _transforms
from simdist.keras.preprocessing.image_iterators import DataFrameIterator, DirectoryIterator, NumpyArrayIterator

__all__ = ["ImageDataGenerator", "flip_axis"]


def flip_axis(x: Any, axis: int) -> np.ndarray:
    """`x` reversed along `axis`."""
    x = np.asarray(x).swapaxes(axis, 0)
    x = x[::-1, ...]
    return x.swapaxes(0, axis)


class ImageDataGenerator:
    """Batches of tensor image data with real-time augmentation (Keras 1; deprecated)."""

    def __init__(self, featurewise_center: bool = False, samplewise_center: bool = False,
                 featurewise_std_normalization: bool = False, samplewise_std_normalization: bool = False,
                 zca_whitening: bool = False, zca_epsilon: float = 1e-6, rotation_range: Any = 0,
                 width_shift_range: Any = 0.0, height_shift_range: Any = 0.0, brightness_range: Any = None,
                 shear_range: Any = 0.0, zoom_range: Any = 0.0, channel_shift_range: Any = 0.0,
                 fill_mode: str = "nearest", cval: float = 0.0, horizontal_flip: bool = False,
                 vertical_flip: bool = False, rescale: Any = None, preprocessing_function: Any = None,
                 data_format: Any = None, validation_split: float = 0.0, interpolation_order: int = 1,
                 dtype: Any = None) -> None:
        if data_format is None:
            data_format = config.image_data_format()
        if dtype is None:
            dtype = config.floatx()
        self.featurewise_center = featurewise_center
        self.samplewise_center = samplewise_center
        self.featurewise_std_normalization = featurewise_std_normalization
        self.samplewise_std_normalization = samplewise_std_normalization
        self.zca_whitening = zca_whitening
        self.zca_epsilon = zca_epsilon
        self.rotation_range = rotation_range
        self.width_shift_range = width_shift_range
        self.height_shift_range = height_shift_range
        self.shear_range = shear_range
        self.zoom_range: Any = zoom_range
        self.channel_shift_range = channel_shift_range
        self.fill_mode = fill_mode
        self.cval = cval
        self.horizontal_flip = horizontal_flip
        self.vertical_flip = vertical_flip
        self.rescale = rescale
        self.preprocessing_function = preprocessing_function
        self.dtype = dtype
        self.interpolation_order = interpolation_order
        if data_format not in {"channels_last", "channels_first"}:
            raise ValueError('`data_format` should be `"channels_last"` (channel after row and column) or '
                             f'`"channels_first"` (channel before row and column). Received: {data_format}')
        self.data_format = data_format
        if data_format == "channels_first":
            self.channel_axis, self.row_axis, self.col_axis = 1, 2, 3
        if data_format == "channels_last":
            self.channel_axis, self.row_axis, self.col_axis = 3, 1, 2
        if validation_split and not 0 < validation_split < 1:
            raise ValueError(f"`validation_split` must be strictly between 0 and 1.  Received: {validation_split}")
        self._validation_split = validation_split
        self.mean: Any = None
        self.std: Any = None
        self.zca_whitening_matrix: Any = None
        if isinstance(zoom_range, (float, int)):
            self.zoom_range = [1 - zoom_range, 1 + zoom_range]
        elif len(zoom_range) == 2 and all(isinstance(val, (float, int)) for val in zoom_range):
            self.zoom_range = [zoom_range[0], zoom_range[1]]
        else:
            raise ValueError("`zoom_range` should be a float or a tuple or list of two floats. "
                             f"Received: {zoom_range}")
        if zca_whitening:
            if not featurewise_center:
                self.featurewise_center = True
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, which overrides setting of "
                              "`featurewise_center`.")
            if featurewise_std_normalization:
                self.featurewise_std_normalization = False
                warnings.warn("This ImageDataGenerator specifies `zca_whitening` which overrides setting "
                              "of`featurewise_std_normalization`.")
        if featurewise_std_normalization and not featurewise_center:
            self.featurewise_center = True
            warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, which overrides "
                          "setting of `featurewise_center`.")
        if samplewise_std_normalization and not samplewise_center:
            self.samplewise_center = True
            warnings.warn("This ImageDataGenerator specifies `samplewise_std_normalization`, which overrides "
                          "setting of `samplewise_center`.")
        if brightness_range is not None:
            if not isinstance(brightness_range, (tuple, list)) or len(brightness_range) != 2:
                raise ValueError("`brightness_range should be tuple or list of two floats. "
                                 f"Received: {brightness_range}")
        self.brightness_range = brightness_range

    def flow(self, x: Any, y: Any = None, batch_size: int = 32, shuffle: bool = True, sample_weight: Any = None,
             seed: Any = None, save_to_dir: Any = None, save_prefix: str = "", save_format: str = "png",
             ignore_class_split: bool = False, subset: Any = None) -> NumpyArrayIterator:
        """Batches of augmented images of the arrays `x` (rank 4) and labels `y`."""
        return NumpyArrayIterator(x, y, self, batch_size=batch_size, shuffle=shuffle, sample_weight=sample_weight,
                                  seed=seed, data_format=self.data_format, save_to_dir=save_to_dir,
                                  save_prefix=save_prefix, save_format=save_format,
                                  ignore_class_split=ignore_class_split, subset=subset, dtype=self.dtype)

    def flow_from_directory(self, directory: Any, target_size: Any = (256, 256), color_mode: str = "rgb",
                            classes: Any = None, class_mode: Any = "categorical", batch_size: int = 32,
                            shuffle: bool = True, seed: Any = None, save_to_dir: Any = None, save_prefix: str = "",
                            save_format: str = "png", follow_links: bool = False, subset: Any = None,
                            interpolation: str = "nearest", keep_aspect_ratio: bool = False) -> DirectoryIterator:
        """Batches of augmented images read from `directory`'s class folders."""
        return DirectoryIterator(directory, self, target_size=target_size, color_mode=color_mode,
                                 keep_aspect_ratio=keep_aspect_ratio, classes=classes, class_mode=class_mode,
                                 data_format=self.data_format, batch_size=batch_size, shuffle=shuffle, seed=seed,
                                 save_to_dir=save_to_dir, save_prefix=save_prefix, save_format=save_format,
                                 follow_links=follow_links, subset=subset, interpolation=interpolation,
                                 dtype=self.dtype)

    def flow_from_dataframe(self, dataframe: Any, directory: Any = None, x_col: str = "filename",
                            y_col: Any = "class", weight_col: Any = None, target_size: Any = (256, 256),
                            color_mode: str = "rgb", classes: Any = None, class_mode: Any = "categorical",
                            batch_size: int = 32, shuffle: bool = True, seed: Any = None, save_to_dir: Any = None,
                            save_prefix: str = "", save_format: str = "png", subset: Any = None,
                            interpolation: str = "nearest", validate_filenames: bool = True,
                            **kwargs: Any) -> DataFrameIterator:
        """Batches of augmented images named by a pandas DataFrame's `x_col`."""
        if "has_ext" in kwargs:
            warnings.warn("has_ext is deprecated, filenames in the dataframe have to match the exact filenames in "
                          "disk.", DeprecationWarning)
        if "sort" in kwargs:
            warnings.warn("sort is deprecated, batches will be created in thesame order than the filenames provided "
                          "if `shuffle`is set to `False`.", DeprecationWarning)
        if class_mode == "other":
            warnings.warn('`class_mode="other"` is deprecated, please use `class_mode="raw"`.', DeprecationWarning)
            class_mode = "raw"
        if "drop_duplicates" in kwargs:
            warnings.warn("drop_duplicates is deprecated, you can drop duplicates by using the "
                          "pandas.DataFrame.drop_duplicates method.", DeprecationWarning)
        return DataFrameIterator(dataframe, directory, self, x_col=x_col, y_col=y_col, weight_col=weight_col,
                                 target_size=target_size, color_mode=color_mode, classes=classes,
                                 class_mode=class_mode, data_format=self.data_format, batch_size=batch_size,
                                 shuffle=shuffle, seed=seed, save_to_dir=save_to_dir, save_prefix=save_prefix,
                                 save_format=save_format, subset=subset, interpolation=interpolation,
                                 validate_filenames=validate_filenames, dtype=self.dtype)

    def standardize(self, x: Any) -> Any:
        """`x` (one image or a batch) normalized as configured; in place where Keras works in place."""
        if self.preprocessing_function:
            x = self.preprocessing_function(x)
        if self.rescale:
            x *= self.rescale
        if self.samplewise_center:
            x -= np.mean(x, keepdims=True)
        if self.samplewise_std_normalization:
            x /= np.std(x, keepdims=True) + 1e-6
        if self.featurewise_center:
            if self.mean is not None:
                x -= self.mean
            else:
                warnings.warn("This ImageDataGenerator specifies `featurewise_center`, but it hasn't been fit on any "
                              "training data. Fit it first by calling `.fit(numpy_data)`.")
        if self.featurewise_std_normalization:
            if self.std is not None:
                x /= self.std + 1e-6
            else:
                warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, but it hasn't been "
                              "fit on any training data. Fit it first by calling `.fit(numpy_data)`.")
        if self.zca_whitening:
            if self.zca_whitening_matrix is not None:
                flat_x = x.reshape(-1, math.prod(x.shape[-3:]))
                white_x = flat_x @ self.zca_whitening_matrix
                x = np.reshape(white_x, x.shape)
            else:
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, but it hasn't been fit on any "
                              "training data. Fit it first by calling `.fit(numpy_data)`.")
        return x

    def get_random_transform(self, img_shape: Any, seed: Any = None) -> dict:
        """A random transformation's parameters for an image of `img_shape`, drawn in Keras's order."""
        img_row_axis = self.row_axis - 1
        img_col_axis = self.col_axis - 1
        if seed is not None:
            np.random.seed(seed)
        theta = np.random.uniform(-self.rotation_range, self.rotation_range) if self.rotation_range else 0
        tx: Any = 0
        if self.height_shift_range:
            try:   # a 1-D array-like or an int
                tx = np.random.choice(self.height_shift_range)
                tx *= np.random.choice([-1, 1])
            except ValueError:   # a float
                tx = np.random.uniform(-self.height_shift_range, self.height_shift_range)
            if np.max(self.height_shift_range) < 1:
                tx *= img_shape[img_row_axis]
        ty: Any = 0
        if self.width_shift_range:
            try:
                ty = np.random.choice(self.width_shift_range)
                ty *= np.random.choice([-1, 1])
            except ValueError:
                ty = np.random.uniform(-self.width_shift_range, self.width_shift_range)
            if np.max(self.width_shift_range) < 1:
                ty *= img_shape[img_col_axis]
        shear = np.random.uniform(-self.shear_range, self.shear_range) if self.shear_range else 0
        if self.zoom_range[0] == 1 and self.zoom_range[1] == 1:
            zx, zy = 1, 1
        else:
            zx, zy = np.random.uniform(self.zoom_range[0], self.zoom_range[1], 2)
        flip_horizontal = (np.random.random() < 0.5) * self.horizontal_flip
        flip_vertical = (np.random.random() < 0.5) * self.vertical_flip
        channel_shift_intensity = None
        if self.channel_shift_range != 0:
            channel_shift_intensity = np.random.uniform(-self.channel_shift_range, self.channel_shift_range)
        brightness = None
        if self.brightness_range is not None:
            brightness = np.random.uniform(self.brightness_range[0], self.brightness_range[1])
        return {"theta": theta, "tx": tx, "ty": ty, "shear": shear, "zx": zx, "zy": zy,
                "flip_horizontal": flip_horizontal, "flip_vertical": flip_vertical,
                "channel_shift_intensity": channel_shift_intensity, "brightness": brightness}

    def apply_transform(self, x: Any, transform_parameters: dict) -> np.ndarray:
        """One image (rank 3) transformed by the parameters of `get_random_transform`."""
        img_row_axis = self.row_axis - 1
        img_col_axis = self.col_axis - 1
        img_channel_axis = self.channel_axis - 1
        x = _transforms.apply_affine_transform(
            x, transform_parameters.get("theta", 0), transform_parameters.get("tx", 0),
            transform_parameters.get("ty", 0), transform_parameters.get("shear", 0),
            transform_parameters.get("zx", 1), transform_parameters.get("zy", 1), row_axis=img_row_axis,
            col_axis=img_col_axis, channel_axis=img_channel_axis, fill_mode=self.fill_mode, cval=self.cval,
            order=self.interpolation_order)
        if transform_parameters.get("channel_shift_intensity") is not None:
            x = _transforms.apply_channel_shift(x, transform_parameters["channel_shift_intensity"], img_channel_axis)
        if transform_parameters.get("flip_horizontal", False):
            x = flip_axis(x, img_col_axis)
        if transform_parameters.get("flip_vertical", False):
            x = flip_axis(x, img_row_axis)
        if transform_parameters.get("brightness") is not None:
            x = _transforms.apply_brightness_shift(x, transform_parameters["brightness"], False)
        return x

    def random_transform(self, x: Any, seed: Any = None) -> np.ndarray:
        """One image (rank 3) randomly transformed."""
        return self.apply_transform(x, self.get_random_transform(x.shape, seed))

    def fit(self, x: Any, augment: bool = False, rounds: int = 1, seed: Any = None) -> None:
        """The feature-wise statistics (mean, std, ZCA matrix) of the images `x` (rank 4), optionally
        over `rounds` augmented copies."""
        x = np.asarray(x, dtype=self.dtype)
        if x.ndim != 4:
            raise ValueError("Input to `.fit()` should have rank 4. Got array with shape: " + str(x.shape))
        if x.shape[self.channel_axis] not in {1, 3, 4}:
            warnings.warn("Expected input to be images (as Numpy array) following the data format convention "
                          f'"{self.data_format}" (channels on axis {self.channel_axis}), i.e. expected either 1, 3 '
                          f"or 4 channels on axis {self.channel_axis}. However, it was passed an array with shape "
                          f"{x.shape} ({x.shape[self.channel_axis]} channels).")
        if seed is not None:
            np.random.seed(seed)
        x = np.copy(x)
        if self.rescale:
            x *= self.rescale
        if augment:
            ax = np.zeros(tuple([rounds * x.shape[0]] + list(x.shape)[1:]), dtype=self.dtype)
            for r in range(rounds):
                for i in range(x.shape[0]):
                    ax[i + r * x.shape[0]] = self.random_transform(x[i])
            x = ax
        if self.featurewise_center:
            self.mean = np.mean(x, axis=(0, self.row_axis, self.col_axis))
            broadcast_shape = [1, 1, 1]
            broadcast_shape[self.channel_axis - 1] = x.shape[self.channel_axis]
            self.mean = np.reshape(self.mean, broadcast_shape)
            x -= self.mean
        if self.featurewise_std_normalization:
            self.std = np.std(x, axis=(0, self.row_axis, self.col_axis))
            broadcast_shape = [1, 1, 1]
            broadcast_shape[self.channel_axis - 1] = x.shape[self.channel_axis]
            self.std = np.reshape(self.std, broadcast_shape)
            x /= self.std + 1e-6
        if self.zca_whitening:
            n = len(x)
            flat_x = np.reshape(x, (n, -1))
            u, s, _ = np.linalg.svd(flat_x.T, full_matrices=False)
            s_inv = np.sqrt(n) / (s + self.zca_epsilon)
            self.zca_whitening_matrix = (u * s_inv).dot(u.T)
