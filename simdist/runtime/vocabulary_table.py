"""`tf.lookup.StaticVocabularyTable` (tensorflow/python/ops/lookup_ops.py): a vocabulary table with
out-of-vocabulary buckets. A key of the initializer's table gets its value; any other key gets
`table.size() + to_hash_bucket_fast(as_string(key), num_oov_buckets)` — the table's entry count, not its
largest id, so ids may collide when the values are not 0..n-1, as TF's do. Without an initializer every
key is hashed (string keys only)."""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes
from simdist.runtime.lookup_tables import StaticHashTable
from simdist.runtime.sparse_tensor import SparseTensor
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["StaticVocabularyTable"]


class StaticVocabularyTable:
    """TF's StaticVocabularyTable: a StaticHashTable(initializer, -1) and num_oov_buckets hash buckets
    after it."""

    def __init__(self, initializer: Any, num_oov_buckets: int, lookup_key_dtype: Any = None,
                 name: str | None = None, experimental_is_anonymous: bool = False) -> None:
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if initializer:
            lookup_key_dtype = initializer.key_dtype if lookup_key_dtype is None else dtypes.as_dtype(lookup_key_dtype)
            supported = (dtypes.int64, dtypes.string)
            if initializer.key_dtype not in supported:
                raise TypeError(f"Invalid `key_dtype`, expected one of {supported}, but got {initializer.key_dtype}.")
            if initializer.key_dtype.is_integer != lookup_key_dtype.is_integer:
                raise TypeError(f"Invalid `key_dtype`, expected {'integer' if lookup_key_dtype.is_integer else 'non-integer'}"
                                f" but got {initializer.key_dtype}.")
            if initializer.value_dtype != dtypes.int64:
                raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64} but got {initializer.value_dtype}.")
            self._table: StaticHashTable | None = StaticHashTable(initializer, default_value=-1)
        else:
            lookup_key_dtype = dtypes.string
            self._table = None
        if not lookup_key_dtype.is_integer and lookup_key_dtype != dtypes.string:
            raise TypeError(f"Invalid `key_dtype`, expected integer or string, got {lookup_key_dtype}")
        self._num_oov_buckets = int(num_oov_buckets)
        self._key_dtype = lookup_key_dtype

    @property
    def key_dtype(self) -> dtypes.DType:
        return self._key_dtype

    @property
    def value_dtype(self) -> dtypes.DType:
        return dtypes.int64

    @property
    def name(self) -> None:
        return None   # (TF 2.21's eager tables report None)

    def size(self, name: str | None = None) -> Tensor:
        """The table's entries plus the OOV buckets (int64)."""
        from simdist.runtime.ops import math
        base = self._table.size() if self._table is not None else convert_to_tensor(0, dtype=dtypes.int64)
        return math.add(base, convert_to_tensor(self._num_oov_buckets, dtype=dtypes.int64))

    def lookup(self, keys: Any, name: str | None = None) -> Any:
        """Each key's id: its value in the table, else size + its hash bucket; a SparseTensor's values
        are looked up and its indices kept."""
        from simdist.runtime.ops import math
        from simdist.runtime.ops.as_string import as_string
        from simdist.runtime.ops.string_hash import to_hash_bucket_fast
        if keys.dtype.base_dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, received: {keys.dtype}")
        values = keys.values if isinstance(keys, SparseTensor) else keys
        if self._table is not None and self._table.key_dtype == dtypes.int64:
            values = math.cast(values, dtypes.int64)
        text = values if values.dtype == dtypes.string else as_string(values)
        buckets = to_hash_bucket_fast(text, num_buckets=self._num_oov_buckets)
        if self._table is not None:
            ids = self._table.lookup(values)
            buckets = math.add(buckets, self._table.size())
            ids = math.where(math.not_equal(ids, self._table.default_value), ids, buckets)
        else:
            ids = buckets
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, ids, keys.dense_shape)
        return ids

    __getitem__ = lookup
