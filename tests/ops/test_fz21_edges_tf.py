"""Rules behind the classes of issue 29's fresh campaigns on the older generators that fz21 ran
(fourth generator seed 2101, third generator seeds 2102 --ext8 and 2103, second generator seed 2104,
fourteenth generator seed 1420262101, first generator seed 2105), each against real TensorFlow 2.21:
the same call on both backends gives the same dtype and values, or raises the same exception class.
Eagerly, in a tf.function (`traced`), with an input_signature (`sig`: get_concrete_function on
placeholders, then a call) and under a GradientTape (`tape`). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig, var_traced as _var_traced, tape as _tape
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _raw_var(expr: str, var: str) -> Callable[[Any], Any]:
    """`expr` of a variable `v` (made by `var`), eagerly."""
    def run(tf: Any) -> Any:
        tf.constant(1.0) + 1.0
        v = eval(var, {"tf": tf, "np": np})  # noqa: S307 - our own text
        return eval(expr, {"tf": tf, "np": np, "v": v})  # noqa: S307 - our own text
    return run


_T = "function.trace-time-errors"
_C = "ops.conversion"
_LIN = "ops.linalg-more"
_ATTR = "ops.attr-types"
_C42 = "tf.ones((4, 2), tf.complex128)"
_A = "np.array([[2, 0, 1], [2, 5, 0]], np.int32)"
_V = "tf.Variable(np.array([[0.5, 4.0, 0.0], [1e10, 2.5, -1.0]], np.float32))"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # ConcatV2's shape function with a known axis: min rank, the parts before/after the axis merged
    # (third generator --ext8 seed 2102 #212)
    ("concat of an unknown rank, axis -1", _T, _sig(f"tf.concat([x, {_C42}, {_C42}], -1)", (None, "complex128"),
                                                   _C42)),
    ("concat of an unknown rank, axis 1", _T, _sig(f"tf.concat([x, {_C42}], 1)", (None, "complex128"),
                                                  "tf.ones((4, 3), tf.complex128)")),
    ("concat of an unknown rank, axis 0, call of another rank", _T, _sig(
        f"tf.concat([x, {_C42}], 0)", (None, "complex128"), "tf.ones((3,), tf.complex128)")),
    ("concat of an unknown rank, axis -3", _T, _sig(f"tf.concat([{_C42}, x], -3)", (None, "complex128"), _C42)),
    ("concat of an unknown rank, axis 2", _T, _sig(f"tf.concat([{_C42}, x], 2)", (None, "complex128"), _C42)),
    ("concat [None, 3] with [4, 2], axis 0", _T, _sig(f"tf.concat([x, {_C42}], 0)", ([None, 3], "complex128"),
                                                      "tf.ones((1, 3), tf.complex128)")),
    ("concat [None, 2] with [4, 2], axis 0", _T, _sig(f"tf.concat([x, {_C42}], 0)", ([None, 2], "complex128"),
                                                      "tf.ones((1, 2), tf.complex128)")),
    ("concat [None, None] with [4, 2], axis 1", _T, _sig(f"tf.concat([x, {_C42}], 1)", ([None, None], "complex128"),
                                                         "tf.ones((4, 5), tf.complex128)")),
    ("concat ranks 2 and 3, traced", _T, _traced("tf.concat([tf.ones((4, 2)), tf.ones((4, 2, 1))], -1)")),
    # the samplers' no-kernel error after the shape function in a graph (third generator --ext8 seed 2102 #17)
    ("stateless_categorical uint16 vector logits", _T, _eager(
        "tf.random.stateless_categorical(tf.constant([1, 3, 1], tf.uint16), 5, tf.constant([42, 13], tf.int64))")),
    ("stateless_categorical uint16 vector logits, traced", _T, _traced(
        "tf.random.stateless_categorical(tf.constant([1, 3, 1], tf.uint16), 5, tf.constant([42, 13], tf.int64))")),
    ("stateless_categorical uint16 matrix logits, traced", _T, _traced(
        "tf.random.stateless_categorical(tf.constant([[1, 3, 1]], tf.uint16), 5, [42, 13])")),
    ("stateless_categorical int32 logits, sig", _T, _sig(
        "tf.random.stateless_categorical(tf.constant([1, 3], tf.int32), 2, [1, 2])", (None, "float32"), "1.0")),
    ("categorical int64 vector logits, traced", _T, _traced(
        "tf.random.categorical(tf.constant([1, 3], tf.int64), 2, seed=1)")),
    ("categorical int64 vector logits", _T, _eager("tf.random.categorical(tf.constant([1, 3], tf.int64), 2, seed=1)")),
    # ReverseV2's shape function checks the axis before the kernel returns an empty input (third generator seed 2103 #52)
    ("reverse of an empty vector, scalar axis", _T, _eager("tf.reverse(tf.zeros((0,), tf.float16), 0)")),
    ("reverse of an empty vector, scalar axis, traced", _T, _traced("tf.reverse(tf.zeros((0,), tf.float16), 0)")),
    ("reverse of an empty vector, axis out of range, traced", _T, _traced("tf.reverse(tf.zeros((0,)), [3])")),
    ("reverse of an empty vector, axis out of range", _T, _eager("tf.reverse(tf.zeros((0,)), [3])")),
    ("reverse of an unknown rank, scalar axis, empty call", _T, _sig("tf.reverse(x, 0)", (None, "float16"),
                                                                     "tf.zeros((0,), tf.float16)")),
    ("reverse of an unknown rank, empty call", _T, _sig("tf.reverse(x, [0])", (None, "float16"),
                                                        "tf.zeros((0, 2), tf.float16)")),
    ("reverse of [None], axis 2, empty call", _T, _sig("tf.reverse(x, [2])", ([None], "float16"),
                                                       "tf.zeros((0,), tf.float16)")),
    # the fast path takes T from a variable beside NumPy arrays (fourth generator seed 2101 #57)
    ("where int32 array beside a float32 variable", _C, _raw_var(f"tf.where({_A} > 0, {_A}, v)", _V)),
    ("where float64 array beside a float32 variable", _C, _raw_var(f"tf.where({_A} > 0, {_A} + 0.5, v)", _V)),
    ("where bool array beside a float32 variable", _C, _raw_var(f"tf.where({_A} > 0, {_A} > 1, v)", _V)),
    ("where variable beside an int32 array", _C, _raw_var(f"tf.where({_A} > 0, v, {_A})", _V)),
    ("where list beside a float32 variable", _C, _raw_var(f"tf.where({_A} > 0, [[1, 2, 3], [4, 5, 6]], v)", _V)),
    ("where int32 array beside a float32 variable, traced", _C, _var_traced(f"tf.where({_A} > 0, {_A}, v)", _V)),
    ("raw SelectV2 int32 array beside a float32 variable", _C, _raw_var(
        f"tf.raw_ops.SelectV2(condition={_A} > 0, t={_A}, e=v)", _V)),
    ("raw SelectV2 list beside a float32 variable", _C, _raw_var(
        f"tf.raw_ops.SelectV2(condition={_A} > 0, t=[[1, 2, 3], [4, 5, 6]], e=v)", _V)),
    ("raw SelectV2 NumPy scalar beside a float32 variable", _C, _raw_var(
        f"tf.raw_ops.SelectV2(condition={_A} > 0, t=np.int32(2), e=v)", _V)),
    ("raw SelectV2 Python int beside a float32 variable", _C, _raw_var(
        f"tf.raw_ops.SelectV2(condition={_A} > 0, t=2, e=v)", _V)),
    ("raw Maximum float64 array beside a float32 variable", _C, _raw_var(f"tf.raw_ops.Maximum(x={_A} + 0.5, y=v)", _V)),
    ("raw AddN int32 array beside a float32 variable", _C, _raw_var(f"tf.raw_ops.AddN(inputs=[{_A}, v])", _V)),
    # NumPy text arrays cast with NumPy's astype to a numeric dtype (fz21, beside the where class)
    ("where text array beside a float32 variable", _C, _raw_var(f"tf.where({_A} > 0, np.array([['a', 'b', 'c']] * 2), v)",
                                                                _V)),
    ("constant of a text array as float32", _C, _eager("tf.constant(np.array(['1.5', '-2']), tf.float32)")),
    ("constant of a text array as int32", _C, _eager("tf.constant(np.array(['7']), tf.int32)")),
    ("constant of a bytes array as float64", _C, _eager("tf.constant(np.array([b'1.5']), tf.float64)")),
    ("constant of a text array as complex64", _C, _eager("tf.constant(np.array(['1+2j']), tf.complex64)")),
    ("constant of a non-number text array as float32", _C, _eager("tf.constant(np.array(['a']), tf.float32)")),
    ("constant of a text array as float32, traced", _C, _traced("tf.constant(np.array(['1.5']), tf.float32)")),
    ("constant of a non-number text array, traced", _C, _traced("tf.constant(np.array(['a']), tf.float32)")),
    ("maximum of a tensor and a text array", _C, _eager("tf.maximum(tf.constant([1.0]), np.array(['2.5']))")),
    ("tensor + a text array", _C, _eager("tf.constant([1.0]) + np.array(['a'])")),
    ("tensor - a text array", _C, _eager("tf.constant([1.0]) - np.array(['a'])")),
    ("math.add of a tensor and a text array", _C, _eager("tf.math.add(tf.constant([1.0]), np.array(['2.5']))")),
    # bool attrs through the generated wrappers' make_bool: np.bool_ and 1 refused (fourteenth generator seed
    # 1420262101 #147)
    ('inv adjoint np.bool_', _ATTR, _eager('tf.linalg.inv(tf.constant([[2.0, 0.0], [1.0, 4.0]]), adjoint=np.bool_(True))')),
    ('inv adjoint np.bool_ of a vector', _ATTR, _eager('tf.linalg.inv(tf.constant([0.5, 0.0, 1.0]), adjoint=np.bool_(True))')),
    ('inv adjoint 1', _ATTR, _eager('tf.linalg.inv(tf.constant([[2.0, 0.0], [1.0, 4.0]]), adjoint=1)')),
    ('qr full_matrices np.bool_', _ATTR, _eager('tf.linalg.qr(tf.constant([[2.0, 0.0], [1.0, 4.0]]), full_matrices=np.bool_(True))')),
    ('tridiagonal_solve partial_pivoting np.bool_', _ATTR, _eager('tf.linalg.tridiagonal_solve(tf.ones((3, 2)), tf.ones((2, 1)), partial_pivoting=np.bool_(True))')),
    ('tridiagonal_solve perturb_singular 1', _ATTR, _eager('tf.linalg.tridiagonal_solve(tf.ones((3, 2)), tf.ones((2, 1)), perturb_singular=1)')),
    ('bincount binary_output np.bool_', _ATTR, _eager('tf.math.bincount(tf.constant([1, 2]), binary_output=np.bool_(True))')),
    ('resize antialias np.bool_', _ATTR, _eager('tf.image.resize(tf.ones((1, 2, 2, 1)), [3, 3], antialias=np.bool_(True))')),
    ('resize antialias 0', _ATTR, _eager('tf.image.resize(tf.ones((1, 2, 2, 1)), [3, 3], antialias=0)')),
    ('resize lanczos3 antialias 1', _ATTR, _eager("tf.image.resize(tf.ones((1, 2, 2, 1)), [3, 3], method='lanczos3', antialias=1)")),
    ('unicode_decode replace_control_characters np.bool_', _ATTR, _eager("tf.strings.unicode_decode(tf.constant(['ab']), 'UTF-8', replace_control_characters=np.bool_(True))")),
    ('unicode_transcode replace_control_characters 1', _ATTR, _eager("tf.strings.unicode_transcode(tf.constant(['ab']), 'UTF-8', 'UTF-16-BE', replace_control_characters=1)")),
    ('encode_base64 pad np.bool_', _ATTR, _eager("tf.io.encode_base64(tf.constant(['ab']), pad=np.bool_(True))")),
    ('decode_raw little_endian np.bool_', _ATTR, _eager("tf.io.decode_raw(tf.constant(['abcd']), tf.int16, little_endian=np.bool_(True))")),
    ('sparse_dense_matmul adjoint_a np.bool_', _ATTR, _eager('tf.sparse.sparse_dense_matmul(tf.sparse.from_dense(tf.constant([[2.0, 0.0], [1.0, 4.0]])), tf.ones((2, 2)), adjoint_a=np.bool_(True))')),
    ('sparse.reduce_sum keepdims np.bool_', _ATTR, _eager('tf.sparse.reduce_sum(tf.sparse.from_dense(tf.constant([[2.0, 0.0], [1.0, 4.0]])), 0, keepdims=np.bool_(True))')),
    ('fractional_max_pool pseudo_random np.bool_', _ATTR, _eager('tf.nn.fractional_max_pool(tf.ones((1, 4, 4, 1)), [1, 2, 2, 1], pseudo_random=np.bool_(True), seed=1)')),
    ('fractional_avg_pool overlapping np.bool_', _ATTR, _eager('tf.nn.fractional_avg_pool(tf.ones((1, 4, 4, 1)), [1, 2, 2, 1], overlapping=np.bool_(True), seed=1)')),
    ('ctc_greedy_decoder merge_repeated np.bool_', _ATTR, _eager('tf.nn.ctc_greedy_decoder(tf.ones((2, 1, 3)), tf.constant([2]), merge_repeated=np.bool_(True))')),
    ('sparse.segment_sum sparse_gradient np.bool_', _ATTR, _eager('tf.sparse.segment_sum(tf.ones((2, 2)), [0, 1], [0, 1], sparse_gradient=np.bool_(True))')),
    # fourteenth generator seed 1420262101: conversions and checks in TF's order (#171, #222, #233, #212, #178)
    ('where of a float condition, NumPy uint32 x and a list y', _C, _eager('tf.where(condition=np.array([0.0]), x=np.uint32(3), y=[-3.0])')),
    ('where of a float condition, Python x and a list y', _C, _eager('tf.where(np.array([0.0]), 3, [-3.0])')),
    ('where of a float condition, convertible operands', _C, _eager('tf.where(np.array([0.0]), 3, [4])')),
    ('stateless_normal int64 tensor mean', _C, _eager("tf.random.stateless_normal([], tf.constant([5, 6]), mean=tf.constant([[[]]], tf.int64), alg='threefry')")),
    ('stateless_normal float64 tensor stddev', _C, _eager('tf.random.stateless_normal([2], [5, 6], stddev=tf.constant(2.0, tf.float64))')),
    ('stateless_truncated_normal int64 mean, traced', _C, _traced("tf.random.stateless_truncated_normal([], tf.constant([5, 6]), mean=tf.constant([[[]]], tf.int64), alg='threefry')")),
    ('unsorted_segment_sum of num_segments -1', _T, _eager('tf.math.unsorted_segment_sum(np.array([[2]], np.int64), segment_ids=[[0]], num_segments=-1)')),
    ('unsorted_segment_sum of num_segments -1, traced', _T, _traced('tf.math.unsorted_segment_sum(np.array([[2]], np.int64), segment_ids=[[0]], num_segments=-1)')),
    ('unsorted_segment_max of num_segments -2, traced', _T, _traced('tf.math.unsorted_segment_max(np.array([[2.0]]), segment_ids=[0], num_segments=-2)')),
    ('unsorted_segment_sum of num_segments 0, traced', _T, _traced('tf.math.unsorted_segment_sum(np.array([[2]], np.int64), segment_ids=[[0]], num_segments=0)')),
    ('unsorted_segment_sum of a negative num_segments and a bad prefix, traced', _T, _traced('tf.math.unsorted_segment_sum(np.ones((2, 3)), segment_ids=[0, 0, 1], num_segments=-1)')),
    ('depthwise backprop filter of float filter_sizes, NCHW', _T, _eager("tf.nn.depthwise_conv2d_backprop_filter(tf.ones((1,)), filter_sizes=tf.constant([1.0]), out_backprop=np.array([-3.4e+38], np.float32), strides=np.array([], np.int64), padding='SAME', data_format='NCHW')")),
    ('ctc_loss of a np.bool_ unique', _ATTR, _eager('tf.nn.ctc_loss(labels=tf.constant([True, False, True]), logits=0.5, label_length=[True, False, True], logit_length=[False, False, False], unique=np.bool_(True))')),
    ('ctc_loss of a one-tensor unique', _ATTR, _eager('tf.nn.ctc_loss(labels=tf.constant([[1, 2]]), logits=tf.zeros((3, 1, 4)), label_length=[2], logit_length=[3], unique=(tf.constant([[1, 2]]),))')),
    # the fast path reads a variable input as it is (fourteenth generator seed 1420262101 #172)
    ('combined_nms of a float32 variable max_output_size_per_class', _C, _raw_var('tf.image.combined_non_max_suppression(tf.ones((1, 3, 1, 4)), tf.ones((1, 3, 2)), max_output_size_per_class=v, max_total_size=2)', 'tf.Variable(np.ones((2, 3, 3), np.float32))')),
    ('combined_nms of an int32 variable max_output_size_per_class', _C, _raw_var('tf.image.combined_non_max_suppression(tf.ones((1, 3, 1, 4)), tf.ones((1, 3, 2)), max_output_size_per_class=v, max_total_size=2)', 'tf.Variable(2)')),
    ('combined_nms of a float32 variable beside a list', _C, _raw_var('tf.image.combined_non_max_suppression([[[[0.0, 0.0, 1.0, 1.0]]]], tf.ones((1, 1, 2)), max_output_size_per_class=v, max_total_size=2)', 'tf.Variable(np.ones((2,), np.float32))')),
    # MatrixInverse of matrices holding inf/NaN: Eigen's PartialPivLU and its solve of the identity
    # (third generator --ext8 seed 2102 #24)
    ("inv of a NaN inside", _LIN, _eager("tf.linalg.inv(tf.constant([[1.0, 2.0, 3.0], [4.0, np.nan, 6.0], "
                                         "[7.0, 8.0, 10.0]], tf.float64))")),
    ("inv of an inf corner", _LIN, _eager("tf.linalg.inv(tf.constant([[1.0, 2.0], [3.0, np.inf]], tf.float64))")),
    ("inv of an inf first pivot, float32", _LIN, _eager("tf.linalg.inv(tf.constant([[np.inf, 2.0], [3.0, 4.0]]))")),
    ("inv 3x3 with inf", _LIN, _eager("tf.linalg.inv(tf.constant([[-0.22, 1.13, -0.88], [1.03, -1.07, np.inf], "
                                      "[1.52, 0.89, 1.03]], tf.float64))")),
    ("inv 4x4 with inf, float32", _LIN, _eager(
        "tf.linalg.inv(tf.constant([[-0.46, -1.22, -1.11, 1.01], [-0.18, -0.5, -0.77, -0.15], "
        "[1.35, 1.73, 2.57, np.inf], [-1.11, 0.22, 0.43, 0.57]]))")),
    ("inv 3x3 with -inf", _LIN, _eager("tf.linalg.inv(tf.constant([[-0.31, -0.8, -np.inf], [0.09, -0.15, 0.02], "
                                       "[-0.54, 1.49, 2.86]], tf.float64))")),
    ("solve with a NaN inside", _LIN, _eager("tf.linalg.solve(tf.constant([[1.0, 2.0, 3.0], [4.0, np.nan, 6.0], "
                                             "[7.0, 8.0, 10.0]], tf.float64), tf.ones((3, 2), tf.float64))")),
    ("solve with an inf corner", _LIN, _eager("tf.linalg.solve(tf.constant([[1.0, 2.0], [3.0, np.inf]], tf.float64), "
                                              "tf.constant([[1.0], [-2.0]], tf.float64))")),
    ("solve 3x3 with inf, float32", _LIN, _eager("tf.linalg.solve(tf.constant([[-0.22, 1.13, -0.88], [1.03, -1.07, "
                                                 "np.inf], [1.52, 0.89, 1.03]]), tf.constant([[0.5], [1.0], [-2.0]]))")),
    ("solve of an inf first pivot that is not invertible", _LIN, _eager(
        "tf.linalg.solve(tf.constant([[np.inf, 2.0], [np.inf, 4.0]], tf.float64), tf.ones((2, 1), tf.float64))")),
    ("solve adjoint with -inf", _LIN, _eager("tf.linalg.solve(tf.constant([[-0.31, -0.8, -np.inf], [0.09, -0.15, "
                                             "0.02], [-0.54, 1.49, 2.86]], tf.float64), tf.ones((3, 1), tf.float64), "
                                             "adjoint=True)")),
    ("inv adjoint of a batch with NaN and inf, tape", _LIN, _tape(
        "tf.linalg.inv(x, True)", "tf.constant([[[2.5, 0.25, 2.5], [1e10, np.nan, 5e-324], [-1.0, -0.0, np.inf]], "
        "[[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [1.0, 0.0, 1.0]]], tf.float64)")),
]


def _parts_agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """edge_compare.bits_agree, complex part by part (a NaN part matching any NaN part)."""
    if got.dtype.kind == "c":
        return edge_compare.bits_agree(np.array(got.real), np.array(want.real)) & \
            edge_compare.bits_agree(np.array(got.imag), np.array(want.imag))
    return edge_compare.bits_agree(got, want)


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_bool_attrs_take_bools_only(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_inverse_and_solve_of_nonfinite_matrices(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz21_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
