"""The shape of an integer or bool Sum of a scalar with keepdims (clause ops.packet-paths, fz62: fz54b seed 62106 #0,
`tf.math.count_nonzero(scalar, axis=None, keepdims=True)` of shape [1] where TF 2.21 gives a scalar). fz61's layout
fix held the summed array contiguously with np.ascontiguousarray, which makes a 0-d array 1-d, on the path integer
and bool sums take (float sums of one element are a copy before it); so `reduce_sum(int_scalar, keepdims=True)`,
count_nonzero and everything built on them were [1]. Compared: shape, dtype and value, eagerly and traced."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_DTYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "bfloat16",
           "float32", "float64", "complex64", "bool")
_FORMS = ("sum_keep", "sum_keep_empty_axis", "count_nonzero_keep", "count_nonzero_keep_int32", "sum_vector_keep",
          "mean_keep")


def _case(form: str, dtype: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x = tf.constant(True) if dtype == "bool" else tf.cast(tf.constant(3), dtype)

        def f(v: Any) -> Any:
            if form == "sum_keep":
                return tf.reduce_sum(v, keepdims=True)
            if form == "sum_keep_empty_axis":
                return tf.reduce_sum(v, axis=[], keepdims=True)
            if form == "count_nonzero_keep":
                return tf.math.count_nonzero(v, axis=None, keepdims=True)
            if form == "count_nonzero_keep_int32":
                return tf.math.count_nonzero(v, keepdims=True, dtype=tf.int32)
            if form == "sum_vector_keep":
                return tf.reduce_sum(tf.stack([v, v]), keepdims=True)
            return tf.reduce_mean(v, keepdims=True)
        try:
            out = (tf.function(f) if traced else f)(x)
        except Exception as e:  # noqa: BLE001 - the class is compared
            return ["error", type(e).__name__]
        a = np.asarray(tf.cast(out, tf.float64).numpy() if out.dtype != tf.bool else out.numpy())
        return [list(out.shape), out.dtype.name, a.ravel().tolist()]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{form}/{dt}/{'fn' if tr else 'eager'}": _case(form, dt, tr)
            for form in _FORMS for dt in _DTYPES for tr in (False, True)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz62_ssk_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_scalar_sums_keep_a_scalar_shape_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
