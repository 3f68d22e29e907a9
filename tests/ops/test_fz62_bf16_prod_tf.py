"""bfloat16 reduce_prod in Eigen's order (clause ops.packet-paths, fz62: fz54b seed 62101 #3, a [6, 3] bfloat16
reduce_prod one ulp off, eagerly and traced). TF 2.21's bfloat16 Prod takes float16's order (prod_order.py: 8-lane
packets, every product rounded to bfloat16, the packet's lanes multiplied out in float32 and rounded once);
simdist's Prod sent only NumPy kind 'f' and float16 to that order, and bfloat16 (ml_dtypes, kind 'V') kept NumPy's
left-to-right product: 155 of 219 full reductions of 1-257 elements apart (/work/wt/fz62_logs/q/q_prod.py; the
order's model matched all 219). Compared as bit patterns. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_CASES = [((37,), None), ((6, 3), None), ((6, 3), 0), ((6, 3), 1), ((40, 24), 0), ((24, 40), 1), ((3, 20, 5), 1),
          ((3, 20, 5), (0, 2)), ((100, 3), 0), ((2, 300), 1), ((17, 16), 0), ((50,), 0), ((1,), None), ((4, 1), 1),
          ((9,), None), ((16,), None), ((33,), None), ((129,), None)]


def _case(shape: tuple, axis: Any, traced: bool, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed + 3 * len(shape))
        x = tf.cast(tf.constant((np.round(r.uniform(-1.6, 1.6, shape) * 64) / 64).astype(np.float32)), "bfloat16")
        f = lambda v: tf.reduce_prod(v, axis=axis, keepdims=seed == 1)   # noqa: E731
        out = (tf.function(f) if traced else f)(x)
        return [list(out.shape), np.asarray(tf.cast(out, tf.float32).numpy()).ravel().view(np.uint32).tolist()]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{shape}/{axis}/{'fn' if tr else 'eager'}/{seed}": _case(shape, axis, tr, seed)
            for shape, axis in _CASES for tr in (False, True) for seed in (0, 1, 2)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz62_prod_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_bfloat16_prod_in_eigen_order_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
