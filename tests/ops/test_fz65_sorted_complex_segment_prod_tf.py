"""SegmentProd (sorted) of complex rows (clause ops.complex, fz65: the rare-shape fz54b seed 65501 #5, a [33]
complex64 segment_prod whose segment of -inf - 2.989j, 0.75 - 0.2j, ... was NaN + NaN·j where TF 2.21 gives
-inf - inf·j; fz64 fixed UnsortedSegmentProd and left the sorted kernel). SegmentReductionOp reduces a segment's
[rows, columns] slice over its rows from 1 (Eigen's ProdReducer, keeping the inner dimension): the output's packet
columns take the textbook product, its tail std::complex's operator* with C99 Annex G's recovery of infinities
(complex_mul.multiply); a one-row segment is copied. simdist multiplied by NumPy's product. Compared: the bits."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_WIDTHS = (0, 1, 2, 3, 4, 5, 8, 9, 17)   # 0: a 1-d segment
_EDGES = np.array([np.inf, -np.inf, np.nan, 3e38, -3e38, 1e-39, 0.0, -0.0, 1.5, -2.25], np.float64)


def _case(dt: str, width: int, ids_form: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        rs = np.random.RandomState(6501 + width)
        rows = 7
        shape = (rows,) if width == 0 else (rows, width)
        re_ = np.where(rs.rand(*shape) < 0.35, rs.choice(_EDGES, shape), rs.standard_normal(shape) * 10)
        im = np.where(rs.rand(*shape) < 0.35, rs.choice(_EDGES, shape), rs.standard_normal(shape) * 10)
        x = tf.constant((re_ + 1j * im).astype(dt))
        ids = {"one": [0] * rows, "two": [0, 0, 0, 1, 1, 1, 1], "gaps": [0, 0, 2, 2, 2, 3, 5]}[ids_form]
        f = tf.math.segment_prod
        r = tf.function(f, autograph=False)(x, tf.constant(ids)) if traced else f(x, tf.constant(ids))
        a = np.asarray(r.numpy())
        return [r.dtype.name, list(r.shape), a.view(np.uint64 if dt == "complex128" else np.uint32).ravel().tolist()]
    return run


_CASES = {f"{d}/{w}/{i}/{'traced' if t else 'eager'}": _case(d, w, i, t)
          for d in ("complex64", "complex128") for w in _WIDTHS for i in ("one", "two", "gaps") for t in (False, True)}
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz65_sp_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.complex")
def test_complex_sorted_segment_prod_rows_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
