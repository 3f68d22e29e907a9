"""tf.RaggedTensor and tf.ragged against real TensorFlow 2.21: the row-partition constructors
(from_row_starts/limits, from_value_rowids, from_uniform_row_length, the nested ones, from_sparse,
from_tensor's lengths/padding) with their `validate=True` errors, the accessors (value_rowids,
row_starts/limits, nested_row_lengths, bounding_shape, merge_dims, to_sparse,
with_row_splits_dtype, with_values, uniform_row_length), tf.ragged's functions (range,
row_splits_to_segment_ids, segment_ids_to_row_splits, stack, boolean_mask,
stack_dynamic_partitions, cross, cross_hashed), the ragged dispatch of elementwise ops and
operators, ragged reductions and array ops, and gradients through them. Each case returns its
RaggedTensors with their nested_row_splits, so values, dtypes, row_splits dtypes and error classes
and messages are compared (case_results.Table). Needs the `tf` extra. Rule: docs/spec.md
`ops.ragged`."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _rt(r: Any) -> Any:
    """A result with each RaggedTensor's nested row_splits beside it (their dtypes compared too)."""
    if isinstance(r, (list, tuple)):
        return [_rt(x) for x in r]
    if type(r).__name__ == "RaggedTensor":
        return [r, list(r.nested_row_splits), r.shape.as_list()]
    if type(r).__name__ == "SparseTensor":
        return [r.indices, r.values, r.dense_shape]
    return r


def _c(tf: Any) -> Any:
    return tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])


def _a(tf: Any) -> Any:
    return tf.ragged.constant([[1, 2], [3]])


def _b(tf: Any) -> Any:
    return tf.ragged.constant([[4], [5, 6, 7]])


def _grad(tf: Any, inits: list, losses: Any) -> list:
    """The gradients of each (loss, variables) pair `losses` makes from Variables of `inits`, under
    one persistent tape (entered and left here)."""
    variables = [tf.Variable(x) for x in inits]
    with tf.GradientTape(persistent=True) as tape:
        pairs = losses(*variables)
    return [tape.gradient(y, x) for y, x in pairs]


def _f(tf: Any) -> Any:
    return tf.ragged.constant([[1., 2.], [3.]])


def _g(tf: Any) -> Any:
    return tf.ragged.constant([[10., 20.], [30.]])


def _apis(tf: Any) -> Any:
    """The elementwise APIs TF registers for dispatch (as tf.* names), or simdist's pinned lists."""
    if tf.__name__ != "tensorflow":
        from simdist.runtime.ops import ragged_dispatch
        return [sorted(ragged_dispatch.UNARY_APIS), sorted(ragged_dispatch.BINARY_APIS)]
    from tensorflow.python.util import dispatch, tf_decorator
    out = []
    for registered in (dispatch._UNARY_ELEMENTWISE_APIS, dispatch._BINARY_ELEMENTWISE_APIS):
        ids = set(map(id, registered))
        names = set()
        for prefix, mod in (("", tf), ("math.", tf.math), ("nn.", tf.nn), ("strings.", tf.strings),
                            ("bitwise.", tf.bitwise), ("io.", tf.io), ("image.", tf.image), ("dtypes.", tf.dtypes),
                            ("debugging.", tf.debugging), ("math.special.", tf.math.special)):
            for n in dir(mod):
                f = getattr(mod, n)
                if n.startswith("_") or not callable(f):
                    continue
                chain, g = [f, tf_decorator.unwrap(f)[1]], f
                while getattr(g, "__wrapped__", None) is not None and len(chain) < 8:
                    g = g.__wrapped__
                    chain.append(g)
                if any(id(c) in ids for c in chain):
                    names.add(prefix + n)
        out.append(sorted(names))
    return out


