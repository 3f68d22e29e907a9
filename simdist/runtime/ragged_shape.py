"""`tf.shape` of a RaggedTensor in TF 2.21: a DynamicRaggedShape (tensorflow/python/ops/ragged/
dynamic_ragged_shape.py), the part of its public surface programs use: its repr ("<DynamicRaggedShape
lengths=[3, (2, 0, 3)] num_row_partitions=1>": a uniform dimension's size, a ragged one's row
lengths), rank, num_row_partitions, dtype, static_lengths(), indexing a uniform dimension (a scalar
of the shape's dtype; a ragged one: ValueError "Index 1 is not uniform"), and tf.zeros/tf.ones of
one (a RaggedTensor of those row lengths, row_splits of the shape's dtype). Clause ops.ragged."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["DynamicRaggedShape", "shape_of"]


class DynamicRaggedShape:
    """The shape of a RaggedTensor: per dimension its size (uniform) or its rows' lengths (ragged)."""

    __slots__ = ("_lengths", "_partitions", "_dtype")

    def __init__(self, lengths: list, num_row_partitions: int, dtype: Any) -> None:
        self._lengths = lengths
        self._partitions = num_row_partitions
        self._dtype = dtypes.as_dtype(dtype)

    @property
    def rank(self) -> int:
        return len(self._lengths)

    @property
    def num_row_partitions(self) -> int:
        return self._partitions

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    def static_lengths(self, ragged_lengths: bool = True) -> list:
        """The sizes, a ragged dimension's row lengths as a tuple (None unless ragged_lengths)."""
        return [x if isinstance(x, int) or ragged_lengths else None for x in self._lengths]

    @property
    def inner_rank(self) -> int:
        """The rank of the flat values (rank - num_row_partitions)."""
        return self.rank - self._partitions

    @property
    def inner_shape(self) -> Tensor:
        """The flat values' shape: the number of values, then their inner dimensions."""
        if self._partitions == 0:
            return convert_to_tensor(np.asarray(self._lengths, self._dtype.as_numpy_dtype), dtype=self._dtype)
        count = int(self._lengths[0])
        for lv in self._lengths[1:self._partitions + 1]:
            count = count * lv if isinstance(lv, int) else int(sum(lv))
        dims = [count] + [int(x) for x in self._lengths[self._partitions + 1:]]
        return convert_to_tensor(np.asarray(dims, self._dtype.as_numpy_dtype), dtype=self._dtype)

    def is_uniform(self, axis: int) -> bool:
        """Whether dimension `axis` has one size (not a ragged one)."""
        return isinstance(self._lengths[axis], int)

    def with_dtype(self, dtype: Any) -> "DynamicRaggedShape":
        return DynamicRaggedShape(list(self._lengths), self._partitions, dtype)

    @classmethod
    def from_lengths(cls, lengths: Any, num_row_partitions: int | None = None,
                     dtype: Any = dtypes.int64) -> "DynamicRaggedShape":
        """A shape from each dimension's size or, for a ragged one, its rows' lengths (row
        partitions up to the last ragged dimension unless given)."""
        lens = [int(x) if isinstance(x, (int, np.integer)) else tuple(int(v) for v in x) for x in lengths]
        if num_row_partitions is None:
            ragged = [k for k, x in enumerate(lens) if not isinstance(x, int)]
            num_row_partitions = ragged[-1] if ragged else 0
        return cls(lens, int(num_row_partitions), dtype)

    @classmethod
    def from_tensor(cls, t: Any, dtype: Any = None) -> "DynamicRaggedShape":
        """The shape of a RaggedTensor (its partitions) or of a dense tensor (no partitions)."""
        from simdist.runtime.ragged_tensor import RaggedTensor
        if isinstance(t, RaggedTensor):
            return shape_of(t, dtype if dtype is not None else t.row_splits_dtype)
        x = t if isinstance(t, Tensor) else convert_to_tensor(t)
        return cls([int(d) for d in x._v.shape], 0, dtype if dtype is not None else dtypes.int64)

    def __getitem__(self, index: Any) -> Tensor:
        if not isinstance(index, (int, np.integer)) or isinstance(index, bool):
            raise TypeError("Argument is not an int or a slice")
        i = int(index)
        if not -self.rank <= i < self.rank:
            raise IndexError("Index is too big: " + str(i) + ">=" + str(self.rank))
        i = i + self.rank if i < 0 else i
        x = self._lengths[i]
        if not isinstance(x, int):
            raise ValueError(f"Index {i} is not uniform")
        return convert_to_tensor(x, dtype=self._dtype)

    def __repr__(self) -> str:
        parts = ", ".join(str(x) if isinstance(x, int) else "(" + ", ".join(map(str, x)) + ")" for x in self._lengths)
        return f"<DynamicRaggedShape lengths=[{parts}] num_row_partitions={self._partitions}>"

    def _ragged_zeros(self, value: Any, dtype: Any) -> Any:
        """A RaggedTensor of this shape filled with `value` (tf.zeros/tf.ones of the shape)."""
        from simdist.runtime import ragged_partition as rp
        from simdist.runtime.ops import array
        from simdist.runtime.ragged_tensor import RaggedTensor
        dense = [x for x in self._lengths[self._partitions + 1:]]
        levels = self._lengths[1:self._partitions + 1]
        counts = [int(self._lengths[0])]
        splits = []
        for lv in levels:
            row_lengths = np.full(counts[-1], lv, np.int64) if isinstance(lv, int) else np.asarray(lv, np.int64)
            splits.append((np.concatenate([[0], np.cumsum(row_lengths)]), lv if isinstance(lv, int) else None))
            counts.append(int(row_lengths.sum()))
        out: Any = array.fill([counts[-1]] + dense, convert_to_tensor(value, dtype=dtype))
        for s, uniform in reversed(splits):
            out = RaggedTensor(out, rp.as_splits_tensor(s, self._dtype), internal=True, uniform=uniform)
        return out


def shape_of(rt: Any, out_type: Any = dtypes.int32) -> DynamicRaggedShape:
    """tf.shape(rt): nrows, each ragged level's row lengths (a uniform level its size), the flat
    values' inner sizes."""
    from simdist.runtime.ragged_tensor import RaggedTensor
    lengths: list = [rt.nrows_int()]
    v: Any = rt
    while isinstance(v, RaggedTensor):
        s = v.row_splits._v
        lengths.append(v._uniform if v._uniform is not None else tuple(int(x) for x in (s[1:] - s[:-1])))
        v = v.values
    lengths += [int(d) for d in v._v.shape[1:]]
    return DynamicRaggedShape(lengths, rt.ragged_rank, out_type)
