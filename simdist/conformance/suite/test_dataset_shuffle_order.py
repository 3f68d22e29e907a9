"""Dataset.shuffle's order for a seed — clause dataset.shuffle (TF 2.21).

Every expected order was observed with TF 2.21 running the same calls: the shuffle buffer draws
uint32 words of PhiloxRandom(seeds) (its seed generator's seeds per iteration), so a seeded
shuffle, or a shuffle under a global seed, is reproducible and simdist gives TF's order.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_same

clause = pytest.mark.clause


def _values(ds) -> list:
    return [int(np.asarray(x)) for x in ds]


@clause("dataset.shuffle", ref="tf221")
def test_seeded_shuffle_gives_tfs_order_each_pass(tf):
    tf.random.set_seed(None)   # (op seeds alone: get_seed's (87654321, seed); an earlier test may set one)
    ds = tf.data.Dataset.range(10).shuffle(4, seed=42)
    assert_same([_values(ds), _values(ds)], [[1, 4, 2, 3, 5, 0, 6, 8, 7, 9], [3, 4, 2, 0, 1, 8, 5, 7, 9, 6]],
                call="Dataset.range(10).shuffle(4, seed=42), two passes")
    assert_same(_values(tf.data.Dataset.range(4).shuffle(3, seed=5).repeat(2)), [1, 3, 0, 2, 2, 1, 3, 0],
                call="Dataset.range(4).shuffle(3, seed=5).repeat(2): new seeds per repetition")


@clause("dataset.shuffle", ref="tf221")
def test_global_seed_shuffle_gives_tfs_order(tf):
    tf.random.set_seed(7)
    try:
        ds = tf.data.Dataset.range(6).shuffle(4, reshuffle_each_iteration=False)
        assert_same([_values(ds), _values(ds)], [[2, 0, 5, 1, 4, 3], [2, 0, 5, 1, 4, 3]],
                    call="tf.random.set_seed(7); Dataset.range(6).shuffle(4, reshuffle_each_iteration=False), "
                         "two passes")
    finally:
        tf.random.set_seed(None)
