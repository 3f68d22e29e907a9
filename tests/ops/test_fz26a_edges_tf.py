"""Rules behind the twentieth fuzzer's classes that fz26a closed (the fresh campaigns eager seed
2620261201, tape seed 2620261202, sig seed 2620261203, eager seed 2620261204, and the classes of
tests/fuzz20/fz20_seen.py), each against real TensorFlow 2.21: the same raw call on both backends
gives the same dtype and values, or raises the same exception class. Eagerly, inside a tf.function,
with an input_signature (`sig`), and under a GradientTape. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"
_K = "ops.fuzz-raw"

_MDV3 = "tf.raw_ops.MatrixDiagV3(diagonal=tf.ones([2]), k={}, num_rows={}, num_cols={}, padding_value={}, " \
        "align='RIGHT_LEFT')"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # DiagPart's kernel checks on a raw call (seed 2620261201 #159)
    ("DiagPart rank 1", _K, _eager("tf.raw_ops.DiagPart(input=tf.constant([-4], tf.int64))")),
    ("DiagPart rank 3", _K, _eager("tf.raw_ops.DiagPart(input=tf.ones([2, 3, 2]))")),
    ("DiagPart halves differ", _K, _eager("tf.raw_ops.DiagPart(input=tf.ones([2, 3, 2, 2]))")),
    ("DiagPart scalar", _K, _eager("tf.raw_ops.DiagPart(input=tf.constant(3.0))")),
    ("DiagPart rank 4", _K, _eager("tf.raw_ops.DiagPart(input=tf.reshape(tf.range(36), [2, 3, 2, 3]))")),
    # Pad of strings pads with the empty string (seed 2620261201 #48)
    ("Pad string", _K, _eager("tf.raw_ops.Pad(input=tf.constant([[b'a', b'bc']]), paddings=[[1, 0], [0, 1]])")),
    ("pad string", _K, _eager("tf.pad(tf.constant([[b'a']]), [[1, 0], [0, 1]])")),
    ("PadV2 string", _K, _eager("tf.raw_ops.PadV2(input=tf.constant([[b'a']]), paddings=[[0, 0], [1, 0]], "
                                "constant_values='x')")),
    # MatrixDiagV3's scalar inputs and k (seeds 2620261201 #42, 2620261202 #29)
    ("MatrixDiagV3 padding_value [2, 3]", _K, _eager(
        "tf.raw_ops.MatrixDiagV3(diagonal=tf.ones([2, 3, 2]), k=1, num_rows=2, num_cols=3, "
        "padding_value=tf.ones([2, 3]), align='RIGHT_LEFT')")),
    ("MatrixDiagV3 padding_value [1]", _K, _eager(_MDV3.format(0, -1, 5, "tf.ones([1])"))),
    ("MatrixDiagV3 num_rows [2]", _K, _eager(_MDV3.format(0, "tf.constant([2, 3])", 5, "tf.ones([2])"))),
    ("MatrixDiagV3 num_cols [1]", _K, _eager(_MDV3.format(0, -1, "tf.constant([5])", "1.0"))),
    ("MatrixDiagV3 k [1, 1]", _K, _eager(_MDV3.format("[[0]]", -1, "tf.constant([5])", "1.0"))),
    ("MatrixDiagV3 k empty", _K, _eager(_MDV3.format("tf.zeros([0], tf.int32)", -1, 3, "1.0"))),
    ("MatrixDiagV3 k of 3", _K, _eager(_MDV3.format("[0, 0, 0]", -1, 3, "1.0"))),
    ("MatrixDiagV3", _K, _eager(_MDV3.format(1, -1, -1, "3.0"))),
    ("MatrixDiagV3 padding_value [1], traced", _T, _traced(_MDV3.format(0, -1, 5, "tf.ones([1])"))),
    ("MatrixDiagPartV3 k [1, 1]", _K, _eager("tf.raw_ops.MatrixDiagPartV3(input=tf.ones([2, 2]), k=[[0]], "
                                             "padding_value=1.0, align='RIGHT_LEFT')")),
    ("MatrixDiagPartV3 k empty", _K, _eager("tf.raw_ops.MatrixDiagPartV3(input=tf.ones([2, 2]), "
                                            "k=tf.zeros([0], tf.int32), padding_value=1.0, align='RIGHT_LEFT')")),
    ("MatrixSetDiagV3 k [1, 1]", _K, _eager("tf.raw_ops.MatrixSetDiagV3(input=tf.ones([2, 2]), "
                                            "diagonal=tf.ones([2]), k=[[0]], align='RIGHT_LEFT')")),
    ("MatrixSetDiagV3 k empty", _K, _eager("tf.raw_ops.MatrixSetDiagV3(input=tf.ones([2, 2]), "
                                           "diagonal=tf.ones([2]), k=tf.zeros([0], tf.int32), align='RIGHT_LEFT')")),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.bits_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_kernel_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz26a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
