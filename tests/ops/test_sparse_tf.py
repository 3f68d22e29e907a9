"""tf.SparseTensor, tf.sparse, the sparse segment ops and tf.nn.embedding_lookup_sparse against real
TensorFlow 2.21: values, entry orders, dtypes, TF's error classes, gradients through the values,
inside tf.function and strategy.run. A SparseTensor output is compared as its three tensors.
Needs the `tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_RNG = np.random.default_rng(29)
_DATA = _RNG.standard_normal((12, 5)).astype(np.float32)
_B = _RNG.standard_normal((4, 40)).astype(np.float32)


def _o(x: Any) -> Any:
    """A program's output: a SparseTensor as [indices, values, dense_shape], lists recursively."""
    if hasattr(x, "dense_shape") and hasattr(x, "indices") and type(x).__name__ == "SparseTensor":
        return [x.indices, x.values, x.dense_shape]
    if isinstance(x, (list, tuple)):
        return [_o(v) for v in x]
    return x


def _st(tf: Any, ind: Any = ((0, 0), (0, 2), (2, 1)), val: Any = (-5.0, -1.0, 3.0), shape: Any = (3, 3),
        dtype: Any = None) -> Any:
    v = np.asarray(val, dtype=np.float32 if dtype is None else dtype)
    return tf.sparse.SparseTensor(list(map(list, ind)), v, list(shape))


_UNORD = (((2, 1), (0, 2), (0, 0)), (3.0, -1.0, -5.0), (3, 3))


def _unord(tf: Any) -> Any:
    return _st(tf, *_UNORD)


def _grad(fn: Callable[[Any, Any], Any], val: Any = (-5.0, -1.0, 3.0)) -> Callable[[Any], Any]:
    """The gradient of sum(fn(tf, values) * weights) with respect to a SparseTensor's values."""
    def run(tf: Any) -> Any:
        v = tf.Variable(np.asarray(val, np.float32))
        with tf.GradientTape() as tape:
            out = fn(tf, v)
            dense = out.values if type(out).__name__ == "SparseTensor" else out
            w = tf.cast(tf.range(tf.size(dense)) + 1, tf.float32)
            loss = tf.reduce_sum(tf.reshape(dense, [-1]) * w)
        g = tape.gradient(loss, v)
        return [out if type(out).__name__ != "SparseTensor" else out.values, tf.convert_to_tensor(g)]
    return run


def _sp_of(tf: Any, v: Any, ind: Any = ((0, 0), (0, 2), (2, 1)), shape: Any = (3, 3)) -> Any:
    return tf.sparse.SparseTensor(list(map(list, ind)), v, list(shape))


