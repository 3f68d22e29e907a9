"""`tf.keras.preprocessing.sequence`: Keras 1's sequence preprocessing as Keras 3.15 keeps it
(keras/src/legacy/preprocessing/sequence.py): `pad_sequences` (keras.utils'), `TimeseriesGenerator` (a
PyDataset of sliding windows), `make_sampling_table` (Zipf word-rank sampling probabilities) and
`skipgrams` (word pairs within a window, negative samples, shuffled). Clause keras.preprocessing.legacy.

Randomness: Keras draws skipgrams' sampling-table rejections and negative samples from Python's global
`random`, reseeds it with `seed` (a drawn one when None) before each of the two shuffles, and draws
TimeseriesGenerator's shuffled rows from NumPy's global generator. After `keras.utils.set_random_seed`
simdist does exactly that (the same draws as Keras); otherwise it draws from streams derived from the root
seed by name (simdist's rule for unseeded Keras objects, simdist/keras/random.py), and an explicit `seed`
shuffles with `random.Random(seed)` — the same permutations as Keras's reseeded global stream.
"""

from __future__ import annotations

import json
import random as _pyrandom
from typing import Any

import numpy as np

from simdist import tf
from simdist.keras import _api
from simdist.keras.trainers.py_dataset import PyDataset
from simdist.keras.utils.sequence_utils import pad_sequences  # noqa: F401

__all__ = ["TimeseriesGenerator", "make_sampling_table", "pad_sequences", "skipgrams"]

SKIPGRAMS_OP_SEED = 0x534B4950   # "SKIP": the stream of an unseeded program's skip-gram draws
TIMESERIES_OP_SEED = 0x54534752   # "TSGR": the stream of an unseeded program's TimeseriesGenerator rows


def _python_random(op_seed: int) -> Any:
    """Python's global `random` after keras.utils.set_random_seed (Keras's draws), else a named stream."""
    if tf.random._simdist_python_seeded():
        return _pyrandom
    return _pyrandom.Random(tf.random._simdist_default_seed(op_seed, 1, int(1e9)))


