"""`Dataset.unique`: the input's elements without repeats, in first-seen order (TF 2.21's
data/ops/unique_op.py and UniqueDatasetOp; clause dataset.scan-take-while-unique).

Only int32, int64 and string components (TypeError at build) and a single component
(InvalidArgumentError "UniqueDataset only supports inputs with a single component." at build); an
element is compared whole (its shape and values), as the kernel hashes the whole tensor.
Cardinality is UNKNOWN.
"""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import UNKNOWN_CARDINALITY
from simdist.runtime.spec import flatten

__all__ = ["_UniqueDataset"]


class _UniqueDataset(_UnaryDataset):
    _KIND = "UniqueDataset"

    def __init__(self, input_dataset: Any) -> None:
        specs = flatten(input_dataset.element_spec)
        for s in specs:
            if s.dtype not in (dtypes.int32, dtypes.int64, dtypes.string):
                raise TypeError(f"`tf.data.Dataset.unique` does not support type <dtype: '{s.dtype.name}'> -- only `tf.int32`, "
                                "`tf.int64`, and `tf.string` are supported.")
        if len(specs) != 1:
            raise errors.InvalidArgumentError(None, None, "UniqueDataset only supports inputs with a single "
                                              "component. [Op:UniqueDataset]")
        super().__init__((input_dataset,), {}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        seen: dict[tuple, None] = {}
        for flat in self._input._iter_flat():
            a = np.asarray(flat[0])
            key = (a.shape, tuple(a.ravel().tolist()))
            if key in seen:
                continue
            seen[key] = None
            yield flat

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY
