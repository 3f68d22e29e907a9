"""`keras.utils.split_dataset` (Keras 3.15's keras/src/utils/dataset_utils.py, the TensorFlow path):
a small in-memory dataset — a tf.data.Dataset, a NumPy array, or a list/tuple of arrays of one
length — cut into a left and a right `tf.data.Dataset`, optionally shuffled first.

Differences from Keras, on purpose: Keras warns (ResourceWarning) when reading the dataset takes over
10 s of wall time; simdist reads no wall clock, so it does not. An unseeded shuffle draws its seed
from Python's `random` after `keras.utils.set_random_seed` (as Keras), else from the session's root
seed; the shuffle then reseeds Python's global `random` with it, as Keras's does."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

__all__ = ["split_dataset"]

SPLIT_OP_SEED = 0x53504C54   # "SPLT": an unseeded shuffle's seed when the program seeded nothing


def _is_tf_dataset(x: Any) -> bool:
    from simdist.keras.trainers.data_adapter import is_tf_dataset
    return is_tf_dataset(x)


def _get_type_spec(dataset: Any) -> Any:
    from simdist import tf
    if isinstance(dataset, tuple):
        return tuple
    if isinstance(dataset, list):
        return list
    if isinstance(dataset, np.ndarray):
        return np.ndarray
    if _is_tf_dataset(dataset):
        return tf.data.Dataset
    return None


def is_batched(dataset: Any) -> bool:
    return hasattr(dataset, "_batch_size")


def get_batch_size(dataset: Any) -> Any:
    return dataset._batch_size if is_batched(dataset) else None


def _iterator(dataset: Any, spec: Any) -> Any:
    if spec in (list, tuple):
        kind = "list" if spec is list else "tuple"
        if len(dataset) == 0:
            raise ValueError(f"Received an empty {kind} dataset. Please provide a non-empty {kind} of arrays.")
        expected = None
        for i, element in enumerate(dataset):
            if not isinstance(element, np.ndarray):
                raise ValueError(f"Expected a {kind} of `numpy.ndarray` objects,Received: {type(element)} at index {i}.")
            if expected is None:
                expected = element.shape
            elif element.shape[0] != expected[0]:
                raise ValueError(f"Received a {kind} of NumPy arrays with different lengths.Mismatch found at index {i}, "
                                 f"Expected shape={expected} Received shape={np.array(element).shape}.Please provide a "
                                 f"{kind} of NumPy arrays of the same length.")
        return iter(zip(*dataset))
    if _is_tf_dataset(dataset):
        return iter(dataset.unbatch() if is_batched(dataset) else dataset)
    if spec is np.ndarray:
        return iter(dataset)
    raise ValueError(f"Invalid dataset_type_spec: {spec}")


def _as_list(dataset: Any, spec: Any) -> list:
    from simdist import tf
    it = iter(_iterator(dataset, spec))
    try:
        first = next(it)
    except StopIteration:
        raise ValueError("Received an empty dataset. Argument `dataset` must be a non-empty list/tuple of "
                         "`numpy.ndarray` objects or `tf.data.Dataset` objects.") from None
    shape = np.array(first).shape if isinstance(first, (np.ndarray, tf.Tensor)) else None
    out = [first]
    for i, sample in enumerate(it):
        if shape is not None and np.array(sample).shape != shape:
            raise ValueError(f"All `dataset` samples must have same shape, Expected shape: {shape} Received shape: "
                             f"{np.array(sample).shape} at index {i}.")
        out.append(sample)
    return out


def _rescale(left_size: Any, right_size: Any, total: int) -> tuple[int, int]:
    lt, rt = type(left_size), type(right_size)
    if (left_size is not None and lt not in (int, float)) and (right_size is not None and rt not in (int, float)):
        raise TypeError("Invalid `left_size` and `right_size` Types. Expected: integer or float or None, Received: "
                        f"type(left_size)={lt} and type(right_size)={rt}")
    if left_size is not None and lt not in (int, float):
        raise TypeError(f"Invalid `left_size` Type. Expected: int or float or None, Received: type(left_size)={lt}.  ")
    if right_size is not None and rt not in (int, float):
        raise TypeError(f"Invalid `right_size` Type. Expected: int or float or None,Received: type(right_size)={rt}.")
    if left_size == 0 and right_size == 0:
        raise ValueError("Both `left_size` and `right_size` are zero. At least one of the split sizes must be non-zero.")
    if (lt is int and (left_size <= 0 or left_size >= total)) or (lt is float and (left_size <= 0 or left_size >= 1)):
        raise ValueError(f"`left_size` should be either a positive integer smaller than {total}, or a float within the "
                         f"range `[0, 1]`. Received: left_size={left_size}")
    if (rt is int and (right_size <= 0 or right_size >= total)) or (rt is float and (right_size <= 0 or right_size >= 1)):
        raise ValueError(f"`right_size` should be either a positive integer and smaller than {total} or a float within "
                         f"the range `[0, 1]`. Received: right_size={right_size}")
    if rt is lt is float and right_size + left_size > 1:
        raise ValueError("The sum of `left_size` and `right_size` is greater than 1. It must be less than or equal to 1.")
    left = round(left_size * total) if lt is float else (float(left_size) if lt is int else None)
    right = round(right_size * total) if rt is float else (float(right_size) if rt is int else None)
    if left is None:
        left = total - right
    elif right is None:
        right = total - left
    if left + right > total:
        raise ValueError(f"The sum of `left_size` and `right_size` should be smaller than the {total}. Received: "
                         f"left_size + right_size = {left + right}and total_length = {total}")
    for split, side in ((left, "left"), (right, "right")):
        if split == 0:
            raise ValueError(f"With `dataset` of length={total}, `left_size`={left} and `right_size`={right}.Resulting "
                             f"{side} side dataset split will be empty. Adjust any of the aforementioned parameters")
    return int(left), int(right)


def _restore(samples: list, spec: Any, original: Any) -> Any:
    from simdist import tf
    if spec in (tuple, list) or _is_tf_dataset(original):
        element_spec = samples[0]
        flat = [tf.nest.flatten(s) for s in samples]
        columns = [np.array(c) for c in zip(*flat)]
        packed = tf.nest.pack_sequence_as(element_spec, columns)
        return tuple(packed) if isinstance(packed, list) else packed
    return samples


def split_dataset(dataset: Any, left_size: Any = None, right_size: Any = None, shuffle: bool = False,
                  seed: int | None = None, preferred_backend: str | None = None) -> tuple[Any, Any]:
    """The first `left_size` and the last `right_size` samples (ints, or fractions of the length)
    as two `tf.data.Dataset`s, batched like a batched input dataset."""
    from simdist import tf
    if preferred_backend is None and not isinstance(dataset, (list, tuple, np.ndarray)) \
            and not _is_tf_dataset(dataset):   # (Keras's _infer_preferred_backend)
        raise TypeError(f"Unsupported dataset type: {type(dataset)}")
    if preferred_backend == "torch":
        raise ValueError("simdist has no torch: split_dataset(preferred_backend='torch') is not modelled")
    spec = _get_type_spec(dataset)
    if spec is None:
        raise TypeError("The `dataset` argument must be eithera `tf.data.Dataset` object, ora list/tuple of arrays. "
                        f"Received: dataset={dataset} of type {type(dataset)}")
    if right_size is None and left_size is None:
        raise ValueError("At least one of the `left_size` or `right_size` must be specified. Received: left_size=None "
                         "and right_size=None")
    samples = _as_list(dataset, spec)
    if shuffle:
        if seed is None:
            seed = (random.randint(0, int(1e6)) if tf.random._simdist_python_seeded()
                    else tf.random._simdist_default_seed(SPLIT_OP_SEED, 0, int(1e6)))
        random.seed(seed)
        random.shuffle(samples)
    left, right = _rescale(left_size, right_size, len(samples))
    left_split = tf.data.Dataset.from_tensor_slices(_restore(list(samples[:left]), spec, dataset))
    right_split = tf.data.Dataset.from_tensor_slices(_restore(list(samples[-right:]), spec, dataset))
    if spec is tf.data.Dataset and is_batched(dataset):
        batch_size = get_batch_size(dataset)
        if batch_size is not None:
            left_split, right_split = left_split.batch(batch_size), right_split.batch(batch_size)
    return left_split.prefetch(tf.data.AUTOTUNE), right_split.prefetch(tf.data.AUTOTUNE)
