"""tf.ragged.range and tf.raw_ops.RaggedRange (clause ops.ragged): the RaggedRange kernel (ragged_range_op.cc) sizes a float row as
ceil(|(limit - start) / delta|) computed in the dtype and fills it by adding delta to start one step at a time,
in the dtype, so float32 rows drift as TF's do (range(0, 3, 0.1) ends 2.8999994); integer rows are
divup(|limit - start|, |delta|) long. Each case runs on TF 2.21 and on simdist: the same dtype and values bit for
bit (flat values and row splits), or the same exception class. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_R = "ops.ragged"


def _range(expr: str, traced: bool = False) -> Callable[[Any], Any]:
    """[flat_values, row_splits] of `expr`, a tf.ragged.range call."""
    def run(tf: Any) -> Any:
        def call() -> Any:
            r = eval(expr, {"tf": tf})  # noqa: S307 - our own text
            return [r.flat_values, r.row_splits]
        return tf.function(call, autograph=False)() if traced else call()
    return run


_EXPRS = {
    "float32 0..3 by 0.1, 1..2 by 0.3": "tf.ragged.range(tf.constant([0.0, 1.0]), tf.constant([3.0, 2.0]), "
                                         "tf.constant([0.1, 0.3]))",
    "float64 0..1 by 0.1": "tf.ragged.range(tf.constant([0.0], tf.float64), tf.constant([1.0], tf.float64), "
                           "tf.constant([0.1], tf.float64))",
    "float32 descending by -0.7": "tf.ragged.range(tf.constant([5.0, -1.0]), tf.constant([-2.0, -9.5]), -0.7)",
    "float32 100 steps of 0.01": "tf.ragged.range(tf.constant(0.0), tf.constant(1.0), tf.constant(0.01))",
    "float32 size rounding 0..0.3 by 0.1": "tf.ragged.range(tf.constant([0.0, 0.1]), tf.constant([0.3, 0.7]), "
                                           "tf.constant(0.1))",
    "float64 size rounding 0..0.3 by 0.1": "tf.ragged.range(tf.constant([0.0, 0.1], tf.float64), "
                                           "tf.constant([0.3, 0.7], tf.float64), tf.constant(0.1, tf.float64))",
    "int32 rows with a scalar delta": "tf.ragged.range([0, 5, 3, -4], [7, 5, 1, 4], 3)",
    "int64 negative delta": "tf.ragged.range(tf.constant([10, 0], tf.int64), tf.constant([-3, -1], tf.int64), "
                            "tf.constant(-4, tf.int64))",
    "limits only": "tf.ragged.range([3, 0, 5])",
    "int32 splits": "tf.ragged.range([0.5, 2.0], [3.0, 2.5], 0.25, row_splits_dtype=tf.int32)",
    "mixed int and float": "tf.ragged.range([0, 1], [2.5, 3.5], 0.5)",
    "delta zero": "tf.ragged.range([0.0, 1.0], [1.0, 2.0], [0.5, 0.0])",
    "start -0.0": "tf.ragged.range(tf.constant([-0.0]), tf.constant([1.0]), 0.5)",
    "an infinite limit": "tf.ragged.range(tf.constant([0.0]), tf.constant([float('inf')]), 1.0)",
    "a NaN delta": "tf.ragged.range(tf.constant([0.0]), tf.constant([1.0]), float('nan'))",
    "a NaN start": "tf.ragged.range(tf.constant([float('nan')]), tf.constant([1.0]), 1.0)",
    "int32 near its maximum": "tf.ragged.range(tf.constant([2**31 - 3]), tf.constant([2**31 - 1]), 1)",
    "int64 near its minimum": "tf.ragged.range(tf.constant([-(2**62)], tf.int64), tf.constant([-(2**62) + 3], tf.int64), "
                              "tf.constant(2, tf.int64))",
    "empty rows": "tf.ragged.range(tf.constant([], tf.float32), tf.constant([], tf.float32), 1.0)",
    "lengths differ": "tf.ragged.range([0, 1], [3, 4, 5], 1)",
    "a matrix of starts": "tf.ragged.range([[0, 1]], [3, 4], 1)",
}

def _raw(expr: str, traced: bool = False) -> Callable[[Any], Any]:
    """`expr`, a tf.raw_ops.RaggedRange call: [rt_nested_splits, rt_dense_values]."""
    def run(tf: Any) -> Any:
        def call() -> Any:
            return list(eval(expr, {"tf": tf, "R": tf.raw_ops}))  # noqa: S307 - our own text
        return tf.function(call, autograph=False)() if traced else call()
    return run


_RAW = {
    "raw int32": "R.RaggedRange(starts=[2, 5, 8], limits=[3, 5, 12], deltas=1)",
    "raw float32, int32 splits": "R.RaggedRange(starts=[0.0, 1.0], limits=[3.0, 2.0], deltas=[0.1, 0.3], "
                                 "Tsplits=tf.int32)",
    "raw bfloat16 (no CPU kernel)": "R.RaggedRange(starts=tf.constant([0.0], tf.bfloat16), "
                                    "limits=tf.constant([2.0], tf.bfloat16), deltas=tf.constant([0.25], tf.bfloat16))",
    "raw float64 scalars": "R.RaggedRange(starts=tf.constant(0.0, tf.float64), limits=tf.constant(1.0, tf.float64), "
                           "deltas=tf.constant(0.3, tf.float64))",
    "raw delta 0": "R.RaggedRange(starts=[0], limits=[3], deltas=0)",
    "raw lengths differ": "R.RaggedRange(starts=[0, 1], limits=[3, 4, 5], deltas=1)",
    "raw a matrix of starts": "R.RaggedRange(starts=[[0]], limits=[3], deltas=1)",
    "raw int and float": "R.RaggedRange(starts=[0], limits=[3.0], deltas=1)",
    "raw int8": "R.RaggedRange(starts=tf.constant([0], tf.int8), limits=tf.constant([3], tf.int8), "
                "deltas=tf.constant([1], tf.int8))",
}

CASES = [
    *[(name, _R, _range(e)) for name, e in _EXPRS.items()],
    *[(f"{name} traced", _R, _range(e, traced=True)) for name, e in list(_EXPRS.items())[:4]],
    *[(name, _R, _raw(e)) for name, e in _RAW.items()],
    *[(f"{name} traced", _R, _raw(e, traced=True)) for name, e in _RAW.items()],
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.ragged")
@EDGES.parametrize("ops.ragged")
def test_ragged_range_values_and_sizes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_ragged_range_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