_CORE: list[tuple[str, Callable[[Any], Any]]] = [
    ("construct", lambda tf: _o(_st(tf))),
    ("construct-int-values-shape", lambda tf: [tf.constant(_st(tf, val=[1, 2, 3], dtype=np.int32).shape.as_list()),
                                               _o(_st(tf, val=[1, 2, 3], dtype=np.int32))]),
    ("construct-bad-rank", lambda tf: tf.sparse.SparseTensor([0, 1], [1.0, 2.0], [3])),
    ("construct-count-mismatch", lambda tf: tf.sparse.SparseTensor([[0], [1]], [1.0], [3])),
    ("construct-int32-indices-tensor", lambda tf: tf.sparse.SparseTensor(tf.constant([[0]]), [1.0], [3])),
    ("with-values", lambda tf: _o(_st(tf).with_values(tf.constant([1, 2, 3])))),
    ("from-dense", lambda tf: _o(tf.sparse.from_dense([[0., -0., 1.], [np.nan, 0, 2]]))),
    ("from-dense-int", lambda tf: _o(tf.sparse.from_dense(np.array([[0, 3], [4, 0]], np.int64)))),
    ("to-dense", lambda tf: tf.sparse.to_dense(_st(tf))),
    ("to-dense-default", lambda tf: tf.sparse.to_dense(_st(tf), default_value=7.5)),
    ("to-dense-unordered", lambda tf: tf.sparse.to_dense(_unord(tf))),
    ("to-dense-unordered-novalidate", lambda tf: tf.sparse.to_dense(_unord(tf), validate_indices=False)),
    ("to-dense-repeated", lambda tf: tf.sparse.to_dense(_st(tf, [[0, 0], [0, 0]], [1., 2.]))),
    ("to-dense-repeated-novalidate", lambda tf: tf.sparse.to_dense(_st(tf, [[0, 0], [0, 0]], [1., 2.]),
                                                                   validate_indices=False)),
    ("to-dense-out-of-bounds", lambda tf: tf.sparse.to_dense(_st(tf, [[0, 0], [5, 0]], [1., 2.]),
                                                             validate_indices=False)),
    ("to-dense-bool", lambda tf: tf.sparse.to_dense(tf.sparse.SparseTensor([[1]], [True], [3]))),
    ("to-dense-string", lambda tf: tf.sparse.to_dense(tf.sparse.SparseTensor([[1]], ["a"], [2]))),
    ("reorder", lambda tf: _o(tf.sparse.reorder(_unord(tf)))),
    ("reorder-out-of-bounds-kept", lambda tf: _o(tf.sparse.reorder(_st(tf, [[5, 0], [0, 0]], [1., 2.])))),
    ("reshape", lambda tf: _o(tf.sparse.reshape(_unord(tf), [9, -1]))),
    ("reshape-3d", lambda tf: _o(tf.sparse.reshape(_st(tf, [[1, 2], [0, 1]], [1., 2.], [2, 6]), [3, 2, 2]))),
    ("reshape-bad-size", lambda tf: tf.sparse.reshape(_st(tf), [4, 2])),
    ("add-sparse", lambda tf: _o(tf.sparse.add(_st(tf), _st(tf, [[0, 1], [2, 1]], [2., 1.])))),
    ("add-unordered", lambda tf: _o(tf.sparse.add(_unord(tf), _st(tf, [[0, 1], [2, 1]], [2., 1.])))),
    ("add-threshold", lambda tf: _o(tf.sparse.add(_st(tf), _st(tf, [[0, 0], [2, 1]], [5.5, 1.]), threshold=1.0))),
    ("add-threshold-nan-dropped", lambda tf: _o(tf.sparse.add(_st(tf), _st(tf, [[0, 0]], [np.nan])))),
    ("add-dense", lambda tf: tf.sparse.add(_st(tf), tf.ones([3, 3]))),
    ("add-dense-first", lambda tf: tf.sparse.add(tf.ones([3, 3]), _st(tf))),
    ("add-dense-repeated", lambda tf: tf.sparse.add(_st(tf, [[0, 0], [0, 0]], [1., 2.]), np.zeros((3, 3), np.float32))),
    ("add-shape-mismatch", lambda tf: tf.sparse.add(_st(tf), _st(tf, [[0, 0]], [1.], [3, 4]))),
    ("add-dense-shape-mismatch", lambda tf: tf.sparse.add(_st(tf), tf.ones([3, 4]))),
    ("add-no-sparse", lambda tf: tf.sparse.add(tf.ones([2]), tf.ones([2]))),
    ("add-int64", lambda tf: _o(tf.sparse.add(_st(tf, val=[1, 2, 3], dtype=np.int64),
                                              _st(tf, val=[-1, 5, 6], dtype=np.int64)))),
    ("add-dtype-mismatch", lambda tf: tf.sparse.add(_st(tf), _st(tf, val=[1, 2, 3], dtype=np.float64))),
    ("slice", lambda tf: _o(tf.sparse.slice(_unord(tf), [0, 1], [2, 5]))),
    ("slice-empty", lambda tf: _o(tf.sparse.slice(_st(tf), [3, 3], [1, 1]))),
    ("split", lambda tf: _o(tf.sparse.split(sp_input=_unord(tf), num_split=2, axis=1))),
    ("split-three", lambda tf: _o(tf.sparse.split(sp_input=_st(tf, [[0, 0], [1, 3], [0, 6]], [1., 2., 3.], [2, 7]),
                                                  num_split=3, axis=-1))),
    ("split-too-many", lambda tf: tf.sparse.split(sp_input=_st(tf), num_split=4, axis=0)),
    ("concat", lambda tf: _o(tf.sparse.concat(1, [_unord(tf), _st(tf)]))),
    ("concat-axis0", lambda tf: _o(tf.sparse.concat(0, [_st(tf), _unord(tf)]))),
    ("concat-expand", lambda tf: _o(tf.sparse.concat(1, [_st(tf, [[0, 0]], [1.], [2, 2]), _st(tf)],
                                                     expand_nonconcat_dims=True))),
    ("concat-mismatch", lambda tf: tf.sparse.concat(1, [_st(tf, [[0, 0]], [1.], [2, 2]), _st(tf)])),
    ("transpose", lambda tf: _o(tf.sparse.transpose(_unord(tf)))),
    ("transpose-perm-3d", lambda tf: _o(tf.sparse.transpose(_st(tf, [[0, 1, 2], [1, 0, 0]], [1., 2.], [2, 3, 4]),
                                                            [2, 0, 1]))),
    ("retain", lambda tf: _o(tf.sparse.retain(_unord(tf), [True, False, True]))),
    ("retain-wrong-length", lambda tf: tf.sparse.retain(_unord(tf), [True, False])),
    ("fill-empty-rows", lambda tf: _o(tf.sparse.fill_empty_rows(_unord(tf), -7.))),
    ("fill-empty-rows-ordered", lambda tf: _o(tf.sparse.fill_empty_rows(_st(tf), -7.))),
    ("fill-empty-rows-none-empty", lambda tf: _o(tf.sparse.fill_empty_rows(_st(tf, [[1, 0], [0, 1]], [1., 2.],
                                                                              [2, 2]), 0.))),
    ("reset-shape", lambda tf: _o(tf.sparse.reset_shape(_unord(tf)))),
    ("reset-shape-bigger", lambda tf: _o(tf.sparse.reset_shape(_unord(tf), [4, 5]))),
    ("reset-shape-smaller", lambda tf: tf.sparse.reset_shape(_unord(tf), [2, 5])),
    ("to-indicator", lambda tf: tf.sparse.to_indicator(tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [2, 0, 1],
                                                                              [2, 2]), 3)),
    ("maximum", lambda tf: _o(tf.sparse.maximum(_st(tf), _st(tf, [[0, 1], [2, 1]], [2., 1.])))),
    ("minimum-unordered", lambda tf: _o(tf.sparse.minimum(_unord(tf), _st(tf, [[0, 1], [2, 1]], [2., 1.])))),
    ("maximum-shape-mismatch", lambda tf: tf.sparse.maximum(_st(tf), _st(tf, [[0, 1]], [2.], [3, 4]))),
    ("softmax", lambda tf: _o(tf.sparse.softmax(_st(tf)))),
    ("softmax-unordered", lambda tf: _o(tf.sparse.softmax(_unord(tf)))),
    ("softmax-long-row", lambda tf: _o(tf.sparse.softmax(tf.sparse.from_dense(_DATA[:2] * 10)))),
    ("softmax-float64-3d", lambda tf: _o(tf.sparse.softmax(_st(tf, [[0, 0, 0], [0, 0, 2], [1, 1, 1]], [1., 2., 3.],
                                                               [2, 2, 3], np.float64)))),
    ("softmax-rank1", lambda tf: tf.sparse.softmax(tf.sparse.SparseTensor([[0]], [1.0], [2]))),
    ("softmax-int", lambda tf: tf.sparse.softmax(_st(tf, val=[1, 2, 3], dtype=np.int32))),
    ("expand-dims", lambda tf: _o(tf.sparse.expand_dims(_unord(tf), 1))),
    ("expand-dims-last", lambda tf: _o(tf.sparse.expand_dims(_unord(tf)))),
    ("expand-dims-neg", lambda tf: _o(tf.sparse.expand_dims(_unord(tf), -3))),
    ("eye", lambda tf: _o(tf.sparse.eye(2, 3))),
    ("eye-square-int", lambda tf: _o(tf.sparse.eye(3, dtype=tf.int32))),
    ("map-values", lambda tf: _o(tf.sparse.map_values(tf.multiply, _st(tf), 3.0))),
    ("map-values-two", lambda tf: _o(tf.sparse.map_values(tf.add, _st(tf), _st(tf)))),
    ("map-values-none", lambda tf: tf.sparse.map_values(tf.add, 1.0, 2.0)),
    ("map-values-mismatch", lambda tf: tf.sparse.map_values(tf.add, _st(tf), _unord(tf))),
    ("mask", lambda tf: (lambda r: [r.values, r.indices, r.dense_shape])(tf.sparse.mask(tf.IndexedSlices(
        tf.constant([[1.], [2.], [3.]]), tf.constant([0, 4, 7]), tf.constant([9, 1])), [4]))),
]

