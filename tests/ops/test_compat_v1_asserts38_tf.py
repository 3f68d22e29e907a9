"""tf.compat.v1's assertions (check_ops' v1 forms: `data` printed in place of the default message data, the v1
argument orders, assert_scalar returning its tensor, verify_tensor_all_finite's deprecated arguments,
assert_variables_initialized) and tf.compat.v1.debugging's v1-only names, on simdist vs TF 2.21, eagerly and inside
a tf.function where the assertion holds; and tf.debugging's v2 argument orders where they differ from v1
(assert_none_equal's summarize before message; assert_rank_at_least and assert_rank_in without data). Clause
ops.debugging-checks. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
from case_wrappers import error_class
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _xy(tf: Any) -> tuple:
    return tf.constant([1, 2, 3]), tf.constant([1, 5, 3])


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for op in ("assert_equal", "assert_less", "assert_greater", "assert_less_equal", "assert_greater_equal",
               "assert_none_equal"):
        c[f"binary/{op}/data"] = lambda tf, o=op: getattr(tf.compat.v1, o)(*_xy(tf), data=["hello", _xy(tf)[0], 7.5])
        c[f"binary/{op}/data_message"] = lambda tf, o=op: getattr(tf.compat.v1, o)(
            *_xy(tf), data=["d", tf.range(6)], message="M", summarize=2)
        c[f"binary/{op}/positional"] = lambda tf, o=op: getattr(tf.compat.v1, o)(*_xy(tf), ["p", _xy(tf)[1]], 1, "M")
        c[f"binary/{op}/default"] = lambda tf, o=op: getattr(tf.compat.v1, o)(*_xy(tf), message="M", summarize=1)
        c[f"binary/{op}/negative_summarize"] = lambda tf, o=op: getattr(tf.compat.v1, o)(
            *_xy(tf), data=[tf.range(10)], summarize=-1)
        c[f"binary/{op}/debugging"] = lambda tf, o=op: getattr(tf.compat.v1.debugging, o)(*_xy(tf), data=["dbg"])
    c["binary/holds"] = lambda tf: [tf.compat.v1.assert_equal(_xy(tf)[0], _xy(tf)[0], data=["a"]),
                                    tf.compat.v1.assert_less(1, 2, data=["a"])]
    for op in ("assert_positive", "assert_negative", "assert_non_positive", "assert_non_negative"):
        c[f"unary/{op}/data"] = lambda tf, o=op: getattr(tf.compat.v1, o)(tf.constant([1, -1, 0]), data=["d", 2.5],
                                                                            message="M")
        c[f"unary/{op}/positional"] = lambda tf, o=op: getattr(tf.compat.v1, o)(tf.constant([1, -1, 0]), ["q"], 1)
        c[f"unary/{op}/default"] = lambda tf, o=op: getattr(tf.compat.v1, o)(tf.constant([1, -1, 0]), message="M")
    c["near/data"] = lambda tf: tf.compat.v1.assert_near(tf.constant([1.0]), tf.constant([2.0]), data=["x", 3],
                                                         message="M")
    c["near/default"] = lambda tf: tf.compat.v1.assert_near(tf.constant([1.0]), tf.constant([2.0]), 0.1, 0.1, None, 2,
                                                            "M")
    c["near/holds"] = lambda tf: tf.compat.v1.assert_near(tf.constant([1.0]), tf.constant([1.0]), data=["x"])
    for op, arg in (("assert_rank", 2), ("assert_rank_at_least", 2), ("assert_rank_in", [2, 3])):
        c[f"rank/{op}/v1"] = lambda tf, o=op, a=arg: getattr(tf.compat.v1, o)(_xy(tf)[0], a, ["zz"], 3, "M")
        c[f"rank/{op}/v2_positional_message"] = lambda tf, o=op, a=arg: getattr(tf.debugging, o)(_xy(tf)[0], a, "M")
    c["rank/holds"] = lambda tf: tf.compat.v1.assert_rank(_xy(tf)[0], 1, data=["zz"])
    c["v2/none_equal_positional"] = lambda tf: tf.debugging.assert_none_equal(*_xy(tf), 1, "M")
    c["scalar/v1_fails"] = lambda tf: tf.compat.v1.assert_scalar(_xy(tf)[0], "nm", "M")
    c["scalar/v1_returns"] = lambda tf: tf.compat.v1.assert_scalar(tf.constant(1.5))
    c["scalar/v2_returns"] = lambda tf: tf.debugging.assert_scalar(tf.constant(1.5))
    c["integer"] = lambda tf: tf.compat.v1.assert_integer(tf.constant(1.0), message="M")
    c["type"] = lambda tf: tf.compat.v1.assert_type(_xy(tf)[0], tf.float32, message="M")
    c["verify/nan"] = lambda tf: tf.compat.v1.verify_tensor_all_finite(tf.constant([1.0, float("nan")]), "bad")
    c["verify/ok"] = lambda tf: tf.compat.v1.verify_tensor_all_finite(x=tf.constant([1.0]), message="bad")
    c["verify/both"] = lambda tf: tf.compat.v1.verify_tensor_all_finite(t=tf.constant([1.0]), x=tf.constant([1.0]))
    c["verify/both_messages"] = lambda tf: tf.compat.v1.verify_tensor_all_finite(tf.constant([1.0]), msg="a",
                                                                                 message="b")
    c["verify/debugging_alias"] = lambda tf: tf.compat.v1.debugging.assert_all_finite(
        tf.constant([float("inf")]), "inf here")
    c["variables_initialized/none"] = lambda tf: tf.compat.v1.assert_variables_initialized()
    c["variables_initialized/eager"] = lambda tf: tf.compat.v1.assert_variables_initialized([tf.Variable(1.0)])
    c["variables_initialized/function"] = error_class(lambda tf: (lambda v, w: tf.function(
        lambda: tf.compat.v1.assert_variables_initialized([v, w]))())(tf.Variable(1.0), tf.Variable([[1.0]])))
    c["variables_initialized/graph_tensors"] = lambda tf: tf.function(
        lambda a, b: tf.compat.v1.assert_variables_initialized([a * 2, b]))(tf.constant(1.0), tf.constant([[1.0]]))
    c["debugging/aliases"] = lambda tf: [getattr(tf.compat.v1.debugging, n)(tf.constant([1.0, float("inf"), 3.0]))
                                         for n in ("is_finite", "is_inf", "is_nan", "is_non_decreasing",
                                                   "is_strictly_increasing")]
    c["debugging/is_numeric"] = lambda tf: [tf.compat.v1.debugging.is_numeric_tensor(v) for v in (
        tf.constant(1), tf.constant("a"), tf.constant(True), 3, tf.Variable(1.0), tf.constant(1, tf.uint32),
        tf.constant(1, tf.bfloat16), tf.constant(1j))]
    c["function/holds"] = lambda tf: tf.function(lambda a: [tf.compat.v1.assert_equal(a, a, data=["hi", a]) is None,
                                                            a + 1][1])(tf.constant([1, 2]))
    c["function/positive_holds"] = lambda tf: tf.function(
        lambda a: tf.identity(tf.compat.v1.assert_scalar(a)) * 2)(tf.constant(3))
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(v1asserts_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.debugging-checks")
@pytest.mark.parametrize("prefix", ["binary/", "unary/", "near/", "rank/", "v2/", "scalar/", "integer", "type",
                                    "verify/", "variables_initialized/", "debugging/", "function/"])
def test_compat_v1_assertions_match_tf(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
