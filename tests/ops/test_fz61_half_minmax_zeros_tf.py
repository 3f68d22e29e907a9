"""Which zero float16 and bfloat16 reduce_max/reduce_min return where a slice's extreme is a zero held with both
signs (clause ops.simd-signed-zeros, fz61: fz59's open bfloat16 Max/Min packet zero ties). TF 2.21 on the Xeon host
(/work/wt/fz61_logs/q_mm2.py, q_mm3.py, q_minmax.py): the half types take float32's reducer paths (minmax_zeros.py)
with 8-lane packets whose steps keep the accumulator's lane of a tie; so a [4, 10] tensor reduced over axis 0 keeps
the first row's zero in columns 0-7 (one packet of 8 output columns) and the last row's in columns 8-9
(the scalar path), and a full reduction of 40 elements folds its packets and halving tree as float32's. simdist kept
the last tied zero of every slice (float16) or NumPy's (bfloat16). Results compared as sign bits. Its golden
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

_CASES = [((4, 10), 0), ((4, 10), 1), ((4, 10), None), ((3, 37), 0), ((3, 37), 1), ((6, 20), 0), ((20, 9), 0),
          ((17, 16), 0), ((40, 24), 0), ((5, 9), 1), ((3, 16), 1), ((3, 17), 1), ((3, 33), 1), ((2, 70), 1),
          ((2, 100), 1), ((9,), 0), ((33,), 0), ((100,), 0), ((2, 3, 12), (0, 2)), ((2, 6, 10), 1),
          ((2, 3, 16), 1), ((2, 5, 3), (1, 2)), ((3, 2, 3, 2, 3), (0, 2, 4))]


def _case(shape: tuple, axis: Any, dtype: str, op: str, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        m = np.where(r.rand(*shape) < 0.5, -0.0, 0.0)
        if seed % 2:   # (some non-zero values too: the zero is an extreme only in some slices)
            m = np.where(r.rand(*shape) < 0.2, r.randint(-3, 4, shape) / 2.0, m)
        a = tf.cast(tf.constant(m.astype(np.float32)), dtype)
        out = getattr(tf, op)(a, axis=axis)
        v = np.asarray(tf.cast(out, tf.float32).numpy()).ravel()
        return [v.view(np.uint32).tolist()]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{op}/{dt}/{shape}/{axis}/{seed}": _case(shape, axis, dt, op, seed)
            for shape, axis in _CASES for dt in ("float16", "bfloat16") for op in ("reduce_min", "reduce_max")
            for seed in (1, 2)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz61_minmax_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.simd-signed-zeros")
def test_half_max_min_zero_ties_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