_MATH: list[tuple[str, Callable[[Any], Any]]] = [
    ("reduce-sum-axis1", lambda tf: tf.sparse.reduce_sum(_st(tf), axis=1)),
    ("reduce-sum-all", lambda tf: tf.sparse.reduce_sum(_st(tf))),
    ("reduce-sum-keepdims", lambda tf: tf.sparse.reduce_sum(_st(tf), axis=0, keepdims=True)),
    ("reduce-sum-sparse", lambda tf: _o(tf.sparse.reduce_sum(_unord(tf), axis=0, output_is_sparse=True))),
    ("reduce-sum-sparse-keepdims", lambda tf: _o(tf.sparse.reduce_sum(_unord(tf), axis=1, keepdims=True,
                                                                      output_is_sparse=True))),
    ("reduce-sum-long-groups", lambda tf: tf.sparse.reduce_sum(tf.sparse.from_dense(_DATA.T * 1000), axis=1)),
    ("reduce-sum-bad-axis", lambda tf: tf.sparse.reduce_sum(_st(tf), axis=2)),
    ("reduce-max", lambda tf: tf.sparse.reduce_max(_st(tf), axis=1)),
    ("reduce-max-all", lambda tf: tf.sparse.reduce_max(_st(tf))),
    ("reduce-max-sparse", lambda tf: _o(tf.sparse.reduce_max(_st(tf), axis=1, output_is_sparse=True))),
    ("reduce-max-int", lambda tf: tf.sparse.reduce_max(_st(tf, val=[-4, 9, 2], dtype=np.int32), axis=0)),
    ("matmul", lambda tf: tf.sparse.sparse_dense_matmul(_st(tf, shape=(3, 4)), _B[:, :3])),
    ("matmul-wide", lambda tf: tf.sparse.sparse_dense_matmul(_st(tf, [[0, 0], [0, 2], [2, 1], [0, 3], [2, 0]],
                                                                 [1.5, -2., 0.25, 3., 7.], (3, 4)), _B)),
    ("matmul-adjoint-a", lambda tf: tf.sparse.sparse_dense_matmul(_st(tf, shape=(4, 3)), _B[:, :5], adjoint_a=True)),
    ("matmul-adjoint-b", lambda tf: tf.sparse.sparse_dense_matmul(_st(tf, shape=(3, 4)), _B[:, :6].T,
                                                                  adjoint_b=True)),
    ("matmul-dense-sparse", lambda tf: tf.sparse.sparse_dense_matmul(_B[:2, :3], _st(tf))),
    ("matmul-inner-mismatch", lambda tf: tf.sparse.sparse_dense_matmul(_st(tf), _B)),
    ("matmul-float64", lambda tf: tf.sparse.sparse_dense_matmul(_st(tf, dtype=np.float64), _B[:3, :2].astype(
        np.float64))),
    ("cwise-mul-scalar", lambda tf: _o(_st(tf) * 2)),
    ("cwise-mul-dense", lambda tf: _o(_st(tf) * tf.constant([[1.], [2.], [3.]]))),
    ("cwise-div", lambda tf: _o(_st(tf) / 4.0)),
    ("cwise-truediv-int", lambda tf: _o(_st(tf, val=[1, 2, 3], dtype=np.int32) / tf.constant(2))),
    ("cwise-bad-broadcast", lambda tf: _st(tf) * tf.ones([3, 3, 2])),
    ("rmul-typeerror", lambda tf: 2 * _st(tf)),
    ("add-operator-typeerror", lambda tf: _st(tf) + _st(tf)),
    ("neg-operator-typeerror", lambda tf: -_st(tf)),
    ("unary-dispatch", lambda tf: [_o(tf.abs(_st(tf))), _o(tf.math.square(_st(tf))), _o(tf.sqrt(_st(tf))),
                                   _o(tf.tanh(_st(tf))), _o(tf.math.negative(_st(tf))), _o(tf.sign(_st(tf))),
                                   _o(tf.math.erf(_st(tf))), _o(tf.cast(_st(tf), tf.int32))]),
    ("shape-size-rank", lambda tf: [tf.shape(_st(tf)), tf.size(_st(tf)), tf.rank(_st(tf))]),
    ("exp-rejects", lambda tf: tf.exp(_st(tf))),
    ("reduce-sum-dense-rejects", lambda tf: tf.reduce_sum(_st(tf))),
    ("convert-rejects", lambda tf: tf.convert_to_tensor(_st(tf))),
    ("segment-sum", lambda tf: tf.sparse.segment_sum(_DATA, [0, 3, 5, 1, 2], [0, 0, 0, 2, 2])),
    ("segment-mean-sqrtn", lambda tf: [tf.sparse.segment_mean(_DATA, [0, 2, 1], [0, 0, 2]),
                                       tf.sparse.segment_sqrt_n(_DATA, [0, 2, 1], [0, 0, 2])]),
    ("segment-long", lambda tf: [f(_DATA * 100, list(range(12)) * 2 + [3], [0] * 11 + [1] * 14)
                                 for f in (tf.sparse.segment_sum, tf.sparse.segment_mean, tf.sparse.segment_sqrt_n)]),
    ("segment-num-segments", lambda tf: tf.sparse.segment_sum(_DATA[:3], [0, 2, 1], [0, 0, 1], num_segments=4)),
    ("segment-unsorted", lambda tf: tf.sparse.segment_sum(_DATA[:3], [0, 2, 1], [1, 0, 2])),
    ("segment-bad-index", lambda tf: tf.sparse.segment_sum(_DATA[:3], [0, 5], [0, 0])),
    ("segment-float16", lambda tf: tf.sparse.segment_mean(_DATA.astype(np.float16), [0, 1, 2, 3, 4], [0] * 5)),
    ("segment-int-mean", lambda tf: tf.sparse.segment_mean(np.arange(6).reshape(3, 2), [0, 1], [0, 0])),
    ("segment-int-sum-int64-ids", lambda tf: tf.sparse.segment_sum(np.arange(6).reshape(3, 2),
                                                                   tf.constant([0, 1], tf.int64), [0, 1])),
]

def _empty(tf: Any, dtype: Any = np.float32, shape: Any = (2, 3)) -> Any:
    return tf.sparse.SparseTensor(np.zeros((0, len(shape)), np.int64), np.zeros(0, dtype), list(shape))


