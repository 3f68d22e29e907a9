"""tf.ragged_fill_empty_rows and tf.ragged_fill_empty_rows_grad (TF 2.21's generated wrappers of RaggedFillEmptyRows
and its gradient: positional or keyword inputs, their namedtuples, the kernel's checks) and tf.AggregationMethod's
constants, on simdist vs TF 2.21. Clause ops.ragged. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _fill(tf: Any, rowids: list, values: list, nrows: int, default: float = -1.0, **kw: Any) -> Any:
    r = tf.ragged_fill_empty_rows(tf.constant(rowids, tf.int64), tf.constant(values, **kw), tf.constant(nrows, tf.int64),
                                  tf.constant(default, **kw))
    return [type(r).__name__, list(r._fields), list(r)]


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    c["fill/basic"] = lambda tf: _fill(tf, [1, 1, 3], [1., 2., 3.], 5)
    c["fill/none_empty"] = lambda tf: _fill(tf, [0, 1, 2], [1., 2., 3.], 3)
    c["fill/all_empty"] = lambda tf: _fill(tf, [], [], 3, dtype=tf.float32)
    c["fill/int"] = lambda tf: _fill(tf, [0, 2], [7, 8], 4, 0, dtype=tf.int32)
    c["fill/keywords"] = lambda tf: list(tf.ragged_fill_empty_rows(
        value_rowids=tf.constant([2], tf.int64), values=tf.constant(["a"]), nrows=tf.constant(3, tf.int64),
        default_value=tf.constant("z")))
    c["fill/default_dtype"] = lambda tf: tf.ragged_fill_empty_rows(
        tf.constant([0], tf.int64), tf.constant([1.0]), tf.constant(2, tf.int64), tf.constant(0))
    c["grad/basic"] = lambda tf: list(tf.ragged_fill_empty_rows_grad(tf.constant([0, 1, 2, 0], tf.int64),
                                                                     tf.constant([1., 2., 3., 4., 5.])))
    c["grad/fields"] = lambda tf: list(tf.ragged_fill_empty_rows_grad(tf.constant([1], tf.int64),
                                                                      tf.constant([1., 2.]))._fields)
    c["aggregation_method"] = lambda tf: [tf.AggregationMethod.ADD_N, tf.AggregationMethod.DEFAULT,
                                          tf.AggregationMethod.EXPERIMENTAL_TREE,
                                          tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N]
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(gen_wrappers_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.ragged")
def test_generated_wrappers_match_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
