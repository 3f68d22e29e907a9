"""One-operand einsum sums rows of any length in order (clause ops.einsum, its paragraph of the fifty-ninth session,
onednn59): TF 2.21's EinsumOp reduces each row of [kept labels, summed labels] one value at a time from +0 also past
1,024 values, for 'ij->i', 'ji->i', 'ij->', 'ij->j', 'ijk->j', 'ijk->ik', float32 and float64 (simdist summed rows
longer than 1,024 as NumPy's pairwise einsum or Eigen's full reduction does). Values spread over 2^-8..2^8 so that
the order shows in the last bits. simdist vs TF 2.21, bits compared. Its golden (tests/goldens/) is stamped with
this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_EQUATIONS = (("ij->i", (3, 1025)), ("ij->i", (8, 3000)), ("ij->i", (2, 100000)), ("ji->i", (1100, 8)),
              ("ji->i", (20000, 3)), ("ij->", (3, 1000)), ("ij->", (1, 5000)), ("ij->j", (1025, 2)),
              ("ij->j", (3000, 4)), ("ijk->j", (3, 8, 2000)), ("ijk->j", (30, 4, 50)), ("ijk->ik", (3, 500, 7)),
              ("ij->i", (64, 2000)))


def _sum(dtype: str, shape: tuple, eq: str, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        a = (r.randn(*shape) * portable_inputs.pow2(r.randint(-8, 9, size=shape))).astype(dtype)
        v = tf.einsum(eq, tf.constant(a)).numpy()
        return [str(v.dtype), list(v.shape), v.tobytes().hex()]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for dtype in ("float32", "float64"):
        for i, (eq, shape) in enumerate(_EQUATIONS):
            c[f"{dtype}/{eq}/{'x'.join(map(str, shape))}"] = _sum(dtype, shape, eq, 5960 + i)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(onednn59_einsum_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.einsum")
def test_one_operand_long_rows_in_order_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
