"""ShardedVariable: a variable split along its first axis into shards on different ps tasks."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import errors
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor


class ShardedVariable:
    """Clauses pss.sharded-variable / pss.sharded-convert: `.variables` are the shards
    (`w/part_0`, ...), concatenated on axis 0 when converted to a tensor; row lookups
    (`tf.nn.embedding_lookup`, `tf.gather`) read only the shards holding the rows."""

    def __init__(self, variables: Sequence[Any], name: str = "Variable") -> None:
        self._variables = list(variables)
        self._name = name
        first = self._variables[0]
        rows = sum(int(v.shape[0]) for v in self._variables)
        self._shape = TensorShape([rows] + list(first.shape)[1:])
        self._offsets = np.cumsum([0] + [int(v.shape[0]) for v in self._variables])

    @property
    def variables(self) -> list[Any]:
        return list(self._variables)

    @property
    def name(self) -> str:
        return self._name

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> Any:
        return self._variables[0].dtype

    @property
    def trainable(self) -> bool:
        return self._variables[0].trainable

    @property
    def nbytes(self) -> int:
        return sum(v.nbytes for v in self._variables)

    def _as_tensor(self) -> Tensor:
        parts = [v._as_tensor() for v in self._variables]
        return Tensor(np.concatenate([p._v for p in parts], axis=0), parts[0].dtype, parts[0].device)

    def numpy(self) -> np.ndarray:
        return self._as_tensor().numpy()

    def value(self) -> Tensor:
        return self._as_tensor()

    read_value = value

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = self._as_tensor()._v
        return arr if dtype is None else arr.astype(dtype)

    def _split(self, value: Any) -> list[np.ndarray]:
        t = value._as_tensor() if hasattr(value, "_as_tensor") else convert_to_tensor(value, dtype=self.dtype)
        if tuple(t._v.shape) != tuple(self._shape.as_list()):
            raise ValueError(f"Cannot assign value of shape {t.shape} to ShardedVariable {self._name!r} of shape "
                             f"{self._shape}")
        return [t._v[self._offsets[i]:self._offsets[i + 1]] for i in range(len(self._variables))]

    def assign(self, value: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        for v, part in zip(self._variables, self._split(value)):
            v.assign(Tensor(part, self.dtype))
        return self if read_value else None

    def assign_add(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        for v, part in zip(self._variables, self._split(delta)):
            v.assign_add(Tensor(part, self.dtype))
        return self if read_value else None

    def assign_sub(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        for v, part in zip(self._variables, self._split(delta)):
            v.assign_sub(Tensor(part, self.dtype))
        return self if read_value else None

    def _shard_rows(self, ids: Any) -> tuple[np.ndarray, list[Tensor], list[Tensor]]:
        """(ids as int64, per shard: the positions in ids of the rows it holds, and those rows):
        a gather on every shard of its rows (a read that moves only those rows), as TF's
        partitioned lookup and `sparse_read` do. The gathers are ops, so a tape gives each shard
        an IndexedSlices gradient (empty for a shard no id falls in), as TF 2.21 does for
        `tape.gradient(loss, sharded.variables)`."""
        from simdist.runtime.ops import array
        idx = np.asarray(convert_to_tensor(ids)._v).astype(np.int64)
        n = int(self._offsets[-1])
        bad = idx[(idx < 0) | (idx >= n)]
        if bad.size:
            raise errors.InvalidArgumentError(None, None, f"indices = {int(bad.flat[0])} is not in [0, {n}) "
                                              "[Op:ResourceGather]")
        flat = idx.reshape(-1)
        shard_of = np.searchsorted(self._offsets, flat, side="right") - 1
        positions, rows = [], []
        for s, var in enumerate(self._variables):
            mask = shard_of == s
            local = (flat[mask] - self._offsets[s]).astype(np.int32)
            row_bytes = int(var.nbytes) // max(1, int(var.shape[0])) if var.shape.rank else int(var.nbytes)
            part = var._read_rows(int(local.size) * row_bytes)
            rows.append(array.gather(part, array.constant(local)))
            positions.append(array.constant(np.flatnonzero(mask).astype(np.int32)))
        return idx, positions, rows

    def _gather_rows(self, ids: Any) -> Tensor:
        """Rows `ids` (any shape) in the order asked: `tf.nn.embedding_lookup`, which merges the
        shards' rows with DynamicStitch (clause pss.sharded-convert)."""
        from simdist.runtime.ops import array
        idx, positions, rows = self._shard_rows(ids)
        out = array.dynamic_stitch(positions, rows)
        return array.reshape(out, list(idx.shape) + self._shape.as_list()[1:])

    def sparse_read(self, indices: Any, name: str | None = None) -> Tensor:
        """TF 2.21's `ShardedVariable.sparse_read`, which `tf.gather` calls: each shard's rows, the
        shards concatenated in order, *not* put back in the order of `indices` (clause
        pss.sharded-gather); `indices` must be 1-D."""
        from simdist.runtime.ops import array
        rank = len(convert_to_tensor(indices).shape)
        if rank != 1:
            raise ValueError("ShardedVariable: indices must be 1D Tensor for sparse operations. Received shape: "
                             f"{convert_to_tensor(indices).shape}")
        _, _, rows = self._shard_rows(indices)
        return array.concat(rows, 0)

    def __add__(self, o: Any) -> Tensor:
        return self._as_tensor() + o

    def __radd__(self, o: Any) -> Tensor:
        return self._as_tensor().__radd__(o)

    def __mul__(self, o: Any) -> Tensor:
        return self._as_tensor() * o

    def __rmul__(self, o: Any) -> Tensor:
        return self._as_tensor().__rmul__(o)

    def __sub__(self, o: Any) -> Tensor:
        return self._as_tensor() - o

    def __matmul__(self, o: Any) -> Tensor:
        return self._as_tensor() @ o

    def __rmatmul__(self, o: Any) -> Tensor:
        from simdist.runtime import ops
        return ops.matmul(o, self._as_tensor())

    def __getitem__(self, key: Any) -> Tensor:
        return self._as_tensor()[key]
