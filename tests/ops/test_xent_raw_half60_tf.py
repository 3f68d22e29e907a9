"""The raw SoftmaxCrossEntropyWithLogits kernel of the half types (clause nn.softmax-eigen): its dense loss
sum(labels · (log(sum) − shifted)) is Eigen's SumReducer along the classes in the half type, each addition rounded to
float16/bfloat16, as the row sums of exp(shifted) are (losses.py `_class_sums`), not NumPy's sum. simdist's NumPy sum
left 18 of 68 seeded float16 and bfloat16 losses an ulp off TF 2.21 (/work/wt/blind60b_logs/xent16.py, found by the
seventy-ninth blind batch's probe of its backprop mutant); the backprops agreed. Reached by tf.raw_ops (tf.nn's
wrapper computes the half types in float32). Cases: losses and backprops of 1 to 17 rows of 2 to 100 classes, logits
of three scales, labels normalized or not, as float32 bit patterns. Its golden (tests/goldens/) is stamped with this
file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(t: Any, tf: Any) -> list:
    return np.asarray(tf.cast(t, tf.float32).numpy(), np.float32).view(np.uint32).ravel().tolist()


def _raw(seed: int, rows: int, classes: int, dtype: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        logits = (r.randn(rows, classes) * r.choice([1.0, 4.0, 30.0])).astype(np.float32)
        labels = r.rand(rows, classes).astype(np.float32)
        if seed % 2:
            labels = labels / labels.sum(1, keepdims=True)
        loss, back = tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=tf.cast(tf.constant(logits), dtype),
                                                              labels=tf.cast(tf.constant(labels), dtype))
        return [loss.dtype.name, _bits(loss, tf), _bits(back, tf)]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for dtype in ("float16", "bfloat16"):
        for seed, rows, classes in ((0, 8, 7), (1, 16, 3), (2, 5, 20), (3, 4, 33), (4, 3, 100), (5, 1, 2),
                                    (6, 17, 9), (7, 2, 64)):
            c[f"raw/{dtype}/s{seed}-{rows}x{classes}"] = _raw(seed, rows, classes, dtype)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(xent_raw_half60_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("nn.softmax-eigen")
def test_raw_half_cross_entropy_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
