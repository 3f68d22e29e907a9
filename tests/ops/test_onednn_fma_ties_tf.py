"""oneDNN's float32 products round each fused multiply-add once (clause ops.packet-paths, its paragraph "oneDNN's
float32 MatMul"), also where the float64 sum simdist's pure kernels form lands on a float32 midpoint: the step
acc + a·b with a·b = ±h(1 - 2^-46), h half a float32 step of acc, whose exact sum lies h·2^-46 from the midpoint.
Rounding the float64 sum again (the plain product's loop before the fifty-sixth session) takes the midpoint to
even, off by one ulp in about half the rows; fma32's two-sum (the transpose_b kernel's lanes) had its error's terms
swapped and so rarely moved a tie either. Cases: a plain x [64, 2] @ y [2, 2] (oneDNN's in-order kernel: n >= 2,
k <= 384) and x [8, 17] @ b [3, 17]^T (the 16-lane kernel: k = 16 falls in lane 0 beside k = 0), one tie per row,
accumulators of random sign and binade. Each runs on TF 2.21 and on simdist (the golden's host model): the same
bits. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_UP = 1 + np.ldexp(1.0, -23)     # a = ±(1 + 2^-23)·h and b = 1 - 2^-23: a·b = ±h(1 - 2^-46)
_DOWN = 1 - np.ldexp(1.0, -23)


def _ties(rows: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the accumulator c (a random float32 of random binade) and the factor a of its tie."""
    r = np.random.RandomState(seed)
    c = np.ldexp(r.standard_normal(rows), r.randint(-60, 60, rows)).astype(np.float32)
    h = np.spacing(np.abs(c)).astype(np.float64) / 2        # (a power of two: half c's float32 step)
    a = (np.where(r.rand(rows) < 0.5, -1.0, 1.0) * _UP * h).astype(np.float32)   # (exact)
    return c, a


def _plain(seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        c, a = _ties(64, seed)
        x = np.stack([c, a], axis=1).astype(np.float32)
        y = np.array([[1.0, 1.0], [_DOWN, _DOWN]], np.float32)
        return tf.linalg.matmul(tf.constant(x), tf.constant(y))
    return run


def _transposed_b(seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        c, a = _ties(8, seed)
        x = np.zeros((8, 17), np.float32)
        x[:, 0], x[:, 16] = c, a
        b = np.zeros((3, 17), np.float32)
        b[:, 0], b[:, 16] = 1.0, _DOWN
        return tf.linalg.matmul(tf.constant(x), tf.constant(b), transpose_b=True)
    return run


CASES = ([(f"float32 ties, 64x2 @ 2x2 (in order), seed {s}", "ops.packet-paths", _plain(5600 + s)) for s in range(4)]
         + [(f"float32 ties, 8x17 @ (3x17)^T (16 lanes), seed {s}", "ops.packet-paths", _transposed_b(5610 + s))
            for s in range(4)])

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.packet-paths")
@EDGES.parametrize("ops.packet-paths")
def test_onednn_fma_ties_round_once(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_onednn_fma_ties_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
