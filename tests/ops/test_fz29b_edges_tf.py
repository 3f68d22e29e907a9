"""Rules behind the classes of issue 29's fresh campaigns that fz29b ran (fourteenth generator seeds
1420292901 and 1420292902, fourth generator seed 2901, third 2902, second 2904, and the fresh
fourteenth seed 1420292903), each against real TensorFlow 2.21: the same call on both backends
gives the same dtype and values, or raises the same exception class. Eagerly, in a tf.function
(`traced`, a one-expression body), and with an input_signature (`sig`: get_concrete_function on
placeholders, then a call). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_E = "ops.empty-inputs"
_T = "function.trace-time-errors"

CASES: list[tuple[str, str, Any]] = [
    # an empty list input of a number attr with a minimum: the fast path's N=0 (1420292902 #29);
    # (edge_programs.eager runs a first op: TF's very first call in a process takes the slow path)
    ("dynamic_stitch of an empty int64 vector and no data", _E, _eager(
        "tf.dynamic_stitch(indices=np.array([], np.int64), data=[])")),
    ("dynamic_stitch of two empty lists", _E, _eager("tf.dynamic_stitch(indices=[], data=[])")),
    ("dynamic_stitch of an empty tuple and an empty vector", _E, _eager(
        "tf.dynamic_stitch(indices=(), data=np.array([], np.float32))")),
    ("dynamic_stitch of an empty vector and one data tensor", _E, _eager(
        "tf.dynamic_stitch(indices=np.array([], np.int64), data=[tf.ones([2])])")),
    ("dynamic_stitch of an empty int32 tensor", _E, _eager("tf.dynamic_stitch(indices=tf.zeros([0], tf.int32), data=[])")),
    ("dynamic_stitch of a non-empty int64 vector", _E, _eager(
        "tf.dynamic_stitch(indices=np.array([0], np.int64), data=[tf.ones([2])])")),
    ("dynamic_stitch of two empty lists, traced", _E, _traced("tf.dynamic_stitch(indices=[], data=[])")),
    ("shape_n of an empty list", _E, _eager("tf.shape_n([])")),
    ("shape_n of an empty vector", _E, _eager("tf.shape_n(np.array([]))")),
    ("shape_n of an empty list, traced", _E, _traced("tf.shape_n([])")),
    ("raw ShapeN of an empty list", _E, _eager("tf.raw_ops.ShapeN(input=[])")),
    ("raw DynamicStitch of no indices and one data tensor", _E, _eager(
        "tf.raw_ops.DynamicStitch(indices=[], data=[tf.ones([2])])")),
    ("raw DynamicStitch of two empty lists", _E, _eager("tf.raw_ops.DynamicStitch(indices=[], data=[])")),
    ("raw AddN of an empty list", _E, _eager("tf.raw_ops.AddN(inputs=[])")),
    ("add_n of an empty list", _E, _eager("tf.add_n([])")),
    ("add_n of an empty tuple, traced", _E, _traced("tf.add_n(())")),
    # ssim's Assert fails when the graph runs: at trace the depthwise convolution's shape function
    # (1420292901 #61); past ssim_multiscale's first scale the graph does not know the sizes
    ("ssim of int64 images smaller than the filter, traced", _T, _traced(
        "tf.image.ssim(tf.ones([1, 2, 4, 3], tf.int64), tf.ones([1, 2, 4, 3], tf.int64), max_val=2)")),
    ("ssim of images smaller than the filter", _T, _eager(
        "tf.image.ssim(tf.ones([1, 2, 4, 3]), tf.ones([1, 2, 4, 3]), max_val=2.0)")),
    ("ssim of images of unknown size smaller than the filter, input_signature", _T, _sig(
        "tf.image.ssim(x, x, max_val=2.0)", ([None, None, None, 3], "float32"), "tf.ones([1, 4, 4, 3])")),
    ("ssim_multiscale of 12 x 12 images, traced", _T, _traced(
        "tf.image.ssim_multiscale(tf.ones([1, 12, 12, 3]), tf.ones([1, 12, 12, 3]), max_val=2.0)")),
    ("ssim_multiscale of 8 x 12 images, traced", _T, _traced(
        "tf.image.ssim_multiscale(tf.ones([1, 8, 12, 3]), tf.ones([1, 8, 12, 3]), max_val=2.0)")),
    # HistogramFixedWidth's shape function: a known nbins must be positive (1420292901 #144)
    ("histogram_fixed_width, nbins 0, traced", _T, _traced(
        "tf.histogram_fixed_width(tf.constant(-1.0), value_range=(0.0, 5.0), nbins=0)")),
    ("histogram_fixed_width, reversed range and nbins 0, traced", _T, _traced(
        "tf.histogram_fixed_width(tf.constant(-1.0), value_range=(5.0, 0.0), nbins=0)")),
    ("histogram_fixed_width, nbins [2], traced", _T, _traced(
        "tf.histogram_fixed_width(tf.constant(-1.0), value_range=(0.0, 5.0), nbins=tf.constant([2]))")),
    ("raw HistogramFixedWidth, nbins -1, traced", _T, _traced(
        "tf.raw_ops.HistogramFixedWidth(values=tf.constant(-1.0), value_range=[0.0, 5.0], nbins=-1)")),
    ("histogram_fixed_width, nbins 0", _T, _eager(
        "tf.histogram_fixed_width(tf.constant(-1.0), value_range=(0.0, 5.0), nbins=0)")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.empty-inputs")
@EDGES.parametrize("ops.empty-inputs")
def test_empty_list_inputs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz29b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
