"""Dataset.group_by_window and bucket_by_sequence_length — clause dataset.group-by-window (TF 2.21).

Every expected value and error was observed with TF 2.21 running the same calls: a key's group is
reduced as soon as it holds window_size elements, the partial groups at the input's end in
ascending key order; bucket_by_sequence_length is group_by_window over the length's bucket with a
padded_batch per window.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_same, raises

clause = pytest.mark.clause


def _values(ds) -> list:
    return [np.asarray(x).tolist() for x in ds]


@clause("dataset.group-by-window", ref="tf221")
def test_group_by_window_order(tf):
    R = tf.data.Dataset.range
    ds = R(10).group_by_window(lambda x: x % 3, lambda k, w: w.batch(10), window_size=2)
    assert_same(_values(ds), [[0, 3], [1, 4], [2, 5], [6, 9], [7], [8]],
                 call="range(10).group_by_window(x % 3, batch, window_size=2)")
    assert_same((ds.element_spec.shape.as_list(), int(ds.cardinality())), ([None], -2),
                 call="group_by_window: the returned datasets' spec, UNKNOWN cardinality")
    ds = tf.data.Dataset.from_tensor_slices([5, 3, 9, 1, 2, 8, 7, 0, 4, 6]).group_by_window(
        lambda x: tf.cast(x % 3, tf.int64) * -1 + 5,
        lambda k, w: w.batch(2).map(lambda b: tf.reduce_sum(b) + tf.cast(k, tf.int32) * 100), window_size=3)
    assert_same(_values(ds), [307, 308, 512, 500, 408, 404, 506],
                 call="group_by_window with keys 5, 4, 3: partial groups flushed by ascending key")
    ds = R(10).group_by_window(lambda x: x % 2, lambda k, w: w.batch(5), window_size_func=lambda k: k + 2)
    assert_same(_values(ds), [[0, 2], [1, 3, 5], [4, 6], [8], [7, 9]], call="group_by_window(window_size_func=k + 2)")
    ds = tf.data.Dataset.from_tensor_slices(([1, 2, 3, 4], [5, 6, 7, 8])).group_by_window(
        lambda a, b: tf.cast(a % 2, tf.int64), lambda k, w: w.map(lambda a, b: a * b), window_size=5)
    assert_same(_values(ds), [12, 32, 5, 21], call="group_by_window of tuple elements")
    with raises(ValueError, call="group_by_window without window_size", match="must be specified"):
        R(10).group_by_window(lambda x: x % 2, lambda k, w: w)
    with raises(ValueError, call="group_by_window with both window sizes", match="must be specified"):
        R(10).group_by_window(lambda x: x, lambda k, w: w, window_size=2, window_size_func=lambda k: k)


@clause("dataset.group-by-window", ref="tf221")
def test_bucket_by_sequence_length(tf):
    def gen():
        for n in [1, 5, 2, 7, 3, 9, 4, 2, 6, 1, 8]:
            yield [n] * n

    def ds0():
        return tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([None], tf.int32))

    def length(x):
        return tf.shape(x)[0]
    cases = [
        ("[3, 6], [2, 2, 2]", lambda: ds0().bucket_by_sequence_length(length, [3, 6], [2, 2, 2]),
         [[[1, 0], [2, 2]], [[5, 5, 5, 5, 5], [3, 3, 3, 0, 0]], [[7, 7, 7, 7, 7, 7, 7, 0, 0], [9] * 9],
          [[2, 2], [1, 0]], [[6, 6, 6, 6, 6, 6, 0, 0], [8] * 8], [[4, 4, 4, 4]]]),
        ("[3, 6], [2, 3, 1], drop_remainder=True",
         lambda: ds0().bucket_by_sequence_length(length, [3, 6], [2, 3, 1], drop_remainder=True),
         [[[1, 0], [2, 2]], [[7] * 7], [[9] * 9], [[5] * 5, [3, 3, 3, 0, 0], [4, 4, 4, 4, 0]], [[6] * 6],
          [[2, 2], [1, 0]], [[8] * 8]]),
        ("[4, 10], [3, 2, 2], pad_to_bucket_boundary=True, padding_values=-1",
         lambda: ds0().bucket_by_sequence_length(length, [4, 10], [3, 2, 2], pad_to_bucket_boundary=True,
                                                 padding_values=-1),
         [[[5] * 5 + [-1] * 4, [7] * 7 + [-1] * 2], [[1, -1, -1], [2, 2, -1], [3, 3, 3]], [[9] * 9, [4] * 4 + [-1] * 5],
          [[6] * 6 + [-1] * 3, [8] * 8 + [-1]], [[2, 2, -1], [1, -1, -1]]]),
    ]
    for call, make, want in cases:
        assert_same(_values(make()), want, call=f"bucket_by_sequence_length({call})")
    ds = ds0().bucket_by_sequence_length(length, [3], [2, 2], padded_shapes=[10])
    assert_same(ds.element_spec.shape.as_list(), [None, 10], call="bucket_by_sequence_length(padded_shapes=[10]) spec")
    with raises(ValueError, call="bucket_by_sequence_length([3], [2])",
                match="must equal `len\\(bucket_boundaries\\) \\+ 1`"):
        ds0().bucket_by_sequence_length(length, [3], [2])
