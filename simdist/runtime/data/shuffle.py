"""`shuffle`: a deterministic buffer shuffle (see the package docstring for how it differs from TF)."""

from __future__ import annotations

import hashlib
from typing import Callable, Iterator

import numpy as np

from simdist.runtime import errors
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import UNKNOWN_CARDINALITY
from simdist.runtime.data.resumable import lazy


_SHUFFLE_ROOT = int.from_bytes(hashlib.sha256(b"simdist.data.shuffle").digest()[:8], "little")


class _ShuffleDataset(_UnaryDataset):
    _KIND = "ShuffleDatasetV3"

    def __init__(self, input_dataset: DatasetV2, buffer_size: int, seed: int | None,
                 reshuffle_each_iteration: bool) -> None:
        if buffer_size <= 0 and buffer_size != UNKNOWN_CARDINALITY:
            raise errors.InvalidArgumentError(None, None,
                                              "buffer_size must be greater than zero or UNKNOWN_CARDINALITY")
        super().__init__((input_dataset,), {"buffer_size": buffer_size, "seed": seed,
                                            "reshuffle_each_iteration": reshuffle_each_iteration},
                         input_dataset.element_spec)
        self._epoch = 0

    def _reset_state(self) -> None:
        self._epoch = 0

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        return lazy(self._steps)

    def _steps(self) -> Callable[[], list[np.ndarray]]:
        p = self._params
        root = _SHUFFLE_ROOT if p["seed"] is None else p["seed"] % (2 ** 64)
        epoch = self._epoch if p["reshuffle_each_iteration"] else 0
        self._epoch += 1
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([root, epoch])))
        size = p["buffer_size"] if p["buffer_size"] > 0 else None
        buf: list[list[np.ndarray]] = []
        it = self._input._iter_flat()
        ended = [False]

        def step() -> list[np.ndarray]:
            # the buffer filled first (an input's error is passed on, the buffer kept: ShuffleDataset's
            # FillBuffer), then each element out makes room for the next input element
            while not ended[0] and (size is None or len(buf) < size):
                try:
                    buf.append(next(it))
                except StopIteration:
                    ended[0] = True
            if not ended[0]:
                try:
                    flat = next(it)
                except StopIteration:
                    ended[0] = True
                else:
                    k = int(rng.integers(len(buf)))
                    out = buf[k]
                    buf[k] = flat
                    return out
            if not buf:
                raise StopIteration
            k = int(rng.integers(len(buf)))
            buf[k], buf[-1] = buf[-1], buf[k]
            return buf.pop()
        return step

    def _card(self) -> int:
        return self._input._card()