class TimeseriesGenerator(PyDataset):
    """Batches of `length`-step windows of `data` (every `sampling_rate`-th step) with the target at each
    window's end, windows `stride` apart from `start_index + length` to `end_index`."""

    def __init__(self, data: Any, targets: Any, length: int, sampling_rate: int = 1, stride: int = 1,
                 start_index: int = 0, end_index: int | None = None, shuffle: bool = False, reverse: bool = False,
                 batch_size: int = 128, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if len(data) != len(targets):
            raise ValueError(f"Data and targets have to be of same length. Data length is {len(data)} while target "
                             f"length is {len(targets)}")
        self.data = data
        self.targets = targets
        self.length = length
        self.sampling_rate = sampling_rate
        self.stride = stride
        self.start_index = start_index + length
        if end_index is None:
            end_index = len(data) - 1
        self.end_index = end_index
        self.shuffle = shuffle
        self.reverse = reverse
        self.batch_size = batch_size
        self._rows_rng: Any = None
        if self.start_index > self.end_index:
            raise ValueError(f"`start_index+length={self.start_index} > end_index={self.end_index}` is disallowed, as "
                             "no part of the sequence would be left to be used as current step.")

    def __len__(self) -> int:
        return (self.end_index - self.start_index + self.batch_size * self.stride) // (self.batch_size * self.stride)

    def _random_rows(self) -> np.ndarray:
        if tf.random._simdist_python_seeded():   # (keras.utils.set_random_seed seeded NumPy's global generator)
            return np.random.randint(self.start_index, self.end_index + 1, size=self.batch_size)
        if self._rows_rng is None:
            self._rows_rng = np.random.RandomState(tf.random._simdist_default_seed(TIMESERIES_OP_SEED, 1, int(1e9)))
        return self._rows_rng.randint(self.start_index, self.end_index + 1, size=self.batch_size)

    def __getitem__(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        if self.shuffle:
            rows = self._random_rows()
        else:
            i = self.start_index + self.batch_size * self.stride * index
            rows = np.arange(i, min(i + self.batch_size * self.stride, self.end_index + 1), self.stride)
        samples = np.array([self.data[row - self.length:row:self.sampling_rate] for row in rows])
        targets = np.array([self.targets[row] for row in rows])
        if self.reverse:
            return samples[:, ::-1, ...], targets
        return samples, targets

    def get_config(self) -> dict[str, Any]:
        data = self.data.tolist() if type(self.data).__module__ == np.__name__ else self.data
        try:
            json_data = json.dumps(data)
        except TypeError as e:
            raise TypeError(f"Data not JSON Serializable: {data}") from e
        targets = self.targets.tolist() if type(self.targets).__module__ == np.__name__ else self.targets
        try:
            json_targets = json.dumps(targets)
        except TypeError as e:
            raise TypeError(f"Targets not JSON Serializable: {targets}") from e
        # (Keras 3.15's PyDataset has no get_config, so this is AttributeError there and here: "'super' object
        # has no attribute 'get_config'", to_json too)
        config = super().get_config()   # type: ignore[misc]
        config.update({"data": json_data, "targets": json_targets, "length": self.length,
                       "sampling_rate": self.sampling_rate, "stride": self.stride, "start_index": self.start_index,
                       "end_index": self.end_index, "shuffle": self.shuffle, "reverse": self.reverse,
                       "batch_size": self.batch_size})
        return config

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps({"class_name": self.__class__.__name__, "config": self.get_config()}, **kwargs)


def make_sampling_table(size: int, sampling_factor: float = 1e-05) -> np.ndarray:
    """The probability of keeping the word of each rank: min(1, sqrt(f)) for f = sampling_factor · (Zipf's
    inverse frequency of the rank, rank 0 counted as 1)."""
    gamma = 0.577
    rank = np.arange(size)
    rank[0] = 1
    inv_fq = rank * (np.log(rank) + gamma) + 0.5 - 1.0 / (12.0 * rank)
    f = sampling_factor * inv_fq
    return np.minimum(1.0, f / np.sqrt(f))


def skipgrams(sequence: Any, vocabulary_size: int, window_size: int = 4, negative_samples: float = 1.0,
              shuffle: bool = True, categorical: bool = False, sampling_table: Any = None,
              seed: int | None = None) -> tuple[list, list]:
    """(couples, labels): every (word, context word) within `window_size` (index 0 skipped) labelled 1, then
    `negative_samples` times as many (word, random index in [1, vocabulary_size)) labelled 0, shuffled."""
    rng = _python_random(SKIPGRAMS_OP_SEED)
    couples: list = []
    labels: list = []
    for i, wi in enumerate(sequence):
        if not wi:
            continue
        if sampling_table is not None and sampling_table[wi] < rng.random():
            continue
        window_start = max(0, i - window_size)
        window_end = min(len(sequence), i + window_size + 1)
        for j in range(window_start, window_end):
            if j != i:
                wj = sequence[j]
                if not wj:
                    continue
                couples.append([wi, wj])
                labels.append([0, 1] if categorical else 1)
    if negative_samples > 0:
        num_negative_samples = int(len(labels) * negative_samples)
        words = [c[0] for c in couples]
        rng.shuffle(words)
        couples += [[words[i % len(words)], rng.randint(1, vocabulary_size - 1)] for i in range(num_negative_samples)]
        labels += ([[1, 0]] if categorical else [0]) * num_negative_samples
    if shuffle:
        if seed is None:
            seed = rng.randint(0, 10000000.0)
        shuffler = rng if rng is _pyrandom else _pyrandom.Random()
        shuffler.seed(seed)
        shuffler.shuffle(couples)
        shuffler.seed(seed)
        shuffler.shuffle(labels)
    return couples, labels


__dir__ = _api.dir_of(__name__)
