"""`Dataset.sparse_batch` and `tf.data.experimental.dense_to_sparse_batch` (clause dataset.sparse-batch):
batches of dense elements of different shapes as one SparseTensor each, TF's DenseToSparseBatchDataset
(data/ops/sparse_batch_op.py; kernel data/experimental/dense_to_sparse_batch_dataset_op.cc)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data.batching import _batch_card
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import _int_arg
from simdist.runtime.sparse_tensor import SparseTensorSpec
from simdist.runtime.spec import TensorSpec, _as_shape
from simdist.runtime.tensor import Tensor, TensorShape

if TYPE_CHECKING:
    from simdist.runtime.data.dataset import DatasetV2

__all__ = ["sparse_batch", "dense_to_sparse_batch"]


def _row_shape(row_shape: Any) -> TensorShape:
    """`row_shape` as TF's TensorShape takes it (a tensor's -1 is not an unknown dim there)."""
    if isinstance(row_shape, Tensor):
        dims = [int(d) for d in np.asarray(row_shape._v).reshape(-1).tolist()]
        for d in dims:
            if d < 0:
                raise ValueError(f"Dimension {d} must be >= 0")
        return TensorShape(dims)
    return _as_shape(row_shape)


def _fmt(dims: list[int]) -> str:
    return "[" + ",".join(str(d) for d in dims) + "]"


class _DenseToSparseBatchDataset(_UnaryDataset):
    """Up to `batch_size` elements as one SparseTensor: every entry of each element (zeros included) at
    [its position in the batch] + its index, in row-major order; dense shape [n] + `row_shape`, its
    unknown dims the largest in the batch."""

    _KIND = "DenseToSparseBatchDataset"

    def __init__(self, input_dataset: DatasetV2, batch_size: int, row_shape: TensorShape) -> None:
        spec = input_dataset.element_spec
        if not isinstance(spec, TensorSpec):
            types = _legacy_types(spec)
            raise TypeError("`dense_to_sparse_batch` requires an input dataset whose elements have a single "
                            f"component, but the given dataset has the following component types: {types}.")
        if batch_size <= 0:
            raise errors.InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        out = SparseTensorSpec(TensorShape([None]).concatenate(row_shape), spec.dtype)
        super().__init__((input_dataset,), {"batch_size": batch_size, "row_shape": row_shape}, out)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        size = self._params["batch_size"]
        buf: list[np.ndarray] = []
        for flat in self._input._iter_flat():
            buf.append(flat[0])
            if len(buf) == size:
                yield self._sparse(buf)
                buf = []
        if buf:
            yield self._sparse(buf)

    def _sparse(self, batch: list[np.ndarray]) -> list[np.ndarray]:
        row = self._params["row_shape"]
        want = [-1 if d is None else d for d in row.as_list()] if row.rank is not None else None
        for e in batch:
            if want is not None and e.ndim != len(want):
                raise errors.InvalidArgumentError(
                    None, None, f"Input element had shape ({_fmt(list(e.shape))}) that is incompatible with the "
                    f"row shape ({_fmt(want)}).")
            if want is not None and any(w >= 0 and d > w for d, w in zip(e.shape, want)):
                raise errors.DataLossError(
                    None, None, f"Input element had shape ({_fmt(list(e.shape))}) that is larger than the row "
                    f"shape ({_fmt(want)}).")
        rank = batch[0].ndim if want is None else len(want)
        dims = [max(e.shape[k] for e in batch) if want is None or want[k] < 0 else want[k] for k in range(rank)]
        inds = []
        for b, e in enumerate(batch):
            pos = np.indices(e.shape).reshape(e.ndim, -1).T if e.ndim else np.zeros((1, 0), np.int64)
            inds.append(np.concatenate([np.full((pos.shape[0], 1), b, np.int64), pos.astype(np.int64)], axis=1))
        vals = np.concatenate([e.reshape(-1) for e in batch])
        return [np.concatenate(inds, axis=0), vals, np.asarray([len(batch)] + dims, np.int64)]

    def _card(self) -> int:
        return _batch_card(self._input._card(), self._params["batch_size"], False)


def _legacy_types(spec: Any) -> Any:
    from simdist.runtime.spec import map_structure
    return map_structure(lambda s: s.dtype, spec)


def sparse_batch(dataset: DatasetV2, batch_size: Any, row_shape: Any) -> DatasetV2:
    """`Dataset.sparse_batch(batch_size, row_shape)`."""
    return _DenseToSparseBatchDataset(dataset, _int_arg(batch_size), _row_shape(row_shape))


def dense_to_sparse_batch(batch_size: Any, row_shape: Any) -> Any:
    """`tf.data.experimental.dense_to_sparse_batch`: the apply form of `sparse_batch`."""
    return lambda dataset: dataset.sparse_batch(batch_size, row_shape)
