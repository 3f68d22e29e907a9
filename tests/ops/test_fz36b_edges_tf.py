"""Rules behind the classes of issue 29's campaigns that fz36b ran (fresh seeds 1420363001..3 of the
fourteenth generator, 3601 and 3602 of the fourth, 3605 of the second, 3603 of the third), each
against real TensorFlow 2.21: the same call on both backends gives the same dtype and values (bit for
bit), or raises the same exception class. Eagerly, in a tf.function (`traced`, a one-expression
body) and through an input_signature (`sig`). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_AT = "ops.attr-types"
_AE = "ops.argument-errors"
_T = "function.trace-time-errors"


def _both(expr: str) -> list[tuple[str, Callable[[Any], Any]]]:
    """(suffix, program) eagerly and traced."""
    return [("", _eager(expr)), (" traced", _traced(expr))]


_X = "tf.constant([[3, 4, 5]])"
_SS49 = ("tf.strided_slice(tf.constant(np.arange(48, dtype=np.complex128).reshape((4, 4, 3))), "
         "begin=np.array([0, 1, 2, 3], np.int64), end=tf.constant([1, 2, 3, 3]), var=0)")
_BOXES = "tf.constant(np.array([-1, 0, 1, 0.25], np.complex64).reshape((4, 1)))"
_SIZE = "np.array([4, 1], dtype=np.int64)"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- StridedSlice's Index on the eager fast path and its fallback (fourteenth generator seed 1420363001 #49:
    # begin an int64 ndarray, end an int32 tensor, strides ones_like(begin): int64, the executor's
    # InvalidArgumentError for input #3, not the fallback's ValueError)
    ("strided_slice of seed 1420363001 #49", _AT, _eager(_SS49)),
    ("strided_slice of seed 1420363001 #49 traced", _AT, _traced(_SS49)),
    *[(name, _AT, _eager(expr)) for name, expr in (
        ("strided_slice(x, int64 ndarray, int32 tensor)", f"tf.strided_slice({_X}, np.array([0, 1], np.int64), "
                                                          "tf.constant([1, 1]))"),
        ("strided_slice(x, int64 tensor, int32 tensor)", f"tf.strided_slice({_X}, tf.constant([0, 1], tf.int64), "
                                                         "tf.constant([1, 1]))"),
        ("strided_slice(int ndarray, int64 ndarray, int32 tensor)", "tf.strided_slice(np.array([3, 4]), "
                                                                    "np.array([0, 1], np.int64), tf.constant([0, 1]))"),
        ("strided_slice(python int, int64 tensor, int32 tensor)", "tf.strided_slice(3, tf.constant([0, 1], tf.int64), "
                                                                  "tf.constant([0, 1]))"),
        ("strided_slice(np.int64 scalar, int64 ndarray, int32 tensor): fallback",
         "tf.strided_slice(np.int64(3), np.array([0, 1], np.int64), tf.constant([0, 1]))"),
        ("strided_slice(np.int64 scalar, int64 tensor, int32 tensor): fallback, tensors alone",
         "tf.strided_slice(np.int64(3), tf.constant([0, 1], tf.int64), tf.constant([0, 1]))"),
        ("strided_slice(list, int64 ndarray, int32 tensor): fallback",
         "tf.strided_slice([3, 4], np.array([0, 1], np.int64), tf.constant([0, 1]))"),
        ("strided_slice(list, int64 tensor, int32 tensor): fallback, tensors alone",
         "tf.strided_slice([3, 4], tf.constant([0, 1], tf.int64), tf.constant([0, 1]))"),
        ("strided_slice(x, int64 tensor, list, strides int32 tensor): fallback",
         f"tf.strided_slice({_X}, tf.constant([0, 1], tf.int64), [0, 1], strides=tf.constant([1, 1]))"),
        ("strided_slice(x, list, int32 tensor, int64 strides, np.int64 mask): fallback",
         f"tf.strided_slice({_X}, [0, 1], tf.constant([1, 1]), strides=tf.constant([1, 1], tf.int64), "
         "begin_mask=np.int64(0))"),
        ("strided_slice(x, int32 variable, int64 tensor)", "tf.strided_slice(tf.constant([3, 4]), tf.Variable([0, 1]), "
                                                          "tf.constant([1, 1], tf.int64))"),
        ("strided_slice(list, int64 tensor, int32 variable): fallback", "tf.strided_slice([3, 4], "
         "tf.constant([0, 1], tf.int64), tf.Variable([1, 1]))"),
        ("strided_slice(x, int64 variable, [1.5])", "tf.strided_slice(tf.constant([3, 4]), "
                                                     "tf.Variable([0], dtype=tf.int64), [1.5])"),
        ("strided_slice(x, [0], [1.5], strides int32 tensor)", "tf.strided_slice(tf.constant([3, 4]), [0], [1.5], "
                                                                "strides=tf.constant([1]))"),
        ("strided_slice(x, float ndarray, int32 tensor)", "tf.strided_slice(tf.constant([3, 4]), np.array([0.5]), "
                                                          "tf.constant([1]))"),
        ("strided_slice(x, float ndarray, int32 tensor, int32 strides)", "tf.strided_slice(tf.constant([3, 4]), "
         "np.array([0.5]), tf.constant([1]), strides=tf.constant([1]))"),
        ("strided_slice(x, float ndarray, list, int32 strides)", "tf.strided_slice(tf.constant([3, 4]), "
         "np.array([0.5]), [1], strides=tf.constant([1]))"),
        ("strided_slice(x, float tensor, int32 tensor)", "tf.strided_slice(tf.constant([3, 4]), tf.constant([0.5]), "
                                                         "tf.constant([1]))"),
        ("strided_slice(x, [0], int16 ndarray, [1])", "tf.strided_slice(tf.constant([3, 4]), [0], "
                                                      "np.array([1], np.int16), strides=[1])"),
    )],
    ("strided_slice(x, int64 tensor, int32 tensor) traced", _AT, _traced(
        f"tf.strided_slice({_X}, tf.constant([0, 1], tf.int64), tf.constant([1, 1]))")),
    # -- a list(float) attr holding a Python int sends the call to the fallback (seed 1420363002 #6)
    *[(name, _AT, _eager(expr)) for name, expr in (
        ("sample_distorted_bounding_box of seed 1420363002 #6", f"tf.image.sample_distorted_bounding_box({_SIZE}, "
         f"bounding_boxes={_BOXES}, area_range=[1, 0], max_attempts=0, name='op')"),
        *[(f"sample_distorted_bounding_box(complex64 boxes, {kw})", f"tf.image.sample_distorted_bounding_box({_SIZE}, "
           f"bounding_boxes={_BOXES}, {kw})") for kw in (
            "area_range=[1, 0]", "area_range=[1.0, 0.5]", "area_range=(0.5, 1.0)", "area_range=[0.5, 1]",
            "aspect_ratio_range=[1, 2]", "area_range=[0.5, 1.0], aspect_ratio_range=[1.0, 2]",
            "area_range=[0.5, np.float32(1.0)]", "area_range=[0.5, np.float64(1.0)]", "area_range=[0.5, True]",
            "max_attempts=0", "min_object_covered=1", "name='op'")],
    )],
    # -- eagerly T's own checks (the op def's list, the CPU kernel) before another input's dtype
    # (seed 1420363002 #111: floordiv(complex64 variable, float32); #256: tensordot(uint32, np.uint16))
    *[(name, _AE, _eager(expr)) for name, expr in (
        ("floordiv(complex64 variable, float32) of seed 1420363002 #111",
         "tf.math.floordiv(x=tf.Variable(np.array([[0.25, -1j]], np.complex64)), y=tf.constant(0.0))"),
        ("floordiv(complex64, float32)", "tf.math.floordiv(tf.constant([1j]), tf.constant(1.0))"),
        ("floordiv(complex128, int32)", "tf.math.floordiv(tf.constant([1j]), tf.constant(1))"),
        ("complex128 // float32", "tf.constant([1j]) // tf.constant(1.0)"),
        ("floordiv(float32, complex variable)", "tf.math.floordiv(x=tf.constant(0.0), "
                                                 "y=tf.Variable(np.array([0.25j], np.complex64)))"),
        ("floordiv(bool, float32)", "tf.math.floordiv(tf.constant([True]), tf.constant(1.0))"),
        ("floordiv(uint32, int32)", "tf.math.floordiv(tf.constant([1], tf.uint32), tf.constant(1))"),
        ("floormod(complex128, float32)", "tf.math.floormod(tf.constant([1j]), tf.constant(1.0))"),
        ("maximum(complex128, float32)", "tf.math.maximum(tf.constant([1j]), tf.constant(1.0))"),
        ("pow(uint32, int32)", "tf.math.pow(tf.constant([1], tf.uint32), tf.constant(1))"),
        ("atan2(int32, float32)", "tf.math.atan2(tf.constant([1], tf.int32), tf.constant(1.0))"),
        ("squared_difference(uint32, float32)", "tf.math.squared_difference(tf.constant([1], tf.uint32), "
                                                "tf.constant(1.0))"),
        ("greater(complex128, float32)", "tf.math.greater(tf.constant([1j]), tf.constant(1.0))"),
        ("multiply(string, float32)", "tf.math.multiply(tf.constant(['a']), tf.constant(1.0))"),
        ("subtract(uint32, float32)", "tf.math.subtract(tf.constant([1], tf.uint32), tf.constant(1.0))"),
        ("tensordot of seed 1420363002 #256", "tf.linalg.tensordot(tf.constant([0, 1], dtype=np.uint32), "
                                              "np.uint16(1), axes=np.int64(0))"),
        ("tensordot(uint32, uint32 tensor, 0)", "tf.linalg.tensordot(tf.constant([0, 1], dtype=np.uint32), "
                                                "tf.constant(1, np.uint32), axes=0)"),
        ("tensordot(int32, np.int16, 0)", "tf.linalg.tensordot(tf.constant([0, 1]), np.int16(1), axes=0)"),
        ("tensordot(float32, np.float64, 0)", "tf.linalg.tensordot(tf.constant([0.0, 1.0]), np.float64(1), axes=0)"),
        ("tensordot(float32, float64 ndarray, 1)", "tf.linalg.tensordot(tf.constant([0.0, 1.0]), "
                                                   "np.array([1, 2], np.float64), axes=1)"),
        ("einsum(uint32, uint16)", "tf.einsum('i,j->ij', tf.constant([1], tf.uint32), tf.constant([1], tf.uint16))"),
        ("einsum(int32, int16)", "tf.einsum('i,j->ij', tf.constant([1]), tf.constant([1], tf.int16))"),
    )],
    *[(f"{name} traced", _AE, _traced(expr)) for name, expr in (
        ("floordiv(complex64, float32)", "tf.math.floordiv(tf.constant([1j]), tf.constant(1.0))"),
        ("tensordot(uint32, np.uint16, 0)", "tf.linalg.tensordot(tf.constant([0, 1], dtype=np.uint32), "
                                            "np.uint16(1), axes=0)"),
        ("einsum(uint32, uint16)", "tf.einsum('i,j->ij', tf.constant([1], tf.uint32), tf.constant([1], tf.uint16))"),
    )],
    # -- MatrixDiagV3's shape function reads a diagonal length the graph does not know as -1 (seed 1420363002 #27)
    *[(name, _T, _sig(expr, spec, arg)) for name, expr, spec, arg in (
        ("sig [4, None]: diag(bool, num_rows=0) of seed 1420363002 #27", "tf.linalg.diag(diagonal=x, num_rows=0)",
         ([4, None], "bool"), "tf.constant([[True, False]] * 4)"),
        ("sig [4, None]: diag(num_rows=0)", "tf.linalg.diag(diagonal=x, num_rows=0)", ([4, None], "float32"),
         "tf.constant([[1.0, 2.0]] * 4)"),
        ("sig [4, 2]: diag(num_rows=0)", "tf.linalg.diag(diagonal=x, num_rows=0)", ([4, 2], "float32"),
         "tf.constant([[1.0, 2.0]] * 4)"),
        ("sig [4, None]: diag(num_rows=1)", "tf.linalg.diag(diagonal=x, num_rows=1)", ([4, None], "float32"),
         "tf.constant([[1.0, 2.0]] * 4)"),
        ("sig [4, None]: diag(num_rows=3)", "tf.linalg.diag(diagonal=x, num_rows=3)", ([4, None], "float32"),
         "tf.constant([[1.0, 2.0]] * 4)"),
        ("sig [4, None]: diag(num_rows=0, num_cols=0)", "tf.linalg.diag(diagonal=x, num_rows=0, num_cols=0)",
         ([4, None], "float32"), "tf.constant([[1.0, 2.0]] * 4)"),
        ("sig [4, None]: diag(num_cols=1)", "tf.linalg.diag(diagonal=x, num_cols=1)", ([4, None], "float32"),
         "tf.constant([[1.0, 2.0]] * 4)"),
        # -- pad_to_bounding_box of an unknown rank: Assert ops, a later build error wins (seed 1420363003 #69)
        ("sig None: pad_to_bounding_box, then fft3d(np.uint64(0)) of seed 1420363003 #69",
         "(tf.image.pad_to_bounding_box(image=x, offset_height=0, offset_width=1, target_height=5, target_width=1), "
         "tf.signal.fft3d(input=np.uint64(0)))[1]", (None, "bool"), "tf.constant([[[False, False], [True, False]]])"),
        ("sig None: pad_to_bounding_box too narrow", "tf.image.pad_to_bounding_box(x, 0, 1, 5, 1)", (None, "bool"),
         "tf.constant([[[False, False], [True, False], [False, False]]])"),
        ("sig None: pad_to_bounding_box", "tf.image.pad_to_bounding_box(x, 0, 1, 5, 3)", (None, "float32"),
         "tf.ones([1, 2, 1])"),
    )],
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_fast_path_index_and_float_lists(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_kernel_lookup_before_input_types(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_unknown_lengths_and_graph_asserts(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz36b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
