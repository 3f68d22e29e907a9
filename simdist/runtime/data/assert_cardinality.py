"""`tf.data.experimental.assert_cardinality(expected)`: the input's elements, with the cardinality
`expected` and a FailedPreconditionError while iterating when the count differs (TF 2.21's
experimental/ops/cardinality.py and AssertCardinalityDatasetOp; clause dataset.experimental-extras).

The kernel counts every element it reads: one beyond a non-negative `expected` (-2, UNKNOWN, too)
is "Input dataset was expected to contain N elements but contained at least M elements.", and
the end with another count "... but contained only M elements." ("an infinite number of elements"
for INFINITE). The element itself is not returned; the iteration goes on after the error.
"""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import INFINITE_CARDINALITY
from simdist.runtime.data.resumable import Steps
from simdist.runtime.tensor import convert_to_tensor

__all__ = ["_AssertCardinalityDataset", "assert_cardinality"]


def _elements(n: int) -> str:
    return f"{n} element" if n == 1 else f"{n} elements"


class _AssertCardinalityDataset(_UnaryDataset):
    _KIND = "AssertCardinalityDataset"

    def __init__(self, input_dataset: Any, expected_cardinality: Any) -> None:
        expected = int(convert_to_tensor(expected_cardinality, dtype=dtypes.int64).numpy())
        super().__init__((input_dataset,), {"expected_cardinality": expected}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        expected = self._params["expected_cardinality"]
        want = "an infinite number of elements" if expected == INFINITE_CARDINALITY else _elements(expected)
        it = self._input._iter_flat()
        count = 0

        def step() -> list[np.ndarray]:
            nonlocal count
            try:
                flat = next(it)
            except StopIteration:
                if count != expected:
                    raise errors.FailedPreconditionError(
                        None, None, f"Input dataset was expected to contain {want} but contained only "
                                    f"{_elements(count)}.") from None
                raise
            count += 1
            if expected != INFINITE_CARDINALITY and count > expected:
                raise errors.FailedPreconditionError(
                    None, None, f"Input dataset was expected to contain {want} but contained at least "
                                f"{_elements(count)}.")
            return flat
        return Steps(step)

    def _card(self) -> int:
        return self._params["expected_cardinality"]


def assert_cardinality(expected_cardinality: Any) -> Any:
    """tf.data.experimental.assert_cardinality: a transformation for `Dataset.apply`."""
    return lambda dataset: _AssertCardinalityDataset(dataset, expected_cardinality)
