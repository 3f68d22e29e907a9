"""oneDNN's softmax of a row holding NaN and a value far above the rest (clause nn.softmax-nonfinite, fz65: the
rare-shape fz54b seed 65502 #5, a traced float32 softmax of [7, 7, 17] whose row held NaN at 9 and 3.4e38 at 1: TF
2.21 NaN at 1, 6 and 9, simdist NaN at 6 and 9). The kernel's horizontal max pairs lanes l and l^8, l^4, l^2, l^1,
keeping the partner's value where either is NaN: a lane beside the NaN's path loses its own value, so an entry whose
exp(x - lane max) overflows is inf · (1 / sum) = NaN (activations.py `_max_pass_nans`; rows up to 32 here, longer
in test_fix65n_softmax_long_rows_tf.py). Compared: the bits, eagerly and traced, float32 and float16."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_WIDTHS = (2, 5, 9, 16, 17, 20, 24, 31, 32)
_BIG = (5.0, 60.0, 88.0, 89.5, 100.0, 1e30, 3.4e38)


def _case(width: int, dt: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        rs = np.random.RandomState(6502 + width)
        rows = []
        for big in _BIG:
            for _ in range(3):
                r = rs.uniform(-2, 2, width).astype(np.float32)
                p, q = rs.choice(width, 2, replace=False)
                r[p] = np.nan
                r[q] = big if dt == "float32" else min(big, 6e4)
                rows.append(r)
        x = tf.constant(np.array(rows).astype(dt))
        f = tf.nn.softmax
        y = tf.function(f)(x) if traced else f(x)
        a = np.asarray(y.numpy())
        return [y.dtype.name, list(y.shape), a.view(np.uint32 if dt == "float32" else np.uint16).ravel().tolist()]
    return run


_CASES = {f"{w}/{dt}/{'traced' if t else 'eager'}": _case(w, dt, t)
          for w in _WIDTHS for dt in ("float32", "float16") for t in (False, True)}
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz65_sm_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("nn.softmax-nonfinite")
def test_softmax_nan_rows_lane_max_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
