"""bfloat16 segment max/min of subnormals in rows of 8 columns or more (clause ops.subnormals, fz63: fz54b seed 63105
#1, fz62's open B, `unsorted_segment_max` of a [2, 4, 4] bfloat16 tensor holding -9.2e-41 kept it where TF 2.21 gives
-0.0). The running extreme compares as float32 under DAZ; the columns of a row in whole packets of 8 return what
they compared, flushed (UnsortedSegmentMax/Min: a tie takes the later row; SegmentMax/Min's reduction keeps its
accumulator, and copies a one-row segment with its bits), the columns past them the element's bits, a tie taking
the later element. Compared bit for bit (the results' bits as integers), eagerly and traced."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_S = 9.2e-41
_VALUES = (_S, -_S, 0.0, -0.0, 1.0, -1.0, 2 * _S, -2 * _S)
_OPS = ("unsorted_segment_max", "unsorted_segment_min", "segment_max", "segment_min")
_NCOLS = (1, 3, 8, 9, 16, 17)
_ROWS = (1, 2, 3, 5)


def _case(op: str, ncol: int, rows: int, trial: int, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(_OPS.index(op) * 10007 + ncol * 101 + rows * 11 + trial)
        x = np.array([_VALUES[i] for i in r.randint(0, len(_VALUES), rows * ncol)], np.float32).reshape(rows, ncol)
        if op.startswith("unsorted"):
            ids = r.randint(0, 3, rows).astype(np.int32)
            f = lambda d, s: getattr(tf.math, op)(d, s, 3)   # noqa: E731
        else:
            ids = np.sort(r.randint(0, 3, rows)).astype(np.int32)
            f = lambda d, s: getattr(tf.math, op)(d, s)   # noqa: E731
        d = tf.cast(tf.constant(x), tf.bfloat16)
        y = (tf.function(f) if traced else f)(d, tf.constant(ids))
        return [y.dtype.name, list(y.shape), [int(b) for b in tf.bitcast(y, tf.uint16).numpy().ravel()]]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{op}/c{c}/r{n}/t{t}/{'fn' if tr else 'eager'}": _case(op, c, n, t, tr)
            for op in _OPS for c in _NCOLS for n in _ROWS for t in range(3) for tr in (False, True)
            if tr is False or t == 0}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz63_seg_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.subnormals")
def test_bf16_segment_extremes_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
