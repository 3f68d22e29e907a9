"""Rules behind the disagreement classes fz43b closed, found by fz43's throwaway generator (tests/fuzz43/fz43_gen.py
seeds 43001 and 43002), each against real TensorFlow 2.21: the same call on both backends gives the same dtype and
values bit for bit (a NaN matching any NaN), or raises the same exception class, eagerly and in a tf.function.
Needs the `tf` extra.
"""

from __future__ import annotations

import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"
_C = "ops.conversion"


def _both(calls: tuple[str, ...], group: str) -> list[tuple[str, str, object]]:
    out = []
    for call in calls:
        out.append((call, group, _eager(call)))
        out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


# --- array_ops.zeros/ones: TensorShape(shape) first (each dimension an int), on its failure
# convert_to_tensor(shape, int32) (TypeError for a float or a string, ValueError for None), whose tensor Fill takes as
# dims (a matrix: "dims must represent a vector"); a graph's _constant_if_small truncates a small float list;
# gen_array_ops.fill converts dims alone (a float list float32: the NodeDef's index_type refusal eagerly, TypeError
# in a graph), a Python float on the fast path TypeError, an ndarray of floats cast (fz43_gen seed 43002)
def _shape_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.zeros(['AbC', ' x y '])", "tf.ones(['a'])", "tf.zeros([1.5, 2.0])", "tf.ones([2.0])", "tf.zeros('ab')",
        "tf.zeros([[1, 2]])", "tf.zeros(2.0)", "tf.zeros([None])", "tf.zeros(np.array([2.0]))", "tf.zeros([2, 3])",
        "tf.ones((np.int64(2), True))", "tf.zeros([2, 3], tf.string)",
        "tf.zeros(tf.constant(['1.5', 'nan', '-3']))", "tf.zeros(tf.constant([2.0]))", "tf.ones(tf.constant([2.0]))",
        "tf.zeros(tf.constant([2], tf.int64))",
        "tf.fill([[1.5, 2.0, -3.0], [4.0, 0.25, 7.0]], [[0, 1], [2, 3]])", "tf.fill([[1.5, 2.0, -3.0], [4.0, 0.25, 7.0]], [[]])",
        "tf.fill([1.5, 2.0], 1)", "tf.fill([[1.5]], 1)", "tf.fill([[1]], 1)", "tf.fill(2.0, 1)", "tf.fill(['a'], 1)",
        "tf.fill(np.array([[2.0]]), 1)", "tf.fill(np.array([2.5, 1.0]), 1)", "tf.fill(tf.constant([2.0]), 1)",
        "tf.fill(tf.constant([[2]]), 1)", "tf.fill([2, 1], 7)", "tf.fill(np.array([2], np.int64), 1.5)",
    ), _C)


# --- BroadcastTo's Tidx: a Python float shape on the fast path (the input not a list) is TypeError; a list
# holding a float or a str, a str, or a float tensor reach the fallback, whose NodeDef check refuses the dtype
# (InvalidArgumentError); op_def_library's TypeError in a graph; an ndarray of floats is cast (seed 43002)
def _broadcast_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.broadcast_to(np.array([1.0, 2.0], np.float64), -0.0)", "tf.broadcast_to([1.0], [2.0])",
        "tf.broadcast_to([1.0], 2.0)", "tf.broadcast_to([1.0], 'a')", "tf.broadcast_to(np.array([1.0]), [2.0])",
        "tf.broadcast_to(tf.ones([1]), 'a')", "tf.broadcast_to(tf.ones([1]), ['a'])",
        "tf.broadcast_to(tf.ones([1]), np.array([2.0]))", "tf.broadcast_to(tf.ones([1]), tf.constant([2.0]))",
        "tf.broadcast_to(1.0, [2.0])", "tf.broadcast_to(tf.ones([1]), [2, 2.0])",
        "tf.broadcast_to(tf.ones([1]), np.float32(2.0))", "tf.broadcast_to([1.0], [True])",
        "tf.broadcast_to(tf.ones([1]), [[2]])", "tf.broadcast_to(tf.ones([1]), [2, 3])",
    ), _C)


