"""An AddN's inputs after Grappler's DedupComputations (clause function.grappler-rewrites, "Merged inputs"): inside a
tf.function two identical stateless nodes (`reduce_sum(x)` twice, or of `tf.identity(x)`, which the model pruner
bypasses first) are one node, named as the first, so the AddN's inputs sort by name with the duplicate beside it;
a node the function returns is preserved (neither merged nor merged into). The float32 sums of 4, 1e8 and -1e8 in
another order differ, so the order shows in the bits. simdist vs TF 2.21 (fz57: fz54b seed 57102 #3's loss, one
ulp apart). Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import itertools
import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _masked(tf: Any, x: Any) -> Any:
    """The fuzzer's loss term: the sum of the finite entries."""
    return tf.reduce_sum(tf.where(tf.math.is_finite(x), x, tf.zeros_like(x)))


# how the fourth term repeats the first: the same call on the same tensor, through tf.identity, the fuzzer's masked
# sum, or returned with every term (preserved: not merged)
_REPEATS: dict[str, Callable[..., Any]] = {
    "same": lambda tf, a, b, c: [tf.reduce_sum(a), tf.reduce_sum(b), tf.reduce_sum(c), tf.reduce_sum(a)],
    "identity": lambda tf, a, b, c: [tf.reduce_sum(a), tf.reduce_sum(b), tf.reduce_sum(c),
                                     tf.reduce_sum(tf.identity(a))],
    "masked": lambda tf, a, b, c: [_masked(tf, a), _masked(tf, b), _masked(tf, c), _masked(tf, tf.identity(a))],
    "second": lambda tf, a, b, c: [tf.reduce_sum(a), tf.reduce_sum(b), tf.reduce_sum(c), tf.reduce_sum(b)],
}


def _sum(tf: Any, which: str, values: tuple, returned: bool) -> list:
    """add_n of the four terms inside a tf.function (the terms also returned when `returned`): the sum's bits."""
    @tf.function
    def f(a: Any, b: Any, c: Any) -> Any:
        terms = _REPEATS[which](tf, a, b, c)
        total = tf.add_n(terms)
        return (total, terms) if returned else total
    args = [tf.constant([v, 0.0]) for v in values]
    out = f(*args)
    total = out[0] if returned else out
    return [which, float(total.numpy()).hex()]


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for which in _REPEATS:
        for values in itertools.permutations((4.0, 1e8, -1e8)):
            for returned in (False, True):
                label = f"{which}/{'_'.join(str(v) for v in values)}/{'returned' if returned else 'loss'}"
                c[label] = lambda tf, w=which, v=values, r=returned: _sum(tf, w, v, r)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz57_dedup_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_add_n_sums_merged_duplicates_in_name_order_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
