"""tf.sets (intersection, union, difference, size) against real TensorFlow 2.21: dense and sparse
operands, their results' SparseTensors (indices, sorted values, dense shapes), dtypes, TF's errors.
Needs the `tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_A = [[1, 2, 2, 5], [3, 4, 0, 0]]
_B = [[2, 7, 1, 1], [9, 9, 9, 9]]


def _o(x: Any) -> Any:
    return [x.indices, x.values, x.dense_shape]


def _sp(tf: Any, ind: Any, val: Any, shape: Any, dtype: Any = None) -> Any:
    return tf.sparse.SparseTensor(ind, tf.constant(val, dtype or tf.int32), shape)


def _sa(tf: Any) -> Any:
    return _sp(tf, [[0, 0], [0, 1], [0, 2], [1, 0], [2, 3]], [5, 1, 5, 3, 8], [3, 4])


def _sb(tf: Any) -> Any:
    return _sp(tf, [[0, 0], [0, 3], [1, 1], [1, 2]], [1, 9, 3, 4], [3, 4])


_SETS: list[tuple[str, Callable[[Any], Any]]] = [
    ("intersection-dense", lambda tf: _o(tf.sets.intersection(_A, _B))),
    ("union-dense", lambda tf: _o(tf.sets.union(_A, _B))),
    ("difference-dense", lambda tf: _o(tf.sets.difference(_A, _B))),
    ("difference-dense-b-minus-a", lambda tf: _o(tf.sets.difference(_A, _B, aminusb=False))),
    ("intersection-empty-result", lambda tf: _o(tf.sets.intersection([[1, 2]], [[3, 4]]))),
    ("union-3d", lambda tf: _o(tf.sets.union((np.arange(12).reshape(2, 3, 2) % 4).astype(np.int32),
                                                    np.ones((2, 3, 1), np.int32)))),
    ("int64-values", lambda tf: _o(tf.sets.union(tf.constant(_A, tf.int64), tf.constant(_B, tf.int64)))),
    ("uint8-values", lambda tf: _o(tf.sets.intersection(np.array(_A, np.uint8), np.array(_B, np.uint8)))),
    ("strings", lambda tf: _o(tf.sets.union([["b", "a"], ["c", "c"]], [["a", "d"], ["", "c"]]))),
    ("dense-sparse", lambda tf: _o(tf.sets.intersection(_A + [[8, 8, 8, 8]], _sb(tf)))),
    ("sparse-dense-flipped", lambda tf: _o(tf.sets.difference(_sa(tf), [[1, 2, 3, 4]] * 3))),
    ("sparse-dense-flipped-b-minus-a", lambda tf: _o(tf.sets.difference(_sa(tf), [[1, 2, 3, 4]] * 3, aminusb=False))),
    ("sparse-sparse-union", lambda tf: _o(tf.sets.union(_sa(tf), _sb(tf)))),
    ("sparse-sparse-intersection", lambda tf: _o(tf.sets.intersection(_sa(tf), _sb(tf)))),
    ("sparse-sparse-difference", lambda tf: _o(tf.sets.difference(_sa(tf), _sb(tf)))),
    ("size-sparse", lambda tf: tf.sets.size(_sa(tf))),
    ("size-3d", lambda tf: tf.sets.size(_sp(tf, [[0, 0, 0], [0, 0, 1], [1, 2, 0]], [4, 4, 1], [2, 3, 2]))),
    ("size-of-result", lambda tf: tf.sets.size(tf.sets.union(_A, _B))),
    ("size-dense-typeerror", lambda tf: tf.sets.size(tf.constant(_A))),
    ("float-typeerror", lambda tf: tf.sets.union([[1.0]], [[2.0]])),
    ("dtype-mismatch", lambda tf: tf.sets.union(tf.constant(_A, tf.int64), tf.constant(_B))),
    ("rank-1-dense", lambda tf: tf.sets.union([1, 2], [2, 3])),
    ("group-shape-mismatch", lambda tf: tf.sets.union([[1, 2]], [[1, 2], [3, 4]])),
    ("sparse-unordered-validate", lambda tf: tf.sets.size(_sp(tf, [[1, 0], [0, 0]], [1, 2], [2, 2]))),
    ("sparse-unordered-novalidate", lambda tf: tf.sets.size(_sp(tf, [[1, 0], [0, 0]], [1, 2], [2, 2]),
                                                            validate_indices=False)),
    ("in-function", lambda tf: _o(tf.function(lambda a, b: tf.sets.intersection(a, b))(tf.constant(_A),
                                                                                      tf.constant(_B)))),
    ("gradient-none", lambda tf: _gradient(tf)),
]


def _gradient(tf: Any) -> Any:
    """A tape through a set op's (integer) values: no gradient."""
    x = tf.constant(_A)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.sets.union(x, _B).values)
    return [y, tf.constant(tape.gradient(y, x) is None)]


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [(n, "ops.sets", f) for n, f in _SETS]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.sets")
@EDGES.parametrize("ops.sets")
def test_sets(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_sets_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
