"""A float sum or mean over a tensor that another op left as a strided NumPy view (depthwise_conv2d's output,
a transpose) in Eigen's order, whatever the view's memory layout (clause ops.packet-paths, fz61: the third generator's
seed 61301, `tf.image.ssim(..., filter_size=3)` one or two ulps off, eagerly and traced). simdist's planned Sum
(sum_order.eigen_order_sum) ran its plan's NumPy reductions on the view as it was, whose pairwise inner loops follow
the strides: `reduce_mean(depthwise_conv2d(x, k), [1, 2])` differed from the same values held contiguously, which
TF 2.21 and simdist sum alike (/work/wt/fz61_logs/q_ssim2.py, q_ssim3.py). Compared as bit patterns. Its golden
(tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_FORMS = ("depthwise_mean", "depthwise_sum", "transpose_sum", "transpose_mean_inner", "ssim", "ssim_traced")
_SHAPES = ((1, 16, 16, 3), (2, 12, 12, 1), (1, 20, 20, 4), (2, 9, 9, 3))


def _case(form: str, shape: tuple, fs: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(sum(shape) * 7 + fs)
        x = tf.constant((np.round(r.uniform(0, 1, shape) * 256) / 256).astype(np.float32))
        k = tf.constant(r.uniform(0, 1, (fs, fs, shape[-1], 1)).astype(np.float32))
        if form.startswith("depthwise"):
            y = tf.nn.depthwise_conv2d(x * x, k, strides=[1, 1, 1, 1], padding="VALID")
            out = (tf.reduce_mean if form.endswith("mean") else tf.reduce_sum)(y, [-3, -2])
        elif form == "transpose_sum":
            out = tf.reduce_sum(tf.transpose(x, [0, 2, 1, 3]) * 1.5, [0, 1])
        elif form == "transpose_mean_inner":
            out = tf.reduce_mean(tf.transpose(x, [3, 1, 2, 0]), [1, 2])
        else:
            f = lambda a, b: tf.image.ssim(a, b, 1.0, filter_size=fs)   # noqa: E731
            out = (tf.function(f) if form == "ssim_traced" else f)(x, tf.image.adjust_brightness(x, 0.1))
        return [np.asarray(out.numpy()).reshape(-1).view(np.uint32).tolist()]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{form}/{shape}/{fs}": _case(form, shape, fs) for form in _FORMS for shape in _SHAPES for fs in (3, 5)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz61_sum_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_sum_of_a_strided_view_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
