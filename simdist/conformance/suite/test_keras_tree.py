"""`tf.keras.tree` — clause keras.tree (TF 2.21 + Keras 3.15: keras/src/tree/tree_api.py and optree_impl.py):
None is a leaf, dicts flatten in sorted key order, namedtuples are nodes, paths are key/index tuples, and
mismatched structures are ValueErrors. Expected values are written here from those rules."""

from __future__ import annotations

import collections

import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause

Point = collections.namedtuple("Point", ["x", "y"])


@clause("keras.tree", ref="tf221")
def test_keras_tree_flattens_maps_and_packs_in_keras_order(keras):
    tree = keras.tree
    nest = {"b": [1, (2, None)], "a": Point(3, {"z": 4, "y": [5]})}
    call = "keras.tree.flatten({'b': [1, (2, None)], 'a': Point(3, {'z': 4, 'y': [5]})})"
    assert_equal(repr(tree.flatten(nest)), repr([3, 5, 4, 1, 2, None]), call=call,
                 what="leaves (sorted keys, None a leaf)")
    paths = [p for p, _ in tree.flatten_with_path(nest)]
    assert_equal(repr(paths), repr([("a", 0), ("a", 1, "y", 0), ("a", 1, "z"), ("b", 0), ("b", 1, 0), ("b", 1, 1)]),
                 call="keras.tree.flatten_with_path(same)", what="paths")
    doubled = tree.map_structure(lambda v: None if v is None else 2 * v, nest)
    assert_equal(repr(doubled), repr({"b": [2, (4, None)], "a": Point(6, {"z": 8, "y": [10]})}),
                 call="keras.tree.map_structure(2 * v, same)", what="the structure kept, the leaves mapped")
    packed = tree.pack_sequence_as(nest, list("ABCDEF"))
    assert_equal(repr(packed), repr({"b": ["D", ("E", "F")], "a": Point("A", {"z": "C", "y": ["B"]})}),
                 call="keras.tree.pack_sequence_as(same, 'ABCDEF')", what="leaves placed in flatten's order")
    assert_equal(repr(tree.lists_to_tuples([1, [2, {"a": [3]}]])), repr((1, (2, {"a": (3,)}))),
                 call="keras.tree.lists_to_tuples([1, [2, {'a': [3]}]])", what="lists made tuples")
    with raises(ValueError, call="keras.tree.map_structure(f, [1, [2]], [1, 2])"):
        tree.map_structure(lambda x, y: x, [1, [2]], [1, 2])
    with raises(ValueError, match="don't have the same paths", call="keras.tree.assert_same_paths({'a', 'b'}, {'a'})"):
        tree.assert_same_paths({"a": 1, "b": 2}, {"a": 1})
    tree.assert_same_paths([1, 2], (3, 4))   # list and tuple have the same paths
