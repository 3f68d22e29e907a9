"""Buffering: `prefetch` (a read-ahead buffer) and `cache` (in memory)."""

from __future__ import annotations

import collections
from typing import TYPE_CHECKING, Any, Iterator

import numpy as np

from simdist.runtime import errors
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import AUTOTUNE
from simdist.runtime.data.resumable import Steps

if TYPE_CHECKING:
    from simdist.runtime.data.dataset import DatasetV2


class _PrefetchDataset(_UnaryDataset):
    """Prefetch: reads `buffer_size` elements ahead of the consumer (AUTOTUNE reads 1 ahead).

    TF fills the buffer on a background thread; simdist fills it synchronously when an element is
    handed out, so upstream side effects happen in the same order, deterministically.
    """

    _KIND = "PrefetchDataset"

    def __init__(self, input_dataset: DatasetV2, buffer_size: int) -> None:
        if buffer_size < -1:
            raise errors.InvalidArgumentError(
                None, None, "buffer_size must be >= 0 or set buffer_size to be -1 for auto-tuning")
        super().__init__((input_dataset,), {"buffer_size": buffer_size}, input_dataset.element_spec)

    def _elements_device(self) -> str | None:
        return self._input._elements_device()   # (prefetch_to_device: the copy's device)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        size = self._params["buffer_size"]
        return _read_ahead(self._input._iter_flat(), 1 if size == AUTOTUNE else size)

    def _card(self) -> int:
        return self._input._card()


def _read_ahead(it: Iterator[Any], ahead: int) -> Iterator[Any]:
    """Yield from `it`, keeping `ahead` more elements pulled than handed out. An element's error is
    buffered in its place and raised when that element is handed out (PrefetchDataset's buffer holds
    each element's status); the iteration goes on after it (resumable.Steps)."""
    if ahead <= 0:
        return it
    buf: collections.deque = collections.deque()
    done = False

    def step() -> Any:
        nonlocal done
        while not done and len(buf) < ahead + 1:
            try:
                buf.append((next(it), None))
            except StopIteration:
                done = True
            except Exception as e:  # noqa: BLE001 - the element's status, raised in its turn
                buf.append((None, e))
        if not buf:
            raise StopIteration
        item, error = buf.popleft()
        if error is not None:
            raise error
        return item
    return Steps(step)


class _CacheDataset(_UnaryDataset):
    """In-memory cache: the first complete pass is recorded and replayed by later iterations."""

    _KIND = "CacheDatasetV2"

    def __init__(self, input_dataset: DatasetV2) -> None:
        super().__init__((input_dataset,), {"filename": ""}, input_dataset.element_spec)
        self._cache: list[list[np.ndarray]] | None = None

    def _reset_state(self) -> None:
        self._cache = None

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        """A first pass reads (and records) the input, errors passed on and the pass going on (the
        failed elements not recorded); a complete pass is replayed by later iterations."""
        if self._cache is not None:
            return iter(self._cache)
        seen: list[list[np.ndarray]] = []
        it: list[Iterator[list[np.ndarray]]] = []

        def step() -> list[np.ndarray]:
            if not it:
                it.append(self._input._iter_flat())
            try:
                flat = next(it[0])
            except StopIteration:
                self._cache = seen
                raise
            seen.append(flat)
            return flat
        return Steps(step)

    def _card(self) -> int:
        return self._input._card()
