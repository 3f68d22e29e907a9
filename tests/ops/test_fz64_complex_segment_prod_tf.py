"""UnsortedSegmentProd of complex rows, packet columns and the std::complex tail (clause ops.complex, fz64: the
rare-shape fz54b seed 64503 #4, a [7, 3, 9] complex128 unsorted_segment_prod whose column 26 was NaN + NaN·j where
TF 2.21 gives -inf - inf·j). TF's UnsortedSegmentFunctor multiplies each data row into its segment's output row (one
Eigen expression over the row): packet columns take the textbook product, the row's tail columns std::complex's
operator* with C99 Annex G's recovery of infinities (complex_mul.multiply); simdist multiplied by NumPy's
product. Compared: the results' bits."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_WIDTHS = (1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 27)
_EDGES = np.array([np.inf, -np.inf, np.nan, 3e38, -3e38, 1e-39, 0.0, -0.0, 1.5, -2.25], np.float64)


def _case(dt: str, width: int, ids_form: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        rs = np.random.RandomState(6403 + width)
        rows = 7
        re_ = np.where(rs.rand(rows, width) < 0.3, rs.choice(_EDGES, (rows, width)), rs.standard_normal((rows, width)) * 10)
        im = np.where(rs.rand(rows, width) < 0.3, rs.choice(_EDGES, (rows, width)), rs.standard_normal((rows, width)) * 10)
        x = tf.constant((re_ + 1j * im).astype(dt))
        ids = {"one": [0] * rows, "two": [1, 0, 1, 1, 0, 0, 1], "neg": [0, -1, 2, 0, 2, -1, 0]}[ids_form]
        n = {"one": 1, "two": 2, "neg": 3}[ids_form]
        f = (lambda a, b: tf.math.unsorted_segment_prod(a, b, n))
        r = tf.function(f, autograph=False)(x, tf.constant(ids)) if traced else f(x, tf.constant(ids))
        a = np.asarray(r.numpy())
        return [r.dtype.name, list(r.shape), a.view(np.uint64 if dt == "complex128" else np.uint32).ravel().tolist()]
    return run


_CASES = {f"{d}/{w}/{i}/{'traced' if t else 'eager'}": _case(d, w, i, t)
          for d in ("complex64", "complex128") for w in _WIDTHS for i in ("one", "two", "neg") for t in (False, True)}
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz64_usp_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.complex")
def test_complex_unsorted_segment_prod_rows_as_tf(tf_results: dict[int, Any]) -> None:
    """Every row's bits, complex64's rows of 27 included: their packet columns' NaN signs were left open by fz64
    (TF's -NaN where NumPy's textbook product gave +NaN) and follow from Eigen's pmul taking each product's and the
    addsub's first NaN operand (complex_mul._nan_ordered, fix65c)."""
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
