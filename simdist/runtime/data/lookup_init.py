"""`tf.data.experimental.DatasetInitializer`, `table_from_dataset` and `index_table_from_dataset`:
lookup tables filled from a dataset of (key, value) scalars (TF 2.21's experimental/ops/lookup_ops.py
and InitializeTableFromDataset; clause dataset.experimental-extras).

The dataset must give two scalar (or unknown-rank) tensors (ValueError "Datasets used to initialize
lookup tables must produce elements in the form (key, value), ..."); table_from_dataset's default
value is -1 for integer or float values (ValueError otherwise), `vocab_size` takes that many elements
and asserts the count (assert_cardinality), and the table is a StaticHashTable (a repeated key with
another value: FailedPreconditionError "HashTable has different value for same key."); index_table_
from_dataset numbers the keys: `enumerate().map(lambda v, k: (k, v))`. Difference: num_oov_buckets > 0
(TF's IdTableWithHashBuckets, FastHash buckets) is NotImplementedError.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.data import resources
from simdist.runtime.lookup_tables import TableDtypes
from simdist.runtime.spec import TensorSpec

__all__ = ["DatasetInitializer", "table_from_dataset", "index_table_from_dataset"]

_BASE = ("Datasets used to initialize lookup tables must produce elements in the form (key, value), where the "
         "keys and values are scalar tensors. ")


def _check_spec(spec: Any) -> None:
    if len(spec) != 2:
        raise ValueError(_BASE + f"However, the given dataset produces {len(spec)} components instead of two "
                                 f"(key, value) components. Full dataset element spec: {spec}.")
    for what, s in (("keys", spec[0]), ("values", spec[1])):
        if not isinstance(s, TensorSpec):
            raise ValueError(_BASE + f"However, the given dataset produces non-Tensor {what} of type {type(s)}.")
    for what, s in (("key", spec[0]), ("value", spec[1])):
        if s.shape.rank not in (None, 0):
            raise ValueError(_BASE + f"However, the given dataset produces non-scalar {what} Tensors of rank "
                                     f"{s.shape.rank}.")


class DatasetInitializer(TableDtypes):
    """tf.data.experimental.DatasetInitializer(dataset): a table's contents, the dataset's pairs."""

    def __init__(self, dataset: Any) -> None:
        spec = dataset.element_spec
        if isinstance(spec, TensorSpec):   # (TF's len() of a TensorSpec fails first)
            raise TypeError("object of type 'TensorSpec' has no len()")
        _check_spec(spec)
        self.dataset = dataset
        self._key_dtype, self._value_dtype = spec[0].dtype, spec[1].dtype

    def _contents(self) -> tuple[np.ndarray, np.ndarray]:
        keys, values = [], []
        for flat in resources.owned(self.dataset._iter_flat()):
            keys.append(flat[0][()] if isinstance(flat[0], np.ndarray) else flat[0])
            values.append(flat[1][()] if isinstance(flat[1], np.ndarray) else flat[1])

        def arr(items: list, dt: dtypes.DType) -> np.ndarray:
            if dt is dtypes.string:
                out = np.empty(len(items), dtype=object)
                out[:] = items
                return out
            return np.asarray(items, dtype=dt.np)
        return arr(keys, self._key_dtype), arr(values, self._value_dtype)


def table_from_dataset(dataset: Any = None, num_oov_buckets: int = 0, vocab_size: Any = None,
                       default_value: Any = None, hasher_spec: Any = None, key_dtype: Any = dtypes.string,
                       name: str | None = None) -> Any:
    """A StaticHashTable of the dataset's (key, value) pairs."""
    from simdist.runtime.lookup_tables import StaticHashTable
    spec = dataset.element_spec
    _check_spec(spec)
    if default_value is None:
        default_value = -1
        if not (spec[1].dtype.is_integer or spec[1].dtype.is_floating):
            raise ValueError("`default_value` must be specified when creating a table from a dataset that produces "
                             f"values of type {spec[1].dtype}.")
    if num_oov_buckets < 0:
        raise ValueError(f"`num_oov_buckets` must be greater than or equal to 0, got {num_oov_buckets}.")
    if vocab_size is not None and not hasattr(vocab_size, "_v") and vocab_size < 1:
        raise ValueError(f"`vocab_size` must be greater than 0, got {vocab_size}.")
    key_dtype = dtypes.as_dtype(key_dtype)
    if not key_dtype.is_integer and key_dtype != dtypes.string:
        raise TypeError(f"`key_dtype` must be either an integer or string type, but got {key_dtype}")
    if vocab_size is not None:
        from simdist.runtime.data.assert_cardinality import assert_cardinality
        size = int(np.asarray(vocab_size._v)) if hasattr(vocab_size, "_v") else int(vocab_size)
        dataset = dataset.take(size).apply(assert_cardinality(size))
    if num_oov_buckets:
        raise NotImplementedError("simdist's table_from_dataset has no out-of-vocabulary buckets (TF's "
                                  "IdTableWithHashBuckets)")
    return StaticHashTable(DatasetInitializer(dataset), default_value)


def index_table_from_dataset(dataset: Any = None, num_oov_buckets: int = 0, vocab_size: Any = None,
                             default_value: Any = -1, hasher_spec: Any = None, key_dtype: Any = dtypes.string,
                             name: str | None = None) -> Any:
    """A table from each key of `dataset` to its index."""
    return table_from_dataset(dataset.enumerate().map(lambda v, k: (k, v)), num_oov_buckets, vocab_size,
                              default_value, hasher_spec, key_dtype, name)
