"""Keras 3's keras/src/utils/dataset_utils.py helpers for the *_dataset_from_directory utilities:
index_directory (class subdirectories sorted, files walked in sorted order, then both lists
shuffled with np.random.RandomState(seed)), check_validation_split_arg,
get_training_or_validation_split (the last int(split * n) files are validation) and
labels_to_dataset (int, "binary" float32 [1], "categorical" one-hot). Clause
keras.dataset-from-directory."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from simdist.keras.io_utils import print_msg

__all__ = ["index_directory", "check_validation_split_arg", "get_training_or_validation_split",
           "labels_to_dataset"]


def _valid_files(directory: str, follow_links: bool, formats: tuple[str, ...]) -> list[tuple[str, str]]:
    out = []
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links), key=lambda x: x[0]):
        for fname in sorted(files):
            if fname.lower().endswith(formats):
                out.append((root, fname))
    return out


def _index_subdirectory(directory: str, label: int, follow_links: bool,
                        formats: tuple[str, ...]) -> tuple[list[str], list[int]]:
    dirname = os.path.basename(directory)
    names, labels = [], []
    for root, fname in _valid_files(directory, follow_links, formats):
        labels.append(label)
        names.append(os.path.join(dirname, os.path.relpath(os.path.join(root, fname), directory)))
    return names, labels


def index_directory(directory: str, labels: Any, formats: tuple[str, ...], class_names: Any = None,
                    shuffle: bool = True, seed: int | None = None, follow_links: bool = False,
                    verbose: bool = True) -> tuple[list[str], Any, Any]:
    """(file paths, labels, class names) as Keras's index_directory lists and shuffles them."""
    if labels == "inferred":
        subdirs = []
        for subdir in sorted(os.listdir(directory)):
            if os.path.isdir(os.path.join(directory, subdir)) and not subdir.startswith("."):
                subdirs.append(subdir[:-1] if subdir.endswith("/") else subdir)
        if class_names is not None:
            if not set(class_names).issubset(set(subdirs)):
                raise ValueError("The `class_names` passed did not match the names of the subdirectories of the "
                                 f"target directory. Expected: {subdirs} (or a subset of it), but received: "
                                 f"class_names={class_names}")
            subdirs = class_names
    else:
        subdirs = [""]
        if class_names is not None:
            if labels is None:
                raise ValueError("When `labels=None` (no labels), argument `class_names` cannot be specified.")
            raise ValueError("When argument `labels` is specified, argument `class_names` cannot be specified (the "
                             "`class_names` will be the sorted list of labels).")
    class_names = subdirs
    filenames: list[str] = []
    labels_list: list[list[int]] = []
    for i, subdir in enumerate(subdirs):
        names, labs = _index_subdirectory(os.path.join(directory, subdir), i, follow_links, formats)
        filenames += names
        labels_list.append(labs)
    if labels == "inferred":
        labels = np.zeros((len(filenames),), dtype="int32")
        i = 0
        for part in labels_list:
            labels[i:i + len(part)] = part
            i += len(part)
    elif labels is None:
        class_names = None
    else:
        if len(labels) != len(filenames):
            raise ValueError("Expected the lengths of `labels` to match the number of files in the target directory. "
                             f"len(labels) is {len(labels)} while we found {len(filenames)} files in directory "
                             f"{directory}.")
        class_names = [str(label) for label in sorted(set(labels))]
    if verbose:
        if labels is None:
            print_msg(f"Found {len(filenames)} files.")
        else:
            print_msg(f"Found {len(filenames)} files belonging to {len(class_names)} classes.")
    file_paths = [os.path.join(directory, f) for f in filenames]
    if shuffle:
        if seed is None:
            from simdist import tf   # (Keras draws np.random.randint(1e6) from NumPy's global stream; simdist's
            seed = tf.random._simdist_numpy_seed(1e6)   # stream is that one once seeded, else the root seed's)
        np.random.RandomState(seed).shuffle(file_paths)
        if labels is not None:
            np.random.RandomState(seed).shuffle(labels)
    return file_paths, labels, class_names


def check_validation_split_arg(validation_split: Any, subset: Any, shuffle: bool, seed: Any) -> None:
    """Keras's checks of validation_split / subset / seed."""
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: {validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError(f'`subset` must be either "training", "validation" or "both", received: {subset}')
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide a `seed` argument, to "
                         "make sure that there is no overlap between the training and validation subset.")


def get_training_or_validation_split(samples: Any, labels: Any, validation_split: Any, subset: Any) -> tuple:
    """The training part (all but the last int(split * n)) or the validation part (those)."""
    if not validation_split:
        return samples, labels
    num_val = int(validation_split * len(samples))
    if subset == "training":
        print_msg(f"Using {len(samples) - num_val} files for training.")
        samples = samples[:-num_val]
        if labels is not None:
            labels = labels[:-num_val]
    elif subset == "validation":
        print_msg(f"Using {num_val} files for validation.")
        samples = samples[-num_val:]
        if labels is not None:
            labels = labels[-num_val:]
    else:
        raise ValueError(f'`subset` must be either "training" or "validation", received: {subset}')
    return samples, labels


def labels_to_dataset(labels: Any, label_mode: str, num_classes: int) -> Any:
    """Keras's labels_to_dataset_tf: int labels, "binary" as float32 [1], "categorical" one-hot."""
    from simdist import tf
    ds = tf.data.Dataset.from_tensor_slices(labels)
    if label_mode == "binary":
        ds = ds.map(lambda x: tf.expand_dims(tf.cast(x, "float32"), axis=-1), num_parallel_calls=tf.data.AUTOTUNE)
    elif label_mode == "categorical":
        ds = ds.map(lambda x: tf.one_hot(x, num_classes), num_parallel_calls=tf.data.AUTOTUNE)
    return ds
