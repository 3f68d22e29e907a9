"""`tf.keras.tree` on simdist vs TF 2.21 + Keras 3.15 (optree underneath in both): is_nested, flatten
(a leaf alone, a one-element list, None as a leaf, dicts in sorted key order, namedtuples, deques, tensors
as leaves), flatten_with_path, map_structure over one and several structures (mismatched nesting,
none_is_leaf=False), map_structure_up_to, assert_same_structure (with the deprecated check_types),
assert_same_paths (list vs tuple accepted, missing paths listed), pack_sequence_as (too few and too many
leaves), traverse top-down and bottom-up with MAP_TO_NONE, lists_to_tuples and map_shape_structure;
results and error classes and messages must be TF's. Clause keras.tree. Its golden (tests/goldens/) is
stamped with this file.
"""

from __future__ import annotations

import collections
import os
import re
import warnings
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

Point = collections.namedtuple("Point", ["x", "y"])


def _nest() -> Any:
    return {"b": [1, (2, None)], "a": Point(3, {"z": 4, "y": [5]}), "c": collections.deque([6, 7])}


def _t(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The case on tf.keras.tree, its result as text (structures, types and values)."""
    def case(tf: Any) -> Any:
        return repr(fn(tf.keras.tree))
    return case


def _warned(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out = fn(tf.keras.tree)
        return repr((out, [(x.category.__name__, str(x.message)) for x in w]))
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    n = _nest()
    c: dict[str, Callable[[Any], Any]] = {}
    for label, v in (("int", 1), ("None", None), ("list", [1]), ("empty list", []), ("dict", {"a": 1}),
                     ("namedtuple", Point(1, 2)), ("deque", collections.deque([1])), ("str", "ab"),
                     ("array", np.ones(2)), ("set", {1})):
        c[f"is_nested/{label}"] = _t(lambda t, v=v: t.is_nested(v))
    c["flatten/nest"] = _t(lambda t: t.flatten(n))
    c["flatten/leaf"] = _t(lambda t: t.flatten(5))
    c["flatten/one-element list"] = _t(lambda t: t.flatten([None]))
    c["flatten/empty dict"] = _t(lambda t: t.flatten({}))
    c["flatten/tensors"] = lambda tf: case_results.encode(tf.keras.tree.flatten({"k": tf.constant([1.0, 2.0]),
                                                                                 "j": [tf.constant(3)]}),
                                                          re.compile(r"(x)"))
    c["flatten_with_path/nest"] = _t(lambda t: t.flatten_with_path(n))
    c["map_structure/one"] = _t(lambda t: t.map_structure(lambda x: None if x is None else x * 10, n))
    c["map_structure/leaf"] = _t(lambda t: t.map_structure(lambda x: x + 1, 1))
    c["map_structure/None not a leaf"] = _t(lambda t: t.map_structure(lambda x: x * 2, [1, None],
                                                                      none_is_leaf=False))
    c["map_structure/None alone not a leaf"] = _t(lambda t: t.map_structure(lambda x: 1, None, none_is_leaf=False))
    c["map_structure/two"] = _t(lambda t: t.map_structure(lambda x, y: (x, y), {"a": [1, 2]}, {"a": [3, 4]}))
    c["map_structure/mismatch"] = _t(lambda t: t.map_structure(lambda x, y: x, [1, [2]], [1, 2]))
    c["map_structure/mismatch deeper"] = _t(lambda t: t.map_structure(lambda x, y: x, [1, 2], [1, [2]]))
    c["map_structure/different keys"] = _t(lambda t: t.map_structure(lambda x, y: x, {"a": 1}, {"b": 1}))
    c["map_structure/none"] = _t(lambda t: t.map_structure(lambda x: x))
    c["map_structure_up_to/shallow"] = _t(lambda t: t.map_structure_up_to([1, 1], lambda x: repr(x),
                                                                           [[1, 2], {"a": 3}]))
    c["map_structure_up_to/deeper shallow"] = _t(lambda t: t.map_structure_up_to([[1, 1], 1], lambda x: x,
                                                                                 [1, 2]))
    c["assert_same_structure/same"] = _t(lambda t: t.assert_same_structure([1, (2, 3)], [4, (5, 6)]))
    c["assert_same_structure/list vs tuple"] = _t(lambda t: t.assert_same_structure([1, 2], (1, 2)))
    c["assert_same_structure/differ"] = _t(lambda t: t.assert_same_structure([1, [2]], [1, 2]))
    c["assert_same_structure/check_types True"] = _warned(lambda t: t.assert_same_structure([1], [2],
                                                                                           check_types=True))
    c["assert_same_structure/check_types False"] = _warned(lambda t: t.assert_same_structure([1], [2],
                                                                                            check_types=False))
    c["assert_same_paths/list vs tuple"] = _t(lambda t: t.assert_same_paths([1, 2], (3, 4)))
    c["assert_same_paths/missing"] = _t(lambda t: t.assert_same_paths({"a": 1, "b": 2}, {"a": 1}))
    c["pack_sequence_as/nest"] = _t(lambda t: t.pack_sequence_as(n, list(range(100, 108))))
    c["pack_sequence_as/too few"] = _t(lambda t: t.pack_sequence_as([1, [2, 3]], [9, 8]))
    c["pack_sequence_as/too many"] = _t(lambda t: t.pack_sequence_as([1, 2], [9, 8, 7]))
    c["traverse/top-down MAP_TO_NONE"] = _t(lambda t: t.traverse(
        lambda x: t.MAP_TO_NONE if isinstance(x, tuple) else None, [1, (2, 3), {"a": (4,)}]))
    c["traverse/top-down replace"] = _t(lambda t: t.traverse(
        lambda x: "leaf" if not t.is_nested(x) else None, {"a": [1, 2], "b": 3}))
    c["traverse/bottom-up"] = _t(lambda t: t.traverse(
        lambda x: len(x) if isinstance(x, list) else None, [[1, 2], [3], 4], top_down=False))
    c["lists_to_tuples/nest"] = _t(lambda t: t.lists_to_tuples([1, [2, {"a": [3]}]]))
    c["map_shape_structure/shapes"] = _t(lambda t: t.map_shape_structure(
        lambda s: tuple(s) + (0,), {"a": (None, 3), "b": [[2, 4], (5,)], "c": 7}))
    return c


_AUTO_NAME = re.compile(r"(?!x)(x)")   # (no auto-names here: matches nothing)
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.tree")
@pytest.mark.parametrize("prefix", sorted({lab.split("/")[0] for lab in TABLE.labels}))
def test_keras_tree_matches_tf(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.split("/")[0] == prefix)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
