"""SparseTensor, tf.sparse, the sparse segment ops and tf.sets — clauses ops.sparse,
ops.sparse-segments, ops.sets (TF 2.21 only).

Runs on the backend's `tf` alone. The references are the clauses' rules written out here: values
of small SparseTensors computed by hand (which entries exist, in which order, what reductions see).
The case-by-case comparison with TF 2.21 is tests/ops/test_sparse_tf.py and tests/ops/test_sets_tf.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_true, raises, to_numpy

clause = pytest.mark.clause


def _parts(sp):
    return to_numpy(sp.indices).tolist(), to_numpy(sp.values).tolist(), to_numpy(sp.dense_shape).tolist()


@clause("ops.sparse", ref="tf221")
def test_sparse_entries_orders_and_stored_values(tf):
    unordered = tf.sparse.SparseTensor([[2, 1], [0, 2], [0, 0]], [3.0, -1.0, -5.0], [3, 3])
    got = _parts(tf.sparse.reorder(unordered))
    want = ([[0, 0], [0, 2], [2, 1]], [-5.0, -1.0, 3.0], [3, 3])
    assert_true(got == want, f"reorder gives {got}, but should be {want} (row-major order)", call="sparse.reorder")
    dense = to_numpy(tf.sparse.to_dense(unordered, validate_indices=False)).tolist()
    want_dense = [[-5.0, 0.0, -1.0], [0.0, 0.0, 0.0], [0.0, 3.0, 0.0]]
    assert_true(dense == want_dense, f"to_dense(validate_indices=False) gives {dense}, but should be {want_dense}",
                call="sparse.to_dense")
    with raises(tf.errors.InvalidArgumentError, call="sparse.to_dense of unordered indices"):
        tf.sparse.to_dense(unordered)
    row_max = to_numpy(tf.sparse.reduce_max(tf.sparse.reorder(unordered), axis=1)).tolist()
    assert_true(row_max == [-1.0, 0.0, 3.0], f"reduce_max(axis=1) gives {row_max}, but should be [-1.0, 0.0, 3.0] "
                "(only stored values count; a row without one is 0)", call="sparse.reduce_max")
    summed = _parts(tf.sparse.add(tf.sparse.reorder(unordered),
                                  tf.sparse.SparseTensor([[0, 0], [2, 1]], [5.5, 1.0], [3, 3]), threshold=1.0))
    want_sum = ([[0, 2], [2, 1]], [-1.0, 4.0], [3, 3])
    assert_true(summed == want_sum, f"add(threshold=1.0) gives {summed}, but should be {want_sum} (|-5 + 5.5| < 1 "
                "dropped)", call="sparse.add")


@clause("ops.sparse", ref="tf221")
def test_sparse_gradient_reaches_the_values(tf):
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        sp = tf.sparse.SparseTensor([[0, 1], [1, 0]], v, [2, 2])
        loss = tf.reduce_sum(tf.sparse.sparse_dense_matmul(sp, tf.constant([[1.0, 2.0], [3.0, 4.0]])))
    g = to_numpy(tape.gradient(loss, v)).tolist()
    assert_true(g == [7.0, 3.0], f"d sum(sp @ b)/d values = {g}, but should be [7.0, 3.0] (row sums of b at the "
                "columns)", call="sparse.sparse_dense_matmul")


@clause("ops.sparse-segments", ref="tf221")
def test_sparse_segment_mean_of_rows(tf):
    data = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
    got = to_numpy(tf.sparse.segment_mean(data, [0, 2, 1], [0, 0, 2])).tolist()
    want = [[3.0, 4.0], [0.0, 0.0], [3.0, 4.0]]
    assert_true(got == want, f"segment_mean gives {got}, but should be {want}", call="sparse.segment_mean")
    with raises(tf.errors.InvalidArgumentError, call="sparse.segment_sum of unsorted segment ids"):
        tf.sparse.segment_sum(data, [0, 1], [1, 0])


@clause("ops.sets", ref="tf221")
def test_set_union_is_sorted_per_row(tf):
    got = _parts(tf.sets.union([[1, 2, 2, 5], [3, 4, 0, 0]], [[2, 7, 1, 1], [9, 9, 9, 9]]))
    want = ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2], [1, 3]], [1, 2, 5, 7, 0, 3, 4, 9], [2, 4])
    assert_true(got == want, f"sets.union gives {got}, but should be {want}", call="sets.union")
