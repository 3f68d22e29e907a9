"""Transformations that count elements: `repeat`, `take` and `skip`."""

from __future__ import annotations

import itertools
from typing import Iterator

import numpy as np

from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, _unknown_or_infinite


class _RepeatDataset(_UnaryDataset):
    _KIND = "RepeatDataset"

    def __init__(self, input_dataset: DatasetV2, count: int) -> None:
        super().__init__((input_dataset,), {"count": count}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        count = self._params["count"]
        epoch = 0
        while count < 0 or epoch < count:
            produced = False
            for flat in self._input._iter_flat():
                produced = True
                yield flat
            epoch += 1
            if not produced:
                return

    def _card(self) -> int:
        n, count = self._input._card(), self._params["count"]
        if count < 0:
            return 0 if n == 0 else INFINITE_CARDINALITY
        if count == 0:
            return 0
        if _unknown_or_infinite(n):
            return n
        return n * count


class _TakeDataset(_UnaryDataset):
    _KIND = "TakeDataset"

    def __init__(self, input_dataset: DatasetV2, count: int) -> None:
        super().__init__((input_dataset,), {"count": count}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        count = self._params["count"]
        it = self._input._iter_flat()
        return it if count < 0 else itertools.islice(it, count)

    def _card(self) -> int:
        n, count = self._input._card(), self._params["count"]
        if n == UNKNOWN_CARDINALITY:
            return n
        if n == INFINITE_CARDINALITY:
            return count
        if count == -1:
            return n
        return min(n, count)   # TF returns a negative count < -1 as is


class _SkipDataset(_UnaryDataset):
    _KIND = "SkipDataset"

    def __init__(self, input_dataset: DatasetV2, count: int) -> None:
        super().__init__((input_dataset,), {"count": count}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        count = self._params["count"]
        it = self._input._iter_flat()
        if count < 0:
            for _ in it:
                pass
            return iter(())
        return itertools.islice(it, count, None)

    def _card(self) -> int:
        n, count = self._input._card(), self._params["count"]
        if _unknown_or_infinite(n):
            return n
        if count < 0:
            return 0
        return max(0, n - count)
