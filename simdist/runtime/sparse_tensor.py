"""`tf.SparseTensor`: a tensor of dense shape `dense_shape` given by its non-default entries,
`values[i]` at `indices[i]` (clause ops.sparse). A composite of three tensors, as TF's: the ops of
tf.sparse take the three apart, so gradients reach `values` through ordinary tensors and the tape
(framework/sparse_tensor.py)."""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes
from simdist.runtime.symbolic import DEPTH as _SYM_DEPTH
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor, user_reads

__all__ = ["SparseTensor", "SparseTensorSpec", "is_sparse"]


def _with_rank(t: Tensor, rank: int) -> None:
    if t.shape.rank != rank:
        raise ValueError(f"Shape {t.shape} must have rank {rank}")


def _compatible(a: int | None, b: int | None) -> None:
    if a is not None and b is not None and a != b:
        raise ValueError(f"Dimensions {a} and {b} are not compatible")


class SparseTensor:
    """values[i] at indices[i] of a tensor of shape dense_shape; the other entries are zero."""

    # _static: the dense shape a tf.function's graph gives it, when built while one traces (None: no trace, or the
    # graph knows its values' shape): constant_value_as_shape of dense_shape (ops/composite_shapes.py)
    __slots__ = ("_indices", "_values", "_dense_shape", "_shape", "_static", "__weakref__")

    def __init__(self, indices: Any, values: Any, dense_shape: Any) -> None:
        ind = convert_to_tensor(indices, dtype=dtypes.int64)
        val = values if isinstance(values, Tensor) else convert_to_tensor(values)
        shp = convert_to_tensor(dense_shape, dtype=dtypes.int64)
        _with_rank(ind, 2)
        _with_rank(val, 1)
        _with_rank(shp, 1)
        _compatible(ind.shape[0], val.shape[0])
        _compatible(ind.shape[1], shp.shape[0])
        self._indices, self._values, self._dense_shape = ind, val, shp
        self._shape = TensorShape([int(d) if d >= 0 else None for d in shp._v.tolist()])
        self._static = None
        if _SYM_DEPTH[0]:
            from simdist.runtime.ops import composite_shapes
            dims = composite_shapes.sparse_shape(shp)
            if dims != self._shape.as_list():
                self._static = TensorShape(dims)

    @classmethod
    def from_value(cls, sparse_tensor_value: Any) -> "SparseTensor":
        if not is_sparse(sparse_tensor_value):
            raise TypeError(f"Argument sparse_tensor_value={sparse_tensor_value} is neither a SparseTensor nor "
                            "SparseTensorValue.")
        return SparseTensor(sparse_tensor_value.indices, sparse_tensor_value.values, sparse_tensor_value.dense_shape)

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def dense_shape(self) -> Tensor:
        return self._dense_shape

    @property
    def dtype(self) -> dtypes.DType:
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        """The dense shape; inside a tf.function user code reads the graph's static one (simdist's own code the
        concrete one, as a tensor's `_graph_shape`; `static_shape` is TF's Python's reading)."""
        if self._static is not None and _SYM_DEPTH[0] and user_reads(1):
            return self._static
        return self._shape

    def get_shape(self) -> TensorShape:
        if self._static is not None and _SYM_DEPTH[0] and user_reads(1):
            return self._static
        return self._shape

    def static_shape(self) -> TensorShape:
        """The static dense shape the graph being built gives it (TF's `_dense_shape_default`)."""
        return self._static if self._static is not None and _SYM_DEPTH[0] else self._shape

    def set_shape(self, shape: Any) -> None:
        """Eagerly a shape assertion (ValueError when `shape` is not compatible); in a traced function also the
        merge of `shape` into the static dense shape the graph gives it."""
        new = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        if not self._shape.is_compatible_with(new):
            raise ValueError(f"Tensor's shape {self._shape} is not compatible with supplied shape {new.as_list()}")
        if self._static is not None:
            merged = self._static.merge_with(new)
            self._static = None if merged.rank is not None and merged.as_list() == self._shape.as_list() else merged

    def with_values(self, new_values: Any) -> "SparseTensor":
        """The same indices and dense shape with `new_values` (any dtype)."""
        return SparseTensor(self._indices, new_values, self._dense_shape)

    def consumers(self) -> list:
        return []

    @property
    def _type_spec(self) -> "SparseTensorSpec":
        return SparseTensorSpec(self.static_shape(), self.dtype)

    def __repr__(self) -> str:
        # (TF's "%s" of each component: str, not format, so an eager tensor shows as tf.Tensor(..., shape, dtype))
        return f"SparseTensor(indices={self._indices!s}, values={self._values!s}, dense_shape={self._dense_shape!s})"

    # SparseDenseCwise{Mul,Div}: `sp * dense`, `sp / dense` (TF overrides only these operators)
    def __mul__(self, other: Any) -> "SparseTensor":
        from simdist.runtime.ops import sparse_math
        return sparse_math.cwise(self, other, "mul")

    def __truediv__(self, other: Any) -> "SparseTensor":
        from simdist.runtime.ops import sparse_math
        return sparse_math.cwise(self, other, "truediv")

    def __div__(self, other: Any) -> "SparseTensor":
        from simdist.runtime.ops import sparse_math
        return sparse_math.cwise(self, other, "div")


class SparseTensorSpec:
    """`tf.SparseTensorSpec`: the dense shape and dtype of a SparseTensor."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape: Any = None, dtype: Any = dtypes.float32) -> None:
        self.shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)

    @classmethod
    def from_value(cls, value: Any) -> "SparseTensorSpec":
        return cls(value.shape, value.dtype)

    @property
    def value_type(self) -> type:
        return SparseTensor

    # TF's private batching helpers (tf.data's batch and unbatch of SparseTensor elements)
    def _batch(self, batch_size: int | None) -> "SparseTensorSpec":
        return SparseTensorSpec(TensorShape([batch_size]).concatenate(self.shape), self.dtype)

    def _unbatch(self) -> "SparseTensorSpec":
        if self.shape.rank == 0:
            raise ValueError("Unbatching a tensor is only supported for rank >= 1")
        return SparseTensorSpec(self.shape[1:] if self.shape.rank is not None else None, self.dtype)

    def is_compatible_with(self, other: Any) -> bool:
        spec = other._type_spec if isinstance(other, SparseTensor) else other
        return isinstance(spec, SparseTensorSpec) and spec.dtype == self.dtype \
            and self.shape.is_compatible_with(spec.shape)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, SparseTensorSpec) and other.dtype == self.dtype and other.shape == self.shape

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype))

    def __repr__(self) -> str:
        return f"SparseTensorSpec(TensorShape({self.shape.as_list() if self.shape.rank is not None else None}), " \
               f"tf.{self.dtype.name})"


def is_sparse(x: Any) -> bool:
    return isinstance(x, SparseTensor)
