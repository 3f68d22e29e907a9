"""Two shape functions a fresh fourteenth-generator seed found simdist running past in a tf.function
(fz14 seed 1420282804 #76, #99), against real TensorFlow 2.21: unsorted_segment_mean's count
(_unsorted_segment_N's Fill of rank(data) - rank(segment_ids) ones: ValueError at trace before any kernel,
as unsorted_segment_sqrt_n already did) and BatchToSpaceND's batch divisibility by the block's product
("Dimension size must be evenly divisible by 4 but is 1"). Eagerly, traced, with an input_signature
whose batch is unknown (the kernel's error when called), and the valid neighbours. Values bit for bit,
dtypes, shapes and error classes. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"
_MEAN = "tf.math.unsorted_segment_mean(data={d}, segment_ids={s}, num_segments={n})"
_B2S = "tf.batch_to_space(input={x}, block_shape=tf.constant({b}, tf.int32), crops=np.array({c}))"

CASES: list[tuple[str, str, Any]] = [
    ("mean, segment_ids of higher rank, an id out of range, eager", _T, _eager(_MEAN.format(d=-1, s=[[1]], n=1))),
    ("mean, segment_ids of higher rank, an id out of range, traced", _T, _traced(_MEAN.format(d=-1, s=[[1]], n=1))),
    ("mean, segment_ids of higher rank, traced", _T, _traced(_MEAN.format(d="tf.constant([2.0])", s=[[0]], n=1))),
    ("mean, equal ranks, traced", _T, _traced(_MEAN.format(d="tf.constant([[2.0, 4.0], [1.0, 3.0]])", s=[0, 0], n=2))),
    ("mean of bool data, higher-rank ids, traced", _T, _traced(_MEAN.format(d="tf.constant(True)", s=[[0]], n=1))),
    ("sqrt_n, segment_ids of higher rank, traced", _T, _traced(
        "tf.math.unsorted_segment_sqrt_n(data=tf.zeros([2]), segment_ids=[[1]], num_segments=1)")),
    ("batch_to_space, batch 1 for a block of 4, eager", _T, _eager(_B2S.format(x="tf.zeros([1, 1, 4], tf.float64)",
                                                                                b=[4], c=[[1, 1]]))),
    ("batch_to_space, batch 1 for a block of 4, traced", _T, _traced(_B2S.format(x="tf.zeros([1, 1, 4], tf.float64)",
                                                                                  b=[4], c=[[1, 1]]))),
    ("batch_to_space, batch 6 for blocks 2 x 2, traced", _T, _traced(_B2S.format(x="tf.zeros([6, 1, 1, 1])", b=[2, 2],
                                                                                  c=[[0, 0], [0, 0]]))),
    ("batch_to_space, batch 8 for a block of 4, traced", _T, _traced(_B2S.format(
        x="tf.reshape(tf.range(32.0), [8, 1, 4])", b=[4], c=[[1, 1]]))),
    ("batch_to_space, unknown batch in the signature, called with 3", _T, _sig(
        "tf.batch_to_space(input=x, block_shape=tf.constant([2], tf.int32), crops=np.array([[0, 0]]))",
        ([None, 2, 1], "float32"), "tf.ones([3, 2, 1])")),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_lead28_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
