"""bfloat16 tf.math.segment_max / segment_min (sorted ids) of data holding bfloat16 subnormals (clause ops.subnormals,
fz61: found while probing fz54b seed 61110 #3, /work/wt/fz61_logs/q_usm.py). TF 2.21 compares the running extreme as
float32 under DAZ and a tie takes the later element with its bits, as in its unsorted kernels (`segment_max` of
[-9.2e-41, 1e-39] is 1e-39); simdist's sorted ops applied only the one-row copy rule and flushed such a result to a
zero. Compared as bit patterns; the unsorted ops and float32 beside them. Its golden (tests/goldens/) is stamped with
this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_VALUES = [-9.2e-41, 1.0e-39, 0.0, -0.0, 1.5, -2.0, 5e-40, -3e-40, 2.0, 1e-38, -0.0, 8e-40]
_IDS = ([0] * 12, [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5], [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3], list(range(12)),
        [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2])


def _case(op: str, dtype: str, ids: list, cols: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = np.array(_VALUES, np.float32)
        data = np.stack([np.roll(v, c) for c in range(cols)], axis=1) if cols > 1 else v
        x = tf.cast(tf.constant(data), dtype)
        if op.startswith("unsorted"):
            out = getattr(tf.math, op)(x, tf.constant(ids), max(ids) + 1)
        else:
            out = getattr(tf.math, op)(x, tf.constant(ids))
        return [np.asarray(tf.cast(out, tf.float32).numpy()).reshape(-1).view(np.uint32).tolist()]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{op}/{dt}/{k}/{cols}": _case(op, dt, ids, cols)
            for op in ("segment_max", "segment_min", "unsorted_segment_max", "unsorted_segment_min")
            for dt in ("bfloat16", "float32") for k, ids in enumerate(_IDS) for cols in (1, 3)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz61_segx_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.subnormals")
def test_segment_extremes_of_bfloat16_subnormals_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
