"""Keras 1's image iterators (`tf.keras.preprocessing.image.Iterator`, `NumpyArrayIterator`,
`DirectoryIterator`, and the DataFrameIterator behind `flow_from_dataframe`): PyDatasets that batch
images through an ImageDataGenerator's random transforms (clause keras.preprocessing.image-generator).

Ported line by line from Keras 3.15 (keras/src/legacy/preprocessing/image.py, deprecated there): the
shuffling and the transforms draw from NumPy's global generator, re-seeded with `seed +
total_batches_seen` before each batch when a seed is given, as Keras's do, so a program that passes a
seed (or seeds np.random) gets Keras's batches. Two differences, neither observable in the batches:
DirectoryIterator lists its class folders one after another where Keras uses a thread pool (it
collects the results in the folders' order either way), and the lock Keras takes around the index
generator is kept.
"""

from __future__ import annotations

import collections
import os
import threading
import warnings
from typing import Any, Iterator as _PyIterator

import numpy as np

from simdist.keras import config, io_utils
from simdist.keras.trainers.py_dataset import PyDataset
from simdist.keras.utils import image_utils

__all__ = ["Iterator", "DirectoryIterator", "NumpyArrayIterator", "DataFrameIterator"]


class Iterator(PyDataset):
    """Base class of the image data iterators: implement `_get_batches_of_transformed_samples`
    (Keras 1; deprecated). `n` samples in batches of `batch_size`, shuffled each epoch when `shuffle`."""

    white_list_formats = ("png", "jpg", "jpeg", "bmp", "ppm", "tif", "tiff")

    def __init__(self, n: int, batch_size: int, shuffle: bool, seed: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.n = n
        self.batch_size = batch_size
        self.seed = seed
        self.shuffle = shuffle
        self.batch_index = 0
        self.total_batches_seen = 0
        self.lock = threading.Lock()
        self.index_array: Any = None
        self.index_generator = self._flow_index()

    def _set_index_array(self) -> None:
        self.index_array = np.arange(self.n)
        if self.shuffle:
            self.index_array = np.random.permutation(self.n)

    def __getitem__(self, idx: int) -> Any:
        if idx >= len(self):
            raise ValueError(f"Asked to retrieve element {idx}, but the Sequence has length {len(self)}")
        if self.seed is not None:
            np.random.seed(self.seed + self.total_batches_seen)
        self.total_batches_seen += 1
        if self.index_array is None:
            self._set_index_array()
        index_array = self.index_array[self.batch_size * idx: self.batch_size * (idx + 1)]
        return self._get_batches_of_transformed_samples(index_array)

    def __len__(self) -> int:
        return (self.n + self.batch_size - 1) // self.batch_size   # round up

    def on_epoch_end(self) -> None:
        self._set_index_array()

    def reset(self) -> None:
        self.batch_index = 0

    def _flow_index(self) -> _PyIterator[np.ndarray]:
        self.reset()
        while 1:
            if self.seed is not None:
                np.random.seed(self.seed + self.total_batches_seen)
            if self.batch_index == 0:
                self._set_index_array()
            current_index = 0 if self.n == 0 else (self.batch_index * self.batch_size) % self.n
            if self.n > current_index + self.batch_size:
                self.batch_index += 1
            else:
                self.batch_index = 0
            self.total_batches_seen += 1
            yield self.index_array[current_index: current_index + self.batch_size]

    def __iter__(self) -> "Iterator":
        return self

    def __next__(self) -> Any:
        with self.lock:
            index_array = next(self.index_generator)
        return self._get_batches_of_transformed_samples(index_array)

    def _get_batches_of_transformed_samples(self, index_array: np.ndarray) -> Any:
        """A batch of transformed samples of the given indices."""
        raise NotImplementedError


def _iter_valid_files(directory: str, white_list_formats: tuple, follow_links: bool) -> _PyIterator[tuple]:
    """(root, filename) of the files under `directory` with an allowed extension, in sorted order."""
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links), key=lambda x: x[0]):
        for fname in sorted(files):
            if fname.lower().endswith(".tiff"):
                warnings.warn('Using ".tiff" files with multiple bands will cause distortion. Please verify your '
                              "output.")
            if fname.lower().endswith(white_list_formats):
                yield root, fname