_EDGES: list[tuple[str, Callable[[Any], Any]]] = [
    ("empty-ops", lambda tf: [tf.sparse.to_dense(_empty(tf)), _o(tf.sparse.reorder(_empty(tf))),
                              _o(tf.sparse.reshape(_empty(tf), [3, 2])), _o(tf.sparse.add(_empty(tf), _empty(tf))),
                              tf.sparse.reduce_sum(_empty(tf), axis=1), tf.sparse.reduce_max(_empty(tf), axis=0),
                              _o(tf.sparse.softmax(_empty(tf))), _o(tf.sparse.fill_empty_rows(_empty(tf), 1.0)),
                              _o(tf.sparse.slice(_empty(tf), [0, 0], [1, 1])),
                              tf.sparse.sparse_dense_matmul(_empty(tf), _B[:3, :2]),
                              _o(tf.sparse.concat(0, [_empty(tf), _empty(tf)])), _o(tf.sparse.transpose(_empty(tf))),
                              _o(tf.sparse.maximum(_empty(tf), _empty(tf)))]),
    ("empty-reset-shape", lambda tf: _o(tf.sparse.reset_shape(_empty(tf)))),
    ("reduce-max-nan", lambda tf: tf.sparse.reduce_max(_st(tf, val=[1.0, np.nan, 2.0]), axis=1)),
    ("reduce-max-nan-first", lambda tf: tf.sparse.reduce_max(_st(tf, val=[np.nan, 1.0, 2.0]), axis=1)),
    ("reduce-max-inf", lambda tf: tf.sparse.reduce_max(_st(tf, val=[-np.inf, -np.inf, 2.0]), axis=1)),
    ("reduce-sum-float16", lambda tf: tf.sparse.reduce_sum(_st(tf, val=[1.5, 2.25, 6e4], dtype=np.float16))),
    ("reduce-sum-int8-wraps", lambda tf: tf.sparse.reduce_sum(_st(tf, val=[100, 100, 1], dtype=np.int8), axis=1)),
    ("reduce-sum-complex", lambda tf: tf.sparse.reduce_sum(_st(tf, val=[1 + 2j, 3j, -1], dtype=np.complex64))),
    ("reduce-max-bool", lambda tf: tf.sparse.reduce_max(_st(tf, val=[True, False, True], dtype=np.bool_))),
    ("reduce-sum-string", lambda tf: tf.sparse.reduce_sum(tf.sparse.SparseTensor([[0]], ["a"], [2]))),
    ("add-float64-complex", lambda tf: [_o(tf.sparse.add(_st(tf, dtype=np.float64), _st(tf, dtype=np.float64))),
                                        _o(tf.sparse.add(_st(tf, dtype=np.complex128), _st(tf, dtype=np.complex128),
                                                         threshold=3.0))]),
    ("add-uint8", lambda tf: tf.sparse.add(_st(tf, val=[1, 2, 3], dtype=np.uint8), _st(tf, val=[1, 2, 3],
                                                                                      dtype=np.uint8))),
    ("add-float16", lambda tf: tf.sparse.add(_st(tf, dtype=np.float16), _st(tf, dtype=np.float16))),
    ("add-bool", lambda tf: tf.sparse.add(_st(tf, val=[True] * 3, dtype=np.bool_), _st(tf, val=[True] * 3,
                                                                                       dtype=np.bool_))),
    ("add-dense-int", lambda tf: tf.sparse.add(_st(tf, val=[1, 2, 3], dtype=np.int32), np.ones((3, 3), np.int32))),
    ("add-dense-python-floats", lambda tf: tf.sparse.add(_st(tf), [[1.0] * 3] * 3)),
    ("add-dense-bool", lambda tf: tf.sparse.add(_st(tf, val=[True] * 3, dtype=np.bool_), np.ones((3, 3), bool))),
    ("to-dense-int-default", lambda tf: tf.sparse.to_dense(_st(tf, val=[1, 2, 3], dtype=np.int64), default_value=-1)),
    ("to-dense-default-float-into-int", lambda tf: tf.sparse.to_dense(_st(tf, val=[1, 2, 3], dtype=np.int32),
                                                                      default_value=0.5)),
    ("matmul-int32", lambda tf: tf.sparse.sparse_dense_matmul(_st(tf, val=[1, 2, 3], dtype=np.int32),
                                                              np.arange(6, dtype=np.int32).reshape(3, 2))),
    ("matmul-dtype-mismatch", lambda tf: tf.sparse.sparse_dense_matmul(_st(tf), np.ones((3, 2)))),
    ("matmul-float16", lambda tf: tf.sparse.sparse_dense_matmul(_st(tf, dtype=np.float16),
                                                                np.ones((3, 2), np.float16))),
    ("matmul-index-out-of-range", lambda tf: tf.sparse.sparse_dense_matmul(_st(tf, [[0, 5]], [1.0], [3, 3]),
                                                                           np.ones((3, 2), np.float32))),
    ("matmul-3d", lambda tf: tf.sparse.sparse_dense_matmul(_st(tf, [[0, 0, 0]], [1.0], [1, 3, 3]),
                                                           np.ones((3, 2), np.float32))),
    ("softmax-float16", lambda tf: _o(tf.sparse.softmax(_st(tf, dtype=np.float16)))),
    ("softmax-inf", lambda tf: _o(tf.sparse.softmax(_st(tf, val=[np.inf, 1.0, -np.inf])))),
    ("maximum-int", lambda tf: _o(tf.sparse.maximum(_st(tf, val=[-1, 5, 2], dtype=np.int64),
                                                    _st(tf, [[0, 0], [1, 1]], [3, -4], dtype=np.int64)))),
    ("maximum-nan", lambda tf: _o(tf.sparse.minimum(_st(tf, val=[np.nan, 1.0, 2.0]), _st(tf, val=[0.5, np.nan, 1.0])))),
    ("maximum-bool", lambda tf: tf.sparse.maximum(_st(tf, val=[True] * 3, dtype=np.bool_),
                                                  _st(tf, val=[True] * 3, dtype=np.bool_))),
    ("cwise-mul-int", lambda tf: _o(_st(tf, val=[1, 2, 3], dtype=np.int32) * 3)),
    ("cwise-div-int-div", lambda tf: _o(_st(tf, val=[-7, 7, 3], dtype=np.int32).__div__(tf.constant(2)))),
    ("cwise-mul-float-into-int", lambda tf: _st(tf, val=[1, 2, 3], dtype=np.int32) * 1.5),
    ("cwise-div-zero-float", lambda tf: _o(_st(tf) / 0.0)),
    ("concat-dtype-mismatch", lambda tf: tf.sparse.concat(0, [_st(tf), _st(tf, dtype=np.float64)])),
    ("concat-one", lambda tf: _o(tf.sparse.concat(0, [_unord(tf)]))),
    ("concat-bad-axis", lambda tf: tf.sparse.concat(2, [_st(tf), _st(tf)])),
    ("slice-negative-start", lambda tf: tf.sparse.slice(_st(tf), [-1, 0], [2, 2])),
    ("reshape-two-unknown", lambda tf: tf.sparse.reshape(_st(tf), [-1, -1])),
    ("reshape-scalar-shape", lambda tf: _o(tf.sparse.reshape(_st(tf, [[0, 0]], [1.0], [1, 1]),
                                                             tf.constant([], tf.int64)))),
    ("split-negative-axis-out", lambda tf: tf.sparse.split(sp_input=_st(tf), num_split=1, axis=5)),
    ("fill-empty-rows-int", lambda tf: _o(tf.sparse.fill_empty_rows(_st(tf, val=[1, 2, 3], dtype=np.int32), 9))),
    ("fill-empty-rows-string", lambda tf: _o(tf.sparse.fill_empty_rows(tf.sparse.SparseTensor([[1]], ["x"], [3]),
                                                                       "d"))),
    ("fill-empty-rows-bad-row", lambda tf: tf.sparse.fill_empty_rows(_st(tf, [[4, 0]], [1.0]), 0.0)),
    ("transpose-bad-perm", lambda tf: tf.sparse.transpose(_st(tf), [0, 0])),
    ("expand-dims-out-of-range", lambda tf: tf.sparse.expand_dims(_st(tf), 5)),
    ("expand-dims-float-axis", lambda tf: tf.sparse.expand_dims(_st(tf), 1.0)),
    ("eye-zero", lambda tf: _o(tf.sparse.eye(0))),
    ("to-indicator-int64", lambda tf: tf.sparse.to_indicator(tf.sparse.SparseTensor([[0, 0], [1, 2]], tf.constant(
        [3, 1], tf.int64), [2, 3]), 4)),
    ("to-indicator-out-of-vocab", lambda tf: tf.sparse.to_indicator(tf.sparse.SparseTensor([[0, 0]], [7], [1, 1]), 3)),
    ("to-indicator-float", lambda tf: tf.sparse.to_indicator(tf.sparse.SparseTensor([[0, 0]], [1.0], [1, 1]), 3)),
    ("unary-int-abs", lambda tf: _o(tf.abs(_st(tf, val=[-1, 2, -3], dtype=np.int32)))),
    ("unary-sqrt-int-error", lambda tf: tf.sqrt(_st(tf, val=[1, 2, 3], dtype=np.int32))),
    ("segment-ids-negative", lambda tf: tf.sparse.segment_sum(_DATA[:3], [0, 1], [-1, 0])),
    ("segment-empty", lambda tf: tf.sparse.segment_sum(_DATA[:3], tf.constant([], tf.int32),
                                                       tf.constant([], tf.int32))),
    ("segment-num-segments-too-small", lambda tf: tf.sparse.segment_mean(_DATA[:3], [0, 1], [0, 3], num_segments=2)),
    ("segment-float64-sqrtn-long", lambda tf: tf.sparse.segment_sqrt_n(_DATA.astype(np.float64), list(range(12)) * 3,
                                                                       [0] * 17 + [2] * 19)),
    ("segment-bfloat16", lambda tf: tf.sparse.segment_sum(tf.constant(_DATA[:4], tf.bfloat16), [0, 1, 2, 3, 3],
                                                          [0, 0, 0, 1, 1])),
    ("segment-data-scalar", lambda tf: tf.sparse.segment_sum(3.0, [0], [0])),
    ("segment-3d-data", lambda tf: tf.sparse.segment_mean(_DATA.reshape(4, 3, 5), [3, 0, 1], [0, 1, 1])),
]

