"""tf.math.sobol_sample against real TensorFlow 2.21 (clause ops.sobol): Joe and Kuo's direction
numbers through SciPy's copy of the table, values bit for bit (float32 and float64, with skips,
across the 2^k boundaries where the kernel's digit count changes, and high dimensions), and TF's
errors. Needs the `tf` extra (golden-backed otherwise)."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("small", "sobol", lambda tf: tf.math.sobol_sample(3, 6)),
    ("skip-float64", "sobol", lambda tf: tf.math.sobol_sample(2, 3, skip=5, dtype=tf.float64)),
    ("dims-40", "sobol", lambda tf: tf.math.sobol_sample(40, 70)),
    ("power-of-two-boundary", "sobol", lambda tf: [tf.math.sobol_sample(5, 63), tf.math.sobol_sample(5, 64),
                                                   tf.math.sobol_sample(5, 2, skip=126)]),
    ("large-skip", "sobol", lambda tf: tf.math.sobol_sample(7, 5, skip=1_000_000, dtype=tf.float64)),
    ("large-skip-float32", "sobol", lambda tf: tf.math.sobol_sample(7, 5, skip=2**30)),
    ("many-points", "sobol", lambda tf: tf.math.sobol_sample(3, 1200)),
    ("high-dims", "sobol", lambda tf: tf.math.sobol_sample(1500, 3)[:, 1400:]),
    ("tensor-args", "sobol", lambda tf: tf.math.sobol_sample(tf.constant(4), tf.constant(3), tf.constant(2))),
    ("in-function", "sobol", lambda tf: tf.function(lambda: tf.math.sobol_sample(3, 4, 1))()),
    ("dim-zero", "errors", lambda tf: tf.math.sobol_sample(0, 3)),
    ("dim-too-large", "errors", lambda tf: tf.math.sobol_sample(21201, 3)),
    ("num-results-zero", "errors", lambda tf: tf.math.sobol_sample(2, 0)),
    ("negative-skip", "errors", lambda tf: tf.math.sobol_sample(2, 3, skip=-1)),
    ("int-dtype", "errors", lambda tf: tf.math.sobol_sample(2, 3, dtype=tf.int32)),
    ("float16-dtype", "errors", lambda tf: tf.math.sobol_sample(2, 3, dtype=tf.float16)),
    ("int64-dim", "errors", lambda tf: tf.math.sobol_sample(tf.constant(2, tf.int64), 3)),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.sobol")
@EDGES.parametrize("sobol")
def test_sobol_values(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.sobol")
@EDGES.parametrize("errors")
def test_sobol_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_sobol_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
