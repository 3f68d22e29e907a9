"""The feature configurations of tf.io's Example parsers (TF 2.21's python/ops/parsing_config.py):
`FixedLenFeature(shape, dtype, default_value=None)`, `VarLenFeature(dtype)`,
`FixedLenSequenceFeature(shape, dtype, allow_missing=False, default_value=None)` and
`SparseFeature(index_key, value_key, dtype, size, already_sorted=False)` as TF's namedtuples, and
`ParseParams.from_features`: the ParseExampleV2 op's attributes from a feature dict, with TF's
ValueErrors (keys taken in sorted order; an unsupported entry, a missing dtype or shape, a
FixedLenFeature shape not fully known, keys both dense and sparse, a key's conflicting sparse
types). Dense defaults as `_make_dense_default` makes them: a FixedLenFeature's default reshaped
to its shape (none: an empty tensor, the kernel's "required"), a FixedLenSequenceFeature's a
scalar padding value ("" or 0 unless given). Clause io.parse-example.
"""

from __future__ import annotations

import collections
from typing import Any

from simdist.runtime import dtypes
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor

__all__ = ["FixedLenFeature", "VarLenFeature", "FixedLenSequenceFeature", "SparseFeature", "RaggedFeature",
           "ParseParams"]


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """Configuration for parsing a variable-length feature into a SparseTensor."""


