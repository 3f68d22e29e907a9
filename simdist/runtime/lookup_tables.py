"""`tf.lookup`'s hash tables (tensorflow/python/ops/lookup_ops.py): KeyValueTensorInitializer,
TextFileInitializer (TextFileIndex), StaticHashTable and experimental.MutableHashTable.

A table keeps its contents as two 1-D arrays (keys, values); lookups run the LookupTableFindV2 op
(simdist/runtime/ops/lookup_find.py) on them. TF's checks are kept where TF makes them: the
Python wrappers' dtype checks (TypeError), the import's shape and duplicate-key checks
(InvalidArgumentError / FailedPreconditionError at construction), the insert's shape check.
`export()` returns the entries in insertion order; TF returns a hash table's iteration order
(unspecified), so programs (Keras's IndexLookup among them) sort or re-index what they export.
A MutableHashTable's contents change under insert/remove: inside a tf.function its ops run on the
table as the call runs (the call is not recorded for replay, so every call re-runs them); a dry run on
placeholder values leaves the table unchanged; a tf.data function using one raises NotImplementedError."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.graph_op import op_result as _op_result
from simdist.runtime.ops import lookup_find
from simdist.runtime.sparse_tensor import SparseTensor
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor
from simdist.runtime.ops.args import dims_text as _dims

__all__ = ["TableDtypes", "KeyValueTensorInitializer", "TextFileIndex", "TextFileInitializer", "StaticHashTable",
           "MutableHashTable", "table_op_runs"]


def _item(v: Any) -> Any:
    return v if isinstance(v, bytes) else v.item()


def _text(v: Any) -> str:
    return v.decode("utf-8", "backslashreplace") if isinstance(v, bytes) else str(v)


class TableDtypes:
    """The key_dtype and value_dtype properties of TF's tables and table initializers (kept as _key_dtype and
    _value_dtype)."""

    _key_dtype: dtypes.DType
    _value_dtype: dtypes.DType

    @property
    def key_dtype(self) -> dtypes.DType:
        return self._key_dtype

    @property
    def value_dtype(self) -> dtypes.DType:
        return self._value_dtype


class KeyValueTensorInitializer:
    """`tf.lookup.KeyValueTensorInitializer(keys, values, key_dtype=None, value_dtype=None)`: the
    table's contents as two tensors (converted to the given dtypes; Python ints default to int32)."""

    def __init__(self, keys: Any, values: Any, key_dtype: Any = None, value_dtype: Any = None,
                 name: str | None = None) -> None:
        self._keys = convert_to_tensor(keys, dtype=dtypes.as_dtype(key_dtype) if key_dtype is not None else None)
        self._values = convert_to_tensor(values, dtype=dtypes.as_dtype(value_dtype) if value_dtype is not None
                                         else None)
        self._name = name

    @property
    def key_dtype(self) -> dtypes.DType:
        return self._keys.dtype

    @property
    def value_dtype(self) -> dtypes.DType:
        return self._values.dtype

    def _contents(self) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(self._keys.numpy()), np.asarray(self._values.numpy())


class TextFileIndex:
    """`tf.lookup.TextFileIndex`: a column number, or the whole line / the line number."""
    WHOLE_LINE = -2
    LINE_NUMBER = -1


class TextFileInitializer(TableDtypes):
    """`tf.lookup.TextFileInitializer`: keys and values from a text file's lines (a column split by
    `delimiter`, the whole line or the line number plus `value_index_offset`: TF adds the offset to
    a LINE_NUMBER key too), at most `vocab_size` lines."""

    def __init__(self, filename: str, key_dtype: Any, key_index: int, value_dtype: Any, value_index: int,
                 vocab_size: int | None = None, delimiter: str = "\t", name: str | None = None,
                 value_index_offset: int = 0) -> None:
        self._filename = str(filename.numpy().decode() if isinstance(filename, Tensor) else filename)
        self._key_dtype, self._value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        self._key_index, self._value_index = key_index, value_index
        self._vocab_size, self._delimiter, self._offset = vocab_size, delimiter, value_index_offset
        for what, index, dt in (("Key", key_index, self._key_dtype), ("Value", value_index, self._value_dtype)):
            if index < -2:
                raise ValueError(f"`{what.lower()}_index` should be >= -2, received: {index}.")
            if index == TextFileIndex.LINE_NUMBER and dt != dtypes.int64:
                raise ValueError(f"`{what.lower()}_dtype` must be int64 if `{what.lower()}_index` is "
                                 f"{TextFileIndex.LINE_NUMBER}. Received: {dt}")
            if index == TextFileIndex.WHOLE_LINE and not dt.is_integer and dt != dtypes.string:
                raise ValueError(f"`{what.lower()}_dtype` should be either integer or string for "
                                 f"{what.lower()}_index {TextFileIndex.WHOLE_LINE}. Received: {dt}")

    def _column(self, line: str, number: int, index: int, dt: dtypes.DType, offset: int) -> Any:
        if index == TextFileIndex.LINE_NUMBER:
            return number + offset
        field = line if index == TextFileIndex.WHOLE_LINE else line.split(self._delimiter)[index]
        return field.encode("utf-8") if dt == dtypes.string else int(field) if dt.is_integer else float(field)

    def _contents(self) -> tuple[np.ndarray, np.ndarray]:
        with open(self._filename, encoding="utf-8") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if self._vocab_size is not None:
            lines = lines[:self._vocab_size]
        keys = [self._column(s, i, self._key_index, self._key_dtype, self._offset) for i, s in enumerate(lines)]
        vals = [self._column(s, i, self._value_index, self._value_dtype, self._offset) for i, s in enumerate(lines)]
        k = np.array(keys, dtype=object if self._key_dtype == dtypes.string else self._key_dtype.as_numpy_dtype)
        v = np.array(vals, dtype=object if self._value_dtype == dtypes.string else self._value_dtype.as_numpy_dtype)
        return k.reshape(-1), v.reshape(-1)


