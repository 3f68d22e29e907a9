"""softmax_cross_entropy_with_logits of empty logits (clause nn.loss-formulas): nn_ops._flatten_outer_dims reshapes to [-1, last], and Reshape's kernel infers -1 without the
input's zero dimensions when the last one is 0, so [0, 0] flattens to [1, 0] and [0, 2, 0] to [2, 0]; the cost's
reshape back to the outer shape then raises InvalidArgumentError ("Input to reshape is a tensor with 1 values, but
the requested shape has 0"), where simdist returned an empty cost. simdist vs TF 2.21 (fz57: fz54b seed 57103 #4).
Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_SHAPES = ([0, 0], [2, 0], [0, 3], [0], [3, 0, 2], [0, 2, 0], [3, 0, 0], [2, 3, 0], [1, 0], [0, 1, 0])


def _xent(tf: Any, shape: list, dtype: str, axis: int) -> Any:
    x = tf.zeros(shape, getattr(tf, dtype))
    return tf.nn.softmax_cross_entropy_with_logits(x, x, axis=axis)


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for shape in _SHAPES:
        for dtype in ("float32", "bfloat16", "float16", "float64"):
            c[f"{shape}/{dtype}"] = lambda tf, s=shape, d=dtype: _xent(tf, s, d, -1)
        if len(shape) > 1:
            c[f"{shape}/float32/axis0"] = lambda tf, s=shape: _xent(tf, s, "float32", 0)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz57_xent_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("nn.loss-formulas")
def test_empty_logits_flatten_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