def _hyp_truth(tf: Any) -> tuple[Any, Any]:
    h = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], ["a", "b", "c"], [2, 2])
    t = tf.sparse.SparseTensor([[0, 0], [1, 0], [1, 1], [1, 2]], ["a", "c", "d", "e"], [2, 3])
    return h, t


def _cross_inputs(tf: Any) -> list:
    return [tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], ["a", "b", "c"], [2, 2]),
            tf.constant([["x", "y"], ["z", "w"]]),
            tf.sparse.SparseTensor([[0, 0], [1, 0]], tf.constant([5, 7], tf.int64), [2, 1])]


def _cross(tf: Any, pick: Callable[..., list]) -> Any:
    return tf.sparse.cross(pick(*_cross_inputs(tf)))


_COUNTS: list[tuple[str, Callable[[Any], Any]]] = [
    ("edit-distance", lambda tf: tf.edit_distance(*_hyp_truth(tf))),
    ("edit-distance-unnormalized", lambda tf: tf.edit_distance(*_hyp_truth(tf), normalize=False)),
    ("edit-distance-empty-truth", lambda tf: tf.edit_distance(_hyp_truth(tf)[0], tf.sparse.SparseTensor(
        np.zeros((0, 2), np.int64), tf.constant([], tf.string), [2, 1]))),
    ("edit-distance-missing-groups", lambda tf: [tf.edit_distance(*p, normalize=n) for n in (True, False) for p in [(
        tf.sparse.SparseTensor([[0, 0, 0]], [1], [1, 1, 1]),
        tf.sparse.SparseTensor([[0, 1, 0], [0, 1, 1]], [1, 2], [1, 2, 2]))]]),
    ("edit-distance-floats", lambda tf: tf.edit_distance(_st(tf), _st(tf, [[0, 0], [0, 1], [2, 0]], [-5., 2., 3.]))),
    ("edit-distance-dtype-mismatch", lambda tf: tf.edit_distance(tf.sparse.SparseTensor([[0, 0]], [1], [1, 1]),
                                                                 tf.sparse.SparseTensor([[0, 0]], [1.0], [1, 1]))),
    ("edit-distance-rank1", lambda tf: tf.edit_distance(tf.sparse.SparseTensor([[0]], [1], [1]),
                                                        tf.sparse.SparseTensor([[0]], [2], [2]))),
    ("edit-distance-unordered", lambda tf: tf.edit_distance(_unord(tf), _st(tf))),
    ("edit-distance-dense", lambda tf: tf.edit_distance(tf.constant([[1]]), tf.constant([[1]]))),
    ("bincount", lambda tf: tf.sparse.bincount([1, 3, 3, 0])),
    ("bincount-rows", lambda tf: tf.sparse.bincount([[1, 3, 3], [0, 5, 1]], axis=-1)),
    ("bincount-rows-axis0", lambda tf: tf.sparse.bincount([[1, 3, 3], [0, 5, 1]])),
    ("bincount-weights", lambda tf: tf.sparse.bincount([1, 3, 3, 0], weights=[0.5, 1., 2., 4.])),
    ("bincount-min-max", lambda tf: tf.sparse.bincount([1, 3, 7, 0], minlength=5, maxlength=4)),
    ("bincount-minlength", lambda tf: tf.sparse.bincount([1, 3], minlength=6)),
    ("bincount-binary", lambda tf: tf.sparse.bincount([[1, 3, 3], [0, 5, 1]], axis=-1, binary_output=True)),
    ("bincount-sparse-rows", lambda tf: tf.sparse.bincount(tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [2, 0, 2],
                                                                                   [2, 2]), axis=-1)),
    ("bincount-sparse-weights", lambda tf: tf.sparse.bincount(
        tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [2, 0, 2], [2, 2]),
        weights=tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [0.5, 2.0, 1.5], [2, 2]))),
    ("bincount-empty", lambda tf: tf.sparse.bincount(tf.constant([], tf.int32))),
    ("bincount-negative", lambda tf: tf.sparse.bincount([1, -3])),
    ("bincount-float", lambda tf: tf.sparse.bincount([1.0, 3.0])),
    ("bincount-int64", lambda tf: tf.sparse.bincount(tf.constant([1, 3], tf.int64))),
    ("bincount-axis1", lambda tf: tf.sparse.bincount([[1]], axis=1)),
    ("math-bincount-of-sparse", lambda tf: tf.math.bincount(tf.sparse.SparseTensor([[0, 0], [1, 2]], [1, 3], [2, 3]))),
    ("is-tensor-type-spec", lambda tf: [tf.constant(tf.is_tensor(_st(tf))), tf.constant(str(tf.type_spec_from_value(
        _st(tf)))), tf.constant(tf.type_spec_from_value(_st(tf)).shape.as_list())]),
    ("nest-expand-composites", lambda tf: [
        tf.nest.flatten([_st(tf), 1.0], expand_composites=True),
        tf.nest.map_structure(lambda x: x * 1, _st(tf), expand_composites=True),
        tf.nest.flatten(tf.IndexedSlices(tf.constant([1.]), tf.constant([0]), tf.constant([2])),
                        expand_composites=True)]),
    ("nest-repack-incompatible", lambda tf: tf.nest.map_structure(lambda x: x * 2, _st(tf), expand_composites=True)),
    ("nest-keeps-sparse-whole", lambda tf: tf.constant(len(tf.nest.flatten([_st(tf), _st(tf)])))),
    ("function-input-signature", lambda tf: tf.function(lambda s: tf.sparse.reduce_sum(s, axis=1), input_signature=[
        tf.SparseTensorSpec([None, 3], tf.float32)])(_st(tf))),
    ("cross", lambda tf: _cross(tf, lambda a, b, c: [a, b])),
    ("cross-separator", lambda tf: tf.sparse.cross(_cross_inputs(tf)[:2], separator="|")),
    ("cross-three-int64", lambda tf: _cross(tf, lambda a, b, c: [c, a, b])),
    ("cross-dense-first", lambda tf: _cross(tf, lambda a, b, c: [b, a])),
    ("cross-empty-row", lambda tf: tf.sparse.cross([tf.sparse.SparseTensor([[1, 0]], ["q"], [3, 1]),
                                                    tf.constant([["x"], ["y"], ["z"]])])),
    ("cross-float", lambda tf: tf.sparse.cross([tf.constant([[1.0]])])),
    ("cross-int32", lambda tf: tf.sparse.cross([tf.constant([[1]])])),
    ("cross-batch-mismatch", lambda tf: tf.sparse.cross([tf.constant([["a"]]), tf.constant([["b"], ["c"]])])),
    ("sampled-addmm-doc", lambda tf: tf.sparse.sampled_addmm(
        tf.constant([[[0, 1], [1, 0]], [[0, 0], [1, 0]]]), tf.constant([[3, 5], [2, 7]], tf.float32),
        tf.constant([2, 2]), tf.constant(np.arange(1, 13), shape=[2, 2, 3], dtype=tf.float32),
        tf.constant(np.arange(13, 25), shape=[2, 3, 2], dtype=tf.float32), alpha=0.75, beta=0.25)),
    ("sampled-addmm-2d", lambda tf: tf.sparse.sampled_addmm([[0, 1], [2, 0]], [1.0, -1.0], [3, 2], _DATA[:3, :5],
                                                            _B[:, :2].repeat(2, axis=0)[:5])),
    ("sampled-addmm-float64", lambda tf: tf.sparse.sampled_addmm([[0, 0]], [1.0], [2, 2], np.ones((2, 3)),
                                                                 np.ones((3, 2)), output_type=tf.float64)),
    ("sampled-addmm-shape-mismatch", lambda tf: tf.sparse.sampled_addmm([[0, 0]], [1.0], [3, 3], np.ones((2, 3)),
                                                                        np.ones((3, 2)))),
    ("bincount-weights-binary", lambda tf: tf.sparse.bincount([1], weights=[1.0], binary_output=True)),
]

_DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
           "uint64", "complex64", "complex128", "bool", "string")


def _typed(tf: Any, name: str, ind: Any = ((0, 0), (0, 2), (2, 1)), shape: Any = (3, 3)) -> Any:
    dt = getattr(tf, name)
    vals = tf.constant(["a", "b", "c"]) if name == "string" else tf.cast(tf.constant([1, 0, 1]) if name == "bool"
                                                                        else tf.constant([1, 2, 3]), dt)
    return tf.sparse.SparseTensor(list(map(list, ind)), vals, list(shape))


def _per_dtype(op: Callable[[Any, str], Any]) -> Callable[[Any], Any]:
    """op over every dtype: its outputs, or the name of the error class it raised (a string tensor)."""
    def run(tf: Any) -> Any:
        out = []
        for name in _DTYPES:
            try:
                out.append(_o(op(tf, name)))
            except Exception as e:  # noqa: BLE001 - the error class is the result
                out.append(tf.constant(f"{name}: {type(e).__name__}"))
        return out
    return run


_DTYPE_TABLE: list[tuple[str, Callable[[Any], Any]]] = [
    ("dtypes-to-dense", _per_dtype(lambda tf, d: tf.sparse.to_dense(_typed(tf, d)))),
    ("dtypes-reorder", _per_dtype(lambda tf, d: tf.sparse.reorder(_typed(tf, d)))),
    ("dtypes-add", _per_dtype(lambda tf, d: tf.sparse.add(_typed(tf, d), _typed(tf, d)))),
    ("dtypes-add-dense", _per_dtype(lambda tf, d: tf.sparse.add(_typed(tf, d), tf.sparse.to_dense(_typed(tf, d))))),
    ("dtypes-reduce-sum", _per_dtype(lambda tf, d: tf.sparse.reduce_sum(_typed(tf, d), axis=1))),
    ("dtypes-reduce-sum-sparse", _per_dtype(lambda tf, d: tf.sparse.reduce_sum(_typed(tf, d), axis=1,
                                                                                output_is_sparse=True))),
    ("dtypes-reduce-max", _per_dtype(lambda tf, d: tf.sparse.reduce_max(_typed(tf, d), axis=1))),
    ("dtypes-reduce-max-sparse", _per_dtype(lambda tf, d: tf.sparse.reduce_max(_typed(tf, d), axis=1,
                                                                                output_is_sparse=True))),
    ("dtypes-matmul", _per_dtype(lambda tf, d: tf.sparse.sparse_dense_matmul(_typed(tf, d), tf.sparse.to_dense(
        _typed(tf, d), validate_indices=False)))),
    ("dtypes-cwise-mul", _per_dtype(lambda tf, d: _typed(tf, d) * tf.sparse.to_dense(_typed(tf, d)))),
    ("dtypes-maximum", _per_dtype(lambda tf, d: tf.sparse.maximum(_typed(tf, d), _typed(tf, d)))),
    ("dtypes-softmax", _per_dtype(lambda tf, d: tf.sparse.softmax(_typed(tf, d)))),
    ("dtypes-concat", _per_dtype(lambda tf, d: tf.sparse.concat(0, [_typed(tf, d), _typed(tf, d)]))),
    ("dtypes-slice", _per_dtype(lambda tf, d: tf.sparse.slice(_typed(tf, d), [0, 0], [2, 3]))),
    ("dtypes-split", _per_dtype(lambda tf, d: tf.sparse.split(sp_input=_typed(tf, d), num_split=2, axis=1))),
    ("dtypes-fill-empty-rows", _per_dtype(lambda tf, d: tf.sparse.fill_empty_rows(
        _typed(tf, d), tf.zeros([], getattr(tf, d)) if d != "string" else "")[0])),
    ("dtypes-segment-sum", _per_dtype(lambda tf, d: tf.sparse.segment_sum(tf.sparse.to_dense(_typed(tf, d)), [0, 2],
                                                                          [0, 1]))),
    ("dtypes-segment-mean", _per_dtype(lambda tf, d: tf.sparse.segment_mean(tf.sparse.to_dense(_typed(tf, d)), [0, 2],
                                                                            [0, 1]))),
    ("dtypes-sets", _per_dtype(lambda tf, d: tf.sets.union(_typed(tf, d), _typed(tf, d)))),
    ("dtypes-set-size", _per_dtype(lambda tf, d: tf.sets.size(_typed(tf, d)))),
    ("dtypes-bincount", _per_dtype(lambda tf, d: tf.sparse.bincount(_typed(tf, d)))),
    ("dtypes-edit-distance", _per_dtype(lambda tf, d: tf.edit_distance(_typed(tf, d), _typed(tf, d)))),
]