class _HashTable(TableDtypes):
    """The contents and the lookup both table kinds share."""

    _default_value: Tensor
    _keys: list
    _values: list
    _value_shape: list[int] = []   # (each value's shape: a table of vectors sets it; never mutated)

    @property
    def name(self) -> None:
        return None   # (TF 2.21's eager tables report None)

    def _arrays(self) -> tuple[Tensor, Tensor]:
        kd = object if self._key_dtype == dtypes.string else self._key_dtype.as_numpy_dtype
        vd = object if self._value_dtype == dtypes.string else self._value_dtype.as_numpy_dtype
        vshape = list(self._value_shape)
        return (convert_to_tensor(np.array(self._keys, dtype=kd).reshape(-1), dtype=self._key_dtype),
                convert_to_tensor(np.array(self._values, dtype=vd).reshape([-1] + vshape), dtype=self._value_dtype))

    def _find(self, keys: Tensor, default: Tensor) -> Tensor:
        table_keys, table_values = self._arrays()
        return lookup_find.find(keys, table_keys, table_values, default)

    def size(self, name: str | None = None) -> Tensor:
        """The number of entries, an int64 scalar."""
        return convert_to_tensor(np.int64(len(self._keys)))

    def export(self, name: str | None = None) -> tuple[Tensor, Tensor]:
        """(keys, values): every entry, in insertion order (TF: the hash table's order)."""
        return self._arrays()


class StaticHashTable(_HashTable):
    """`tf.lookup.StaticHashTable(initializer, default_value)`: an immutable table, filled once from
    its initializer; lookups of absent keys give `default_value` (converted to the value dtype)."""

    def __init__(self, initializer: Any, default_value: Any, name: str | None = None,
                 experimental_is_anonymous: bool = False) -> None:
        self._initializer = initializer
        self._key_dtype, self._value_dtype = initializer.key_dtype, initializer.value_dtype
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
        # (InitializableLookupTableBase: the default is one value, ValueError "Shapes (2,) and () are not compatible")
        self._default_value.shape.merge_with(TensorShape([]))
        self._keys, self._values = [], []
        contents = initializer._contents()
        self._initialized = contents is not None   # (an initializer that fills nothing: Keras's NullInitializer)
        if contents is None:
            return
        keys, values = contents
        if keys.shape != values.shape:
            raise errors.InvalidArgumentError(None, None, f"Expected shape {list(keys.shape)} for value, got "
                                              f"{list(values.shape)} [Op:LookupTableImportV2]")
        entries: dict[Any, int] = {}
        for k, v in zip(keys.reshape(-1), values.reshape(-1)):
            kk, vv = _item(k), _item(v)
            if kk in entries:
                if self._values[entries[kk]] != vv:
                    raise errors.FailedPreconditionError(
                        None, None, f"HashTable has different value for same key. Key {_text(kk)} has "
                        f"{_text(self._values[entries[kk]])} and trying to add value {_text(vv)} "
                        "[Op:LookupTableImportV2]")
                continue
            entries[kk] = len(self._keys)
            self._keys.append(kk)
            self._values.append(vv)

    @property
    def default_value(self) -> Tensor:
        return self._default_value

    def lookup(self, keys: Any, name: str | None = None) -> Any:
        """Each key's value (default_value where absent), in the keys' shape; a SparseTensor's
        values are looked up and its indices kept."""
        key_tensor = keys.values if isinstance(keys, SparseTensor) else keys
        if keys.dtype.base_dtype != self._key_dtype:   # (a list has no dtype: AttributeError, as TF)
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, received: {keys.dtype}")
        if not self._initialized:
            raise errors.FailedPreconditionError(None, None, "Table not initialized. [Op:LookupTableFindV2]")
        values = self._find(key_tensor, self._default_value)
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, values, keys.dense_shape)
        return values

    __getitem__ = lookup


