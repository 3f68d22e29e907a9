"""Keras 3.15's `keras.utils.PyDataset` (alias `Sequence`) and its adapter
(keras/src/trainers/data_adapters/py_dataset_adapter.py): a Python object of batches indexed
0..len-1 (or infinite) that fit/evaluate/predict read through `tf.data.Dataset.from_generator`.

Keras reads a PyDataset with `workers > 1` (or multiprocessing) through an OrderedEnqueuer: the
batches still arrive in index order, so the values trained on are those of reading them one by
one, which is what simdist does (in the caller's thread; `workers`, `use_multiprocessing` and
`max_queue_size` are kept and reported, not used). `shuffle=True` permutes the batch order each
epoch with Python's `random.shuffle`, as Keras: after `keras.utils.set_random_seed` the orders
are Keras's; without it they come from a stream derived from the session's root seed."""

from __future__ import annotations

import itertools
import random as _pyrandom
import warnings
from typing import Any, Iterator

import numpy as np

from simdist import tf
from simdist.keras.trainers.data_adapter import DataAdapter, class_weight_to_sample_weights
from simdist.keras.trainers.tensor_spec import NUM_BATCHES_FOR_TENSOR_SPEC, get_tensor_spec

PY_DATASET_OP_SEED = 0x50594453   # "PYDS": the stream of an unseeded program's batch shuffles


class PyDataset:
    """Base class of a dataset written in Python: implement `__getitem__(index)` (a whole batch)
    and `__len__()` (the number of batches), or a `num_batches` property returning None for an
    infinite one; `on_epoch_begin`/`on_epoch_end` are called around each epoch of fit."""

    def __init__(self, workers: int = 1, use_multiprocessing: bool = False, max_queue_size: int = 10) -> None:
        self._workers = workers
        self._use_multiprocessing = use_multiprocessing
        self._max_queue_size = max_queue_size

    def _warn_if_super_not_called(self) -> None:
        warn = False
        if not hasattr(self, "_workers"):
            self._workers, warn = 1, True
        if not hasattr(self, "_use_multiprocessing"):
            self._use_multiprocessing, warn = False, True
        if not hasattr(self, "_max_queue_size"):
            self._max_queue_size, warn = 10, True
        if warn:
            warnings.warn("Your `PyDataset` class should call `super().__init__(**kwargs)` in its constructor. "
                          "`**kwargs` can include `workers`, `use_multiprocessing`, `max_queue_size`. Do not pass "
                          "these arguments to `fit()`, as they will be ignored.", stacklevel=2)

    @property
    def workers(self) -> int:
        self._warn_if_super_not_called()
        return self._workers

    @workers.setter
    def workers(self, value: int) -> None:
        self._workers = value

    @property
    def use_multiprocessing(self) -> bool:
        self._warn_if_super_not_called()
        return self._use_multiprocessing

    @use_multiprocessing.setter
    def use_multiprocessing(self, value: bool) -> None:
        self._use_multiprocessing = value

    @property
    def max_queue_size(self) -> int:
        self._warn_if_super_not_called()
        return self._max_queue_size

    @max_queue_size.setter
    def max_queue_size(self, value: int) -> None:
        self._max_queue_size = value

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError

    def __iter__(self) -> Iterator[Any]:
        index_range: Any = None
        try:
            num_batches = self.num_batches
            if num_batches is not None:
                index_range = range(num_batches)
        except NotImplementedError:
            pass
        for index in (itertools.count() if index_range is None else index_range):
            yield self[index]

    @property
    def num_batches(self) -> int | None:
        """The number of batches, None for an infinite dataset."""
        if hasattr(self, "__len__"):
            return len(self)
        raise NotImplementedError("You need to implement the `num_batches` property:\n\n"
                                  "@property\ndef num_batches(self):\n  return ...")

    def on_epoch_begin(self) -> None:
        """Called at the beginning of every epoch."""

    def on_epoch_end(self) -> None:
        """Called at the end of every epoch."""


class PyDatasetAdapter(DataAdapter):
    """A PyDataset as fit reads it: batches standardised to tuples (class_weight added as a
    third element), the order shuffled per epoch when asked."""

    def __init__(self, x: PyDataset, class_weight: dict | None = None, shuffle: Any = False) -> None:
        self.py_dataset = x
        self.class_weight = class_weight
        self.shuffle = shuffle
        self._output_signature: Any = None
        self._within_epoch = False
        x.workers, x.use_multiprocessing, x.max_queue_size   # Keras reads them here (and warns without super())
        self._rng: _pyrandom.Random | None = None

    def _standardize_batch(self, batch: Any) -> Any:
        if isinstance(batch, dict):
            return batch
        if isinstance(batch, np.ndarray):   # (Keras: only a NumPy array is an input-only batch; a tensor is refused)
            batch = (batch,)
        if isinstance(batch, list):
            batch = tuple(batch)
        if not isinstance(batch, tuple) or len(batch) not in {1, 2, 3}:
            raise ValueError("PyDataset.__getitem__() must return a tuple or a dict. If a tuple, it must be ordered "
                             "either (input,) or (inputs, targets) or (inputs, targets, sample_weights). "
                             f"Received: {str(batch)[:100]}... of type {type(batch)}")
        if self.class_weight is not None:
            if len(batch) == 3:
                raise ValueError("You cannot specify `class_weight` and `sample_weight` at the same time.")
            if len(batch) == 2:
                batch = batch + (class_weight_to_sample_weights(batch[1], self.class_weight),)
        return batch

    def _shuffled(self, indices: list[int]) -> list[int]:
        if tf.random._simdist_python_seeded():
            _pyrandom.shuffle(indices)         # Keras: random.shuffle(indices), Python's global stream
        else:
            if self._rng is None:
                self._rng = _pyrandom.Random(tf.random._simdist_default_seed(PY_DATASET_OP_SEED, 1, int(1e9)))
            self._rng.shuffle(indices)
        return indices

    def _get_iterator(self) -> Iterator[Any]:
        num_batches = self.py_dataset.num_batches
        if num_batches is None:
            return (self._standardize_batch(self.py_dataset[i]) for i in itertools.count())
        indices = list(range(num_batches))
        if self.shuffle:
            indices = self._shuffled(indices)
        return (self._standardize_batch(self.py_dataset[i]) for i in indices)

    def get_tf_dataset(self) -> Any:
        num_batches = self.py_dataset.num_batches
        if self._output_signature is None:
            num_samples = NUM_BATCHES_FOR_TENSOR_SPEC
            if num_batches is not None:
                num_samples = min(num_samples, num_batches)
            batches = [self._standardize_batch(self.py_dataset[i]) for i in range(num_samples)]
            if not batches:
                raise ValueError("The PyDataset has length 0")
            self._output_signature = get_tensor_spec(batches)
        return tf.data.Dataset.from_generator(self._get_iterator, output_signature=self._output_signature) \
            .prefetch(tf.data.AUTOTUNE)

    def on_epoch_begin(self) -> None:
        if self._within_epoch:
            raise ValueError("`on_epoch_begin` was called twice without `on_epoch_end` having been called.")
        self._within_epoch = True
        self.py_dataset.on_epoch_begin()

    def on_epoch_end(self) -> None:
        self.py_dataset.on_epoch_end()
        self._within_epoch = False

    @property
    def num_batches(self) -> int | None:
        return self.py_dataset.num_batches

    @property
    def batch_size(self) -> int | None:
        return None
