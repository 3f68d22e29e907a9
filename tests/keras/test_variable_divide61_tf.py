"""A Keras variable's `/` against Keras 3.15 on TF 2.21 (clause keras.variable): KerasVariable.__truediv__ and
__rtruediv__ are backend.numpy.true_divide, which casts both operands to `result_type(a, b, float)` before
tf.divide, so an int32, int64, uint8 or bool variable divides in float32 (a Python int, an int tensor, another
int variable beside it), not in TF's float64 quotient of ints (and a bool variable divides at all). simdist took
the integer operands to tf.divide as they were: float64 results, and TypeError for bool. Found by blind61a's
probes (docs/conformance.md, sixty-first session)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _divide(dtype: str, values: list, other: Any, reflected: bool = False) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        v = tf.keras.Variable(np.array(values, dtype))
        o = other(tf) if callable(other) else other
        return o / v if reflected else v / o
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {
        "int32 / 2": _divide("int32", [3, 4], 2),
        "int32 / 2.5": _divide("int32", [3, 4], 2.5),
        "2 / int32": _divide("int32", [3, 4], 2, reflected=True),
        "3.0 / int64": _divide("int64", [3, 4], 3.0, reflected=True),
        "int32 / int32 tensor": _divide("int32", [3, 4], lambda tf: tf.constant([2, 3])),
        "int32 / int64 tensor": _divide("int32", [3, -7], lambda tf: tf.constant([2, 3], tf.int64)),
        "int32 / float64 tensor": _divide("int32", [3, 4], lambda tf: tf.constant([2.0, 3.0], tf.float64)),
        "int64 / 3": _divide("int64", [1, 4], 3),
        "uint8 / 2": _divide("uint8", [3, 255], 2),
        "bool / 2": _divide("bool", [True, False], 2),
        "float16 / 3": _divide("float16", [1.5, 3.0], 3),
        "float16 / float32 tensor": _divide("float16", [1.5, 3.0], lambda tf: tf.constant([2.0, 4.0])),
        "int32 / -2": _divide("int32", [3, -5], -2),
    }


TABLE = case_results.Table(__file__, _cases(), re.compile(r"((?:variable)_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.variable")
def test_keras_variable_true_division_promotes_to_float(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