def table_op_runs(what: str, mutates: bool = False, table: str = "MutableHashTable") -> bool:
    """Whether a mutable table's op (MutableHashTable's, DenseHashTable's) runs now (False: a mutation inside a dry
    run on placeholder values, which must not change the table). Inside a tf.function the op's effect is not
    recordable, so the call stays eager (each call runs the op again, as TF's graph does); a tf.data function is not
    supported."""
    from simdist.runtime import context
    from simdist.runtime.ops import dispatch
    if context.executing_eagerly():
        return True
    if not context.in_function():
        raise NotImplementedError(f"{table}.{what} inside a tf.data function: simdist runs a mutable table's ops "
                                  "eagerly or in a tf.function only")
    dispatch.unrecordable(f"it runs {table}.{what} (a mutable table's ops are not recorded)")
    return not (mutates and context.in_placeholder_run())


class MutableHashTable(_HashTable):
    """`tf.lookup.experimental.MutableHashTable(key_dtype, value_dtype, default_value)`: a table
    filled by `insert` (an existing key's value replaced) and emptied by `remove` (absent keys
    ignored); a default_value of rank 1 makes a table of vectors (TF's MutableHashTableOfTensors:
    insert takes values of shape keys.shape + value_shape, lookup gives that shape)."""

    def __init__(self, key_dtype: Any, value_dtype: Any, default_value: Any, name: str = "MutableHashTable",
                 checkpoint: bool = True, experimental_is_anonymous: bool = False) -> None:
        self._key_dtype, self._value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
        self._value_shape = [int(d) for d in self._default_value.shape.as_list()]
        self._index: dict[Any, int] = {}
        self._keys, self._values = [], []

    def insert(self, keys: Any, values: Any, name: str | None = None) -> Any:
        """Insert (or overwrite) each key's value; keys and values of one shape."""
        run = table_op_runs("insert", mutates=True)
        k = convert_to_tensor(keys, dtype=self._key_dtype, name="keys")
        v = convert_to_tensor(values, dtype=self._value_dtype, name="values")
        expected = k.shape.as_list() + self._value_shape
        if expected != v.shape.as_list():
            raise errors.InvalidArgumentError(None, None, f"Expected shape {_dims(expected)} for value, got "
                                              f"{_dims(v.shape.as_list())} [Op:LookupTableInsertV2]")
        rows = np.asarray(v.numpy()).reshape([-1] + self._value_shape) if run else []
        for kk, vv in zip(np.asarray(k.numpy()).reshape(-1), rows):
            kk, vv = _item(kk), (_item(vv) if not self._value_shape else vv.copy())
            if kk in self._index:
                self._values[self._index[kk]] = vv
            else:
                self._index[kk] = len(self._keys)
                self._keys.append(kk)
                self._values.append(vv)
        # (TF's insert returns its op: None eagerly, an Operation in a tf.function)
        return _op_result("MutableHashTable_lookup_table_insert/LookupTableInsertV2", "LookupTableInsertV2")

    def remove(self, keys: Any, name: str | None = None) -> Any:
        """Remove the keys present (others ignored)."""
        run = table_op_runs("remove", mutates=True)
        if keys.dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, received: {keys.dtype}")
        if run:
            gone = {_item(k) for k in np.asarray(keys.numpy()).reshape(-1)}
            kept = [(k, v) for k, v in zip(self._keys, self._values) if k not in gone]
            self._keys = [k for k, _ in kept]
            self._values = [v for _, v in kept]
            self._index = {k: i for i, k in enumerate(self._keys)}
        return _op_result("MutableHashTable_lookup_table_remove/LookupTableRemoveV2", "LookupTableRemoveV2")

    def lookup(self, keys: Any, dynamic_default_values: Any = None, name: str | None = None) -> Tensor:
        """Each key's value (the default where absent), in the keys' shape."""
        table_op_runs("lookup")
        k = convert_to_tensor(keys, dtype=self._key_dtype, name="keys")
        if dynamic_default_values is None and not self._value_shape:
            return self._find(k, self._default_value)
        full = k.shape.as_list() + self._value_shape
        default = np.asarray(self._default_value.numpy())
        if dynamic_default_values is not None:
            d = convert_to_tensor(dynamic_default_values, dtype=self._value_dtype)
            if d.shape.as_list() not in (self._value_shape, full):   # (one default value, or one per key)
                raise errors.InvalidArgumentError(None, None, f"Expected shape {_dims(self._value_shape)} or "
                                                  f"{_dims(full)} for default value, got {_dims(d.shape.as_list())} "
                                                  "[Op:LookupTableFindV2]")
            default = np.broadcast_to(np.asarray(d.numpy()), full).reshape([-1] + self._value_shape)
        vd = object if self._value_dtype == dtypes.string else self._value_dtype.as_numpy_dtype
        flat = np.asarray(k.numpy()).reshape(-1)
        out = np.empty([flat.size] + self._value_shape, dtype=vd)
        for i, key in enumerate(flat):
            j = self._index.get(_item(key))
            out[i] = self._values[j] if j is not None else (default[i] if dynamic_default_values is not None
                                                             else default)
        return convert_to_tensor(out.reshape(full), dtype=self._value_dtype)

    def size(self, name: str | None = None) -> Tensor:
        table_op_runs("size")
        return super().size(name)

    def export(self, name: str | None = None) -> tuple[Tensor, Tensor]:
        table_op_runs("export")
        return super().export(name)