CASES = {
    # --- constructors and their validation
    "ctor/from_row_splits not monotonic": lambda tf: tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 1, 3]),
    "ctor/from_row_splits not from zero": lambda tf: tf.RaggedTensor.from_row_splits([1, 2, 3], [1, 2, 3]),
    "ctor/from_row_splits short": lambda tf: tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2]),
    "ctor/from_row_splits float": lambda tf: tf.RaggedTensor.from_row_splits([1, 2, 3], tf.constant([0., 1, 3])),
    "ctor/from_row_splits int32": lambda tf: _rt(tf.RaggedTensor.from_row_splits(
        [1, 2, 3], tf.constant([0, 1, 3], tf.int32))),
    "ctor/from_row_splits dtypes mixed": lambda tf: tf.RaggedTensor.from_row_splits(
        tf.RaggedTensor.from_row_splits([1, 2, 3], tf.constant([0, 1, 3], tf.int32)), tf.constant([0, 2], tf.int64)),
    "ctor/from_row_splits list over int32": lambda tf: _rt(tf.RaggedTensor.from_row_splits(
        tf.RaggedTensor.from_row_splits([1, 2, 3], tf.constant([0, 1, 3], tf.int32)), [0, 2])),
    "ctor/from_value_rowids": lambda tf: _rt(tf.RaggedTensor.from_value_rowids([1, 2, 3, 4], [0, 0, 2, 2], nrows=4)),
    "ctor/from_value_rowids default nrows": lambda tf: _rt(tf.RaggedTensor.from_value_rowids([1, 2, 3], [1, 1, 3])),
    "ctor/from_value_rowids unsorted": lambda tf: tf.RaggedTensor.from_value_rowids([1, 2, 3, 4], [0, 2, 0, 2]),
    "ctor/from_value_rowids nrows small": lambda tf: tf.RaggedTensor.from_value_rowids([1, 2, 3, 4], [0, 0, 2, 2],
                                                                                        nrows=2),
    "ctor/from_value_rowids negative": lambda tf: tf.RaggedTensor.from_value_rowids([1, 2, 3, 4], [-1, 0, 2, 2]),
    "ctor/from_value_rowids length": lambda tf: tf.RaggedTensor.from_value_rowids([1, 2, 3, 4], [0, 0, 2]),
    "ctor/from_row_starts": lambda tf: _rt(tf.RaggedTensor.from_row_starts([1, 2, 3, 4], [0, 1, 1])),
    "ctor/from_row_starts not from zero": lambda tf: tf.RaggedTensor.from_row_starts([1, 2, 3, 4], [1, 1, 1]),
    "ctor/from_row_starts past the end": lambda tf: tf.RaggedTensor.from_row_starts([1, 2, 3, 4], [0, 1, 5]),
    "ctor/from_row_limits": lambda tf: _rt(tf.RaggedTensor.from_row_limits([1, 2, 3, 4], [1, 1, 4])),
    "ctor/from_row_limits short": lambda tf: tf.RaggedTensor.from_row_limits([1, 2, 3, 4], [1, 1, 3]),
    "ctor/from_row_limits negative": lambda tf: tf.RaggedTensor.from_row_limits([1, 2, 3, 4], [-1, 1, 4]),
    "ctor/from_row_lengths negative": lambda tf: tf.RaggedTensor.from_row_lengths([1, 2, 3, 4], [-1, 5]),
    "ctor/from_row_lengths short": lambda tf: tf.RaggedTensor.from_row_lengths([1, 2, 3, 4], [1, 2]),
    "ctor/from_row_lengths int32": lambda tf: _rt(tf.RaggedTensor.from_row_lengths(
        [1, 2, 3], tf.constant([1, 2], tf.int32))),
    "ctor/from_uniform_row_length": lambda tf: _rt(tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5, 6], 2)),
    "ctor/from_uniform_row_length uniform_row_length": lambda tf: tf.RaggedTensor.from_uniform_row_length(
        [1, 2, 3, 4, 5, 6], 2).uniform_row_length,
    "ctor/from_uniform_row_length uneven": lambda tf: tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5], 2),
    "ctor/from_uniform_row_length negative": lambda tf: tf.RaggedTensor.from_uniform_row_length([1, 2, 3], -2),
    "ctor/from_uniform_row_length zero": lambda tf: tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5], 0),
    "ctor/from_uniform_row_length zero nrows": lambda tf: _rt(tf.RaggedTensor.from_uniform_row_length(
        tf.zeros([0]), 0, nrows=3)),
    "ctor/uniform_row_length of ragged rows": lambda tf: _a(tf).uniform_row_length,
    "ctor/from_nested_row_lengths": lambda tf: _rt(tf.RaggedTensor.from_nested_row_lengths(
        [1, 2, 3, 4, 5], [[2, 0, 1], [1, 2, 2]])),
    "ctor/from_nested_value_rowids": lambda tf: _rt(tf.RaggedTensor.from_nested_value_rowids(
        [1, 2, 3, 4, 5], [[0, 0, 2], [0, 1, 1, 2, 2]])),
    "ctor/from_nested_value_rowids nrows": lambda tf: _rt(tf.RaggedTensor.from_nested_value_rowids(
        [1, 2, 3, 4, 5], [[0, 0, 2], [0, 1, 1, 2, 2]], [4, 3])),
    "ctor/from_nested_value_rowids nrows length": lambda tf: tf.RaggedTensor.from_nested_value_rowids(
        [1, 2, 3, 4, 5], [[0, 0, 2], [0, 1, 1, 2, 2]], [4]),
    "ctor/from_sparse": lambda tf: _rt(tf.RaggedTensor.from_sparse(tf.SparseTensor([[0, 0], [0, 1], [2, 0]],
                                                                                   [1, 2, 3], [3, 4]))),
    "ctor/from_sparse rank 3": lambda tf: tf.RaggedTensor.from_sparse(tf.SparseTensor([[0, 0, 0]], [1], [3, 4, 5])),
    "ctor/from_sparse int32": lambda tf: _rt(tf.RaggedTensor.from_sparse(
        tf.SparseTensor([[0, 0], [1, 0]], [1., 2.], [3, 4]), row_splits_dtype=tf.int32)),
    "ctor/from_tensor": lambda tf: _rt(tf.RaggedTensor.from_tensor([[1, 2], [3, 4]])),
    "ctor/from_tensor ragged_rank 2": lambda tf: _rt(tf.RaggedTensor.from_tensor([[[1, 2], [3, 4]]], ragged_rank=2)),
    "ctor/from_tensor int32": lambda tf: _rt(tf.RaggedTensor.from_tensor([[1, 2], [3, 4]], row_splits_dtype=tf.int32)),
    "ctor/from_tensor lengths": lambda tf: _rt(tf.RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0]], lengths=[2, 1])),
    "ctor/from_tensor padding": lambda tf: _rt(tf.RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0], [0, 0, 0]],
                                                                           padding=0)),
    "ctor/from_tensor padding inner": lambda tf: _rt(tf.RaggedTensor.from_tensor(
        [[[1, 1], [0, 0]], [[0, 0], [0, 2]]], padding=0)),
    "ctor/from_tensor both": lambda tf: tf.RaggedTensor.from_tensor([[1]], lengths=[1], padding=0),
    # --- accessors
    "acc/bounding_shape": lambda tf: _c(tf).bounding_shape(),
    "acc/bounding_shape axis out_type": lambda tf: _c(tf).bounding_shape(axis=1, out_type=tf.int32),
    "acc/bounding_shape axes": lambda tf: _c(tf).bounding_shape(axis=[0, 2]),
    "acc/merge_dims 0 1": lambda tf: _rt(_c(tf).merge_dims(0, 1)),
    "acc/merge_dims 1 2": lambda tf: _rt(_c(tf).merge_dims(1, 2)),
    "acc/merge_dims 0 -1": lambda tf: _c(tf).merge_dims(0, -1),
    "acc/merge_dims reversed": lambda tf: _c(tf).merge_dims(1, 0),
    "acc/merge_dims dense inner": lambda tf: _rt(tf.RaggedTensor.from_row_splits(tf.ones([4, 2, 3]), [0, 3, 4])
                                                 .merge_dims(1, 3)),
    "acc/nested_row_lengths": lambda tf: _c(tf).nested_row_lengths(),
    "acc/nested_value_rowids": lambda tf: _c(tf).nested_value_rowids(),
    "acc/row_starts, row_limits, value_rowids": lambda tf: [_c(tf).row_starts(), _c(tf).row_limits(),
                                                            _c(tf).value_rowids()],
    "acc/row_lengths axes": lambda tf: _rt([_c(tf).row_lengths(axis=2), _c(tf).row_lengths(axis=-1),
                                            _c(tf).row_lengths(axis=0)]),
    "acc/to_sparse": lambda tf: _rt(_c(tf).to_sparse()),
    "acc/to_sparse inner dims": lambda tf: _rt(tf.RaggedTensor.from_row_splits([[1, 2], [3, 4], [5, 6]],
                                                                               [0, 1, 3]).to_sparse()),
    "acc/with_row_splits_dtype": lambda tf: _rt(_c(tf).with_row_splits_dtype(tf.int32)),
    "acc/with_values": lambda tf: _rt(_c(tf).with_values(tf.ragged.constant([[7], [8, 9], [10]]))),
    "acc/with_values wrong rows": lambda tf: _c(tf).with_values(tf.constant([1, 2])),
    "acc/with_values splits dtype": lambda tf: _c(tf).with_values(
        tf.ragged.constant([[7], [8, 9], [10]], row_splits_dtype=tf.int32)),
    "acc/consumers": lambda tf: _c(tf).consumers(),
    # --- tf.ragged's functions
    "fn/range": lambda tf: _rt(tf.ragged.range([3, 0, 5])),
    "fn/range starts limits": lambda tf: _rt(tf.ragged.range([0, 3, 5], [3, 3, 6])),
    "fn/range deltas": lambda tf: _rt(tf.ragged.range([0, 5, 8], [3, 3, 12], [1, -1, 2])),
    "fn/range float": lambda tf: _rt(tf.ragged.range([0., 1.5], [2., 3.], 0.5)),
    "fn/range float uneven": lambda tf: _rt(tf.ragged.range([0.], [1.], 0.3)),
    "fn/range scalar": lambda tf: _rt(tf.ragged.range(3)),
    "fn/range broadcast": lambda tf: _rt(tf.ragged.range([1, 2], 5)),
    "fn/range dtype": lambda tf: _rt(tf.ragged.range([3], dtype=tf.int64)),
    "fn/range mixed dtypes": lambda tf: _rt(tf.ragged.range(tf.constant([1], tf.int64), tf.constant([4.]))),
    "fn/range row_splits_dtype": lambda tf: _rt(tf.ragged.range([3], row_splits_dtype=tf.int32)),
    "fn/range zero delta": lambda tf: tf.ragged.range([3], [5], [0]),
    "fn/range rank 2": lambda tf: tf.ragged.range([[3]]),
    "fn/row_splits_to_segment_ids": lambda tf: [tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]),
                                                tf.ragged.row_splits_to_segment_ids(
                                                    tf.constant([0, 2, 2, 5], tf.int32)),
                                                tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5], out_type=tf.int32)],
    "fn/row_splits_to_segment_ids rank 2": lambda tf: tf.ragged.row_splits_to_segment_ids([[0, 2]]),
    "fn/segment_ids_to_row_splits": lambda tf: [
        tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2]),
        tf.ragged.segment_ids_to_row_splits([0, 0, 2], num_segments=5),
        tf.ragged.segment_ids_to_row_splits(tf.constant([0, 0, 2], tf.int32)),
        tf.ragged.segment_ids_to_row_splits([0, 0, 2], out_type=tf.int32),
        tf.ragged.segment_ids_to_row_splits(tf.constant([], tf.int64))],
    "fn/stack": lambda tf: _rt(tf.ragged.stack([_a(tf), _b(tf)])),
    "fn/stack axis 1": lambda tf: _rt(tf.ragged.stack([_a(tf), _b(tf)], axis=1)),
    "fn/stack axis 2 different rows": lambda tf: tf.ragged.stack([_a(tf), _b(tf)], axis=2),
    "fn/stack axis 2": lambda tf: _rt(
        tf.ragged.stack([_a(tf), tf.ragged.constant([[10, 20], [30]])], axis=2)),
    "fn/stack dense": lambda tf: _rt(tf.ragged.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=0)),
    "fn/stack dense 2-D": lambda tf: _rt(tf.ragged.stack([tf.constant([[1, 2]]), tf.constant([[3, 4]])], axis=0)),
    "fn/stack dense last axis": lambda tf: _rt(tf.ragged.stack([tf.constant([[1, 2]]), tf.constant([[3, 4]])],
                                                               axis=2)),
    "fn/stack ragged and dense": lambda tf: _rt(tf.ragged.stack([_a(tf), tf.constant([[9, 9], [8, 8]])], axis=1)),
    "fn/stack axis out of range": lambda tf: tf.ragged.stack([_a(tf), _b(tf)], axis=3),
    "fn/stack dtypes": lambda tf: tf.ragged.stack([_a(tf), tf.ragged.constant([[1.]])]),
    "fn/stack empty": lambda tf: tf.ragged.stack([]),
    "fn/stack row_splits dtypes": lambda tf: tf.ragged.stack([_a(tf), _a(tf).with_row_splits_dtype(tf.int32)]),
    "fn/boolean_mask dense": lambda tf: _rt(tf.ragged.boolean_mask(tf.constant([[1, 2], [3, 4]]),
                                                                   tf.constant([[True, False], [False, True]]))),
    "fn/boolean_mask ragged": lambda tf: _rt(tf.ragged.boolean_mask(_a(tf), tf.ragged.constant([[True, False],
                                                                                                [True]]))),
    "fn/boolean_mask rows": lambda tf: _rt(tf.ragged.boolean_mask(_a(tf), [True, False])),
    "fn/boolean_mask 1-D": lambda tf: tf.ragged.boolean_mask(tf.constant([1, 2, 3]), [True, False, True]),
    "fn/boolean_mask shape": lambda tf: tf.ragged.boolean_mask(_a(tf), [True]),
    "fn/boolean_mask scalar mask": lambda tf: tf.ragged.boolean_mask(tf.constant([1, 2]), tf.constant(True)),
    "fn/boolean_mask ints": lambda tf: tf.ragged.boolean_mask(tf.constant([1, 2]), [1, 0]),
    "fn/boolean_mask 3-D ragged": lambda tf: _rt(tf.ragged.boolean_mask(
        _c(tf), tf.ragged.constant([[[True, False], [True]], [], [[False, True, True]]]))),
    "fn/stack_dynamic_partitions": lambda tf: _rt(tf.ragged.stack_dynamic_partitions(
        tf.constant([1, 2, 3, 4, 5]), tf.constant([0, 2, 0, 1, 2]), 4)),
    "fn/stack_dynamic_partitions ragged": lambda tf: _rt(tf.ragged.stack_dynamic_partitions(
        _a(tf), tf.constant([1, 0]), 2)),
    "fn/stack_dynamic_partitions out of range": lambda tf: tf.ragged.stack_dynamic_partitions(
        tf.constant([1, 2]), tf.constant([0, 3]), 2),
    "fn/cross": lambda tf: _rt(tf.ragged.cross([tf.ragged.constant([["a"], ["b", "c"]]),
                                                tf.ragged.constant([["d"], ["e"]])])),
    "fn/cross dense and ints": lambda tf: _rt(tf.ragged.cross([tf.constant([["d"], ["e"]]),
                                                               tf.ragged.constant([[1], [2, 3]])])),
    "fn/cross sparse": lambda tf: _rt(tf.ragged.cross([tf.SparseTensor([[0, 0], [1, 0], [1, 1]], ["x", "y", "z"],
                                                                       [2, 2]), tf.constant([["d"], ["e"]])])),
    "fn/cross floats": lambda tf: tf.ragged.cross([tf.constant([[1.0]])]),
    "fn/cross int32 splits": lambda tf: _rt(tf.ragged.cross([tf.ragged.constant([["a"]], row_splits_dtype=tf.int32)])),
    "fn/cross_hashed": lambda tf: _rt(tf.ragged.cross_hashed([tf.ragged.constant([["a"], ["b", "c"]]),
                                                              tf.ragged.constant([["d"], ["e"]])])),
    "fn/cross_hashed buckets": lambda tf: _rt(tf.ragged.cross_hashed(
        [tf.ragged.constant([["a"], ["b", "c"]]), tf.ragged.constant([[1], [2]])], num_buckets=10)),
    "fn/cross_hashed key": lambda tf: _rt(tf.ragged.cross_hashed(
        [tf.ragged.constant([["a"], ["b", "c"]]), tf.ragged.constant([["d"], ["e"]])], num_buckets=10, hash_key=7)),
    # --- elementwise dispatch and operators
    "ew/registered elementwise APIs": _apis,
    "ew/add": lambda tf: _rt(_f(tf) + _g(tf)),
    "ew/add mismatched rows": lambda tf: _f(tf) + tf.ragged.constant([[4.], [5., 6.]]),
    "ew/add scalar both orders": lambda tf: _rt([_f(tf) + 1, 1 + _f(tf), tf.constant(1.) + _f(tf)]),
    "ew/add column": lambda tf: _rt([_f(tf) + tf.constant([[1.], [2.]]), tf.constant([[1.], [2.]]) + _f(tf)]),
    "ew/add row": lambda tf: _f(tf) + tf.constant([1., 2.]),
    "ew/add rows of 3": lambda tf: _f(tf) + tf.constant([[1.], [2.], [3.]]),
    "ew/add uniform rows": lambda tf: _rt(tf.ragged.constant([[1., 2.], [3., 4.]]) + tf.constant([10., 20.])),
    "ew/add inner dims": lambda tf: _rt(tf.RaggedTensor.from_row_splits(tf.ones([3, 2]), [0, 1, 3])
                                        + tf.constant([1., 2.])),
    "ew/arithmetic operators": lambda tf: _rt([_f(tf) * 2, _f(tf) / 2, _f(tf) // 2, _f(tf) % 2, _f(tf) ** 2,
                                               2 ** _f(tf), 5 - _f(tf), -_f(tf), abs(-_f(tf))]),
    "ew/comparison operators": lambda tf: _rt([_f(tf) < 2, _f(tf) <= 2, _f(tf) > 2, _f(tf) >= 2,
                                               _f(tf) == _f(tf), _f(tf) != _g(tf)]),
    "ew/logical operators": lambda tf: _rt([(_f(tf) > 1) & (_f(tf) < 3), (_f(tf) > 1) | (_f(tf) < 3),
                                            (_f(tf) > 1) ^ (_f(tf) < 3), ~(_f(tf) > 1)]),
    "ew/and of ints": lambda tf: tf.ragged.constant([[1, 2], [3]]) & 6,
    "ew/bool": lambda tf: bool(_f(tf)),
    "ew/hash": lambda tf: hash(_f(tf)),
    "ew/unary math": lambda tf: _rt([tf.math.exp(_f(tf)), tf.exp(_f(tf)), tf.abs(-_f(tf)), tf.math.log(_f(tf)),
                                     tf.sqrt(_f(tf)), tf.math.square(_f(tf)), tf.nn.relu(_f(tf) - 2),
                                     tf.sigmoid(_f(tf)), tf.math.is_nan(_f(tf)), tf.round(_f(tf) / 2)]),
    "ew/cast and clip": lambda tf: _rt([tf.cast(_f(tf), tf.int32), tf.clip_by_value(_f(tf), 1.5, 2.5),
                                        tf.dtypes.cast(_f(tf), tf.int64)]),
    "ew/binary functions": lambda tf: _rt([tf.add(_f(tf), _g(tf)), tf.maximum(_f(tf), 2.),
                                           tf.math.squared_difference(_f(tf), 1.), tf.math.multiply(3., _f(tf)),
                                           tf.math.floormod(_g(tf), 7.), tf.math.divide_no_nan(_f(tf), 0.)]),
    "ew/binary keyword arguments": lambda tf: _rt([tf.math.add(x=_f(tf), y=_g(tf)), tf.math.exp(x=_f(tf))]),
    "ew/zeros_like and ones_like": lambda tf: _rt([tf.zeros_like(_f(tf)), tf.ones_like(_f(tf), dtype=tf.int32)]),
    "ew/strings": lambda tf: _rt([tf.strings.lower(tf.ragged.constant([["A"], ["B", "c"]])),
                                  tf.strings.length(tf.ragged.constant([["Ab"], ["B", "cde"]]))]),
    "ew/tensor on the left": lambda tf: _rt([tf.constant(2.) < _f(tf), tf.constant(2.) >= _f(tf),
                                             tf.constant(2.) == _f(tf), tf.constant(2.) != _f(tf),
                                             tf.constant([[2.], [3.]]) * _f(tf), tf.constant(6.) / _f(tf),
                                             tf.constant(6.) // _f(tf), tf.constant(2.) ** _f(tf),
                                             tf.Variable(1.) + _f(tf), _f(tf) + tf.Variable(1.)]),
    "ew/equality of what does not match": lambda tf: [
        _f(tf) == None, _f(tf) != None, _f(tf) == [[1., 2.], [3.]],  # noqa: E711
        _f(tf) == tf.ragged.constant([[1.], [2., 3.]]), _f(tf) != tf.ragged.constant([[1.], [2., 3.]]),
        _f(tf) == tf.constant([1., 2., 3.]), _f(tf) == "x", _rt(_f(tf) == tf.constant([[1.], [3.]]))],
    "ctor/constant inner_shape": lambda tf: _rt(tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1,
                                                                   inner_shape=(2,))),
    "ctor/constant inner_shape, no ragged_rank": lambda tf: tf.ragged.constant([[1, 2, 3, 4], [5, 6]],
                                                                               inner_shape=(2,)),
    "ctor/constant ragged_rank 1": lambda tf: _rt(tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)),
    "ctor/constant inconsistent inner values": lambda tf: tf.ragged.constant([[[1, 2], [3]], [[5, 6]]], ragged_rank=1),
    "ctor/constant mixed depth": lambda tf: tf.ragged.constant([[1, [2]], [3]]),
    "ctor/constant empty rows and dtype": lambda tf: _rt([tf.ragged.constant([[], []]),
                                                          tf.ragged.constant([[1, 2], [3]], dtype=tf.float64)]),
    "ew/broadcast one row": lambda tf: _rt([tf.ragged.constant([[1., 2.]]) + tf.constant([[10., 20.]]),
                                            tf.ragged.constant([[1., 2.]]) + tf.constant([10., 20.])]),
    "ew/broadcast over rows onto matching rows": lambda tf: tf.ragged.constant([[1., 2.], [3., 4.]])
    + tf.constant([[10., 20.]]),
    "ew/broadcast 3-D over rows": lambda tf: tf.ragged.constant([[[1., 2.], [3., 4.]], [[5., 6.]]])
    + tf.constant([[[10., 20.]]]),
    "ew/broadcast 3-D mismatched": lambda tf: tf.ragged.constant([[[1., 2.], [3., 4.]], [[5., 6.]]])
    + tf.constant([[10.], [20.]]),
    "reduce/logsumexp axes": lambda tf: [tf.reduce_logsumexp(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]),
                                                             axis=[0, 1])],
    "reduce/logsumexp axis 0": lambda tf: tf.reduce_logsumexp(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), 0),
    "reduce/logsumexp 3-D": lambda tf: tf.reduce_logsumexp(tf.cast(_c(tf), tf.float32), axis=-1),
    "ew/dtypes mixed": lambda tf: _f(tf) + tf.ragged.constant([[1, 2], [3]]),
    "ew/row_splits dtypes mixed": lambda tf: _f(tf) + _g(tf).with_row_splits_dtype(tf.int32),
    "ew/3-D": lambda tf: _rt(_c(tf) * 2 + _c(tf)),
    "ew/in tf.function": lambda tf: tf.function(lambda x: (tf.RaggedTensor.from_row_lengths(x, [2, 1]) * 2
                                                           + 1).flat_values)(tf.constant([1., 2., 3.])),
    "getitem/rows": lambda tf: _rt([_f(tf)[0], _f(tf)[1, 0], _f(tf)[1:], _f(tf)[::-1], _f(tf)[-1]]),
    "getitem/slice each row": lambda tf: _rt([_f(tf)[:, 1:], _f(tf)[:, :1], _c(tf)[:, :, 1:]]),
    "getitem/int inner": lambda tf: _f(tf)[:, 0],
    "getitem/out of bounds": lambda tf: _f(tf)[5],
    "getitem/ellipsis": lambda tf: _f(tf)[..., 0],
    "getitem/newaxis": lambda tf: _rt(_f(tf)[tf.newaxis]),
    "getitem/3-D row": lambda tf: _rt([_c(tf)[0], _c(tf)[2, 0], _c(tf)[0, 1, 0]]),
    # --- reductions and array ops
    "reduce/sum mean max min prod": lambda tf: [
        getattr(tf.math, f)(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), axis=ax)
        for f in ("reduce_sum", "reduce_max", "reduce_min", "reduce_prod") for ax in (None, 0, 1, -1)],
    "reduce/mean (no empty row: NaN)": lambda tf: [
        tf.reduce_mean(tf.ragged.constant(v), axis=ax) for v in ([[1., 2.], [3., 4., 5.]], [[1, 2], [4]])
        for ax in (None, 0, 1)],
    "reduce/variance and std": lambda tf: [
        getattr(tf.math, f)(tf.ragged.constant([[1., 2.], [3., 4., 5.]]), axis=ax)
        for f in ("reduce_variance", "reduce_std") for ax in (None, 0, 1)],
    "reduce/integers": lambda tf: [getattr(tf.math, f)(tf.ragged.constant([[1, 2], [], [3, 4, 5]]), axis=1)
                                   for f in ("reduce_sum", "reduce_max", "reduce_min", "reduce_prod")],
    "reduce/keepdims": lambda tf: [tf.reduce_sum(_f(tf), axis=1, keepdims=True),
                                   tf.reduce_max(_f(tf), axis=0, keepdims=True)],
    "reduce/all and any": lambda tf: [tf.reduce_all(tf.ragged.constant([[True, False], [], [True]]), axis=1),
                                      tf.reduce_any(tf.ragged.constant([[True, False], [], [True]]), axis=1),
                                      tf.reduce_any(tf.ragged.constant([[True, False], [], [True]]), axis=0),
                                      tf.reduce_all(tf.ragged.constant([[True, False], [], [True]]))],
    "reduce/3-D": lambda tf: _rt([tf.reduce_sum(_c(tf), axis=2), tf.reduce_sum(_c(tf), axis=[1, 2]),
                                  tf.reduce_max(_c(tf), axis=-1)]),
    "reduce/axis out of range": lambda tf: tf.reduce_sum(_f(tf), axis=2),
    "reduce/in tf.function": lambda tf: tf.function(lambda x: tf.reduce_sum(
        tf.RaggedTensor.from_row_lengths(x, [2, 0, 1]), axis=1))(tf.constant([1., 2., 3.])),
    "reduce/rows of ragged rows": lambda tf: _rt([tf.reduce_sum(_c(tf), axis=1), tf.reduce_sum(_c(tf), axis=0),
                                                  tf.reduce_max(_c(tf), axis=1), tf.reduce_all(_c(tf) > 1, axis=0),
                                                  tf.math.reduce_variance(tf.cast(_c(tf), tf.float32), axis=1),
                                                  tf.reduce_mean(tf.cast(_c(tf), tf.float32), axis=1)]),
    "reduce/logsumexp": lambda tf: [tf.reduce_logsumexp(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), 1),
                                    tf.reduce_logsumexp(_f(tf))],
    "rows/one_hot": lambda tf: _rt([tf.one_hot(tf.ragged.constant([[1, 2], [], [3]]), 4),
                                    tf.one_hot(tf.ragged.constant([[1, 2], [], [3]]), 4, on_value=5, off_value=-1)]),
    "rows/one_hot axis": lambda tf: tf.one_hot(tf.ragged.constant([[1, 2], [], [3]]), 4, axis=0),
    "rows/embedding_lookup": lambda tf: _rt(tf.nn.embedding_lookup(
        tf.constant([[0., 0.], [1., 1.], [2., 2.], [3., 3.]]), tf.ragged.constant([[1, 2], [], [3, 0]]))),
    "rows/softmax": lambda tf: _rt([tf.nn.softmax(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]])),
                                    tf.nn.softmax(tf.cast(_c(tf), tf.float32))]),
    "rows/cumsum": lambda tf: _rt([tf.math.cumsum(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), axis=1),
                                   tf.math.cumsum(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), axis=1,
                                                  exclusive=True),
                                   tf.math.cumsum(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), axis=-1,
                                                  reverse=True),
                                   tf.cumsum(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), axis=1, exclusive=True,
                                             reverse=True)]),
    "rows/strings": lambda tf: [tf.strings.reduce_join(tf.ragged.constant([["a", "b"], [], ["c", "d", "e"]]),
                                                       axis=1, separator=" "),
                                tf.strings.reduce_join(tf.ragged.constant([["a", "b"], [], ["c", "d", "e"]])),
                                tf.strings.reduce_join(tf.ragged.constant([["a", "b"], [], ["c", "d", "e"]]), axis=0),
                                _rt(tf.strings.join([tf.ragged.constant([["a"], ["b", "c"]]),
                                                     tf.ragged.constant([["x"], ["y", "z"]])], separator="-"))],
    "rows/reduce_join with empty strings": lambda tf: [
        tf.strings.reduce_join(tf.ragged.constant([["", "a", ""], ["", "", "a"], ["a", "", ""], []]), axis=1,
                               separator="-"),
        tf.strings.reduce_join(tf.ragged.constant([["", "a", ""], ["", "", "a"], ["a", "", ""], []]), axis=0,
                               separator="-"),
        tf.strings.reduce_join(tf.ragged.constant([["", "a", ""], ["", "", "a"]]), separator="-")],
    "rows/add_n": lambda tf: _rt(tf.add_n([_f(tf), _g(tf), _f(tf)])),
    "rows/tile": lambda tf: _rt([tf.tile(tf.ragged.constant([[1., 2.], [], [3.]]), [2, 1]),
                                 tf.tile(tf.ragged.constant([[1., 2.], [], [3.]]), [1, 2]),
                                 tf.tile(tf.ragged.constant([[1., 2.], [], [3.]]), [2, 3]),
                                 tf.tile(_c(tf), [2, 2, 3]),
                                 tf.tile(tf.RaggedTensor.from_row_splits(tf.ones([3, 2]), [0, 1, 3]), [1, 2, 2])]),
    "rows/reverse": lambda tf: _rt([tf.reverse(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), [1]),
                                    tf.reverse(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), [0]),
                                    tf.reverse(_c(tf), [-1]), tf.reverse(_c(tf), [0, 1])]),
    "rows/split": lambda tf: _rt([tf.split(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), 3),
                                  tf.split(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), [1, 2])]),
    "rows/squeeze": lambda tf: _rt(tf.squeeze(tf.expand_dims(_f(tf), 1), [1])),
    "rows/squeeze ragged": lambda tf: tf.squeeze(_f(tf), [1]),
    "rows/where coordinates": lambda tf: [tf.where(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]) > 2),
                                          tf.where(_c(tf) > 4)],
    "rows/gather_nd": lambda tf: _rt([tf.gather_nd(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]),
                                                   [[2, 1], [0, 0]]),
                                      tf.gather_nd(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), [[2], [0]]),
                                      tf.gather_nd(_c(tf), [[0, 1], [2, 0]]), tf.gather_nd(_c(tf), [[2, 0, 2]])]),
    "rows/reshape": lambda tf: tf.reshape(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), [-1]),
    "rows/unsorted_segment_sum": lambda tf: tf.math.unsorted_segment_sum(
        tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]), tf.ragged.constant([[0, 1], [], [1, 1, 0]]), 2),
    "rows/dropout rate 0": lambda tf: _rt(tf.nn.dropout(_f(tf), 0.0)),
    "shape/repr and indexing": lambda tf: [repr(tf.shape(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]))),
                                           repr(tf.shape(_c(tf))),
                                           repr(tf.shape(tf.RaggedTensor.from_tensor([[1, 2], [3, 4]]))),
                                           tf.shape(_f(tf))[0], tf.shape(_f(tf), out_type=tf.int64)[0],
                                           tf.shape(_f(tf)).rank, tf.shape(_f(tf)).num_row_partitions,
                                           repr(tf.shape(_f(tf)).dtype), tf.shape(_c(tf)).static_lengths()],
    "shape/ragged dimension": lambda tf: tf.shape(_f(tf))[1],
    "shape/negative ragged dimension": lambda tf: tf.shape(_f(tf))[-1],
    "shape/out of range": lambda tf: tf.shape(_f(tf))[5],
    "shape/zeros and ones": lambda tf: _rt([tf.zeros(tf.shape(_f(tf))), tf.ones(tf.shape(_c(tf)), tf.int32)]),
    "array/concat": lambda tf: _rt([tf.concat([_f(tf), _g(tf)], 0), tf.concat([_f(tf), _g(tf)], 1),
                                    tf.concat([_f(tf), tf.constant([[7.], [8.]])], 1)]),
    "array/stack": lambda tf: _rt([tf.stack([_f(tf), _g(tf)], 1), tf.stack([_f(tf), _g(tf)])]),
    "array/gather": lambda tf: _rt([tf.gather(_f(tf), [1, 0, 1]), tf.gather(_c(tf), [2, 0]),
                                    tf.gather(tf.constant([10, 20, 30]), tf.ragged.constant([[0, 2], [1]]))]),
    "array/gather out of range": lambda tf: tf.gather(_f(tf), [3]),
    "array/size and rank": lambda tf: [tf.size(_c(tf)), tf.rank(_c(tf)), tf.size(_f(tf), out_type=tf.int64)],
    "array/expand_dims": lambda tf: _rt([tf.expand_dims(_f(tf), 0), tf.expand_dims(_f(tf), 1),
                                         tf.expand_dims(_f(tf), -1)]),
    "array/where": lambda tf: _rt(tf.where(_f(tf) > 1, _f(tf), _g(tf))),
    "array/to_tensor": lambda tf: [_f(tf).to_tensor(-1.), _c(tf).to_tensor(), (_f(tf) * 2).to_tensor(shape=[3, 1])],
    "misc/type_spec_from_value and is_tensor": lambda tf: [repr(tf.type_spec_from_value(_c(tf))), tf.is_tensor(_c(tf))],
    "misc/convert_to_tensor": lambda tf: tf.convert_to_tensor(_f(tf)),
    "misc/boolean_mask not dispatched": lambda tf: tf.boolean_mask(_f(tf), _f(tf) > 1),
    "misc/nest flatten and pack": lambda tf: (lambda parts: [parts, _rt(tf.nest.pack_sequence_as(
        _c(tf), [p * 2 if p.dtype == tf.int32 else p for p in parts], expand_composites=True))])(
        tf.nest.flatten(_c(tf), expand_composites=True)),
    "misc/to_tensor default values": lambda tf: [
        tf.RaggedTensor.from_row_splits(tf.ones([3, 2]), [0, 1, 3]).to_tensor(default_value=5.),
        tf.RaggedTensor.from_row_splits(tf.ones([3, 2]), [0, 1, 3]).to_tensor(default_value=[7., 8.]),
        _c(tf).to_tensor(default_value=-1), _c(tf).to_tensor(shape=[2, 3, 2]),
        _c(tf).to_tensor(shape=[None, 1, None])],
    "misc/to_tensor default of another shape": lambda tf: tf.RaggedTensor.from_row_splits(
        tf.ones([3, 2]), [0, 1, 3]).to_tensor(default_value=[1., 2., 3.]),
    "misc/map_fn": lambda tf: _rt([
        tf.map_fn(lambda x: tf.reduce_sum(x), tf.ragged.constant([[1., 2.], [3.], []]), fn_output_signature=tf.float32),
        tf.map_fn(lambda x: x * 2, tf.ragged.constant([[1., 2.], [3.], []])),
        tf.map_fn(lambda x: tf.range(x), tf.constant([1, 3, 0]),
                  fn_output_signature=tf.RaggedTensorSpec([None], tf.int32)),
        tf.map_fn(lambda x: (tf.size(x), x[:1]), tf.ragged.constant([[1., 2.], [3.], []]),
                  fn_output_signature=(tf.int32, tf.RaggedTensorSpec([None], tf.float32)))]),
    "misc/strategy.run": lambda tf: _rt(tf.distribute.MirroredStrategy(["/cpu:0"]).run(
        lambda x: x * 2, args=(tf.ragged.constant([[1.], [2., 3.]]),))),
    "misc/tf.function with a RaggedTensorSpec signature": lambda tf: (lambda f: [
        f(tf.ragged.constant([[1., 2.], [3.]])), f(tf.ragged.constant([[1., 2., 4.], [3.], []]))])(
        tf.function(lambda r: tf.reduce_sum(r, 1), input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])),
    "spec/RaggedTensorSpec methods": lambda tf: (lambda s, r: [
        s.is_compatible_with(r), s.is_compatible_with(tf.RaggedTensorSpec([2, None], tf.float32)),
        s.is_compatible_with(tf.RaggedTensorSpec([None, None], tf.int32)), s.is_compatible_with(tf.constant([[1.]])),
        s.flat_values_spec, s.to_tensors(r), _rt(s.from_tensors(iter(s.to_tensors(r)))),
        repr(s.most_specific_common_supertype([tf.RaggedTensorSpec([2, None], tf.float32)])),
        repr(tf.RaggedTensorSpec([2, None], tf.float32).most_specific_common_supertype(
            [tf.RaggedTensorSpec([3, None], tf.float32)])),
        tf.RaggedTensorSpec([2, None], tf.float32).is_subtype_of(s),
        s.is_subtype_of(tf.RaggedTensorSpec([2, None], tf.float32))])(
        tf.RaggedTensorSpec([None, None], tf.float32), _f(tf)),
    "shape/DynamicRaggedShape": lambda tf: (lambda D: [
        repr(D.from_lengths([3, (2, 0, 1)])), D.from_lengths([3, (2, 0, 1)]).inner_rank,
        D.from_lengths([3, (2, 0, 1)]).inner_shape, D.from_lengths([3, (2, 0, 1)]).is_uniform(0),
        D.from_lengths([3, (2, 0, 1)]).is_uniform(1), repr(D.from_lengths([3, (2, 0, 1)]).with_dtype(tf.int32).dtype),
        repr(D.from_tensor(_f(tf))), repr(D.from_tensor(tf.zeros([2, 3]))),
        repr(D.from_lengths([3, (2, 0, 1)]).dtype), repr(D.from_tensor(_f(tf)).dtype),
        tf.shape(tf.RaggedTensor.from_row_splits(tf.ones([3, 2]), [0, 1, 3])).inner_shape,
        repr(tf.shape(tf.RaggedTensor.from_row_splits(tf.ones([3, 2]), [0, 1, 3]))),
        repr(D.from_lengths([2, (1, 2), 2])), D.from_lengths([2, (1, 2), 2]).inner_shape,
        _rt(tf.zeros(D.from_lengths([2, (1, 2)])))])(tf.experimental.DynamicRaggedShape),
    # --- tf.data with RaggedTensors (clause dataset.ragged-batch)
    "data/from_tensor_slices": lambda tf: (lambda ds: [repr(ds.element_spec), [e for e in ds]])(
        tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3], []]))),
    "data/from_tensor_slices of ragged_rank 2 and a tensor": lambda tf: (lambda ds: [repr(ds.element_spec), [
        _rt(list(e)) for e in ds]])(tf.data.Dataset.from_tensor_slices((_c(tf), tf.constant([7, 8, 9])))),
    "data/map, ragged_batch, padded_batch": lambda tf: (lambda ds: [
        [e for e in ds.map(lambda x: x * 2)], [_rt(b) for b in ds.map(lambda x: x * 2).ragged_batch(2)]])(
        tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3], []]))),
    "data/padded_batch of ragged elements": lambda tf: list(tf.data.Dataset.from_tensor_slices(
        tf.ragged.constant([[1, 2], [3], []])).padded_batch(2)),
    "data/map with ragged ops": lambda tf: [
        [x for x in tf.data.Dataset.from_tensor_slices(_c(tf)).map(lambda x: tf.reduce_sum(x, axis=1))],
        [x for x in tf.data.Dataset.from_tensor_slices(["a b", "c"]).map(tf.strings.split).map(tf.strings.length)],
        [_rt(x) for x in tf.data.Dataset.from_tensor_slices(["a bb", "c"]).batch(2).map(
            lambda s: tf.strings.length(tf.strings.split(s)) + 1)]],
    # --- gradients
    "grad/to_tensor": lambda tf: _grad(tf, [[1., 2., 3., 4., 5.], [[1., 2.], [3., 4.], [5., 6.]]], lambda v, w: [
        (tf.reduce_sum(tf.RaggedTensor.from_row_lengths(v * 1.0, [2, 0, 3]).to_tensor(default_value=-1.)
                       * tf.constant([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]])), v),
        (tf.reduce_sum(tf.RaggedTensor.from_row_lengths(v * 1.0, [2, 0, 3]).to_tensor(shape=[3, 2]) * 3.), v),
        (tf.reduce_sum(tf.RaggedTensor.from_row_lengths(w * 2.0, [1, 2]).to_tensor() ** 2), w)]),
    "grad/softmax, cumsum, logsumexp, embedding": lambda tf: _grad(tf, [[1., 2., 3.], [[1., 2.], [3., 4.]]],
                                                                   lambda v, e: [(
        (lambda r: tf.reduce_sum(tf.nn.softmax(r) * r) + tf.reduce_sum(tf.math.cumsum(r, axis=1) * r)
         + tf.reduce_sum(tf.reduce_logsumexp(r, axis=1))
         + tf.reduce_sum(tf.nn.embedding_lookup(e, tf.ragged.constant([[0, 1], [1]])) * 2.0))(
            tf.RaggedTensor.from_row_lengths(v * 1.0, [2, 1])), [v, e])]),
    "grad/3-D reductions and concat": lambda tf: _grad(tf, [[1., 5., 3., 4., 2., 6.]], lambda v: [(
        (lambda r: tf.reduce_sum(tf.reduce_max(r, axis=1) * 3.0) + tf.reduce_sum(tf.concat([r, r * r], 1))
         + tf.reduce_sum(tf.reduce_mean(r, axis=0)))(
            tf.RaggedTensor.from_nested_row_lengths(v * 1.0, [[2, 0, 1], [2, 1, 3]])), v)]),
    "grad/elementwise and reductions": lambda tf: _grad(tf, [[1., 2., 3.]], lambda v: [(
        (lambda r: tf.reduce_sum(tf.reduce_max(tf.math.exp(r) * 2, axis=1))
         + tf.reduce_sum(tf.reduce_sum(r * r, axis=1)) + tf.reduce_sum(tf.reduce_mean(r, axis=0)))(
            tf.RaggedTensor.from_row_lengths(v * 1.0, [2, 0, 1])), v)]),
}

