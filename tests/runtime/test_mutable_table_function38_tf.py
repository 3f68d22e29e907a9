"""tf.lookup.experimental.MutableHashTable's ops inside a tf.function, on simdist vs TF 2.21: insert, lookup (with
dynamic default values), remove, size and export (compared sorted: TF's order is its hash map's) across repeated
calls, a table of vectors, a trace on placeholders (get_concrete_function with an input_signature) that leaves the
table as it was, the insert's shape error raised by a call, and an eager lookup between calls. Clause
ops.lookup. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
from case_wrappers import error_class
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _counting(tf: Any) -> Any:
    t = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, default_value=0.0)

    @tf.function
    def step(k: Any) -> Any:
        t.insert(k, t.lookup(k) + 1.0)
        return t.lookup(k), t.size()
    out = [step(tf.constant([1, 2], tf.int64) + i) for i in range(3)]
    return out + [t.lookup(tf.constant([0, 1, 2, 3, 4], tf.int64))]


def _remove_export(tf: Any) -> Any:
    t = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=-1)

    @tf.function
    def put(k: Any, v: Any) -> Any:
        t.insert(k, v)
        return t.size()

    @tf.function
    def drop(k: Any) -> Any:
        t.remove(k)
        keys, values = t.export()
        return keys, values, t.size()

    def by_key(keys: Any, values: Any, size: Any) -> list:
        """The export sorted by key (TF's order is its hash map's)."""
        order = sorted(range(len(keys.numpy())), key=lambda i: keys.numpy()[i])
        return [[keys.numpy()[i] for i in order], [int(values.numpy()[i]) for i in order], size]
    return [put(tf.constant(["a", "b", "c"]), tf.constant([1, 2, 3], tf.int64)), by_key(*drop(tf.constant(["a", "zz"]))),
            put(tf.constant(["a"]), tf.constant([9], tf.int64)), t.lookup(tf.constant(["a", "b", "q"]))]


def _vectors(tf: Any) -> Any:
    t = tf.lookup.experimental.MutableHashTable(tf.int32, tf.float32, default_value=[0.0, -1.0])

    @tf.function
    def f(k: Any, v: Any, d: Any) -> Any:
        t.insert(k, v)
        return t.lookup(tf.constant([1, 5, 2]), dynamic_default_values=d), t.lookup(tf.constant([7]))
    return [f(tf.constant([1, 2]), tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([[9.0, 9.0]] * 3)),
            f(tf.constant([5]), tf.constant([[5.0, 6.0]]), tf.constant([8.0, 8.0]))]


def _placeholder_trace(tf: Any) -> Any:
    t = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, default_value=0.0)
    t.insert(tf.constant([3], tf.int64), tf.constant([2.0]))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
    def f(k: Any) -> Any:
        t.insert(k, tf.ones_like(k, tf.float32) * 7)
        return t.size()
    f.get_concrete_function()
    before = t.size()
    return [before, f(tf.constant([9], tf.int64)), t.lookup(tf.constant([9, 3, 0], tf.int64))]


def _shape_error(tf: Any) -> Any:
    t = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, default_value=0.0)
    f = tf.function(lambda k, v: [t.insert(k, v), t.size()][1])
    f(tf.constant([1], tf.int64), tf.constant([1.0]))
    return f(tf.constant([1, 2], tf.int64), tf.constant([1.0, 2.0, 3.0]))


def _returns_op(tf: Any) -> Any:
    t = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, default_value=0.0)
    return [t.insert(tf.constant([1], tf.int64), tf.constant([1.0])), t.remove(tf.constant([1], tf.int64)),
            tf.function(lambda k: t.insert(k, tf.ones_like(k, tf.float32)))(tf.constant([2], tf.int64))]


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {"counting": _counting, "remove_export": _remove_export, "vectors": _vectors,
            "placeholder_trace": _placeholder_trace, "shape_error": error_class(_shape_error),
            "returns_op": error_class(_returns_op)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(mutable_table_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.lookup")
def test_mutable_table_ops_in_a_tf_function_match_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


def test_mutable_table_in_a_dataset_function_says_it_is_not_supported() -> None:
    """tf.data functions using a MutableHashTable are not supported by simdist: the error says so (TF runs them)."""
    from simdist import tf
    t = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, default_value=0.0)
    with pytest.raises(NotImplementedError, match="inside a tf.data function"):
        list(tf.data.Dataset.range(3).map(lambda k: t.lookup(k)))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
