"""tf.lookup.experimental.MutableHashTable of vectors (a rank-1 default_value: TF's MutableHashTableOfTensors) and
lookup's `dynamic_default_values`, on simdist vs TF 2.21 (clause ops.lookup): insert and lookup shapes (keys' shape
plus the value shape), overwrite, remove, string vectors, the per-key or single dynamic default and the shape errors
of both. Its golden (tests/goldens/) is stamped with this file.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _vectors(tf: Any) -> Any:
    t = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, default_value=[-1.0, -2.0])
    t.insert(tf.constant(["a", "b"]), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    return t


def _ints(tf: Any) -> Any:
    t = tf.lookup.experimental.MutableHashTable(tf.int64, tf.int64, default_value=-1)
    t.insert(tf.constant([1, 2], tf.int64), tf.constant([10, 20], tf.int64))
    return t


def _overwrite_remove(tf: Any) -> Any:
    t = _vectors(tf)
    t.insert(tf.constant(["a"]), tf.constant([[7.0, 7.0]]))
    first = t.lookup(tf.constant(["a", "b"]))
    t.remove(tf.constant(["a"]))
    return [first, t.size(), t.lookup(tf.constant(["a", "b"]))]


def _strings(tf: Any) -> Any:
    t = tf.lookup.experimental.MutableHashTable(tf.int64, tf.string, default_value=["?", "!"])
    t.insert(tf.constant([3], tf.int64), tf.constant([["x", "y"]]))
    return t.lookup(tf.constant([3, 4], tf.int64))


CASES: dict[str, Callable[[Any], Any]] = {
    "vectors/lookup": lambda tf: _vectors(tf).lookup(tf.constant(["a", "z", "b"])),
    "vectors/lookup_2d": lambda tf: _vectors(tf).lookup(tf.constant([["a"], ["z"]])),
    "vectors/size": lambda tf: _vectors(tf).size(),
    "vectors/insert_flat_values": lambda tf: _vectors(tf).insert(tf.constant(["c"]), tf.constant([1.0, 2.0])),
    "vectors/insert_wide_values": lambda tf: _vectors(tf).insert(tf.constant(["c"]), tf.constant([[1.0, 2.0, 3.0]])),
    "vectors/dynamic_per_key": lambda tf: _vectors(tf).lookup(tf.constant(["a", "q"]), dynamic_default_values=tf.constant(
        [[9.0, 9.0], [8.0, 8.0]])),
    "vectors/dynamic_one": lambda tf: _vectors(tf).lookup(tf.constant(["a", "q"]), dynamic_default_values=tf.constant(
        [5.0, 6.0])),
    "vectors/dynamic_scalar": lambda tf: _vectors(tf).lookup(tf.constant(["a", "q"]),
                                                             dynamic_default_values=tf.constant(5.0)),
    "vectors/overwrite_remove": _overwrite_remove,
    "vectors/strings": _strings,
    "scalars/dynamic_per_key": lambda tf: _ints(tf).lookup(tf.constant([1, 5], tf.int64),
                                                           dynamic_default_values=tf.constant([7, 8], tf.int64)),
    "scalars/dynamic_one": lambda tf: _ints(tf).lookup(tf.constant([1, 5], tf.int64),
                                                       dynamic_default_values=tf.constant(3, tf.int64)),
    "scalars/dynamic_bad": lambda tf: _ints(tf).lookup(tf.constant([1, 5], tf.int64),
                                                       dynamic_default_values=tf.constant([7], tf.int64)),
}
LABELS = sorted(CASES)
_NO_NAMES = re.compile(r"(?!)(x)")   # (no auto-named objects; one group for case_results' substitution)


def _run(tf: Any, label: str) -> Any:
    return case_results.run(tf, CASES[label], _NO_NAMES)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: _run(tf, LABELS[i]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(LABELS))))


@pytest.mark.clause("ops.lookup")
def test_mutable_hash_table_of_vectors_matches_tf(tf_results: dict[int, Any]) -> None:
    from simdist import tf
    bad = [d for i, lab in enumerate(LABELS) if (d := case_results.diff(_run(tf, lab), tf_results[i], lab))]
    assert not bad, f"{len(bad)} of {len(LABELS)} cases differ from TF 2.21:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
