"""Rules issue 29's tenth campaign (fz10: the third fuzzer's seeds 91-93) found wrong, each against
real TensorFlow 2.21: the same call on both backends gives the same dtype and bits, or raises the
same exception class. AdjustSaturation's RGB-to-HSV round trip takes C++'s std::max/std::min, which
keep a NaN only as their first operand (edge-valued images and factors). Needs the `tf` extra.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_VALS = np.array([np.nan, np.inf, -np.inf, 1e30, -2.0, 0.5, 0.0, -0.0, 1e-40, 0.25, 1.0, 1e10, -7.25], np.float32)
_RGB = np.array(list(itertools.product(_VALS, _VALS, _VALS)), np.float32).reshape(13, 169, 3)
IMAGE: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- AdjustSaturation of every triple of thirteen edge values (fz3 ext seeds 61 #13, #165, 91 #206, 92)
    *[(f"adjust-saturation-edges-{factor}", "ops.image",
       (lambda f: lambda tf: tf.image.adjust_saturation(tf.constant(_RGB), f))(factor))
      for factor in (0.5, 2.0, 0.0, -1.0, float("inf"), float("nan"))],
]
CASES = IMAGE

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.image")
@EDGES.parametrize("ops.image")
def test_adjust_saturation_edges(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_fuzz10_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
