"""`shuffle`: a deterministic buffer shuffle (see the package docstring for how it differs from TF)."""

from __future__ import annotations

import hashlib
from typing import Iterator

import numpy as np

from simdist.runtime import errors
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import UNKNOWN_CARDINALITY


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
        p = self._params
        root = _SHUFFLE_ROOT if p["seed"] is None else p["seed"] % (2 ** 64)
        epoch = self._epoch if p["reshuffle_each_iteration"] else 0
        self._epoch += 1
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([root, epoch])))
        size = p["buffer_size"] if p["buffer_size"] > 0 else None
        buf: list[list[np.ndarray]] = []
        it = self._input._iter_flat()
        for flat in it:
            buf.append(flat)
            if size is not None and len(buf) >= size:
                break
        for flat in it:
            k = int(rng.integers(len(buf)))
            yield buf[k]
            buf[k] = flat
        while buf:
            k = int(rng.integers(len(buf)))
            buf[k], buf[-1] = buf[-1], buf[k]
            yield buf.pop()

    def _card(self) -> int:
        return self._input._card()
