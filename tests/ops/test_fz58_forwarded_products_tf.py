"""A product tree behind a simplified op (clause function.grappler-rewrites, fz58: fz54b seed 58102 #1): inside
tf.function constant folding makes `zeros + t`, `t - zeros` and `t * ones` (t of the output's shape) an Identity of t,
the dependency optimizer removes it, and the meta optimizer's second iteration of the arithmetic optimizer groups the
product behind it with its consumer (MinimizeBroadcasts), so `(zeros + q * x) * x` of q [2, 2, 3] and x [1, 1, 3] is
q * (x * x), and tf.math.polyval([x, c, zeros, d], x) of float64 differed in the last bit (TF 2.21 observed;
simdist left the forwarded Identity a leaf of the group). The Identity or the inner product read by another op, or
returned, stays as written. Results compared as bit patterns. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(z: Any) -> list:
    a = np.asarray(z.numpy())
    return [a.dtype.str, list(a.shape), a.view(np.uint64 if a.dtype.itemsize == 8 else np.uint32).ravel().tolist()]


def _inputs(dt: str, seed: int, qshape: tuple, xshape: tuple) -> tuple:
    r = np.random.RandomState(seed)
    q = (r.randint(-4000, 4000, qshape) / 37.0).astype(dt)
    x = (r.randint(-4000, 4000, xshape) / 53.0).astype(dt)
    d = (r.randint(-4000, 4000, qshape) / 29.0).astype(dt)
    return q, x, d


_FORMS: dict[str, Callable[[Any, Any, Any, Any], Any]] = {
    "zeros_plus": lambda tf, q, x, d: d + (tf.zeros_like(q) + q * x) * x,
    "plus_zeros": lambda tf, q, x, d: d + (q * x + tf.zeros_like(q)) * x,
    "minus_zeros": lambda tf, q, x, d: (q * x - tf.zeros_like(q)) * x,
    "times_ones": lambda tf, q, x, d: ((q * x) * tf.ones_like(q)) * x,
    "polyval": lambda tf, q, x, d: tf.math.polyval([x, q, tf.zeros_like(q), d], x),
    "polyval_keep": lambda tf, q, x, d: tf.math.polyval([x, q, d, d], x),
    "returned_too": lambda tf, q, x, d: (lambda p: (p * x, p))(tf.zeros_like(q) + q * x),
    "inner_read_too": lambda tf, q, x, d: (lambda m: ((tf.zeros_like(q) + m) * x, m + 1))(q * x),
}


def _case(form: str, dt: str, seed: int, qshape: tuple, xshape: tuple) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        q, x, d = (tf.constant(v) for v in _inputs(dt, seed, qshape, xshape))
        fn = tf.function(lambda q, x, d: _FORMS[form](tf, q, x, d))
        got = fn(q, x, d)
        return [_bits(t) for t in (got if isinstance(got, tuple) else (got,))]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c = {}
    for form in _FORMS:
        for dt in ("float64", "float32"):
            for seed, qs, xs in ((0, (2, 2, 3), (1, 1, 3)), (1, (4, 64), (64,)), (2, (3, 1, 50), (1, 50))):
                c[f"{form}/{dt}/s{seed}"] = _case(form, dt, seed, qs, xs)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz58_fwd_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_a_product_behind_a_simplified_op_is_grouped_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
