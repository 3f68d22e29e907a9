"""One-operand einsum sums in order (clause ops.einsum): TF 2.21's EinsumOp reshapes the operand to [kept labels,
summed labels] and reduces each row with Eigen's scalar InnerMostDimReducer, one value at a time from +0, so
`einsum('ij->', [[-1.5, -0.9], [0, 0], [3, -0.1]])` in float64 is 0.5000000000000001 where reduce_sum (a full
reduction) and NumPy's pairwise einsum give 0.5. Rows of up to 1,024 values (longer ones are summed otherwise on
TF: not modelled). simdist vs TF 2.21, bits compared (fz57: fz54b seed 57102 #2). Its golden (tests/goldens/) is
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

_EQUATIONS = (((3, 2), "ij->"), ((1, 40), "ij->"), ((5, 7), "ij->"), ((4, 50), "ij->i"), ((50, 4), "ij->j"),
              ((3, 9, 5), "ijk->"), ((3, 9, 5), "ijk->j"), ((3, 9, 5), "ijk->ki"), ((200,), "i->"), ((3, 70), "ij->"),
              ((2, 1000), "ij->i"), ((2, 3), "ij->ji"), ((2, 0), "ij->i"), ((0, 3), "ij->"), ((2, 0), "ij->j"),
              ((0, 3), "ij->j"), ((0, 3), "ij->i"), ((3, 0, 2), "ijk->ik"))


def _sum(tf: Any, dtype: str, shape: tuple, eq: str, seed: int) -> Any:
    r = np.random.RandomState(seed)
    a = (r.uniform(-1, 1, shape) * np.asarray([0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0])[
        r.randint(0, 7, shape)]).astype(dtype)
    v = tf.einsum(eq, tf.constant(a)).numpy()
    return [str(v.dtype), list(v.shape), v.tobytes().hex()]


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for dtype in ("float64", "float32"):
        for shape, eq in _EQUATIONS:
            for seed in range(3):
                c[f"{dtype}/{shape}/{eq}/{seed}"] = lambda tf, d=dtype, s=shape, e=eq, k=seed: _sum(tf, d, s, e, k)
    c["fz54b_57102_2"] = lambda tf: float(tf.einsum("ij->", tf.constant(
        [[-1.5, -0.9], [0.0, 0.0], [3.0, -0.1]], tf.float64)).numpy()).hex()
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz57_einsum_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.einsum")
def test_one_operand_sums_in_order_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
