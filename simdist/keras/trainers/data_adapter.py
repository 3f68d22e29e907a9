"""Keras 3.15's array and tf.data adapters for the TensorFlow backend
(keras/src/trainers/data_adapters), on simdist.tf, and the packing helpers they share. Which
adapter reads `x`, and the epoch iterator, are in epoch_iterator.py; Python generators in
generator_adapter.py, PyDatasets in py_dataset.py.

- NumPy arrays / tensors (nested in tuples, lists, dicts) become a `tf.data.Dataset` of batches
  of `batch_size` (default 32) with a partial last batch; `shuffle=True` permutes the samples
  with Keras's own pipeline (a `tf.random.shuffle` inside a tf.data function): TF's orders bit
  for bit, the same permutation every epoch under a global seed as on TF (clause
  keras.init.seeding); without one TF draws nondeterministic seeds, simdist seeds derived from
  the session's root seed.
- A `tf.data.Dataset` is used as is (`class_weight` mapped onto it); a distributed dataset too.
- epoch_iterator.py distributes the dataset with `strategy.experimental_distribute_dataset`, as
  Keras's TF trainer does: under Mirrored each global batch is split across the replicas, a partial last
  batch split as tf.distribute splits it (clause keras.fit.partial-batch).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simdist import tf
from simdist.keras import config as keras_config, dtype_policies


# --- packing ---------------------------------------------------------------------------------------
def unpack_x_y_sample_weight(data: Any) -> tuple[Any, Any, Any]:
    """`(x,)`, `(x, y)` or `(x, y, sample_weight)` (a list counts as a tuple) -> (x, y, sw)."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return (data, None, None)
    if len(data) == 1:
        return (data[0], None, None)
    if len(data) == 2:
        return (data[0], data[1], None)
    if len(data) == 3:
        return (data[0], data[1], data[2])
    raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, "
                     f"found: {data}")


def pack_x_y_sample_weight(x: Any, y: Any = None, sample_weight: Any = None) -> Any:
    if y is None:
        return x if not isinstance(x, (tuple, list)) else (x,)
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def _flatten(data: Any) -> list[Any]:
    """Leaves of a nested structure of arrays, None kept as a leaf (Keras's tree.flatten)."""
    if isinstance(data, dict):
        return [leaf for k in sorted(data) for leaf in _flatten(data[k])]
    if isinstance(data, (list, tuple)):
        return [leaf for v in data for leaf in _flatten(v)]
    return [data]


def _map(fn: Any, data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _map(fn, v) for k, v in data.items()}
    if isinstance(data, list):
        return tuple(_map(fn, v) for v in data)  # tf.data stacks lists: Keras makes them tuples
    if isinstance(data, tuple):
        return tuple(_map(fn, v) for v in data)
    return None if data is None else fn(data)


def _is_array(v: Any) -> bool:
    return v is None or isinstance(v, (np.ndarray, tf.Tensor, tf.Variable)) or \
        (hasattr(v, "__array__") and hasattr(v, "shape") and hasattr(v, "dtype"))


def can_convert_arrays(arrays: Any) -> bool:
    return all(_is_array(v) for v in _flatten(arrays))


def _to_numpy(v: Any) -> np.ndarray:
    if hasattr(v, "numpy"):
        return np.asarray(v.numpy())
    return np.asarray(v)


def check_data_cardinality(data: Any) -> None:
    sizes = sorted({int(np.shape(i)[0]) for i in _flatten(data) if i is not None})
    if len(sizes) > 1:
        msg = "Data cardinality is ambiguous. Make sure all arrays contain the same number of samples."
        for label, single in zip(["x", "y", "sample_weight"], data):
            msg += f"'{label}' sizes: {', '.join(str(np.shape(i)[0]) for i in _flatten(single) if i is not None)}\n"
        raise ValueError(msg)


