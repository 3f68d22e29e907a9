"""Numbers in kernel error messages against TF 2.21, message for message (clause ops.fuzz-raw): the
kernels build them with absl::StrCat, whose float and double text is "%g" with six significant
digits (runtime/ops/number_text.py): 1.4142135 is "1.41421" in a float32 or a float64 range, a
fake-quant attr, a pooling ratio, a histogram's value range. (The edge modules of these ops compare
error classes only.)"""

from __future__ import annotations

import os
import re
from typing import Any

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_R = 1.4142135623730951


def _cases() -> dict[str, Any]:
    return {
        "fake quant args, min above max": lambda tf: tf.raw_ops.FakeQuantWithMinMaxArgs(inputs=[1.0], min=_R, max=0.1),
        "fake quant args gradient, min above max": lambda tf: tf.raw_ops.FakeQuantWithMinMaxArgsGradient(
            gradients=[1.0], inputs=[1.0], min=123456.789, max=-2.5e-7),
        "quantize-dequantize v2, float32 range": lambda tf: tf.raw_ops.QuantizeAndDequantizeV2(
            input=[1.0], input_min=_R, input_max=0.1, range_given=True),
        "quantize-dequantize v2, float64 range": lambda tf: tf.raw_ops.QuantizeAndDequantizeV2(
            input=tf.constant([1.0], tf.float64), input_min=tf.constant(_R, tf.float64),
            input_max=tf.constant(1e-7 / 3, tf.float64), range_given=True),
        "fractional max pool, ratio above the size": lambda tf: tf.raw_ops.FractionalMaxPool(
            value=tf.ones([1, 1, 4, 1]), pooling_ratio=[1.0, _R, 1.0, 1.0], deterministic=True, seed=1, seed2=1),
        "fractional avg pool, ratio below 1": lambda tf: tf.raw_ops.FractionalAvgPool(
            value=tf.ones([1, 4, 4, 1]), pooling_ratio=[1.0, 0.333333343, 1.0, 1.0]),
        "histogram, float32 range reversed": lambda tf: tf.raw_ops.HistogramFixedWidth(
            values=[1.0], value_range=tf.constant([_R, 0.1], tf.float32), nbins=3),
        "histogram, float64 range reversed": lambda tf: tf.raw_ops.HistogramFixedWidth(
            values=tf.constant([1.0], tf.float64), value_range=tf.constant([1234567.5, np.pi], tf.float64), nbins=3),
    }


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(number_text_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.fuzz-raw")
def test_numbers_in_kernel_messages_match_tensorflow(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
