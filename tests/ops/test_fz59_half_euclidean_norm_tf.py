"""float16 reduce_euclidean_norm (clause ops.sum-order, fz59: fz54b seed 59202 #3, `reduce_euclidean_norm(v,
axis=[0, 1, 3])` of a [4, 4, 2, 2] float16 input one ulp apart, eager and traced). TF's EuclideanNormReducer is
`(in * in).reduce(SumReducer<half>).sqrt()`: each square rounded to float16, the squares added in Eigen's SumReducer
order with every addition rounded as float16's reduce_sum adds, then a float16 square root; simdist added the float16
squares in NumPy's order. Shapes and axes across the reducer's paths (a full reduction, rows, columns, the middle
axis, runs apart, more than 8 elements a slice). Results compared as bit patterns. Its golden (tests/goldens/) is
stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_SHAPES = (((4, 4, 2, 2), [0, 1, 3]), ((4, 4, 2, 2), None), ((37,), None), ((5, 19), 1), ((19, 5), 0),
           ((3, 17, 4), 1), ((6, 3, 10), [0, 2]), ((2, 3, 4, 5), [1, 3]), ((64, 3), 0), ((3, 70), 1),
           ((8, 8), [0, 1]), ((2, 2, 33), -1))


def _case(i: int, mode: str, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        shape, axis = _SHAPES[i]
        r = np.random.RandomState(seed * 100 + i)
        x = tf.constant((r.randint(-3000, 3000, shape) / 113.0).astype(np.float16))

        def f(t: Any) -> Any:
            return tf.math.reduce_euclidean_norm(t, axis=axis)
        out = f(x) if mode == "eager" else tf.function(f, autograph=False)(x)
        return np.asarray(out.numpy(), np.float16).view(np.uint16).ravel().tolist()
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{'x'.join(map(str, _SHAPES[i][0]))}_ax{_SHAPES[i][1]}/{mode}/{seed}": _case(i, mode, seed)
            for i in range(len(_SHAPES)) for mode in ("eager", "function") for seed in (1, 2)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz59_en_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.sum-order")
def test_half_euclidean_norm_adds_the_squares_in_eigens_order_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