def class_weight_to_sample_weights(y: Any, class_weight: dict) -> np.ndarray:
    """One weight per sample: class_weight[class of y] (argmax of one-hot y), 1.0 if absent."""
    y_numpy = _to_numpy(y)
    sample_weight = np.ones(shape=(y_numpy.shape[0],), dtype="float32")
    if y_numpy.ndim > 1:
        y_numpy = np.argmax(y_numpy, axis=-1) if y_numpy.shape[-1] != 1 else np.squeeze(y_numpy, axis=-1)
    y_numpy = np.round(y_numpy).astype("int32")
    for i in range(y_numpy.shape[0]):
        sample_weight[i] = class_weight.get(int(y_numpy[i]), 1.0)
    return sample_weight


def train_validation_split(arrays: Any, validation_split: float) -> tuple[Any, Any]:
    """The last `validation_split` fraction of the samples (before shuffling) is validation data."""
    flat = _flatten(arrays)
    unsplitable = [type(t) for t in flat if not _is_array(t)]
    if unsplitable:
        raise ValueError("Argument `validation_split` is only supported for tensors or NumPy arrays."
                         f"Found incompatible type in the input: {unsplitable}")
    if all(t is None for t in flat):
        return arrays, arrays
    first = next(t for t in flat if t is not None)
    batch_dim = int(np.shape(first)[0])
    split_at = int(math.floor(batch_dim * (1.0 - validation_split)))
    if split_at == 0 or split_at == batch_dim:
        raise ValueError(f"Training data contains {batch_dim} samples, which is not sufficient to split it into a "
                         f"validation and training set as specified by `validation_split={validation_split}`. "
                         "Either provide more data, or a different value for the `validation_split` argument.")

    def split(start: int, end: int) -> Any:
        def cut(t: Any) -> Any:
            # (Keras 3.15's array_slicing.train_validation_split slices each array as it is, `t[start:end]`: a
            # tf.Tensor stays a tensor, so a string tensor splits where a NumPy copy would be an object array)
            if t is None:
                return None
            return t[start:end] if isinstance(t, tf.Tensor) else _to_numpy(t)[start:end]
        return _map_keep(cut, arrays)

    return split(0, split_at), split(split_at, batch_dim)