def _list_valid_filenames_in_directory(directory: str, white_list_formats: tuple, split: Any,
                                       class_indices: dict, follow_links: bool) -> tuple[list, list]:
    """The class indices and the paths (relative to `directory`'s parent) of a class folder's images;
    `split` (start, stop) fractions keep that part of the folder's files."""
    dirname = os.path.basename(directory)
    valid_files: Any
    if split:
        all_files = list(_iter_valid_files(directory, white_list_formats, follow_links))
        num_files = len(all_files)
        start, stop = int(split[0] * num_files), int(split[1] * num_files)
        valid_files = all_files[start:stop]
    else:
        valid_files = _iter_valid_files(directory, white_list_formats, follow_links)
    classes, filenames = [], []
    for root, fname in valid_files:
        classes.append(class_indices[dirname])
        absolute_path = os.path.join(root, fname)
        filenames.append(os.path.join(dirname, os.path.relpath(absolute_path, directory)))
    return classes, filenames


class BatchFromFilesMixin:
    """Batches of images read from files (DirectoryIterator, DataFrameIterator)."""

    def set_processing_attrs(self, image_data_generator: Any, target_size: Any, color_mode: str, data_format: str,
                             save_to_dir: Any, save_prefix: str, save_format: str, subset: Any,
                             interpolation: str, keep_aspect_ratio: bool) -> None:
        self.image_data_generator = image_data_generator
        self.target_size = tuple(target_size)
        self.keep_aspect_ratio = keep_aspect_ratio
        if color_mode not in {"rgb", "rgba", "grayscale"}:
            raise ValueError(f'Invalid color mode: {color_mode}; expected "rgb", "rgba", or "grayscale".')
        self.color_mode = color_mode
        self.data_format = data_format
        channels = {"rgba": 4, "rgb": 3}.get(color_mode, 1)
        if self.data_format == "channels_last":
            self.image_shape = self.target_size + (channels,)
        else:
            self.image_shape = (channels,) + self.target_size
        self.save_to_dir = save_to_dir
        self.save_prefix = save_prefix
        self.save_format = save_format
        self.interpolation = interpolation
        split: Any = None
        if subset is not None:
            validation_split = self.image_data_generator._validation_split
            if subset == "validation":
                split = (0, validation_split)
            elif subset == "training":
                split = (validation_split, 1)
            else:
                raise ValueError(f'Invalid subset name: {subset};expected "training" or "validation"')
        self.split = split
        self.subset = subset

    def _get_batches_of_transformed_samples(self, index_array: np.ndarray) -> Any:
        self_: Any = self
        batch_x = np.zeros((len(index_array),) + self.image_shape, dtype=self_.dtype)
        filepaths = self.filepaths
        for i, j in enumerate(index_array):
            img = image_utils.load_img(filepaths[j], color_mode=self.color_mode, target_size=self.target_size,
                                       interpolation=self.interpolation, keep_aspect_ratio=self.keep_aspect_ratio)
            x = image_utils.img_to_array(img, data_format=self.data_format)
            if hasattr(img, "close"):
                img.close()
            if self.image_data_generator:
                params = self.image_data_generator.get_random_transform(x.shape)
                x = self.image_data_generator.apply_transform(x, params)
                x = self.image_data_generator.standardize(x)
            batch_x[i] = x
        if self.save_to_dir:
            for i, j in enumerate(index_array):
                img = image_utils.array_to_img(batch_x[i], self.data_format, scale=True)
                fname = f"{self.save_prefix}_{j}_{np.random.randint(1e7)}.{self.save_format}"
                img.save(os.path.join(self.save_to_dir, fname))
        class_mode = self_.class_mode
        batch_y: Any
        if class_mode == "input":
            batch_y = batch_x.copy()
        elif class_mode in {"binary", "sparse"}:
            batch_y = np.empty(len(batch_x), dtype=self_.dtype)
            for i, n_observation in enumerate(index_array):
                batch_y[i] = self_.classes[n_observation]
        elif class_mode == "categorical":
            batch_y = np.zeros((len(batch_x), len(self_.class_indices)), dtype=self_.dtype)
            for i, n_observation in enumerate(index_array):
                batch_y[i, self_.classes[n_observation]] = 1.0
        elif class_mode == "multi_output":
            batch_y = [output[index_array] for output in self.labels]
        elif class_mode == "raw":
            batch_y = self.labels[index_array]
        else:
            return batch_x
        if self.sample_weight is None:
            return batch_x, batch_y
        return batch_x, batch_y, self.sample_weight[index_array]

    @property
    def filepaths(self) -> Any:
        """The absolute paths of the image files."""
        raise NotImplementedError(f"`filepaths` property method has not been implemented in {type(self).__name__}.")

    @property
    def labels(self) -> Any:
        """The class labels of every observation."""
        raise NotImplementedError(f"`labels` property method has not been implemented in {type(self).__name__}.")

    @property
    def sample_weight(self) -> Any:
        raise NotImplementedError(
            f"`sample_weight` property method has not been implemented in {type(self).__name__}.")


