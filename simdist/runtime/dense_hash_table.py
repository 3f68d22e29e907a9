"""`tf.lookup.experimental.DenseHashTable` (tensorflow/python/ops/lookup_ops.py over the MutableDenseHashTableV2
kernel, tensorflow/core/kernels/lookup_table_op.cc `MutableDenseHashTable`): a mutable table kept as TF keeps it,
two bucket matrices (keys [num_buckets, key_size], values [num_buckets, value_size]) with open addressing, so that
`export()` gives TF's buckets in TF's order.

The kernel's rules, as TF 2.21 runs them (observed): the bucket count is a power of 2 of at least 4 (initial 2**17);
a key's hash is std::hash of an integer (its value sign-extended to 64 bits) or tsl::Hash64 of a string, and a vector
key combines its elements' hashes with Hash64Combine; a key starts at hash & (num_buckets - 1) and probes
triangularly (bucket + 1, + 2, ...). Insert grows the table first when size + the batch exceeds num_buckets x 0.8
(doubling, then re-inserting the old buckets in bucket order), then writes each key over a bucket holding it, or
into the first empty or deleted bucket on its probe path (so a key stored past a deleted bucket is stored twice, as
in TF); remove marks the key's bucket with deleted_key (its value stays); lookup stops at the key or at an empty
bucket. The empty and deleted keys are refused as keys ("Using the empty_key as a table key is not allowed").
Key dtypes int32, int64 and string with the value dtypes TF registers. Inside a tf.function the ops run as the call
runs (lookup_tables.table_op_runs). Clause ops.lookup."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.graph_op import op_result
from simdist.runtime.lookup_tables import TableDtypes, table_op_runs
from simdist.runtime.ops.args import dims_text
from simdist.runtime.ops.tsl_hash import hash64
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["DenseHashTable"]

_M = (1 << 64) - 1
_MAX_LOAD_FACTOR = 0.8
# (key dtype, value dtype) pairs with a CPU kernel (TF 2.21's registrations; DT_RESOURCE and DT_VARIANT values aside)
_KERNELS = {"int32": ("int32", "float32", "float64"),
            "int64": ("int64", "int32", "float32", "float64", "bool"),
            "string": ("int64", "int32", "float32", "float64", "bool")}
_CPP = {"float32": "FLOAT", "float64": "DOUBLE"}


def _bad(text: str, op: str, name: str | None = None) -> errors.InvalidArgumentError:
    """The kernel's InvalidArgumentError as eager execution words it (the op's name after, when it has one)."""
    return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]" + ("" if name is None else f" name: {name}"))


def _hash_scalar(k: Any) -> int:
    """std::hash<K> of an integer key (its value as size_t: a negative one sign-extended), tsl::Hash64 of a string."""
    if isinstance(k, bytes):
        return hash64(k)
    return int(k) & _M


def _hash_combine(a: int, b: int) -> int:
    """tsl::Hash64Combine."""
    return (a ^ ((b + 0x9E3779B97F4A7800 + ((a << 10) & _M) + (a >> 4)) & _M)) & _M


def _runs(what: str, mutates: bool = False) -> bool:
    return table_op_runs(what, mutates, "DenseHashTable")


def _row(v: np.ndarray) -> tuple:
    return tuple(x if isinstance(x, bytes) else x.item() for x in v)


class DenseHashTable(TableDtypes):
    """`tf.lookup.experimental.DenseHashTable(key_dtype, value_dtype, default_value, empty_key, deleted_key,
    initial_num_buckets=None, name="MutableDenseHashTable", checkpoint=True, experimental_is_anonymous=False)`."""

    def __init__(self, key_dtype: Any, value_dtype: Any, default_value: Any, empty_key: Any, deleted_key: Any,
                 initial_num_buckets: Any = None, name: str = "MutableDenseHashTable", checkpoint: bool = True,
                 experimental_is_anonymous: bool = False) -> None:
        self._key_dtype, self._value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
        self._value_shape = self._default_value.shape.as_list()
        empty = convert_to_tensor(empty_key, dtype=self._key_dtype)
        deleted = convert_to_tensor(deleted_key, dtype=self._key_dtype)
        if self._value_dtype.name not in _KERNELS.get(self._key_dtype.name, ()):
            def cpp(d: dtypes.DType) -> str:
                return "DT_" + _CPP.get(d.name, d.name).upper()
            raise errors.NotFoundError(None, None, "Could not find device for node: {{node MutableDenseHashTableV2}} "
                                       f"= MutableDenseHashTableV2[key_dtype={cpp(self._key_dtype)}, value_dtype="
                                       f"{cpp(self._value_dtype)}]: no CPU kernel is registered for these dtypes "
                                       f"[Op:MutableDenseHashTableV2] name: {name}")
        if empty.shape.as_list() != deleted.shape.as_list():
            raise _bad("Empty and deleted keys must have same shape, got shapes: "
                       f"{dims_text(empty.shape.as_list())} and {dims_text(deleted.shape.as_list())}",
                       "MutableDenseHashTableV2", name)
        self._key_shape = empty.shape.as_list()
        self._empty, self._deleted = self._flat(empty)[0], self._flat(deleted)[0]
        if self._empty == self._deleted:
            raise _bad("Empty and deleted keys cannot be equal", "MutableDenseHashTableV2", name)
        self._empty_hash, self._deleted_hash = self._hash(self._empty), self._hash(self._deleted)
        n = 131072 if initial_num_buckets is None else int(initial_num_buckets)
        self._allocate(n, "MutableDenseHashTableV2", name)

    # -- the kernel's storage ----------------------------------------------------------------------------
    @property
    def _key_size(self) -> int:
        return int(np.prod(self._key_shape)) if self._key_shape else 1

    @property
    def _value_size(self) -> int:
        return int(np.prod(self._value_shape)) if self._value_shape else 1

    def _flat(self, keys: Tensor) -> list[tuple]:
        a = np.asarray(keys.numpy()).reshape(-1, self._key_size) if np.size(keys.numpy()) else \
            np.zeros((0, self._key_size), dtype=object)
        return [_row(r) for r in a]

    def _hash(self, key: tuple) -> int:
        if len(key) == 1 and not self._key_shape:
            return _hash_scalar(key[0])
        h = 0
        for k in key:
            h = _hash_combine(h, _hash_scalar(k))
        return h

    def _allocate(self, n: int, op: str, name: str | None = None) -> None:
        if n < 4 or n & (n - 1):
            raise _bad(f"Number of buckets must be at least 4 and a power of 2, got: {n}", op, name)
        self._num_buckets, self._num_entries = n, 0
        self._keys: list[tuple] = [self._empty] * n
        zero = b"" if self._value_dtype.name == "string" else self._value_dtype.as_numpy_dtype(0).item()
        self._values: list[tuple] = [(zero,) * self._value_size] * n

    def _check_key_shape(self, keys: Tensor, op: str) -> list:
        """The lookup interface's CheckKeyShape (insert, find and remove): the keys' shape ends with the key shape."""
        kshape = keys.shape.as_list()
        if len(kshape) < len(self._key_shape) or kshape[len(kshape) - len(self._key_shape):] != self._key_shape:
            raise _bad(f"Input key shape {dims_text(kshape)} must end with the table's key shape "
                       f"{dims_text(self._key_shape)}", op)
        return kshape

    def _batch(self, keys: Tensor, op: str) -> list[tuple]:
        """The keys as rows: a scalar key, or a leading batch dimension (the kernel's "Expected key shape")."""
        shape = keys.shape.as_list()
        n = 1 if not shape else shape[0]
        if int(np.prod(shape)) != n * self._key_size:
            raise _bad(f"Expected key shape {dims_text([n] + self._key_shape)} got {dims_text(shape)}", op)
        return self._flat(keys)

    def _refuse_special(self, key: tuple, h: int, op: str) -> None:
        if h == self._empty_hash and key == self._empty:
            raise _bad("Using the empty_key as a table key is not allowed", op)
        if h == self._deleted_hash and key == self._deleted:
            raise _bad("Using the deleted_key as a table key is not allowed", op)

    def _insert_rows(self, keys: list[tuple], values: list[tuple], rebucketing: bool, op: str) -> None:
        """MutableDenseHashTable::DoInsert."""
        mask = self._num_buckets - 1
        for key, value in zip(keys, values):
            if rebucketing and key in (self._empty, self._deleted):
                continue
            h = self._hash(key)
            self._refuse_special(key, h, op)
            b, probes = h & mask, 0
            while True:
                if self._keys[b] == key:
                    self._values[b] = value
                    break
                if self._keys[b] in (self._empty, self._deleted):
                    self._num_entries += 1
                    self._keys[b], self._values[b] = key, value
                    break
                probes += 1
                b = (b + probes) & mask
                if probes >= self._num_buckets:
                    raise errors.InternalError(None, None, "Internal error in MutableDenseHashTable insert")

    def _locate(self, key: tuple, op: str, what: str) -> int | None:
        """The bucket holding `key` (Find's and Remove's probe: it stops at the key or at an empty bucket, passing
        deleted ones), or None."""
        h = self._hash(key)
        self._refuse_special(key, h, op)
        mask = self._num_buckets - 1
        b, probes = h & mask, 0
        while True:
            if self._keys[b] == key:
                return b
            if self._keys[b] == self._empty:
                return None
            probes += 1
            b = (b + probes) & mask
            if probes >= self._num_buckets:
                raise errors.InternalError(None, None, f"Internal error in MutableDenseHashTable {what}")

    # -- the API -------------------------------------------------------------------------------------------
    @property
    def name(self) -> None:
        return None   # (eagerly TF's _table_name is None)

    def size(self, name: str | None = None) -> Tensor:
        _runs("size")
        return convert_to_tensor(np.int64(self._num_entries))

    def lookup(self, keys: Any, name: str | None = None) -> Tensor:
        """Each key's value, the default where absent: keys [batch] + key shape give [batch] + value shape."""
        _runs("lookup")
        k = convert_to_tensor(keys, dtype=self._key_dtype, name="keys")
        self._check_key_shape(k, "LookupTableFindV2")
        rows = self._batch(k, "LookupTableFindV2")
        default = _row(np.asarray(self._default_value.numpy()).reshape(-1))
        out = []
        for key in rows:
            b = self._locate(key, "LookupTableFindV2", "lookup")
            out.append(default if b is None else self._values[b])
        lead = k.shape.as_list()[:len(k.shape.as_list()) - len(self._key_shape)]
        vd = object if self._value_dtype.name == "string" else self._value_dtype.as_numpy_dtype
        arr = np.array(out, dtype=vd).reshape(lead + self._value_shape)
        return convert_to_tensor(arr, dtype=self._value_dtype)

    __getitem__ = lookup

    def insert_or_assign(self, keys: Any, values: Any, name: str | None = None) -> Any:
        """Insert each key's value (a key present gets the new value)."""
        run = _runs("insert", mutates=True)
        op = "LookupTableInsertV2"
        k = convert_to_tensor(keys, dtype=self._key_dtype, name="keys")
        v = convert_to_tensor(values, dtype=self._value_dtype, name="values")
        kshape = self._check_key_shape(k, op)
        expected = kshape[:len(kshape) - len(self._key_shape)] + self._value_shape
        if v.shape.as_list() != expected:
            raise _bad(f"Expected shape {dims_text(expected)} for value, got {dims_text(v.shape.as_list())}", op)
        rows = self._batch(k, op)
        if not run:
            return op_result(op, op)
        vals = [_row(r) for r in np.asarray(v.numpy()).reshape(len(rows), self._value_size)] if rows else []
        pending = self._num_entries + len(rows)
        if pending > self._num_buckets * _MAX_LOAD_FACTOR:
            n = self._num_buckets
            while True:
                n <<= 1
                if not pending > n * _MAX_LOAD_FACTOR:
                    break
            old_keys, old_values = self._keys, self._values
            self._allocate(n, op)
            self._insert_rows(old_keys, old_values, True, op)
        self._insert_rows(rows, vals, False, op)
        return op_result(op, op)

    insert = insert_or_assign

    def erase(self, keys: Any, name: str | None = None) -> Any:
        """Remove the keys present (others ignored): their buckets get the deleted key."""
        if keys.dtype != self._key_dtype:
            raise TypeError(f"Signature mismatch. Keys must be dtype {self._key_dtype!s}, got {keys.dtype!s}.")
        run = _runs("remove", mutates=True)
        op = "LookupTableRemoveV2"
        self._check_key_shape(keys, op)
        rows = self._batch(keys, op)
        if not run:
            return op_result(op, op)
        for key in rows:
            b = self._locate(key, op, "remove")
            if b is not None:
                self._num_entries -= 1
                self._keys[b] = self._deleted
        return op_result(op, op)

    remove = erase

    def export(self, name: str | None = None) -> tuple[Tensor, Tensor]:
        """The bucket matrices: keys [num_buckets, key_size] (empty and deleted buckets hold those keys) and values
        [num_buckets, value_size]."""
        _runs("export")
        kd = object if self._key_dtype.name == "string" else self._key_dtype.as_numpy_dtype
        vd = object if self._value_dtype.name == "string" else self._value_dtype.as_numpy_dtype
        keys = np.array(self._keys, dtype=kd).reshape(self._num_buckets, self._key_size)
        values = np.array(self._values, dtype=vd).reshape(self._num_buckets, self._value_size)
        return convert_to_tensor(keys, dtype=self._key_dtype), convert_to_tensor(values, dtype=self._value_dtype)