_GRADS: list[tuple[str, Callable[[Any], Any]]] = [
    ("grad-to-dense", _grad(lambda tf, v: tf.sparse.to_dense(_sp_of(tf, v)))),
    ("grad-reorder", _grad(lambda tf, v: tf.sparse.reorder(_sp_of(tf, v, _UNORD[0])))),
    ("grad-add", _grad(lambda tf, v: tf.sparse.add(_sp_of(tf, v), _st(tf, [[0, 0], [1, 1]], [2., 3.])))),
    ("grad-add-dense", _grad(lambda tf, v: tf.sparse.add(_sp_of(tf, v), tf.ones([3, 3])))),
    ("grad-matmul", _grad(lambda tf, v: tf.sparse.sparse_dense_matmul(_sp_of(tf, v, shape=(3, 4)), _B[:, :3]))),
    ("grad-matmul-adjoint", _grad(lambda tf, v: tf.sparse.sparse_dense_matmul(_sp_of(tf, v, shape=(4, 3)), _B[:, :2],
                                                                              adjoint_a=True))),
    ("grad-reduce-sum", _grad(lambda tf, v: tf.sparse.reduce_sum(_sp_of(tf, v), axis=1))),
    ("grad-slice", _grad(lambda tf, v: tf.sparse.slice(_sp_of(tf, v), [0, 1], [3, 2]))),
    ("grad-softmax", _grad(lambda tf, v: tf.sparse.softmax(_sp_of(tf, v)))),
    ("grad-cwise-mul", _grad(lambda tf, v: _sp_of(tf, v) * tf.constant([1., 2., 3.]))),
    ("grad-cwise-div", _grad(lambda tf, v: _sp_of(tf, v) / tf.constant([[1.], [2.], [4.]]))),
    ("grad-fill-empty-rows", _grad(lambda tf, v: tf.sparse.fill_empty_rows(_sp_of(tf, v), 0.5)[0])),
    ("grad-unary-dispatch", _grad(lambda tf, v: tf.square(_sp_of(tf, v)))),
    ("grad-split-lookup-error", _grad(lambda tf, v: tf.sparse.split(sp_input=_sp_of(tf, v), num_split=2,
                                                                    axis=1)[0])),
    ("grad-maximum-not-implemented", _grad(lambda tf, v: tf.sparse.maximum(_sp_of(tf, v), _st(tf)))),
    ("grad-segment-ops", lambda tf: _segment_grads(tf)),
    ("grad-reduce-sum-sparse", _grad(lambda tf, v: tf.sparse.reduce_sum(_sp_of(tf, v), axis=1, output_is_sparse=True))),
    ("grad-reduce-max-lookup-error", lambda tf: _none_grad(tf, lambda sp: tf.sparse.reduce_max(sp, axis=1))),
    ("grad-concat-none", lambda tf: _none_grad(tf, lambda sp: tf.sparse.concat(0, [sp, sp]).values)),
    ("grad-reshape-transpose", _grad(lambda tf, v: tf.sparse.transpose(tf.sparse.reshape(_sp_of(tf, v), [9, 1])))),
    ("grad-expand-retain", _grad(lambda tf, v: tf.sparse.retain(tf.sparse.expand_dims(_sp_of(tf, v), 0),
                                                                [True, False, True]))),
    ("grad-add-threshold-dropped", _grad(lambda tf, v: tf.sparse.add(_sp_of(tf, v), _st(tf, [[0, 0]], [5.0]),
                                                                     threshold=1.0))),
    ("grad-to-dense-default", lambda tf: _default_grad(tf)),
    ("grad-dense-matmul-b", lambda tf: _matmul_b_grad(tf)),
]


# TF's a_values gradient of SparseTensorDenseMatMul is a BatchMatMul of [n, 1, k] by [n, k, 1]: simdist's
# BatchMatMul rounds those small products differently from TF's kernel (within a float32 ulp or two)
_ROUNDING = {"grad-matmul": 2e-6, "grad-matmul-adjoint": 2e-6, "function-tape-gradient": 2e-6,
             # (the default value's gradient is reduce_sum(grad) - reduce_sum(values' grad): simdist's Sum of 9
             # float32s rounds differently from Eigen's unless the order shows beyond rounding)
             "grad-to-dense-default": 2e-6}


def _none_grad(tf: Any, fn: Callable[[Any], Any]) -> Any:
    """Whether the gradient to the values through fn is None (TF: not differentiable)."""
    v = tf.Variable(np.asarray([-5.0, -1.0, 3.0], np.float32))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(fn(_sp_of(tf, v)))
    return [loss, tf.constant(tape.gradient(loss, v) is None)]


def _default_grad(tf: Any) -> Any:
    """to_dense's gradient to its default value: the sum of the output gradient off the entries."""
    v = tf.Variable(np.asarray([-5.0, -1.0, 3.0], np.float32))
    d = tf.Variable(0.5)
    with tf.GradientTape() as tape:
        y = tf.sparse.to_dense(_sp_of(tf, v), default_value=d)
        loss = tf.reduce_sum(y * tf.constant(_DATA[:3, :3]))
    return [tf.convert_to_tensor(g) for g in tape.gradient(loss, [v, d])]


def _segment_grads(tf: Any) -> Any:
    d = tf.Variable(_DATA[:6])
    out = []
    for f in (tf.sparse.segment_sum, tf.sparse.segment_mean, tf.sparse.segment_sqrt_n):
        with tf.GradientTape() as tape:
            y = f(d, [0, 2, 2, 5, 1], [0, 0, 1, 1, 3])
            loss = tf.reduce_sum(y * tf.reshape(tf.range(20, dtype=tf.float32), [4, 5]))
        out.append(tf.convert_to_tensor(tape.gradient(loss, d)))
    return out


def _matmul_b_grad(tf: Any) -> Any:
    b = tf.Variable(_B[:, :3])
    with tf.GradientTape() as tape:
        y = tf.sparse.sparse_dense_matmul(_st(tf, shape=(3, 4)), b)
        loss = tf.reduce_sum(y * tf.constant(_DATA[:3, :3]))
    return tape.gradient(loss, b)


def _embedding(combiner: str, weights: bool, max_norm: Any = None) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        params = tf.Variable(_DATA[:6])
        ids = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 2]], tf.constant([1, 3, 0, 1], tf.int64), [4, 4])
        w = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 2]], [2.0, 0.5, 1.0, 3.0], [4, 4]) if weights else None
        with tf.GradientTape() as tape:
            y = tf.nn.embedding_lookup_sparse(params, ids, w, combiner=combiner, max_norm=max_norm)
            loss = tf.reduce_sum(y * tf.constant(_DATA[6:10]))
        g = tape.gradient(loss, params)
        return [y, tf.convert_to_tensor(g)]
    return run


def _safe_embedding(combiner: str, weights: bool, default_id: Any) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        params = tf.constant(_DATA[:6])
        ids = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 2]], tf.constant([1, -1, 0, 4], tf.int64), [4, 4])
        w = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 2]], [2.0, 0.5, -1.0, 3.0], [4, 4]) if weights \
            else None
        return tf.nn.safe_embedding_lookup_sparse(params, ids, w, combiner=combiner, default_id=default_id)
    return run


_EMBEDDING: list[tuple[str, Callable[[Any], Any]]] = [
    *[(f"embedding-{c}", _embedding(c, False)) for c in ("sum", "mean", "sqrtn")],
    *[(f"embedding-weighted-{c}", _embedding(c, True)) for c in ("sum", "mean", "sqrtn")],
    ("embedding-max-norm", _embedding("mean", False, 1.0)),
    ("embedding-bad-combiner", _embedding("max", False)),
    *[(f"safe-embedding-{c}-{w}-{d}", _safe_embedding(c, w, d)) for c in ("sum", "mean") for w in (False, True)
      for d in (None, 2)],
]