class DirectoryIterator(BatchFromFilesMixin, Iterator):
    """Batches of images read from a directory of class folders (Keras 1; deprecated)."""

    allowed_class_modes = {"categorical", "binary", "sparse", "input", None}
    _MODES = "{'categorical', 'binary', 'sparse', 'input', None}"   # (the set's words, in a fixed order)

    def __init__(self, directory: Any, image_data_generator: Any, target_size: Any = (256, 256),
                 color_mode: str = "rgb", classes: Any = None, class_mode: Any = "categorical",
                 batch_size: int = 32, shuffle: bool = True, seed: Any = None, data_format: Any = None,
                 save_to_dir: Any = None, save_prefix: str = "", save_format: str = "png",
                 follow_links: bool = False, subset: Any = None, interpolation: str = "nearest",
                 keep_aspect_ratio: bool = False, dtype: Any = None) -> None:
        if data_format is None:
            data_format = config.image_data_format()
        if dtype is None:
            dtype = config.floatx()
        super().set_processing_attrs(image_data_generator, target_size, color_mode, data_format, save_to_dir,
                                     save_prefix, save_format, subset, interpolation, keep_aspect_ratio)
        self.directory = directory
        self.classes: Any = classes
        if class_mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {class_mode}; expected one of: {self._MODES}")
        self.class_mode = class_mode
        self.dtype = dtype
        self.samples = 0
        if not classes:
            classes = [subdir for subdir in sorted(os.listdir(directory))
                       if os.path.isdir(os.path.join(directory, subdir))]
        self.num_classes = len(classes)
        self.class_indices = dict(zip(classes, range(len(classes))))
        # (Keras lists the folders on a thread pool and collects the results in this order)
        results = [_list_valid_filenames_in_directory(os.path.join(directory, subdir), self.white_list_formats,
                                                      self.split, self.class_indices, follow_links)
                   for subdir in classes]
        self.filenames: list = []
        classes_list = []
        for cls, filenames in results:
            classes_list.append(cls)
            self.filenames += filenames
        self.samples = len(self.filenames)
        self.classes = np.zeros((self.samples,), dtype="int32")
        i = 0
        for cls in classes_list:
            self.classes[i: i + len(cls)] = cls
            i += len(cls)
        io_utils.print_msg(f"Found {self.samples} images belonging to {self.num_classes} classes.")
        self._filepaths = [os.path.join(self.directory, fname) for fname in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    @property
    def filepaths(self) -> list:
        return self._filepaths

    @property
    def labels(self) -> Any:
        return self.classes

    @property
    def sample_weight(self) -> None:
        return None


class NumpyArrayIterator(Iterator):
    """Batches of a NumPy array of images (rank 4), with labels and sample weights (Keras 1; deprecated)."""

    def __init__(self, x: Any, y: Any, image_data_generator: Any, batch_size: int = 32, shuffle: bool = False,
                 sample_weight: Any = None, seed: Any = None, data_format: Any = None, save_to_dir: Any = None,
                 save_prefix: str = "", save_format: str = "png", subset: Any = None,
                 ignore_class_split: bool = False, dtype: Any = None) -> None:
        if data_format is None:
            data_format = config.image_data_format()
        if dtype is None:
            dtype = config.floatx()
        self.dtype = dtype
        if isinstance(x, (tuple, list)):
            x_misc = [np.asarray(x[1])] if not isinstance(x[1], list) else [np.asarray(xx) for xx in x[1]]
            x = x[0]
            for xx in x_misc:
                if len(x) != len(xx):
                    raise ValueError("All of the arrays in `x` should have the same length. Found a pair with: "
                                     f"len(x[0]) = {len(x)}, len(x[?]) = {len(xx)}")
        else:
            x_misc = []
        if y is not None and len(x) != len(y):
            raise ValueError("`x` (images tensor) and `y` (labels) should have the same length. "
                             f"Found: x.shape = {np.asarray(x).shape}, y.shape = {np.asarray(y).shape}")
        if sample_weight is not None and len(x) != len(sample_weight):
            raise ValueError("`x` (images tensor) and `sample_weight` should have the same length. "
                             f"Found: x.shape = {np.asarray(x).shape}, "
                             f"sample_weight.shape = {np.asarray(sample_weight).shape}")
        if subset is not None:
            if subset not in {"training", "validation"}:
                raise ValueError(f'Invalid subset name: {subset}; expected "training" or "validation".')
            split_idx = int(len(x) * image_data_generator._validation_split)
            if (y is not None and not ignore_class_split
                    and not np.array_equal(np.unique(y[:split_idx]), np.unique(y[split_idx:]))):
                raise ValueError("Training and validation subsets have different number of classes after the "
                                 "split. If your numpy arrays are sorted by the label, you might want to shuffle "
                                 "them.")
            if subset == "validation":
                x = x[:split_idx]
                x_misc = [np.asarray(xx[:split_idx]) for xx in x_misc]
                if y is not None:
                    y = y[:split_idx]
            else:
                x = x[split_idx:]
                x_misc = [np.asarray(xx[split_idx:]) for xx in x_misc]
                if y is not None:
                    y = y[split_idx:]
        self.x = np.asarray(x, dtype=self.dtype)
        self.x_misc = x_misc
        if self.x.ndim != 4:
            raise ValueError("Input data in `NumpyArrayIterator` should have rank 4. You passed an array with "
                             f"shape {self.x.shape}")
        channels_axis = 3 if data_format == "channels_last" else 1
        if self.x.shape[channels_axis] not in {1, 3, 4}:
            warnings.warn(f'NumpyArrayIterator is set to use the data format convention "{data_format}" (channels '
                          f"on axis {channels_axis}), i.e. expected either 1, 3, or 4 channels on axis "
                          f"{channels_axis}. However, it was passed an array with shape {self.x.shape} "
                          f"({self.x.shape[channels_axis]} channels).")
        self.y = np.asarray(y) if y is not None else None
        self.sample_weight = np.asarray(sample_weight) if sample_weight is not None else None
        self.image_data_generator = image_data_generator
        self.data_format = data_format
        self.save_to_dir = save_to_dir
        self.save_prefix = save_prefix
        self.save_format = save_format
        super().__init__(x.shape[0], batch_size, shuffle, seed)

    def _get_batches_of_transformed_samples(self, index_array: np.ndarray) -> Any:
        batch_x = np.zeros(tuple([len(index_array)] + list(self.x.shape)[1:]), dtype=self.dtype)
        for i, j in enumerate(index_array):
            x = self.x[j]
            params = self.image_data_generator.get_random_transform(x.shape)
            x = self.image_data_generator.apply_transform(x.astype(self.dtype), params)
            x = self.image_data_generator.standardize(x)
            batch_x[i] = x
        if self.save_to_dir:
            for i, j in enumerate(index_array):
                img = image_utils.array_to_img(batch_x[i], self.data_format, scale=True)
                fname = f"{self.save_prefix}_{j}_{np.random.randint(1e4)}.{self.save_format}"
                img.save(os.path.join(self.save_to_dir, fname))
        batch_x_miscs = [xx[index_array] for xx in self.x_misc]
        output: tuple = (batch_x if not batch_x_miscs else [batch_x] + batch_x_miscs,)
        if self.y is None:
            return output[0]
        output += (self.y[index_array],)
        if self.sample_weight is not None:
            output += (self.sample_weight[index_array],)
        return output


def validate_filename(filename: str, white_list_formats: tuple) -> bool:
    """Whether `filename` is a file with an allowed extension."""
    return filename.lower().endswith(white_list_formats) and os.path.isfile(filename)


class DataFrameIterator(BatchFromFilesMixin, Iterator):
    """Batches of images named by a pandas DataFrame's column (Keras 1; deprecated)."""

    allowed_class_modes = {"binary", "categorical", "input", "multi_output", "raw", "sparse", None}
    _MODES = "{'binary', 'categorical', 'input', 'multi_output', 'raw', 'sparse', None}"   # (a fixed order)

    def __init__(self, dataframe: Any, directory: Any = None, image_data_generator: Any = None,
                 x_col: str = "filename", y_col: Any = "class", weight_col: Any = None, target_size: Any = (256, 256),
                 color_mode: str = "rgb", classes: Any = None, class_mode: Any = "categorical", batch_size: int = 32,
                 shuffle: bool = True, seed: Any = None, data_format: str = "channels_last", save_to_dir: Any = None,
                 save_prefix: str = "", save_format: str = "png", subset: Any = None, interpolation: str = "nearest",
                 keep_aspect_ratio: bool = False, dtype: Any = "float32", validate_filenames: bool = True) -> None:
        super().set_processing_attrs(image_data_generator, target_size, color_mode, data_format, save_to_dir,
                                     save_prefix, save_format, subset, interpolation, keep_aspect_ratio)
        df = dataframe.copy()
        self.directory = directory or ""
        self.class_mode = class_mode
        self.dtype = dtype
        self._check_params(df, x_col, y_col, weight_col, classes)
        if validate_filenames:
            df = self._filter_valid_filepaths(df, x_col)
        num_classes = 0
        if class_mode not in ["input", "multi_output", "raw", None]:
            df, classes = self._filter_classes(df, y_col, classes)
            num_classes = len(classes)
            self.class_indices = dict(zip(classes, range(len(classes))))
        if self.split:
            num_files = len(df)
            start = int(self.split[0] * num_files)
            stop = int(self.split[1] * num_files)
            df = df.iloc[start:stop, :]
        if class_mode not in ["input", "multi_output", "raw", None]:
            self.classes = self.get_classes(df, y_col)
        self.filenames = df[x_col].tolist()
        self._sample_weight = df[weight_col].values if weight_col else None
        if class_mode == "multi_output":
            self._targets: Any = [np.array(df[col].tolist()) for col in y_col]
        if class_mode == "raw":
            self._targets = df[y_col].values
        self.samples = len(self.filenames)
        validated_string = "validated" if validate_filenames else "non-validated"
        if class_mode in ["input", "multi_output", "raw", None]:
            io_utils.print_msg(f"Found {self.samples} {validated_string} image filenames.")
        else:
            io_utils.print_msg(f"Found {self.samples} {validated_string} image filenames belonging to "
                               f"{num_classes} classes.")
        self._filepaths = [os.path.join(self.directory, fname) for fname in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    def _check_params(self, df: Any, x_col: str, y_col: Any, weight_col: Any, classes: Any) -> None:
        if self.class_mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {self.class_mode}; expected one of: {self._MODES}")
        if self.class_mode == "multi_output" and not isinstance(y_col, list):
            raise TypeError(f'If class_mode="{self.class_mode}", y_col must be a list. Received '
                            f"{type(y_col).__name__}.")
        if not all(df[x_col].apply(lambda x: isinstance(x, str))):
            raise TypeError(f"All values in column x_col={x_col} must be strings.")
        if self.class_mode in {"binary", "sparse"}:
            if not all(df[y_col].apply(lambda x: isinstance(x, str))):
                raise TypeError(f'If class_mode="{self.class_mode}", y_col="{y_col}" column values must be strings.')
        if self.class_mode == "binary":
            if classes:
                if len(set(classes)) != 2:
                    raise ValueError(f'If class_mode="binary" there must be 2 classes. {len(set(classes))} '
                                     "class/es were given.")
            elif df[y_col].nunique() != 2:
                raise ValueError(f'If class_mode="binary" there must be 2 classes. Found {df[y_col].nunique()} '
                                 "classes.")
        if self.class_mode == "categorical":
            types = (str, list, tuple)
            if not all(df[y_col].apply(lambda x: isinstance(x, types))):
                raise TypeError(f'If class_mode="{self.class_mode}", y_col="{y_col}" column values must be type '
                                "string, list or tuple.")
        if classes and self.class_mode in {"input", "multi_output", "raw", None}:
            warnings.warn(f'`classes` will be ignored given the class_mode="{self.class_mode}"')
        if weight_col and not issubclass(df[weight_col].dtype.type, np.number):
            raise TypeError(f"Column weight_col={weight_col} must be numeric.")

    def get_classes(self, df: Any, y_col: Any) -> list:
        labels = []
        for label in df[y_col]:
            if isinstance(label, (list, tuple)):
                labels.append([self.class_indices[lbl] for lbl in label])
            else:
                labels.append(self.class_indices[label])
        return labels

    @staticmethod
    def _filter_classes(df: Any, y_col: Any, classes: Any) -> tuple[Any, list]:
        df = df.copy()

        def remove_classes(labels: Any, classes: list) -> Any:
            if isinstance(labels, (list, tuple)):
                labels = [cls for cls in labels if cls in classes]
                return labels or None
            if isinstance(labels, str):
                return labels if labels in classes else None
            raise TypeError(f"Expect string, list or tuple but found {type(labels)} in {y_col} column ")

        if classes:
            classes = list(collections.OrderedDict.fromkeys(classes).keys())
            df[y_col] = df[y_col].apply(lambda x: remove_classes(x, classes))
        else:
            found: set = set()
            for v in df[y_col]:
                if isinstance(v, (list, tuple)):
                    found.update(v)
                else:
                    found.add(v)
            classes = sorted(found)      # (sorted: the set's order never reaches the result)
        return df.dropna(subset=[y_col]), classes

    def _filter_valid_filepaths(self, df: Any, x_col: str) -> Any:
        filepaths = df[x_col].map(lambda fname: os.path.join(self.directory, fname))
        mask = filepaths.apply(validate_filename, args=(self.white_list_formats,))
        n_invalid = (~mask).sum()
        if n_invalid:
            warnings.warn(f'Found {n_invalid} invalid image filename(s) in x_col="{x_col}". These filename(s) will '
                          "be ignored.")
        return df[mask]

    @property
    def filepaths(self) -> list:
        return self._filepaths

    @property
    def labels(self) -> Any:
        if self.class_mode in {"multi_output", "raw"}:
            return self._targets
        return self.classes

    @property
    def sample_weight(self) -> Any:
        return self._sample_weight
