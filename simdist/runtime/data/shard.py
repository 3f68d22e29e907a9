"""`Dataset.shard` (TF's ShardDataset kernel): which elements a shard keeps, its argument errors,
and the error a shard that auto-sharding added raises when it finds too few elements."""

from __future__ import annotations

import itertools
from typing import Any, Iterator

import numpy as np

from simdist.runtime import errors
from simdist.runtime.data.resumable import Steps
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import _cdiv, _cmod, _unknown_or_infinite


SHARD_HINT = -1


def shard_keeps(position: int, num_shards: int, index: int) -> bool:
    """`shard(n, i)` keeps the elements whose position p satisfies p mod n == i.

    Clause dataset.autoshard ("each worker gets a non-overlapping subset").
    """
    return position % num_shards == index


def check_shard_args(num_shards: int, index: int) -> None:
    """`Dataset.shard` argument errors, TF's messages (InvalidArgumentError at creation).

    Clause dataset.autoshard.
    """
    if not (num_shards > 0 or num_shards == SHARD_HINT):
        raise errors.InvalidArgumentError(
            None, None, f"Number of shards must be greater than zero (currently num_shards = {num_shards}).")
    if not ((0 <= index < num_shards) or num_shards == SHARD_HINT):
        raise errors.InvalidArgumentError(
            None, None, f"Index must be between 0 and {num_shards - 1} (currently index = {index}).")


def shard_too_small_error(seen: int, num_shards: int) -> errors.OpError:
    """A shard added by auto-sharding (require_non_empty) found fewer elements than workers.

    Clause dataset.autoshard (TF's ShardDataset kernel message, typo-for-typo).
    """
    return errors.InvalidArgumentError(
        None, None,
        f"Could not apply FILE based sharding: the dataset only has {seen} file(s), which is not enough for the "
        f"required {num_shards} shards/workers.If you are using datasets with distribution strategy, consider "
        "setting the auto sharding policy to either DATA or OFF using the "
        "`experimental_distribute.auto_shard_policy` optionof `tf.data.Options()`. Or, split your input files "
        "into a larger number of small files such that number of files is greater than number of "
        "shards/workers.")


class _ShardDataset(_UnaryDataset):
    _KIND = "ShardDataset"

    def __init__(self, input_dataset: DatasetV2, num_shards: int, index: int,
                 require_non_empty: bool = False) -> None:
        check_shard_args(num_shards, index)
        super().__init__((input_dataset,), {"num_shards": num_shards, "index": index,
                                            "require_non_empty": require_non_empty}, input_dataset.element_spec)

    def _check_iterable(self) -> None:
        if self._params["num_shards"] == SHARD_HINT:
            raise errors.FailedPreconditionError(
                None, None, "`tf.data.Dataset.shard(SHARD_HINT, ...)` can only be used in "
                "`tf.distribute.Strategy.experimental_distribute_dataset()` with "
                "`tf.data.experimental.AutoShardPolicy.HINT` policy, or tf.data service with "
                "`tf.data.experimental.service.ShardingPolicy.HINT` processing mode.")
        super()._check_iterable()

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        if not self._params["require_non_empty"]:
            return self._resumable()
        return self._checked_first()

    def _resumable(self) -> Iterator[list[np.ndarray]]:
        """Every `num_shards`-th element from `index`, as ShardDataset's kernel reads them: each call
        skips to the next position of the shard and takes that element; an error while skipping or
        taking is passed on and the position does not move (the elements skipped in that call are
        lost, the positions after an error shift: observed), the next call going on."""
        n, index = self._params["num_shards"], self._params["index"]
        st: dict[str, Any] = {"pos": 0, "it": None}

        def step() -> list[np.ndarray]:
            if st["it"] is None:
                self._check_iterable()
                st["it"] = self._input._iter_flat()
            it = st["it"]
            k = (index - st["pos"]) % n
            for _ in range(k):
                next(it)
            st["pos"] += k
            flat = next(it)
            st["pos"] += 1
            return flat
        return Steps(step)

    def _checked_first(self) -> Iterator[list[np.ndarray]]:
        n, index = self._params["num_shards"], self._params["index"]
        self._check_iterable()
        check_first = self._params["require_non_empty"]
        it = self._input._iter_flat()
        for pos, flat in enumerate(it):
            if not shard_keeps(pos, n, index):
                continue
            if check_first:
                check_first = False
                seen = pos + 1
                if seen < n:
                    seen += sum(1 for _ in itertools.islice(it, n - seen))
                    if seen < n:
                        raise shard_too_small_error(seen, n)
                    yield flat
                    # continue after the first round: positions now start at n
                    for pos2, flat2 in enumerate(it, start=n):
                        if shard_keeps(pos2, n, index):
                            yield flat2
                    return
            yield flat

    def _card(self) -> int:
        n = self._input._card()
        shards, index = self._params["num_shards"], self._params["index"]
        if _unknown_or_infinite(n):
            return n
        # With SHARD_HINT (-1) TF 2.21 reports -n (C++ arithmetic), which later ops keep transforming.
        return _cdiv(n, shards) + (1 if index < _cmod(n, shards) else 0)
