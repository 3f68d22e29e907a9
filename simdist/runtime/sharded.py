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
    _simdist_trackable = True   # a TF Trackable: tf.train.Checkpoint takes it (runtime/trackable.py)

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

    # (no `trainable`: TF 2.21's ShardedVariable has none, AttributeError; fz52d)

    @property
    def is_sharded_variable(self) -> bool:
        """TF 2.21's ShardedVariable.is_sharded_variable (a property): True."""
        return True

    @property
    def nbytes(self) -> int:
        return sum(v.nbytes for v in self._variables)

    def _as_tensor(self) -> Tensor:
        """The whole table: every shard read and concatenated (TF's conversion: concat of the
        shards), so gradients reach each shard densely."""
        from simdist.runtime.ops import array
        return array.concat([v._as_tensor() for v in self._variables], 0)

    def numpy(self) -> np.ndarray:
        return self._as_tensor().numpy()

    # (no `value()` / `read_value()`: TF 2.21's ShardedVariable has neither, `v.read_value()` is AttributeError
    # "'ShardedVariable' object has no attribute 'read_value'"; fz52d seed 52209 #4, #6)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = self._as_tensor()._v
        return arr if dtype is None else arr.astype(dtype)

    def _split(self, value: Any) -> list[Tensor]:
        """The value's slice for each shard: TF 2.21's `array_ops.slice(value, offsets[i], shard.shape)`, so the
        value converts with its own dtype (Python ints are int32, a float64 array stays float64: each shard's
        assign then refuses another dtype than the variable's with its ValueError "Tensor conversion requested
        dtype ..."), a larger value gives each shard its rows and columns from the offset and the rest is
        ignored, a smaller one is Slice's InvalidArgumentError (clause pss.sharded-variable; dvsweep66b)."""
        from simdist.runtime.ops import slicing
        t = value._as_tensor() if hasattr(value, "_as_tensor") else convert_to_tensor(value)
        return [slicing.slice_(t, [int(self._offsets[i])] + [0] * (len(v.shape) - 1), v.shape.as_list())
                for i, v in enumerate(self._variables)]

    def assign(self, value: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        for v, part in zip(self._variables, self._split(value)):
            v.assign(part)
        return self if read_value else None

    def assign_add(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        for v, part in zip(self._variables, self._split(delta)):
            v.assign_add(part)
        return self if read_value else None

    def assign_sub(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        for v, part in zip(self._variables, self._split(delta)):
            v.assign_sub(part)
        return self if read_value else None

    def _shard_rows(self, ids: Any) -> tuple[Any, np.ndarray, list[Tensor], list[Tensor]]:
        """(ids as a tensor, as int64, and per shard: the positions in ids of the rows it holds,
        and those rows), as TF's partitioned lookup with the "div" strategy splits them: each
        shard gathers its own rows (sparse reads: only those rows move, and each shard's
        gradient is IndexedSlices of its local rows, empty for a shard no id falls in)."""
        from simdist.runtime.ops import array, dispatch
        idt = ids if isinstance(ids, Tensor) else convert_to_tensor(ids)
        idx = np.asarray(dispatch.static_value(idt)).astype(np.int64)
        n = int(self._offsets[-1])
        bad = idx[(idx < 0) | (idx >= n)]
        if bad.size:
            raise errors.InvalidArgumentError(None, None, f"indices = {int(bad.flat[0])} is not in [0, {n}) "
                                              "[Op:ResourceGather]")
        flat = idx.reshape(-1)
        shard_of = np.searchsorted(self._offsets, flat, side="right") - 1
        positions, pieces = [], []
        for s in range(len(self._variables)):
            mask = shard_of == s
            local = (flat[mask] - self._offsets[s]).astype(idt.dtype.np)
            positions.append(array.constant(np.nonzero(mask)[0].astype(np.int32)))
            pieces.append(self._variables[s].sparse_read(array.constant(local)))
        return idt, idx, positions, pieces

    def _gather_rows(self, ids: Any) -> Tensor:
        """Rows `ids` (any shape) in the ids' order, as TF's embedding_lookup gives them: the
        shards' rows stitched back together (DynamicStitch)."""
        from simdist.runtime.ops import array, data_flow
        if len(self._variables) == 1:
            return self._variables[0].sparse_read(ids if isinstance(ids, Tensor) else convert_to_tensor(ids))
        _, idx, positions, pieces = self._shard_rows(ids)
        rows = data_flow.dynamic_stitch(positions, pieces)
        return array.reshape(rows, list(idx.shape) + self._shape.as_list()[1:])

    def sparse_read(self, indices: Any, name: str | None = None) -> Tensor:
        """TF 2.21's `ShardedVariable.sparse_read`, which `tf.gather` calls: each shard's rows, the
        shards concatenated in order, *not* put back in the order of `indices` (clause
        pss.sharded-gather); `indices` must be 1-D."""
        from simdist.runtime.ops import array
        # (TF's _decompose_indices reads `indices.shape.rank`: a list or NumPy array has no TensorShape, and the
        # AttributeError is what tf.gather catches to gather the whole value instead, rows in the ids' order;
        # dvsweep66b)
        shape = indices.shape
        if shape.rank != 1:
            raise ValueError(f"ShardedVariable: indices must be 1D Tensor for sparse operations. Received shape: {shape}")
        _, _, _, pieces = self._shard_rows(indices)
        return array.concat(pieces, 0)

    def _scatter(self, method: str, sparse_delta: Any, name: Any = None) -> "ShardedVariable":
        """TF 2.21's ShardedVariable.scatter_*: the IndexedSlices decomposed by shard ("div" sharding: each shard's
        rows, indices made local), every shard's own scatter called (an empty one too), the ShardedVariable
        returned; `indices` must be 1-D (ValueError). fz52d, clause pss.sharded-update."""
        from simdist.runtime.indexed_slices import IndexedSlices
        from simdist.runtime.ops import array, dispatch
        idt = sparse_delta.indices if isinstance(sparse_delta.indices, Tensor) else convert_to_tensor(
            sparse_delta.indices)
        if idt.shape.rank != 1:
            raise ValueError(f"ShardedVariable: indices must be 1D Tensor for sparse operations. Received shape: "
                             f"{idt.shape}")
        vals = sparse_delta.values if isinstance(sparse_delta.values, Tensor) else convert_to_tensor(
            sparse_delta.values)
        idx = np.asarray(dispatch.static_value(idt)).astype(np.int64)
        n = int(self._offsets[-1])
        outside = idx[(idx < 0) | (idx >= n)]
        if outside.size:
            raise errors.InvalidArgumentError(None, None, f"indices = {int(outside.flat[0])} is not in [0, {n})")
        shard_of = np.searchsorted(self._offsets, idx, side="right") - 1
        varr = np.asarray(dispatch.static_value(vals))
        for s, v in enumerate(self._variables):
            mask = shard_of == s
            local = array.constant((idx[mask] - self._offsets[s]).astype(idt.dtype.np))
            getattr(v, method)(IndexedSlices(Tensor(varr[mask], vals.dtype), local),
                               name=None if name is None else f"{name}/part_{s}")
        return self

    def scatter_add(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ShardedVariable":
        return self._scatter("scatter_add", sparse_delta, name)

    def scatter_sub(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ShardedVariable":
        return self._scatter("scatter_sub", sparse_delta, name)

    def scatter_mul(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ShardedVariable":
        return self._scatter("scatter_mul", sparse_delta, name)

    def scatter_div(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ShardedVariable":
        return self._scatter("scatter_div", sparse_delta, name)

    def scatter_max(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ShardedVariable":
        return self._scatter("scatter_max", sparse_delta, name)

    def scatter_min(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ShardedVariable":
        return self._scatter("scatter_min", sparse_delta, name)

    def scatter_update(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ShardedVariable":
        return self._scatter("scatter_update", sparse_delta, name)

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
