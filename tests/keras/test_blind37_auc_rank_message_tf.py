"""AUC(multi_label=True)'s rank error against Keras 3.15 on TF 2.21 (clause keras.metric.auc): Keras's AUC._build
names `y_pred.shape` as it is, a tuple for NumPy input and a TensorShape (printed as a tuple, None for an unknown
dimension) for a tensor; simdist printed a list (found writing a probe of the thirty-seventh blind batch,
docs/conformance.md). Traced, TF names the batch dimension None and wraps the error in AutoGraph's frame; simdist
builds the metric from the first call's concrete shape and raises it plainly (left open there)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _eager(shape: tuple, as_tensor: bool) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        auc = tf.keras.metrics.AUC(multi_label=True)
        y = np.full(shape, 0.5, "float32")
        labels = (np.arange(y.size).reshape(shape) % 2).astype("float32")
        if as_tensor:
            y, labels = tf.constant(y), tf.constant(labels)
        auc.update_state(labels, y)
        return float(auc.result())
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    cases: dict[str, Callable[[Any], Any]] = {}
    for shape in ((2, 3, 2), (4,), (2, 3)):
        cases[f"auc/multi_label update_state of NumPy {shape}"] = _eager(shape, False)
        cases[f"auc/multi_label update_state of a tensor {shape}"] = _eager(shape, True)
    return cases


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(auc_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.metric.auc")
def test_multi_label_auc_rank_error_names_the_shape_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("auc/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
