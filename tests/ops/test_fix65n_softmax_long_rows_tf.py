"""oneDNN's softmax of rows longer than 32 holding NaN and a value far above the rest (clause nn.softmax-nonfinite,
fix65n: the rare-shape fz54b seed 65502 #5's float16 [3, 9, 33] softmax, left open by fz65). oneDNN's accumulate_vmax
spreads the row's whole vectors over four accumulators (fewer below four vectors), the partial vector into the first,
each `vmaxps` keeping the new value where either is NaN, joins them as max(max(a0, a1), max(a2, a3)) and then pairs
lanes l^8, l^4, l^2, l^1: a lane whose accumulator met a NaN holds a value after it, not its max, so an entry far
above it is exp = inf, inf · (1 / sum) = NaN (activations.py `_lane_max`, `_max_pass_nans`). Compared: the bits,
eagerly and traced, float32 and float16."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_WIDTHS = (33, 40, 47, 48, 49, 63, 64, 65, 80, 100, 129)
_BIG = (5.0, 89.5, 100.0, 1e30)


def _case(width: int, dt: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        rs = np.random.RandomState(6599 + width)
        rows = []
        for big in _BIG:
            for nans in (1, 2, 3):
                r = rs.uniform(-2, 2, width).astype(np.float32)
                at = rs.choice(width, nans + 2, replace=False)
                r[at[:nans]] = np.nan
                r[at[nans:]] = big if dt == "float32" else min(big, 6e4)
                rows.append(r)
        x = tf.constant(np.array(rows).astype(dt))
        f = tf.nn.softmax
        y = tf.function(f)(x) if traced else f(x)
        a = np.asarray(y.numpy())
        return [y.dtype.name, list(y.shape), a.view(np.uint32 if dt == "float32" else np.uint16).ravel().tolist()]
    return run


_CASES = {f"{w}/{dt}/{'traced' if t else 'eager'}": _case(w, dt, t)
          for w in _WIDTHS for dt in ("float32", "float16") for t in (False, True)}
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fix65n_sm_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("nn.softmax-nonfinite")
def test_softmax_long_nan_rows_lane_max_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