TABLE = case_results.Table(__file__, CASES, re.compile(r"(?!)()"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.ragged")
def test_ragged_constructors_and_validation(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("ctor/"))


@pytest.mark.clause("ops.ragged")
def test_ragged_accessors(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("acc/"))


@pytest.mark.clause("ops.ragged")
def test_tf_ragged_functions(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("fn/"))


@pytest.mark.clause("ops.ragged")
def test_ragged_elementwise_dispatch_and_operators(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("ew/"))


@pytest.mark.clause("ops.ragged")
def test_ragged_getitem(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("getitem/"))


@pytest.mark.clause("ops.ragged")
def test_ragged_reductions(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("reduce/"))


@pytest.mark.clause("ops.ragged")
def test_ragged_array_ops(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("array/"))


@pytest.mark.clause("ops.ragged")
def test_ragged_row_ops(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("rows/"))


@pytest.mark.clause("ops.ragged")
def test_ragged_shape(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("shape/"))


@pytest.mark.clause("ops.ragged")
def test_ragged_conversion_nest_map_fn_and_functions(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(("misc/", "spec/")))


@pytest.mark.clause("dataset.ragged-batch")
def test_datasets_of_ragged_tensors(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("data/"))


@pytest.mark.clause("ops.ragged")
def test_ragged_gradients(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("grad/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
