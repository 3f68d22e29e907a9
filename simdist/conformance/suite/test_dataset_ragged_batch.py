"""Dataset.ragged_batch and tf.data.experimental.dense_to_ragged_batch — clause dataset.ragged-batch
(TF 2.21).

ragged_batch is TF's composition: each dense component of known rank whose shape is not fully known
becomes a RaggedTensorSpec whose ragged_rank is its last unknown axis (its values re-encoded with
RaggedTensor.from_tensor), then batch, which adds a ragged level (RaggedTensorSpec._batch); fully known
components batch as tensors. unbatch takes the level off again. Expected values observed with TF 2.21.
"""

from __future__ import annotations

import pytest

clause = pytest.mark.clause


def _rt(r) -> tuple:
    return (r.to_list(), [s.numpy().tolist() for s in r.nested_row_splits], r.dtype.name, r.row_splits.dtype.name)


@clause("dataset.ragged-batch", ref="tf221")
def test_ragged_batch_of_dense_elements(tf):
    D = tf.data.Dataset
    ds = D.range(5).map(lambda i: tf.range(i))
    cases = [
        ("range(5).map(range(i)).ragged_batch(2)", ds.ragged_batch(2),
         tf.RaggedTensorSpec([None, None], tf.int64, 1, tf.int64),
         [([[], [0]], [[0, 0, 1]], "int64", "int64"), ([[0, 1], [0, 1, 2]], [[0, 2, 5]], "int64", "int64"),
          ([[0, 1, 2, 3]], [[0, 4]], "int64", "int64")]),
        ("ragged_batch(2, drop_remainder=True, row_splits_dtype=int32)",
         ds.ragged_batch(2, drop_remainder=True, row_splits_dtype=tf.int32),
         tf.RaggedTensorSpec([2, None], tf.int64, 1, tf.int32),
         [([[], [0]], [[0, 0, 1]], "int64", "int32"), ([[0, 1], [0, 1, 2]], [[0, 2, 5]], "int64", "int32")]),
        ("range(4).map(reshape(range(2i), [i, 2])).ragged_batch(3) (ragged_rank 0 rows)",
         D.range(4).map(lambda i: tf.reshape(tf.range(2 * i), [i, 2])).ragged_batch(3),
         tf.RaggedTensorSpec([None, None, 2], tf.int64, 1, tf.int64),
         [([[], [[0, 1]], [[0, 1], [2, 3]]], [[0, 0, 1, 3]], "int64", "int64"),
          ([[[0, 1], [2, 3], [4, 5]]], [[0, 3]], "int64", "int64")]),
        ("range(3).map(fill([i, i], i)).ragged_batch(3) (two ragged levels)",
         D.range(3).map(lambda i: tf.fill([i, i], tf.cast(i, tf.float32))).ragged_batch(3),
         tf.RaggedTensorSpec([None, None, None], tf.float32, 2, tf.int64),
         [([[], [[1.0]], [[2.0, 2.0], [2.0, 2.0]]], [[0, 0, 1, 3], [0, 1, 3, 5]], "float32", "int64")]),
        ("apply(experimental.dense_to_ragged_batch(3))", ds.apply(tf.data.experimental.dense_to_ragged_batch(3)),
         tf.RaggedTensorSpec([None, None], tf.int64, 1, tf.int64),
         [([[], [0], [0, 1]], [[0, 0, 1, 3]], "int64", "int64"), ([[0, 1, 2], [0, 1, 2, 3]], [[0, 3, 7]], "int64",
                                                                  "int64")]),
    ]
    for what, d, spec, want in cases:
        assert d.element_spec == spec, f"element_spec={d.element_spec!r}, but should be {spec!r} [{what}]"
        got = [_rt(e) for e in d]
        assert got == want, f"elements={got}, but should be {want} [{what}]"
    assert int(ds.ragged_batch(2).cardinality()) == 3, "range(5).map(...).ragged_batch(2).cardinality() != 3"


@clause("dataset.ragged-batch", ref="tf221")
def test_ragged_batch_mixed_components_and_unbatch(tf):
    D = tf.data.Dataset
    d = D.range(3).map(lambda i: (tf.range(i), i, tf.fill([2], i))).ragged_batch(2)
    want_spec = (tf.RaggedTensorSpec([None, None], tf.int64, 1, tf.int64), tf.TensorSpec([None], tf.int64),
                 tf.TensorSpec([None, 2], tf.int64))
    assert d.element_spec == want_spec, f"element_spec={d.element_spec!r}, but should be {want_spec!r}"
    got = [(_rt(a), b.numpy().tolist(), c.numpy().tolist()) for a, b, c in d]
    want = [(([[], [0]], [[0, 0, 1]], "int64", "int64"), [0, 1], [[0, 0], [1, 1]]),
            (([[0, 1]], [[0, 2]], "int64", "int64"), [2], [[2, 2]])]
    assert got == want, f"elements={got}, but should be {want} [(range(i), i, fill([2], i)).ragged_batch(2)]"
    got = [x.numpy().tolist() for x in D.range(3).ragged_batch(2)]
    assert got == [[0, 1], [2]], f"elements={got}, but should be [[0, 1], [2]] [range(3).ragged_batch(2): dense]"
    rb = D.range(5).map(lambda i: tf.range(i)).ragged_batch(2)
    got = [x.numpy().tolist() for x in rb.unbatch()]
    want = [[], [0], [0, 1], [0, 1, 2], [0, 1, 2, 3]]
    assert got == want, f"elements={got}, but should be {want} [ragged_batch(2).unbatch()]"
    spec = rb.unbatch().element_spec
    assert spec == tf.RaggedTensorSpec([None], tf.int64, 0, tf.int64), f"unbatch().element_spec={spec!r}"
    got = [x.numpy().tolist() for x in rb.map(lambda r: r.to_tensor())]
    want = [[[0], [0]], [[0, 1, 0], [0, 1, 2]], [[0, 1, 2, 3]]]
    assert got == want, f"elements={got}, but should be {want} [ragged_batch(2).map(to_tensor)]"
    with pytest.raises(TypeError, match="`padded_batch` is only supported for datasets that produce tensor"):
        rb.padded_batch(2)
