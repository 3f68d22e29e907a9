"""A dense operand broadcast against a RaggedTensor, under a GradientTape (clause ops.ragged, broadcasting):
where the operand's first dimension is the last ragged one (`ragged + [0.25]`, `ragged * [[1.0, 2.0, 3.0]]` of
flat values [n, 3]), TF 2.21's DynamicRaggedShape gathers the operand itself, so its gradient is Gather's
IndexedSlices (indices: each flat value's position, 0 for a dimension of size 1); a scalar, or an operand of more
dimensions (reshaped first), has a dense gradient. simdist vs TF 2.21 (fz57: fz55b seeds 57201 #0 and 57202 #7,
whose tape gradient was a dense tensor where TF's was an IndexedSlices). Its golden (tests/goldens/) is stamped with
this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "add": lambda a, b: a + b, "radd": lambda a, b: b + a, "mul": lambda a, b: a * b,
}


def _grad(tf: Any, rt: Callable[[Any], Any], dense: Any, op: str) -> Any:
    """The tape gradient of the sum of op(rt, dense)'s flat values with respect to dense."""
    x = rt(tf)
    y = tf.constant(dense)
    with tf.GradientTape() as tape:
        tape.watch(y)
        z = _OPS[op](x, y)
        s = tf.reduce_sum(z.flat_values)
    return tape.gradient(s, y)


_RAGGED: dict[str, Callable[[Any], Any]] = {
    "rows_6_0": lambda tf: tf.RaggedTensor.from_row_lengths(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), [6, 0]),
    "rows_2_4": lambda tf: tf.RaggedTensor.from_row_lengths(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), [2, 4]),
    "rows_3_3": lambda tf: tf.RaggedTensor.from_row_lengths(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), [3, 3]),
    "inner_3": lambda tf: tf.RaggedTensor.from_row_lengths(
        tf.reshape(tf.range(12.0), [4, 3]), [1, 3]),
    "nested": lambda tf: tf.RaggedTensor.from_nested_row_lengths(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]),
                                                                   [[2, 1], [2, 0, 3]]),
}
_DENSE = {"rows_6_0": ([0.25], 0.25, [[0.25]], [[0.25], [0.5]]),
          "rows_2_4": ([0.25], [[0.5]], [[0.25], [0.5]]),
          "rows_3_3": ([0.25, 0.5, 0.75], [0.5], [[0.25, 0.5, 0.75]]),
          "inner_3": ([[1.0, 2.0, 3.0]], [[0.5]], [0.5, 1.5, 2.5], [[[0.5]]]),
          "nested": ([0.25], [[0.5]], 2.0)}


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for name, dense in _DENSE.items():
        for k, d in enumerate(dense):
            for op in _OPS:
                c[f"{name}/{k}/{op}"] = lambda tf, n=name, d=d, op=op: _grad(tf, _RAGGED[n], d, op)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz57_ragged_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.ragged")
def test_dense_operand_gradient_is_tf_s_gather_or_dense(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
