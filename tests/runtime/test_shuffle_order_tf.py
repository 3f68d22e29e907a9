"""`Dataset.shuffle`'s order as TF 2.21's for a seed (clause dataset.shuffle): op seed and/or global
seed (get_seed at construction: a global seed alone draws the next op seed), buffer smaller than,
equal to and larger than the input, reshuffle_each_iteration on and off over several passes, and a
`repeat` after the shuffle (a new shuffle iteration per repetition) or before it (epochs mixed in
the buffer). An unseeded shuffle without a global seed is nondeterministic in TF and not compared.
TF runs in a subprocess (tf_workers.spawn; this module is its worker).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_SEEDS = [(None, 7), (0, None), (0, 0), (42, None), (42, 7), (2**40 + 5, None)]   # (op seed, global seed)
_SIZE = 10
CASES = [(op, g, buf, resh, rep) for op, g in _SEEDS for buf in (1, 3, 10, 25) for resh in (True, False)
         for rep in ("none", "after", "before")]


def _order(tf: Any, k: int) -> Any:
    op, g, buf, resh, rep = CASES[k]
    tf.random.set_seed(g)
    ds = tf.data.Dataset.range(_SIZE)
    if rep == "before":
        ds = ds.repeat(2)
    tf.random.uniform([])   # one seedless op first: the shuffle's op seed is the global sequence's next
    ds = ds.shuffle(buf, seed=op, reshuffle_each_iteration=resh)
    if rep == "after":
        ds = ds.repeat(2)
    return [np.array([int(x) for x in ds], np.int64) for _ in range(3)]


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import warnings

    import tensorflow as tf
    warnings.simplefilter("ignore")
    return {k: _order(tf, k) for k in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.clause("dataset.shuffle")
@pytest.mark.parametrize("k", range(len(CASES)),
                         ids=[f"op{o}-g{g}-buf{b}-resh{int(r)}-rep{p}" for o, g, b, r, p in CASES])
def test_shuffle_order_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    got, want = _order(tf, k), tf_results[k]
    for i, (g, w) in enumerate(zip(got, want)):
        assert np.array_equal(g, w), f"pass {i}: order {g.tolist()}, but TF 2.21 gives {w.tolist()} [{CASES[k]}]"
    assert len(got) == len(want), f"{len(got)} passes, but TF 2.21 gives {len(want)}"


if __name__ == "__main__":  # TF worker
    import os
    tf_workers.serve(_tf_worker)
    os._exit(0)
