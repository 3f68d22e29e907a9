"""`Dataset.ragged_batch` and `tf.data.experimental.dense_to_ragged_batch` (clause dataset.ragged-batch):
batches of dense elements of different shapes as RaggedTensors, TF's composition (data/ops/ragged_batch_op.py):
a `_DenseToRaggedDataset` that types each dense component of known rank and not fully known shape as a
RaggedTensorSpec (ragged_rank: its last unknown dimension), then `batch`, whose RaggedTensorSpec leaves
combine one ragged level up (components.batch_ragged)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import _bool_arg, _int_arg
from simdist.runtime.ragged_tensor import RaggedTensorSpec
from simdist.runtime.spec import TensorSpec, flatten, map_structure

if TYPE_CHECKING:
    from simdist.runtime.data.dataset import DatasetV2

__all__ = ["ragged_batch", "dense_to_ragged_batch"]


def _to_ragged_spec(spec: Any, row_splits_dtype: dtypes.DType) -> Any:
    """TF's `to_ragged_spec`: a TensorSpec of known rank with an unknown dim becomes a RaggedTensorSpec
    whose ragged_rank is the last unknown dim's axis; anything else stays."""
    if type(spec) is not TensorSpec or spec.shape.rank is None or spec.shape.is_fully_defined():
        return spec
    ragged_rank = max(axis for axis, size in enumerate(spec.shape.as_list()) if size is None)
    return RaggedTensorSpec(spec.shape, spec.dtype, ragged_rank, row_splits_dtype)


def _uniform_components(a: np.ndarray, ragged_rank: int, np_dt: Any) -> list[np.ndarray]:
    """A dense array as a RaggedTensor of `ragged_rank` uniform levels (RaggedTensor.from_tensor): its
    flat values, then one row_splits per level."""
    shape = a.shape
    flat = a.reshape((-1,) + shape[ragged_rank + 1:])
    splits = []
    for j in range(1, ragged_rank + 1):
        nrows = int(np.prod(shape[:j]))
        splits.append(np.arange(nrows + 1, dtype=np_dt) * shape[j])
    return [flat] + splits


class _DenseToRaggedDataset(_UnaryDataset):
    """The input's elements with the dense components `_to_ragged_spec` makes ragged re-encoded as
    RaggedTensors of uniform rows (TF maps them with RaggedTensor.from_tensor)."""

    _KIND = "MapDataset"

    def __init__(self, input_dataset: DatasetV2, row_splits_dtype: dtypes.DType) -> None:
        spec = map_structure(lambda s: _to_ragged_spec(s, row_splits_dtype), input_dataset.element_spec)
        super().__init__((input_dataset,), {"row_splits_dtype": row_splits_dtype}, spec)
        self._ranks = [s.ragged_rank if isinstance(s, RaggedTensorSpec) else None for s in flatten(spec)]
        self._in_widths = [len(flatten(s)) for s in flatten(input_dataset.element_spec)]

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        if not any(self._ranks):
            return self._input._iter_flat()   # (no component gains a ragged level: the same components)
        np_dt = self._params["row_splits_dtype"].np

        def convert(flat: list[np.ndarray]) -> list[np.ndarray]:
            out: list[np.ndarray] = []
            for a, k in zip(flat, self._ranks):
                out.extend(_uniform_components(a, k, np_dt) if k else [a])
            return out
        from simdist.runtime.data.resumable import expand
        return expand(self._input._iter_flat, lambda flat: [convert(flat)])

    def _card(self) -> int:
        return self._input._card()


def ragged_batch(dataset: DatasetV2, batch_size: Any, drop_remainder: Any = False,
                 row_splits_dtype: Any = dtypes.int64) -> DatasetV2:
    """`Dataset.ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=tf.int64)`."""
    ragged = _DenseToRaggedDataset(dataset, dtypes.as_dtype(row_splits_dtype))
    return ragged.batch(_int_arg(batch_size), _bool_arg(drop_remainder))


def dense_to_ragged_batch(batch_size: Any, drop_remainder: Any = False, row_splits_dtype: Any = dtypes.int64) -> Any:
    """`tf.data.experimental.dense_to_ragged_batch`: the apply form of `ragged_batch`."""
    return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder, row_splits_dtype)