def same_structure(a: Any, b: Any) -> bool:
    """Keras's `tree.assert_same_structure` (optree) as a test: dicts with the same keys, lists
    and tuples of the same type and length, nested alike; a leaf (None included) only where the
    other has a leaf."""
    if isinstance(a, dict):
        return isinstance(b, dict) and set(a) == set(b) and all(same_structure(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same_structure(x, y) for x, y in zip(a, b))
    return not isinstance(b, (list, tuple, dict))


def _map_keep(fn: Any, data: Any) -> Any:
    """Map over leaves keeping the container types (lists stay lists)."""
    if isinstance(data, dict):
        return {k: _map_keep(fn, v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(_map_keep(fn, v) for v in data)
    return fn(data)


# --- adapters --------------------------------------------------------------------------------------
class DataAdapter:
    """What the epoch iterator needs of its data: a tf.data dataset and the batches per epoch."""

    def get_tf_dataset(self) -> Any:
        raise NotImplementedError

    @property
    def num_batches(self) -> int | None:
        raise NotImplementedError

    def on_epoch_begin(self) -> None:
        pass

    def on_epoch_end(self) -> None:
        pass


class ArrayDataAdapter(DataAdapter):
    """Arrays (NumPy, tensors) of equal first dimension -> batches (keras ArrayDataAdapter)."""

    def __init__(self, x: Any, y: Any = None, sample_weight: Any = None, batch_size: int | None = None,
                 steps: int | None = None, shuffle: Any = False, class_weight: dict | None = None) -> None:
        if not can_convert_arrays((x, y, sample_weight)):
            raise ValueError(f"Expected all elements of `x` to be array-like. Received invalid types: x={x}")
        if sample_weight is not None:
            if class_weight is not None:
                raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
            if isinstance(y, (list, tuple, dict)) and isinstance(sample_weight, (list, tuple, dict)):
                if not same_structure(y, sample_weight):
                    raise ValueError("You should provide one `sample_weight` array per output in `y`. The two "
                                     f"structures did not match:\n- y: {y}\n- sample_weight: {sample_weight}\n")
            elif isinstance(y, (list, tuple, dict)):
                sw = _to_numpy(sample_weight)
                if not (sw.ndim == 1 or (sw.ndim == 2 and sw.shape[1] == 1)):
                    raise ValueError("For a model with multiple outputs, when providing a single `sample_weight` "
                                     "array, it should only have one scalar score per sample (i.e. shape "
                                     "`(num_samples,)`). If you want to use non-scalar sample weights, pass a "
                                     "`sample_weight` argument with one array per model output.")
                sample_weight = _map_keep(lambda _: sw, y)
        if class_weight is not None:
            if isinstance(y, (list, tuple, dict)):
                raise ValueError("`class_weight` is only supported for Models with a single output.")
            sample_weight = class_weight_to_sample_weights(y, class_weight)
        inputs = pack_x_y_sample_weight(x, y, sample_weight)
        check_data_cardinality(inputs if isinstance(inputs, tuple) else (inputs,))
        num_samples = int(np.shape(next(i for i in _flatten(inputs) if i is not None))[0])
        # (Keras checks nothing here: a batch_size of 0 or None takes the default, a negative or float one fails
        # where the tf.data pipeline first uses it, array_data_adapter.py)
        if not batch_size:
            batch_size = int(math.ceil(num_samples / steps)) if steps else 32
        self._inputs = inputs
        self._num_samples = num_samples
        self._batch_size = batch_size
        self._size = int(math.ceil(num_samples / batch_size))
        self._partial_batch_size = num_samples % batch_size
        self._shuffle = shuffle

    @property
    def num_batches(self) -> int:
        return self._size

    @property
    def batch_size(self) -> int:
        return self._batch_size

    @property
    def has_partial_batch(self) -> bool:
        return self._size > 0 and self._partial_batch_size > 0

    @property
    def partial_batch_size(self) -> int | None:
        return self._partial_batch_size or None

    def _shuffled_batch_indices(self) -> Any:
        """Keras 3.15's pipeline of batch indices (array_data_adapter.get_tf_dataset): one
        permutation of the samples by a `tf.random.shuffle` inside `Dataset.range(1).map` (the samples in
        order without `shuffle`), cut into full batches and the partial one (`shuffle="batch"`: the batches
        in order, each shuffled by a `map(tf.random.shuffle)`). Its random ops are seeded as tf.data seeds a function's
        (runtime/ops/random_graphs.py): under a global seed every epoch's iterator draws the same
        permutation, as on TF."""
        num_samples, batch_size, partial, shuffle = (self._num_samples, self._batch_size, self._partial_batch_size,
                                                     self._shuffle)
        num_full = int(num_samples // batch_size)

        def permutation(_: Any) -> Any:
            indices = tf.range(num_samples, dtype=tf.int64)
            if shuffle and shuffle != "batch":
                indices = tf.random.shuffle(indices)
            return indices

        def slice_batch_indices(indices: Any) -> Any:
            k = num_full * batch_size
            batches = tf.data.Dataset.from_tensor_slices(tf.reshape(tf.slice(indices, [0], [k]), [num_full, batch_size]))
            if partial:
                batches = batches.concatenate(tf.data.Dataset.from_tensors(tf.slice(indices, [k], [partial])))
            return batches

        indices = tf.data.Dataset.range(1).map(permutation).prefetch(1).flat_map(slice_batch_indices)
        if shuffle == "batch":
            indices = indices.map(tf.random.shuffle)
        return indices

    def get_tf_dataset(self) -> Any:
        def to_tensor(a: Any) -> Any:
            return _floatx_tensor(a)

        inputs = _map(to_tensor, self._inputs)
        bs = self._batch_size
        if not self._shuffle and isinstance(bs, (int, np.integer)) and bs > 0:
            # (the batches Keras's index pipeline below gives without shuffling, made directly: faster, and an
            # empty input, a validation split's, needs no probe of the gather)
            dataset = tf.data.Dataset.from_tensor_slices(inputs).batch(bs)
        else:
            # (Keras 3.15 builds this pipeline whether or not it shuffles: a batch size its ops cannot take
            # fails where they are traced, as TF's graph build fails: a negative one at the reshape, ValueError;
            # a float one at the slice, TypeError)
            indices = self._shuffled_batch_indices()

            def grab_batch(i: Any) -> Any:
                return _map(lambda t: tf.gather(t, i, axis=0), inputs)

            dataset = indices.map(grab_batch)
        options = tf.data.Options()
        options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
        return dataset.with_options(options)


def _non_floatx_float(dtype: Any) -> bool:
    """Keras 3.15's array_slicing.is_non_floatx_float: a float dtype other than keras.config.floatx(). A dtype
    Keras does not know (NumPy strings "str32", object arrays) is ValueError "Invalid dtype: ..." (as on TF)."""
    return dtype_policies.is_float_dtype(dtype) and dtype_policies.standardize_dtype(dtype) != keras_config.floatx()


def _floatx_tensor(a: Any) -> Any:
    """One array of fit/evaluate/predict's x, y or sample_weight as the tensor the batches are cut from: Keras 3.15's
    convert_to_sliceable (array_slicing.py, step 2) casts every float array whose dtype is not floatx() to floatx()
    (a NumPy array by astype, a tf.Tensor by tf.cast): float64 and float16 data become float32 by default, and
    float32 data float64 under set_floatx("float64"); integer and other arrays keep their dtype (spec
    `keras.fit.python-inputs`)."""
    if isinstance(a, tf.Tensor):
        return tf.cast(a, keras_config.floatx()) if _non_floatx_float(a.dtype) else a
    arr = _to_numpy(a)
    if _non_floatx_float(arr.dtype):
        arr = arr.astype(keras_config.floatx())
    return tf.convert_to_tensor(arr)


class TFDatasetAdapter(DataAdapter):
    """A `tf.data.Dataset` (or distributed dataset) of batches, used as is."""

    def __init__(self, dataset: Any, class_weight: dict | None = None) -> None:
        if not is_tf_dataset(dataset):
            raise ValueError(f"Expected argument `dataset` to be a tf.data.Dataset. Received: {dataset}")
        if class_weight is not None:
            dataset = dataset.map(make_class_weight_map_fn(class_weight))
        self._dataset = dataset

    def get_tf_dataset(self) -> Any:
        return self._dataset

    @property
    def num_batches(self) -> int | None:
        card = self._dataset.cardinality
        card = int(card() if callable(card) else card)
        return None if card < 0 else card


def make_class_weight_map_fn(class_weight: dict) -> Any:
    """A dataset map `(x, y[, sw]) -> (x, y, class_weight[y])` (Keras's TF dataset adapter)."""
    table = tf.convert_to_tensor([float(class_weight.get(int(c), 1.0)) for c in range(max(class_weight) + 1)])

    def class_weights_map_fn(*data: Any) -> Any:
        x, y, sw = unpack_x_y_sample_weight(data)
        if sw is not None:
            raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
        if isinstance(y, (list, tuple, dict)):
            raise ValueError("`class_weight` is only supported for Models with a single output.")
        if len(y.shape) >= 2:
            if y.shape[-1] is not None and y.shape[-1] > 1:
                y_classes = tf.argmax(y, axis=-1, output_type=tf.int32)
            else:
                y_classes = tf.cast(tf.round(tf.squeeze(y, axis=-1)), tf.int32)
        else:
            y_classes = tf.cast(tf.round(y), tf.int32)
        return x, y, tf.gather(table, y_classes)

    return class_weights_map_fn


def is_tf_dataset(x: Any) -> bool:
    if isinstance(x, tf.data.Dataset):
        return True
    return type(x).__name__ in ("DistributedDataset", "DistributedDatasetsFromFunction") or \
        any(c.__name__ in ("DatasetV2", "DistributedDataset") for c in type(x).__mro__)
