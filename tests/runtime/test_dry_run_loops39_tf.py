"""get_concrete_function of an input_signature whose function loops until its argument grows (tf.while_loop, or a
Python `while` on a tensor that AutoGraph converts): TF 2.21 traces cond and body once and runs nothing; simdist's dry
run on placeholder zeros looped forever before the thirty-ninth session. Clause function.traced-while-loop. Its
golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _spec_loop(tf: Any, kind: str, calls: tuple = (1.0, 30.0)) -> list:
    """The concrete function's outputs and the calls' values (the concrete function first, then the calls)."""
    def doubling(x: Any) -> Any:
        if kind == "while_loop":
            return tf.while_loop(lambda v: v < 10.0, lambda v: (v * 2.0,), [x])[0]
        if kind == "while_loop_pair":
            return tf.while_loop(lambda v, n: v < 10.0, lambda v, n: (v * 2.0, n + 1), [x, tf.constant(0)])
        while x < 10.0:
            x = x * 2.0
        return x
    f = tf.function(doubling, input_signature=[tf.TensorSpec([], tf.float32)])
    cf = f.get_concrete_function()
    out = [repr(cf.structured_outputs)]
    for v in calls:
        r = f(tf.constant(v))
        out.append([t.numpy() for t in r] if isinstance(r, (list, tuple)) else r.numpy())
    out.append([t.numpy() for t in cf(tf.constant(3.0))] if kind == "while_loop_pair" else cf(tf.constant(3.0)).numpy())
    return out


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    c["while_loop"] = lambda tf: _spec_loop(tf, "while_loop")
    c["while_loop_pair"] = lambda tf: _spec_loop(tf, "while_loop_pair")
    c["python_while"] = lambda tf: _spec_loop(tf, "python")
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(dry_run_loops_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.traced-while-loop")
def test_loops_in_a_dry_run_trace_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
