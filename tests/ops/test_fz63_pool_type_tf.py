"""tf.nn.pool's pooling_type read first (clause ops.argument-errors, fz63: fz62's open G, fz62gen seeds 63402 #4,
63403 #1 and #7, 63404 #2). TF 2.21's nn_ops.pool opens its name scope "%s_pool" % pooling_type.lower() before it
converts the input or checks anything, so a pooling_type without `lower` (a tensor, a number, None) is that
AttributeError whatever the other arguments; simdist checked the input and window first (TypeError, ValueError).
Compared: values or the exception class."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _case(form: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x = tf.reshape(tf.range(16, dtype=tf.float32), [1, 4, 4, 1])
        calls = {
            "tensor_type": lambda: tf.nn.pool(x, [2, 2], tf.constant(1.0)),
            "int_type": lambda: tf.nn.pool(x, [2, 2], 3),
            "none_type": lambda: tf.nn.pool(x, [2, 2], None),
            "vector_input_tensor_type": lambda: tf.nn.pool(tf.constant([2, 1, 2]), [2], tf.constant(1)),
            "bad_window_tensor_type": lambda: tf.nn.pool(x, tf.constant([[1.0]]), tf.constant(1, tf.uint8)),
            "complex_window": lambda: tf.nn.pool(tf.constant([5], tf.uint8), x, tf.constant([-1.5, 1.0]),
                                                 strides=[3, 3, 2], padding="SAME", data_format="NHWC"),
            "max": lambda: tf.nn.pool(x, [2, 2], "MAX"),
            "avg_same": lambda: tf.nn.pool(x, [2, 2], "AVG", padding="SAME"),
            "lower_max": lambda: tf.nn.pool(x, [2, 2], "max"),
            "bad_rank": lambda: tf.nn.pool(tf.ones([4, 4]), [2, 2], "AVG"),
        }
        try:
            r = calls[form]()
        except Exception as e:  # noqa: BLE001 - the class is the result compared
            return ["error", type(e).__name__]
        return [r.dtype.name, list(r.shape), np.asarray(r.numpy()).ravel().tolist()]
    return run


_FORMS = ("tensor_type", "int_type", "none_type", "vector_input_tensor_type", "bad_window_tensor_type",
          "complex_window", "max", "avg_same", "lower_max", "bad_rank")
TABLE = case_results.Table(__file__, {f: _case(f) for f in _FORMS}, re.compile(r"(fz63_pool_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.argument-errors")
def test_pool_reads_its_pooling_type_first_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
