"""Dataset.rejection_resample and tf.data.experimental.rejection_resample — clause
dataset.rejection-resample (TF 2.21), and sample_from_datasets with a dataset of weights (clause
dataset.sample-choose), which the resample's mixing uses.

rejection_resample is TF's Python composition: a filter keeping class c with probability a_c
(random_uniform with the op seed) mixed with the input itself by a seeded sample_from_datasets;
with a seed the elements are TF's. The expected lists were observed with TF 2.21 (range(40),
class x % 4 == 0: a quarter of class 1).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_same

clause = pytest.mark.clause


def _pairs(ds) -> list:
    return [(int(c), np.asarray(x).tolist()) for c, x in ds]


@clause("dataset.rejection-resample", ref="tf221")
def test_seeded_rejection_resample_gives_tfs_elements(tf):
    tf.random.set_seed(None)   # (op seeds alone: get_seed's (87654321, seed); an earlier test may set one)
    xs = tf.data.Dataset.range(40)

    def cf(x):
        return tf.cast(x % 4 == 0, tf.int32)
    with_initial = [(1, 0), (1, 0), (0, 1), (0, 2), (0, 3), (1, 4), (0, 5), (0, 6), (0, 7), (1, 4), (1, 8), (1, 8),
                    (0, 9), (0, 10), (0, 11), (1, 12), (1, 12), (0, 13), (1, 16), (1, 20), (1, 24), (0, 14), (1, 28),
                    (0, 15), (1, 32), (1, 16), (0, 17), (0, 18), (0, 19), (1, 20), (0, 21), (0, 22), (1, 36), (0, 23),
                    (1, 24), (0, 25)]
    estimated = [(1, 0), (0, 1), (0, 2), (0, 3), (1, 4), (0, 5), (0, 6), (1, 0), (0, 7), (1, 8), (1, 4), (0, 9),
                 (0, 10), (0, 11), (1, 12), (0, 13), (0, 14), (0, 15), (1, 16), (0, 17), (0, 18), (0, 19), (1, 8),
                 (1, 20), (0, 21), (0, 22), (0, 23), (1, 24), (0, 25), (0, 26), (0, 27), (1, 28), (0, 29), (0, 30),
                 (0, 31), (1, 32), (1, 12), (0, 33), (0, 34), (0, 35), (1, 16), (1, 36), (0, 37), (0, 38), (0, 39)]
    cases = [
        ("rejection_resample(cf, [0.5, 0.5], initial_dist=[0.75, 0.25], seed=11)",
         lambda: xs.rejection_resample(cf, [0.5, 0.5], initial_dist=[0.75, 0.25], seed=11), with_initial),
        ("rejection_resample(cf, [0.5, 0.5], seed=3) (initial_dist estimated)",
         lambda: xs.rejection_resample(cf, [0.5, 0.5], seed=3), estimated),
        ("rejection_resample(cf, [0.75, 0.25], initial_dist=[0.75, 0.25]).take(5) (the input, mapped)",
         lambda: xs.rejection_resample(cf, [0.75, 0.25], initial_dist=[0.75, 0.25], seed=3).take(5),
         [(1, 0), (0, 1), (0, 2), (0, 3), (1, 4)]),
        ("rejection_resample(cf, [0.0, 1.0], initial_dist=[0.75, 0.25], seed=5) (the filtered stream alone)",
         lambda: xs.rejection_resample(cf, [0.0, 1.0], initial_dist=[0.75, 0.25], seed=5),
         [(1, x) for x in range(0, 40, 4)]),
        ("apply(experimental.rejection_resample(cf, [0.5, 0.5], initial_dist=[0.75, 0.25], seed=11)).take(6)",
         lambda: xs.apply(tf.data.experimental.rejection_resample(cf, [0.5, 0.5], initial_dist=[0.75, 0.25],
                                                                   seed=11)).take(6), with_initial[:6]),
    ]
    for call, make, want in cases:
        assert_same(_pairs(make()), want, call=call)
    ds = xs.rejection_resample(cf, [0.5, 0.5], initial_dist=[0.75, 0.25], seed=11)
    assert_same(([s.dtype.name for s in ds.element_spec], int(ds.cardinality())), (["int32", "int64"], -2),
                call="rejection_resample(...): (class, element) spec and UNKNOWN cardinality")
    pairs = tf.data.Dataset.from_tensor_slices(([1, 2, 3, 4, 5, 6], [10, 20, 30, 40, 50, 60]))
    got = [(int(c), [int(v) for v in x]) for c, x in pairs.rejection_resample(lambda a, b: a % 2, [0.5, 0.5],
                                                                                 initial_dist=[0.5, 0.5], seed=1)]
    assert_same(got, [(1, [1, 10]), (0, [2, 20]), (1, [3, 30]), (0, [4, 40]), (1, [5, 50]), (0, [6, 60])],
                call="rejection_resample of tuple elements: class_func(a, b), the element kept whole")


@clause("dataset.sample-choose", ref="tf221")
def test_sample_from_datasets_with_a_dataset_of_weights(tf):
    tf.random.set_seed(None)
    D = tf.data.Dataset
    w = D.from_tensors([0.9, 0.1]).repeat()
    got = [int(x) for x in D.sample_from_datasets([D.range(30), D.range(100, 130)], weights=w, seed=7).take(20)]
    assert_same(got, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 11, 12, 13, 14, 15, 16, 17, 18],
                call="sample_from_datasets(weights=from_tensors([0.9, 0.1]).repeat(), seed=7)")
    pairs = D.from_tensors(0.25).repeat().map(lambda p: ((p, 1.0 - p),))
    got = [int(x) for x in D.sample_from_datasets([D.range(3), D.range(10, 13)], weights=pairs, seed=5)]
    assert_same(got, [0, 1, 2, 10, 11, 12], call="sample_from_datasets(weights of ((p, 1 - p),) elements, seed=5)")
