"""`shuffle`: TF's buffer shuffle on TF's Philox streams, so a seeded shuffle gives TF 2.21's order
(clause `dataset.shuffle`).

The (seed, seed2) pair is resolved when the dataset is built, as TF's data `random_seed.get_seed`:
the op-seed rule of every stateful random op (runtime/ops/random_gamma.py `tf_seeds`: a global seed
alone draws the next op seed). Each new iteration (a new `iter`, or a `repeat` starting the shuffle
over) takes its generator seeds from the dataset's seed generator (random_seed_ops.cc): with
`reshuffle_each_iteration` a RandomSeedGenerator, PhiloxRandom(seed, seed2) read one uint32 at a
time (SingleSampleAdapter), two words per iteration; otherwise the FixedSeedGenerator, (seed, seed2)
itself. The iterator (shuffle_dataset_op.cc) fills its buffer up to `buffer_size` elements, then per
element draws one uint32 `r` of PhiloxRandom(iteration seeds), takes the element at offset
`r % n` of the n buffered ones (oldest first), moves the oldest into its place and drops the oldest.
Without any seed TF's seeds are nondeterministic; simdist's come from its root seed (unseeded_pair).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import errors
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import UNKNOWN_CARDINALITY
from simdist.runtime.data import resources
from simdist.runtime.data.resumable import lazy
from simdist.runtime.ops import philox


class _Words:
    """random::SingleSampleAdapter<PhiloxRandom>: a Philox generator's uint32 words one at a time."""

    def __init__(self, gen: philox.Philox) -> None:
        self._gen = gen
        self._block: tuple[int, ...] = ()
        self._used = 4

    def __call__(self) -> int:
        if self._used == 4:
            self._block, self._used = self._gen.next(), 0
        self._used += 1
        return int(self._block[self._used - 1])


def iteration_seeds(seed: int, seed2: int, reshuffle: bool, epoch: int) -> tuple[int, int]:
    """The seeds of the `epoch`-th iterator of a shuffle (0-based): words 2*epoch and 2*epoch+1 of
    RandomSeedGenerator(seed, seed2) when reshuffling, else (seed, seed2) (FixedSeedGenerator)."""
    if not reshuffle:
        return seed, seed2
    gen = philox.seeded(seed, seed2)
    gen.skip((2 * epoch) // 4)
    block = gen.next()
    i = (2 * epoch) % 4
    return int(block[i]), int(block[i + 1])


class _ShuffleDataset(_UnaryDataset):
    _KIND = "ShuffleDatasetV3"

    def __init__(self, input_dataset: DatasetV2, buffer_size: int, seed: int | None,
                 reshuffle_each_iteration: bool, seeds: tuple[int, int]) -> None:
        if buffer_size <= 0 and buffer_size != UNKNOWN_CARDINALITY:
            raise errors.InvalidArgumentError(None, None,
                                              "buffer_size must be greater than zero or UNKNOWN_CARDINALITY")
        super().__init__((input_dataset,), {"buffer_size": buffer_size, "seed": seed,
                                            "reshuffle_each_iteration": reshuffle_each_iteration},
                         input_dataset.element_spec)
        self._seeds = seeds
        self._epoch = 0

    def _reset_state(self) -> None:
        self._epoch = 0

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        return lazy(self._steps)

    def _steps(self) -> Callable[[], list[np.ndarray]]:
        p = self._params
        made = resources.running(resources.MADE)
        epoch = made.pop(id(self), None) if made else None
        if epoch is None:   # (an iteration its iterator's making did not open: a repeat's next pass, ...)
            epoch = self._epoch
            self._epoch += 1
        s, s2 = iteration_seeds(*self._seeds, p["reshuffle_each_iteration"], epoch)
        rand = _Words(philox.seeded(s, s2))
        size = p["buffer_size"] if p["buffer_size"] > 0 else None
        buf: list[list[np.ndarray]] = []   # oldest first (the slice [start, end) of TF's ring buffer)
        it = self._input._iter_flat()
        ended = [False]

        def step() -> list[np.ndarray]:
            # FillBuffer: up to buffer_size elements (an input's error is passed on, the buffer kept)
            while not ended[0] and (size is None or len(buf) < size):
                try:
                    buf.append(next(it))
                except StopIteration:
                    ended[0] = True
            if not buf:
                raise StopIteration
            k = rand() % len(buf)
            out = buf[k]
            buf[k] = buf[0]   # std::swap(buffer[index], buffer[start]); start++
            del buf[0]
            return out
        return step

    def _card(self) -> int:
        return self._input._card()



def _opened_at_make(dataset: Any) -> Iterator[Any]:
    """The nodes whose TF iterators MakeIterator initializes: the pipeline from its top, each node's
    inputs' iterators made in its Initialize, but a shuffle's (made at its first GetNext), a
    concatenation's second (made when the first ends) and an infinite repeat's (not followed)."""
    yield dataset
    kind = dataset._KIND
    if kind == "ShuffleDatasetV3" or kind == "RepeatDataset" and dataset._params.get("count", -1) < 0:
        return
    inputs = dataset.inputs[:1] if kind == "ConcatenateDataset" else dataset.inputs
    for node in inputs:
        yield from _opened_at_make(node)


def made_at_make(dataset: Any) -> dict[int, int]:
    """The epochs the shuffles of `dataset`'s pipeline take as an iterator of it is made, by node (clause
    dataset.shuffle): TF's shuffle iterator draws its iteration's seeds from the seed generator in
    Initialize, at MakeIterator, read or not. Keras 3.15's EpochIterator makes a fresh iterator at
    each epoch's end and drops it at the next epoch's start, so fit, evaluate and predict take two of
    a reshuffling shuffle's iterations per epoch on TF 2.21 (kfuzz52's open class
    reshuffle-iterations-per-epoch, fixed kfuzz53); simdist opens a pipeline lazily, so each shuffle
    the making initializes takes its epoch here and the iteration reads it when it opens."""
    made: dict[int, int] = {}
    for node in _opened_at_make(dataset):
        if isinstance(node, _ShuffleDataset) and id(node) not in made:
            made[id(node)] = node._epoch
            node._epoch += 1
    return made
