"""The check-numerics callback's error for a 0-d bfloat16 output against TF 2.21 (clause ops.check-numerics-callback):
while tf.debugging.enable_check_numerics() is on, every op making a 0-d bfloat16 output raises the callback's
ValueError "object __array__ method not producing an array" (TF formats its message with NumPy's isinf of the eager
tensor, which fails for a 0-d bfloat16 one), binary ops (x * 2, tf.add, //, %, squared_difference) as much as unary
ones; SAFE_OPS (Maximum) and non-scalar outputs pass. simdist's binary ops turned the callback's ValueError into
their own InvalidArgumentError "... [Op:Mul]". Seen probing the seed-7 mutation sweep's survivor at
numerics_callback.py:95 (docs/conformance.md, thirtieth session)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _checked(f: Callable[[Any, Any, Any], Any]) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        s, v = tf.constant(1.5, tf.bfloat16), tf.constant([1.5, 2.0], tf.bfloat16)
        tf.debugging.enable_check_numerics()
        try:
            return f(tf, s, v)
        finally:
            tf.debugging.disable_check_numerics()
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {
        "binary/s * 2": _checked(lambda tf, s, v: s * 2),
        "binary/2 + s": _checked(lambda tf, s, v: 2 + s),
        "binary/tf.add(s, s)": _checked(lambda tf, s, v: tf.add(s, s)),
        "binary/s - s": _checked(lambda tf, s, v: s - s),
        "binary/s / s": _checked(lambda tf, s, v: s / s),
        "binary/s ** 2": _checked(lambda tf, s, v: s ** 2),
        "binary/s // s": _checked(lambda tf, s, v: s // s),
        "binary/s % s": _checked(lambda tf, s, v: s % s),
        "binary/squared_difference(s, s)": _checked(lambda tf, s, v: tf.math.squared_difference(s, s)),
        "binary/v * s": _checked(lambda tf, s, v: v * s),
        "binary/maximum(s, s)": _checked(lambda tf, s, v: tf.maximum(s, s)),
        "other/-s": _checked(lambda tf, s, v: -s),
        "other/exp(s)": _checked(lambda tf, s, v: tf.exp(s)),
        "other/reduce_sum(v)": _checked(lambda tf, s, v: tf.reduce_sum(v)),
        "other/cast to bfloat16": _checked(lambda tf, s, v: tf.cast(tf.constant(1.0), tf.bfloat16)),
        "other/v * 2": _checked(lambda tf, s, v: v * 2),
    }


_AUTO_NAME = re.compile(r"(tensor_)\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.check-numerics-callback")
@pytest.mark.parametrize("prefix", ["binary/", "other/"])
def test_scalar_bfloat16_outputs_raise_the_callbacks_value_error(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
