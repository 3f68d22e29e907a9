"""tf.math.bincount of a SparseTensor (TF 2.21's sparse_ops.bincount dispatch), the weights checks of
tf.sparse.bincount (validate_sparse_weights, validate_dense_weights) and Keras's CategoryEncoding of a SparseTensor,
on simdist vs TF 2.21 + Keras 3.15: both axes, weights, binary output, min/max length, dtype, float and int64 values,
an empty SparseTensor, negative values, rank 1 and 3, inside a tf.function, and the errors (weights of another kind,
other indices or dense shape, a bad axis). Clause ops.sparse. Its golden (tests/goldens/) is stamped with this file.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_IND = [[0, 0], [1, 1], [1, 2]]


def _st(tf: Any, values: list, dtype: Any = None, indices: list = _IND, shape: list = (2, 4)) -> Any:
    return tf.sparse.SparseTensor(indices=indices, values=tf.constant(values, dtype), dense_shape=list(shape))


def _sp(y: Any) -> Any:
    return [y.indices, y.values, y.dense_shape] if type(y).__name__ == "SparseTensor" else y


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    ints = lambda tf: _st(tf, [1, 3, 1])  # noqa: E731
    w = lambda tf: _st(tf, [0.5, 2.0, 3.0])  # noqa: E731
    for axis in (None, 0, -1):
        c[f"math/axis{axis}"] = lambda tf, a=axis: tf.math.bincount(ints(tf), axis=a)
        c[f"math/axis{axis}/binary"] = lambda tf, a=axis: tf.math.bincount(ints(tf), axis=a, binary_output=True)
        c[f"math/axis{axis}/weights"] = lambda tf, a=axis: tf.math.bincount(ints(tf), weights=w(tf), axis=a)
        c[f"math/axis{axis}/weights64"] = lambda tf, a=axis: tf.math.bincount(
            ints(tf), weights=_st(tf, [0.5, 2.0, 3.0], tf.float64), axis=a)
        c[f"math/axis{axis}/minlength"] = lambda tf, a=axis: tf.math.bincount(ints(tf), minlength=6, axis=a)
        c[f"math/axis{axis}/maxlength"] = lambda tf, a=axis: tf.math.bincount(ints(tf), maxlength=2, axis=a)
        c[f"math/axis{axis}/dtype"] = lambda tf, a=axis: tf.math.bincount(ints(tf), dtype=tf.float64, axis=a)
        c[f"math/axis{axis}/float_values"] = lambda tf, a=axis: tf.math.bincount(_st(tf, [1.7, 3.2, 1.0]), axis=a)
        c[f"math/axis{axis}/int64"] = lambda tf, a=axis: tf.math.bincount(_st(tf, [1, 3, 1], tf.int64), axis=a)
        c[f"math/axis{axis}/empty"] = lambda tf, a=axis: tf.math.bincount(
            tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.int32), [2, 4]), axis=a)
        c[f"math/axis{axis}/empty_min"] = lambda tf, a=axis: tf.math.bincount(
            tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.int32), [2, 4]), minlength=3,
            axis=a)
        c[f"math/axis{axis}/negative"] = lambda tf, a=axis: tf.math.bincount(_st(tf, [-1, 2, -3]), axis=a)
        c[f"math/axis{axis}/all_negative"] = lambda tf, a=axis: tf.math.bincount(_st(tf, [-1, -2, -3]), axis=a)
        c[f"math/axis{axis}/rank3"] = lambda tf, a=axis: tf.math.bincount(
            _st(tf, [2, 0, 1], indices=[[0, 0, 1], [1, 0, 0], [1, 1, 1]], shape=(2, 2, 2)), axis=a)
        c[f"math/axis{axis}/dense_weights"] = lambda tf, a=axis: tf.math.bincount(
            ints(tf), weights=tf.constant([1.0, 2.0, 3.0]), axis=a)
        c[f"math/axis{axis}/other_indices"] = lambda tf, a=axis: tf.math.bincount(
            ints(tf), weights=_st(tf, [0.5, 2.0, 3.0], indices=[[0, 0], [1, 1], [1, 3]]), axis=a)
        c[f"math/axis{axis}/other_shape"] = lambda tf, a=axis: tf.math.bincount(
            ints(tf), weights=_st(tf, [0.5, 2.0, 3.0], shape=(2, 5)), axis=a)
        c[f"math/axis{axis}/fewer_weights"] = lambda tf, a=axis: tf.math.bincount(
            ints(tf), weights=_st(tf, [0.5, 2.0], indices=[[0, 0], [1, 1]]), axis=a)
        c[f"math/axis{axis}/function"] = lambda tf, a=axis: tf.function(
            lambda v, x: tf.math.bincount(tf.sparse.SparseTensor([[0, 0], [1, 1], [1, 2]], v, [2, 4]), weights=tf.sparse.SparseTensor([[0, 0], [1, 1], [1, 2]], x, [2, 4]), axis=a))(
            tf.constant([1, 3, 1]), tf.constant([0.5, 2.0, 3.0]))
    c["math/rank1/axis-1"] = lambda tf: tf.math.bincount(_st(tf, [1, 3], indices=[[0], [2]], shape=(4,)), axis=-1)
    c["math/rank1/axis0"] = lambda tf: tf.math.bincount(_st(tf, [1, 3], indices=[[0], [2]], shape=(4,)))
    c["math/axis1"] = lambda tf: tf.math.bincount(ints(tf), axis=1)
    c["math/weights_and_binary"] = lambda tf: tf.math.bincount(ints(tf), weights=w(tf), binary_output=True)
    c["math/same_tensors"] = lambda tf: (lambda s: tf.math.bincount(s, weights=s, axis=-1))(ints(tf))
    for axis in (0, -1):
        c[f"sparse/axis{axis}/weights"] = lambda tf, a=axis: _sp(tf.sparse.bincount(ints(tf), weights=w(tf), axis=a))
        c[f"sparse/axis{axis}/dense_weights"] = lambda tf, a=axis: _sp(tf.sparse.bincount(
            ints(tf), weights=tf.constant([1.0, 2.0, 3.0]), axis=a))
        c[f"sparse/axis{axis}/other_indices"] = lambda tf, a=axis: _sp(tf.sparse.bincount(
            ints(tf), weights=_st(tf, [0.5, 2.0, 3.0], indices=[[0, 0], [1, 1], [1, 3]]), axis=a))
        c[f"sparse/axis{axis}/other_shape"] = lambda tf, a=axis: _sp(tf.sparse.bincount(
            ints(tf), weights=_st(tf, [0.5, 2.0, 3.0], shape=(3, 4)), axis=a))
        c[f"sparse/axis{axis}/dense_values_sparse_weights"] = lambda tf, a=axis: _sp(tf.sparse.bincount(
            tf.constant([[1, 2, 2]]), weights=_st(tf, [0.5, 2.0, 3.0], indices=[[0, 0], [0, 1], [0, 2]], shape=(1, 3)),
            axis=a))
        c[f"sparse/axis{axis}/dense_values_ragged_weights"] = lambda tf, a=axis: _sp(tf.sparse.bincount(
            tf.constant([[1, 2, 2]]), weights=tf.ragged.constant([[0.5, 2.0, 3.0]]), axis=a))
    for mode in ("count", "multi_hot", "one_hot"):
        for sparse in (False, True):
            c[f"keras/{mode}/sparse{sparse}"] = lambda tf, m=mode, s=sparse: _sp(tf.keras.layers.CategoryEncoding(
                num_tokens=4, output_mode=m, sparse=s)(ints(tf)))
    c["keras/count/weights"] = lambda tf: _sp(tf.keras.layers.CategoryEncoding(num_tokens=4, output_mode="count")(
        ints(tf), count_weights=w(tf)))
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"\b(category_encoding)(_\d+)?\b"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.sparse")
@pytest.mark.parametrize("prefix", ["math/", "sparse/", "keras/"])
def test_bincount_of_sparse_tensors_matches_tf(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
