"""The rules issue 29's fz15a fixed (the fourteenth fuzzer's classes where TF 2.21 raises
TypeError), each against real TensorFlow 2.21: the same call on both backends gives the same dtype
and bits, or raises the same exception class; the `messages` group compares the TypeError's text
too (encoded as a tensor of character codes so that edge_compare sees it). Op attributes
converted as the generated wrappers' make_* do, inputs converted with the op def's dtype, list
inputs, type attrs checked before shapes, the debugging assertions' comparison ops, as_dtype of a
tensor and a tf.function returning a function (clause ops.attr-types). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_X = "tf.constant([1.0, 2.0, 3.0])"
_IMG = "tf.ones([1, 1, 1, 2])"
_TC = "tf.constant([[1]], tf.int64)"
_M = "tf.constant([[1.0, 2.0], [3.0, 4.0]])"
_BOXES = "tf.constant([[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0]])"


def _eager(call: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        return eval(call, {"tf": tf, "np": np})  # noqa: S307 - our own text
    return run


def _traced(call: str) -> Callable[[Any], Any]:
    """The call inside a tf.function (no arguments: its constants are graph constants)."""
    def run(tf: Any) -> Any:
        return tf.function(lambda: eval(call, {"tf": tf, "np": np}))()  # noqa: S307 - our own text
    return run


def _traced_arg(call: str, arg: str) -> Callable[[Any], Any]:
    """The call inside a tf.function of one tensor argument `t` (a graph tensor there)."""
    def run(tf: Any) -> Any:
        t = eval(arg, {"tf": tf, "np": np})  # noqa: S307 - our own text
        return tf.function(lambda t: eval(call, {"tf": tf, "np": np, "t": t}))(t)  # noqa: S307
    return run


def _message(call: str) -> Callable[[Any], Any]:
    """The class and text of the error the call raises, as character codes (an empty tensor when
    it returns)."""
    def run(tf: Any) -> Any:
        try:
            eval(call, {"tf": tf, "np": np})  # noqa: S307 - our own text
        except Exception as e:  # noqa: BLE001 - the error is the result
            return tf.constant([ord(c) for c in f"{type(e).__name__}: {e}"], tf.int32)
        return tf.constant([], tf.int32)
    return run


_ERRORS = [
    # bool attributes (make_bool)
    f"tf.math.cumsum({_X}, exclusive=1)", f"tf.math.cumprod({_X}, reverse=np.bool_(True))",
    f"tf.math.cumulative_logsumexp({_X}, exclusive=np.bool_(True))", f"tf.math.cumsum({_X}, exclusive=True)",
    f"tf.math.top_k({_X}, sorted=1)", f"tf.math.top_k({_X}, k=2, sorted=True)",
    "tf.matmul([[1.0]], [[2.0]], transpose_a=1)", "tf.matmul([[1.0]], [[2.0]], transpose_b=np.bool_(True))",
    f"tf.matmul({_M}, {_M}, adjoint_a=1)", f"tf.matmul({_M}, {_M}, grad_a=1)",
    "tf.matmul([[[1.0]]], [[[2.0]]], grad_a=1)", "tf.matmul([[[1.0]]], [[[2.0]]], adjoint_b=np.bool_(True))",
    "tf.matmul([[[1.0]]], [[[2.0]]], transpose_a=np.bool_(True))",
    "tf.matmul([[1.0]], [[2.0]], a_is_sparse=1)", "tf.matmul([[1.0]], [[2.0]], a_is_sparse=1, transpose_a=np.bool_(True))",
    "tf.matmul(tf.constant(-3.0, tf.bfloat16), np.array(-3.0, np.float32), adjoint_b=1, grad_b=2 ** 31)",
    "tf.linalg.matvec([[1.0]], [2.0], transpose_a=1)",
    "tf.linalg.matvec([5, 5], np.complex64(1j), transpose_a=1, a_is_sparse=np.bool_(True), b_is_sparse=1)",
    "tf.linalg.solve([[2.0]], [[1.0]], adjoint=np.bool_(True))", "tf.linalg.svd([[1.0]], compute_uv=1)",
    "tf.linalg.svd([[1.0]], full_matrices=1)", "tf.linalg.banded_triangular_solve([[1.0]], [[1.0]], lower=1)",
    "tf.linalg.triangular_solve([[1.0]], [[1.0]], lower=1)",
    "tf.math.approx_max_k([[1.0, 2.0]], 1, aggregate_to_topk=np.bool_(True))",
    "tf.nn.approx_min_k([[1.0, 2.0]], 1, recall_target=tf.constant(0.5))",
    "tf.as_string([1.5], shortest=np.bool_(True))", "tf.as_string([1.5], fill=1.0)", "tf.as_string([1.5], fill='0')",
    # int/float attributes (make_int, make_float)
    f"tf.nn.local_response_normalization({_IMG}, bias=np.array([1.0]))",
    f"tf.nn.local_response_normalization({_IMG}, bias=tf.constant(1.0))",
    f"tf.nn.local_response_normalization({_IMG}, depth_radius='2')",
    f"tf.nn.local_response_normalization({_IMG}, depth_radius=2.5)",
    "tf.reverse_sequence(tf.ones([2, 2]), [1, 1])", "tf.reverse_sequence(tf.ones([2, 2]), [1, 1], seq_axis=1, batch_axis=0.0)",
    "tf.one_hot([1], 3, axis=tf.constant(0))",
    # the candidate samplers: attributes, then true_classes with dtype int64
    *[f"tf.random.{s}({_TC}, 1, 2, unique=1, range_max=5, seed=1)" for s in
      ("uniform_candidate_sampler", "log_uniform_candidate_sampler", "learned_unigram_candidate_sampler")],
    f"tf.random.fixed_unigram_candidate_sampler({_TC}, 1, 2, unique=np.bool_(True), range_max=5, unigrams=[1.0] * 5)",
    f"tf.random.all_candidate_sampler({_TC}, 1, 2, unique=1)",
    "tf.random.uniform_candidate_sampler(0.25, 1, 2, unique=True, range_max=5, seed=1)",
    "tf.random.uniform_candidate_sampler(tf.constant([[0.25]]), 1, 2, unique=True, range_max=5, seed=1)",
    "tf.random.fixed_unigram_candidate_sampler([-1.5, 1.0, 7.0], 2, 0, True, 2)",
    "tf.nn.compute_accidental_hits(0.25, [[0]], num_true=1)",
    "tf.nn.compute_accidental_hits([[1]], [1, 0], num_true=1.5)",
    # list attributes
    "tf.nn.conv3d(tf.ones([1, 1, 1, 1, 1]), tf.ones([1, 1, 1, 1, 1]), tf.constant([1, 1, 1, 1, 1]), 'VALID')",
    "tf.nn.conv3d(tf.ones([1, 1, 1, 1, 1]), np.bool_(True), tf.constant([2, 3]), 'VALID', data_format='NCHW')",
    "tf.image.extract_patches(tf.ones([1, 2, 2, 1]), (4,), np.array([4]), [3], padding='VALID')",
    "tf.extract_volume_patches(tf.ones([1, 2, 2, 2, 1]), tf.constant([1, 1, 1, 1, 1]), [1, 1, 1, 1, 1], 'VALID')",
    "tf.nn.dilation2d(tf.ones([1, 2, 2, 1]), tf.ones([1, 1, 1]), [1, 1, 1, 1], 'SAME', 'NHWC', tf.constant([1, 1, 1, 1]))",
    "tf.nn.depthwise_conv2d_backprop_filter(tf.ones([1, 2, 2, 1]), [[1.0]], tf.ones([1, 1, 1, 1]), [1, 4, 3, 1], 'VALID')",
    # (not depthwise_conv2d_backprop_input(np.float32(2.5), ...): TF casts the NumPy scalar to int32 and its
    # oneDNN kernel aborts the process on the scalar input_sizes)
    # inputs sharing a type attr, fixed-dtype inputs
    "tf.linalg.set_diag([1, 2, 3], float('nan'))", "tf.linalg.triangular_solve(np.int8(3), float('nan'))",
    "tf.linalg.triangular_solve(tf.constant([[2.0]], tf.float64), [[1.0]])",
    "tf.linalg.solve([[2.0]], tf.constant([[1.0]], tf.float64))",
    "tf.linalg.solve(tf.ones([3, 3]), np.ones([3, 4], np.int64))",
    "tf.linalg.banded_triangular_solve(0, [[1.5]], lower=True)",
    "tf.logical_and(0, [1])", "tf.math.logical_or(2.5, np.array([1.0], np.float32))", "tf.logical_and(True, [False])",
    # type attrs before shapes and values
    "tf.nn.top_k(np.complex64(0), sorted=False)", "tf.math.top_k(np.float32(-1.5))",
    "tf.math.unsorted_segment_min(np.array([False, False]), segment_ids=[-1], num_segments=1)",
    "tf.histogram_fixed_width(tf.constant([1, 2], tf.uint64), [1, 0])",
    "tf.math.segment_mean(True, [1, 1, 1, 3])", "tf.math.segment_max(True, [0])",
    # the debugging assertions compare with the op
    "tf.debugging.assert_equal(tf.constant([1], tf.int32), tf.constant([1.0], tf.float64))",
    "tf.debugging.assert_less(np.array([[True]]), [[False]])",
    "tf.debugging.assert_equal(-(2 ** 63), np.array([3], np.int16))",
    "tf.constant(tf.debugging.assert_less(tf.constant([1]), tf.constant([2])) is None)",
    # image_ops' conversions, then the generated wrapper's (combined NMS's int32 max_output_size_per_class;
    # the NMS thresholds converted without a dtype)
    "tf.image.combined_non_max_suppression([[1.0, 1.0, -float('inf')]], scores=-1, max_output_size_per_class=[[65504.0, "
    "-3.0, 2.5]], max_total_size=np.array([[-1.5, float('nan'), -float('inf')]], dtype=np.float64), iou_threshold=-1.0)",
    "tf.image.combined_non_max_suppression(tf.zeros([1, 2, 1, 4]), tf.ones([1, 2, 1]), -0.0, 2)",
    "tf.image.combined_non_max_suppression(True, tf.ones([1, 2, 1]), float('inf'), 2)",
    "tf.image.combined_non_max_suppression([[[[0, 0, 1, 1]]]], [[[1]]], 2, 2)",
    "tf.image.combined_non_max_suppression(tf.zeros([1, 2, 1, 4]), tf.ones([1, 2, 1]), 2, 2, pad_per_class=1)",
    "tf.image.combined_non_max_suppression(np.zeros([1, 2, 1, 4]), np.ones([1, 2, 1]), np.int64(2), 2)",
    f"tf.image.non_max_suppression({_BOXES}, [0.5, 0.6], 2, iou_threshold=2)",
    f"tf.image.non_max_suppression({_BOXES}, [0.5, 0.6], 2, iou_threshold=1)",
    f"tf.image.non_max_suppression({_BOXES}, [0.5, 0.6], 2, iou_threshold=0.5)",
    # (scores a tensor: with a list, the eager fast path gives up and the fallback converts the int32 iou
    # tensor to float32, a ValueError simdist does not model)
    f"tf.image.non_max_suppression_with_scores({_BOXES}, tf.constant([0.5, 0.6]), 2, iou_threshold=1)",
    f"tf.image.non_max_suppression_with_scores({_BOXES}, [0.5, 0.6], 2, iou_threshold=0.5)",
    # Python wrappers that use the value as given (linalg_impl indexes it, nn_impl iterates the axes)
    "tf.linalg.tridiagonal_matmul(-3.0, np.ones((2, 1)))", "tf.linalg.tridiagonal_matmul([[1.0]], np.ones((2, 1)))",
    "tf.linalg.tridiagonal_matmul(np.ones((3, 2)), np.ones((2, 1)))",
    "tf.linalg.tridiagonal_matmul(np.float32(1), np.ones((2, 1)))",
    "tf.nn.sufficient_statistics(tf.constant(5, tf.uint8), axes=0)",
    "tf.nn.sufficient_statistics(tf.constant([[1, 2]], tf.uint16), 0, keepdims=True)",
    "tf.nn.sufficient_statistics(tf.constant([[1.0, 2.0]]), [0], keepdims=True)[:3]",
    # as_dtype
    "tf.dtypes.as_dtype(tf.constant([1, 2]))", "tf.zeros([1], tf.dtypes.as_dtype(np.zeros(2, np.int16)))", "tf.dtypes.as_dtype([1])",
]

_TRACED = [
    "tf.math.cumsum(tf.constant([1.0]), exclusive=1)", "tf.one_hot([1], 3, axis=tf.constant(0))",
    "tf.random.uniform_candidate_sampler(2 ** 31, 3, tf.constant(2), unique=True, range_max=5, seed=1)",
    "tf.random.uniform_candidate_sampler(tf.constant([[0.25]]), 1, 2, unique=True, range_max=5, seed=1)",
    "tf.nn.top_k(np.complex64(0), sorted=False)",
    "tf.math.unsorted_segment_min(np.array([False, False]), segment_ids=[-1], num_segments=1)",
    "tf.math.unsorted_segment_sqrt_n(tf.constant([1j, 2j], tf.complex64), [0, 1], 0)",
    "tf.math.segment_mean(True, [1, 1, 1, 3])", "tf.math.segment_sum(1.0, [0])",
    "tf.math.unsorted_segment_mean(tf.constant([1j, 2j], tf.complex64), [0, 1], 0)",
    "tf.debugging.assert_equal(tf.constant([1], tf.int32), tf.constant([1.0], tf.float64))",
    "tf.debugging.assert_less(np.array([[True]]), [[False]])",
    "tf.debugging.assert_less(tf.constant([1], tf.int64), tf.constant(-4, tf.int32))",
    "tf.signal.inverse_stft_window_fn(frame_step=2)", "tf.math.cumsum",
    f"tf.image.non_max_suppression({_BOXES}, [0.5, 0.6], 2, iou_threshold=1)",
    f"tf.image.non_max_suppression({_BOXES}, [0.5, 0.6], 2, score_threshold=0)",
    f"tf.image.non_max_suppression_with_scores({_BOXES}, [0.5, 0.6], 2, iou_threshold=1)",
    "tf.parallel_stack((np.float32(0.5), 255, np.array(7.0, dtype=np.float32)))",
    "tf.parallel_stack((np.float32(0.5), np.float32(255), np.array(7.0, dtype=np.float32)))",
]

_TRACED_ARG = [
    ("tf.shape_n(t)", "tf.constant([[1], [2]])"), ("tf.dynamic_stitch([[0, 1]], t)", "tf.constant([[1.0, 2.0]])"),
    ("tf.histogram_fixed_width(t, [1, 0])", "tf.constant([1, 2], tf.uint64)"),
    ("tf.histogram_fixed_width(t, [0.0, 1.0], nbins=-1)", "tf.constant([1, 2], tf.uint8)"),
    ("tf.shape_n([t, t])", "tf.constant([[1], [2]])"),
    ("tf.math.accumulate_n([t, t], shape=tf.constant([2], tf.int32))", "tf.constant([1, 2], tf.uint64)"),
    ("tf.math.accumulate_n([t, t], shape=[2])", "tf.constant([1, 2], tf.uint64)"),
]

_MESSAGES = [
    f"tf.math.cumsum({_X}, exclusive=1)", f"tf.math.cumprod({_X}, reverse=np.bool_(True))",
    "tf.matmul([[1.0]], [[2.0]], transpose_a=1)", "tf.matmul([[[1.0]]], [[[2.0]]], adjoint_b=np.bool_(True))",
    f"tf.nn.local_response_normalization({_IMG}, bias=np.array([1.0]))",
    f"tf.nn.local_response_normalization({_IMG}, depth_radius='2')", "tf.as_string([1.5], fill=1.0)",
    "tf.reverse_sequence(tf.ones([2, 2]), [1, 1])",
    f"tf.random.uniform_candidate_sampler({_TC}, 1, 2, unique=1, range_max=5, seed=1)",
    "tf.random.uniform_candidate_sampler(0.25, 1, 2, unique=True, range_max=5, seed=1)",
    "tf.nn.conv3d(tf.ones([1, 1, 1, 1, 1]), tf.ones([1, 1, 1, 1, 1]), tf.constant([1, 1, 1, 1, 1]), 'VALID')",
    "tf.image.extract_patches(tf.ones([1, 2, 2, 1]), (4,), np.array([4]), [3], padding='VALID')",
    "tf.linalg.set_diag([1, 2, 3], float('nan'))", "tf.logical_and(0, [1])",
    "tf.dtypes.as_dtype(tf.constant([1, 2]))",
]

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    *[(call, "eager", _eager(call)) for call in _ERRORS],
    *[(f"traced {call}", "traced", _traced(call)) for call in _TRACED],
    *[(f"traced {call} of {arg}", "traced", _traced_arg(call, arg)) for call, arg in _TRACED_ARG],
    *[(f"message of {call}", "messages", _message(call)) for call in _MESSAGES],
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.attr-types")
@EDGES.parametrize("eager")
def test_attr_types_eager(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("traced")
def test_attr_types_traced(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("messages")
def test_attr_types_messages(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz15a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
