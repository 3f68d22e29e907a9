"""A product with `pow(x, 3)` inside a tf.function: ConvertPowStage's rewrite is one MinimizeBroadcasts group with the
rest of the product (clause function.grappler-rewrites, fz62: fz61's open half-type tanh gelu). TF 2.21's Grappler
rewrites `Pow(x, 3)` as Mul(x, Square(x)), the Mul keeping the Pow's name and the Square named
`<scope>/ArithmeticOptimizer/ConvertPow__inner_<Pow>`; a product `c * pow(x, 3)` is then a group whose leaves
MinimizeBroadcasts multiplies smallest first: (c * Square(x)) * x, in float16 and bfloat16 as in float32
(/work/wt/fz62_logs/q/q_pd_g.py: the optimized graphs; q_gelu_c.py: TF's traced gelu is that chain eagerly). simdist
left the inner Square unnamed, so the group refused it and the half types (which ConstantPushDown skips) kept
c * (x * Square(x)): `tf.nn.gelu(x, approximate=True)` of float16 was 35 of 63,488 values apart, bfloat16 32
(q_gelu_n.py). Compared as bit patterns. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_FORMS = ("gelu_tanh", "const_times_pow", "pow_times_const", "pow_scalar_tensor", "pow_in_sum", "square_chain")
_DTYPES = ("float16", "bfloat16", "float32", "float64")


def _form(tf: Any, form: str, v: Any) -> Any:
    if form == "gelu_tanh":
        return tf.nn.gelu(v, approximate=True)
    if form == "const_times_pow":
        return tf.cast(0.044715, v.dtype) * tf.math.pow(v, 3)
    if form == "pow_times_const":
        return tf.math.pow(v, 3) * 0.7
    if form == "pow_scalar_tensor":
        return tf.math.pow(v, tf.constant(3.0, v.dtype)) * tf.constant(1.3, v.dtype)
    if form == "pow_in_sum":
        return v + 0.25 * tf.math.pow(v, 3)
    return 0.3 * (v * tf.math.square(v))   # (grouped before the fix too)


def _case(form: str, dtype: str, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        x = tf.cast(tf.constant((np.round(r.uniform(-4, 4, [512]) * 256) / 256).astype(np.float32)), dtype)
        out = tf.function(lambda v: _form(tf, form, v))(x)
        return [np.asarray(tf.cast(out, tf.float64).numpy()).view(np.uint64).tolist()]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{form}/{dt}/{seed}": _case(form, dt, seed) for form in _FORMS for dt in _DTYPES for seed in (1, 2)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz62_pow_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_pow_three_joins_its_product_group_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