# --- reduction indices of rank 2 or more: the kernels read them flat; the shape function wants at most rank 1
# (nn.moments' reduce_mean, seed 43002)
def _axes_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.reduce_mean(tf.constant([[1.0, 2.0], [4.0, 8.0]]), [[0, 1]])",
        "tf.reduce_sum(tf.constant([[1.0, 2.0], [4.0, 8.0]]), [[0], [1]])",
        "tf.reduce_max(tf.constant([[1.0, 2.0, 3.0], [4.0, 8.0, -1.0]]), tf.constant([[1]]))",
        "tf.reduce_sum(tf.ones([2, 2]), [[0, 0]])", "tf.reduce_sum(tf.ones([2, 2]), [[5]])",
        "tf.reduce_mean(tf.constant([[1.0, 2.0], [4.0, 8.0]]), [[0, 1]], keepdims=True)",
        "tf.nn.moments(np.array([[1.0, 0.5], [0.25, 2.0]], np.float16), tf.constant([[1, 2], [3, 4]], tf.int64))",
        "tf.nn.moments(tf.ones([2, 2]), [[0, 1]])", "tf.nn.moments(tf.ones([2, 2]), [[0]])",
        "tf.nn.moments(tf.constant([[1.0, 2.0], [4.0, 8.0]]), [0])",
        # (a tensor of reduction indices that is no integer: the NodeDef's Tidx refusal eagerly, op_def_library's
        # TypeError in a graph, before their rank is read; nn.moments passes it as it is: seed 43002 re-run)
        "tf.nn.moments(np.array([[1.0, 0.5], [0.25, 2.0]], np.float16), tf.zeros([2, 0]))",
        "tf.nn.moments(tf.ones([2, 2]), tf.constant([0.0]))", "tf.nn.moments(tf.ones([2, 2]), tf.constant([0]))",
        "tf.reduce_sum(tf.ones([2, 2]), tf.constant([0.0]))", "tf.reduce_mean(tf.ones([2, 2]), tf.constant(0.0))",
        "tf.reduce_max([1.0, 2.0], tf.constant(0.0))", "tf.reduce_any([True], tf.constant(0.0))",
        # (a float or complex anywhere in a nested list of indices: converted alone, float32 or complex128, the
        # NodeDef's Tidx refusal; fz43_gen seeds 43003, 43004)
        "tf.nn.moments(tf.constant([1.0, -1.0], tf.bfloat16), [[0.0, -0.0], [float('nan'), float('inf')]])",
        "tf.nn.l2_normalize([[0.0, -0.0], [float('nan'), float('inf')]], [1+2j, -0.5j])",
        "tf.reduce_sum(tf.ones([2, 2]), [[0.0]])", "tf.reduce_sum([1.0], [1j])", "tf.reduce_sum(tf.ones([2]), [0, 1.0])",
        "tf.reduce_sum(tf.ones([2]), 1.0)",
    ), _K)


# --- image wrappers that compare in Python: central_crop's constant_value(central_fraction) (a tensor's NumPy
# value, a list as it is), adjust_hue's eager `delta < -1 or delta > 1` of a tensor; AdjustSaturation's and
# AdjustHue's float32 input type before the image's rank (seeds 43001, 43002)
def _image_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.image.central_crop(float('nan'), tf.constant([3, 1, 2]))",
        "tf.image.central_crop(tf.ones([1, 2, 2, 1]), [0.5])",
        "tf.image.central_crop(tf.ones([1, 2, 2, 1]), tf.constant([0.5]))",
        "tf.image.central_crop(tf.reshape(tf.range(16.0), [1, 4, 4, 1]), tf.constant(0.5))",
        "tf.image.central_crop(tf.ones([1, 4, 4, 1]), tf.constant([]))",
        "tf.image.central_crop(tf.ones([4, 4, 1]), np.array([0.5, 0.2]))",
        "tf.image.central_crop(tf.ones([4, 4, 1]), tf.constant(1.5))",
        "tf.image.adjust_hue([2147483647, -2147483648], tf.constant([[[[1.0], [2.0]], [[3.0], [4.0]]]]))",
        "tf.image.adjust_hue(tf.ones([2, 2, 3]), tf.constant(1.5))", "tf.image.adjust_hue(tf.ones([2, 2, 3]), tf.constant([]))",
        "tf.image.adjust_hue(tf.ones([2, 2, 3]), tf.constant([0.5, 0.1]))", "tf.image.adjust_hue(tf.ones([2, 2, 3]), [0.5])",
        "tf.image.adjust_hue(tf.constant([[[0.5, 0.25, 1.0]]]), tf.constant(0.25))",
        "tf.image.adjust_hue(tf.ones([2, 2, 3]), tf.constant(1, tf.int64))",
        "tf.image.adjust_saturation(0, tf.constant([[1, 2], [3, 4]], tf.int64))",
        "tf.image.adjust_saturation(tf.ones([2, 2, 3]), tf.constant(1, tf.int64))",
        "tf.image.adjust_saturation(tf.ones([2]), 2)",
        "tf.image.adjust_saturation(tf.ones([2, 2, 3]), tf.constant(1.0, tf.float64))",
        "tf.image.adjust_saturation(tf.constant([[[0.5, 0.25, 1.0]]]), 0.5)",
    ), _K)


# --- frame's num_frames `constant(0, dtype=frame_length.dtype)` before its arithmetic: a bool frame_length is that
# constant's TypeError (seed 43001); RegexFullMatch's eager fallback (not every input an eager tensor) converts
# each input with dtype string: a tensor of another dtype ValueError (seed 43002)
def _signal_string_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.signal.frame(tf.zeros([2, 0]), True, -1)", "tf.signal.frame([1.0, 2.0, 3.0], True, 1)",
        "tf.signal.frame([1.0, 2.0, 3.0], True, True)", "tf.signal.frame([1.0, 2.0, 3.0], 2, True)",
        "tf.signal.frame([1.0, 2.0, 3.0], True, 1, pad_end=True)", "tf.signal.frame([1.0, 2.0, 3.0, 4.0], 2, 1)",
        "tf.strings.regex_full_match([], tf.constant([[1, 2], [3, 4]], tf.int64))",
        "tf.strings.regex_full_match(['a'], tf.constant(1))", "tf.strings.regex_full_match(tf.constant(['a']), tf.constant(1))",
        "tf.strings.regex_full_match(tf.constant([1]), tf.constant('a'))", "tf.strings.regex_full_match([1], tf.constant('a'))",
        "tf.strings.regex_full_match('a', tf.constant(1.5))", "tf.strings.regex_full_match(tf.constant([1]), ['a'])",
        "tf.strings.regex_full_match(['ab', 'b'], tf.constant('a.'))",
    ), _K)


CASES: list[tuple] = [
    *_shape_cases(),
    *_broadcast_cases(),
    *_axes_cases(),
    *_image_cases(),
    *_signal_string_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_kernel_checks(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversion(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz43b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
