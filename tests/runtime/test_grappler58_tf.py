"""MinimizeBroadcasts past a simplified `x + zeros` or `x * ones` (clause function.grappler-rewrites): constant
folding forwards x through an Identity, which the dependency optimizer removes before Grappler's second round, so
the Muls on either side form one group there. TF 2.21 computes polyval's Horner step `0 + p * x` followed by
`g + (p * x) * x` as g + p * (x * x) inside a tf.function (fz54b seed 58102 #1: 2 of 12 float64 values a last bit
apart). simdist stopped the group at the Identity. Cases: polyval with a zero coefficient, products around an added
zero or a multiplied one (constants), float64 and float32, traced, as bit patterns. Open: `q + zeros_like(q)`, whose
ZerosLike reads the product itself (TF folds it first; simdist counts it as the product's second consumer). Its golden (tests/goldens/) is stamped with
this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(t: Any) -> list:
    a = t.numpy()
    return a.ravel().view(np.uint64 if a.dtype == np.float64 else np.uint32).tolist()


def _polyval(tf: Any, dtype: str) -> Any:
    x = tf.constant(np.array([-5.602, -0.5, -2.75]).reshape([1, 1, 3]), dtype)
    c1 = tf.constant(np.array([-8.454, 0.5, 1.25, 0.75]).reshape([2, 2, 1]), dtype)
    z = tf.constant(np.array([-1.5, -0.3, -0.0, -4.326, -27.192, 20.267]).reshape([2, 3]), dtype)
    g = tf.constant(np.array([3.75, -1.399, -5.052, -13.641, -0.5, -0.75]).reshape([2, 3]), dtype)
    f = tf.function(lambda x, c1, z, g: tf.math.polyval([x, c1, tf.zeros_like(z), g], x))
    return _bits(f(x, c1, z, g))


def _around(tf: Any, dtype: str, kind: str) -> Any:
    r = np.random.RandomState(58)
    p = tf.constant(r.randn(2, 2, 3) * 7, dtype)
    x = tf.constant(r.randn(1, 1, 3) * 3, dtype)
    g = tf.constant(r.randn(2, 3), dtype)

    def body(p: Any, x: Any, g: Any) -> Any:
        q = p * x
        q = q + tf.zeros([2, 2, 3], q.dtype) if kind == "zeros" else q * tf.ones([2, 2, 3], q.dtype)
        return g + q * x
    return _bits(tf.function(body)(p, x, g))


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for dt in ("float64", "float32"):
        c[f"polyval/{dt}"] = lambda tf, dt=dt: _polyval(tf, dt)
        for kind in ("zeros", "ones"):
            c[f"around-{kind}/{dt}"] = lambda tf, dt=dt, kind=kind: _around(tf, dt, kind)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(grappler58_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_min_broadcasts_past_forwarded_identities_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
