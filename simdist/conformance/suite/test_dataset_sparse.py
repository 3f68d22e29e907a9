"""SparseTensor elements in tf.data and sparse batching — clauses dataset.sparse-elements and
dataset.sparse-batch (TF 2.21).

A SparseTensor is an element leaf of spec SparseTensorSpec: from_tensor_slices cuts it along dim 0
(its indices must be ordered: SerializeManySparse), from_tensors keeps it, map functions take and
return one, batch combines a batch as DeserializeSparse does (each element's indices prefixed with its
position, dense shape [n] + the largest of each dim), unbatch splits it back, padded_batch refuses it.
sparse_batch (DenseToSparseBatchDataset) makes one SparseTensor of every entry of up to batch_size
dense elements, zeros included, dense shape [n] + row_shape (unknown dims: the batch's largest).
Expected values were observed with TF 2.21.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import raises

clause = pytest.mark.clause


def _sp(e) -> tuple:
    return (e.indices.numpy().tolist(), e.values.numpy().tolist(), e.dense_shape.numpy().tolist())


def _st(tf):
    return tf.SparseTensor(indices=[[0, 1], [2, 0], [2, 3]], values=[1., 2., 3.], dense_shape=[3, 4])


@clause("dataset.sparse-elements", ref="tf221")
def test_sparse_tensor_elements_slice_batch_and_unbatch(tf):
    D = tf.data.Dataset
    ds = D.from_tensor_slices(_st(tf))
    assert ds.element_spec == tf.SparseTensorSpec([4], tf.float32), \
        f"element_spec={ds.element_spec!r}, but should be SparseTensorSpec([4], float32) [from_tensor_slices(sparse)]"
    assert int(ds.cardinality()) == 3, f"cardinality={int(ds.cardinality())}, but should be 3"
    cases = [
        ("from_tensor_slices(sparse)", ds, [([[1]], [1.0], [4]), ([], [], [4]), ([[0], [3]], [2.0, 3.0], [4])]),
        ("from_tensor_slices(sparse).batch(2)", ds.batch(2),
         [([[0, 1]], [1.0], [2, 4]), ([[0, 0], [0, 3]], [2.0, 3.0], [1, 4])]),
        ("from_tensor_slices(sparse).batch(2).unbatch()", ds.batch(2).unbatch(),
         [([[1]], [1.0], [4]), ([], [], [4]), ([[0], [3]], [2.0, 3.0], [4])]),
        ("range(4).map(i -> sparse of dense shape [i+1]).batch(3) (dense shape: the largest)",
         D.range(4).map(lambda i: tf.SparseTensor([[0]], [i], [i + 1])).batch(3),
         [([[0, 0], [1, 0], [2, 0]], [0, 1, 2], [3, 3]), ([[0, 0]], [3], [1, 4])]),
        ("from_tensors(unordered sparse).repeat(2).batch(2) (indices kept in their order)",
         D.from_tensors(tf.SparseTensor([[1, 0], [0, 1]], [5, 6], [2, 2])).repeat(2).batch(2),
         [([[0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1]], [5, 6, 5, 6], [2, 2, 2])]),
        ("range(3).map(i -> from_dense(reshape(range(2i), [i, 2]))).unbatch()",
         D.range(3).map(lambda i: tf.sparse.from_dense(tf.reshape(tf.range(i * 2), [i, 2]))).unbatch(),
         [([[1]], [1], [2]), ([[1]], [1], [2]), ([[0], [1]], [2, 3], [2])]),
        ("from_tensor_slices(sparse).batch(2).map(map_values(x*2))",
         ds.batch(2).map(lambda s: tf.sparse.map_values(tf.multiply, s, 2.)),
         [([[0, 1]], [2.0], [2, 4]), ([[0, 0], [0, 3]], [4.0, 6.0], [1, 4])]),
        ("from_tensor_slices(sparse).filter(size(values) > 0)", ds.filter(lambda s: tf.size(s.values) > 0),
         [([[1]], [1.0], [4]), ([[0], [3]], [2.0, 3.0], [4])]),
        ("from_tensors(string sparse).repeat(2).batch(2)",
         D.from_tensors(tf.SparseTensor([[0], [2]], ["a", "b"], [3])).repeat(2).batch(2),
         [([[0, 0], [0, 2], [1, 0], [1, 2]], [b"a", b"b", b"a", b"b"], [2, 3])]),
    ]
    for what, d, want in cases:
        got = [_sp(e) for e in d]
        assert got == want, f"elements={got}, but should be {want} [{what}]"


@clause("dataset.sparse-elements", ref="tf221")
def test_sparse_element_specs_and_mixed_structures(tf):
    D = tf.data.Dataset
    st = _st(tf)
    specs = [
        ("from_tensors(sparse)", D.from_tensors(st).element_spec, tf.SparseTensorSpec([3, 4], tf.float32)),
        ("from_tensors(sparse).batch(2, drop_remainder=True)",
         D.from_tensors(st).batch(2, drop_remainder=True).element_spec, tf.SparseTensorSpec([2, 3, 4], tf.float32)),
        ("from_tensor_slices(sparse).batch(2)", D.from_tensor_slices(st).batch(2).element_spec,
         tf.SparseTensorSpec([None, 4], tf.float32)),
        ("range(4).map(i -> sparse of dense shape [i+1])",
         D.range(4).map(lambda i: tf.SparseTensor([[0]], [i], [i + 1])).element_spec,
         tf.SparseTensorSpec([None], tf.int64)),
        ("range(3).map(i -> [i, 2] sparse).unbatch()",
         D.range(3).map(lambda i: tf.sparse.from_dense(tf.reshape(tf.range(i * 2), [i, 2]))).unbatch().element_spec,
         tf.SparseTensorSpec([2], tf.int64)),
        ("from_tensor_slices({'a': sparse, 'b': [1, 2, 3]}).batch(2)",
         D.from_tensor_slices({"a": st, "b": [1, 2, 3]}).batch(2).element_spec,
         {"a": tf.SparseTensorSpec([None, 4], tf.float32), "b": tf.TensorSpec([None], tf.int32)}),
    ]
    for what, got, want in specs:
        assert got == want, f"element_spec={got!r}, but should be {want!r} [{what}]"
    ds = D.from_tensor_slices((st, tf.range(3)))
    got = [(a.tolist(), int(b)) for a, b in ds.map(lambda s, x: (tf.sparse.to_dense(s), x)).as_numpy_iterator()]
    want = [([0., 1., 0., 0.], 0), ([0., 0., 0., 0.], 1), ([2., 0., 0., 3.], 2)]
    assert got == want, f"elements={got}, but should be {want} [from_tensor_slices((sparse, range)).map(to_dense)]"
    got = [np.asarray(a).tolist() for a in D.from_tensor_slices(st).as_numpy_iterator()]
    want = [[0., 1., 0., 0.], [0., 0., 0., 0.], [2., 0., 0., 3.]]
    assert got == want, f"as_numpy_iterator()={got}, but should be {want} (a sparse element as its dense array)"
    got = [(_sp(a), int(b)) for a, b in D.zip((D.from_tensor_slices(st), D.range(3))).skip(1).take(1)]
    want = [(([], [], [4]), 1)]
    assert got == want, f"elements={got}, but should be {want} [zip((sparse slices, range)).skip(1).take(1)]"


@clause("dataset.sparse-elements", ref="tf221")
def test_sparse_element_errors(tf):
    D = tf.data.Dataset
    st = _st(tf)
    with raises(TypeError, match="`padded_batch` is only supported for datasets that produce tensor elements"):
        D.from_tensor_slices(st).padded_batch(2)
    with raises(ValueError, match="Unbatching a sparse tensor is only supported for rank >= 1"):
        D.from_tensor_slices(tf.SparseTensor(tf.zeros([0, 0], tf.int64), tf.zeros([0]), tf.zeros([0], tf.int64)))
    with raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = \[0,1\] is out of order"):
        D.from_tensor_slices(tf.SparseTensor([[1, 0], [0, 1]], [5, 6], [2, 2]))


@clause("dataset.sparse-batch", ref="tf221")
def test_sparse_batch_of_dense_elements(tf):
    D = tf.data.Dataset
    ds = D.range(1, 5).map(lambda i: tf.fill([i], i))
    first_three = ([[0, 0], [1, 0], [1, 1], [2, 0], [2, 1], [2, 2]], [1, 2, 2, 3, 3, 3])
    cases = [
        ("sparse_batch(3, [4])", ds.sparse_batch(3, [4]), tf.SparseTensorSpec([None, 4], tf.int64),
         [first_three + ([3, 4],), ([[0, 0], [0, 1], [0, 2], [0, 3]], [4, 4, 4, 4], [1, 4])]),
        ("sparse_batch(3, [None]) (unknown dim: the batch's largest)", ds.sparse_batch(3, [None]),
         tf.SparseTensorSpec([None, None], tf.int64),
         [first_three + ([3, 3],), ([[0, 0], [0, 1], [0, 2], [0, 3]], [4, 4, 4, 4], [1, 4])]),
        ("sparse_batch(3, [6])", ds.sparse_batch(3, [6]), tf.SparseTensorSpec([None, 6], tf.int64),
         [first_three + ([3, 6],), ([[0, 0], [0, 1], [0, 2], [0, 3]], [4, 4, 4, 4], [1, 6])]),
        ("from_tensor_slices(2x2x2).sparse_batch(2, [None, 3]) (zeros are entries)",
         D.from_tensor_slices([[[1, 0], [0, 2]], [[3, 3], [0, 0]]]).sparse_batch(2, [None, 3]),
         tf.SparseTensorSpec([None, None, 3], tf.int32),
         [([[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]],
           [1, 0, 0, 2, 3, 3, 0, 0], [2, 2, 3])]),
        ("range(3).sparse_batch(2, []) (scalars)", D.range(3).sparse_batch(2, []), tf.SparseTensorSpec([None], tf.int64),
         [([[0], [1]], [0, 1], [2]), ([[0]], [2], [1])]),
        ("apply(experimental.dense_to_sparse_batch(2, [5]))",
         ds.apply(tf.data.experimental.dense_to_sparse_batch(2, [5])), tf.SparseTensorSpec([None, 5], tf.int64),
         [([[0, 0], [1, 0], [1, 1]], [1, 2, 2], [2, 5]),
          ([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [1, 3]], [3, 3, 3, 4, 4, 4, 4], [2, 5])]),
        ("sparse_batch(2, [None]).unbatch()", ds.sparse_batch(2, [None]).unbatch(), tf.SparseTensorSpec([None], tf.int64),
         [([[0]], [1], [2]), ([[0], [1]], [2, 2], [2]), ([[0], [1], [2]], [3, 3, 3], [4]),
          ([[0], [1], [2], [3]], [4, 4, 4, 4], [4])]),
    ]
    for what, d, spec, want in cases:
        assert d.element_spec == spec, f"element_spec={d.element_spec!r}, but should be {spec!r} [{what}]"
        got = [_sp(e) for e in d]
        assert got == want, f"elements={got}, but should be {want} [{what}]"
    assert int(D.range(7).sparse_batch(3, []).cardinality()) == 3, "range(7).sparse_batch(3, []).cardinality() != 3"


@clause("dataset.sparse-batch", ref="tf221")
def test_sparse_batch_errors(tf):
    D = tf.data.Dataset
    ds = D.range(1, 5).map(lambda i: tf.fill([i], i))
    it = iter(ds.sparse_batch(2, [2]))
    got = _sp(next(it))
    assert got == ([[0, 0], [1, 0], [1, 1]], [1, 2, 2], [2, 2]), f"first batch={got} [sparse_batch(2, [2])]"
    with raises(tf.errors.DataLossError, match=r"Input element had shape \(\[3\]\) that is larger than the row "
                                               r"shape \(\[2\]\)"):
        next(it)
    with raises(tf.errors.InvalidArgumentError, match=r"Input element had shape \(\[1\]\) that is incompatible with "
                                                      r"the row shape \(\[2,2\]\)"):
        next(iter(ds.sparse_batch(2, [2, 2])))
    with raises(TypeError, match="requires an input dataset whose elements have a single component"):
        D.range(3).map(lambda i: (i, i)).sparse_batch(2, [1])
    with raises(tf.errors.InvalidArgumentError, match="Batch size must be greater than zero"):
        ds.sparse_batch(0, [4])
    with raises(ValueError, match="Dimension -1 must be >= 0"):
        ds.sparse_batch(2, tf.constant([-1], tf.int64))


@clause("dataset.sparse-elements", ref="tf221")
def test_parse_example_dataset_gives_sparse_features(tf):
    recs = []
    for i in range(5):
        ex = tf.train.Example(features=tf.train.Features(feature={
            "ids": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(i)))),
            "y": tf.train.Feature(float_list=tf.train.FloatList(value=[i * 0.5]))}))
        recs.append(ex.SerializeToString())
    spec = {"ids": tf.io.VarLenFeature(tf.int64), "y": tf.io.FixedLenFeature([], tf.float32)}
    ds = tf.data.Dataset.from_tensor_slices(recs).batch(2).apply(tf.data.experimental.parse_example_dataset(spec))
    want_spec = {"ids": tf.SparseTensorSpec([None, None], tf.int64), "y": tf.TensorSpec([None], tf.float32)}
    assert ds.element_spec == want_spec, f"element_spec={ds.element_spec!r}, but should be {want_spec!r}"
    got = [(_sp(e["ids"]), e["y"].numpy().tolist()) for e in ds]
    want = [(([[1, 0]], [0], [2, 1]), [0.0, 0.5]),
            (([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], [0, 1, 0, 1, 2], [2, 3]), [1.0, 1.5]),
            (([[0, 0], [0, 1], [0, 2], [0, 3]], [0, 1, 2, 3], [1, 4]), [2.0])]
    assert got == want, f"elements={got}, but should be {want} [batch(2).apply(parse_example_dataset)]"
    with raises(TypeError, match="Input dataset should be a dataset of vectors of strings"):
        tf.data.Dataset.from_tensor_slices(recs).apply(tf.data.experimental.parse_example_dataset(spec))
    with raises(ValueError, match="Argument `features` is required"):
        tf.data.experimental.parse_example_dataset(None)
