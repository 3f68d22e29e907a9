"""MulNoNan and Xdivy by a constant of ones inside a tf.function (clause function.grappler-rewrites): constant
folding simplifies MulNoNan of ones as a Mul (IsAnyMul), and Xdivy(x, ones) is MulNoNan(Reciprocal(ones), x), so
the result is x itself (or x broadcast), its subnormals kept where the kernel, which reads them as zeros, gives
0: `xdivy(-1e-310, 1.0)` of float64 is -1e-310 in a tf.function and 0 eagerly. simdist vs TF 2.21, bits compared,
eagerly and in a tf.function (fz57: fz54b seed 57104 #4). Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_CALLS: dict[str, Callable[..., Any]] = {
    "xdivy_scalar_one": lambda tf, x: tf.math.xdivy(x, tf.constant(1.0, x.dtype)),
    "xdivy_ones": lambda tf, x: tf.math.xdivy(x, tf.ones([1, 4], x.dtype)),
    "xdivy_ones_broadcast": lambda tf, x: tf.math.xdivy(x, tf.ones([2, 4], x.dtype)),
    "xdivy_two": lambda tf, x: tf.math.xdivy(x, tf.constant(2.0, x.dtype)),
    "mul_no_nan_ones_right": lambda tf, x: tf.math.multiply_no_nan(x, tf.ones([1, 4], x.dtype)),
    "mul_no_nan_ones_left": lambda tf, x: tf.math.multiply_no_nan(tf.ones([1, 4], x.dtype), x),
    "mul_no_nan_ones_broadcast": lambda tf, x: tf.math.multiply_no_nan(x, tf.ones([3, 1, 4], x.dtype)),
    "mul_no_nan_half": lambda tf, x: tf.math.multiply_no_nan(x, tf.constant(0.5, x.dtype)),
}
_VALUES = {"float64": [[-1e-310, 2.5, 0.0, 1e-300]], "float32": [[-1e-40, 2.5, -0.0, 1e-39]]}


def _run(tf: Any, which: str, dtype: str) -> Any:
    x = tf.constant(_VALUES[dtype], getattr(tf, dtype))
    fn = _CALLS[which]
    eager = fn(tf, x).numpy()
    graph = tf.function(lambda t: fn(tf, t))(x).numpy()
    return [eager.tobytes().hex(), graph.tobytes().hex(), list(graph.shape)]


TABLE = case_results.Table(__file__, {f"{w}/{d}": (lambda tf, w=w, d=d: _run(tf, w, d))
                                      for w in _CALLS for d in _VALUES}, re.compile(r"(fz57_mnn_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_mul_no_nan_by_ones_is_simplified_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
