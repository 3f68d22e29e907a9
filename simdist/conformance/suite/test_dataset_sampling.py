"""Dataset.random / sample_from_datasets / choose_from_datasets — clause dataset.sample-choose (TF 2.21).

Every expected order, cardinality and error was observed with TF 2.21 running the same calls: a
seeded sample_from_datasets is a selector random(seed).batch(2).map(stateless_multinomial(log(w),
1, seed=pair)) read by a DirectedInterleave, so its order is reproducible and simdist gives TF's.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_same, raises

clause = pytest.mark.clause


def _values(ds) -> list:
    return [int(np.asarray(x)) for x in ds]


@clause("dataset.sample-choose", ref="tf221")
def test_random_yields_philox_words(tf):
    tf.random.set_seed(None)   # (op seeds alone: get_seed's (87654321, seed); an earlier test may set one)
    ds = tf.data.Dataset.random(seed=42)
    assert_same(_values(ds.take(3)), [2985944072, 4132877644, 929418493], call="Dataset.random(seed=42).take(3)")
    assert_same(_values(ds.take(3)), [2985944072, 4132877644, 929418493],
                 call="Dataset.random(seed=42).take(3), iterated again: the same words")
    assert_same((int(ds.cardinality()), ds.element_spec.dtype.name), (-1, "int64"),
                 call="Dataset.random: INFINITE int64 scalars")


@clause("dataset.sample-choose", ref="tf221")
def test_seeded_sample_from_datasets_gives_tfs_order(tf):
    tf.random.set_seed(None)   # (op seeds alone: get_seed's (87654321, seed); an earlier test may set one)
    R = tf.data.Dataset.range
    S = tf.data.Dataset.sample_from_datasets
    d1, d2, d3 = R(10), R(100, 105), R(1000, 1003)
    cases = [
        ("[d1, d2, d3], weights=[0.2, 0.3, 0.5], seed=11", lambda: S([d1, d2, d3], weights=[0.2, 0.3, 0.5], seed=11),
         [1000, 100, 1001, 1002, 0, 1, 101, 2, 102, 3, 4, 5, 6, 103, 104, 7, 8, 9]),
        ("[d1, d2, d3], weights=constant([0.2, 0.3, 0.5]), seed=11",
         lambda: S([d1, d2, d3], weights=tf.constant([0.2, 0.3, 0.5]), seed=11),
         [1000, 100, 1001, 1002, 0, 1, 101, 2, 102, 3, 4, 5, 6, 103, 104, 7, 8, 9]),
        ("[d1, d2], weights=[0.5, 0.5], seed=7", lambda: S([d1, d2], weights=[0.5, 0.5], seed=7),
         [100, 0, 101, 1, 2, 102, 103, 104, 3, 4, 5, 6, 7, 8, 9]),
        ("[d1, d2], seed=7, stop_on_empty_dataset=True", lambda: S([d1, d2], seed=7, stop_on_empty_dataset=True),
         [100, 0, 101, 1, 2, 102, 103, 104, 3]),
        ("[d1, d2, d3], weights=[0., 0.3, 0.7], seed=11: a zero weight's dataset dropped",
         lambda: S([d1, d2, d3], weights=[0., 0.3, 0.7], seed=11), [1000, 100, 1001, 1002, 101, 102, 103, 104]),
        ("[d1, d2], weights=float64 [0.25, 0.75], seed=3",
         lambda: S([d1, d2], weights=tf.constant([0.25, 0.75], tf.float64), seed=3),
         [100, 101, 102, 0, 103, 104, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
        ("[d1.repeat(), d2.repeat()], seed=5 .take(6)", lambda: S([d1.repeat(), d2.repeat()], seed=5).take(6),
         [0, 1, 2, 100, 101, 3]),
    ]
    for call, make, want in cases:
        assert_same(_values(make()), want, call=f"sample_from_datasets({call})")
    assert_same(int(S([d1, d2], seed=7).cardinality()), -2, call="sample_from_datasets of finite inputs: UNKNOWN")
    assert_same(int(S([d1.repeat(), d2], seed=7).cardinality()), -1,
                 call="sample_from_datasets with an infinite input: INFINITE")
    assert_same(int(S([d2], seed=3).cardinality()), 5, call="sample_from_datasets of one dataset: that dataset")
    ds = S([R(3).map(lambda x: tf.fill([x], x)), R(2).map(lambda x: tf.fill([2], x))], seed=1)
    assert_same(ds.element_spec.shape.as_list(), [None], call="sample_from_datasets of [None] and [2] elements: spec")


@clause("dataset.sample-choose", ref="tf221")
def test_sample_from_datasets_argument_errors(tf):
    R = tf.data.Dataset.range
    S = tf.data.Dataset.sample_from_datasets
    with raises(ValueError, call="sample_from_datasets([])", match="`datasets` should not be empty"):
        S([], seed=3)
    with raises(ValueError, call="sample_from_datasets([d1, d2], weights=[1.])",
                match="`weights` should have the same length as `datasets`"):
        S([R(3), R(3)], weights=[1.], seed=3)
    with raises(TypeError, call="sample_from_datasets(weights=[1, 2])",
                match="must be either `tf.float32` or `tf.float64`"):
        S([R(3), R(3)], weights=[1, 2], seed=3)
    with raises(TypeError, call="sample_from_datasets of int64 and float32 datasets",
                match="`datasets` must have compatible element specs"):
        S([R(3), tf.data.Dataset.from_tensor_slices([1., 2.])], seed=3)


@clause("dataset.sample-choose", ref="tf221")
def test_choose_from_datasets_follows_the_choices(tf):
    R = tf.data.Dataset.range
    C = tf.data.Dataset.choose_from_datasets
    d1, d2 = R(10), R(100, 105)
    choice = tf.data.Dataset.from_tensor_slices(tf.constant([0, 1, 1, 0, 1, 1, 1, 1, 1, 0], tf.int64))
    assert_same(_values(C([d1, d2], choice)), [0, 100, 101, 1, 102, 103, 104],
                 call="choose_from_datasets: stops at the first exhausted choice (stop_on_empty_dataset=True)")
    assert_same(_values(C([d1, d2], choice, stop_on_empty_dataset=False)), [0, 100, 101, 1, 102, 103, 104, 2],
                 call="choose_from_datasets(stop_on_empty_dataset=False): an exhausted choice is skipped")
    with raises(TypeError, call="choose_from_datasets with int32 choices", match="must be scalar `tf.int64` tensors"):
        C([d1, d2], R(2).map(lambda x: tf.cast(x, tf.int32)))
    with raises(TypeError, call="choose_from_datasets([d1, d2], [0, 1])", match="should be a `tf.data.Dataset`"):
        C([d1, d2], [0, 1])
    with raises(tf.errors.InvalidArgumentError, call="choose_from_datasets with choice 2 of 2 datasets",
                match="Selector index out of range: 2 >= 2"):
        _values(C([d1, d2], tf.data.Dataset.from_tensor_slices(tf.constant([0, 2], tf.int64))))
