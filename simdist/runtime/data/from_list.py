"""`tf.data.experimental.from_list(elements)`: a dataset of the listed elements, one by one (TF
2.21's experimental/ops/from_list.py and ListDatasetOp; clause dataset.experimental-extras).

`elements` must be a non-empty list (ValueError); the elements must share one structure (ValueError
"The two structures don't have the same nested structure.") and the dtype of each component (TF
fails with AttributeError "'NoneType' object has no attribute '_flat_tensor_specs'", the missing
common supertype); each component's spec is the most specific shape common to all elements
(dims that differ None, ranks that differ unknown). Cardinality is the list's length.
"""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from simdist.runtime.data.dataset import DatasetV2
from simdist.runtime.data.elements import _normalize
from simdist.runtime.spec import TensorSpec, assert_same_structure, flatten, most_specific_compatible_shape, pack_as

__all__ = ["_ListDataset", "from_list"]


class _ListDataset(DatasetV2):
    _KIND = "ListDataset"

    def __init__(self, elements: Any) -> None:
        if not elements:
            raise ValueError("Invalid `elements`. `elements` should not be empty. If you want an empty dataset, "
                             "use `tf.data.Dataset.range(0)`.")
        if not isinstance(elements, list):
            raise ValueError("Invalid `elements`. `elements` must be a list.")
        normalized = [_normalize(e) for e in elements]
        specs = [s for s, _ in normalized]
        for s in specs[1:]:
            try:
                assert_same_structure(specs[0], s)
            except ValueError:
                raise ValueError("The two structures don't have the same nested structure.") from None
        flat_specs = [flatten(s) for s in specs]
        merged = []
        for i, first in enumerate(flat_specs[0]):
            shape = first.shape
            for other in flat_specs[1:]:
                if other[i].dtype != first.dtype:
                    raise AttributeError("'NoneType' object has no attribute '_flat_tensor_specs'")
                shape = most_specific_compatible_shape(shape, other[i].shape)
            merged.append(TensorSpec(shape, first.dtype))
        rows = [arrays for _, arrays in normalized]
        super().__init__((), {"elements": rows}, pack_as(specs[0], merged))
        self._rows = rows

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        for row in self._rows:
            yield list(row)

    def _card(self) -> int:
        return len(self._rows)


def from_list(elements: Any, name: str | None = None) -> DatasetV2:
    """tf.data.experimental.from_list."""
    return _ListDataset(elements)