def _in_function(tf: Any) -> Any:
    f = tf.function(lambda x: tf.sparse.to_dense(tf.sparse.reorder(tf.sparse.from_dense(x) * 2.0)))
    g = tf.function(lambda x: tf.sparse.reduce_sum(tf.sparse.from_dense(x), axis=0))
    return [f(tf.constant(_DATA[:3, :3])), f(tf.constant(_DATA[3:6, :3])), g(tf.constant(_DATA[:4, :2]))]


def _varying_entries(tf: Any) -> Any:
    """A tf.function over sparse ops called with inputs holding different numbers of entries."""
    f = tf.function(lambda x: [tf.sparse.reduce_sum(tf.sparse.softmax(tf.sparse.from_dense(x)), axis=0),
                               tf.sparse.to_dense(tf.sparse.reorder(tf.sparse.transpose(tf.sparse.from_dense(x)))),
                               tf.sets.size(tf.sparse.from_dense(tf.cast(x > 0, tf.int32)))])
    a = np.where(_DATA[:4, :3] > 0, _DATA[:4, :3], 0).astype(np.float32)
    b = np.where(_DATA[4:8, :3] > 0.5, _DATA[4:8, :3], 0).astype(np.float32)
    return f(tf.constant(a)) + f(tf.constant(b)) + f(tf.constant(a))


def _sparse_argument(tf: Any) -> Any:
    f = tf.function(lambda s: tf.sparse.to_dense(s) + 1.0)
    return [f(_st(tf)), f(_st(tf, [[1, 1]], [4.0]))]


def _function_gradient(tf: Any) -> Any:
    """A tape around a tf.function that composes sparse ops, called twice with new values."""
    v = tf.Variable(np.asarray([-5.0, -1.0, 3.0], np.float32))
    b = tf.Variable(_B[:, :3])

    @tf.function
    def step(scale: Any) -> Any:
        sp = tf.sparse.reorder(_sp_of(tf, v * scale, _UNORD[0], (3, 4)))
        y = tf.sparse.sparse_dense_matmul(sp, b) + tf.sparse.reduce_sum(tf.sparse.softmax(sp), axis=1,
                                                                        keepdims=True)
        return tf.reduce_sum(y * tf.constant(_DATA[:3, :3]))
    out = []
    for scale in (1.0, 0.5):
        with tf.GradientTape() as tape:
            loss = step(tf.constant(scale))
        out += [loss] + [tf.convert_to_tensor(g) for g in tape.gradient(loss, [v, b])]
    return out


def _replica_gradient(tf: Any) -> Any:
    """strategy.run of a step with sparse ops and a tape; the gradients summed across replicas."""
    s = _strategy(tf)
    with s.scope():
        v = tf.Variable(np.asarray([-5.0, -1.0, 3.0], np.float32))

    def fn() -> Any:
        rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        with tf.GradientTape() as tape:
            sp = _sp_of(tf, v * (rid + 1.0))
            loss = tf.reduce_sum(tf.sparse.to_dense(tf.sparse.add(sp, tf.ones([3, 3]))) ** 2)
        return tape.gradient(loss, v)
    return s.reduce("SUM", s.run(fn), axis=None)


_STRATEGIES: dict[str, Any] = {}


def _strategy(tf: Any) -> Any:
    simdist_tf = tf.__name__.startswith("simdist")
    if simdist_tf or tf.__name__ not in _STRATEGIES:
        if simdist_tf:
            import simdist
            simdist.reset()
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        _STRATEGIES[tf.__name__] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return _STRATEGIES[tf.__name__]


def _replica_sparse(tf: Any) -> Any:
    rid = tf.distribute.get_replica_context().replica_id_in_sync_group
    return tf.sparse.SparseTensor([[0, 1]], [tf.cast(rid, tf.float32) + 1.0], [2, 3])


def _run_local(tf: Any) -> Any:
    s = _strategy(tf)
    return [_o(v) for v in s.experimental_local_results(s.run(lambda: _replica_sparse(tf)))]


def _run_reduce(tf: Any) -> Any:
    s = _strategy(tf)
    return s.reduce("SUM", s.run(lambda: _replica_sparse(tf)), axis=None)


def _run_dense_inside(tf: Any) -> Any:
    s = _strategy(tf)
    r = s.run(lambda: tf.sparse.to_dense(_replica_sparse(tf)))
    return s.reduce("SUM", r, axis=None)


def _run_then(what: Callable[[Any, Any, Any], Any]) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        return what(tf, s, s.run(lambda: _replica_sparse(tf)))
    return run


def _all_reduce(tf: Any) -> Any:
    s = _strategy(tf)
    return s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", _replica_sparse(tf)))


def _one_device(tf: Any) -> Any:
    s = tf.distribute.OneDeviceStrategy("/cpu:0")
    r = s.run(lambda: tf.sparse.SparseTensor([[0, 1]], [2.0], [2, 3]))
    return [_o(r), _o(s.reduce("SUM", r, axis=None)), _o(s.experimental_local_results(r)[0])]


_PLACES: list[tuple[str, Callable[[Any], Any]]] = [
    ("strategy-run-returns-sparse", _run_local),
    ("strategy-reduce-sparse", _run_reduce),
    ("strategy-reduce-mean-sparse", _run_then(lambda tf, s, r: s.reduce("MEAN", r, axis=None))),
    ("strategy-reduce-axis-sparse", _run_then(lambda tf, s, r: s.reduce("SUM", r, axis=0))),
    ("strategy-gather-sparse", _run_then(lambda tf, s, r: s.gather(r, axis=0))),
    ("strategy-all-reduce-sparse", _all_reduce),
    ("one-device-sparse", _one_device),
    ("strategy-dense-of-sparse", _run_dense_inside),
    ("strategy-replica-gradient", _replica_gradient),
    ("function-sparse-ops", _in_function),
    ("function-tape-gradient", _function_gradient),
    ("function-varying-entries", _varying_entries),
    ("function-sparse-argument", _sparse_argument),
]

# (strategy cases first: TF's logical devices must be set before its runtime starts, in the worker)
CASES: list[tuple] = (
    [(n, "ops.sparse-places", f, _ROUNDING.get(n, 0)) for n, f in _PLACES]
    + [(n, "ops.sparse", f) for n, f in _CORE + _EDGES]
    + [(n, "ops.sparse-math", f) for n, f in _MATH + _COUNTS + _DTYPE_TABLE]
    + [(n, "ops.sparse-grads", f, _ROUNDING.get(n, 0)) for n, f in _GRADS]
    + [(n, "ops.sparse-embedding", f) for n, f in _EMBEDDING])

# (every program's SparseTensors compared as their three tensors)
CASES = [(c[0], c[1], (lambda f: lambda tf: _o(f(tf)))(c[2])) + tuple(c[3:]) for c in CASES]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.within(case[3] if len(case) > 3
                                                                                        else 0))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.sparse")
@EDGES.parametrize("ops.sparse")
def test_sparse_structure(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.sparse")
@EDGES.parametrize("ops.sparse-math")
def test_sparse_math(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.sparse")
@EDGES.parametrize("ops.sparse-grads")
def test_sparse_gradients(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.sparse-segments")
@EDGES.parametrize("ops.sparse-embedding")
def test_embedding_lookup_sparse(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.sparse")
@EDGES.parametrize("ops.sparse-places")
def test_sparse_in_function_and_strategy(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_sparse_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
