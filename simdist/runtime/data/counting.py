"""Transformations that count elements: `repeat`, `take` and `skip`."""

from __future__ import annotations

from typing import Iterator

import numpy as np

from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, _unknown_or_infinite
from simdist.runtime.data.resumable import Steps


class _RepeatDataset(_UnaryDataset):
    _KIND = "RepeatDataset"

    def __init__(self, input_dataset: DatasetV2, count: int) -> None:
        super().__init__((input_dataset,), {"count": count}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        """`count` passes over the input (forever when negative; an empty pass ends it). An element's
        error is passed on and its pass goes on after it (RepeatDataset's kernel: resumable.Steps)."""
        count = self._params["count"]
        state = {"epoch": 0, "it": None, "produced": False}

        def step() -> list[np.ndarray]:
            while count < 0 or state["epoch"] < count:
                if state["it"] is None:
                    state["it"], state["produced"] = self._input._iter_flat(), False
                try:
                    flat = next(state["it"])
                except StopIteration:
                    state["it"] = None
                    state["epoch"] += 1
                    if not state["produced"]:
                        break
                    continue
                state["produced"] = True
                return flat
            state["epoch"] = count if count >= 0 else state["epoch"]
            raise StopIteration
        if count == 0:
            return iter(())
        return Steps(step)

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
        """The first `count` elements; an input's error is passed on and not counted (TakeDataset's
        kernel), the iteration going on after it (resumable.Steps)."""
        count = self._params["count"]
        it = self._input._iter_flat()
        if count < 0:
            return it
        taken = 0

        def step() -> list[np.ndarray]:
            nonlocal taken
            if taken >= count:
                raise StopIteration
            flat = next(it)
            taken += 1
            return flat
        return Steps(step)

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
        """The elements after the first `count` (all of them: none); an input's error while skipping is
        passed on and the iteration goes on after it. SkipDataset's kernel skips with one
        `input_impl_->Skip(count - i_)` and adds the number skipped to `i_` only when that call returns
        OK: an error loses the call's progress, so the next call skips `count - i_` elements again
        (skip(2) of [1, error, 2, 3, 4] is error, 4; observed on TF 2.21)."""
        count = self._params["count"]
        if count < 0:
            # SkipDatasetOp makes an EmptyIterator for a negative count: the input is not read (skip(-1) of an
            # infinite dataset is empty at once; observed on TF 2.21, test_dsweep58 ds-repeat-take-skip)
            return iter(())
        it = self._input._iter_flat()
        skipped = 0

        def step() -> list[np.ndarray]:
            nonlocal skipped
            if skipped < count:
                run = 0   # (this call's Skip: counted once it completes)
                while skipped + run < count:
                    next(it)
                    run += 1
                skipped += run
            return next(it)
        return Steps(step)

    def _card(self) -> int:
        n, count = self._input._card(), self._params["count"]
        if _unknown_or_infinite(n):
            return n
        if count < 0:
            return 0
        return max(0, n - count)