class SparseFeature(collections.namedtuple("SparseFeature",
                                           ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """Configuration for a SparseTensor built from an index feature(s) and a value feature."""

    def __new__(cls, index_key: Any, value_key: Any, dtype: Any, size: Any, already_sorted: bool = False) -> Any:
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


class FixedLenFeature(collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """Configuration for parsing a fixed-length feature (required unless default_value is given)."""

    def __new__(cls, shape: Any, dtype: Any, default_value: Any = None) -> Any:
        return super().__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple("FixedLenSequenceFeature",
                                                     ["shape", "dtype", "allow_missing", "default_value"])):
    """Configuration for parsing a variable number of fixed-shape blocks into a dense tensor."""

    def __new__(cls, shape: Any, dtype: Any, allow_missing: bool = False, default_value: Any = None) -> Any:
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class RaggedFeature(collections.namedtuple("RaggedFeature",
                                           ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """Configuration for parsing a feature into a RaggedTensor (a 1-D tensor for one Example).
    simdist parses the value feature only: partitions are NotImplementedError when parsed."""

    RowSplits = collections.namedtuple("RowSplits", ["key"])
    RowLengths = collections.namedtuple("RowLengths", ["key"])
    RowStarts = collections.namedtuple("RowStarts", ["key"])
    RowLimits = collections.namedtuple("RowLimits", ["key"])
    ValueRowIds = collections.namedtuple("ValueRowIds", ["key"])
    UniformRowLength = collections.namedtuple("UniformRowLength", ["length"])

    def __new__(cls, dtype: Any, value_key: Any = None, partitions: Any = (), row_splits_dtype: Any = dtypes.int32,
                validate: bool = False) -> Any:
        if value_key is not None:
            if not isinstance(value_key, str):
                raise ValueError(f"Argument `value_key` must be a string; got {value_key}")
            if not value_key:
                raise ValueError("Argument `value_key` must not be empty")
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.int64, dtypes.float32, dtypes.string):
            raise ValueError(f"Argument `dtype` must be int64, float32, or bytes; got {dtype!r}")
        row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if row_splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"Argument `row_splits_dtype` must be int32 or int64; got{row_splits_dtype!r}")  # (TF's text)
        if not isinstance(partitions, (list, tuple)):
            raise TypeError(f"Argument `partitions` must be a list or tuple. Received partitions={partitions} of "
                            f"type {type(partitions).__name__}.")
        if not isinstance(validate, bool):
            raise TypeError(f"Argument `validate` must be a bool; got {validate!r}")
        return super().__new__(cls, dtype, value_key, tuple(partitions), row_splits_dtype, validate)


class ParseParams:
    """The op's parameters: sparse keys and types, dense keys, types, shapes (a TensorShape, its
    first dimension None for a sequence feature) and defaults (key -> value)."""

    def __init__(self) -> None:
        self.sparse_keys: list[str] = []
        self.sparse_types: list[dtypes.DType] = []
        self.dense_keys: list[str] = []
        self.dense_types: list[dtypes.DType] = []
        self.dense_shapes: list[TensorShape] = []
        self.dense_defaults: dict[str, Any] = {}
        self.ragged_keys: list[str] = []
        self.ragged_types: list[dtypes.DType] = []
        self.ragged_split_types: list[dtypes.DType] = []

    @classmethod
    def from_features(cls, features: dict, types: tuple) -> "ParseParams":
        params = cls()
        for key in sorted(features.keys()):
            feature = features[key]
            if not isinstance(feature, types):
                raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key '{key}'")
            params._add(key, feature)
        params._validate()
        return params

    @property
    def num_features(self) -> int:
        return len(self.dense_keys) + len(self.sparse_keys) + len(self.ragged_keys)

    def _add(self, key: str, feature: Any) -> None:
        if isinstance(feature, VarLenFeature):
            if not feature.dtype:
                raise ValueError(f"Missing type for feature {key}. Received feature={feature}")
            self._add_sparse_key(key, dtypes.as_dtype(feature.dtype))
        elif isinstance(feature, SparseFeature):
            if not feature.index_key:
                raise ValueError(f"Missing index_key for SparseFeature {feature}.")
            if not feature.value_key:
                raise ValueError(f"Missing value_key for SparseFeature {feature}.")
            if not feature.dtype:
                raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
            index_keys = [feature.index_key] if isinstance(feature.index_key, str) else feature.index_key
            for index_key in sorted(index_keys):
                self._add_sparse_key(index_key, dtypes.int64)
            self._add_sparse_key(feature.value_key, dtypes.as_dtype(feature.dtype))
        elif isinstance(feature, FixedLenFeature):
            self._add_fixed(key, feature)
        elif isinstance(feature, RaggedFeature):
            if feature.partitions:
                raise NotImplementedError("RaggedFeature partitions are not supported by simdist (only the value "
                                          "feature is parsed)")
            value_key = key if feature.value_key is None else feature.value_key
            if value_key in self.ragged_keys:
                i = self.ragged_keys.index(value_key)
                if self.ragged_types[i] != feature.dtype:
                    raise ValueError(f"Conflicting type {self.ragged_types[i]} vs {feature.dtype} for feature "
                                     f"{value_key}.")
                if self.ragged_split_types[i] != feature.row_splits_dtype:
                    raise ValueError(f"Conflicting partition type {self.ragged_split_types[i]} vs "
                                     f"{feature.row_splits_dtype} for feature {value_key}.")
            else:
                self.ragged_keys.append(value_key)
                self.ragged_types.append(feature.dtype)
                self.ragged_split_types.append(feature.row_splits_dtype)
        elif isinstance(feature, FixedLenSequenceFeature):
            if not feature.dtype:
                raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
            if feature.shape is None:
                raise ValueError(f"Missing shape for feature {key}. Received feature={feature}.")
            self.dense_keys.append(key)
            self.dense_shapes.append(TensorShape(feature.shape))
            self.dense_types.append(dtypes.as_dtype(feature.dtype))
            if feature.allow_missing:
                self.dense_defaults[key] = None
            if feature.default_value is not None:
                self.dense_defaults[key] = feature.default_value
        else:
            raise ValueError(f"Invalid feature {key}:{feature}.")

    def _add_fixed(self, key: str, feature: FixedLenFeature) -> None:
        if not feature.dtype:
            raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
        if feature.shape is None:
            raise ValueError(f"Missing shape for feature {key}. Received feature={feature}.")
        shape = TensorShape(feature.shape)
        if feature.shape and shape.rank and shape.as_list()[0] is None:
            raise ValueError(f"First dimension of shape for feature {key} unknown. Consider using "
                             f"FixedLenSequenceFeature. Received feature={feature}.")
        if not shape.is_fully_defined():
            raise ValueError(f"All dimensions of shape for feature {key} need to be known but received "
                             f"{feature.shape!s}.")
        self.dense_keys.append(key)
        self.dense_shapes.append(shape)
        self.dense_types.append(dtypes.as_dtype(feature.dtype))
        if feature.default_value is not None:
            self.dense_defaults[key] = feature.default_value

    def _add_sparse_key(self, key: str, dtype: dtypes.DType) -> None:
        if key in self.sparse_keys:
            original = self.sparse_types[self.sparse_keys.index(key)]
            if original != dtype:
                raise ValueError(f"Conflicting type {original} vs {dtype} for feature {key}.")
        else:
            self.sparse_keys.append(key)
            self.sparse_types.append(dtype)

    def _validate(self) -> None:
        both = [k for k in self.dense_keys if k in self.sparse_keys]
        if both:
            raise ValueError(f"Dense and sparse keys must not intersect; dense_keys: {self.dense_keys}, sparse_keys: "
                             f"{self.sparse_keys}, intersection: {set(both)}")
        both = [k for k in self.dense_keys if k in self.ragged_keys]
        if both:   # (TF 2.21 passes this message's parts as a tuple: ValueError's args)
            raise ValueError("Dense and ragged keys must not intersect; dense_keys: ",
                             f"{self.dense_keys}, ragged_keys: {self.ragged_keys}, intersection: {set(both)}")
        both = [k for k in self.ragged_keys if k in self.sparse_keys]
        if both:
            raise ValueError(f"Ragged and sparse keys must not intersect; ragged_keys: {self.ragged_keys}, sparse_keys: "
                             f"{self.sparse_keys}, intersection: {set(both)}")

    def dense_default(self, i: int) -> Tensor:
        """The i-th dense feature's default as the op takes it (parsing_config._make_dense_default)."""
        from simdist.runtime.ops import array
        key, shape, dtype = self.dense_keys[i], self.dense_shapes[i], self.dense_types[i]
        value = self.dense_defaults.get(key)
        if shape.rank and shape.as_list()[0] is None:
            if value is None:
                return convert_to_tensor("" if dtype == dtypes.string else 0, dtype=dtype)
            return array.reshape(convert_to_tensor(value, dtype=dtype), [])
        if value is None:
            return convert_to_tensor([], dtype=dtype)
        if isinstance(value, Tensor):
            return value
        return array.reshape(convert_to_tensor(value, dtype=dtype), shape.as_list())
